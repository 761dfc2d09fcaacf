//! Exact endgame solver: with few stones left, prove the game result
//! (win, draw or loss for the side to move) by searching to the end.
//!
//! The side to move's final kazan lies in `[kazan, kazan + stones on board]`,
//! which bounds the result at every node; a depth-limited search that scores
//! horizon nodes by the pessimistic bound gives a lower bound on the result,
//! by the optimistic one an upper bound. Deepening until both meet proves the
//! result (games may cycle, so a node budget ends the attempt).

use super::board::{Board, Move};

/// A proven game result for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum GameResult {
    /// The side to move wins with best play.
    Win,
    /// 81-81 with best play.
    Draw,
    /// The side to move loses against best play.
    Loss,
}

/// An endgame solved to the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Solved {
    /// The result with best play.
    pub result: GameResult,
    /// A move (hole 0..8) that keeps that result (`None` if the game is over).
    pub best: Option<Move>,
    /// Search depth at which the bounds met.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
}

/// Result value of a final kazan total: +1 win, 0 draw, -1 loss.
#[inline]
fn value_of_total(total: u32) -> i8 {
    match total {
        82.. => 1,
        81 => 0,
        _ => -1,
    }
}

const TABLE_BITS: u32 = 18;
const OPT_SALT: u64 = 0x5DEE_CE66_D1CE_4E5B;

struct Solver {
    nodes: u64,
    budget: u64,
    deadline: Option<std::time::Instant>,
    aborted: bool,
    table: Vec<[u64; 2]>,
}

enum Flag {
    Exact = 0,
    Lower = 1,
    Upper = 2,
}

impl Solver {
    fn probe(&self, key: u64, depth: u32, alpha: i8, beta: i8) -> Option<i8> {
        let [k, d] = self.table[(key >> (64 - TABLE_BITS)) as usize];
        if k != key || d == 0 || (d >> 8) < u64::from(depth) {
            return None;
        }
        let v = (d & 0xF) as i8 - 2;
        match (d >> 4) & 3 {
            0 => Some(v),
            1 if v >= beta => Some(v),
            2 if v <= alpha => Some(v),
            _ => None,
        }
    }

    fn store(&mut self, key: u64, depth: u32, v: i8, flag: Flag) {
        let data = (u64::from(depth) << 8) | ((flag as u64) << 4) | (v + 2) as u64;
        self.table[(key >> (64 - TABLE_BITS)) as usize] = [key, data];
    }

    /// Bound on the result for the side to move; `opt` says whether horizon
    /// nodes take the optimistic bound for the side to move at this node.
    fn bound(
        &mut self,
        b: &Board,
        depth: u32,
        mut alpha: i8,
        beta: i8,
        opt: bool,
    ) -> (i8, Option<Move>) {
        self.nodes += 1;
        if self.nodes > self.budget
            || (self.nodes & 4095 == 0
                && self
                    .deadline
                    .is_some_and(|d| std::time::Instant::now() >= d))
        {
            self.aborted = true;
            return (0, None);
        }
        if let Some(o) = b.outcome() {
            return (o.sign_for(b.side) as i8, None);
        }
        let k = u32::from(b.kazan[b.side.index()]);
        let lo = value_of_total(k);
        let hi = value_of_total(k + b.stones_on_board());
        if lo == hi || depth == 0 {
            return (if opt { hi } else { lo }, None);
        }
        if lo >= beta {
            return (lo, None);
        }
        if hi <= alpha {
            return (hi, None);
        }
        let key = b.hash().wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ if opt { OPT_SALT } else { 0 };
        if let Some(v) = self.probe(key, depth, alpha, beta) {
            return (v, None);
        }
        let alpha0 = alpha;
        let mut best = -2i8;
        let mut best_move = None;
        let mut mask = b.legal_mask();
        while mask != 0 {
            let m = mask.trailing_zeros() as u8;
            mask &= mask - 1;
            let (v, _) = self.bound(&b.after(m), depth - 1, -beta, -alpha, !opt);
            if self.aborted {
                return (0, None);
            }
            let v = -v;
            if v > best {
                best = v;
                best_move = Some(m);
                alpha = alpha.max(v);
                if v >= beta || v >= hi {
                    break;
                }
            }
        }
        let flag = if best >= beta {
            Flag::Lower
        } else if best > alpha0 {
            Flag::Exact
        } else {
            Flag::Upper
        };
        self.store(key, depth, best, flag);
        (best, best_move)
    }
}

