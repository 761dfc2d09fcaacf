//! Game-agnostic retrograde analysis.
//!
//! This crate knows nothing of any game: it provides combination ranking
//! ([`binomial`]), the generic parallel retrograde engine over a small trait
//! ([`retro`]), the on-disk tablebase file format ([`format`]), the
//! memory-mapped block reader ([`reader`]) and whole tables decompressed
//! into memory ([`resident`]).

pub mod binomial;
pub mod retro;
pub mod value;

pub use retro::{solve, Exit, Observer, RetroGame, Silent};
pub use value::{Outcome, Value};
pub mod format;
pub mod huge;
pub mod memory;
pub mod plan;
pub mod reader;
pub mod resident;
pub mod set;
