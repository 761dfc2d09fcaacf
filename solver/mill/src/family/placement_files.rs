//! Placement sectors of a large board of the family (Morabaraba) over the
//! symmetry-reduced index ([`super::symmetric`]), one file each next to the
//! moving-phase tables ([`super::moving_tables`]): every position with
//! stones in hand stored, in Malom's sector numbering `W-B-WF-BF`
//! (`morabaraba-flying-5-4-3-3.tb`, label `morabaraba/flying/5-4-3-3`).
//!
//! Sectors are solved by the pass every board shares
//! ([`crate::placement_pass::solve`]), one forward pass each, in order of
//! the stones left in hand ([`Sector::all`]), reading the one or two tables
//! its placements lead into (a sector solved before, or a moving-phase
//! subspace) as two-bit outcomes; each is written atomically as soon as it
//! is solved, so a cut-off run resumes with the first sector without a
//! file. A sector's values do not depend on the stones a side of the game
//! (a position's board and hands say everything), so the sectors of the
//! N-stone game are those of the 12-stone game with at most N stones a
//! side, under the same file names: a smaller game's run is the start of
//! the full one. A full board arises only from the last placement; its
//! value (a draw, or a loss under `--blocked-loses`) is the moving-phase
//! table 12-12's.

use super::files::{self, FilesError};
use super::moving_tables::{recount, TablesError};
use super::symmetric::{self, Symmetric};
use crate::board::Board;
use crate::geometry::Bits;
use crate::placement_pass;
use crate::sector::{recompute, Sector, TableId};
use crate::variant::RuleSet;
use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;
use tablebase::format::summarize_outcomes;
use tablebase::reader::Table;
use tablebase::resident::Wdl;
use tablebase::retro::Observer;
use tablebase::{Outcome, Value};

/// zstd level of placement sectors: packed two-bit outcomes compress as
/// well at level 1 as at 9 (measured on Nine Men's Morris's sectors).
const ZSTD_LEVEL: i32 = 1;

/// What generation reports about one sector.
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

/// Every placement sector of the game with `stones` stones a side, in the
/// order generation solves them.
pub fn sectors(stones: u8) -> Vec<Sector> {
    Sector::all(stones)
}

/// Slots of a sector (those of its subspace).
pub fn slots<B: Board>(sector: Sector) -> u64 {
    symmetric::size::<B>(sector.subspace())
}

fn check_stones<B: Board>(stones: u8) -> Result<(), TablesError> {
    if stones < 3 || stones as usize > B::POINTS / 2 {
        return Err(TablesError::MaxStones {
            max: stones,
            limit: B::POINTS / 2,
        });
    }
    Ok(())
}

/// Open a sector's file (label, size and entry kind checked).
pub fn open<B: Board>(dir: &Path, rules: RuleSet, sector: Sector) -> Result<Table, FilesError> {
    Ok(files::directory::<B, Symmetric>(dir, rules).open(TableId::Placement(sector))?)
}

/// Whether a sector's file exists (not whether it is sound).
pub fn exists<B: Board>(dir: &Path, rules: RuleSet, sector: Sector) -> bool {
    files::directory::<B, Symmetric>(dir, rules).exists(TableId::Placement(sector))
}

/// The report of a sector from its file's header.
fn report_from(sector: Sector, table: &Table) -> SectorReport {
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

/// The tables placements lead into, held as two-bit outcomes while a
/// sector still to solve needs them.
struct Successors<'d> {
    dir: &'d Path,
    rules: RuleSet,
    held: HashMap<TableId, Arc<Wdl>>,
}

