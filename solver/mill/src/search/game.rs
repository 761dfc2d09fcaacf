//! What the placement search asks of a game: its board (symmetries, mills,
//! adjacency, through [`Board`]), its legal moves, the end of the game, and
//! the moving-phase outcome of the positions where placement ends.
//!
//! Nine Men's Morris answers from its tablebases (the implementation is
//! in [`crate::probe::nine`]); the other boards of the family
//! from their moving-phase tables
//! ([`crate::tables::outcomes::MovingOutcomes`]). The search is
//! monomorphised per game, so Nine's pays nothing for the others.

use crate::rules::board::Board;
use crate::rules::geometry::Bits;
use crate::rules::position::{Move, Position};
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
