//! `solver toguz` subcommands.

use super::CliResult;
use clap::Subcommand;

/// Arguments of `solver toguz`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    pub command: Command,
}

/// Subcommands of `solver toguz`.
#[derive(Subcommand, Debug)]
pub enum Command {}

/// Run a `solver toguz` subcommand.
pub fn run(args: Args) -> CliResult {
    match args.command {}
}
