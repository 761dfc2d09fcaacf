//! `solver nine` subcommands: one function per subcommand.

use super::{print_json, CliResult};
use clap::Subcommand;
use mill::rules::board::Nine;
use mill::rules::notation::move_order;
use mill::rules::position::{Color, Position};
use mill::rules::variant::RuleSet;
use mill::rules::{divide, draw, ending, legal_moves, perft};
use serde_json::json;
use std::time::Instant;

/// Arguments of `solver nine`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    pub command: Command,
}

/// Subcommands of `solver nine`.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Draw a position, its side to move and hands, and list its legal moves.
    Show {
        /// Position text, e.g. "........................ w 9 9" (quoted or as
        /// separate words); the start position when omitted.
        position: Vec<String>,
        /// Play without flying (a side with 3 stones slides like any other).
        #[arg(long)]
        no_flying: bool,
        /// Also write the board as an SVG picture to this file (for papers
        /// and docs; the same drawing as the web board).
        #[arg(long, value_name = "FILE")]
        svg: Option<std::path::PathBuf>,
        /// Print JSON instead of the drawing.
        #[arg(long)]
        json: bool,
    },
    /// Count the leaves of the game tree to DEPTH plies (a finished game is a
    /// leaf), with the count below each first move.
    Perft {
        /// Depth in plies (a move with its removal is one ply).
        depth: u32,
        /// Position text; the start position when omitted.
        position: Vec<String>,
        /// Play without flying.
        #[arg(long)]
        no_flying: bool,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Build the moving-phase tablebases (resumable: complete files are kept).
    Generate(super::nine_tb::GenerateArgs),
    /// Per-subspace counts of the tablebases in a directory.
    Stats(super::nine_tb::StatsArgs),
    /// The table graph of `generate` with the same size options: one job
    /// per subspace pair and placement sector, its inputs, files,
    /// estimated memory and CPU (`--json` for the Snakemake workflow,
    /// which runs each job as `generate --only KEY`).
    Plan(super::nine_tb::PlanArgs),
    /// Recompute every stored value from its successors and report mismatches.
    Verify(super::nine_tb::VerifyArgs),
    /// Value, distance to conversion and the value of every move of a
    /// position (placement positions through the placement search).
    Probe(super::nine_probe::ProbeArgs),
    /// Play against the perfect player in the terminal.
    Play(super::nine_probe::PlayArgs),
    /// Prove the value of the start position (needs all 49 subspaces), or
    /// of any position (needs the subspaces it can reach).
    Start(super::nine_probe::StartArgs),
    /// Compare every position of Malom's sector files in a directory with
    /// our tables and print the counts of agreement.
    MalomCompare(super::nine_malom::MalomArgs),
    /// The perfect player with a move-choice policy against a fallible
    /// opponent: N games from the start, both colours, in parallel; wins,
    /// draws, losses and the score with its 95 % interval. Needs every
    /// table of the game (`generate --placement`).
    Duel(NineDuelArgs),
}

/// Arguments of `solver nine duel`.
#[derive(clap::Args, Debug)]
pub struct NineDuelArgs {
    #[command(flatten)]
    pub tables: super::nine_tb::TableArgs,
    #[command(flatten)]
    pub duel: super::duel::DuelArgs,
    /// Play the game with K stones a side (from `........................ w K K`;
    /// its tables come from `generate --stones K --placement`).
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u8).range(3..=9))]
    pub stones: Option<u8>,
    /// Directory of Malom's `std.secval` (for `--policy secval`).
    #[arg(long, value_name = "DIR", default_value = "../shared/data/malom")]
    pub malom: std::path::PathBuf,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// Run a `solver nine` subcommand.
