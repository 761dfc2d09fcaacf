//! Three Men's Morris under the count rule (`docs/rules.md`, "The count
//! rule"): drawn once `limit` plies in a row pass without a placement.
//! The game has no removals, so in the moving phase nothing restarts the
//! count and the solution's distance to the end of the game is the
//! distance to conversion: after `q` quiet plies a stored win or loss
//! stands iff it ends the game within `limit − q` plies ([`Count::read`]).
//! Every placement restarts the count, so a placement position's value is
//! recomputed once, from the positions after the last placement read at a
//! count of zero ([`CountedThree::new`]).

use crate::games::three::solve::Solution;
use crate::games::three::{for_each_move, Board, Move, Position, STONES};
use crate::probe::count::Count;
use crate::rules::geometry::Bits;
use tablebase::Value;

/// The placement positions' values under a count rule of `limit` plies.
#[derive(Debug, Clone)]
pub struct CountedThree {
    limit: u16,
    /// The value of every class under the rule (placement classes; the
    /// moving phase's entries are unused: its values are the solution's,
    /// read at their count).
    placing: Vec<Value>,
}

/// Is `(us, them)` in the moving phase (every stone placed)?
fn moving(us: Bits, them: Bits) -> bool {
    us.count_ones() + them.count_ones() == 2 * STONES
}

impl CountedThree {
    /// The rule's values of `sol`'s placement positions: each the best of
    /// its moves, a move that makes a line a win in one, the position after
    /// the last placement read at a count of zero. Classes with more
    /// stones come first, so every successor is known when it is needed.
    pub fn new(sol: &Solution, limit: u16) -> CountedThree {
        let classes = sol.classes();
        let board = Board::get();
        let mut order: Vec<u32> = (0..classes.len() as u32).collect();
        order.sort_by_key(|&c| {
            let (us, them) = classes.representative(c);
            std::cmp::Reverse(us.count_ones() + them.count_ones())
        });
        let mut placing = vec![Value::DRAW; classes.len()];
        let zero = Count { limit, plies: 0 };
        for c in order {
            let (us, them) = classes.representative(c);
            if moving(us, them) {
                continue;
            }
            if board.has_line(them) {
                placing[c as usize] = Value::loss(0);
                continue;
            }
            let mut best: Option<Value> = None;
            for_each_move(us, them, |m| {
                let after = m.apply(us);
                let v = if board.has_line(after) {
                    Value::win(1)
                } else {
                    let next = sol.value_of(them, after).expect("a legal move's position");
                    let next = if moving(them, after) {
                        zero.read(next)
                    } else {
                        placing[classes.class(them, after).expect("indexed") as usize]
                    };
                    Value::after_move(next, false)
                };
                best = Some(best.map_or(v, |b| b.max(v)));
            });
            placing[c as usize] = best.unwrap_or(Value::loss(0));
        }
        CountedThree { limit, placing }
    }

    /// The rule's limit in plies.
    pub fn limit(&self) -> u16 {
        self.limit
    }

    /// The count of `pos` after `plies` quiet plies (none in placement).
    pub fn count(&self, pos: &Position, plies: u16) -> Count {
        let plies = if moving(pos.us(), pos.them()) {
            plies
        } else {
            0
        };
        Count {
            limit: self.limit,
            plies,
        }
    }

    /// The value of a (validated) position after `plies` quiet plies (at
    /// most the limit; at the limit a moving-phase game is drawn).
    pub fn value_at(&self, sol: &Solution, pos: &Position, plies: u16) -> Value {
        let (us, them) = (pos.us(), pos.them());
        if !moving(us, them) {
            let class = sol.classes().class(us, them).expect("a validated position");
            return self.placing[class as usize];
        }
        let count = self.count(pos, plies);
        if count.expired() && !pos.finished() {
            return Value::DRAW;
        }
        count.read(sol.value(pos))
    }

