//! The check of stored tables, written once for every board: each stored
//! value recomputed from its successors' stored values, the moving-phase
//! subspaces by [`SubspaceCheck`] and the placement sectors by
//! [`SectorCheck`], generic over the board `B` and its index `B::Index`
//! (Nine Men's Morris on `NineIndex`, Morabaraba on the same index, …).
//!
//! A full check runs the generator's own expansion again (the moving
//! phase's counting pass, the placement pass) and compares slot by slot;
//! one position in [`DEFINITION_EVERY`] is also recomputed by the
//! definition, move by move ([`recompute`], [`sector_value`]), which must
//! agree with both. A sampled check (`sample: Some(n)`) recomputes `n`
//! slots drawn at random (reproducibly) by the definition alone.

use crate::index::Indexing;
use crate::rules::board::Board;
use crate::rules::variant::RuleSet;
use crate::tables::files::FamilyTables;
use crate::tables::keys::{recompute as sector_value, Sector, Subspace, TableId};
use crate::tables::pair::{recompute, BestValue, ExitMissing, MovingPair, Within};
use crate::tables::placement::Successors;
use crate::tables::{placement_pass, TablesError};
use std::collections::{BTreeMap, HashMap};
use std::marker::PhantomData;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use tablebase::reader::Table;
use tablebase::resident::Wdl;
use tablebase::retro::Observer;
use tablebase::set::Directory;
use tablebase::{Exit, Outcome, Value};

/// The "missing" error of a table of board `B` in `dir`.
fn missing<B: Board>(dir: &Path, rules: RuleSet, id: TableId) -> TablesError {
    Directory::new(dir, FamilyTables::<B, B::Index>::new(rules))
        .missing(id)
        .into()
}

/// How a placement table's outcome reads as a value (see
/// [`tablebase::reader::Table::get`]): placement tables carry no distance.
pub fn stored(o: Outcome) -> Value {
    match o {
        Outcome::Win => Value::win(1),
        Outcome::Loss => Value::loss(0),
        Outcome::Draw => Value::DRAW,
    }
}

/// A stored value that its recomputation contradicts.
#[derive(Debug, Clone)]
pub struct Mismatch {
    /// The subspace.
    pub subspace: Subspace,
    /// The slot.
    pub slot: u64,
    /// The stored value.
    pub stored: Value,
    /// The value recomputed from the successors.
    pub recomputed: Value,
}

/// The check of many subspaces in turn, each table's values loaded once
/// and kept while a later subspace reads them: a table is read as its own
/// values, as its partner's successors and as one subspace's exit, so
/// checking `W-B` right after `B-W` (the generator's pair order,
/// [`Subspace::solving_order`]) loads each table once instead of three
/// times.
pub struct SubspaceCheck<'a, B: Board> {
    tables: &'a BTreeMap<Subspace, Table>,
    rules: RuleSet,
    /// Where a missing table is named (beside any table).
    dir: PathBuf,
    loaded: HashMap<Subspace, Arc<Vec<Value>>>,
    board: PhantomData<B>,
}

