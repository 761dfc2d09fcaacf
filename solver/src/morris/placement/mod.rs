//! The placement phase: an exact win / draw / loss alpha-beta search over
//! placements that scores every position reaching the moving phase by
//! probing the tablebases. This is how `solver nine start` proves the start
//! position a draw.
//!
//! - [`PlacementSearch`] is one searcher: alpha-beta on three values with a
//!   transposition table ([`table`]) and move ordering ([`order`]).
//! - [`prove`] runs the two null-window questions "is the value at least a
//!   draw?" and "is it a win?" on two threads at once, each with its own
//!   searcher; together the answers give the exact value.

mod order;
mod table;

use super::movegen::{apply, for_each_move, game_over};
use super::nine::inverse;
use super::position::{Move, Position};
use super::probe::{ProbeError, Tablebases};
use order::History;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;
use table::{Bounds, Table};
use tablebase::Outcome;

/// Statistics of a search.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// Positions visited.
    pub nodes: u64,
    /// Tablebase probes at the end of placement.
    pub probes: u64,
    /// Transposition-table hits that cut the search.
    pub tt_cuts: u64,
    /// Entries in the transposition table.
    pub tt_entries: u64,
}

impl std::ops::Add for SearchStats {
    type Output = SearchStats;
    fn add(self, o: SearchStats) -> SearchStats {
        SearchStats {
            nodes: self.nodes + o.nodes,
            probes: self.probes + o.probes,
            tt_cuts: self.tt_cuts + o.tt_cuts,
            tt_entries: self.tt_entries + o.tt_entries,
        }
    }
}

/// Why a search stopped early.
enum Halt {
    Probe(ProbeError),
    /// Another thread's answer made this one unnecessary.
    Stopped,
}

impl From<ProbeError> for Halt {
    fn from(e: ProbeError) -> Halt {
        Halt::Probe(e)
    }
}

/// A progress callback.
type Reporter<'a> = Box<dyn FnMut(SearchStats) + 'a>;

/// Counters shared with other threads of a [`prove`] run.
struct Shared<'s> {
    nodes: &'s AtomicU64,
    stop: &'s AtomicBool,
}

/// An exact win/draw/loss search of placement positions over tablebases.
pub struct PlacementSearch<'a> {
    tb: &'a Tablebases,
    table: Table,
    history: History,
    /// Move lists, one per remaining-placements depth (no allocation per node).
    buffers: Vec<Vec<(i64, Move)>>,
    stats: SearchStats,
    progress: Option<(u64, Reporter<'a>)>,
    shared: Option<Shared<'a>>,
}

fn score(o: Outcome) -> i8 {
    match o {
        Outcome::Win => 1,
        Outcome::Draw => 0,
        Outcome::Loss => -1,
    }
}

fn outcome(s: i8) -> Outcome {
    match s.signum() {
        1 => Outcome::Win,
        0 => Outcome::Draw,
        _ => Outcome::Loss,
    }
}

/// Transposition key of a canonical position: mover-relative stones and
/// both hands.
fn key(c: &Position) -> u64 {
    c.us() as u64
        | (c.them() as u64) << 24
        | (c.our_hand() as u64) << 48
        | (c.their_hand() as u64) << 56
}

