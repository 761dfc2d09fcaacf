//! The search: iterative deepening PVS over [`worker`] threads that share
//! one transposition table ([`tt`]) — Lazy SMP on a rayon pool — plus the
//! exact endgame solver when few stones are left. With one thread and a
//! depth or node limit the result is deterministic. Multi-PV
//! ([`Engine::search_multipv`]): the best `N` root moves (or all), each with
//! its score and principal variation.

mod tables;
pub mod tt;
mod worker;

use super::board::{Board, Move};
use super::egtb::Tables;
use super::endgame::{self, Solved};
use super::eval::EvalParams;
use super::linear::LinearEval;
use super::nnue::Network;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::Arc;
use std::time::{Duration, Instant};
pub use tables::TB_WIN;
use worker::Worker;

/// Score of a won game at the root; a win in `p` plies scores `MATE - p`.
pub const MATE: i32 = 30_000;
/// Scores beyond this are won or lost games.
pub const MATE_BOUND: i32 = MATE - 1_000;
/// Deepest ply a search reaches (main search plus quiescence).
pub const MAX_PLY: usize = 128;
/// Deepest iteration.
pub const MAX_DEPTH: i32 = 100;

/// Search features that can be switched off (for matches showing each pays).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Features {
    /// Transposition table cut-offs and TT move.
    pub tt: bool,
    /// Principal variation search (null windows after the first move).
    pub pvs: bool,
    /// Captures/tuzdyk first, killers, history.
    pub ordering: bool,
    /// Quiescence search on captures at the horizon.
    pub quiescence: bool,
    /// Iterative deepening (otherwise one search at the target depth).
    pub iterative: bool,
    /// Late move reductions of quiet moves.
    pub lmr: bool,
    /// Aspiration windows around the previous iteration's score.
    pub aspiration: bool,
    /// Null-move pruning: at a non-PV node whose static evaluation is at
    /// least beta, let the opponent move twice at reduced depth; a score
    /// still at least beta cuts the node.
    pub nullmove: bool,
}

impl Features {
    /// Everything on.
    pub const ALL: Features = Features {
        tt: true,
        pvs: true,
        ordering: true,
        quiescence: true,
        iterative: true,
        lmr: true,
        aspiration: true,
        nullmove: false,
    };
    /// Plain fixed-depth alpha-beta.
    pub const PLAIN: Features = Features {
        tt: false,
        pvs: false,
        ordering: false,
        quiescence: false,
        iterative: false,
        lmr: false,
        aspiration: false,
        nullmove: false,
    };
}

/// Engine configuration.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Config {
    /// Search features.
    pub features: Features,
    /// Hand-set evaluation weights (used when `learned` is `None`).
    pub eval: EvalParams,
    /// The learned evaluation ([`super::linear`]), which replaces `eval`.
    pub learned: Option<Weights>,
    /// The neural evaluation ([`super::nnue`]), which replaces both
    /// `learned` and `eval`; the default (the built-in network).
    pub nnue: Option<Net>,
    /// Longest capture sequence followed by quiescence.
    pub qsearch_plies: u32,
    /// Late move reductions start at this move (0-based, in search order).
    pub lmr_from: u32,
    /// Transposition table size in MiB.
    pub tt_mb: usize,
    /// Run the exact endgame solver at or below this many stones on the board.
    pub endgame_stones: u32,
    /// Node budget of the endgame solver.
    pub endgame_nodes: u64,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            features: Features::ALL,
            eval: EvalParams::DEFAULT,
            learned: Some(Weights(super::linear::builtin())),
            // The built-in network when it loads (it is checked by a test);
            // else the linear model above.
            nnue: super::nnue::builtin().ok().map(Net),
            qsearch_plies: 4,
            lmr_from: 3,
            tt_mb: 64,
            endgame_stones: 20,
            endgame_nodes: 2_000_000,
        }
    }
}

/// A reference to learned weights held for the whole program (compared by
/// address; serialised as their origin line).
#[derive(Clone, Copy, Debug)]
pub struct Weights(pub &'static LinearEval);

impl PartialEq for Weights {
    fn eq(&self, other: &Weights) -> bool {
        std::ptr::eq(self.0, other.0)
    }
}

impl Eq for Weights {}

impl serde::Serialize for Weights {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.0.origin.lines().next().unwrap_or("learned"))
    }
}