impl Successors<'_> {
    fn get<B: Board>(&mut self, id: TableId) -> Result<Arc<Wdl>, TablesError> {
        if let Some(w) = self.held.get(&id) {
            return Ok(w.clone());
        }
        let table = match id {
            TableId::Moving(sub) => files::open_moving::<B, Symmetric>(self.dir, self.rules, sub)?,
            TableId::Placement(s) => open::<B>(self.dir, self.rules, s)?,
        };
        let w = Arc::new(Wdl::load(&table)?);
        self.held.insert(id, w.clone());
        Ok(w)
    }

    /// The tables `sector`'s placements lead into: without a removal, and
    /// after one (`None` when no lookup is ever made there: no opponent
    /// stone on the board, or the removal wins at once).
    fn of<B: Board>(
        &mut self,
        sector: Sector,
    ) -> Result<(Arc<Wdl>, Option<Arc<Wdl>>), TablesError> {
        let plain = self.get::<B>(sector.after(false))?;
        let removal = if sector.them > 0 && !sector.removal_wins() {
            Some(self.get::<B>(sector.after(true))?)
        } else {
            None
        };
        Ok((plain, removal))
    }

    /// Forget every table that no sector of `keep` reads.
    fn retain(&mut self, keep: &[Sector]) {
        let needed: Vec<TableId> = keep
            .iter()
            .flat_map(|s| [s.after(false), s.after(s.them > 0)])
            .collect();
        self.held.retain(|id, _| needed.contains(id));
    }
}

/// Solve every placement sector of the `stones`-stone game under `rules`
/// (the files' rule set: the variant's own stones a side) into `dir`,
/// skipping sectors whose files are there and sound (block checksums
/// checked); the moving-phase subspaces with 3..=`stones` stones a side
/// must be there ([`super::moving_tables::generate`]). `observer` follows
/// each pass, `report` hears of every sector.
pub fn generate<B: Board>(
    dir: &Path,
    rules: RuleSet,
    stones: u8,
    observer: &dyn Observer,
    mut report: impl FnMut(&SectorReport),
) -> Result<Vec<SectorReport>, TablesError> {
    check_stones::<B>(stones)?;
    symmetric::warm_up::<B>();
    let all = sectors(stones);
    let mut succ = Successors {
        dir,
        rules,
        held: HashMap::new(),
    };
    let mut out = Vec::new();
    for (i, &sector) in all.iter().enumerate() {
        succ.retain(&all[i..]);
        let r = solve_sector::<B>(&mut succ, sector, observer)?;
        report(&r);
        out.push(r);
    }
    Ok(out)
}

/// Solve one placement sector into `dir` (as [`generate`] does in its
/// turn), the tables it reads on disk: the job `W-B-WF-BF` of the
/// workflow ([`crate::plan::morabaraba`]). A sound file already there is
/// checked and reported, not solved again.
pub fn generate_sector<B: Board>(
    dir: &Path,
    rules: RuleSet,
    sector: Sector,
    observer: &dyn Observer,
) -> Result<SectorReport, TablesError> {
    check_stones::<B>((sector.us + sector.us_hand).max(sector.them + sector.them_hand))?;
    symmetric::warm_up::<B>();
    let mut succ = Successors {
        dir,
        rules,
        held: HashMap::new(),
    };
    solve_sector::<B>(&mut succ, sector, observer)
}

/// Solve `sector` from the tables `succ` reads and write its file, or
/// check the file already there.
fn solve_sector<B: Board>(
    succ: &mut Successors<'_>,
    sector: Sector,
    observer: &dyn Observer,
) -> Result<SectorReport, TablesError> {
    let set = files::directory::<B, Symmetric>(succ.dir, succ.rules);
    let id = TableId::Placement(sector);
    if set.exists(id) {
        let table = set.open(id).map_err(FilesError::from)?;
        table.verify()?;
        return Ok(report_from(sector, &table));
    }
    let (plain, removal) = succ.of::<B>(sector)?;
    let started = Instant::now();
    let size = slots::<B>(sector);
    observer.start(&sector.to_string(), size);
    let packed =
        placement_pass::solve::<B, Symmetric, _, _>(sector, &*plain, removal.as_deref(), observer);
    observer.finish();
    let positions = symmetric::positions::<B>(sector.subspace());
    let header = summarize_outcomes(&packed, size, positions);
    let bytes = set
        .write_outcomes(id, &header, &packed, ZSTD_LEVEL)
        .map_err(FilesError::from)?;
    let mut r = report_from(sector, &set.open(id).map_err(FilesError::from)?);
    r.bytes = bytes;
    r.seconds = started.elapsed().as_secs_f64();
    r.resumed = false;
    Ok(r)
}

