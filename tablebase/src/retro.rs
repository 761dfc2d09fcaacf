//! The generic parallel retrograde engine.
//!
//! A game hands the engine a *pair* of index spaces ("parts") such that
//! every move of a position in one part either stays inside the pair (it
//! lands in the other part, or in the same part when there is only one) or
//! leaves it (an *exit*: a conversion into an already solved space, or the
//! end of the game) after exactly one ply. The engine computes the value of
//! every position: win / loss / draw for the side to move with the distance
//! in plies to conversion (DTC): a win takes the fastest way out, a loss the
//! slowest, and a position from which neither side can force a result is a
//! draw.
//!
//! Algorithm: one forward pass counts, for every position, its distinct
//! successors inside the pair and records its best exit; then the engine
//! walks level by level (`d = 0, 1, …`): every predecessor of a loss in `d`
//! becomes a win in `d + 1`, and every win in `d` decrements the counters of
//! its predecessors; a counter that reaches zero makes a loss in `d + 1`
//! (or a draw, when an exit to a draw exists). Successors and predecessors
//! are de-duplicated per position, so symmetric duplicates count once on
//! both sides. Each level is a parallel scan (rayon) over the chunks of the
//! value arrays that received values of that level (a bitmask per chunk);
//! state per position is one 16-bit atomic: the value once known, until then
//! the successor counter and a drawing-exit flag. The result does not depend on the number of
//! threads.

use crate::huge::HugeArray;
use crate::value::Value;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU16, AtomicU64, Ordering::Relaxed};

/// Best outcome among a position's moves that leave the pair, one ply away.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Exit {
    /// No move leaves the pair.
    None,
    /// Every move leaving the pair loses (the opponent then wins).
    Loss,
    /// The best move leaving the pair draws.
    Draw,
    /// A move leaving the pair wins.
    Win,
}

/// A game (or one pair of subspaces of a game) as the engine sees it.
pub trait RetroGame: Sync {
    /// Number of parts: 1 (moves stay in the same part) or 2 (moves go from
    /// part 0 to part 1 and back).
    fn parts(&self) -> usize;

    /// Number of index slots in `part`.
    fn size(&self, part: usize) -> u64;

    /// Expand slot `idx` of `part`. Returns `None` when the slot holds no
    /// position. Otherwise calls `succ(j)` for every move that stays inside
    /// the pair (`j` indexes the other part; duplicates are allowed) and
    /// returns the best exit.
    fn expand(&self, part: usize, idx: u64, succ: &mut impl FnMut(u64)) -> Option<Exit>;

    /// [`RetroGame::expand`] every slot of `range` in order: for each slot
    /// that holds a position, `visit(idx, exit, successors)` with the
    /// successors `expand` would report (duplicates allowed; `visit` may
    /// reorder the list). The default expands slot by slot; a game that
    /// steps from one slot's position to the next more cheaply than it
    /// decodes a slot overrides it.
    fn expand_each(
        &self,
        part: usize,
        range: std::ops::Range<u64>,
        visit: &mut impl FnMut(u64, Exit, &mut Vec<u64>),
    ) {
        let mut buf = Vec::new();
        for idx in range {
            buf.clear();
            if let Some(exit) = self.expand(part, idx, &mut |j| buf.push(j)) {
                visit(idx, exit, &mut buf);
            }
        }
    }

    /// Call `pred(j)` for every position `j` of the other part that has a
    /// move inside the pair to slot `idx` of `part` (duplicates allowed).
    fn predecessors(&self, part: usize, idx: u64, pred: &mut impl FnMut(u64));
}

/// Receives progress reports from a long computation.
pub trait Observer: Sync {
    /// A new pass starts; `total` units of work, `label` names it.
    fn start(&self, _label: &str, _total: u64) {}
    /// `n` more units are done.
    fn advance(&self, _n: u64) {}
    /// The pass is over.
    fn finish(&self) {}
}

/// The observer that ignores everything.
pub struct Silent;
impl Observer for Silent {}

