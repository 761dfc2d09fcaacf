//! What the placement search asks of a game: its board (symmetries, mills,
//! adjacency, through [`Board`]), its legal moves, the end of the game, and
//! the moving-phase outcome of the positions where placement ends.
//!
//! Nine Men's Morris answers from its tablebases (the implementation is
//! in [`crate::probe`]); the other boards of the family
//! from their moving-phase tables
//! ([`crate::family::outcomes::MovingOutcomes`]). The search is
//! monomorphised per game, so Nine's pays nothing for the others.

use crate::board::Board;
use crate::geometry::Bits;
use crate::position::{Move, Position};
use tablebase::Outcome;

/// A game the placement search can solve.
pub trait PlacementGame: Sync {
    /// The board.
    type Board: Board;
    /// Why a position cannot be searched (illegal, or a table missing or
    /// damaged).
    type Error: Send;

    /// Check that `pos` is a legal position of the game.
    fn validate(&self, pos: &Position) -> Result<(), Self::Error>;

    /// Call `f` for every legal move of the side to move.
    fn for_each_move(&self, pos: &Position, f: impl FnMut(Move));

    /// The score for the side to move (−1 lost, 0 drawn) of a placement
    /// position whose game has ended; `None` while it goes on.
    fn ended(&self, pos: &Position) -> Option<i8>;

    /// The outcome for the side to move of the moving-phase position
    /// `(us, them)` (side to move's stones first, at least 3 of them).
    fn leaf(&self, us: Bits, them: Bits) -> Result<Outcome, Self::Error>;
}

/// The canonical representative of `pos`'s class under the board's
/// symmetries (the least mover-relative `(us, them)`) and the symmetry
/// that produces it.
#[inline]
pub fn canonical<B: Board>(pos: &Position) -> (Position, usize) {
    let (us, them) = (pos.us(), pos.them());
    let mut best = (us, them);
    let mut best_op = 0;
    for op in 1..B::SYMMETRIES {
        let key = (B::transform(op, us), B::transform(op, them));
        if key < best {
            best = key;
            best_op = op;
        }
    }
    (transform::<B>(pos, best_op), best_op)
}

/// The image of `pos` under symmetry `op` of board `B`.
#[inline]
pub fn transform<B: Board>(pos: &Position, op: usize) -> Position {
    Position {
        stones: [
            B::transform(op, pos.stones[0]),
            B::transform(op, pos.stones[1]),
        ],
        ..*pos
    }
}

/// The image of the move `m` under symmetry `op` of board `B`.
#[inline]
pub fn transform_move<B: Board>(m: Move, op: usize) -> Move {
    let map = |p: u8| B::transform(op, 1 << p).trailing_zeros() as u8;
    let to = map(m.to());
    let base = match m.from() {
        Some(from) => Move::shift(map(from), to),
        None => Move::place(to),
    };
    match m.removal() {
        Some(r) => base.with_removal(map(r)),
        None => base,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Nine;
    use crate::position::Color;

    /// On Nine's board the generic forms equal `Position::canonical` and
    /// `Move::transform`.
    #[test]
    fn generic_symmetry_equals_nines() {
        let mut x: u64 = 0x2545_F491_4F6C_DD1D;
        for _ in 0..2_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let w = (x as u32) & (x >> 32) as u32 & 0xFF_FFFF;
            let b = ((x >> 24) as u32) & !w & 0xFF_FFFF & (x >> 7) as u32;
            let pos = Position {
                stones: [w, b],
                hand: [2, 1],
                to_move: if x & 1 == 0 {
                    Color::White
                } else {
                    Color::Black
                },
            };
            assert_eq!(canonical::<Nine>(&pos), pos.canonical());
            let m = Move::shift((x % 24) as u8, ((x >> 8) % 24) as u8)
                .with_removal(((x >> 16) % 24) as u8);
            let p = Move::place(((x >> 40) % 24) as u8);
            for op in 0..16 {
                assert_eq!(transform_move::<Nine>(m, op), m.transform(op));
                assert_eq!(transform_move::<Nine>(p, op), p.transform(op));
            }
        }
    }
}
