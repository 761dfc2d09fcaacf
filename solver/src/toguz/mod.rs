//! Toguz Kumalak: the rules ([`board`]), text forms ([`notation`]),
//! [`perft`], PlayOK record replay ([`pgn`]), evaluation ([`eval`]), an exact
//! endgame solver ([`endgame`]), a parallel alpha-beta [`search`] and
//! self-play matches ([`selfplay`]). Design notes and measured figures:
//! `docs/toguz.md`.

pub mod board;
pub mod egtb;
pub mod endgame;
pub mod eval;
pub mod notation;
pub mod perft;
pub mod pgn;
pub mod search;
pub mod selfplay;

pub use board::{Board, Move, MoveEffect, Outcome, Side};
