//! Probing a solved game of the family: [`Values`] is anything that knows
//! the value of a position (a whole solution in memory, Lasker's sectors, a
//! placement search over the tables); [`move_values`] gives every legal
//! move's value for the side to move, and [`best_move`] the perfect
//! player's choice. One implementation behind `solver six|lasker|morabaraba
//! probe|play` and any board defined as data.

use super::game::{ending, legal_moves, Ending};
use super::lasker::solve::LaskerSolution;
use super::solve::Solution;
use crate::board::Board;
use crate::position::{Move, Position};
use crate::variant::RuleSet;
use tablebase::Value;

/// Solved tables as the probing verbs see them.
pub trait Values<B: Board> {
    /// The value of a position for the side to move, `None` when its
    /// table is missing.
    fn value(&self, pos: &Position) -> Option<Value>;
    /// Does the value of `pos` carry a distance (to conversion)?
    fn has_distance(&self, pos: &Position) -> bool;
}

impl<B: Board> Values<B> for Solution<B> {
    fn value(&self, pos: &Position) -> Option<Value> {
        Solution::value(self, pos)
    }

    /// Placement tables hold outcomes only.
    fn has_distance(&self, pos: &Position) -> bool {
        !pos.placing()
    }
}

impl<B: Board> Values<B> for LaskerSolution<B> {
    fn value(&self, pos: &Position) -> Option<Value> {
        LaskerSolution::value(self, pos)
    }

    /// Every Lasker value carries its distance to conversion.
    fn has_distance(&self, _pos: &Position) -> bool {
        true
    }
}

/// Every legal move of `pos` with its value for the side to move (the
/// successor's value from the mover's side, [`Value::after_move`]: a
/// removal converts, so its distance to conversion is one ply, and so does
/// a placement under Lasker's rules). Moves whose table is missing are left
/// out.
pub fn move_values<B: Board>(
    sol: &impl Values<B>,
    rules: RuleSet,
    pos: &Position,
) -> Vec<(Move, Value)> {
    legal_moves::<B>(pos, rules)
        .into_iter()
        .filter_map(|m| {
            let next = pos.apply(m);
            let v = match ending::<B>(&next, rules) {
                Some(Ending::Loss(_)) => Value::loss(0),
                Some(Ending::FullBoardDraw) => Value::DRAW,
                None => sol.value(&next)?,
            };
            let converts = m.removal().is_some() || (rules.interleave && m.from().is_none());
            Some((m, Value::after_move(v, converts)))
        })
        .collect()
}

/// A perfect move and its value: the fastest win, else a draw, else the
/// slowest loss (of equal values, the last in the order of
/// [`legal_moves`]); `None` when no move has a value.
pub fn best_move<B: Board>(
    sol: &impl Values<B>,
    rules: RuleSet,
    pos: &Position,
) -> Option<(Move, Value)> {
    move_values(sol, rules, pos)
        .into_iter()
        .max_by_key(|&(_, v)| v)
}
