//! The `solver` command line interface: argument parsing (clap derive) and
//! dispatch to one module per game. Every command prints a human-readable
//! report by default and a JSON document with `--json`; errors are printed as
//! one line on stderr with a non-zero exit status.

use clap::{Parser, Subcommand};
use std::process::ExitCode;

pub mod duel;
pub mod error;
pub mod family_search;
pub mod lasker;
pub mod lasker_malom;
pub mod morabaraba;
pub mod morabaraba_placement;
pub mod morabaraba_plan;
pub mod nine;
pub mod nine_malom;
pub mod nine_probe;
pub mod nine_tb;
pub mod plan;
pub mod progress;
pub mod serve;
pub mod six;
pub mod size;
pub mod three;
pub mod toguz;
pub mod toguz_analysis;
pub mod toguz_nnue;
pub mod toguz_tb;

/// Solver and retrograde-analysis toolkit for mill games and Toguz Kumalak.
#[derive(Parser, Debug)]
#[command(name = "solver", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    pub game: Game,
}

/// The games.
#[derive(Subcommand, Debug)]
pub enum Game {
    /// Nine Men's Morris: rules engine, tablebases, probing, the start position.
    Nine(nine::Args),
    /// Lasker Morris (10 stones, placing and sliding interleave) and its
    /// reduced games: rules, perft, the sector tables solved, probing, the
    /// start position.
    Lasker(lasker::Args),
    /// Morabaraba (24 points with diagonals, 12 stones): rules and perft.
    Morabaraba(morabaraba::Args),
    /// Six Men's Morris (16 points, 6 stones; flying on or off): rules,
    /// perft, the whole game solved, probing, the start position.
    Six(six::Args),
    /// Three Men's Morris: complete in-memory solution.
    Three(three::Args),
    /// Toguz Kumalak: rules, PlayOK replay, perft and a parallel search.
    Toguz(toguz::Args),
    /// The web board and JSON API for every game: Nine (with and without
    /// flying), Six, Morabaraba, Lasker, Three, Toguz (loopback only by
    /// default; see docs/api.md).
    Serve(serve::Args),
}

pub use error::CliError;

/// What a command returns: nothing (it printed its answer) or why it failed.
pub type CliResult = Result<(), CliError>;

/// Parse the arguments, run the command, print a one-line error on failure.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.game {
        Game::Nine(args) => nine::run(args),
        Game::Lasker(args) => lasker::run(args),
        Game::Morabaraba(args) => morabaraba::run(args),
        Game::Six(args) => six::run(args),
        Game::Three(args) => three::run(args),
        Game::Toguz(args) => toguz::run(args),
        Game::Serve(args) => serve::serve(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::from(error.exit_code())
        }
    }
}

/// Print a serialisable value as pretty JSON on stdout.
pub fn print_json<T: serde::Serialize>(value: &T) -> CliResult {
    let text = serde_json::to_string_pretty(value)?;
    println!("{text}");
    Ok(())
}

/// Write a text file (e.g. an SVG picture), with the path in the error.
pub fn write_file(path: &std::path::Path, text: &str) -> CliResult {
    std::fs::write(path, text).map_err(CliError::file(path))
}

/// Parse a position given as command-line words (joined by spaces), or
/// `start` when there are none.
pub fn parse_position<T>(words: &[String], start: T) -> Result<T, CliError>
where
    T: std::str::FromStr,
    T::Err: std::fmt::Display,
{
    if words.is_empty() {
        return Ok(start);
    }
    words
        .join(" ")
        .parse()
        .map_err(|e| CliError::input(format!("bad position: {e}")))
}
