//! The `solver` command line ([`cli`]): argument parsing and printing over
//! the game crates — `mill` (the mill games), `toguz` (Toguz Kumalak) — and
//! `server` (the web board and JSON API). The game-agnostic machinery
//! (combination ranking, the retrograde engine, the tablebase file format)
//! lives in the `tablebase` crate. `docs/architecture.md` shows the layout.

pub mod cli;
