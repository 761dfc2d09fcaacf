//! The placement-phase tablebases: every sector of the game (see
//! [`crate::tables::keys`]) solved in one forward pass each, in order of the
//! stones left in hand, from the moving-phase tables up to the empty
//! board; and their verification.
//!
//! A sector's successors lie in at most two tables (a placement with or
//! without a removal), both solved before it. Those are held in memory as
//! two-bit outcomes while the sectors that need them are solved; the
//! sector's own values are computed as two-bit outcomes too and written
//! so, four to a byte (placement tables carry no distance: the file
//! format's outcome entries, which take a third of the bytes that one-byte
//! entries take once compressed).

use crate::games::nine::files::{scan_all, DatabaseError, Mismatch, Tables};
use crate::index::nine::NineIndex;
use crate::rules::board::Nine;
use crate::rules::variant::RuleSet;
use crate::tables::keys::Sector;
use crate::tables::SectorReport;
use std::path::Path;
use tablebase::retro::Observer;

/// What [`generate`] reports about each sector it solves or skips.
pub use crate::tables::SectorObserver;

pub use crate::tables::verify::stored;

/// Generate every placement sector of the game with `stones` stones a
/// side into `dir`, skipping sectors whose files are complete and valid.
/// The moving-phase subspaces with at most `stones` stones a side must be
/// there (see [`crate::games::nine::files::generate`]).
pub fn generate(
    dir: &Path,
    rules: RuleSet,
    stones: u8,
    observer: &dyn SectorObserver,
) -> Result<Vec<SectorReport>, DatabaseError> {
    generate_sectors(dir, rules, &Sector::all(stones), observer)
}

/// Generate the given sectors (in the order [`Sector::all`] lists them)
/// into `dir`, skipping sectors whose files are complete and valid; the
/// tables they lead into must be there or among them. One sector alone is
/// one job of the workflow ([`crate::tables::plan::nine`]). The placement driver
/// of every board ([`crate::tables::placement`]) on Nine's board and
/// index, after checking that every file in `dir` is one of Nine's.
pub fn generate_sectors(
    dir: &Path,
    rules: RuleSet,
    sectors: &[Sector],
    observer: &dyn SectorObserver,
) -> Result<Vec<SectorReport>, DatabaseError> {
    scan_all(dir, rules)?;
    crate::tables::placement::generate::<Nine, NineIndex>(dir, rules, sectors, observer)
}

/// The check of many sectors in turn, their successor tables loaded once:
/// the check of every board ([`crate::tables::verify::SectorCheck`]) on
/// Nine's.
pub type SectorCheck<'a> = crate::tables::verify::SectorCheck<'a, Nine>;

/// Recompute the stored values of `sector` from its successors' stored
/// values, all slots or `sample` random ones; returns the positions checked
/// and the first mismatches (at most `limit`). One sector alone: to check
/// many, [`SectorCheck`] loads each successor table once.
pub fn verify(
    tables: &Tables,
    dir: &Path,
    rules: RuleSet,
    sector: Sector,
    limit: usize,
    sample: Option<u64>,
    observer: &dyn Observer,
) -> Result<(u64, Vec<Mismatch>), DatabaseError> {
    SectorCheck::new(&tables.1, dir, rules).verify(sector, &[], limit, sample, observer)
}
