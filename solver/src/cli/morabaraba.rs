//! `solver morabaraba` subcommands: Morabaraba (the 24 points of Nine Men's
//! Morris plus four diagonals, 12 stones, a full board draws) through the
//! family engine: the rules layer so far (`show`, `perft`); its tables need
//! the symmetry-reduced index on the family's boards (issue 13).

use super::six::{perft, rules, show, Common};
use super::CliResult;
use crate::morris::board::Morabaraba;
use clap::Subcommand;

/// Arguments of `solver morabaraba`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    pub command: Command,
}

/// Subcommands of `solver morabaraba`.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Draw a position (24 characters W, B or . in the reading order of
    /// Nine Men's Morris, side to move, hands) and list its legal moves.
    Show {
        /// Position text; the start position when omitted.
        position: Vec<String>,
        #[command(flatten)]
        common: Common,
    },
    /// Count the leaves of the game tree to DEPTH plies (a finished game is
    /// a leaf, a full board too), with the count below each first move.
    Perft {
        /// Depth in plies (a move with its removal is one ply).
        depth: u32,
        /// Position text; the start position when omitted.
        position: Vec<String>,
        #[command(flatten)]
        common: Common,
    },
}

/// Run a `solver morabaraba` subcommand.
pub fn run(args: Args) -> CliResult {
    match args.command {
        Command::Show { position, common } => {
            show::<Morabaraba>(&position, &common, rules::<Morabaraba>(&common))
        }
        Command::Perft {
            depth,
            position,
            common,
        } => perft::<Morabaraba>(depth, &position, &common, rules::<Morabaraba>(&common)),
    }
}
