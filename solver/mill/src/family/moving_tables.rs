//! Moving-phase tables of a large board of the family (Morabaraba) over the
//! symmetry-reduced index ([`super::symmetric`]): generated pair by pair on
//! the retrograde engine, each subspace written to its own file as soon as
//! its pair is solved (`morabaraba-flying-5-4.tb`, label
//! `morabaraba/flying/5-4`), so that a cut-off run resumes where it
//! stopped. Only the tables a pair's removals lead into are kept in memory
//! (those with one stone less in all), read back from their files.
//!
//! Values carry the distance to conversion, as Nine Men's Morris's. A full
//! board (12-12 on Morabaraba: only reached right after placement) leaves
//! the side to move without a move: a draw under [`FullBoard::Draw`], a loss
//! under [`FullBoard::BlockedLoses`].
//!
//! [`FullBoard::Draw`]: crate::variant::FullBoard::Draw
//! [`FullBoard::BlockedLoses`]: crate::variant::FullBoard::BlockedLoses

use super::files::{self, FilesError};
use super::solve::{pairs, SolveError};
use super::symmetric::{self, Symmetric};
use crate::board::Board;
use crate::pair::{recompute, MovingPair};
use crate::sector::Subspace;
use crate::variant::RuleSet;
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::path::Path;
use std::time::Instant;
use tablebase::format::FormatError;
use tablebase::reader::Table;
use tablebase::resident::Wdl;
use tablebase::retro::{solve, Observer};
use tablebase::Value;

/// Errors of the moving-phase tables.
#[derive(Debug, thiserror::Error)]
pub enum TablesError {
    /// A table could not be solved.
    #[error(transparent)]
    Solve(#[from] SolveError),
    /// A file could not be read or written, or holds another table.
    #[error(transparent)]
    Files(#[from] FilesError),
    /// The largest stone count is outside `3..=P/2`.
    #[error("--max-stones {max} is outside 3..={limit} on this board")]
    MaxStones {
        /// The count asked for.
        max: u8,
        /// The largest count the board takes.
        limit: usize,
    },
}

impl From<FormatError> for TablesError {
    fn from(e: FormatError) -> TablesError {
        TablesError::Files(FilesError::Format(e))
    }
}

/// What generation reports about one subspace.
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
    /// Bytes of its file.
    pub bytes: u64,
}

/// What generation reports about one pair.
#[derive(Debug, Clone)]
pub struct PairReport {
    /// Its subspaces (one or two).
    pub parts: Vec<SubspaceReport>,
    /// Wall-clock seconds of the solve and the writing (0 when resumed).
    pub seconds: f64,
    /// The files were there already and were checked, not solved again.
    pub resumed: bool,
}

/// Every subspace `(w, b)` with `3 ≤ w, b ≤ max`, in the order generation
/// solves them (pair by pair, by total stones).
pub fn subspaces(max: u8) -> Vec<Subspace> {
    let mut out = Vec::new();
    for sub in pairs(max) {
        out.push(sub);
        if sub.us != sub.them {
            out.push(sub.swapped());
        }
    }
    out
}

fn check_max<B: Board>(max: u8) -> Result<(), TablesError> {
    if max < 3 || max as usize > B::POINTS / 2 {
        return Err(TablesError::MaxStones {
            max,
            limit: B::POINTS / 2,
        });
    }
    Ok(())
}

/// The report of a subspace from its file's header.
fn report_from_file<B: Board>(
    dir: &Path,
    rules: RuleSet,
    sub: Subspace,
) -> Result<SubspaceReport, TablesError> {
    let table = files::open_moving::<B, Symmetric>(dir, rules, sub)?;
    let h = table.header();
    Ok(SubspaceReport {
        sub,
        slots: h.slots,
        positions: h.positions,
        wdl: [h.wins, h.draws, h.losses],
        longest_win: h.max_win,
        bytes: table.bytes(),
    })
}

/// What a table is held in memory as, read from its file: values with
/// their distances (to verify), or outcomes at two bits a slot (the exits
/// of a pair being solved: an eighth of the memory, and more of it stays
/// in the cache).
trait Held: Sized {
    fn read(table: &Table) -> Result<Self, FormatError>;
}

impl Held for Vec<Value> {
    fn read(table: &Table) -> Result<Vec<Value>, FormatError> {
        table.values()
    }
}

impl Held for Wdl {
    fn read(table: &Table) -> Result<Wdl, FormatError> {
        Wdl::load(table)
    }
}

/// Tables held in memory, read from `dir` on first need.
struct Cache<'d, T> {
    dir: &'d Path,
    rules: RuleSet,
    tables: BTreeMap<Subspace, T>,
}