/// Try to prove the result of `b` within `node_budget` nodes.
pub fn solve(b: &Board, node_budget: u64) -> Option<Solved> {
    solve_until(b, node_budget, None)
}

/// [`solve`], also giving up at `deadline` (for searches on a clock).
pub fn solve_until(
    b: &Board,
    node_budget: u64,
    deadline: Option<std::time::Instant>,
) -> Option<Solved> {
    Prover::new().solve_until(b, node_budget, deadline)
}

/// The solver with its transposition table kept between calls, for proving
/// many positions (entries are facts about a position, valid for any call).
pub struct Prover {
    solver: Solver,
}

impl Default for Prover {
    fn default() -> Self {
        Prover::new()
    }
}

impl Prover {
    /// A solver with an empty table (4 MiB).
    pub fn new() -> Prover {
        Prover {
            solver: Solver {
                nodes: 0,
                budget: 0,
                deadline: None,
                aborted: false,
                table: vec![[0; 2]; 1 << TABLE_BITS],
            },
        }
    }

    /// Try to prove the result of `b` within `node_budget` nodes.
    pub fn solve(&mut self, b: &Board, node_budget: u64) -> Option<Solved> {
        self.solve_until(b, node_budget, None)
    }

    /// [`Prover::solve`], also giving up at `deadline`.
    pub fn solve_until(
        &mut self,
        b: &Board,
        node_budget: u64,
        deadline: Option<std::time::Instant>,
    ) -> Option<Solved> {
        let s = &mut self.solver;
        s.nodes = 0;
        s.budget = node_budget;
        s.deadline = deadline;
        s.aborted = false;
        let to_result = |v: i8| match v {
            1 => GameResult::Win,
            0 => GameResult::Draw,
            _ => GameResult::Loss,
        };
        for depth in 1..=400 {
            let (lo, best) = s.bound(b, depth, -2, 2, false);
            if s.aborted {
                return None;
            }
            let (hi, _) = s.bound(b, depth, lo - 1, 2, true);
            if s.aborted {
                return None;
            }
            if lo == hi {
                return Some(Solved {
                    result: to_result(lo),
                    best,
                    depth,
                    nodes: s.nodes,
                });
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Side, HOLES, NO_TUZDYK};

    /// Plain minimax to the end over all lines (small positions only).
    fn brute(b: &Board, depth: u32) -> Option<i8> {
        if let Some(o) = b.outcome() {
            return Some(o.sign_for(b.side) as i8);
        }
        if depth == 0 {
            return None;
        }
        let mut best = None::<i8>;
        for m in 0..9 {
            if b.is_legal(m) {
                let v = -brute(&b.after(m), depth - 1)?;
                best = Some(best.map_or(v, |x| x.max(v)));
            }
        }
        best
    }

    #[test]
    fn agrees_with_brute_force_on_small_endgames() {
        // A handful of small endgames with different kazan splits.
        let mut checked = 0;
        for seed in 0u64..200 {
            let mut holes = [0u8; HOLES];
            let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
            let mut stones = 0u32;
            for _ in 0..5 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                holes[(x % 18) as usize] += 1;
                stones += 1;
            }
            let rest = 162 - stones;
            let w = 76 + (seed % 7) as u32;
            let kazan = [w as u8, (rest - w) as u8];
            let b = Board::from_parts(holes, kazan, [NO_TUZDYK; 2], Side::White);
            let Some(truth) = brute(&b, 14) else { continue };
            let s = solve(&b, 1_000_000).expect("small endgame solves");
            let v = match s.result {
                GameResult::Win => 1,
                GameResult::Draw => 0,
                GameResult::Loss => -1,
            };
            assert_eq!(v, truth, "position {b}");
            if let Some(m) = s.best {
                assert_eq!(-brute(&b.after(m), 14).unwrap(), truth);
            }
            checked += 1;
        }
        assert!(checked > 40, "only {checked} positions checked");
    }
}
