//! One search thread: iterative deepening, PVS alpha-beta with the shared
//! transposition table, move ordering (TT move, captures and tuzdyks,
//! killers, history) and quiescence on captures. No allocation per node.

use super::tt::{Bound, Entry, Table};
use super::{Config, Features, Net, Shared, Weights, MATE, MATE_BOUND, MAX_PLY};
use crate::board::{Board, Outcome};
use crate::eval::{evaluate, EvalParams};
use crate::nnue::Accumulator;
use std::sync::atomic::Ordering::Relaxed;

/// Nodes between checks of the stop flag and clock.
const CHECK_EVERY: u64 = 1024;

/// With several threads, nodes at least this deep defer moves another
/// thread is searching.
const DEFER_DEPTH: i32 = 5;

/// Null-move pruning only with at least this many stones on the board.
const NULL_MIN_STONES: u32 = 40;

/// Per-thread search state.
pub(crate) struct Worker<'a> {
    pub(crate) shared: &'a Shared,
    pub(crate) tt: &'a Table,
    pub(crate) features: Features,
    pub(crate) eval: EvalParams,
    learned: Option<Weights>,
    /// The neural evaluation's state, when it is the evaluation.
    nnue: Option<Box<NnueStack>>,
    qsearch_plies: u32,
    lmr_from: usize,
    pub(crate) nodes: u64,
    flushed: u64,
    /// Nodes answered by the endgame share tables (not yet flushed: all).
    pub(crate) tb_hits: u64,
    pub(crate) stopped: bool,
    /// Root moves (bit per hole) left out of the next root search: the
    /// lines already found by a multi-PV iteration.
    pub(crate) root_exclude: u16,
    killers: [[u8; 2]; MAX_PLY],
    history: [[u32; 9]; 2],
    pv: [[u8; MAX_PLY]; MAX_PLY],
    pv_len: [usize; MAX_PLY],
}

/// Plies an accumulator is carried forward along the path before a refresh
/// from scratch is cheaper.
const NNUE_MAX_WALK: usize = 4;

/// The neural evaluation's per-thread state: the board of every node on the
/// current path, and per ply the last accumulator computed there with its
/// board. Any (board, accumulator) pair is valid, so nothing is ever
/// invalidated: a stale one is only further away.
struct NnueStack {
    net: &'static crate::nnue::Network,
    path: [Board; MAX_PLY],
    boards: [Board; MAX_PLY],
    accs: [Accumulator; MAX_PLY],
    valid: [bool; MAX_PLY],
}

impl NnueStack {
    fn new(net: Net) -> Box<NnueStack> {
        let b = Board::start();
        Box::new(NnueStack {
            net: net.0,
            path: [b; MAX_PLY],
            boards: [b; MAX_PLY],
            accs: [Accumulator::refresh(net.0, &b); MAX_PLY],
            valid: [false; MAX_PLY],
        })
    }

    /// The evaluation of `path[ply]`: its accumulator from the nearest
    /// ancestor on the path that has one (within [`NNUE_MAX_WALK`] plies)
    /// updated move by move, else from scratch.
    #[inline]
    fn evaluate(&mut self, ply: usize) -> i32 {
        let net = self.net;
        let mut q = ply;
        loop {
            if self.valid[q] && self.boards[q] == self.path[q] {
                break;
            }
            if q == 0 || ply - q >= NNUE_MAX_WALK {
                self.accs[q] = Accumulator::refresh(net, &self.path[q]);
                self.boards[q] = self.path[q];
                self.valid[q] = true;
                break;
            }
            q -= 1;
        }
        for r in q + 1..=ply {
            let mut a = self.accs[r - 1];
            a.update(net, &self.boards[r - 1], &self.path[r]);
            self.accs[r] = a;
            self.boards[r] = self.path[r];
            self.valid[r] = true;
        }
        let b = &self.path[ply];
        let me = b.side.index();
        net.output(
            &self.accs[ply],
            me,
            i32::from(b.kazan[me]) - i32::from(b.kazan[1 - me]),
        )
    }
}

