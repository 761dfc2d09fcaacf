//! Placement sectors of a large board of the family (Morabaraba) over the
//! symmetry-reduced index ([`crate::index::symmetric`]), one file each next to the
//! moving-phase tables ([`crate::games::morabaraba::moving`]): every position with
//! stones in hand stored, in Malom's sector numbering `W-B-WF-BF`
//! (`morabaraba-flying-5-4-3-3.tb`, label `morabaraba/flying/5-4-3-3`).
//!
//! Sectors are solved by the pass every board shares
//! ([`crate::tables::placement_pass::solve`]), one forward pass each, in order of
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

use crate::games::morabaraba::moving::TablesError;
use crate::index::Indexing;
use crate::rules::board::Board;
use crate::rules::geometry::Bits;
use crate::rules::variant::RuleSet;
use crate::tables::files::{self, FilesError};
use crate::tables::keys::{Sector, TableId};
use crate::tables::placement;
use crate::tables::verify::SectorCheck;
use crate::tables::Reports;
use std::collections::BTreeMap;
use std::path::Path;
use tablebase::reader::Table;
use tablebase::retro::Observer;
use tablebase::Value;

pub use crate::tables::SectorReport;

/// Every placement sector of the game with `stones` stones a side, in the
/// order generation solves them.
pub fn sectors(stones: u8) -> Vec<Sector> {
    Sector::all(stones)
}

/// Slots of a sector (those of its subspace).
pub fn slots<B: Board>(sector: Sector) -> u64 {
    B::Index::size::<B>(sector.subspace())
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
    Ok(files::directory::<B, B::Index>(dir, rules).open(TableId::Placement(sector))?)
}

/// Whether a sector's file exists (not whether it is sound).
pub fn exists<B: Board>(dir: &Path, rules: RuleSet, sector: Sector) -> bool {
    files::directory::<B, B::Index>(dir, rules).exists(TableId::Placement(sector))
}

/// Solve every placement sector of the `stones`-stone game under `rules`
/// (the files' rule set: the variant's own stones a side) into `dir`,
/// skipping sectors whose files are there and sound (block checksums
/// checked); the moving-phase subspaces with 3..=`stones` stones a side
/// must be there ([`crate::games::morabaraba::moving::generate`]). `observer` follows
/// each pass, `report` hears of every sector.
pub fn generate<B: Board>(
    dir: &Path,
    rules: RuleSet,
    stones: u8,
    observer: &dyn Observer,
    report: impl FnMut(&SectorReport) + Send,
) -> Result<Vec<SectorReport>, TablesError> {
    check_stones::<B>(stones)?;
    let observer = Reports::new(observer, report);
    let todo = sectors(stones);
    Ok(placement::generate::<B, B::Index>(
        dir, rules, &todo, &observer,
    )?)
}

/// Solve one placement sector into `dir` (as [`generate`] does in its
/// turn), the tables it reads on disk: the job `W-B-WF-BF` of the
/// workflow ([`crate::tables::plan::morabaraba`]). A sound file already there is
/// checked and reported, not solved again.
pub fn generate_sector<B: Board>(
    dir: &Path,
    rules: RuleSet,
    sector: Sector,
    observer: &dyn Observer,
) -> Result<SectorReport, TablesError> {
    check_stones::<B>(sector.game_stones())?;
    let observer = Reports::new(observer, |_: &SectorReport| {});
    Ok(placement::generate::<B, B::Index>(dir, rules, &[sector], &observer)?.remove(0))
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
        .map(|s| Ok(SectorReport::of(s, &open::<B>(dir, rules, s)?)))
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

/// Recompute every sector of the `stones`-stone game from its successors'
/// stored outcomes (the check of every board, [`SectorCheck`]: the
/// placement pass run again, one position in 64 by the definition too):
/// every position, or with `sample` that many slots a sector drawn at
/// random (reproducibly). A report counts at most the first 10 mismatches
/// of a sector.
pub fn verify<B: Board>(
    dir: &Path,
    rules: RuleSet,
    stones: u8,
    sample: Option<u64>,
    observer: &dyn Observer,
    mut report: impl FnMut(&VerifyReport),
) -> Result<Vec<VerifyReport>, TablesError> {
    check_stones::<B>(stones)?;
    B::Index::warm_up::<B>();
    let all = sectors(stones);
    let mut tables = BTreeMap::new();
    for &sector in &all {
        tables.insert(sector, open::<B>(dir, rules, sector)?);
    }
    let mut check = SectorCheck::<B>::new(&tables, dir, rules);
    let mut out = Vec::new();
    for (i, &sector) in all.iter().enumerate() {
        let (checked, bad) = check.verify(sector, &all[i + 1..], 10, sample, observer)?;
        let r = VerifyReport {
            sector,
            checked,
            mismatches: bad.len() as u64,
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
    Ok(table.get(B::Index::slot::<B>(us, them))?)
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
