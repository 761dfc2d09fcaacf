//! The one resumable generation driver of the placement sectors, for every
//! board whose tables live on disk (Nine Men's Morris over its tuned index,
//! Morabaraba over the symmetry-reduced one): each sector solved in one
//! forward pass ([`crate::tables::placement_pass::solve`]), in the order of
//! [`Sector::all`] (by the stones left in hand, down to the empty board),
//! reading the one or two tables its placements lead into (a sector solved
//! before, or a moving-phase subspace) as two-bit outcomes, held while a
//! sector still to solve reads them; each sector written atomically as
//! soon as it is solved, so a cut-off run resumes with the first sector
//! without a file.
//!
//! Placement tables carry no distance: their entries are outcomes packed
//! four to a byte (the format's outcome entries, a third of the bytes of
//! one-byte entries once compressed).

use crate::index::Indexing;
use crate::rules::board::Board;
use crate::rules::variant::RuleSet;
use crate::tables::files::FamilyTables;
use crate::tables::keys::{Sector, TableId};
use crate::tables::placement_pass;
use crate::tables::TablesError;
use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;
use tablebase::format::summarize_outcomes;
use tablebase::reader::Table;
use tablebase::resident::Wdl;
use tablebase::retro::Observer;
use tablebase::set::Directory;

/// zstd level of placement sectors: packed two-bit outcomes compress as
/// well at level 1 as at 9 (the 6-stone Nine game's `5-5-1-0`: 0.63
/// against 0.62 bits a slot), at a sixth of the time.
pub const ZSTD_LEVEL: i32 = 1;

/// What a generation reports about one sector (from its file's header).
#[derive(Debug, Clone)]
pub struct SectorReport {
    /// The sector.
    pub sector: Sector,
    /// Index slots.
    pub slots: u64,
    /// Positions (used slots).
    pub positions: u64,
    /// Wins, draws and losses for the side to move.
    pub wdl: [u64; 3],
    /// Bytes of its file.
    pub bytes: u64,
    /// Wall-clock seconds of the pass and the writing (0 when resumed).
    pub seconds: f64,
    /// The file was there already and was checked, not solved again.
    pub resumed: bool,
}

impl SectorReport {
    /// The report of `sector` from its table's header (as found on disk).
    pub fn of(sector: Sector, table: &Table) -> SectorReport {
        let h = table.header();
        SectorReport {
            sector,
            slots: h.slots,
            positions: h.positions,
            wdl: [h.wins, h.draws, h.losses],
            bytes: table.bytes(),
            seconds: 0.0,
            resumed: true,
        }
    }
}

/// What a generation tells of its sectors, beside each sector's pass.
pub trait SectorObserver: Observer {
    /// A sector was found complete on disk (every block checked).
    fn skipped(&self, _report: &SectorReport) {}
    /// A sector was solved and written.
    fn solved(&self, _report: &SectorReport) {}
}

/// The tables placements lead into, held as two-bit outcomes while a
/// sector still to solve (or verify) reads them.
pub(crate) struct Successors<B: Board, I: Indexing> {
    tables: Directory<FamilyTables<B, I>>,
    held: HashMap<TableId, Arc<Wdl>>,
}

impl<B: Board, I: Indexing> Successors<B, I> {
    /// None held yet; the tables of `rules` read from `dir` on first need.
    pub(crate) fn new(dir: &Path, rules: RuleSet) -> Successors<B, I> {
        Successors {
            tables: Directory::new(dir, FamilyTables::new(rules)),
            held: HashMap::new(),
        }
    }

    fn get(&mut self, id: TableId) -> Result<Arc<Wdl>, TablesError> {
        if let Some(w) = self.held.get(&id) {
            return Ok(w.clone());
        }
        // Under a count rule at a count of zero: every placement restarts it.
        let limit = self.tables.set().rules().quiet_limit;
        let w = Arc::new(Wdl::load_within(&self.tables.open(id)?, limit)?);
        self.held.insert(id, w.clone());
        Ok(w)
    }

    /// The tables `sector`'s placements lead into: without a removal, and
    /// after one (`None` when no lookup is ever made there: no opponent
    /// stone on the board, or the removal wins at once).
    pub(crate) fn of(
        &mut self,
        sector: Sector,
    ) -> Result<(Arc<Wdl>, Option<Arc<Wdl>>), TablesError> {
        let plain = self.get(sector.after(false))?;
        let removal = if sector.them > 0 && !sector.removal_wins() {
            Some(self.get(sector.after(true))?)
        } else {
            None
        };
        Ok((plain, removal))
    }

    /// Forget every table that no sector of `keep` reads.
    pub(crate) fn retain(&mut self, keep: &[Sector]) {
        let needed: Vec<TableId> = keep
            .iter()
            .flat_map(|s| [s.after(false), s.after(s.them > 0)])
            .collect();
        self.held.retain(|id, _| needed.contains(id));
    }
}

/// Generate the placement sectors `todo` (in the order [`Sector::all`]
/// lists them) of board `B` over index `I` under `rules` into `dir`.
/// A sector whose file is there is checked (header and every block's
/// checksum) and skipped; the tables a sector's placements lead into must
/// be on disk or earlier in `todo`.
pub fn generate<B: Board, I: Indexing>(
    dir: &Path,
    rules: RuleSet,
    todo: &[Sector],
    observer: &dyn SectorObserver,
) -> Result<Vec<SectorReport>, TablesError> {
    let tables = Directory::new(dir, FamilyTables::<B, I>::new(rules));
    I::warm_up::<B>();
    let mut succ = Successors::<B, I>::new(dir, rules);
    let mut out = Vec::new();
    for (i, &sector) in todo.iter().enumerate() {
        let id = TableId::Placement(sector);
        if tables.exists(id) {
            let table = tables.open(id)?;
            table.verify()?;
            let report = SectorReport::of(sector, &table);
            observer.skipped(&report);
            out.push(report);
            continue;
        }
        succ.retain(&todo[i..]);
        let (plain, removal) = succ.of(sector)?;
        let started = Instant::now();
        let size = I::size::<B>(sector.subspace());
        observer.start(&sector.to_string(), size);
        let packed =
            placement_pass::solve::<B, I, _, _>(sector, &*plain, removal.as_deref(), observer);
        observer.finish();
        let positions = I::positions::<B>(sector.subspace());
        let header = summarize_outcomes(&packed, size, positions);
        let bytes = tables.write_outcomes(id, &header, &packed, ZSTD_LEVEL)?;
        let mut report = SectorReport::of(sector, &tables.open(id)?);
        report.bytes = bytes;
        report.seconds = started.elapsed().as_secs_f64();
        report.resumed = false;
        observer.solved(&report);
        out.push(report);
    }
    Ok(out)
}