/// Errors of the retrograde engine.
#[derive(Debug, thiserror::Error)]
pub enum RetroError {
    /// A position has more distinct successors than a counter can hold.
    #[error("part {part} slot {idx} has {count} distinct successors (at most {max} supported)")]
    TooManySuccessors {
        /// The part.
        part: usize,
        /// The slot.
        idx: u64,
        /// Its successor count.
        count: usize,
        /// The limit.
        max: usize,
    },
    /// A distance grew past what a [`Value`] encodes.
    #[error("distance {0} plies exceeds the encodable maximum")]
    DistanceOverflow(u32),
}

/// State bit: the position's value is known (the low 15 bits hold it).
const RESOLVED: u16 = 0x8000;
/// State bit of an unresolved position: a move leaving the pair draws.
const DRAW_EXIT: u16 = 0x80;
/// State bits of an unresolved position: successors not yet known to win.
const COUNT_MASK: u16 = 0x7F;
/// Largest distance a state can hold.
const MAX_LEVEL: u16 = 0x3FFE;
/// Slots per unit of parallel work.
const CHUNK: u64 = 1 << 14;

/// Statistics of a solve.
#[derive(Debug, Clone, Default)]
pub struct SolveStats {
    /// Number of levels walked.
    pub levels: u32,
}

