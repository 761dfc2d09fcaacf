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

use crate::games::nine::files::{check_slots, scan_all, DatabaseError, Mismatch, Tables};
use crate::index::nine::NineIndex;
use crate::index::nine::{self, Subspace};
use crate::rules::board::Nine;
use crate::rules::variant::RuleSet;
use crate::tables::keys::{recompute, Sector, TableId};
use crate::tables::placement::Successors;
use crate::tables::placement_pass;
use crate::tables::SectorReport;
use std::collections::BTreeMap;
use std::path::Path;
use tablebase::reader::Table;
use tablebase::resident::Wdl;
use tablebase::retro::Observer;
use tablebase::{Outcome, Value};

/// What [`generate`] reports about each sector it solves or skips.
pub use crate::tables::SectorObserver;

/// How a placement table's outcome reads as a value (see
/// [`tablebase::reader::Table::get`]): placement tables carry no distance.
pub fn stored(o: Outcome) -> Value {
    match o {
        Outcome::Win => Value::win(1),
        Outcome::Loss => Value::loss(0),
        Outcome::Draw => Value::DRAW,
    }
}

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

/// One position in this many of a full [`verify`] is also recomputed by
/// the definition ([`recompute`]), as a check of the pass itself.
const DEFINITION_EVERY: u64 = 64;

/// The slots where the stored outcomes `own` of a sector of subspace `sub`
/// differ from `again` (the same sector solved again by the pass), and
/// those of the slots checked by `definition` (one in
/// [`DEFINITION_EVERY`]) where it differs: at most `limit`, by slot.
fn compare(
    sub: Subspace,
    own: &Wdl,
    again: &Wdl,
    definition: impl Fn(u32, u32) -> Outcome + Sync,
    limit: usize,
) -> Vec<Mismatch> {
    use rayon::prelude::*;
    let size = nine::size(sub);
    let chunk = 1u64 << 16;
    let mut bad: Vec<Mismatch> = (0..size.div_ceil(chunk))
        .into_par_iter()
        .flat_map_iter(|c| {
            let range = c * chunk..((c + 1) * chunk).min(size);
            let definition = &definition;
            range.filter_map(move |slot| {
                let stored_o = own.get(slot).unwrap_or(Outcome::Draw);
                let mut recomputed = again.get(slot).filter(|&o| o != stored_o);
                if recomputed.is_none() && slot.is_multiple_of(DEFINITION_EVERY) {
                    if let Some((us, them)) = nine::position(sub, slot) {
                        recomputed = Some(definition(us, them)).filter(|&o| o != stored_o);
                    }
                }
                recomputed.map(|r| Mismatch {
                    subspace: sub,
                    slot,
                    stored: stored(stored_o),
                    recomputed: stored(r),
                })
            })
        })
        .take_any(limit)
        .collect();
    bad.sort_by_key(|m| m.slot);
    bad
}

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
    SectorCheck::new(tables, dir, rules).verify(sector, &[], limit, sample, observer)
}

/// The check of many sectors in turn, their successor tables loaded once
/// and kept while a later sector needs them (as [`generate`] keeps them):
/// a moving table leads out of two sectors `W-B-1-0`, a placement sector
/// out of several.
pub struct SectorCheck<'a> {
    placement: &'a BTreeMap<Sector, Table>,
    dir: &'a Path,
    rules: RuleSet,
    succ: Successors<Nine, NineIndex>,
}

impl<'a> SectorCheck<'a> {
    /// A check of sectors of `tables` (scanned from `dir`).
    pub fn new(tables: &'a Tables, dir: &'a Path, rules: RuleSet) -> SectorCheck<'a> {
        SectorCheck {
            placement: &tables.1,
            dir,
            rules,
            succ: Successors::new(dir, rules),
        }
    }

    /// Recompute the stored values of `sector` from its successors' stored
    /// values, all slots or `sample` random ones; returns the positions
    /// checked and the first mismatches (at most `limit`). All slots: the
    /// sector is solved again by the generator's pass and compared slot by
    /// slot, one position in [`DEFINITION_EVERY`] recomputed by the
    /// definition too; sampled: each by the definition ([`recompute`]).
    /// Successor tables that neither `sector` nor a sector of `later` reads
    /// are dropped first.
    pub fn verify(
        &mut self,
        sector: Sector,
        later: &[Sector],
        limit: usize,
        sample: Option<u64>,
        observer: &dyn Observer,
    ) -> Result<(u64, Vec<Mismatch>), DatabaseError> {
        let (dir, rules) = (self.dir, self.rules);
        let own = self
            .placement
            .get(&sector)
            .ok_or_else(|| super::files::missing(dir, rules, TableId::Placement(sector)))?;
        own.verify()?;
        let own = Wdl::load(own)?;
        let keep: Vec<Sector> = std::iter::once(sector)
            .chain(later.iter().copied())
            .collect();
        self.succ.retain(&keep);
        let (plain, removal) = self.succ.of(sector)?;
        Ok(check_sector(
            sector,
            &own,
            &plain,
            removal.as_deref(),
            limit,
            sample,
            observer,
        ))
    }
}

/// [`SectorCheck::verify`] once the tables are loaded: `own` the stored
/// outcomes, `plain` and `removal` the successor tables.
fn check_sector(
    sector: Sector,
    own: &Wdl,
    plain: &Wdl,
    removal: Option<&Wdl>,
    limit: usize,
    sample: Option<u64>,
    observer: &dyn Observer,
) -> (u64, Vec<Mismatch>) {
    let plain_fn = |slot: u64| plain.get(slot).unwrap_or(Outcome::Draw);
    let removal_fn = |slot: u64| removal.and_then(|r| r.get(slot)).unwrap_or(Outcome::Draw);
    let salt =
        (sector.us as u64) << 40 ^ (sector.them as u64) << 48 ^ (sector.us_hand as u64) << 56;
    let label = format!("verify {sector}");
    let sub = sector.subspace();
    if sample.is_none() {
        observer.start(&label, nine::size(sub));
        let again =
            placement_pass::solve::<Nine, NineIndex, _, _>(sector, plain, removal, observer);
        observer.finish();
        let again = Wdl::from_packed(nine::size(sub), &again).expect("the pass's own size");
        let definition =
            |us, them| recompute::<Nine, NineIndex>(sector, us, them, &plain_fn, &removal_fn);
        let bad = compare(sub, own, &again, definition, limit);
        return (nine::positions(sub), bad);
    }
    check_slots(
        sub,
        sample,
        salt,
        limit,
        &label,
        observer,
        |slot, us, them| {
            let v = recompute::<Nine, NineIndex>(sector, us, them, &plain_fn, &removal_fn);
            let s = own.get(slot).unwrap_or(Outcome::Draw);
            (v != s).then(|| (stored(s), stored(v)))
        },
    )
}
