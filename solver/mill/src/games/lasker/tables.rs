//! Lasker Morris generated on disk over Nine Men's Morris's
//! symmetry-reduced index ([`crate::index::nine`], 16 times fewer slots than the
//! dense index): sector pairs solved in the order of [`pairs`] on the
//! retrograde engine, each sector written as soon as its pair is solved
//! (atomically, checksummed blocks: [`crate::games::lasker::files`]), so that a cut-off
//! run continues with the first pair whose files are missing, after
//! checking every block of the pairs already written. The exits of a pair
//! are read back from the finished files as outcomes, two bits a slot; a
//! bounded cache keeps the tables later pairs still read, so the whole
//! game is never held in memory (the 10-stone game's largest pair, 8-8
//! with 1-0 in hand, holds 1.2 × 10^9 slots of engine state).
//!
//! One pair alone ([`generate_pair`]) is one job of the workflow
//! ([`crate::tables::plan::lasker`]); its files are those of a whole run.

use crate::games::lasker::files::{directory, sector_name};
use crate::games::lasker::sector::{pairs, sectors, LaskerSector};
use crate::games::lasker::solve::{exit_sectors, pair_parts, recompute, Exits, LaskerPair};
use crate::index::nine::{self, NineIndex};
use crate::rules::board::Nine;
use crate::rules::variant::RuleSet;
use crate::tables::files::FilesError;
use crate::tables::solve::{check_stones, SolveError};
use rayon::prelude::*;
use std::collections::btree_map::Entry;
use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::time::Instant;
use tablebase::format::{summarize, FormatError};
use tablebase::reader::Table;
use tablebase::resident::Wdl;
use tablebase::retro::{solve, Observer};
use tablebase::set::ZSTD_LEVEL;
use tablebase::Value;

/// Outcome tables kept for later pairs beyond those the pair being solved
/// reads, at most (two bits a slot): the cache of a whole run.
pub const CACHE_BYTES: u64 = 2 << 30;