/// Solve the pair: the value of every slot of every part ([`Value::DRAW`]
/// for slots that hold no position).
pub fn solve<G: RetroGame>(
    game: &G,
    observer: &dyn Observer,
) -> Result<(Vec<Vec<Value>>, SolveStats), RetroError> {
    let parts = game.parts();
    assert!(parts == 1 || parts == 2, "a pair has one or two parts");
    // One 16-bit state per slot: RESOLVED | value, or the draw-exit flag and
    // the count of successors not yet known to win.
    // On huge pages: the level passes update predecessors' states at
    // random, and on 4 KiB pages each update misses the TLB too.
    let states: Vec<HugeArray<AtomicU16>> = (0..parts)
        .map(|p| HugeArray::zeroed(game.size(p) as usize))
        .collect();
    let max_level = AtomicU16::new(0);
    let other = |p: usize| if parts == 2 { 1 - p } else { p };
    // Per chunk, bit `d % 64` says that a value of level `d` was assigned in
    // the chunk and not yet processed, so level scans skip idle chunks.
    let pending: Vec<Vec<AtomicU64>> = (0..parts)
        .map(|p| {
            (0..game.size(p).div_ceil(CHUNK))
                .map(|_| AtomicU64::new(0))
                .collect()
        })
        .collect();
    let mark = |part: usize, idx: u64, level: u16| {
        pending[part][(idx / CHUNK) as usize].fetch_or(1 << (level % 64), Relaxed);
    };

    // Forward pass: successor counts and exits.
    let total: u64 = (0..parts).map(|p| game.size(p)).sum();
    observer.start("count successors", total);
    for part in 0..parts {
        let states = &states[part];
        chunks(game.size(part)).try_for_each(|range| {
            let mut error = None;
            game.expand_each(part, range.clone(), &mut |idx, exit, buf| {
                if error.is_some() {
                    return;
                }
                buf.sort_unstable();
                buf.dedup();
                let n = buf.len();
                if n > COUNT_MASK as usize {
                    error = Some(RetroError::TooManySuccessors {
                        part,
                        idx,
                        count: n,
                        max: COUNT_MASK as usize,
                    });
                    return;
                }
                let value = match (exit, n) {
                    (Exit::Win, _) => Value::win(1),
                    (Exit::None, 0) => Value::loss(0),
                    (Exit::Loss, 0) => Value::loss(1),
                    _ => {
                        let flag = if exit == Exit::Draw { DRAW_EXIT } else { 0 };
                        states[idx as usize].store(n as u16 | flag, Relaxed);
                        return;
                    }
                };
                states[idx as usize].store(RESOLVED | value.0, Relaxed);
                let d = value.distance().unwrap_or(0);
                max_level.fetch_max(d, Relaxed);
                mark(part, idx, d);
            });
            observer.advance(range.end - range.start);
            error.map_or(Ok(()), Err)
        })?;
    }
    observer.finish();

    // Level by level.
    let mut level: u16 = 0;
    let mut stats = SolveStats::default();
    while level <= max_level.load(Relaxed) {
        if level >= MAX_LEVEL {
            return Err(RetroError::DistanceOverflow(level as u32 + 1));
        }
        let (win, loss) = (
            RESOLVED | Value::win(level).0,
            RESOLVED | Value::loss(level).0,
        );
        let (next_win, next_loss) = (
            RESOLVED | Value::win(level + 1).0,
            RESOLVED | Value::loss(level + 1).0,
        );
        let any = AtomicBool::new(false);
        observer.start(&format!("level {level}"), total);
        for part in 0..parts {
            let (own, target) = (&states[part], &states[other(part)]);
            let bit = 1u64 << (level % 64);
            chunks(game.size(part)).for_each_init(Vec::new, |buf, range| {
                let flags = &pending[part][(range.start / CHUNK) as usize];
                if flags.fetch_and(!bit, Relaxed) & bit == 0 {
                    observer.advance(range.end - range.start);
                    return;
                }
                for idx in range.clone() {
                    let v = own[idx as usize].load(Relaxed);
                    if (v != win || level == 0) && v != loss {
                        continue;
                    }
                    buf.clear();
                    game.predecessors(part, idx, &mut |j| buf.push(j));
                    buf.sort_unstable();
                    buf.dedup();
                    for &j in buf.iter() {
                        let slot = &target[j as usize];
                        let mut state = slot.load(Relaxed);
                        // A loss makes its predecessors wins; a win takes
                        // one from their counts, and the last one makes a
                        // loss (or, with a drawing exit, a draw).
                        // (A count already at zero cannot drop: the game
                        // reported this predecessor more often than its
                        // successors; leave it be rather than wrap.)
                        while state & RESOLVED == 0 && (v == loss || state & COUNT_MASK != 0) {
                            let next = if v == loss {
                                next_win
                            } else if state & COUNT_MASK == 1 && state & DRAW_EXIT == 0 {
                                next_loss
                            } else {
                                state - 1
                            };
                            match slot.compare_exchange_weak(state, next, Relaxed, Relaxed) {
                                Ok(_) => {
                                    if next & RESOLVED != 0 {
                                        any.store(true, Relaxed);
                                        mark(other(part), j, level + 1);
                                    }
                                    break;
                                }
                                Err(now) => state = now,
                            }
                        }
                    }
                }
                observer.advance(range.end - range.start);
            });
        }
        observer.finish();
        if any.load(Relaxed) {
            max_level.fetch_max(level + 1, Relaxed);
        }
        level += 1;
        stats.levels = level as u32;
    }
    let values = states.into_iter().map(into_values).collect();
    Ok((values, stats))
}

/// The values of a part's final states, copied out a piece at a time with
/// each piece's states given back at once, so that states and values are
/// never both held whole.
fn into_values(mut states: HugeArray<AtomicU16>) -> Vec<Value> {
    const PIECE: usize = 1 << 25;
    let mut values = Vec::with_capacity(states.len());
    for start in (0..states.len()).step_by(PIECE) {
        let piece = start..(start + PIECE).min(states.len());
        values.par_extend(states[piece.clone()].par_iter().map(|a| {
            let s = a.load(Relaxed);
            if s & RESOLVED != 0 {
                Value(s & !RESOLVED)
            } else {
                Value::DRAW
            }
        }));
        states.release(piece);
    }
    values
}

/// Parallel iterator over index ranges of [`CHUNK`] slots covering `0..size`.
fn chunks(size: u64) -> impl ParallelIterator<Item = std::ops::Range<u64>> {
    let n = size.div_ceil(CHUNK);
    (0..n)
        .into_par_iter()
        .map(move |c| c * CHUNK..((c + 1) * CHUNK).min(size))
}

#[cfg(test)]
mod tests;
