//! Every game of the mill family on any [`Board`](crate::board::Board)
//! under any [`RuleSet`](crate::variant::RuleSet): the rules and text
//! formats ([`game`]), the [`index::Indexing`] trait with the dense index
//! of small boards ([`index`]) and the symmetry-reduced index of any board
//! ([`symmetric`]), the table set of every board ([`files`]: Nine Men's
//! Morris's too, over its own index), whole small games solved in memory
//! ([`solve`]: Six Men's Morris), a large board's moving phase pair by pair
//! on disk ([`moving_tables`]: Morabaraba) and its placement sectors
//! ([`placement_files`]), the moving-phase outcomes the
//! placement search reads ([`outcomes`]), every move's value ([`values`]),
//! distances to the end of the game ([`depth`]) and Lasker Morris
//! ([`lasker`]). The pair and the placement pass they all use are
//! [`crate::pair`] and [`crate::placement_pass`].

pub mod depth;
pub mod files;
pub mod index;
pub mod lasker;
pub mod moving_tables;
pub mod outcomes;
pub mod placement_files;
pub mod report;
pub mod solve;
pub mod symmetric;
pub mod values;