    /// Every legal move with its value for the mover and the count after
    /// it, best first (as [`Solution::moves`]); none once the count has
    /// drawn the game.
    pub fn moves_at(&self, sol: &Solution, pos: &Position, plies: u16) -> Vec<(Move, Value, u16)> {
        let count = self.count(pos, plies);
        if moving(pos.us(), pos.them()) && count.expired() {
            return Vec::new();
        }
        let mut out: Vec<_> = pos
            .legal_moves()
            .into_iter()
            .map(|m| {
                let after = if m.from.is_some() { count.plies + 1 } else { 0 };
                let v = if Board::get().has_line(m.apply(pos.us())) {
                    Value::win(1)
                } else {
                    Value::after_move(self.value_at(sol, &pos.play(m), after), false)
                };
                (m, v, after)
            })
            .collect();
        out.sort_by_key(|&(m, v, _)| (std::cmp::Reverse(v), m));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    /// The rule's value of `(pos, q)` by a plain search over (position,
    /// count) states: a placement restarts the count, a slide adds one,
    /// the limit draws; with the count bounded the states form no cycle,
    /// so the recursion is exact (wins the shortest, losses the longest).
    fn oracle(
        pos: &Position,
        q: u16,
        limit: u16,
        memo: &mut HashMap<(Position, u16), Value>,
    ) -> Value {
        if let Some(&v) = memo.get(&(*pos, q)) {
            return v;
        }
        let v = if pos.finished() {
            Value::loss(0)
        } else if q >= limit {
            Value::DRAW
        } else {
            pos.legal_moves()
                .into_iter()
                .map(|m| {
                    if Board::get().has_line(m.apply(pos.us())) {
                        return Value::win(1);
                    }
                    let next = if m.from.is_some() { q + 1 } else { 0 };
                    Value::after_move(oracle(&pos.play(m), next, limit, memo), false)
                })
                .max()
                .expect("a position that goes on has a move")
        };
        memo.insert((*pos, q), v);
        v
    }

    /// Every position reachable from the start, at every count, equals
    /// the oracle, for limits that bite and one that does not.
    #[test]
    fn every_reachable_state_equals_the_oracle() {
        let sol = Solution::solve().unwrap();
        let mut reachable = vec![Position::start()];
        let mut seen: std::collections::HashSet<Position> = reachable.iter().copied().collect();
        let mut i = 0;
        while i < reachable.len() {
            let pos = reachable[i];
            i += 1;
            for m in pos.legal_moves() {
                let next = pos.play(m);
                if seen.insert(next) {
                    reachable.push(next);
                }
            }
        }
        // The longest distance to the end of the game: a limit past it
        // changes nothing at a count of zero.
        let longest = reachable
            .iter()
            .filter_map(|p| sol.value(p).distance())
            .max()
            .unwrap();
        for limit in [2, 5, 8, longest + 1] {
            let counted = CountedThree::new(&sol, limit);
            let mut memo = HashMap::new();
            let mut changed = 0;
            for pos in &reachable {
                let placing = !moving(pos.us(), pos.them());
                for q in 0..=if placing { 0 } else { limit } {
                    let want = oracle(pos, q, limit, &mut memo);
                    assert_eq!(
                        counted.value_at(&sol, pos, q),
                        want,
                        "{pos} at {q} of {limit}"
                    );
                    if q == 0 {
                        changed += usize::from(want.outcome() != sol.value(pos).outcome());
                    }
                }
                for (m, v, after) in counted.moves_at(&sol, pos, 0) {
                    let next = pos.play(m);
                    if !Board::get().has_line(m.apply(pos.us())) {
                        assert_eq!(
                            v,
                            Value::after_move(oracle(&next, after, limit, &mut memo), false)
                        );
                    }
                }
            }
            // The short limits bite; one past the longest distance does not.
            assert_eq!(
                changed > 0,
                limit <= longest,
                "limit {limit}: {changed} changed"
            );
        }
    }
}
