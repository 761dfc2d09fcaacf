//! `solver nine probe | play | start`: answers from the tablebases (moving
//! phase) and from the placement search over them (placement phase).

use super::nine_tb::TableArgs;
use super::{parse_position, print_json, CliResult};
use crate::morris::movegen::{apply, game_over};
use crate::morris::notation::{draw_nine, parse_move};
use crate::morris::placement::PlacementSearch;
use crate::morris::position::{Color, Move, Position};
use crate::morris::probe::Tablebases;
use serde_json::{json, Value as Json};
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::time::Instant;
use tablebase::{Outcome, Value};

/// Options of the placement search behind `probe` and `play`.
#[derive(clap::Args, Debug)]
pub struct SearchArgs {
    /// Transposition table of the placement search, at most this many MiB
    /// (allocated at the first placement position, smaller for late ones).
    #[arg(long, default_value_t = 1024)]
    pub hash_mib: u64,
    /// Placement search threads (default: all cores).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..))]
    pub threads: Option<u16>,
}

/// Arguments of `solver nine probe`.
#[derive(clap::Args, Debug)]
pub struct ProbeArgs {
    #[command(flatten)]
    pub tables: TableArgs,
    #[command(flatten)]
    pub search: SearchArgs,
    /// Position text (24 points in reading order, side, hands); the start
    /// position when omitted.
    pub position: Vec<String>,
    /// Moves played from the position first, e.g. "d6 d2 b4".
    #[arg(long)]
    pub moves: Option<String>,
    /// Probe every line of FILE (one position per line; blank lines and lines
    /// starting with `#` are skipped), print one JSON line per position.
    #[arg(long, conflicts_with_all = ["position", "moves"])]
    pub batch: Option<PathBuf>,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `solver nine play`.
#[derive(clap::Args, Debug)]
pub struct PlayArgs {
    #[command(flatten)]
    pub tables: TableArgs,
    #[command(flatten)]
    pub search: SearchArgs,
    /// The colour you play.
    #[arg(long, value_enum, default_value = "white")]
    pub human: Side,
    /// Starting position; the start position when omitted.
    pub position: Vec<String>,
}

/// A colour on the command line.
#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub enum Side {
    /// White.
    White,
    /// Black.
    Black,
}

/// Arguments of `solver nine start`.
#[derive(clap::Args, Debug)]
pub struct StartArgs {
    #[command(flatten)]
    pub tables: TableArgs,
    /// Prove this position instead of the empty board (a later placement
    /// position, or "........................ w 8 8" for the game with
    /// eight stones each).
    #[arg(long, value_name = "POSITION")]
    pub position: Option<String>,
    /// Search threads (default: all cores).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..))]
    pub threads: Option<u16>,
    /// No progress lines on stderr (also off with --json).
    #[arg(long)]
    pub quiet: bool,
    /// Transposition table size in MiB (at most; smaller for late positions).
    #[arg(long, default_value_t = 1024)]
    pub hash_mib: u64,
    /// Probe through the memory-mapped block cache instead of loading each
    /// table whole into memory (uses far less memory, probes far slower).
    #[arg(long)]
    pub mapped: bool,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// The answer about one position.
struct Answer {
    value: Outcome,
    dtc: Option<u16>,
    moves: Vec<(Move, Outcome, Option<u16>)>,
}

fn split(v: Value) -> (Outcome, Option<u16>) {
    (v.outcome(), v.distance())
}

/// Transposition table size for searching `pos`: `2^plies` MiB for the
/// plies of placement left, at most `max` (a small game needs a small
/// table, and little time to allocate it).
fn table_mib(pos: &Position, max: u64) -> u64 {
    let plies = u32::from(pos.hand[0] + pos.hand[1]);
    max.min(1 << plies.min(40))
}

/// Answers positions: tablebase probes in the moving phase, the placement
/// search (created at the first placement position, its transposition
/// table kept between positions) before.
struct Engine<'a> {
    tb: &'a Tablebases,
    options: &'a SearchArgs,
    search: Option<PlacementSearch<'a>>,
}

