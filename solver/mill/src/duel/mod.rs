//! The perfect player against fallible opponents: which of several equally
//! good moves a perfect player picks, and matches that measure it.
//!
//! A perfect player never gives up value, but from a drawn start every
//! drawing move is "perfect"; which one it picks decides how often a
//! fallible opponent goes wrong. This module owns
//!
//! - [`fallible`]: reference opponents that choose moves stochastically from
//!   the tables' values (ε-random, softmax at a temperature), seeded;
//! - [`policy`]: the perfect player's choice among the moves of the best
//!   value (`random`, `fast`, `ultra`, `secval`);
//! - [`harness`]: a match of N games from the start, both colours, in
//!   parallel, with W/D/L, the score and its 95 % interval;
//! - [`games`]: the solved games the harness plays (Three Men's Morris, the
//!   family boards through [`crate::probe::values::Values`], Nine Men's
//!   Morris through [`crate::probe::nine::Tablebases`]).
//!
//! Everything is generic over [`Solved`], the few things a match needs to
//! know about a solved game.

pub mod fallible;
pub mod games;
pub mod harness;
pub mod policy;

pub use fallible::Opponent;
pub use harness::{duel, DuelOptions, DuelReport};
pub use policy::Policy;
/// The generator every policy and opponent draws from (ChaCha8: portable,
/// the same numbers on every platform and version of `rand_core`).
pub use rand::rngs::ChaCha8Rng;

/// A generator seeded with `seed`, for the callers of [`Policy::choose`]
/// and [`Opponent::choose`].
pub fn seeded(seed: u64) -> ChaCha8Rng {
    rand::SeedableRng::seed_from_u64(seed)
}

use crate::rules::position::Color;
use std::hash::Hash;
use tablebase::Value;

/// Why a duel (or a policy's choice) could not go on.
#[derive(Debug, thiserror::Error)]
pub enum DuelError {
    /// Probing Nine Men's Morris tables failed (missing or damaged table).
    #[error(transparent)]
    Probe(#[from] crate::probe::nine::ProbeError),
    /// A family table did not hold the value of a position.
    #[error("no table holds the value of {0} (generate the tables first)")]
    Missing(String),
    /// The `secval` policy asked a game without sector values.
    #[error("the secval policy needs Malom's sector values (std.secval), which only Nine Men's Morris has")]
    NoSectorValues,
    /// Reading Malom's `std.secval` failed.
    #[error(transparent)]
    Malom(#[from] crate::malom::MalomError),
}

/// One legal move with its value for the side that plays it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Choice<M> {
    /// The move.
    pub mv: M,
    /// Its value for the mover ([`Value::after_move`] of the position it
    /// leads to). Where the tables know outcomes only (placement tables),
    /// a win is `win(1)` and a loss `loss(1)`, and `has_distance` is false.
    pub value: Value,
    /// Does `value` carry a real distance (to conversion)?
    pub has_distance: bool,
}

/// How a game ended, for the side to move in the final position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Finish {
    /// The side to move has lost (no stones enough, blocked, or a line in
    /// Three Men's Morris).
    Loss,
    /// A draw by the rules (a full board where the rule set says so).
    Draw,
    /// A draw by the count rule: [`Solved::quiet_limit`] plies in a row
    /// without a placement or a removal ([`finish_at`]).
    Count,
}

/// A solved game as a match sees it: the start, the end, the moves with
/// their values from the tables, and what the rules of play between people
/// need (which moves are irreversible, for the 50-move count).
pub trait Solved {
    /// A position (with its side to move).
    type Position: Copy + Eq + Hash + Send + Sync;
    /// A move.
    type Move: Copy + Eq + Send + Sync;

    /// The start of the game.
    fn start(&self) -> Self::Position;
    /// The side to move.
    fn to_move(&self, pos: &Self::Position) -> Color;
    /// Has the game ended, and how?
    fn finish(&self, pos: &Self::Position) -> Option<Finish>;
    /// Every legal move of an unfinished position with its value from the
    /// tables, in the game's move order.
    fn moves(&self, pos: &Self::Position) -> Result<Vec<Choice<Self::Move>>, DuelError>;
    /// The position after a legal move.
    fn play(&self, pos: &Self::Position, m: Self::Move) -> Self::Position;
    /// Is the move irreversible (a placement or a removal)? Such a move
    /// restarts the 50-move count and the repetition history.
    fn irreversible(&self, pos: &Self::Position, m: Self::Move) -> bool;
    /// Malom's sector value of the position for its side to move (larger
    /// is better), for the `secval` policy; `None` when the game has none.
    fn sector_value(&self, _pos: &Self::Position) -> Option<i32> {
        None
    }
    /// The count rule's limit (`RuleSet::quiet_limit`): the game is drawn
    /// once this many plies in a row pass without a placement or a removal
    /// ([`Solved::irreversible`]), and [`Solved::moves_at`] reads the
    /// tables at the count. `None` (the default): no count rule.
    fn quiet_limit(&self) -> Option<u16> {
        None
    }
    /// [`Solved::moves`] of a position after `quiet` quiet plies under the
    /// count rule: each move's value read at the count of the position it
    /// leads to (`probe::count::Count::after`). Without a count rule (the
    /// default) the values of [`Solved::moves`], whatever `quiet`.
    fn moves_at(
        &self,
        pos: &Self::Position,
        quiet: u16,
    ) -> Result<Vec<Choice<Self::Move>>, DuelError> {
        let _ = quiet;
        self.moves(pos)
    }
}

/// The quiet plies after move `m` of `pos` played after `quiet` of them:
/// zero after an irreversible move (a placement or a removal), else one
/// more.
pub fn quiet_after<G: Solved + ?Sized>(game: &G, pos: &G::Position, m: G::Move, quiet: u16) -> u16 {
    if game.irreversible(pos, m) {
        0
    } else {
        quiet.saturating_add(1)
    }
}

/// How the game stands at `pos` after `quiet` quiet plies: its end by the
/// rules ([`Solved::finish`]: a loss at the limit is still a loss), else a
/// draw by the count rule once `quiet` reaches [`Solved::quiet_limit`],
/// else `None` (the game goes on).
pub fn finish_at<G: Solved + ?Sized>(game: &G, pos: &G::Position, quiet: u16) -> Option<Finish> {
    game.finish(pos).or_else(|| {
        game.quiet_limit()
            .filter(|&limit| quiet >= limit)
            .map(|_| Finish::Count)
    })
}

/// Points for the side to move of a game-theoretic outcome: 1 a win, ½ a
/// draw, 0 a loss.
pub fn points(v: Value) -> f64 {
    match v.outcome() {
        tablebase::Outcome::Win => 1.0,
        tablebase::Outcome::Draw => 0.5,
        tablebase::Outcome::Loss => 0.0,
    }
}
