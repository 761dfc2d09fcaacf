//! `solver toguz` subcommands: replay, perft.

use super::{print_json, CliResult};
use crate::toguz::notation::diagram;
use crate::toguz::{perft, pgn, Board};
use clap::Subcommand;
use std::time::Instant;

/// Arguments of `solver toguz`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    pub command: Command,
}

/// Subcommands of `solver toguz`.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Replay every game of a PlayOK record file, checking each move.
    Replay {
        /// The record file (PGN-like, PlayOK notation).
        file: std::path::PathBuf,
        /// Print a JSON report.
        #[arg(long)]
        json: bool,
    },
    /// Count the leaves of the game tree to a depth.
    Perft {
        /// Depth in plies.
        depth: u32,
        /// Position (`start` or the text format of docs/toguz.md).
        position: Option<String>,
        /// Per-move counts at the root.
        #[arg(long)]
        divide: bool,
        /// Split the root moves over rayon threads.
        #[arg(long)]
        parallel: bool,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
}

/// Run a `solver toguz` subcommand.
pub fn run(args: Args) -> CliResult {
    match args.command {
        Command::Replay { file, json } => replay(&file, json),
        Command::Perft {
            depth,
            position,
            divide,
            parallel,
            json,
        } => run_perft(depth, position.as_deref(), divide, parallel, json),
    }
}

fn parse_position(text: Option<&str>) -> Result<Board, String> {
    text.unwrap_or("start")
        .parse::<Board>()
        .map_err(|e| format!("position: {e}"))
}

#[derive(serde::Serialize)]
struct Failure {
    game: usize,
    description: String,
    #[serde(flatten)]
    mismatch: pgn::Mismatch,
}

#[derive(serde::Serialize)]
struct ReplayReport {
    games: usize,
    passed: usize,
    failed: usize,
    plies: usize,
    failures: Vec<Failure>,
}

fn replay(file: &std::path::Path, json: bool) -> CliResult {
    let text = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
    let games = pgn::parse(&text).map_err(|e| format!("{}: {e}", file.display()))?;
    let mut report = ReplayReport {
        games: games.len(),
        passed: 0,
        failed: 0,
        plies: 0,
        failures: Vec::new(),
    };
    for (i, g) in games.iter().enumerate() {
        match pgn::replay(g) {
            Ok(r) => {
                report.passed += 1;
                report.plies += r.plies;
            }
            Err(m) => {
                report.failed += 1;
                report.failures.push(Failure {
                    game: i + 1,
                    description: g.describe(i),
                    mismatch: m,
                });
            }
        }
    }
    if json {
        print_json(&report)?;
    } else {
        for f in &report.failures {
            println!(
                "{}: ply {} `{}`: {}",
                f.description, f.mismatch.ply, f.mismatch.recorded, f.mismatch.message
            );
        }
        println!(
            "{} passed, {} failed ({} games, {} plies)",
            report.passed, report.failed, report.games, report.plies
        );
    }
    if report.failed > 0 {
        return Err(format!(
            "{} of {} games failed",
            report.failed, report.games
        ));
    }
    Ok(())
}

#[derive(serde::Serialize)]
struct PerftReport {
    position: String,
    depth: u32,
    leaves: u64,
    seconds: f64,
    leaves_per_second: f64,
    divide: Vec<(u8, u64)>,
}

fn run_perft(
    depth: u32,
    position: Option<&str>,
    divide: bool,
    parallel: bool,
    json: bool,
) -> CliResult {
    let board = parse_position(position)?;
    let t = Instant::now();
    let (leaves, div) = if divide {
        let d = perft::perft_divide(&board, depth);
        (d.iter().map(|&(_, n)| n).sum(), d)
    } else if parallel {
        (perft::perft_parallel(&board, depth), Vec::new())
    } else {
        (perft::perft(&board, depth), Vec::new())
    };
    let seconds = t.elapsed().as_secs_f64();
    let report = PerftReport {
        position: board.to_string(),
        depth,
        leaves,
        seconds,
        leaves_per_second: leaves as f64 / seconds.max(1e-9),
        divide: div,
    };
    if json {
        return print_json(&report);
    }
    println!("{}", diagram(&board));
    for (hole, n) in &report.divide {
        println!("  hole {hole}: {n}");
    }
    println!(
        "perft {depth}: {leaves} leaves in {seconds:.3} s ({:.1} M leaves/s)",
        report.leaves_per_second / 1e6
    );
    Ok(())
}
