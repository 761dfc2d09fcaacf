//! Mill games on bitboards: board geometry as data ([`geometry`]), the fast
//! Nine Men's Morris tables ([`nine`]), positions and moves, forward and
//! backward move generation, symmetries and the tablebase index.

pub mod analysis;
pub mod database;
pub mod geometry;
pub mod index;
pub mod malom;
pub mod movegen;
pub mod moving;
pub mod nine;
pub mod notation;
pub mod pair;
pub mod perft;
pub mod placement;
pub mod placement_tables;
pub mod position;
pub mod probe;
pub mod report;
pub mod sector;
pub mod svg;
pub mod three;
