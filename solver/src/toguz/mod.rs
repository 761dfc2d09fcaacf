//! Toguz Kumalak: the rules ([`board`]), text forms ([`notation`]), perft,
//! PlayOK record replay ([`pgn`]), evaluation, an exact endgame solver and a
//! parallel alpha-beta search.

pub mod board;
pub mod notation;
pub mod perft;
pub mod pgn;

pub use board::{Board, Move, MoveEffect, Outcome, Side};
