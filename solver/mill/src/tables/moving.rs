//! The one resumable generation driver of the moving phase, for every board
//! whose tables live on disk (Nine Men's Morris over its tuned index,
//! Morabaraba and any other board over the symmetry-reduced one): pair by
//! pair in the order of [`crate::tables::pairs`], each pair solved on the
//! retrograde engine ([`crate::tables::pair::MovingPair`]) and each of its
//! subspaces written to its own file as soon as the pair is solved, so
//! that a cut-off run resumes with the first pair not on disk.
//!
//! A pair holds in memory only the outcomes (two bits a slot) of the
//! subspaces its removals lead into, read back from their files and
//! dropped when the pair is written: every subspace is the exit of exactly
//! one other, so each file is read once and the largest pair of Nine
//! (8-9, 9-8) holds its two exits at 256 MB each.

use crate::index::Indexing;
use crate::rules::board::Board;
use crate::rules::variant::RuleSet;
use crate::tables::files::FamilyTables;
use crate::tables::keys::{Subspace, TableId};
use crate::tables::pair::{ExitMissing, MovingPair};
use std::collections::BTreeMap;
use std::path::Path;
use std::time::Instant;
use tablebase::format::{summarize, FormatError};
use tablebase::reader::Table;
use tablebase::resident::Wdl;
use tablebase::retro::{solve, Observer, RetroError};
use tablebase::set::{Directory, SetError, ZSTD_LEVEL};

/// Errors of generating tables on disk.
#[derive(Debug, thiserror::Error)]
pub enum TablesError {
    /// A file could not be read, written or understood.
    #[error(transparent)]
    Format(#[from] FormatError),
    /// The table directory: a file missing, unknown, or holding another
    /// table than its name says.
    #[error(transparent)]
    Set(#[from] SetError),
    /// The retrograde engine failed.
    #[error(transparent)]
    Retro(#[from] RetroError),
    /// A subspace that a pair's removals lead into is not on disk.
    #[error(transparent)]
    Exit(#[from] ExitMissing),
}

/// What a generation reports about one subspace (from its file's header).
#[derive(Debug, Clone)]
pub struct SubspaceReport {
    /// The subspace.
    pub sub: Subspace,
    /// Index slots.
    pub slots: u64,
    /// Positions (used slots).
    pub positions: u64,
    /// Wins, draws and losses for the side to move.
    pub wdl: [u64; 3],
    /// Longest win (plies to conversion).
    pub longest_win: u16,
    /// Longest loss (plies to conversion).
    pub longest_loss: u16,
    /// Bytes of its file.
    pub bytes: u64,
    /// Its file's label.
    pub label: String,
}

impl SubspaceReport {
    /// The report of `sub` from its table's header.
    pub fn of(sub: Subspace, table: &Table) -> SubspaceReport {
        let h = table.header();
        SubspaceReport {
            sub,
            slots: h.slots,
            positions: h.positions,
            wdl: [h.wins, h.draws, h.losses],
            longest_win: h.max_win,
            longest_loss: h.max_loss,
            bytes: table.bytes(),
            label: h.label.clone(),
        }
    }
}

/// What a generation reports about one pair.
#[derive(Debug, Clone)]
pub struct PairReport {
    /// The pair (`W ≥ B`).
    pub pair: Subspace,
    /// Its subspaces (one or two).
    pub parts: Vec<SubspaceReport>,
    /// Wall-clock seconds of the solve and the writing (0 when resumed).
    pub seconds: f64,
    /// The files were there already and were checked, not solved again.
    pub resumed: bool,
}

impl PairReport {
    /// Index slots of the pair's subspaces.
    pub fn slots(&self) -> u64 {
        self.parts.iter().map(|p| p.slots).sum()
    }

    /// Positions (used slots) of the pair's subspaces.
    pub fn positions(&self) -> u64 {
        self.parts.iter().map(|p| p.positions).sum()
    }
}

/// What a generation tells of its pairs, beside the engine's passes.
pub trait GenerateObserver: Observer {
    /// A pair was found complete on disk (every file checked).
    fn skipped(&self, _report: &PairReport) {}
    /// A pair of `positions` positions in `slots` slots is about to be
    /// solved.
    fn solving(&self, _pair: Subspace, _positions: u64, _slots: u64) {}
    /// A pair was solved and written.
    fn solved(&self, _report: &PairReport) {}
}

/// Generate the moving-phase pairs `todo` (in dependency order, as
/// [`crate::tables::pairs`] lists them; either name of a pair) of board `B` over
/// index `I` under `rules` into `dir`. A pair whose files are all there is
/// checked (header and every block's checksum) and skipped; the
/// subspaces its removals lead into must be on disk or earlier in `todo`.
pub fn generate<B: Board, I: Indexing>(
    dir: &Path,
    rules: RuleSet,
    todo: &[Subspace],
    observer: &dyn GenerateObserver,
) -> Result<Vec<PairReport>, TablesError> {
    if dir.exists() && !dir.is_dir() {
        return Err(SetError::Dir {
            path: dir.to_owned(),
            source: std::io::Error::other("not a directory"),
        }
        .into());
    }
    let tables = Directory::new(dir, FamilyTables::<B, I>::new(rules));
    tables.create()?;
    I::warm_up::<B>();
    todo.iter()
        .map(|&pair| generate_pair(&tables, super::pair_of(pair), observer))
        .collect()
}

/// One pair into `tables`: checked and skipped when its files are there,
/// else solved from its exits' files and written.
fn generate_pair<B: Board, I: Indexing>(
    tables: &Directory<FamilyTables<B, I>>,
    pair: Subspace,
    observer: &dyn GenerateObserver,
) -> Result<PairReport, TablesError> {
    let parts = super::parts(pair);
    let id = TableId::Moving;
    if parts.iter().all(|&s| tables.exists(id(s))) {
        let mut reports = Vec::new();
        for &s in &parts {
            let table = tables.open(id(s))?;
            table.verify()?;
            reports.push(SubspaceReport::of(s, &table));
        }
        let report = PairReport {
            pair,
            parts: reports,
            seconds: 0.0,
            resumed: true,
        };
        observer.skipped(&report);
        return Ok(report);
    }
    // Only the outcomes of the exits matter here, two bits a slot (under a
    // count rule, each at a count of zero: a removal restarts it).
    let limit = tables.set().rules().quiet_limit;
    let mut exits: BTreeMap<Subspace, Wdl> = BTreeMap::new();
    for e in parts.iter().filter_map(|s| s.exit()) {
        exits.insert(e, Wdl::load_within(&tables.open(id(e))?, limit)?);
    }
    let positions: Vec<u64> = parts.iter().map(|&s| I::positions::<B>(s)).collect();
    let slots = parts.iter().map(|&s| I::size::<B>(s)).sum();
    observer.solving(pair, positions.iter().sum(), slots);
    let start = Instant::now();
    let game = MovingPair::<B, I, Wdl>::new(tables.set().rules(), pair, |e| exits.get(&e))?;
    let (values, _) = solve(&game, observer)?;
    drop(exits);
    let mut reports = Vec::new();
    for ((&s, vals), &n) in parts.iter().zip(&values).zip(&positions) {
        let bytes = tables.write_values(id(s), &summarize(vals, n), vals, ZSTD_LEVEL)?;
        let mut report = SubspaceReport::of(s, &tables.open(id(s))?);
        report.bytes = bytes;
        reports.push(report);
    }
    let report = PairReport {
        pair,
        parts: reports,
        seconds: start.elapsed().as_secs_f64(),
        resumed: false,
    };
    observer.solved(&report);
    Ok(report)
}
