//! Morabaraba's tables on disk over the symmetry-reduced index
//! ([`crate::index::symmetric`]): its moving phase pair by pair
//! ([`moving`]) and its placement sectors ([`placement`]), both through
//! the one drivers of [`crate::tables`].

pub mod moving;
pub mod placement;
