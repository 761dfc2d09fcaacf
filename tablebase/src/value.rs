//! The value of a position for the side to move: win, loss or draw, with a
//! distance in plies, packed into 16 bits.

use std::fmt;

/// Game-theoretic value of a position for the side to move.
///
/// Encoding: `0` = draw, `2d` = win in `d ≥ 1` plies, `2d + 1` = loss in
/// `d ≥ 0` plies. Smaller distances sort first within wins, so that the
/// encoding of a level of the retrograde analysis is one number.
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
}