/// Which static evaluation a search uses (`--eval` of the commands).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EvalKind {
    /// The hand-set terms ([`super::eval`]).
    Hand,
    /// The learned linear model ([`super::linear`]).
    Linear,
    /// The neural network ([`super::nnue`]), the default.
    Nnue,
}

impl std::str::FromStr for EvalKind {
    type Err = String;

    /// `hand`, `linear` or `nnue`.
    fn from_str(s: &str) -> Result<EvalKind, String> {
        match s {
            "hand" => Ok(EvalKind::Hand),
            "linear" => Ok(EvalKind::Linear),
            "nnue" => Ok(EvalKind::Nnue),
            _ => Err(format!("unknown evaluation `{s}` (linear, nnue, hand)")),
        }
    }
}

impl Config {
    /// Use the evaluation `kind`: the linear model with `weights` (default
    /// the built-in ones), or the network `net` (default the built-in one).
    pub fn set_eval(
        &mut self,
        kind: EvalKind,
        weights: Option<&'static LinearEval>,
        net: Option<&'static Network>,
    ) -> Result<(), super::nnue::NetError> {
        self.nnue = None;
        match kind {
            EvalKind::Hand => self.learned = None,
            EvalKind::Linear => {
                self.learned = Some(Weights(weights.unwrap_or_else(super::linear::builtin)))
            }
            EvalKind::Nnue => {
                self.nnue = Some(Net(match net {
                    Some(n) => n,
                    None => super::nnue::builtin()?,
                }))
            }
        }
        Ok(())
    }
}

/// A reference to a network held for the whole program (compared by
/// address; serialised as its origin line).
#[derive(Clone, Copy, Debug)]
pub struct Net(pub &'static Network);

impl PartialEq for Net {
    fn eq(&self, other: &Net) -> bool {
        std::ptr::eq(self.0, other.0)
    }
}

impl Eq for Net {}

impl serde::Serialize for Net {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.0.origin.lines().next().unwrap_or("nnue"))
    }
}

/// When to stop.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Deepest iteration.
    pub depth: Option<i32>,
    /// Wall-clock budget.
    pub time: Option<Duration>,
    /// Node budget (all threads).
    pub nodes: Option<u64>,
    /// Threads (0 or 1: single-threaded, deterministic).
    pub threads: usize,
}

/// One root move of a multi-PV search: its score and principal variation.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Line {
    /// The root move, hole 1..9.
    pub hole: u8,
    /// Score of the move for the side to move (centi-stones; beyond ±29000
    /// a won game).
    pub score: i32,
    /// Principal variation starting with `hole` (holes 1..9).
    pub pv: Vec<u8>,
}

/// `lines` is written out only for a multi-PV search.
fn single_line(lines: &[Line]) -> bool {
    lines.len() <= 1
}

/// One completed iteration.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Iteration {
    /// Depth in plies.
    pub depth: i32,
    /// Score for the side to move (centi-stones; beyond ±29000 a won game).
    pub score: i32,
    /// Principal variation (holes 1..9).
    pub pv: Vec<u8>,
    /// Nodes searched so far (all threads).
    pub nodes: u64,
    /// Nodes searched so far by the main thread alone.
    pub main_nodes: u64,
    /// Nodes answered by the endgame share tables so far (all threads).
    pub tb_hits: u64,
    /// Elapsed milliseconds.
    pub millis: u64,
    /// The root moves searched, best first (one line without multi-PV;
    /// `score` and `pv` are the first line's).
    #[serde(skip_serializing_if = "single_line")]
    pub lines: Vec<Line>,
}

/// Result of a search.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct SearchResult {
    /// Best move, hole 1..9 (`None` if the game is over).
    pub best: Option<u8>,
    /// Score of the last completed iteration.
    pub score: i32,
    /// Its principal variation (holes 1..9).
    pub pv: Vec<u8>,
    /// Its depth.
    pub depth: i32,
    /// Nodes (all threads).
    pub nodes: u64,
    /// Elapsed seconds.
    pub seconds: f64,
    /// Nodes per second.
    pub nps: f64,
    /// Nodes whose value came from the endgame share tables (all threads).
    pub tb_hits: u64,
    /// Every completed iteration.
    pub iterations: Vec<Iteration>,
    /// Exact game result when the endgame solver finished.
    pub exact: Option<Solved>,
    /// The last completed iteration's lines, best first (multi-PV).
    #[serde(skip_serializing_if = "single_line")]
    pub lines: Vec<Line>,
}