impl<'a> Engine<'a> {
    fn new(tb: &'a Tablebases, options: &'a SearchArgs) -> Engine<'a> {
        Engine {
            tb,
            options,
            search: None,
        }
    }

    /// The placement search, sized for `pos` when first needed (a late
    /// placement position does not need the full table).
    fn placement(&mut self, pos: &Position) -> Result<&mut PlacementSearch<'a>, String> {
        if self.search.is_none() {
            let mib = table_mib(pos, self.options.hash_mib);
            let threads = self.options.threads.map_or_else(
                || std::thread::available_parallelism().map_or(1, |n| n.get()),
                usize::from,
            );
            self.search =
                Some(PlacementSearch::with_table_mib(self.tb, mib).with_threads(threads)?);
        }
        Ok(self.search.as_mut().expect("just created"))
    }

    /// Value and move values of a position.
    fn answer(&mut self, pos: &Position) -> Result<Answer, String> {
        let tb = self.tb;
        pos.validate()
            .map_err(|e| format!("illegal position: {e}"))?;
        if game_over(pos, tb.rules()).is_some() {
            return Ok(Answer {
                value: Outcome::Loss,
                dtc: Some(0),
                moves: Vec::new(),
            });
        }
        if pos.placing() {
            let moves = self
                .placement(pos)?
                .move_values(pos)
                .map_err(|e| e.to_string())?;
            let value = moves.first().map_or(Outcome::Loss, |m| m.1);
            return Ok(Answer {
                value,
                dtc: None,
                moves: moves.into_iter().map(|(m, o)| (m, o, None)).collect(),
            });
        }
        let (value, dtc) = split(tb.probe(pos).map_err(|e| e.to_string())?);
        let moves = tb
            .best_moves(pos)
            .map_err(|e| e.to_string())?
            .into_iter()
            .map(|(m, v)| {
                let (o, d) = split(v);
                (m, o, d)
            })
            .collect();
        Ok(Answer { value, dtc, moves })
    }

    /// The perfect player's move and its value (distance in the moving phase).
    fn best(&mut self, pos: &Position) -> Result<Option<(Move, Outcome, Option<u16>)>, String> {
        if pos.placing() {
            let best = self
                .placement(pos)?
                .best_move(pos)
                .map_err(|e| e.to_string())?;
            return Ok(best.map(|(m, o)| (m, o, None)));
        }
        Ok(self.answer(pos)?.moves.first().copied())
    }
}

fn answer_json(pos: &Position, a: &Answer) -> Json {
    json!({
        "position": pos.to_string(),
        "value": a.value.as_str(),
        "dtc": a.dtc,
        "moves": a.moves.iter().map(|(m, o, d)| json!({"move": m.to_string(), "value": o.as_str(), "dtc": d})).collect::<Vec<_>>(),
    })
}

fn describe(o: Outcome, d: Option<u16>) -> String {
    match d {
        Some(d) if o != Outcome::Draw => format!("{o} in {d}"),
        _ => o.to_string(),
    }
}

