//! A small efficiently updatable neural evaluation (NNUE-style): sparse
//! inputs from the board ([`features`]), a first layer kept as an
//! accumulator per point of view and updated from a nearby position's by
//! the changed inputs only ([`accumulator`]), clipped ReLU, one hidden dense
//! layer and an output in centi-stones (integer inference, [`net`]); the
//! float network and its trainer ([`train`]); the resumable self-play data
//! file it learns from ([`data`]). Design notes and figures: docs/toguz.md,
//! "Neural evaluation (NNUE)".

pub mod accumulator;
pub mod data;
pub mod features;
pub mod net;
pub mod train;

pub use accumulator::Accumulator;
pub use net::{builtin, NetError, Network, ACC, HIDDEN};
