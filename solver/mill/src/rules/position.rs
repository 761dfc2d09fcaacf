//! Positions and moves of every mill board as the user sees them: two
//! colour bitboards (the bit layout is the board's, [`crate::rules::geometry`]),
//! the side to move and the stones in hand; legality under a
//! [`RuleSet`], colour swap, the board's symmetries and canonical form.
//! The board is a type parameter of the methods that need its facts
//! (`pos.validate::<Nine>(rules)`, `pos.canonical::<Six>()`).

use crate::rules::board::Board;
use crate::rules::geometry::Bits;
use crate::rules::variant::RuleSet;

/// A side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// The first player in the standard start position.
    White,
    /// The second player.
    Black,
}

impl Color {
    /// The other side.
    pub fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// 0 for White, 1 for Black (index into per-colour arrays).
    pub fn index(self) -> usize {
        self as usize
    }

    /// Lower-case English name ("white" or "black").
    pub fn name(self) -> &'static str {
        match self {
            Color::White => "white",
            Color::Black => "black",
        }
    }
}

/// A position of a mill game on some board.
///
/// Invariants (checked by [`Position::validate`] and by the text parsers):
/// the colours do not overlap and use only the board's points; each side
/// has at most the rule set's stones on the board plus in hand; see
/// `docs/notation.md`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    /// Stones on the board by colour (index [`Color::index`]).
    pub stones: [Bits; 2],
    /// Stones in hand by colour.
    pub hand: [u8; 2],
    /// The side to move.
    pub to_move: Color,
}

/// Why a [`Position`] is not legal on its board under its rule set.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// A bitboard uses a bit outside the board's points (their number).
    #[error("stones outside the {0} points of the board")]
    OffBoard(usize),
    /// Both colours on one point.
    #[error("a point holds both a white and a black stone")]
    Overlap,
    /// More stones on board and in hand than the rule set gives (colour,
    /// stones, the rule set's stones).
    #[error("{0} has {1} stones on the board and in hand, at most {2} are allowed")]
    TooManyStones(&'static str, u32, u8),
    /// Stones in hand that the placement order cannot produce (checked
    /// unless placing and moving interleave, as under Lasker's rules).
    #[error(
        "stones in hand {mover} (side to move) and {other} (other side) are impossible: \
         the side to move has as many as the other side or one more"
    )]
    Hands {
        /// Stones in hand of the side to move.
        mover: u8,
        /// Stones in hand of the other side.
        other: u8,
    },
    /// The side that just moved has already lost.
    #[error("{0} (not to move) has fewer than 3 stones, so the game ended before its last move")]
    FinishedBefore(&'static str),
}

/// How a finished game ended (seen from the side to move, who has lost).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GameOver {
    /// The side to move has fewer than 3 stones on the board and in hand.
    TooFewStones,
    /// The side to move has no legal move.
    Blocked,
}

impl GameOver {
    /// A short English description.
    pub fn describe(self) -> &'static str {
        match self {
            GameOver::TooFewStones => "fewer than 3 stones left",
            GameOver::Blocked => "no legal move",
        }
    }
}

/// Marks "no point" in the packed fields of [`Move`].
const NONE: u8 = u8::MAX;

/// A move, atomic: a placement, slide or fly, with the removal of an
/// opponent stone when it closes a mill.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    from: u8,
    to: u8,
    remove: u8,
}

impl Move {
    /// Place a stone from hand on `to`.
    pub fn place(to: u8) -> Move {
        Move {
            from: NONE,
            to,
            remove: NONE,
        }
    }

    /// Slide or fly a stone from `from` to `to`.
    pub fn shift(from: u8, to: u8) -> Move {
        Move {
            from,
            to,
            remove: NONE,
        }
    }

    /// The same move, taking the opponent stone at `point`.
    pub fn with_removal(self, point: u8) -> Move {
        Move {
            remove: point,
            ..self
        }
    }

    /// Origin of a slide or fly; `None` for a placement.
    pub fn from(self) -> Option<u8> {
        (self.from != NONE).then_some(self.from)
    }

    /// Destination point.
    pub fn to(self) -> u8 {
        self.to
    }

    /// Removed opponent stone, if any.
    pub fn removal(self) -> Option<u8> {
        (self.remove != NONE).then_some(self.remove)
    }

    /// The move mapped by symmetry `op` of board `B` ([`Board::transform`]).
    #[inline]
    pub fn transform<B: Board>(self, op: usize) -> Move {
        let map = |p: u8| {
            if p == NONE {
                NONE
            } else {
                B::transform(op, 1 << p).trailing_zeros() as u8
            }
        };
        Move {
            from: map(self.from),
            to: map(self.to),
            remove: map(self.remove),
        }
    }
}