pub fn run(args: Args) -> CliResult {
    match args.command {
        Command::Show {
            position,
            no_flying,
            svg,
            json,
        } => show(&position, rules(no_flying), svg.as_deref(), json),
        Command::Perft {
            depth,
            position,
            no_flying,
            json,
        } => run_perft(depth, &position, rules(no_flying), json),
        Command::Generate(args) => super::nine_tb::generate(args),
        Command::MalomCompare(args) => super::nine_malom::malom_compare(args),
        Command::Stats(args) => super::nine_tb::stats(args),
        Command::Plan(args) => super::nine_tb::plan(args),
        Command::Verify(args) => super::nine_tb::verify(args),
        Command::Probe(args) => super::nine_probe::probe(args),
        Command::Play(args) => super::nine_probe::play(args),
        Command::Start(args) => super::nine_probe::start(args),
        Command::Duel(args) => duel(&args),
    }
}

/// `solver nine duel`.
fn duel(args: &NineDuelArgs) -> CliResult {
    let tb = mill::probe::nine::Tablebases::open(&args.tables.dir, args.tables.rules())?;
    let mut start = Position::start(tb.rules());
    if let Some(k) = args.stones {
        start.hand = [k, k];
    }
    if !tb.has_table(&start) {
        return Err(super::CliError::Failed(format!(
            "{} has no placement tables: a duel from the start needs every table of the game \
             (`solver nine generate --placement --dir {}{}`)",
            args.tables.dir.display(),
            args.tables.dir.display(),
            args.stones
                .map_or(String::new(), |k| format!(" --stones {k}")),
        )));
    }
    let mut game = mill::duel::games::Nine::new(&tb).from(start);
    if args.duel.policy == mill::duel::Policy::SectorValue {
        game = game.with_secval(&args.malom)?;
    }
    let name = format!(
        "nine ({} stones, flying {})",
        start.hand[0],
        if args.tables.rules().flying {
            "on"
        } else {
            "off"
        }
    );
    super::duel::run(&name, &game, &args.duel, args.json)
}

fn rules(no_flying: bool) -> RuleSet {
    RuleSet::nine(!no_flying)
}

fn capitalised(color: Color) -> &'static str {
    match color {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// `solver nine show`.
fn show(words: &[String], rules: RuleSet, svg: Option<&std::path::Path>, json: bool) -> CliResult {
    let pos = super::parse_position(words, Position::start(rules))?;
    if let Some(file) = svg {
        super::write_file(file, &mill::rules::svg::nine_svg(&pos))?;
    }
    if json {
        return print_json(&mill::games::nine::report::show_json(&pos, rules));
    }
    let mut moves = legal_moves::<Nine>(&pos, rules);
    moves.sort_by_key(move_order);
    let moves: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
    let over = ending::<Nine>(&pos, rules);
    let (canon, op) = pos.canonical::<Nine>();
    print!("{}", draw::<Nine>(&pos));
    println!("{pos}");
    println!(
        "{} to move; in hand: White {}, Black {}; on board: White {}, Black {}; flying {}",
        capitalised(pos.to_move),
        pos.hand[0],
        pos.hand[1],
        pos.stones[0].count_ones(),
        pos.stones[1].count_ones(),
        if rules.flying { "on" } else { "off" },
    );
    println!("Canonical form (symmetry {op} of 16): {canon}");
    match over {
        Some(o) => println!(
            "Game over: {} has {} and loses.",
            capitalised(pos.to_move),
            o.describe()
        ),
        None => println!("{} legal moves: {}", moves.len(), moves.join(" ")),
    }
    Ok(())
}

/// `solver nine perft`.
fn run_perft(depth: u32, words: &[String], rules: RuleSet, json: bool) -> CliResult {
    let pos = super::parse_position(words, Position::start(rules))?;
    let started = Instant::now();
    let mut split = divide::<Nine>(&pos, rules, depth);
    split.sort_by_key(|(m, _)| move_order(m));
    let total = if split.is_empty() {
        perft::<Nine>(&pos, rules, depth)
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
            "flying": rules.flying,
            "leaves": total,
            "moves": moves,
            "seconds": seconds,
        }));
    }
    print!("{}", draw::<Nine>(&pos));
    println!("{pos}");
    for (m, n) in &split {
        println!("{m:<10} {n}");
    }
    println!("perft {depth}: {total} leaves ({seconds:.3} s)");
    Ok(())
}
