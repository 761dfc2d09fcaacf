//! `solver three` subcommands.

use super::CliResult;
use clap::Subcommand;

/// Arguments of `solver three`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    pub command: Command,
}

/// Subcommands of `solver three`.
#[derive(Subcommand, Debug)]
pub enum Command {}

/// Run a `solver three` subcommand.
pub fn run(args: Args) -> CliResult {
    match args.command {}
}
