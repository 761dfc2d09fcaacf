//! Solvers for mill games (Nine Men's Morris, Three Men's Morris) and a
//! Toguz Kumalak engine, with the `solver` command line in [`cli`] and the web board and JSON
//! API in [`server`].
//!
//! The game-agnostic machinery (combination ranking, the retrograde engine,
//! the tablebase file format) lives in the `tablebase` crate.

pub mod cli;
pub mod morris;
pub mod server;
pub mod toguz;

#[cfg(feature = "python")]
pub mod python;