/// Score of a finished game for the side to move, `ply` plies from the root.
#[inline]
fn terminal_score(b: &Board, o: Outcome, ply: usize) -> i32 {
    o.sign_for(b.side) * (MATE - ply as i32)
}

#[inline]
fn to_tt(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score + ply as i32
    } else if score < -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

#[inline]
fn from_tt(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score - ply as i32
    } else if score < -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

impl<'a> Worker<'a> {
    pub(crate) fn new(shared: &'a Shared, tt: &'a Table, config: &Config) -> Self {
        Worker {
            shared,
            tt,
            features: config.features,
            eval: config.eval,
            learned: config.learned,
            nnue: config.nnue.map(NnueStack::new),
            qsearch_plies: config.qsearch_plies,
            lmr_from: config.lmr_from as usize,
            nodes: 0,
            flushed: 0,
            tb_hits: 0,
            stopped: false,
            root_exclude: 0,
            killers: [[u8::MAX; 2]; MAX_PLY],
            history: [[0; 9]; 2],
            pv: [[0; MAX_PLY]; MAX_PLY],
            pv_len: [0; MAX_PLY],
        }
    }

    /// Static evaluation (learned weights if configured, else the hand-set
    /// terms).
    #[inline]
    fn static_eval(&mut self, b: &Board, ply: usize) -> i32 {
        if let Some(n) = self.nnue.as_mut() {
            debug_assert!(n.path[ply] == *b);
            return n.evaluate(ply);
        }
        match self.learned {
            Some(w) => w.0.evaluate(b),
            None => evaluate(b, &self.eval),
        }
    }

    /// Principal variation of the last completed root search.
    pub(crate) fn root_pv(&self) -> &[u8] {
        &self.pv[0][..self.pv_len[0]]
    }

