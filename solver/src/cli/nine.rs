//! `solver nine` subcommands.

use super::CliResult;
use clap::Subcommand;

/// Arguments of `solver nine`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    pub command: Command,
}

/// Subcommands of `solver nine`.
#[derive(Subcommand, Debug)]
pub enum Command {}

/// Run a `solver nine` subcommand.
pub fn run(args: Args) -> CliResult {
    match args.command {}
}
