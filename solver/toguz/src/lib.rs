//! Toguz Kumalak: the rules ([`board`]), text forms ([`notation`]),
//! [`perft`], PlayOK record replay ([`pgn`]), the hand-set evaluation
//! ([`eval`]) and the learned one ([`linear`], trained by [`train`]), an exact
//! endgame solver ([`endgame`]), a parallel alpha-beta [`search`], self-play
//! matches ([`selfplay`]) and their statistics ([`ladder`]), the engine
//! protocol ([`protocol`]) with external engines ([`external`]) and game
//! review ([`review`]). Design notes and
//! measured figures: `docs/toguz.md`.

pub mod board;
pub mod egtb;
pub mod endgame;
pub mod eval;
pub mod external;
pub mod ladder;
pub mod linear;
pub mod notation;
pub mod perft;
pub mod pgn;
pub mod protocol;
pub mod report;
pub mod review;
pub mod search;
pub mod selfplay;
pub mod train;

pub use board::{Board, Move, MoveEffect, Outcome, Side};