    #[inline]
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes & (CHECK_EVERY - 1) == 0 {
            self.shared
                .nodes
                .fetch_add(self.nodes - self.flushed, Relaxed);
            self.flushed = self.nodes;
            if self.shared.should_stop() {
                self.stopped = true;
            }
        }
        self.stopped
    }

    /// Add the not yet reported nodes to the shared counter.
    pub(crate) fn flush(&mut self) {
        self.shared
            .nodes
            .fetch_add(self.nodes - self.flushed, Relaxed);
        self.flushed = self.nodes;
        self.shared.tb_hits.fetch_add(self.tb_hits, Relaxed);
        self.tb_hits = 0;
    }

    /// Search the root to `depth`; returns the score, or `None` if stopped.
    pub(crate) fn root(&mut self, b: &Board, depth: i32, alpha: i32, beta: i32) -> Option<i32> {
        let s = self.alphabeta(b, depth, 0, alpha, beta, true);
        (!self.stopped).then_some(s)
    }

    /// Order the moves of `mask` (legal in `b`) into `moves`; returns how
    /// many.
    #[inline]
    fn order(
        &self,
        b: &Board,
        ply: usize,
        tt_move: Option<u8>,
        children: &[Board; 9],
        mut mask: u16,
        moves: &mut [(u8, i64); 9],
    ) -> usize {
        let me = b.side.index();
        let mut n = 0;
        while mask != 0 {
            let m = mask.trailing_zeros() as u8;
            mask &= mask - 1;
            let c = &children[m as usize];
            let key = if Some(m) == tt_move {
                1 << 40
            } else if !self.features.ordering {
                0
            } else {
                let gain = i64::from(c.kazan[me]) - i64::from(b.kazan[me]);
                let tz = i64::from(c.tuzdyk[me] != b.tuzdyk[me]);
                if gain > 0 {
                    (1 << 32) + (gain << 8) + (tz << 16)
                } else if self.killers[ply][0] == m {
                    1 << 31
                } else if self.killers[ply][1] == m {
                    1 << 30
                } else {
                    i64::from(self.history[me][m as usize])
                }
            };
            moves[n] = (m, key);
            n += 1;
        }
        // Insertion sort, best first (at most 9 moves).
        for i in 1..n {
            let x = moves[i];
            let mut j = i;
            while j > 0 && moves[j - 1].1 < x.1 {
                moves[j] = moves[j - 1];
                j -= 1;
            }
            moves[j] = x;
        }
        n
    }

    fn alphabeta(
        &mut self,
        b: &Board,
        depth: i32,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        pv_node: bool,
    ) -> i32 {
        self.pv_len[ply] = 0;
        if self.tick() {
            return 0;
        }
        if let Some(n) = self.nnue.as_mut() {
            n.path[ply] = *b;
        }
        if let Some(o) = b.outcome() {
            return terminal_score(b, o, ply);
        }
        if ply > 0 {
            if let Some(s) = self.probe_tables(b) {
                return s;
            }
        }
        if depth <= 0 || ply + 1 >= MAX_PLY {
            return if self.features.quiescence {
                self.quiesce(b, ply, alpha, beta, 0)
            } else {
                self.static_eval(b, ply)
            };
        }
        let hash = b.hash();
        let mut tt_move = None;
        if self.features.tt {
            if let Some(e) = self.tt.probe(hash) {
                tt_move = e.mv.filter(|&m| b.is_legal(m));
                if e.depth >= depth && !pv_node {
                    let s = from_tt(e.score, ply);
                    match e.bound {
                        Bound::Exact => return s,
                        Bound::Lower if s >= beta => return s,
                        Bound::Upper if s <= alpha => return s,
                        _ => {}
                    }
                }
            }
        }
        // Null-move pruning (not near the end, where passing is no
        // approximation: few stones, few moves).
        if self.features.nullmove
            && !pv_node
            && depth >= 3
            && beta.abs() < MATE_BOUND
            && b.move_count() >= 3
            && b.stones_on_board() >= NULL_MIN_STONES
            && self.static_eval(b, ply) >= beta
        {
            let r = 2 + depth / 4;
            let s = -self.alphabeta(&b.pass(), depth - 1 - r, ply + 1, -beta, -beta + 1, false);
            if self.stopped {
                return 0;
            }
            if s >= beta {
                return if s > MATE_BOUND { beta } else { s };
            }
        }
        let mut children = [*b; 9];
        let mut legal = b.legal_mask();
        if ply == 0 {
            legal &= !self.root_exclude;
        }
        let mut mask = legal;
        while mask != 0 {
            let m = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            children[m].make(m as u8);
        }
        let mut moves = [(0u8, 0i64); 9];
        let n = self.order(b, ply, tt_move, &children, legal, &mut moves);
        let alpha0 = alpha;
        let mut best = -MATE - 1;
        let mut best_move = moves[0].0;
        // Moves in order, then the ones deferred because another thread
        // was searching them.
        let mut queue = [0usize; 18];
        let mut len = n;
        for (k, q) in queue[..n].iter_mut().enumerate() {
            *q = k;
        }
        let defer = depth >= DEFER_DEPTH && self.shared.busy.is_some();
        let mut at = 0;
        while at < len {
            let i = queue[at];
            at += 1;
            let m = moves[i].0;
            let c = &children[m as usize];
            let child_hash = if defer { c.hash() } else { 0 };
            if defer && i > 0 && at <= n && self.shared.is_busy(child_hash) {
                queue[len] = i;
                len += 1;
                continue;
            }
            let entered = defer && self.shared.enter(child_hash);
            let score = if i == 0 || !self.features.pvs {
                -self.alphabeta(c, depth - 1, ply + 1, -beta, -alpha, pv_node)
            } else {
                // Late move reduction: quiet moves late in the order are
                // searched shallower first, and again at full depth if they
                // raise alpha.
                let me = b.side.index();
                let quiet = c.kazan[me] == b.kazan[me];
                let reduction = if self.features.lmr && depth >= 3 && i >= self.lmr_from && quiet {
                    if i >= 5 && depth >= 6 {
                        2
                    } else {
                        1
                    }
                } else {
                    0
                };
                let mut s = -MATE - 1;
                if reduction > 0 {
                    s = -self.alphabeta(
                        c,
                        depth - 1 - reduction,
                        ply + 1,
                        -alpha - 1,
                        -alpha,
                        false,
                    );
                }
                if reduction == 0 || s > alpha {
                    s = -self.alphabeta(c, depth - 1, ply + 1, -alpha - 1, -alpha, false);
                }
                if s > alpha && s < beta {
                    -self.alphabeta(c, depth - 1, ply + 1, -beta, -alpha, true)
                } else {
                    s
                }
            };
            if entered {
                self.shared.leave(child_hash);
            }
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                best_move = m;
                if score > alpha {
                    alpha = score;
                    self.pv[ply][0] = m;
                    let len = self.pv_len[ply + 1];
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    head[ply][1..=len].copy_from_slice(&tail[0][..len]);
                    self.pv_len[ply] = len + 1;
                    if score >= beta {
                        let me = b.side.index();
                        let quiet = c.kazan[me] == b.kazan[me];
                        if quiet && self.features.ordering {
                            if self.killers[ply][0] != m {
                                self.killers[ply][1] = self.killers[ply][0];
                                self.killers[ply][0] = m;
                            }
                            let h = &mut self.history[me][m as usize];
                            *h = h.saturating_add((depth * depth) as u32);
                            if *h > 1 << 28 {
                                for row in &mut self.history {
                                    for x in row.iter_mut() {
                                        *x /= 2;
                                    }
                                }
                            }
                        }
                        break;
                    }
                }
            }
        }
        // A root searched without some of its moves (multi-PV) has no
        // value of its own to store.
        if self.features.tt && (ply > 0 || self.root_exclude == 0) {
            let bound = if best >= beta {
                Bound::Lower
            } else if best > alpha0 {
                Bound::Exact
            } else {
                Bound::Upper
            };
            self.tt.store(
                hash,
                Entry {
                    score: to_tt(best, ply),
                    depth,
                    bound,
                    mv: Some(best_move),
                },
            );
        }
        best
    }

    fn quiesce(&mut self, b: &Board, ply: usize, mut alpha: i32, beta: i32, qply: u32) -> i32 {
        self.pv_len[ply] = 0;
        if self.tick() {
            return 0;
        }
        if let Some(n) = self.nnue.as_mut() {
            n.path[ply] = *b;
        }
        if let Some(o) = b.outcome() {
            return terminal_score(b, o, ply);
        }
        if let Some(s) = self.probe_tables(b) {
            return s;
        }
        let stand = self.static_eval(b, ply);
        if stand >= beta || ply + 1 >= MAX_PLY || qply >= self.qsearch_plies {
            return stand;
        }
        alpha = alpha.max(stand);
        let me = b.side.index();
        // Captures (even or tuzdyk), biggest first.
        let mut caps = [(0u8, 0u8, *b); 9];
        let mut n = 0;
        let mut mask = b.legal_mask();
        while mask != 0 {
            let m = mask.trailing_zeros() as u8;
            mask &= mask - 1;
            let mut c = *b;
            let e = c.make(m);
            if e.captured > 0 {
                let gain = c.kazan[me] - b.kazan[me];
                let mut j = n;
                while j > 0 && caps[j - 1].1 < gain {
                    caps[j] = caps[j - 1];
                    j -= 1;
                }
                caps[j] = (m, gain, c);
                n += 1;
            }
        }
        let mut best = stand;
        for (_, _, c) in &caps[..n] {
            let s = -self.quiesce(c, ply + 1, -beta, -alpha, qply + 1);
            if self.stopped {
                return 0;
            }
            if s > best {
                best = s;
                if s > alpha {
                    alpha = s;
                    if s >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}