impl<'a, B: Board> SubspaceCheck<'a, B> {
    /// A check of subspaces of `tables`.
    pub fn new(tables: &'a BTreeMap<Subspace, Table>, rules: RuleSet) -> SubspaceCheck<'a, B> {
        let dir = tables
            .values()
            .next()
            .and_then(|t| t.path().parent().map(Path::to_owned))
            .unwrap_or_default();
        SubspaceCheck {
            tables,
            rules,
            dir,
            loaded: HashMap::new(),
            board: PhantomData,
        }
    }

    /// The values of `s`, loaded once.
    fn values(&mut self, s: Subspace) -> Result<Arc<Vec<Value>>, TablesError> {
        if let Some(v) = self.loaded.get(&s) {
            return Ok(v.clone());
        }
        let table = self
            .tables
            .get(&s)
            .ok_or_else(|| missing::<B>(&self.dir, self.rules, TableId::Moving(s)))?;
        let v = Arc::new(table.values()?);
        self.loaded.insert(s, v.clone());
        Ok(v)
    }

    /// Recompute every stored value of `sub` from its successors' stored
    /// values (a forward pass independent of the retrograde bookkeeping),
    /// or with `sample: Some(n)` those of `n` slots drawn at random
    /// (reproducibly), after dropping the tables that neither `sub` nor a
    /// subspace of `later` reads. Returns the number of positions checked
    /// and the first mismatches (at most `limit`).
    pub fn verify(
        &mut self,
        sub: Subspace,
        later: &[Subspace],
        limit: usize,
        sample: Option<u64>,
        observer: &dyn Observer,
    ) -> Result<(u64, Vec<Mismatch>), TablesError> {
        let reads = |s: Subspace| [Some(s), Some(s.swapped()), s.exit()];
        let needed: Vec<Subspace> = std::iter::once(sub)
            .chain(later.iter().copied())
            .flat_map(reads)
            .flatten()
            .collect();
        self.loaded.retain(|s, _| needed.contains(s));
        let own = self.values(sub)?;
        let partner = self.values(sub.swapped())?;
        let exit = sub.exit().map(|s| self.values(s)).transpose()?;
        let exit = exit.as_ref().map(|e| e.as_slice());
        let (own, partner, rules) = (own.as_slice(), partner.as_slice(), self.rules);
        let partner_fn = |slot: u64| partner[slot as usize];
        let exit_fn = |slot: u64| exit.map_or(Value::DRAW, |e| e[slot as usize]);
        let exit_ref: Option<&(dyn Fn(u64) -> Value + Sync)> = exit.map(|_| &exit_fn as _);
        // The definition, independent of the generator's move bookkeeping:
        // every move applied and its successor ranked from scratch.
        let definition = |us, them| {
            let exit = exit_ref.map(|f| f as _);
            recompute::<B, B::Index>(rules, us, them, &partner_fn, exit)
        };
        let label = format!("verify {sub}");
        if sample.is_none() {
            let exit = exit.map(|e| Within::new(e, rules));
            let pair = MovingPair::<B, B::Index, Within>::forward(rules, sub, exit.as_ref())
                .map_err(|ExitMissing(s)| missing::<B>(&self.dir, rules, TableId::Moving(s)))?;
            return Ok(sweep(
                &pair, own, partner, definition, limit, &label, observer,
            ));
        }
        let salt = (sub.us as u64) << 40 ^ (sub.them as u64) << 48;
        Ok(check_slots::<B>(
            sub,
            sample,
            salt,
            limit,
            &label,
            observer,
            |slot, us, them| {
                let v = definition(us, them);
                (v != own[slot as usize]).then(|| (own[slot as usize], v))
            },
        ))
    }
}

/// One position in this many of a full check (a subspace's or a sector's)
/// is also recomputed by the definition ([`recompute`], [`sector_value`]),
/// as a check of the expansion the check shares with the generator.
const DEFINITION_EVERY: u64 = 64;

/// The full check of part 0 of `pair`: every position, in slot order,
/// expanded as the generator's counting pass expands it (successors
/// stepped from one position to the next, their cache misses batched),
/// its value recomputed from the successors' stored values in `partner`
/// and its best exit, and compared with `own`. One position in
/// [`DEFINITION_EVERY`] is recomputed by `definition` too, which must
/// agree with both. Returns the positions checked and the first `limit`
/// mismatches.
fn sweep<B: Board>(
    pair: &MovingPair<'_, B, B::Index, Within>,
    own: &[Value],
    partner: &[Value],
    definition: impl Fn(u32, u32) -> Value + Sync,
    limit: usize,
    label: &str,
    observer: &dyn Observer,
) -> (u64, Vec<Mismatch>) {
    use rayon::prelude::*;
    use tablebase::RetroGame;
    let sub = pair.parts()[0];
    let size = B::Index::size::<B>(sub);
    observer.start(label, size);
    let chunk = 1u64 << 14;
    let results: Vec<(u64, Vec<Mismatch>)> = (0..size.div_ceil(chunk))
        .into_par_iter()
        .map(|c| {
            let range = c * chunk..((c + 1) * chunk).min(size);
            let (mut checked, mut bad) = (0, Vec::new());
            let mut check = |slot: u64, v: Value| {
                checked += 1;
                let mut recomputed = (v != own[slot as usize]).then_some(v);
                if recomputed.is_none() && slot.is_multiple_of(DEFINITION_EVERY) {
                    let (us, them) = B::Index::position::<B>(sub, slot).expect("a visited slot");
                    let d = definition(us, them);
                    recomputed = (d != v).then_some(d);
                }
                if let Some(recomputed) = recomputed {
                    if bad.len() < limit {
                        bad.push(Mismatch {
                            subspace: sub,
                            slot,
                            stored: own[slot as usize],
                            recomputed,
                        });
                    }
                }
            };
            // The successors' values miss the cache: a batch of positions'
            // successors is gathered and asked for before the first is read.
            const BATCH: usize = 16;
            let mut batch: Vec<(u64, Exit, usize)> = Vec::with_capacity(BATCH);
            let mut succs: Vec<u64> = Vec::with_capacity(BATCH * 64);
            let mut flush = |batch: &mut Vec<(u64, Exit, usize)>, succs: &mut Vec<u64>| {
                for &j in succs.iter() {
                    tablebase::huge::prefetch(&partner[j as usize]);
                }
                let mut start = 0;
                for &(slot, exit, end) in batch.iter() {
                    let values = succs[start..end].iter().map(|&j| partner[j as usize]);
                    check(slot, from_successors(exit, values));
                    start = end;
                }
                batch.clear();
                succs.clear();
            };
            pair.expand_each(0, range.clone(), &mut |slot, exit, succ| {
                succs.extend_from_slice(succ);
                batch.push((slot, exit, succs.len()));
                if batch.len() == BATCH {
                    flush(&mut batch, &mut succs);
                }
            });
            flush(&mut batch, &mut succs);
            observer.advance(range.end - range.start);
            (checked, bad)
        })
        .collect();
    observer.finish();
    gather(results, limit)
}

/// A position's value from its best exit (a conversion: one ply) and the
/// values of its successors inside the pair (one ply more than theirs, seen
/// from the other side): the fastest win, else a draw, else the slowest
/// loss — the rule [`recompute`] states move by move.
fn from_successors(exit: Exit, successors: impl Iterator<Item = Value>) -> Value {
    let mut best = BestValue::default();
    match exit {
        Exit::Win => best.add(Value::loss(0), true),
        Exit::Draw => best.add(Value::DRAW, true),
        Exit::Loss => best.add(Value::win(1), true),
        Exit::None => {}
    }
    for v in successors {
        best.add(v, false);
    }
    best.value()
}

/// Check the slots of a table of index space `sub` in parallel: all of
/// them, or `sample` drawn at random (reproducibly, `salt` tells tables
/// apart). `check(slot, us, them)` gives `(stored, recomputed)` for a
/// mismatch. Returns the positions checked and the first `limit`
/// mismatches.
fn check_slots<B: Board>(
    sub: Subspace,
    sample: Option<u64>,
    salt: u64,
    limit: usize,
    label: &str,
    observer: &dyn Observer,
    check: impl Fn(u64, u32, u32) -> Option<(Value, Value)> + Sync,
) -> (u64, Vec<Mismatch>) {
    use rayon::prelude::*;
    let size = B::Index::size::<B>(sub);
    let count = sample.map_or(size, |n| n.min(size));
    // The i-th slot checked: all in order, or a random one.
    let slot_at = |i: u64| match sample {
        None => i,
        Some(_) => splitmix(i ^ salt) % size,
    };
    observer.start(label, count);
    let chunk = 1u64 << 14;
    let results: Vec<(u64, Vec<Mismatch>)> = (0..count.div_ceil(chunk))
        .into_par_iter()
        .map(|c| {
            let mut checked = 0;
            let mut bad = Vec::new();
            let range = c * chunk..((c + 1) * chunk).min(count);
            for slot in range.clone().map(slot_at) {
                let Some((us, them)) = B::Index::position::<B>(sub, slot) else {
                    continue;
                };
                checked += 1;
                if let Some((stored, recomputed)) = check(slot, us, them) {
                    if bad.len() < limit {
                        bad.push(Mismatch {
                            subspace: sub,
                            slot,
                            stored,
                            recomputed,
                        });
                    }
                }
            }
            observer.advance(range.end - range.start);
            (checked, bad)
        })
        .collect();
    observer.finish();
    gather(results, limit)
}

/// The positions checked and the first `limit` mismatches of the chunks'
/// `results`, in chunk order.
fn gather(results: Vec<(u64, Vec<Mismatch>)>, limit: usize) -> (u64, Vec<Mismatch>) {
    let checked = results.iter().map(|r| r.0).sum();
    let mut bad: Vec<Mismatch> = results.into_iter().flat_map(|r| r.1).collect();
    bad.truncate(limit);
    (checked, bad)
}

/// A reproducible pseudo-random number from `i` (splitmix64): the slots a
/// sampled `verify` checks.
fn splitmix(i: u64) -> u64 {
    let mut z = i.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ z >> 30).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ z >> 27).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ z >> 31
}

