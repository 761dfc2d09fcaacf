//! The placement phase: an exact win / draw / loss alpha-beta search over
//! placements that scores every position reaching the moving phase by
//! probing the tablebases. This is how `solver nine start` proves the start
//! position a draw, and how `solver morabaraba start` values its games: the
//! search is generic over the game ([`PlacementGame`]: board, moves, the
//! moving-phase outcome at the leaves).
//!
//! - Alpha-beta on the three scores −1, 0, 1 (fail-soft), with a shared
//!   lock-free transposition table ([`table`]) and move ordering
//!   ([`order`]): table move, mill closings, blocks, open twos, history.
//! - Parallel by "young brothers wait": near the root, a node searches its
//!   first move alone, then its other moves on all threads (rayon); a
//!   cutoff stops the siblings still running.

pub mod game;
mod order;
mod table;

use crate::rules::board::Board;
use crate::rules::position::{Move, Position};
pub use game::PlacementGame;
use order::History;
pub use order::MoveOrder;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicI8, AtomicU64, Ordering::Relaxed};
use std::sync::Mutex;
use table::{Bounds, Table};
use tablebase::Outcome;

/// By default, nodes with at least this many stones left in hand split
/// their moves between threads.
const SPLIT_DEPTH: u8 = 6;

/// Nodes with at least this many stones left in hand look up their
/// children in the transposition table before searching any.
const ETC_DEPTH: u8 = 3;

/// Nodes a worker counts before it adds them to the shared totals and
/// checks for a stop.
const FLUSH: u64 = 1024;

/// Most stones in hand of both sides together (Morabaraba: 12 each).
const MAX_DEPTH: usize = 24;

/// What a search keeps between questions: its transposition table (its
/// entries are proven bounds of the same game, so they stay true) and its
/// thread pool. [`PlacementSearch::keep`] takes it out of a search,
/// [`PlacementSearch::resume`] makes a search of it; a server or a player
/// that asks one position after another keeps its work this way without
/// holding a borrowed search.
pub struct Kept {
    table: Table,
    pool: Option<rayon::ThreadPool>,
}

impl Kept {
    /// Whether the kept table has at least as many entries as a table of
    /// about `mib` MiB ([`PlacementSearch::with_table_mib`]).
    pub fn holds_mib(&self, mib: u64) -> bool {
        self.table.bits() >= table_bits(mib)
    }
}

/// The entries (as a power of two) of a table of about `mib` MiB (16-byte
/// entries, rounded down to a power of two).
fn table_bits(mib: u64) -> u32 {
    let entries = (mib.max(1) << 20) / 16;
    63 - entries.leading_zeros()
}

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

/// Why a search stopped early.
enum Halt<E> {
    /// A leaf could not be valued.
    Probe(E),
    /// A sibling's cutoff made this search unnecessary.
    Stopped,
}

/// The stop flags of a node's split points, innermost first.
struct Abort<'p> {
    flag: Option<&'p AtomicBool>,
    parent: Option<&'p Abort<'p>>,
}

impl Abort<'_> {
    const NONE: Abort<'static> = Abort {
        flag: None,
        parent: None,
    };

    fn raised(&self) -> bool {
        let mut at = Some(self);
        while let Some(a) = at {
            if a.flag.is_some_and(|f| f.load(Relaxed)) {
                return true;
            }
            at = a.parent;
        }
        false
    }
}

/// A progress callback.
type Reporter<'a> = Box<dyn FnMut(SearchStats) + Send + 'a>;

/// Per-thread search state: move lists, history, uncounted statistics.
struct Worker {
    history: History,
    /// Move lists, one per remaining-placements depth (no allocation per node).
    buffers: Vec<Vec<(i64, Move)>>,
    /// Counts not yet added to the search's totals.
    counts: SearchStats,
}

impl Worker {
    fn new(history: History) -> Worker {
        Worker {
            history,
            buffers: (0..=MAX_DEPTH).map(|_| Vec::new()).collect(),
            counts: SearchStats::default(),
        }
    }
}