impl<'a> PlacementSearch<'a> {
    /// A search over the tablebases `tb` with a 16 MiB transposition table.
    pub fn new(tb: &'a Tablebases) -> PlacementSearch<'a> {
        PlacementSearch::with_table_mib(tb, 16)
    }

    /// A search with a transposition table of about `mib` MiB (16-byte
    /// entries, rounded down to a power of two).
    pub fn with_table_mib(tb: &'a Tablebases, mib: u64) -> PlacementSearch<'a> {
        let entries = (mib.max(1) << 20) / 16;
        PlacementSearch::with_table_bits(tb, 63 - entries.leading_zeros())
    }

    /// A search with a transposition table of `2^bits` entries (4..=40).
    pub fn with_table_bits(tb: &'a Tablebases, bits: u32) -> PlacementSearch<'a> {
        PlacementSearch {
            tb,
            table: Table::new(bits),
            history: History::new(),
            buffers: (0..=18).map(|_| Vec::with_capacity(64)).collect(),
            stats: SearchStats::default(),
            progress: None,
            shared: None,
        }
    }

    /// Call `report` with the statistics every `every` nodes (for long proofs).
    pub fn with_progress(
        mut self,
        every: u64,
        report: impl FnMut(SearchStats) + 'a,
    ) -> PlacementSearch<'a> {
        self.progress = Some((every.max(1), Box::new(report)));
        self
    }

    /// Statistics so far.
    pub fn stats(&self) -> SearchStats {
        SearchStats {
            tt_entries: self.table.filled(),
            ..self.stats
        }
    }

    /// The exact value of a position (placement or moving phase) for the
    /// side to move.
    pub fn value(&mut self, pos: &Position) -> Result<Outcome, ProbeError> {
        pos.validate()?;
        Ok(outcome(self.run(pos, -1, 1)?))
    }

    /// The value of every legal move for the side to move, best first.
    pub fn move_values(&mut self, pos: &Position) -> Result<Vec<(Move, Outcome)>, ProbeError> {
        pos.validate()?;
        let mut moves = Vec::new();
        for_each_move(pos, self.tb.rules(), |m| moves.push(m));
        let mut out = Vec::with_capacity(moves.len());
        for m in moves {
            out.push((m, outcome(-self.run(&apply(pos, m), -1, 1)?)));
        }
        out.sort_by_key(|&(m, o)| (std::cmp::Reverse(o), m));
        Ok(out)
    }

    /// A search with the window (`alpha`, `beta`), errors unwrapped.
    fn run(&mut self, pos: &Position, alpha: i8, beta: i8) -> Result<i8, ProbeError> {
        self.history.age();
        match self.search(pos, alpha, beta) {
            Ok(s) => Ok(s),
            Err(Halt::Probe(e)) => Err(e),
            Err(Halt::Stopped) => unreachable!("only prove() stops searches"),
        }
    }

    fn count_node(&mut self) -> Result<(), Halt> {
        self.stats.nodes += 1;
        if let Some((every, report)) = &mut self.progress {
            if self.stats.nodes.is_multiple_of(*every) {
                report(SearchStats {
                    tt_entries: self.table.filled(),
                    ..self.stats
                });
            }
        }
        if let Some(shared) = &self.shared {
            if self.stats.nodes.is_multiple_of(4096) {
                shared.nodes.fetch_add(4096, Ordering::Relaxed);
                if shared.stop.load(Ordering::Relaxed) {
                    return Err(Halt::Stopped);
                }
            }
        }
        Ok(())
    }

    /// Fail-soft alpha-beta on scores −1, 0, 1 for the side to move.
    fn search(&mut self, pos: &Position, mut alpha: i8, mut beta: i8) -> Result<i8, Halt> {
        self.count_node()?;
        if game_over(pos, self.tb.rules()).is_some() {
            return Ok(-1);
        }
        if !pos.placing() {
            self.stats.probes += 1;
            return Ok(score(self.tb.probe_bits(pos.us(), pos.them())?.outcome()));
        }
        let (canon, op) = pos.canonical();
        let k = key(&canon);
        let known = self.table.get(k);
        let bounds = known.map_or(Bounds::OPEN, |k| k.bounds);
        if bounds.lower >= beta || bounds.upper <= alpha || bounds.lower == bounds.upper {
            self.stats.tt_cuts += 1;
            return Ok(if bounds.lower >= beta {
                bounds.lower
            } else {
                bounds.upper
            });
        }
        alpha = alpha.max(bounds.lower);
        beta = beta.min(bounds.upper);
        let (alpha0, beta0) = (alpha, beta);
        let tt_move = known.and_then(|k| k.best).map(|m| m.transform(inverse(op)));
        let depth = pos.hand[0] + pos.hand[1];
        let mut moves = std::mem::take(&mut self.buffers[depth as usize]);
        moves.clear();
        for_each_move(pos, self.tb.rules(), |m| {
            let s = if Some(m) == tt_move {
                i64::MAX
            } else {
                order::score(pos, m, &self.history)
            };
            moves.push((s, m));
        });
        moves.sort_unstable_by_key(|&(s, m)| (std::cmp::Reverse(s), m));
        let mut best = -2;
        let mut best_move = None;
        let mut result = Ok(());
        for &(_, m) in &moves {
            let s = match self.search(&apply(pos, m), -beta, -alpha) {
                Ok(s) => -s,
                Err(e) => {
                    result = Err(e);
                    break;
                }
            };
            if s > best {
                best = s;
                best_move = Some(m);
                alpha = alpha.max(s);
                if alpha >= beta {
                    self.history.reward(pos, m, depth);
                    break;
                }
            }
        }
        self.buffers[depth as usize] = moves;
        result?;
        let mut b = bounds;
        if best <= alpha0 {
            b.upper = b.upper.min(best);
        } else if best >= beta0 {
            b.lower = b.lower.max(best);
        } else {
            b = Bounds {
                lower: best,
                upper: best,
            };
        }
        self.table
            .put(k, b, best_move.map(|m| m.transform(op)), depth);
        Ok(best)
    }
}

/// The outcome of [`prove`].
#[derive(Debug, Clone, Copy)]
pub struct Proof {
    /// The exact value for the side to move.
    pub value: Outcome,
    /// Both searchers' statistics added together.
    pub stats: SearchStats,
}

/// The exact value of `pos` by two null-window searches run side by side:
/// "at least a draw?" (window −1..0) and "a win?" (window 0..1), each with
/// its own transposition table of `table_mib / 2`. When one answer settles
/// the value alone (a loss, or a win), the other search is stopped.
/// `report` is called about once a second with the total node count.
pub fn prove(
    tb: &Tablebases,
    pos: &Position,
    table_mib: u64,
    mut report: impl FnMut(u64),
) -> Result<Proof, ProbeError> {
    pos.validate()?;
    let nodes = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    let run = |alpha: i8, beta: i8, settles: fn(i8) -> bool| {
        let mut s = PlacementSearch::with_table_mib(tb, (table_mib / 2).max(1));
        s.shared = Some(Shared {
            nodes: &nodes,
            stop: &stop,
        });
        let r = s.search(pos, alpha, beta);
        if matches!(r, Ok(v) if settles(v)) || matches!(r, Err(Halt::Probe(_))) {
            stop.store(true, Ordering::Relaxed);
        }
        (r, s.stats())
    };
    let ((draw_or_better, s1), (win, s2)) = std::thread::scope(|scope| {
        let not_loss = scope.spawn(|| run(-1, 0, |v| v < 0));
        let win = scope.spawn(|| run(0, 1, |v| v > 0));
        let mut ticks = 0u32;
        while !(not_loss.is_finished() && win.is_finished()) {
            std::thread::sleep(Duration::from_millis(20));
            ticks += 1;
            if ticks.is_multiple_of(50) {
                report(nodes.load(Ordering::Relaxed));
            }
        }
        (join(not_loss), join(win))
    });
    let value = match (draw_or_better, win) {
        (Err(Halt::Probe(e)), _) | (_, Err(Halt::Probe(e))) => return Err(e),
        (_, Ok(w)) if w > 0 => Outcome::Win,
        (Ok(d), _) if d < 0 => Outcome::Loss,
        (Ok(_), Ok(_)) => Outcome::Draw,
        _ => unreachable!("a search stops only once the other settled the value"),
    };
    Ok(Proof {
        value,
        stats: s1 + s2,
    })
}

fn join<T>(h: std::thread::ScopedJoinHandle<'_, T>) -> T {
    h.join().unwrap_or_else(|e| std::panic::resume_unwind(e))
}