/// State shared by the threads of one search.
pub(crate) struct Shared {
    stop: AtomicBool,
    pub(crate) nodes: AtomicU64,
    /// Nodes answered by the endgame share tables.
    pub(crate) tb_hits: AtomicU64,
    /// Set from outside ([`Engine::stop_flag`]) to end the search.
    abort: Arc<AtomicBool>,
    deadline: Option<Instant>,
    node_limit: Option<u64>,
    /// Positions some thread is searching now (by hash, one per slot), with
    /// more than one thread: a thread defers a later move whose position
    /// another thread is in, and searches its other moves first (ABDADA's
    /// idea on top of Lazy SMP: less duplicated work).
    pub(crate) busy: Option<Box<[AtomicU64; BUSY_SLOTS]>>,
    /// Endgame share tables, probed at nodes with few stones.
    pub(crate) tables: Option<Arc<Tables>>,
}

/// Slots of [`Shared::busy`].
pub(crate) const BUSY_SLOTS: usize = 1 << 12;

impl Shared {
    /// Is another thread searching the position `hash`?
    #[inline]
    pub(crate) fn is_busy(&self, hash: u64) -> bool {
        self.busy
            .as_ref()
            .is_some_and(|b| b[hash as usize & (BUSY_SLOTS - 1)].load(Relaxed) == hash)
    }

    /// Mark `hash` as searched now (returns whether this call marked it).
    #[inline]
    pub(crate) fn enter(&self, hash: u64) -> bool {
        self.busy.as_ref().is_some_and(|b| {
            b[hash as usize & (BUSY_SLOTS - 1)]
                .compare_exchange(0, hash, Relaxed, Relaxed)
                .is_ok()
        })
    }

    /// Unmark `hash` (after a successful [`Shared::enter`]).
    #[inline]
    pub(crate) fn leave(&self, hash: u64) {
        if let Some(b) = &self.busy {
            b[hash as usize & (BUSY_SLOTS - 1)].store(0, Relaxed);
        }
    }

    pub(crate) fn should_stop(&self) -> bool {
        if self.stop.load(Relaxed) {
            return true;
        }
        let out = self.abort.load(Relaxed)
            || self.deadline.is_some_and(|d| Instant::now() >= d)
            || self
                .node_limit
                .is_some_and(|n| self.nodes.load(Relaxed) >= n);
        if out {
            self.stop.store(true, Relaxed);
        }
        out
    }
}

/// A search engine: configuration and transposition table (kept between
/// searches of one game; cleared with [`Engine::clear`]).
pub struct Engine {
    config: Config,
    tt: tt::Table,
    tables: Option<Arc<Tables>>,
    abort: Arc<AtomicBool>,
}

/// Human form of a score: `+3.50` stones, `win in 7` / `loss in 4`, or
/// `win (tables)` / `loss (tables)`.
pub fn score_text(score: i32) -> String {
    if score > MATE_BOUND {
        format!("win in {}", MATE - score)
    } else if score < -MATE_BOUND {
        format!("loss in {}", MATE + score)
    } else if score == TB_WIN {
        "win (tables)".to_string()
    } else if score == -TB_WIN {
        "loss (tables)".to_string()
    } else {
        format!("{:+.2}", f64::from(score) / 100.0)
    }
}

impl Engine {
    /// An engine with an empty table.
    pub fn new(config: Config) -> Engine {
        Engine {
            config,
            tt: tt::Table::new(config.tt_mb),
            tables: None,
            abort: Arc::new(AtomicBool::new(false)),
        }
    }