/// An exact win/draw/loss search of placement positions over the
/// moving-phase tables of a game (Nine Men's Morris's [`Tablebases`](crate::Tablebases) by
/// default). One search may be asked many positions; its transposition
/// table is kept.
pub struct PlacementSearch<'a, G: PlacementGame> {
    tb: &'a G,
    table: Table,
    pool: Option<rayon::ThreadPool>,
    split_depth: u8,
    order: MoveOrder,
    progress: Option<(u64, Mutex<Reporter<'a>>)>,
    nodes: AtomicU64,
    probes: AtomicU64,
    tt_cuts: AtomicU64,
    tt_entries: AtomicU64,
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
/// both hands (56 bits, never 0 while the mover places).
fn key(c: &Position) -> u64 {
    c.us() as u64
        | (c.them() as u64) << 24
        | (c.our_hand() as u64) << 48
        | (c.their_hand() as u64) << 52
}

impl<'a, G: PlacementGame> PlacementSearch<'a, G> {
    /// A one-thread search over the game's tables `tb` with a 16 MiB
    /// transposition table.
    pub fn new(tb: &'a G) -> PlacementSearch<'a, G> {
        PlacementSearch::with_table_mib(tb, 16)
    }

    /// A search with a transposition table of about `mib` MiB (16-byte
    /// entries, rounded down to a power of two).
    pub fn with_table_mib(tb: &'a G, mib: u64) -> PlacementSearch<'a, G> {
        PlacementSearch::with_table_bits(tb, table_bits(mib))
    }

    /// A search over `tb` with what an earlier search of the same game
    /// kept: its transposition table and threads.
    pub fn resume(tb: &'a G, kept: Kept) -> PlacementSearch<'a, G> {
        let mut search = PlacementSearch::with_table_bits(tb, 4);
        search.table = kept.table;
        search.pool = kept.pool;
        search
    }

    /// The transposition table and threads, for [`PlacementSearch::resume`].
    pub fn keep(self) -> Kept {
        Kept {
            table: self.table,
            pool: self.pool,
        }
    }

    /// A search with a transposition table of `2^bits` entries (4..=40).
    pub fn with_table_bits(tb: &'a G, bits: u32) -> PlacementSearch<'a, G> {
        PlacementSearch {
            tb,
            table: Table::new(bits),
            pool: None,
            split_depth: SPLIT_DEPTH,
            order: MoveOrder::Heuristic,
            progress: None,
            nodes: AtomicU64::new(0),
            probes: AtomicU64::new(0),
            tt_cuts: AtomicU64::new(0),
            tt_entries: AtomicU64::new(0),
        }
    }

    /// Search on `threads` threads (1 = this thread only).
    pub fn with_threads(mut self, threads: usize) -> Result<PlacementSearch<'a, G>, String> {
        self.pool = if threads > 1 {
            Some(
                rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .map_err(|e| e.to_string())?,
            )
        } else {
            None
        };
        Ok(self)
    }

    /// With several threads, split the moves of nodes with at least
    /// `depth` stones left in hand between threads (default 6: smaller
    /// subtrees are not worth a task).
    pub fn with_split_depth(mut self, depth: u8) -> PlacementSearch<'a, G> {
        self.split_depth = depth;
        self
    }

    /// Order the moves of every node by `order` (default
    /// [`MoveOrder::Heuristic`]); any order gives the same values.
    pub fn with_order(mut self, order: MoveOrder) -> PlacementSearch<'a, G> {
        self.order = order;
        self
    }

    /// Call `report` with the statistics about every `every` nodes (at
    /// least every 1,024), for long proofs.
    pub fn with_progress(
        mut self,
        every: u64,
        report: impl FnMut(SearchStats) + Send + 'a,
    ) -> PlacementSearch<'a, G> {
        self.progress = Some((every.max(1), Mutex::new(Box::new(report))));
        self
    }

    /// Statistics so far.
    pub fn stats(&self) -> SearchStats {
        SearchStats {
            nodes: self.nodes.load(Relaxed),
            probes: self.probes.load(Relaxed),
            tt_cuts: self.tt_cuts.load(Relaxed),
            tt_entries: self.tt_entries.load(Relaxed),
        }
    }

    /// The exact value of a position (placement or moving phase) for the
    /// side to move.
    pub fn value(&mut self, pos: &Position) -> Result<Outcome, G::Error> {
        self.tb.validate(pos)?;
        Ok(outcome(self.run(pos)?))
    }

    /// The value of every legal move for the side to move, best first.
    pub fn move_values(&mut self, pos: &Position) -> Result<Vec<(Move, Outcome)>, G::Error> {
        self.tb.validate(pos)?;
        let mut moves = Vec::new();
        self.tb.for_each_move(pos, |m| moves.push(m));
        let mut out = Vec::with_capacity(moves.len());
        for m in moves {
            out.push((m, outcome(-self.run(&pos.apply(m))?)));
        }
        out.sort_by_key(|&(m, o)| (std::cmp::Reverse(o), m));
        Ok(out)
    }

    /// A best move of the side to move and the position's value (`None`
    /// if there is no legal move): cheaper than [`Self::move_values`], as
    /// only one move is proven to keep the value.
    pub fn best_move(&mut self, pos: &Position) -> Result<Option<(Move, Outcome)>, G::Error> {
        self.tb.validate(pos)?;
        let value = self.run(pos)?;
        let mut moves = Vec::new();
        self.tb.for_each_move(pos, |m| moves.push(m));
        let history = History::new();
        moves.sort_by_key(|&m| {
            std::cmp::Reverse(order::score::<G::Board>(pos, m, &history, self.order))
        });
        for m in moves {
            // Does the move keep the value? (The opponent's value after it
            // is at most -value: a null window just above -value.)
            if -self.run_window(&pos.apply(m), -value, -value + 1)? >= value {
                return Ok(Some((m, outcome(value))));
            }
        }
        Ok(None)
    }

    /// A full-window search of `pos`, on the pool if there is one.
    fn run(&self, pos: &Position) -> Result<i8, G::Error> {
        self.run_window(pos, -1, 1)
    }

    /// A search of `pos` with the window (`alpha`, `beta`).
    fn run_window(&self, pos: &Position, alpha: i8, beta: i8) -> Result<i8, G::Error> {
        let go = || {
            let mut w = Worker::new(History::new());
            let r = self.search(&mut w, pos, alpha, beta, &Abort::NONE);
            self.flush(&mut w);
            r
        };
        let r = match &self.pool {
            Some(pool) => pool.install(go),
            None => go(),
        };
        match r {
            Ok(s) => Ok(s),
            Err(Halt::Probe(e)) => Err(e),
            Err(Halt::Stopped) => unreachable!("the root is never stopped"),
        }
    }

    /// Add a worker's counts to the totals; report progress.
    fn flush(&self, w: &mut Worker) {
        let c = std::mem::take(&mut w.counts);
        let before = self.nodes.fetch_add(c.nodes, Relaxed);
        self.probes.fetch_add(c.probes, Relaxed);
        self.tt_cuts.fetch_add(c.tt_cuts, Relaxed);
        self.tt_entries.fetch_add(c.tt_entries, Relaxed);
        if let Some((every, report)) = &self.progress {
            if (before + c.nodes) / every > before / every {
                if let Ok(mut report) = report.lock() {
                    report(self.stats());
                }
            }
        }
    }

    /// Fail-soft alpha-beta on scores −1, 0, 1 for the side to move.
    fn search(
        &self,
        w: &mut Worker,
        pos: &Position,
        mut alpha: i8,
        mut beta: i8,
        abort: &Abort,
    ) -> Result<i8, Halt<G::Error>> {
        w.counts.nodes += 1;
        if w.counts.nodes >= FLUSH {
            self.flush(w);
            if abort.raised() {
                return Err(Halt::Stopped);
            }
        }
        if !pos.placing() {
            // The tables hold a blocked position as a loss; only a side
            // left with two stones is outside them.
            if pos.material(pos.to_move) < 3 {
                return Ok(-1);
            }
            w.counts.probes += 1;
            let leaf = self.tb.leaf(pos.us(), pos.them()).map_err(Halt::Probe)?;
            return Ok(score(leaf));
        }
        if let Some(s) = self.tb.ended(pos) {
            return Ok(s);
        }
        let (canon, op) = pos.canonical::<G::Board>();
        let k = key(&canon);
        let known = self.table.get(k);
        let bounds = known.map_or(Bounds::OPEN, |k| k.bounds);
        if bounds.lower >= beta || bounds.upper <= alpha || bounds.lower == bounds.upper {
            w.counts.tt_cuts += 1;
            return Ok(if bounds.lower >= beta {
                bounds.lower
            } else {
                bounds.upper
            });
        }
        alpha = alpha.max(bounds.lower);
        beta = beta.min(bounds.upper);
        let (alpha0, beta0) = (alpha, beta);
        let tt_move = known
            .and_then(|k| k.best)
            .map(|m| m.transform::<G::Board>(<G::Board as Board>::inverse(op)));
        let depth = pos.hand[0] + pos.hand[1];
        let mut moves = std::mem::take(&mut w.buffers[depth as usize]);
        moves.clear();
        self.tb.for_each_move(pos, |m| {
            let s = if Some(m) == tt_move {
                i64::MAX
            } else {
                order::score::<G::Board>(pos, m, &w.history, self.order)
            };
            moves.push((s, m));
        });
        moves.sort_unstable_by_key(|&(s, m)| (std::cmp::Reverse(s), m));
        let cut = if depth >= ETC_DEPTH {
            self.known_cutoff(pos, &moves, beta)
        } else {
            None
        };
        let result = if let Some((best, m)) = cut {
            w.counts.tt_cuts += 1;
            Ok((best, Some(m)))
        } else if self.pool.is_some() && depth >= self.split_depth {
            self.split(w, pos, &moves, alpha, beta, abort)
        } else {
            self.serial(w, pos, &moves, alpha, beta, abort)
        };
        w.buffers[depth as usize] = moves;
        let (best, best_move) = result?;
        // Reward searched cutoffs only (rewarding table cutoffs too costs
        // 7 % more nodes on the 8-8 game).
        if let Some(m) = best_move.filter(|_| best >= beta && cut.is_none()) {
            w.history.reward(pos, m, depth);
        }
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
        let new = self
            .table
            .put(k, b, best_move.map(|m| m.transform::<G::Board>(op)), depth);
        w.counts.tt_entries += new as u64;
        Ok(best)
    }

    /// Enhanced transposition cutoff: a move whose position the table
    /// already knows to be bad enough for the opponent (score ≥ `beta` for
    /// us) cuts without a search.
    fn known_cutoff(&self, pos: &Position, moves: &[(i64, Move)], beta: i8) -> Option<(i8, Move)> {
        moves.iter().find_map(|&(_, m)| {
            let child = pos.apply(m);
            if !child.placing() {
                return None;
            }
            let known = self.table.get(key(&child.canonical::<G::Board>().0))?;
            (-known.bounds.upper >= beta).then_some((-known.bounds.upper, m))
        })
    }

    /// The moves one after another: the best score and move.
    fn serial(
        &self,
        w: &mut Worker,
        pos: &Position,
        moves: &[(i64, Move)],
        mut alpha: i8,
        beta: i8,
        abort: &Abort,
    ) -> Result<(i8, Option<Move>), Halt<G::Error>> {
        let (mut best, mut best_move) = (-2, None);
        for &(_, m) in moves {
            let s = -self.search(w, &pos.apply(m), -beta, -alpha, abort)?;
            if s > best {
                (best, best_move) = (s, Some(m));
                alpha = alpha.max(s);
                if alpha >= beta {
                    break;
                }
            }
        }
        Ok((best, best_move))
    }

    /// The first move alone, then the others on all threads.
    fn split(
        &self,
        w: &mut Worker,
        pos: &Position,
        moves: &[(i64, Move)],
        alpha: i8,
        beta: i8,
        abort: &Abort,
    ) -> Result<(i8, Option<Move>), Halt<G::Error>> {
        let Some((first, rest)) = moves.split_first() else {
            return Ok((-2, None));
        };
        let (best, best_move) =
            self.serial(w, pos, std::slice::from_ref(first), alpha, beta, abort)?;
        if best >= beta || rest.is_empty() {
            return Ok((best, best_move));
        }
        let cut = AtomicBool::new(false);
        let inner = Abort {
            flag: Some(&cut),
            parent: Some(abort),
        };
        let alpha = AtomicI8::new(alpha.max(best));
        let found = Mutex::new((best, best_move));
        let history = w.history.clone();
        rest.par_iter().try_for_each(|&(_, m)| {
            if cut.load(Relaxed) {
                return Ok(());
            }
            let mut cw = Worker::new(history.clone());
            let a = alpha.load(Relaxed);
            let r = self.search(&mut cw, &pos.apply(m), -beta, -a, &inner);
            self.flush(&mut cw);
            match r {
                Ok(s) => {
                    let s = -s;
                    alpha.fetch_max(s, Relaxed);
                    let mut f = found.lock().unwrap_or_else(|e| e.into_inner());
                    if s > f.0 {
                        *f = (s, Some(m));
                    }
                    if s >= beta {
                        cut.store(true, Relaxed);
                    }
                    Ok(())
                }
                Err(Halt::Stopped) if cut.load(Relaxed) => Ok(()),
                Err(e) => Err(e),
            }
        })?;
        if abort.raised() {
            return Err(Halt::Stopped);
        }
        Ok(found.into_inner().unwrap_or_else(|e| e.into_inner()))
    }
}
