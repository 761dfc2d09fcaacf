//! Mill games on bitboards: board geometry as data ([`geometry`]), boards
//! as types for the hot loops ([`board`]) with the fast Nine Men's Morris
//! tables ([`nine`]), rule sets ([`variant`]), positions and moves, forward
//! and backward move generation, symmetries and the tablebase index; the
//! other games of the family on the same engine ([`family`]).

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