/// Errors of the generator on disk.
#[derive(Debug, thiserror::Error)]
pub enum LaskerError {
    /// A pair could not be solved (an exit missing, the engine's limits).
    #[error(transparent)]
    Solve(#[from] SolveError),
    /// A file could not be read or written, or holds another table.
    #[error(transparent)]
    Files(#[from] FilesError),
}

impl From<FormatError> for LaskerError {
    fn from(e: FormatError) -> LaskerError {
        LaskerError::Files(FilesError::Format(e))
    }
}

impl From<tablebase::set::SetError> for LaskerError {
    fn from(e: tablebase::set::SetError) -> LaskerError {
        LaskerError::Files(FilesError::Set(e))
    }
}

/// What a sector's file says about it.
#[derive(Debug, Clone)]
pub struct SectorFigures {
    /// The sector.
    pub sector: LaskerSector,
    /// Slots of its table.
    pub slots: u64,
    /// Positions (used slots: one per symmetry class).
    pub positions: u64,
    /// Wins, draws and losses for the side to move.
    pub wdl: [u64; 3],
    /// Longest win (plies to conversion).
    pub longest_win: u16,
    /// Bytes of its file.
    pub bytes: u64,
}

impl SectorFigures {
    fn of(sector: LaskerSector, table: &Table) -> SectorFigures {
        let h = table.header();
        SectorFigures {
            sector,
            slots: h.slots,
            positions: h.positions,
            wdl: [h.wins, h.draws, h.losses],
            longest_win: h.max_win,
            bytes: table.bytes(),
        }
    }
}

/// What generation reports about one pair.
#[derive(Debug, Clone)]
pub struct PairReport {
    /// The pair's key (its greater sector).
    pub pair: LaskerSector,
    /// Its sectors (one or two).
    pub parts: Vec<SectorFigures>,
    /// Wall-clock seconds of loading its exits, the solve and the writing
    /// (the check only, when resumed).
    pub seconds: f64,
    /// The files were there already and every block was checked, not
    /// solved again.
    pub resumed: bool,
}

impl PairReport {
    /// Slots of the pair.
    pub fn slots(&self) -> u64 {
        self.parts.iter().map(|p| p.slots).sum()
    }
}

/// The key of a pair in plans and on the command line (`8-8-1-0`: its
/// greater sector).
pub fn pair_key(pair: LaskerSector) -> String {
    sector_name(pair.pair())
}

/// The pair named `key` in the `stones`-stone game, `None` for a key of no
/// pair of the game.
pub fn parse_pair_key(key: &str, stones: u8) -> Option<LaskerSector> {
    let n: Vec<u8> = key
        .split('-')
        .map(|n| n.parse().ok())
        .collect::<Option<_>>()?;
    let [us, them, us_hand, them_hand] = n[..] else {
        return None;
    };
    let s = LaskerSector::new(us, them, us_hand, them_hand);
    pairs::<Nine>(stones).into_iter().find(|&p| p == s)
}

/// The pairs whose sectors pair `p`'s exits read.
pub fn inputs(p: LaskerSector) -> Vec<LaskerSector> {
    let mut out: Vec<LaskerSector> = pair_parts(p)
        .into_iter()
        .flat_map(exit_sectors)
        .flatten()
        .map(LaskerSector::pair)
        .collect();
    out.sort();
    out.dedup();
    out
}

fn check_rules(rules: RuleSet) -> Result<(), LaskerError> {
    if !rules.interleave {
        return Err(SolveError::NotLasker.into());
    }
    check_stones::<Nine>(rules)?;
    Ok(())
}

/// Exit tables held as two-bit outcomes, read from their files on first
/// need and dropped once no later pair reads them (or, past
/// [`CACHE_BYTES`], those read again the latest).
struct Cache<'d> {
    dir: &'d Path,
    rules: RuleSet,
    tables: BTreeMap<LaskerSector, Wdl>,
    /// For each sector, the positions in the run's order of the pairs that
    /// read it, ascending.
    readers: HashMap<LaskerSector, Vec<usize>>,
}

impl<'d> Cache<'d> {
    fn new(dir: &'d Path, rules: RuleSet, order: &[LaskerSector]) -> Cache<'d> {
        let mut readers: HashMap<LaskerSector, Vec<usize>> = HashMap::new();
        for (i, &p) in order.iter().enumerate() {
            for part in pair_parts(p) {
                for e in exit_sectors(part).into_iter().flatten() {
                    let list = readers.entry(e).or_default();
                    if list.last() != Some(&i) {
                        list.push(i);
                    }
                }
            }
        }
        Cache {
            dir,
            rules,
            tables: BTreeMap::new(),
            readers,
        }
    }

    /// Hold the exits of pair `p`'s sectors.
    fn ensure(&mut self, p: LaskerSector) -> Result<(), LaskerError> {
        let set = directory::<Nine>(self.dir, self.rules);
        for e in pair_parts(p).into_iter().flat_map(exit_sectors).flatten() {
            if let Entry::Vacant(slot) = self.tables.entry(e) {
                // Every exit (a placement or a removal) restarts the count.
                slot.insert(Wdl::load_within(&set.open(e)?, self.rules.quiet_limit)?);
            }
        }
        Ok(())
    }

    /// After the pair at position `done` of the order: drop the tables no
    /// later pair reads, then those read again the latest while the cache
    /// holds more than [`CACHE_BYTES`].
    fn evict(&mut self, done: usize) {
        let next = |s: &LaskerSector| {
            self.readers
                .get(s)
                .and_then(|r| r.iter().find(|&&i| i > done).copied())
        };
        let next_use: BTreeMap<LaskerSector, Option<usize>> =
            self.tables.keys().map(|s| (*s, next(s))).collect();
        self.tables.retain(|s, _| next_use[s].is_some());
        let bytes = |t: &BTreeMap<LaskerSector, Wdl>| t.values().map(|w| w.len() / 4).sum::<u64>();
        while bytes(&self.tables) > CACHE_BYTES {
            let Some(latest) = self.tables.keys().max_by_key(|s| next_use[s]).copied() else {
                break;
            };
            self.tables.remove(&latest);
        }
    }
}

/// Generate every sector of the game under `rules` into `dir`, pair by
/// pair; pairs whose files are there are checked (every block) and
/// skipped. `report` hears of every pair.
pub fn generate(
    dir: &Path,
    rules: RuleSet,
    observer: &dyn Observer,
    mut report: impl FnMut(&PairReport),
) -> Result<Vec<PairReport>, LaskerError> {
    check_rules(rules)?;
    directory::<Nine>(dir, rules).create()?;
    nine::warm_up();
    let order = pairs::<Nine>(rules.stones);
    let mut cache = Cache::new(dir, rules, &order);
    let mut out = Vec::new();
    for (i, &p) in order.iter().enumerate() {
        let r = generate_in(dir, rules, p, &mut cache, observer)?;
        if !r.resumed {
            cache.evict(i);
        }
        report(&r);
        out.push(r);
    }
    Ok(out)
}

/// Generate the pair of `pair` (its greater sector) into `dir`, unless its
/// files are there and sound: one job of the workflow. The sectors its
/// exits lead into must be on disk.
pub fn generate_pair(
    dir: &Path,
    rules: RuleSet,
    pair: LaskerSector,
    observer: &dyn Observer,
) -> Result<PairReport, LaskerError> {
    check_rules(rules)?;
    directory::<Nine>(dir, rules).create()?;
    nine::warm_up();
    let mut cache = Cache::new(dir, rules, &[pair]);
    generate_in(dir, rules, pair, &mut cache, observer)
}

/// The pair's files, when every one is there and every block sound.
fn finished(dir: &Path, rules: RuleSet, pair: LaskerSector) -> Option<Vec<SectorFigures>> {
    let set = directory::<Nine>(dir, rules);
    let parts = pair_parts(pair);
    if !parts.iter().all(|&s| set.exists(s)) {
        return None;
    }
    parts
        .into_iter()
        .map(|s| {
            let table = set.open(s).ok()?;
            table.verify().ok()?;
            Some(SectorFigures::of(s, &table))
        })
        .collect()
}

/// Solve and write pair `pair` unless its files are there, its exits from
/// `cache`.
fn generate_in(
    dir: &Path,
    rules: RuleSet,
    pair: LaskerSector,
    cache: &mut Cache,
    observer: &dyn Observer,
) -> Result<PairReport, LaskerError> {
    let started = Instant::now();
    if let Some(parts) = finished(dir, rules, pair) {
        return Ok(PairReport {
            pair,
            parts,
            seconds: started.elapsed().as_secs_f64(),
            resumed: true,
        });
    }
    cache.ensure(pair)?;
    let values = {
        let game = LaskerPair::<Nine, NineIndex, Wdl>::new(rules, pair, |e| cache.tables.get(&e))?;
        solve(&game, observer).map_err(SolveError::from)?.0
    };
    let set = directory::<Nine>(dir, rules);
    let mut parts = Vec::new();
    for (s, v) in pair_parts(pair).into_iter().zip(values) {
        let positions = nine::positions(s.subspace());
        set.write_values(s, &summarize(&v, positions), &v, ZSTD_LEVEL)?;
        drop(v);
        parts.push(SectorFigures::of(s, &set.open(s)?));
    }
    Ok(PairReport {
        pair,
        parts,
        seconds: started.elapsed().as_secs_f64(),
        resumed: false,
    })
}

/// The figures of every sector of the game in `dir`, in solving order,
/// from the file headers (every file's label, size and block table
/// checked).
pub fn stats(dir: &Path, rules: RuleSet) -> Result<Vec<SectorFigures>, LaskerError> {
    check_rules(rules)?;
    let set = directory::<Nine>(dir, rules);
    sectors::<Nine>(rules.stones)
        .into_iter()
        .map(|s| Ok(SectorFigures::of(s, &set.open(s)?)))
        .collect()
}

/// The result of verifying one sector.
#[derive(Debug, Clone)]
pub struct VerifyReport {
    /// The sector.
    pub sector: LaskerSector,
    /// Positions recomputed.
    pub checked: u64,
    /// Positions whose stored value differs from the recomputation.
    pub mismatches: u64,
}

/// Recompute stored values from their successors' stored values (the
/// definition of a value, [`recompute`]): every position of every sector,
/// or with `sample` that many evenly spread slots a sector. Holds one
/// sector, its swap and its exits as values (2 bytes a slot).
pub fn verify(
    dir: &Path,
    rules: RuleSet,
    sample: Option<u64>,
    mut report: impl FnMut(&VerifyReport),
) -> Result<Vec<VerifyReport>, LaskerError> {
    check_rules(rules)?;
    nine::warm_up();
    let set = directory::<Nine>(dir, rules);
    let mut held: BTreeMap<LaskerSector, Vec<Value>> = BTreeMap::new();
    let mut out = Vec::new();
    for s in sectors::<Nine>(rules.stones) {
        let needed: Vec<LaskerSector> = [s, s.swapped()]
            .into_iter()
            .chain(exit_sectors(s).into_iter().flatten())
            .collect();
        held.retain(|k, _| needed.contains(k));
        for &k in &needed {
            if let Entry::Vacant(slot) = held.entry(k) {
                slot.insert(set.open(k)?.values()?);
            }
        }
        let values = &held[&s];
        let partner = held[&s.swapped()].as_slice();
        let exits = Exits::new(s, |e| held.get(&e).map(Vec::as_slice))?;
        let n = values.len() as u64;
        let step = match sample {
            Some(k) if k > 0 && k < n => n / k,
            _ => 1,
        };
        let (checked, mismatches) = (0..n.div_ceil(step))
            .into_par_iter()
            .map(|i| {
                let slot = i * step;
                match nine::position(s.subspace(), slot) {
                    None => (0, 0),
                    Some((us, them)) => {
                        let v = recompute::<Nine, NineIndex>(rules, s, us, them, partner, &exits);
                        (1, u64::from(v != values[slot as usize]))
                    }
                }
            })
            .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
        let r = VerifyReport {
            sector: s,
            checked,
            mismatches,
        };
        report(&r);
        out.push(r);
    }
    Ok(out)
}
