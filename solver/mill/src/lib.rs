//! Mill games on bitboards: board geometry as data ([`geometry`]), boards
//! as types for the hot loops ([`board`]) with the fast Nine Men's Morris
//! tables ([`nine`]), rule sets ([`variant`]), positions and moves, forward
//! and backward move generation, symmetries and the tablebase index; the
//! other games of the family on the same engine ([`family`]).
//!
//! The names most callers need are re-exported here: the boards and the
//! [`Board`] trait, a [`Position`] and its [`Move`]s, the [`RuleSet`], the
//! table keys ([`Subspace`], [`Sector`], [`TableId`]), the served games
//! ([`MillGame`], [`open_game`], [`GameError`]), Nine's probe
//! ([`Tablebases`], [`Analysis`]) and the generation drivers' reports and
//! error ([`tables`]). Everything else stays in its module.

#![warn(missing_docs)]

pub mod analysis;
pub mod board;
pub mod database;
pub mod duel;
pub mod family;
pub mod games;
pub mod geometry;
pub mod horizon;
pub mod index;
pub mod malom;
pub mod moving;
pub mod nine;
pub mod notation;
pub mod pair;
pub mod placement;
pub mod placement_pass;
pub mod placement_tables;
pub mod plan;
pub mod position;
pub mod probe;
pub mod report;
pub mod rules;
pub mod sector;
pub mod svg;
pub mod tables;
pub mod three;
pub mod variant;

pub use analysis::{Analysis, MoveValue, SearchOptions};
pub use board::{Board, Morabaraba, Nine, Six};
pub use games::{open as open_game, GameError, MillGame};
pub use position::{Color, GameOver, Move, Position, PositionError};
pub use probe::{ProbeError, Tablebases};
pub use sector::{Sector, Subspace, TableId};
pub use tables::{GenerateObserver, PairReport, SectorObserver, SectorReport, TablesError};
pub use variant::{RuleSet, Variant};
