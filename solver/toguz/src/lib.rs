//! Toguz Kumalak: the rules ([`board`]), text forms ([`notation`]),
//! [`perft`], PlayOK record replay ([`pgn`]), the hand-set evaluation
//! ([`eval`]) and the learned one ([`linear`], trained by [`train`]), an exact
//! endgame solver ([`endgame`]), a parallel alpha-beta [`search`], self-play
//! matches ([`selfplay`]) and their statistics ([`ladder`]), the engine
//! protocol ([`protocol`]) with external engines ([`external`]) and game
//! review ([`review`]) with calibrated win/draw/loss chances ([`chances`],
//! fitted by [`calibrate`]) and puzzles from real games ([`puzzles`]). Design notes and
//! measured figures: `docs/toguz.md`.

pub mod board;
pub mod calibrate;
pub mod chances;
pub mod egtb;
pub mod endgame;
pub mod eval;
pub mod external;
pub mod ladder;
pub mod linear;
pub mod nnue;
pub mod notation;
pub mod perft;
pub mod pgn;
pub mod protocol;
pub mod puzzles;
pub mod report;
pub mod review;
pub mod search;
pub mod selfplay;
pub mod train;

pub use board::{Board, Move, MoveEffect, Outcome, Side};
