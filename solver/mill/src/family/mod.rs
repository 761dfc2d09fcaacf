//! The games of the mill family beyond the standard Nine Men's Morris
//! engine, on any [`Board`](crate::board::Board) under any
//! [`RuleSet`](crate::variant::RuleSet): the rules and text formats
//! ([`game`]), a dense index for small boards ([`index`]), the
//! symmetry-reduced index for large ones ([`symmetric`]) and the
//! moving-phase tables over it ([`moving_tables`], Morabaraba), the whole game
//! solved on the shared retrograde engine ([`solve`]), the moving-phase
//! outcomes the placement search reads ([`outcomes`]), its files ([`files`]) and the
//! distances to the end of the game ([`depth`]). Six Men's Morris is solved through this module.

pub mod depth;
pub mod files;
pub mod game;
pub mod index;
pub mod lasker;
pub mod moving_tables;
pub mod outcomes;
pub mod report;
pub mod solve;
pub mod symmetric;
pub mod values;
