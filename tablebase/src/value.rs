//! The value of a position for the side to move: win, loss or draw, with a
//! distance in plies, packed into 16 bits; how a value looks from the other
//! side and after a move, and which of two values is better. Every game's
//! probes, move lists and perfect players use these, so "the parent's view"
//! and "better" are defined once.

use std::cmp::Ordering;
use std::fmt;

/// Game-theoretic value of a position for the side to move.
///
/// Encoding: `0` = draw, `2d` = win in `d ≥ 1` plies, `2d + 1` = loss in
/// `d ≥ 0` plies. Smaller distances sort first within wins, so that the
/// encoding of a level of the retrograde analysis is one number.
///
/// Values are ordered by how good they are for the side to move (`Ord`):
/// every loss < draw < every win; among losses the slower is better, among
/// wins the faster. So `moves.iter().max()` is a perfect player's choice
/// (fastest win, else a draw, else the slowest loss).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Value(pub u16);

/// The outcome of a [`Value`], without distance.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Outcome {
    /// The side to move loses.
    Loss,
    /// Neither side can force a win.
    Draw,
    /// The side to move wins.
    Win,
}

impl Outcome {
    /// `"win"`, `"draw"` or `"loss"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Win => "win",
            Outcome::Draw => "draw",
            Outcome::Loss => "loss",
        }
    }

    /// The outcome seen from the other side.
    pub fn flip(self) -> Outcome {
        match self {
            Outcome::Win => Outcome::Loss,
            Outcome::Draw => Outcome::Draw,
            Outcome::Loss => Outcome::Win,
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Value {
    /// A draw.
    pub const DRAW: Value = Value(0);
    /// Largest distance that can be encoded.
    pub const MAX_DISTANCE: u16 = (u16::MAX - 1) / 2;

    /// Win in `plies` (≥ 1) plies.
    #[inline(always)]
    pub const fn win(plies: u16) -> Value {
        Value(2 * plies)
    }

    /// Loss in `plies` plies.
    #[inline(always)]
    pub const fn loss(plies: u16) -> Value {
        Value(2 * plies + 1)
    }

    /// Win, loss or draw.
    #[inline]
    pub fn outcome(self) -> Outcome {
        match self.0 {
            0 => Outcome::Draw,
            v if v & 1 == 0 => Outcome::Win,
            _ => Outcome::Loss,
        }
    }

    /// Plies to the end (to conversion, for tablebases) of a win or loss;
    /// `None` for a draw.
    #[inline]
    pub fn distance(self) -> Option<u16> {
        (self.0 != 0).then_some(self.0 / 2)
    }

    /// The value under a count rule with `plies` quiet plies left before
    /// the count draws the game: a win or loss whose distance to
    /// conversion is at most `plies` stands, one further away is a draw
    /// (the tables of a count rule store the distance to conversion in the
    /// line that wins under the rule, `docs/rules.md`, "The count rule").
    #[inline]
    pub fn within(self, plies: u16) -> Value {
        match self.distance() {
            Some(d) if d > plies => Value::DRAW,
            _ => self,
        }
    }

    /// The value, for the side that moves, of a move leading to a position
    /// whose value (for the opponent, now to move) is `child`: the outcome
    /// seen from the other side, one ply further — or, when the move
    /// `converts` (a removal, or whatever the tables count distances to),
    /// a win or loss at distance 1.
    ///
    /// (`Value` has no `Neg`: "lost, game over" is `loss(0)`, and a win in
    /// 0 plies has no encoding; the other side's view is one move away.)
    #[inline]
    pub fn after_move(child: Value, converts: bool) -> Value {
        match child.distance() {
            None => Value::DRAW,
            Some(d) => {
                let plies = if converts { 1 } else { d.saturating_add(1) };
                match child.outcome() {
                    Outcome::Loss => Value::win(plies),
                    _ => Value::loss(plies),
                }
            }
        }
    }

    /// The key of the order of preference: larger is better for the side
    /// to move.
    #[inline]
    fn preference(self) -> i32 {
        let d = i32::from(self.0 / 2);
        match self.outcome() {
            Outcome::Win => i32::from(u16::MAX) - d,
            Outcome::Draw => 0,
            Outcome::Loss => d - i32::from(u16::MAX),
        }
    }
}

impl Ord for Value {
    #[inline]
    fn cmp(&self, other: &Value) -> Ordering {
        self.preference().cmp(&other.preference())
    }
}

impl PartialOrd for Value {
    #[inline]
    fn partial_cmp(&self, other: &Value) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Debug for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.distance() {
            None => f.write_str("draw"),
            Some(d) => write!(f, "{} in {d}", self.outcome()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encoding_round_trips() {
        for d in 0..300 {
            assert_eq!(Value::loss(d).outcome(), Outcome::Loss);
            assert_eq!(Value::loss(d).distance(), Some(d));
            if d > 0 {
                assert_eq!(Value::win(d).outcome(), Outcome::Win);
                assert_eq!(Value::win(d).distance(), Some(d));
            }
        }
        assert_eq!(Value::DRAW.outcome(), Outcome::Draw);
        assert_eq!(Value::DRAW.distance(), None);
    }

    /// Every value with a distance below 40, in the order a perfect player
    /// prefers them, written out by hand: the slowest loss is the least bad.
    fn by_hand() -> Vec<Value> {
        let mut order: Vec<Value> = (0..40).map(Value::loss).collect();
        order.push(Value::DRAW);
        order.extend((1..40).rev().map(Value::win));
        order
    }

    #[test]
    fn order_is_the_perfect_players_preference() {
        let order = by_hand();
        for (i, a) in order.iter().enumerate() {
            for (j, b) in order.iter().enumerate() {
                assert_eq!(a.cmp(b), i.cmp(&j), "{a} against {b}");
            }
        }
        let mut shuffled: Vec<Value> = order.iter().rev().copied().collect();
        shuffled.rotate_left(17);
        assert_eq!(shuffled.iter().max(), Some(&Value::win(1)));
        assert_eq!(shuffled.iter().min(), Some(&Value::loss(0)));
    }

    #[test]
    fn after_move_is_one_ply_further_for_the_mover() {
        assert_eq!(Value::after_move(Value::loss(0), false), Value::win(1));
        assert_eq!(Value::after_move(Value::win(3), false), Value::loss(4));
        assert_eq!(Value::after_move(Value::win(3), true), Value::loss(1));
        assert_eq!(Value::after_move(Value::loss(8), true), Value::win(1));
        assert_eq!(Value::after_move(Value::DRAW, true), Value::DRAW);
        // A better child for the opponent is a worse move for the mover.
        let order = by_hand();
        for pair in order.windows(2) {
            assert!(Value::after_move(pair[0], false) > Value::after_move(pair[1], false));
        }
    }
}