fn open(args: &TableArgs) -> Result<Tablebases, String> {
    Tablebases::open(&args.dir, args.rules()).map_err(|e| e.to_string())
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// `solver nine probe`.
pub fn probe(args: ProbeArgs) -> CliResult {
    let tb = open(&args.tables)?.in_memory_wdl();
    let mut engine = Engine::new(&tb, &args.search);
    if let Some(file) = &args.batch {
        return batch(&mut engine, file);
    }
    let mut pos = super::parse_position(&args.position, Position::start())?;
    for text in args.moves.iter().flat_map(|m| m.split_whitespace()) {
        let m = parse_move(&pos, tb.rules(), text).map_err(|e| format!("move `{text}`: {e}"))?;
        pos = apply(&pos, m);
    }
    let a = engine.answer(&pos)?;
    if args.json {
        return print_json(&answer_json(&pos, &a));
    }
    print!("{}", draw_nine(&pos));
    println!("{pos}");
    println!(
        "{} to move: {}{}",
        color_name(pos.to_move),
        describe(a.value, a.dtc),
        if pos.placing() {
            " (placement search)"
        } else {
            " (distance to conversion in plies)"
        }
    );
    for (m, o, d) in &a.moves {
        println!("  {:<10} {}", m.to_string(), describe(*o, *d));
    }
    Ok(())
}

/// `solver nine probe --batch FILE`: one JSON line per input line.
fn batch(engine: &mut Engine, file: &PathBuf) -> CliResult {
    let f = std::fs::File::open(file).map_err(|e| format!("{}: {e}", file.display()))?;
    let mut failed = 0;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    for (n, line) in std::io::BufReader::new(f).lines().enumerate() {
        let line = line.map_err(|e| format!("{}: {e}", file.display()))?;
        let text = line.trim();
        if text.is_empty() || text.starts_with('#') {
            continue;
        }
        let result = text
            .parse::<Position>()
            .map_err(|e| format!("bad position: {e}"))
            .and_then(|pos| engine.answer(&pos).map(|a| (pos, a)));
        let record = match result {
            Ok((pos, a)) => {
                let mut j = answer_json(&pos, &a);
                j["best"] = a.moves.first().map(|m| m.0.to_string()).into();
                j
            }
            Err(e) => {
                failed += 1;
                json!({"position": text, "line": n + 1, "error": e})
            }
        };
        writeln!(out, "{record}").map_err(|e| e.to_string())?;
    }
    out.flush().map_err(|e| e.to_string())?;
    if failed > 0 {
        return Err(format!("{failed} lines could not be probed"));
    }
    Ok(())
}

/// `solver nine play`: the human against the perfect player.
pub fn play(args: PlayArgs) -> CliResult {
    let tb = open(&args.tables)?.in_memory_wdl();
    let mut engine = Engine::new(&tb, &args.search);
    let mut pos = super::parse_position(&args.position, Position::start())?;
    pos.validate()
        .map_err(|e| format!("illegal position: {e}"))?;
    let human = match args.human {
        Side::White => Color::White,
        Side::Black => Color::Black,
    };
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    loop {
        print!("{}", draw_nine(&pos));
        println!("{pos}");
        if let Some(over) = game_over(&pos, tb.rules()) {
            println!(
                "{} has {} and loses; {} wins.",
                color_name(pos.to_move),
                over.describe(),
                color_name(pos.to_move.other())
            );
            return Ok(());
        }
        if pos.to_move == human {
            print!("your move ({}), or `quit`: ", color_name(human));
            std::io::stdout().flush().map_err(|e| e.to_string())?;
            let Some(line) = lines.next() else {
                println!();
                return Ok(());
            };
            let line = line.map_err(|e| e.to_string())?;
            let text = line.trim();
            if text == "quit" || text == "q" {
                return Ok(());
            }
            match parse_move(&pos, tb.rules(), text) {
                Ok(m) => pos = apply(&pos, m),
                Err(e) => println!("{e}"),
            }
        } else {
            let Some((m, o, d)) = engine.best(&pos)? else {
                return Err("no legal move for the engine".into());
            };
            println!(
                "perfect player ({}) plays {m}: {}",
                color_name(pos.to_move),
                describe(o, d)
            );
            pos = apply(&pos, m);
        }
    }
}

/// `solver nine start`: the value of the empty board.
pub fn start(args: StartArgs) -> CliResult {
    let tb = open(&args.tables)?;
    let tb = if args.mapped { tb } else { tb.in_memory_wdl() };
    let pos = match &args.position {
        Some(text) => parse_position(std::slice::from_ref(text), Position::start())?,
        None => Position::start(),
    };
    pos.validate()
        .map_err(|e| format!("illegal position: {e}"))?;
    let threads = args.threads.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        usize::from,
    );
    let quiet = args.json || args.quiet;
    let subspaces = Tablebases::reachable(&pos);
    tb.check_complete(&subspaces).map_err(|e| e.to_string())?;
    let loading = Instant::now();
    if !quiet {
        eprintln!("loading the tables...");
    }
    tb.preload(&subspaces).map_err(|e| e.to_string())?;
    let load_seconds = loading.elapsed().as_secs_f64();
    if !quiet {
        eprintln!("tables loaded in {load_seconds:.1} s; searching...");
    }
    let started = Instant::now();
    let mut search = PlacementSearch::with_table_mib(&tb, table_mib(&pos, args.hash_mib))
        .with_threads(threads)?
        .with_progress(1 << 24, move |s| {
            if !quiet {
                eprintln!(
                    "{:>8.1} s: {} nodes, {} probes, {} transpositions",
                    started.elapsed().as_secs_f64(),
                    s.nodes,
                    s.probes,
                    s.tt_entries
                );
            }
        });
    let value = search.value(&pos).map_err(|e| e.to_string())?;
    let s = search.stats();
    let seconds = started.elapsed().as_secs_f64();
    if args.json {
        return print_json(&json!({
            "position": pos.to_string(), "value": value.as_str(), "nodes": s.nodes,
            "probes": s.probes, "tt_entries": s.tt_entries, "seconds": seconds,
            "threads": threads, "load_seconds": load_seconds,
        }));
    }
    if args.position.is_some() {
        println!(
            "{pos}: {value} for {} (perfect play)",
            color_name(pos.to_move)
        );
    } else {
        println!("Nine Men's Morris start position: {value} for White (perfect play)");
    }
    println!(
        "proof: {} nodes, {} tablebase probes, {} transposition entries, {seconds:.1} s on {threads} thread(s) (tables loaded in {load_seconds:.1} s before)",
        s.nodes, s.probes, s.tt_entries
    );
    Ok(())
}