impl Position {
    /// The start position: empty board, the rule set's stones in each
    /// hand, White to move.
    pub const fn start(rules: RuleSet) -> Position {
        Position {
            stones: [0, 0],
            hand: [rules.stones, rules.stones],
            to_move: Color::White,
        }
    }

    /// A moving-phase position from mover-relative bitboards.
    pub fn from_mover(us: Bits, them: Bits, to_move: Color) -> Position {
        let mut stones = [0; 2];
        stones[to_move.index()] = us;
        stones[to_move.other().index()] = them;
        Position {
            stones,
            hand: [0, 0],
            to_move,
        }
    }

    /// Stones of the side to move.
    pub fn us(&self) -> Bits {
        self.stones[self.to_move.index()]
    }

    /// Stones of the opponent of the side to move.
    pub fn them(&self) -> Bits {
        self.stones[self.to_move.other().index()]
    }

    /// Stones in hand of the side to move.
    pub fn our_hand(&self) -> u8 {
        self.hand[self.to_move.index()]
    }

    /// Stones in hand of the opponent.
    pub fn their_hand(&self) -> u8 {
        self.hand[self.to_move.other().index()]
    }

    /// Empty points of board `B`.
    #[inline]
    pub fn empty<B: Board>(&self) -> Bits {
        !(self.stones[0] | self.stones[1]) & B::FULL
    }

    /// Stones of `color` on the board plus in hand.
    pub fn material(&self, color: Color) -> u32 {
        self.stones[color.index()].count_ones() + self.hand[color.index()] as u32
    }

    /// Is the side to move still placing stones?
    pub fn placing(&self) -> bool {
        self.our_hand() > 0
    }

    /// Check the invariants on board `B` under `rules`; see
    /// `docs/notation.md` for what is accepted.
    pub fn validate<B: Board>(&self, rules: RuleSet) -> Result<(), PositionError> {
        if (self.stones[0] | self.stones[1]) & !B::FULL != 0 {
            return Err(PositionError::OffBoard(B::POINTS));
        }
        if self.stones[0] & self.stones[1] != 0 {
            return Err(PositionError::Overlap);
        }
        for color in [Color::White, Color::Black] {
            let n = self.material(color);
            if n > rules.stones as u32 {
                return Err(PositionError::TooManyStones(color.name(), n, rules.stones));
            }
        }
        let (mover, other) = (self.our_hand(), self.their_hand());
        // Under Lasker's rules a side may slide instead of placing: any hands.
        if !rules.interleave && mover != other && mover != other + 1 {
            return Err(PositionError::Hands { mover, other });
        }
        if self.material(self.to_move.other()) < 3 {
            return Err(PositionError::FinishedBefore(self.to_move.other().name()));
        }
        Ok(())
    }

    /// The position after the legal move `m` (on any board: the move
    /// names its points).
    #[inline]
    pub fn apply(&self, m: Move) -> Position {
        let mut next = *self;
        let (me, you) = (self.to_move.index(), self.to_move.other().index());
        match m.from() {
            Some(from) => next.stones[me] ^= 1 << from | 1 << m.to(),
            None => {
                next.stones[me] |= 1 << m.to();
                next.hand[me] -= 1;
            }
        }
        if let Some(r) = m.removal() {
            next.stones[you] &= !(1 << r);
        }
        next.to_move = self.to_move.other();
        next
    }

    /// The same position with the colours swapped (White's stones become
    /// Black's and vice versa, hands and side to move follow).
    pub fn swap_colors(&self) -> Position {
        Position {
            stones: [self.stones[1], self.stones[0]],
            hand: [self.hand[1], self.hand[0]],
            to_move: self.to_move.other(),
        }
    }

    /// The position mapped by symmetry `op` of board `B`
    /// ([`Board::transform`]).
    #[inline]
    pub fn transform<B: Board>(&self, op: usize) -> Position {
        Position {
            stones: [
                B::transform(op, self.stones[0]),
                B::transform(op, self.stones[1]),
            ],
            ..*self
        }
    }

    /// The canonical representative of the position's class under the
    /// symmetries of board `B`, and the symmetry that produces it. The
    /// representative minimises `(us, them)` (mover-relative), so canonical
    /// form commutes with [`Position::swap_colors`].
    #[inline]
    pub fn canonical<B: Board>(&self) -> (Position, usize) {
        let (us, them) = (self.us(), self.them());
        let mut best = (us, them);
        let mut best_op = 0;
        for op in 1..B::SYMMETRIES {
            let key = (B::transform(op, us), B::transform(op, them));
            if key < best {
                best = key;
                best_op = op;
            }
        }
        (self.transform::<B>(best_op), best_op)
    }
}