impl<'d, T: Held> Cache<'d, T> {
    fn new(dir: &'d Path, rules: RuleSet) -> Cache<'d, T> {
        Cache {
            dir,
            rules,
            tables: BTreeMap::new(),
        }
    }

    fn ensure<B: Board>(&mut self, sub: Subspace) -> Result<(), TablesError> {
        if !self.tables.contains_key(&sub) {
            let table = files::open_moving::<B, Symmetric>(self.dir, self.rules, sub)?;
            self.tables.insert(sub, T::read(&table)?);
        }
        Ok(())
    }

    /// Drop the tables with fewer than `total` stones.
    fn keep_from(&mut self, total: u8) {
        self.tables.retain(|s, _| s.us + s.them >= total);
    }
}

/// Generate every subspace with 3..=`max` stones a side under `rules` into
/// `dir`, skipping pairs whose files are there and sound; `report` hears of
/// every pair.
pub fn generate<B: Board>(
    dir: &Path,
    rules: RuleSet,
    max: u8,
    observer: &dyn Observer,
    mut report: impl FnMut(&PairReport),
) -> Result<Vec<PairReport>, TablesError> {
    check_max::<B>(max)?;
    symmetric::warm_up::<B>();
    let mut cache = Cache::<Wdl>::new(dir, rules);
    let mut out = Vec::new();
    for sub in pairs(max) {
        let r = generate_in::<B>(dir, rules, sub, &mut cache, observer)?;
        report(&r);
        out.push(r);
    }
    Ok(out)
}

/// Generate one pair (`sub` and its swap) into `dir`, unless its files are
/// there and sound: one job of the workflow ([`crate::plan::morabaraba`]).
/// The subspaces its removals lead into must be on disk.
pub fn generate_pair<B: Board>(
    dir: &Path,
    rules: RuleSet,
    sub: Subspace,
    observer: &dyn Observer,
) -> Result<PairReport, TablesError> {
    check_max::<B>(sub.us.max(sub.them))?;
    symmetric::warm_up::<B>();
    generate_in::<B>(dir, rules, sub, &mut Cache::new(dir, rules), observer)
}

/// Solve and write the pair `sub` unless its files are there, with the
/// exit tables from `cache` (read from `dir` when not held yet).
fn generate_in<B: Board>(
    dir: &Path,
    rules: RuleSet,
    sub: Subspace,
    cache: &mut Cache<Wdl>,
    observer: &dyn Observer,
) -> Result<PairReport, TablesError> {
    let parts: Vec<Subspace> = if sub.us == sub.them {
        vec![sub]
    } else {
        vec![sub, sub.swapped()]
    };
    let total = sub.us + sub.them;
    let done: Result<Vec<_>, _> = parts
        .iter()
        .map(|&p| report_from_file::<B>(dir, rules, p))
        .collect();
    if let Ok(parts) = done {
        return Ok(PairReport {
            parts,
            seconds: 0.0,
            resumed: true,
        });
    }
    let started = Instant::now();
    cache.keep_from(total - 1);
    for &p in &parts {
        if let Some(e) = p.exit() {
            cache.ensure::<B>(e)?;
        }
    }
    let values = {
        let game = MovingPair::<B, Symmetric, Wdl>::new(rules, sub, |e| cache.tables.get(&e))
            .map_err(SolveError::from)?;
        solve(&game, observer).map_err(SolveError::from)?.0
    };
    let mut reports = Vec::new();
    for (&p, v) in parts.iter().zip(values) {
        let positions = symmetric::positions::<B>(p);
        let bytes = files::write_moving::<B>(dir, rules, p, &v, positions)?;
        let mut r = report_from_file::<B>(dir, rules, p)?;
        r.bytes = bytes;
        reports.push(r);
        // Read back from the file just written: the next pairs' exits.
        cache.ensure::<B>(p)?;
    }
    Ok(PairReport {
        parts: reports,
        seconds: started.elapsed().as_secs_f64(),
        resumed: false,
    })
}

/// The figures of every subspace with 3..=`max` stones a side in `dir`
/// (from the file headers; every file checked).
pub fn stats<B: Board>(
    dir: &Path,
    rules: RuleSet,
    max: u8,
) -> Result<Vec<SubspaceReport>, TablesError> {
    check_max::<B>(max)?;
    subspaces(max)
        .into_iter()
        .map(|sub| report_from_file::<B>(dir, rules, sub))
        .collect()
}

/// The result of verifying one subspace.
#[derive(Debug, Clone)]
pub struct VerifyReport {
    /// The subspace.
    pub sub: Subspace,
    /// Positions recomputed.
    pub checked: u64,
    /// Positions whose stored value differs from the recomputation.
    pub mismatches: u64,
}

/// Recompute stored values from their successors' stored values (the
/// definition of a value, [`recompute`]): every position, or with
/// `sample` that many evenly spread slots a subspace.
pub fn verify<B: Board>(
    dir: &Path,
    rules: RuleSet,
    max: u8,
    sample: Option<u64>,
    mut report: impl FnMut(&VerifyReport),
) -> Result<Vec<VerifyReport>, TablesError> {
    check_max::<B>(max)?;
    symmetric::warm_up::<B>();
    let mut cache = Cache::<Vec<Value>>::new(dir, rules);
    let mut out = Vec::new();
    for sub in subspaces(max) {
        cache.keep_from(sub.us + sub.them - 1);
        cache.ensure::<B>(sub)?;
        cache.ensure::<B>(sub.swapped())?;
        let exit_sub = sub.exit();
        if let Some(e) = exit_sub {
            cache.ensure::<B>(e)?;
        }
        let values = &cache.tables[&sub];
        let partner = cache.tables[&sub.swapped()].as_slice();
        let exit = exit_sub.map(|e| cache.tables[&e].as_slice());
        let partner_at = |s: u64| partner[s as usize];
        let exit_at = exit.map(|v| move |s: u64| v[s as usize]);
        let exit_at = exit_at
            .as_ref()
            .map(|f| f as &(dyn Fn(u64) -> Value + Sync));
        let (checked, mismatches) =
            recount::<B>(sub, values.len() as u64, sample, |us, them, slot| {
                let exit = exit_at.map(|f| f as &dyn Fn(u64) -> Value);
                recompute::<B, Symmetric>(rules, us, them, &partner_at, exit)
                    != values[slot as usize]
            });
        let r = VerifyReport {
            sub,
            checked,
            mismatches,
        };
        report(&r);
        out.push(r);
    }
    Ok(out)
}

/// Recount a stored table of subspace `sub` (`n` slots): every slot, or
/// with `sample` that many evenly spread ones, decoded and handed to
/// `differs(us, them, slot)`, which recomputes its value and says whether
/// the stored one differs. Returns the positions checked and the
/// mismatches (the verify loop of moving subspaces and placement sectors).
pub(crate) fn recount<B: Board>(
    sub: Subspace,
    n: u64,
    sample: Option<u64>,
    differs: impl Fn(crate::geometry::Bits, crate::geometry::Bits, u64) -> bool + Sync,
) -> (u64, u64) {
    let step = match sample {
        Some(k) if k > 0 && k < n => n / k,
        _ => 1,
    };
    (0..n.div_ceil(step))
        .into_par_iter()
        .map(|i| {
            let slot = i * step;
            match symmetric::position::<B>(sub, slot) {
                None => (0, 0),
                Some((us, them)) => (1, u64::from(differs(us, them, slot))),
            }
        })
        .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1))
}

/// The stored value of the moving-phase position `(us, them)` (side to
/// move's stones first), read from its file without loading the table.
pub fn value<B: Board>(
    dir: &Path,
    rules: RuleSet,
    us: crate::geometry::Bits,
    them: crate::geometry::Bits,
) -> Result<Value, TablesError> {
    let sub = Subspace::of(us, them);
    let table = files::open_moving::<B, Symmetric>(dir, rules, sub)?;
    Ok(table.get(symmetric::slot::<B>(us, them))?)
}