/// The figures of every sector of the `stones`-stone game in `dir` (from
/// the file headers; every file's label and size checked).
pub fn stats<B: Board>(
    dir: &Path,
    rules: RuleSet,
    stones: u8,
) -> Result<Vec<SectorReport>, TablesError> {
    check_stones::<B>(stones)?;
    sectors(stones)
        .into_iter()
        .map(|s| Ok(report_from(s, &open::<B>(dir, rules, s)?)))
        .collect()
}

/// The result of verifying one sector.
#[derive(Debug, Clone)]
pub struct VerifyReport {
    /// The sector.
    pub sector: Sector,
    /// Positions recomputed.
    pub checked: u64,
    /// Positions whose stored outcome differs from the recomputation.
    pub mismatches: u64,
}

/// Recompute every sector's stored outcomes of the `stones`-stone game
/// from its successors' stored outcomes (the definition,
/// [`recompute`]): every position, or with `sample` that many evenly
/// spread slots a sector.
pub fn verify<B: Board>(
    dir: &Path,
    rules: RuleSet,
    stones: u8,
    sample: Option<u64>,
    mut report: impl FnMut(&VerifyReport),
) -> Result<Vec<VerifyReport>, TablesError> {
    check_stones::<B>(stones)?;
    symmetric::warm_up::<B>();
    let all = sectors(stones);
    let mut succ = Successors {
        dir,
        rules,
        held: HashMap::new(),
    };
    let mut out = Vec::new();
    for (i, &sector) in all.iter().enumerate() {
        let own = Wdl::load(&open::<B>(dir, rules, sector)?)?;
        succ.retain(&all[i..]);
        let (plain, removal) = succ.of::<B>(sector)?;
        let plain_fn = |slot: u64| plain.get(slot).unwrap_or(Outcome::Draw);
        let removal_fn = |slot: u64| {
            removal
                .as_ref()
                .and_then(|r| r.get(slot))
                .unwrap_or(Outcome::Draw)
        };
        let (checked, mismatches) =
            recount::<B>(sector.subspace(), own.len(), sample, |us, them, slot| {
                Some(recompute::<B, Symmetric>(
                    sector,
                    us,
                    them,
                    &plain_fn,
                    &removal_fn,
                )) != own.get(slot)
            });
        let r = VerifyReport {
            sector,
            checked,
            mismatches,
        };
        report(&r);
        out.push(r);
    }
    Ok(out)
}

/// The stored value of the placement position `(us, them)` (side to move's
/// stones first) of `sector`, read from its file without loading the
/// table: a win, draw or loss without distance (`Value::win(1)`,
/// `Value::DRAW`, `Value::loss(0)`).
pub fn value<B: Board>(
    dir: &Path,
    rules: RuleSet,
    sector: Sector,
    us: Bits,
    them: Bits,
) -> Result<Value, TablesError> {
    let table = open::<B>(dir, rules, sector)?;
    Ok(table.get(symmetric::slot::<B>(us, them))?)
}

/// Sectors and slots of the `stones`-stone game's placement phase, and
/// the slots of its largest sector (what a pass holds a byte of, a slot).
pub fn size<B: Board>(stones: u8) -> (usize, u64, u64) {
    let all = sectors(stones);
    let sizes: Vec<u64> = all.iter().map(|&s| slots::<B>(s)).collect();
    (
        all.len(),
        sizes.iter().sum(),
        sizes.iter().copied().max().unwrap_or(0),
    )
}
