//! Lasker Morris (10 stones, placing and sliding interleave) on the Nine
//! Men's Morris board, and its reduced games with K stones a side.
//!
//! - [`moves`]: forward moves and in-sector unmoves of a side that may both
//!   place and slide, with Lasker's flying condition (stones on the board
//!   plus in hand equal 3).
//! - [`sector`]: a sector is `(us, them, us_hand, them_hand)`, mover
//!   relative; sliding keeps the sector (swapped for the other side to
//!   move), placing lowers a hand, a removal lowers the opponent's board
//!   count. Every sector pair is a retrograde problem with cycles whose
//!   exits lead to sectors solved before.
//! - [`solve`]: a sector pair on the game-agnostic retrograde engine
//!   ([`tablebase::retro`]) over any index, and the definition of a value
//!   (`recompute`); the reduced games solved whole in memory over the
//!   dense index of [`crate::index`] (the oracle of the tests).
//! - [`tables`]: the generator on disk over Nine Men's Morris's
//!   symmetry-reduced index, pair by pair, exits read back from the
//!   finished files, resumable; stats and verify from the files.
//! - [`files`]: one file per sector, labelled `lasker/<rule tag>/a-b-ha-hb`,
//!   refused under any other variant or rule set; [`files::LaskerFiles`]
//!   probes them mapped.

pub mod files;
pub mod moves;
pub mod sector;
pub mod solve;
pub mod tables;