/// The slots where the stored outcomes `own` of a sector of subspace `sub`
/// differ from `again` (the same sector solved again by the pass), and
/// those of the slots checked by `definition` (one in
/// [`DEFINITION_EVERY`]) where it differs: at most `limit`, by slot.
fn compare<B: Board>(
    sub: Subspace,
    own: &Wdl,
    again: &Wdl,
    definition: impl Fn(u32, u32) -> Outcome + Sync,
    limit: usize,
) -> Vec<Mismatch> {
    use rayon::prelude::*;
    let size = B::Index::size::<B>(sub);
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
                    if let Some((us, them)) = B::Index::position::<B>(sub, slot) {
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

/// The check of many sectors in turn, their successor tables loaded once
/// and kept while a later sector needs them (as [`generate`] keeps them):
/// a moving table leads out of two sectors `W-B-1-0`, a placement sector
/// out of several.
pub struct SectorCheck<'a, B: Board> {
    placement: &'a BTreeMap<Sector, Table>,
    dir: &'a Path,
    rules: RuleSet,
    succ: Successors<B, B::Index>,
}

impl<'a, B: Board> SectorCheck<'a, B> {
    /// A check of the sectors `placement` (scanned from `dir`).
    pub fn new(
        placement: &'a BTreeMap<Sector, Table>,
        dir: &'a Path,
        rules: RuleSet,
    ) -> SectorCheck<'a, B> {
        SectorCheck {
            placement,
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
    /// definition too; sampled: each by the definition ([`sector_value`]).
    /// Successor tables that neither `sector` nor a sector of `later` reads
    /// are dropped first.
    pub fn verify(
        &mut self,
        sector: Sector,
        later: &[Sector],
        limit: usize,
        sample: Option<u64>,
        observer: &dyn Observer,
    ) -> Result<(u64, Vec<Mismatch>), TablesError> {
        let (dir, rules) = (self.dir, self.rules);
        let own = self
            .placement
            .get(&sector)
            .ok_or_else(|| missing::<B>(dir, rules, TableId::Placement(sector)))?;
        own.verify()?;
        let own = Wdl::load(own)?;
        let keep: Vec<Sector> = std::iter::once(sector)
            .chain(later.iter().copied())
            .collect();
        self.succ.retain(&keep);
        let (plain, removal) = self.succ.of(sector)?;
        Ok(check_sector::<B>(
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
fn check_sector<B: Board>(
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
        observer.start(&label, B::Index::size::<B>(sub));
        let again = placement_pass::solve::<B, B::Index, _, _>(sector, plain, removal, observer);
        observer.finish();
        let again =
            Wdl::from_packed(B::Index::size::<B>(sub), &again).expect("the pass's own size");
        let definition =
            |us, them| sector_value::<B, B::Index>(sector, us, them, &plain_fn, &removal_fn);
        let bad = compare::<B>(sub, own, &again, definition, limit);
        return (B::Index::positions::<B>(sub), bad);
    }
    check_slots::<B>(
        sub,
        sample,
        salt,
        limit,
        &label,
        observer,
        |slot, us, them| {
            let v = sector_value::<B, B::Index>(sector, us, them, &plain_fn, &removal_fn);
            let s = own.get(slot).unwrap_or(Outcome::Draw);
            (v != s).then(|| (stored(s), stored(v)))
        },
    )
}