    /// A flag that ends the running search when set (from any thread): the
    /// search returns its last completed iteration. The search never clears
    /// it; the caller does before the next search.
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        self.abort.clone()
    }

    /// Use endgame share tables (or none) from the next search on.
    pub fn set_tables(&mut self, tables: Option<Arc<Tables>>) {
        self.tables = tables;
    }

    /// The configuration.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Empty the transposition table.
    pub fn clear(&mut self) {
        self.tt.clear();
    }

    /// Search `board`; `on_iteration` is called after every completed
    /// iteration (from the main thread).
    pub fn search(
        &mut self,
        board: &Board,
        limits: &Limits,
        on_iteration: &mut dyn FnMut(&Iteration),
    ) -> SearchResult {
        self.search_multipv(board, limits, 1, on_iteration)
    }

    /// Search `board` for its best `multipv` root moves (at most the legal
    /// ones; 0 or 1 is the plain search): each iteration searches the root
    /// once per line, without the moves of the lines found before, so every
    /// line's score is its move's value at that depth (exact with full
    /// windows, as in the plain search). The lines of the last completed
    /// iteration are in [`SearchResult::lines`], best first.
    pub fn search_multipv(
        &mut self,
        board: &Board,
        limits: &Limits,
        multipv: usize,
        on_iteration: &mut dyn FnMut(&Iteration),
    ) -> SearchResult {
        let mut result = SearchResult {
            best: None,
            score: 0,
            pv: Vec::new(),
            depth: 0,
            nodes: 0,
            seconds: 0.0,
            nps: 0.0,
            tb_hits: 0,
            iterations: Vec::new(),
            exact: None,
            lines: Vec::new(),
        };
        if board.outcome().is_some() {
            return result;
        }
        // Under a time limit the clock starts before the endgame attempt,
        // which then also gives up after a quarter of the limit; otherwise
        // limits count after it (it is bounded by its own node budget).
        let timed_start = limits.time.map(|_| Instant::now());
        if board.stones_on_board() <= self.config.endgame_stones {
            let deadline = limits.time.zip(timed_start).map(|(t, s)| s + t / 4);
            result.exact = endgame::solve_until(board, self.config.endgame_nodes, deadline);
        }
        let start = timed_start.unwrap_or_else(Instant::now);
        self.tt.new_search();
        let shared = Shared {
            stop: AtomicBool::new(false),
            abort: self.abort.clone(),
            nodes: AtomicU64::new(0),
            tb_hits: AtomicU64::new(0),
            deadline: limits.time.map(|t| start + t),
            node_limit: limits.nodes,
            busy: (limits.threads > 1)
                .then(|| Box::new(std::array::from_fn(|_| AtomicU64::new(0)))),
            tables: self.tables.clone(),
        };
        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let threads = limits.threads.max(1);
        let config = self.config;
        let tt = &self.tt;
        let mut main = |result: &mut SearchResult| {
            let mut w = Worker::new(&shared, tt, &config);
            let first = if config.features.iterative {
                1
            } else {
                max_depth
            };
            let lines_wanted = multipv.clamp(1, board.move_count().max(1) as usize);
            let mut previous: Vec<i32> = Vec::new();
            for depth in first..=max_depth {
                let mut lines = Vec::with_capacity(lines_wanted);
                w.root_exclude = 0;
                for k in 0..lines_wanted {
                    let guess = previous
                        .get(k)
                        .copied()
                        .filter(|_| config.features.aspiration && depth >= 5);
                    let Some(score) = aspiration_root(&mut w, board, depth, guess) else {
                        break;
                    };
                    let mut pv: Vec<u8> = w.root_pv().iter().map(|m| m + 1).collect();
                    if pv.is_empty() {
                        // Defensive: a root search always sets its PV when
                        // it returns inside the window.
                        let legal = board.legal_mask() & !w.root_exclude;
                        pv.push(legal.trailing_zeros() as u8 + 1);
                    }
                    w.root_exclude |= 1 << (pv[0] - 1);
                    lines.push(Line {
                        hole: pv[0],
                        score,
                        pv,
                    });
                }
                w.root_exclude = 0;
                if lines.len() < lines_wanted {
                    break;
                }
                // Stable: equal scores keep their search order.
                lines.sort_by_key(|l| std::cmp::Reverse(l.score));
                previous = lines.iter().map(|l| l.score).collect();
                let score = lines[0].score;
                w.flush();
                let it = Iteration {
                    depth,
                    score,
                    pv: lines[0].pv.clone(),
                    nodes: shared.nodes.load(Relaxed),
                    main_nodes: w.nodes,
                    tb_hits: shared.tb_hits.load(Relaxed),
                    millis: start.elapsed().as_millis() as u64,
                    lines,
                };
                on_iteration(&it);
                result.iterations.push(it);
                // A won or lost game found at this depth will not change
                // (with several lines, the others may still).
                if lines_wanted == 1 && score.abs() > MATE_BOUND && MATE - score.abs() <= depth {
                    break;
                }
                if let Some(t) = limits.time {
                    if start.elapsed() * 2 > t {
                        break;
                    }
                }
            }
            w.flush();
            shared.stop.store(true, Relaxed);
        };
        if threads == 1 {
            main(&mut result);
        } else {
            // Helpers on a pool of `threads - 1`; the main thread searches here.
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads - 1)
                .build()
                .expect("rayon pool");
            pool.in_place_scope(|s| {
                for i in 1..threads {
                    let shared = &shared;
                    s.spawn(move |_| {
                        let mut w = Worker::new(shared, tt, &config);
                        let mut depth = 1 + (i as i32 & 1);
                        while depth <= MAX_DEPTH
                            && w.root(board, depth, -MATE - 1, MATE + 1).is_some()
                        {
                            depth += 1;
                        }
                        w.flush();
                    });
                }
                main(&mut result);
            });
        }
        let elapsed = start.elapsed().as_secs_f64();
        result.nodes = shared.nodes.load(Relaxed);
        result.seconds = elapsed;
        result.nps = result.nodes as f64 / elapsed.max(1e-9);
        result.tb_hits = shared.tb_hits.load(Relaxed);
        if let Some(last) = result.iterations.last() {
            result.score = last.score;
            result.pv = last.pv.clone();
            result.depth = last.depth;
            result.best = last.pv.first().copied();
            result.lines = last.lines.clone();
        }
        if result.best.is_none() {
            result.best = (0..9u8).find(|&m| board.is_legal(m)).map(|m| m + 1);
        }
        if let Some(Solved { best: Some(m), .. }) = result.exact {
            if result.best != Some(m + 1) {
                result.best = Some(m + 1);
                result.pv = vec![m + 1];
            }
        }
        result
    }
}

