//! Toguz Kumalak: the rules ([`board`]), text forms ([`notation`]), perft,
//! PlayOK record replay ([`pgn`]), evaluation, an exact endgame solver and a
//! parallel alpha-beta search.

pub mod board;
pub mod endgame;
pub mod eval;
pub mod notation;
pub mod perft;
pub mod pgn;
pub mod search;
pub mod selfplay;

pub use board::{Board, Move, MoveEffect, Outcome, Side};
