//! Nine Men's Morris's own data: the board's constant tables and bit
//! tricks ([`bits`]), its tablebase directory and the generation of its
//! moving phase ([`files`]), its placement sectors ([`placement`]), its
//! JSON documents ([`report`]) and the served game ([`game`]). Its tuned
//! index is [`crate::index::nine`] and its probe [`crate::probe::nine`].

pub mod bits;
pub mod files;
pub mod game;
pub mod placement;
pub mod report;
