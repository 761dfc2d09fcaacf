//! The verbs of a family board whose placement phase is searched, not
//! stored (Morabaraba): `start`, the value of the start position of a game
//! (or of any placement position) by the placement search over the
//! moving-phase tables held as two-bit outcomes
//! ([`mill::tables::outcomes`]), with the same search and move
//! orderings as `solver nine start`; and `play`, whose perfect player
//! reads the moving-phase tables (values with distances) and the placement
//! sectors where stored, and searches the other placements
//! ([`mill::probe::values::SearchedValues`]).

use super::nine_probe::search_progress;
use super::six::{play_with, side, GameArgs};
use super::CliError;
use super::{print_json, CliResult};
use mill::index::Indexing;
use mill::probe::analysis::MoveValue;
use mill::probe::values::{SearchedValues, TableFiles};
use mill::rules::board::Board;
use mill::rules::position::Position;
use mill::rules::variant::RuleSet;
use mill::rules::{format_position, move_text, parse_position};
use mill::search::{MoveOrder, PlacementSearch};
use mill::tables::outcomes::MovingOutcomes;
use serde_json::json;
use std::path::Path;
use std::time::Instant;

/// Options of a `start` verb.
#[derive(clap::Args, Debug, Clone)]
pub struct StartArgs {
    /// The game with N stones a side (the empty board, N each in hand);
    /// needs the tables of the subspaces with 3..=N stones a side
    /// (`generate --stones N`).
    #[arg(long, value_name = "N", default_value_t = 12,
          value_parser = clap::value_parser!(u8).range(3..=12))]
    pub stones: u8,
    /// A position to value instead of the start (board, side to move,
    /// hands: `docs/notation.md`).
    #[arg(long)]
    pub position: Option<String>,
    /// Also the value of every legal move (each searched on its own).
    #[arg(long)]
    pub moves: bool,
    /// Worker threads (default: one per core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Transposition table size in MiB (default: 64 up to 6 stones a side,
    /// 1024 above).
    #[arg(long, value_name = "MIB")]
    pub hash_mib: Option<u64>,
    /// Order the moves inside each class by a pseudo-random key seeded
    /// with SEED instead of history (a second proof along other paths).
    #[arg(long, value_name = "SEED")]
    pub shuffle: Option<u64>,
    /// No progress lines.
    #[arg(long)]
    pub quiet: bool,
}

/// Run the placement search of `args` over the tables of `dir`, written
/// under `rules` (the variant's own stones a side).
pub fn start<B: Board, I: Indexing>(
    name: &str,
    dir: &Path,
    rules: RuleSet,
    args: &StartArgs,
    json: bool,
) -> CliResult {
    if !dir.is_dir() {
        return Err(CliError::from(format!(
            "{}: no such tablebase directory",
            dir.display()
        )));
    }
    let game_rules = RuleSet {
        stones: args.stones,
        ..rules
    };
    let pos = match &args.position {
        Some(text) => {
            parse_position::<B>(text, game_rules).map_err(|e| format!("bad position: {e}"))?
        }
        None => Position::start(game_rules),
    };
    let quiet = json || args.quiet;
    let loading = Instant::now();
    if !quiet {
        eprintln!(
            "loading the moving-phase outcomes (3..{} stones a side)...",
            args.stones
        );
    }
    let tb = MovingOutcomes::<B, I>::load(dir, rules, args.stones, |_| {})?;
    let load_seconds = loading.elapsed().as_secs_f64();
    if !quiet {
        eprintln!(
            "loaded {:.1} MB in {load_seconds:.1} s; searching...",
            tb.bytes() as f64 / 1e6
        );
    }
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let order = args
        .shuffle
        .map_or(MoveOrder::Heuristic, MoveOrder::Shuffled);
    let started = Instant::now();
    let hash_mib = args
        .hash_mib
        .unwrap_or(if args.stones <= 6 { 64 } else { 1024 });
    let mut search = PlacementSearch::with_table_mib(&tb, hash_mib)
        .with_order(order)
        .with_threads(threads)?
        .with_progress(1 << 24, search_progress(started, quiet));
    let value = search.value(&pos)?;
    let moves = if args.moves {
        search.move_values(&pos)?
    } else {
        Vec::new()
    };
    let s = search.stats();
    let seconds = started.elapsed().as_secs_f64();
    let text = format_position::<B>(&pos);
    if json {
        let list: Vec<_> = moves
            .iter()
            .map(|&(mv, value)| {
                MoveValue {
                    mv,
                    value,
                    dtc: None,
                }
                .to_json::<B>()
            })
            .collect();
        return print_json(&json!({
            "variant": name, "stones": args.stones, "flying": rules.flying,
            "position": text, "value": value.as_str(), "dtc": null, "source": "search",
            "nodes": s.nodes, "probes": s.probes, "tt_entries": s.tt_entries,
            "seconds": seconds, "load_seconds": load_seconds, "threads": threads,
            "shuffle": args.shuffle, "moves": list,
        }));
    }
    let what = match &args.position {
        Some(_) => text,
        None => format!("{name}, {} stones each, start position", args.stones),
    };
    println!(
        "{what}: {value} for {} (perfect play, flying {})",
        side(pos.to_move),
        if rules.flying { "on" } else { "off" }
    );
    for (m, v) in &moves {
        println!("  {:<12} {v}", move_text::<B>(*m));
    }
    println!(
        "proof: {} nodes, {} table probes, {} transposition entries, {seconds:.1} s on {threads} thread(s) (tables loaded in {load_seconds:.1} s before){}",
        s.nodes,
        s.probes,
        s.tt_entries,
        match args.shuffle {
            Some(seed) => format!("; moves shuffled with seed {seed}"),
            None => String::new(),
        }
    );
    Ok(())
}

/// Play the `stones`-stone game in the terminal against the perfect
/// player over the tables of `dir` (written under `rules`): every value
/// from the files when the game's placement sectors are all stored
/// (`generate --placement`), else placements by the search.
pub fn play<B: Board, I: Indexing>(
    dir: &Path,
    rules: RuleSet,
    stones: u8,
    game: &GameArgs,
) -> CliResult {
    if !dir.is_dir() {
        return Err(CliError::from(format!(
            "{}: no such tablebase directory",
            dir.display()
        )));
    }
    let stored = TableFiles::<B, I>::new(dir, rules);
    let game_rules = RuleSet { stones, ..rules };
    if stored.has_placement(stones) {
        eprintln!("every position of the {stones}-stone game from the tables");
        return play_with::<B>(game, game_rules, &stored);
    }
    eprintln!("loading the moving-phase outcomes (3..{stones} stones a side)...");
    let tb = MovingOutcomes::<B, I>::load(dir, rules, stones, |_| {})?;
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let search = PlacementSearch::with_table_mib(&tb, if stones <= 6 { 64 } else { 1024 })
        .with_threads(threads)?;
    let values = SearchedValues::new(stored, search);
    play_with::<B>(game, tb.rules(), &values)
}
