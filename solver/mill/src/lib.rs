//! Mill games on bitboards, laid out by concern:
//!
//! - [`rules`]: board geometry as data, boards as types for the hot loops,
//!   rule sets, positions and moves, move generation, notation, SVG;
//! - [`index`]: the [`index::Indexing`] trait (slot of a position) and its
//!   instances: dense, symmetry-reduced on any board, Nine's tuned index;
//! - [`tables`]: the table keys (subspaces, sectors), the moving pair, the
//!   placement pass, the generation drivers, the table set, plans, depths;
//! - [`probe`]: the answer about one position, from tables or search;
//! - [`search`]: the placement-phase alpha-beta search;
//! - [`games`]: the served games ([`MillGame`]) and each game's own data
//!   (`nine`, `morabaraba`, `lasker`, `three`);
//! - [`duel`]: the perfect player against fallible opponents;
//! - [`malom`]: the reader of Malom's sector files, the independent oracle.
//!
//! The names most callers need are re-exported here: the boards and the
//! [`Board`] trait, a [`Position`] and its [`Move`]s, the [`RuleSet`], the
//! table keys ([`Subspace`], [`Sector`], [`TableId`]), the served games
//! ([`MillGame`], [`open_game`], [`GameError`]), Nine's probe
//! ([`Tablebases`], [`Analysis`]) and the generation drivers' reports and
//! error ([`tables`]). Everything else stays in its module.

#![warn(missing_docs)]

pub mod duel;
pub mod games;
pub mod index;
pub mod malom;
pub mod probe;
pub mod rules;
pub mod search;
pub mod tables;

pub use games::{open as open_game, GameError, MillGame};
pub use probe::analysis::{Analysis, MoveValue, SearchOptions};
pub use probe::nine::{ProbeError, Tablebases};
pub use rules::board::{Board, Morabaraba, Nine, Six};
pub use rules::position::{Color, GameOver, Move, Position, PositionError};
pub use rules::variant::{RuleSet, Variant};
pub use tables::keys::{Sector, Subspace, TableId};
pub use tables::{GenerateObserver, PairReport, SectorObserver, SectorReport, TablesError};
