//! `solver three` subcommands: solve the whole game, probe a position, play
//! the perfect player. One function per subcommand.

use super::duel::PolicyArgs;
use super::CliError;
use super::{print_json, CliResult};
use clap::Subcommand;
use mill::duel::games::Three;
use mill::games::three::solve::Solution;
use mill::games::three::{parse_move, report, Position};
use mill::rules::position::Color;
use serde_json::json;
use std::io::{BufRead, Write};
use std::time::Instant;
use tablebase::Value;

/// Arguments of `solver three`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    pub command: Command,
}

/// Subcommands of `solver three`.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Solve the whole game: the value of the empty board and of each first
    /// move, and totals of reachable positions by value.
    Solve {
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Draw a position and list its legal moves (`--svg FILE` also writes
    /// the board as an SVG picture, for papers and docs).
    Show {
        /// Position text, e.g. "W...B.... w 2 2"; the empty board when omitted.
        position: Vec<String>,
        /// Write the board picture to this SVG file.
        #[arg(long, value_name = "FILE")]
        svg: Option<std::path::PathBuf>,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Count the leaves of the game tree to DEPTH plies (a finished game is
    /// a leaf), with the count below each first move.
    Perft {
        /// Depth in plies.
        depth: u32,
        /// Position text; the empty board when omitted.
        position: Vec<String>,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// The value of the empty board and of every opening move (what
    /// `probe` says of the empty board).
    Start {
        /// Print JSON.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        policy: super::duel::PolicyArgs,
    },
    /// The value of a position and of each of its legal moves.
    Probe {
        /// Position text, e.g. "......... w 3 3" (quoted or as separate
        /// words); the empty board when omitted.
        position: Vec<String>,
        /// Moves to play from the position first, e.g. "b2 a1 c3".
        #[arg(long, default_value = "")]
        moves: String,
        /// Print JSON.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        policy: super::duel::PolicyArgs,
    },
    /// Play against the perfect player in the terminal (moves on stdin,
    /// `quit` to stop).
    Play {
        /// The colour you play.
        #[arg(long = "as", value_enum, default_value = "white")]
        side: Side,
        /// Start position text; the empty board when omitted.
        position: Vec<String>,
        /// Print one JSON object per ply instead of drawings.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        policy: super::duel::PolicyArgs,
    },
    /// The perfect player with a move-choice policy against a fallible
    /// opponent: N games from the empty board, both colours, in parallel;
    /// wins, draws, losses and the score with its 95 % interval.
    Duel(DuelCommand),
}

/// Options of `solver three duel`.
#[derive(clap::Args, Debug)]
pub struct DuelCommand {
    #[command(flatten)]
    pub duel: super::duel::DuelArgs,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// A colour on the command line.
#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub enum Side {
    /// White (moves first from the empty board).
    White,
    /// Black.
    Black,
}

/// Run a `solver three` subcommand.
pub fn run(args: Args) -> CliResult {
    match args.command {
        Command::Solve { json } => solve(json),
        Command::Show {
            position,
            svg,
            json,
        } => show(&position, svg.as_deref(), json),
        Command::Perft {
            depth,
            position,
            json,
        } => perft(depth, &position, json),
        Command::Start { json, policy } => probe(&[], "", json, &policy),
        Command::Probe {
            position,
            moves,
            json,
            policy,
        } => probe(&position, &moves, json, &policy),
        Command::Play {
            side,
            position,
            json,
            policy,
        } => play(side, &position, json, &policy),
        Command::Duel(d) => {
            let sol = solution()?;
            super::duel::run("Three Men's Morris", &Three(&sol), &d.duel, d.json)
        }
    }
}

fn solution() -> Result<Solution, CliError> {
    Ok(Solution::solve()?)
}

/// "win in 5", "draw", "loss in 0".
fn describe(v: Value) -> String {
    v.to_string()
}

/// `solver three solve`.
fn solve(json: bool) -> CliResult {
    let started = Instant::now();
    let sol = solution()?;
    let solve_ms = started.elapsed().as_secs_f64() * 1e3;
    if json {
        return print_json(&report::solve_json(&sol, solve_ms));
    }
    let start = Position::start();
    let value = sol.value(&start);
    let mut first = sol.moves(&start);
    first.sort_by_key(|&(m, _)| m.to);
    let totals = sol.reachable();
    println!(
        "Three Men's Morris solved in {solve_ms:.1} ms ({} symmetry classes indexed, {} levels).",
        sol.classes().len(),
        sol.levels()
    );
    print!("{}", start.draw());
    println!("Empty board, White to move: {}", describe(value));
    println!("White's first moves:");
    for (m, v) in &first {
        println!("  {m}  {}", describe(*v));
    }
    let (p, c) = (&totals.positions, &totals.classes);
    println!(
        "Reachable positions (board and side to move, from the side to move's view): \
         {} = {} wins + {} draws + {} losses",
        p.positions, p.wins, p.draws, p.losses
    );
    println!(
        "Reachable symmetry classes: {} = {} wins + {} draws + {} losses",
        c.positions, c.wins, c.draws, c.losses
    );
    Ok(())
}

/// `solver three perft`: the same report as the other boards' `perft`.
fn perft(depth: u32, words: &[String], json: bool) -> CliResult {
    let pos = super::parse_position(words, Position::start())?;
    let started = Instant::now();
    let split = pos.divide(depth);
    let total = if split.is_empty() {
        pos.perft(depth)
    } else {
        split.iter().map(|(_, n)| n).sum()
    };
    let seconds = started.elapsed().as_secs_f64();
    if json {
        let moves: serde_json::Map<String, serde_json::Value> = split
            .iter()
            .map(|(m, n)| (m.to_string(), json!(n)))
            .collect();
        return print_json(&json!({
            "position": pos.to_string(),
            "depth": depth,
            "leaves": total,
            "moves": moves,
            "seconds": seconds,
        }));
    }
    print!("{}", pos.draw());
    println!("{pos}");
    for (m, n) in &split {
        println!("{:<10} {n}", m.to_string());
    }
    println!("perft {depth}: {total} leaves ({seconds:.3} s)");
    Ok(())
}

/// `solver three show`.
fn show(words: &[String], svg: Option<&std::path::Path>, json: bool) -> CliResult {
    let pos = super::parse_position(words, Position::start())?;
    if let Some(file) = svg {
        super::write_file(file, &mill::rules::svg::three_svg(&pos))?;
    }
    let moves: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
    if json {
        return print_json(&json!({
            "position": pos.to_string(),
            "to_move": pos.to_move.name(),
            "finished": pos.finished(),
            "moves": moves,
        }));
    }
    print!("{}", pos.draw());
    println!("{pos}");
    if pos.finished() {
        println!("The game is over: {} has lost.", name(pos.to_move));
    } else {
        println!(
            "{} to move; legal moves: {}",
            name(pos.to_move),
            moves.join(" ")
        );
    }
    Ok(())
}

/// Play the moves of `list` (space-separated) from `pos`.
fn play_moves(mut pos: Position, list: &str) -> Result<Position, CliError> {
    for (i, text) in list.split_whitespace().enumerate() {
        let m = parse_move(&pos, text).map_err(|e| format!("move {} ({text}): {e}", i + 1))?;
        pos = pos.play(m);
    }
    Ok(pos)
}

/// `solver three probe`.
fn probe(words: &[String], moves: &str, json: bool, policy: &PolicyArgs) -> CliResult {
    let pos = play_moves(super::parse_position(words, Position::start())?, moves)?;
    let sol = solution()?;
    let value = sol.value(&pos);
    let list = sol.moves(&pos);
    let choice = if policy.is_default() {
        None
    } else {
        policy
            .policy
            .pick(&Three(&sol), &pos, &[], &mut policy.rng())?
            .map(|c| c.mv)
    };
    if json {
        let mut doc = report::probe_json(&sol, &pos);
        if let Some(m) = choice {
            doc["choice"] = json!({"policy": policy.policy.to_string(), "move": m.to_string()});
        }
        return print_json(&doc);
    }
    print!("{}", pos.draw());
    println!("{pos}");
    println!("{} to move: {}", name(pos.to_move), describe(value));
    if pos.finished() {
        println!("The game is over: {} has lost.", name(pos.to_move));
    }
    for (m, v) in &list {
        println!("  {m:<6} {}", describe(*v));
    }
    if let Some(m) = choice {
        println!("The {} policy plays {m}.", policy.policy);
    }
    Ok(())
}

fn name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// `solver three play`.
fn play(side: Side, words: &[String], json: bool, policy: &PolicyArgs) -> CliResult {
    let human = match side {
        Side::White => Color::White,
        Side::Black => Color::Black,
    };
    let sol = solution()?;
    let mut pos = super::parse_position(words, Position::start())?;
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    let report = |pos: &Position, last: Option<String>| -> CliResult {
        if json {
            let text = serde_json::to_string(&json!({
                "last_move": last,
                "position": pos.to_string(),
                "to_move": pos.to_move.name(),
                "value": sol.value(pos).outcome().as_str(),
                "plies": sol.value(pos).distance(),
            }))?;
            println!("{text}");
        } else {
            if let Some(m) = last {
                println!("{} played {m}", name(pos.to_move.other()));
            }
            print!("{}", pos.draw());
            println!(
                "{} to move ({} with perfect play)",
                name(pos.to_move),
                describe(sol.value(pos))
            );
        }
        Ok(())
    };
    report(&pos, None)?;
    let mut rng = policy.rng();
    // Positions since the last placement (for `ultra`).
    let mut history = vec![pos];
    while !pos.finished() {
        let m = if pos.to_move == human {
            if !json {
                print!("your move> ");
                std::io::stdout().flush()?;
            }
            let Some(line) = lines.next() else {
                return Ok(());
            };
            let line = line?;
            let line = line.trim();
            if line == "quit" {
                return Ok(());
            }
            match parse_move(&pos, line) {
                Ok(m) => m,
                Err(e) => {
                    if json {
                        println!("{}", json!({ "error": e.to_string() }));
                    } else {
                        println!("{e}");
                    }
                    continue;
                }
            }
        } else if policy.is_default() {
            sol.best_move(&pos).ok_or("no move in an unfinished game")?
        } else {
            policy
                .policy
                .pick(&Three(&sol), &pos, &history, &mut rng)?
                .ok_or("no move in an unfinished game")?
                .mv
        };
        if m.from.is_none() {
            history.clear();
        }
        pos = pos.play(m);
        history.push(pos);
        report(&pos, Some(m.to_string()))?;
    }
    if !json {
        println!("Game over: {} wins.", name(pos.to_move.other()));
    }
    Ok(())
}
