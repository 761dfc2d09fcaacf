//! Endgame tables ("share tables") for Toguz Kumalak: for every position
//! with at most `N` stones on the board, the most stones of the board that
//! the side to move can secure with perfect play, and the most its opponent
//! can secure. With the kazans these two numbers give the game result
//! ([`probe::Share::result`]); why, and how endless play scores, is in
//! `docs/toguz.md`.
//!
//! [`index`] numbers the positions, [`graph`] turns a pair of tables into
//! threshold games for the game-agnostic retrograde engine
//! (`tablebase::retro`), [`database`] generates and checks the files,
//! [`probe`] answers queries.

pub mod check;
pub mod database;
pub mod graph;
pub mod index;
pub mod plan;
pub mod probe;

pub use database::{generate, EgtbError};
pub use probe::{Share, Tables};
