//! Morabaraba's tables on disk over its board's index ([`Index`]: the
//! 24-point board's, Nine Men's Morris's tuned one): its moving phase pair
//! by pair ([`moving`]) and its placement sectors ([`placement`]), both
//! through the one drivers of [`crate::tables`].

pub mod bits;
pub mod moving;
pub mod placement;

use crate::rules::board::{Board, Morabaraba};

/// The index of Morabaraba's tables ([`Board::Index`]).
pub type Index = <Morabaraba as Board>::Index;