/// Half-width of the first aspiration window (centi-stones).
const ASPIRATION: i32 = 50;

/// Search the root with a window around `guess` (the previous iteration's
/// score), widening it on each failure; full window without a guess.
fn aspiration_root(w: &mut Worker, board: &Board, depth: i32, guess: Option<i32>) -> Option<i32> {
    let Some(g) = guess.filter(|g| g.abs() < MATE_BOUND) else {
        return w.root(board, depth, -MATE - 1, MATE + 1);
    };
    let mut delta = ASPIRATION;
    let (mut lo, mut hi) = (g - delta, g + delta);
    loop {
        let s = w.root(board, depth, lo, hi)?;
        if s <= lo && lo > -MATE - 1 {
            lo = (lo - delta).max(-MATE - 1);
        } else if s >= hi && hi < MATE + 1 {
            hi = (hi + delta).min(MATE + 1);
        } else {
            return Some(s);
        }
        delta *= 2;
    }
}

/// Best move of a search, as a 0-based hole.
pub fn best_move(result: &SearchResult) -> Option<Move> {
    result.best.map(|m| m - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The default engine evaluates with the built-in network; `full` is
    /// that engine, `full-nnue` and `--eval linear` the linear model.
    #[test]
    fn default_evaluation_is_the_builtin_net() {
        let d = Config::default();
        let net = super::super::nnue::builtin().expect("built-in network");
        assert_eq!(d.nnue, Some(Net(net)));
        let full: crate::selfplay::EngineSpec = "full".parse().unwrap();
        assert_eq!(full.config.nnue, Some(Net(net)));
        let lin: crate::selfplay::EngineSpec = "full-nnue".parse().unwrap();
        assert_eq!(lin.config.nnue, None);
        assert_eq!(
            lin.config.learned,
            Some(Weights(super::super::linear::builtin()))
        );
        let mut c = Config::default();
        c.set_eval(EvalKind::Linear, None, None).unwrap();
        assert_eq!(
            c,
            Config {
                tt_mb: c.tt_mb,
                ..lin.config
            }
        );
    }

    /// Positions after pseudo-random plies from the start (not over).
    fn positions() -> Vec<Board> {
        let mut out = vec![Board::start()];
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        for plies in [6, 14, 30, 50] {
            let mut b = Board::start();
            for _ in 0..plies {
                let legal: Vec<u8> = (0..9).filter(|&m| b.is_legal(m)).collect();
                if legal.is_empty() || b.outcome().is_some() {
                    break;
                }
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                b.make(legal[(x % legal.len() as u64) as usize]);
            }
            if b.outcome().is_none() {
                out.push(b);
            }
        }
        out
    }

    /// Fixed-depth alpha-beta with quiescence, no table and no reductions:
    /// the exact minimax value at that depth.
    fn fixed() -> Config {
        Config {
            features: Features {
                quiescence: true,
                ..Features::PLAIN
            },
            endgame_stones: 0,
            tt_mb: 1,
            ..Config::default()
        }
    }

    #[test]
    fn multipv_all_scores_equal_child_searches() {
        let depth = 5;
        let limits = Limits {
            depth: Some(depth),
            threads: 1,
            ..Limits::default()
        };
        let mut checked = 0;
        for b in positions() {
            let r = Engine::new(fixed()).search_multipv(&b, &limits, 9, &mut |_| {});
            let legal: Vec<u8> = (0..9u8).filter(|&m| b.is_legal(m)).collect();
            let mut holes: Vec<u8> = r.lines.iter().map(|l| l.hole - 1).collect();
            holes.sort_unstable();
            assert_eq!(holes, legal, "one line per legal move in {b}");
            assert!(r.lines.windows(2).all(|w| w[0].score >= w[1].score));
            assert_eq!(r.best, Some(r.lines[0].hole));
            assert_eq!(r.score, r.lines[0].score);
            for line in &r.lines {
                assert_eq!(line.pv[0], line.hole);
                let child = b.after(line.hole - 1);
                // The child's value from a separate plain search one ply
                // shallower, seen from the root (a mate one ply further).
                let expected = match child.outcome() {
                    Some(o) => o.sign_for(b.side) * (MATE - 1),
                    None => {
                        let l = Limits {
                            depth: Some(depth - 1),
                            ..limits
                        };
                        let s = Engine::new(fixed()).search(&child, &l, &mut |_| {}).score;
                        if s > MATE_BOUND {
                            -(s - 1)
                        } else if s < -MATE_BOUND {
                            -(s + 1)
                        } else {
                            -s
                        }
                    }
                };
                assert_eq!(line.score, expected, "hole {} of {b}", line.hole);
                checked += 1;
            }
        }
        assert!(checked >= 30, "{checked} moves checked");
    }

    #[test]
    fn multipv_best_n_are_the_top_of_all() {
        let b = positions()[2];
        let limits = Limits {
            depth: Some(5),
            threads: 1,
            ..Limits::default()
        };
        let all = Engine::new(fixed()).search_multipv(&b, &limits, 9, &mut |_| {});
        let three = Engine::new(fixed()).search_multipv(&b, &limits, 3, &mut |_| {});
        assert_eq!(three.lines.len(), 3);
        let scores = |r: &SearchResult| r.lines.iter().map(|l| l.score).collect::<Vec<_>>();
        assert_eq!(scores(&three), scores(&all)[..3]);
        // The full engine (table, reductions, aspiration) also gives
        // distinct moves, best first, the first one its best move.
        let full = Engine::new(Config::default()).search_multipv(
            &b,
            &Limits {
                depth: Some(8),
                ..limits
            },
            4,
            &mut |_| {},
        );
        assert_eq!(full.lines.len(), 4);
        let mut holes: Vec<u8> = full.lines.iter().map(|l| l.hole).collect();
        holes.dedup();
        holes.sort_unstable();
        holes.dedup();
        assert_eq!(holes.len(), 4);
        assert!(full.lines.windows(2).all(|w| w[0].score >= w[1].score));
        assert_eq!(full.best, Some(full.lines[0].hole));
    }

    #[test]
    fn stop_flag_ends_an_unlimited_search() {
        let mut e = Engine::new(Config::default());
        let flag = e.stop_flag();
        let t = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(200));
            flag.store(true, Relaxed);
        });
        let start = Instant::now();
        let r = e.search(&Board::start(), &Limits::default(), &mut |_| {});
        t.join().unwrap();
        assert!(start.elapsed() < Duration::from_secs(5));
        assert!(r.best.is_some() && r.depth >= 1);
    }
}
