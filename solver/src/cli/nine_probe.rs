//! `solver nine probe | play | start`: answers from the tablebases (moving
//! phase) and from the placement search over them (placement phase).

use super::duel::PolicyArgs;
use super::nine_tb::TableArgs;
use super::six::outcome_text;
use super::CliError;
use super::{parse_position, print_json, CliResult};
use mill::duel::games::Nine as NineGame;
use mill::probe::analysis::{table_mib, Analyst, SearchOptions};
use mill::probe::horizon::Horizon;
use mill::probe::nine::Tablebases;
use mill::rules::board::Nine;
use mill::rules::draw;
use mill::rules::notation::parse_move;
use mill::rules::position::{Color, Position};
use mill::search::{MoveOrder, PlacementSearch, SearchStats};
use serde_json::json;
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::time::Instant;

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
    #[command(flatten)]
    pub policy: PolicyArgs,
    /// Values when the game is a draw after N more turns (plies), this
    /// position's included, as OpenSpiel's 200-turn limit makes them
    /// (N = 200 − turn): an exact search over the moving-phase tables.
    #[arg(long, value_name = "N", conflicts_with = "batch")]
    pub turns_left: Option<u16>,
    /// With --turns-left: give up (exit 1) after expanding this many
    /// positions rather than answer inexactly.
    #[arg(long, value_name = "NODES", default_value_t = mill::probe::horizon::DEFAULT_BUDGET, requires = "turns_left")]
    pub budget: u64,
    /// Under --quiet-limit: plies already played without a removal or a
    /// placement before the position (the count; 0 right after one). The
    /// moves of --moves advance it.
    #[arg(
        long,
        value_name = "Q",
        default_value_t = 0,
        requires = "quiet_limit",
        conflicts_with = "batch"
    )]
    pub quiet_plies: u16,
}

/// Arguments of `solver nine play`.
#[derive(clap::Args, Debug)]
pub struct PlayArgs {
    #[command(flatten)]
    pub tables: TableArgs,
    #[command(flatten)]
    pub search: SearchArgs,
    #[command(flatten)]
    pub game: super::six::GameArgs,
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
    /// Prove the value by the alpha-beta search over the moving-phase tables
    /// even when placement tables hold it (then both must agree). Without
    /// placement tables the search always runs.
    #[arg(long)]
    pub search: bool,
    /// Search with a second move ordering: inside each class of moves
    /// (closings, blocks, open twos) a pseudo-random order seeded by SEED
    /// instead of history and mobility. Slower; the same value by other
    /// paths, to check a proof twice.
    #[arg(long, value_name = "SEED")]
    pub shuffle: Option<u64>,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub policy: PolicyArgs,
}

impl SearchArgs {
    /// The analyst's search options.
    fn options(&self) -> SearchOptions {
        let mut options = SearchOptions {
            hash_mib: self.hash_mib,
            ..SearchOptions::default()
        };
        if let Some(t) = self.threads {
            options.threads = usize::from(t);
        }
        options
    }
}

/// The move `policy` plays in `pos` after `quiet` quiet plies (the count
/// rule's count) when the tables hold the position and all its moves (the
/// moving phase, or placement sectors); `None` for the default policy, a
/// finished game or a position only the search answers.
fn policy_move(
    tb: &Tablebases,
    pos: &Position,
    quiet: u16,
    history: &[Position],
    policy: &PolicyArgs,
    rng: &mut mill::duel::ChaCha8Rng,
) -> Result<Option<mill::duel::Choice<mill::rules::position::Move>>, CliError> {
    if policy.is_default() || !tb.has_table(pos) {
        return Ok(None);
    }
    let mut game = NineGame::new(tb).from(*pos);
    if policy.policy == mill::duel::Policy::SectorValue {
        game = game.with_secval(&policy.malom)?;
    }
    Ok(policy.policy.pick_at(&game, pos, quiet, history, rng)?)
}

fn open(args: &TableArgs) -> Result<Tablebases, CliError> {
    Tablebases::open(&args.dir, args.rules()).map_err(CliError::from)
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
    let mut engine = Analyst::new(&tb, args.search.options());
    if let Some(file) = &args.batch {
        return batch(&mut engine, file);
    }
    let mut pos = super::parse_position(&args.position, Position::start(tb.rules()))?;
    let mut plies = args.quiet_plies;
    for text in args.moves.iter().flat_map(|m| m.split_whitespace()) {
        let m = parse_move::<Nine>(&pos, tb.rules(), text)
            .map_err(|e| format!("move `{text}`: {e}"))?;
        let restarts = m.removal().is_some() || m.from().is_none();
        plies = if restarts { 0 } else { plies.saturating_add(1) };
        pos = pos.apply(m);
    }
    if let Some(turns) = args.turns_left {
        return within(&args, &pos, turns);
    }
    let a = engine.analyse_at(&pos, plies)?;
    // Under the count rule, the tables without it (when the directory has
    // them) mark the cursed wins and blessed losses.
    let rules = tb.rules();
    let plain = super::six::plain_tables(rules, |r| {
        let plain = Tablebases::open(&args.tables.dir, r)?.in_memory_wdl();
        let a = Analyst::new(&plain, args.search.options()).analyse(&pos);
        a
    });
    let choice = policy_move(&tb, &pos, plies, &[], &args.policy, &mut args.policy.rng())?;
    let named = choice.map(|c| (args.policy.policy.to_string(), c.mv.to_string()));
    super::six::print_analysis(&a, plain.as_ref(), rules, args.json, named)?;
    if choice.is_none() && !args.json && !args.policy.is_default() && !a.moves.is_empty() {
        println!(
            "(the {} policy needs the tables of this position: placement positions need `generate --placement`)",
            args.policy.policy
        );
    }
    Ok(())
}

/// `solver nine probe --turns-left N`: every move's value when the game
/// is a draw after N more plies, next to the tables' value.
fn within(args: &ProbeArgs, pos: &Position, turns: u16) -> CliResult {
    if pos.placing() {
        return Err(CliError::input(
            "--turns-left needs a moving-phase position (no stones in hand)",
        ));
    }
    let tb = open(&args.tables)?.in_memory();
    let started = Instant::now();
    let w = Horizon::new(&tb)
        .with_budget(args.budget)
        .analyse(pos, turns)?;
    let seconds = started.elapsed().as_secs_f64();
    if args.json {
        let mut doc = w.to_json();
        doc["seconds"] = json!(seconds);
        return print_json(&doc);
    }
    print!("{}", draw::<Nine>(pos));
    println!("{pos}");
    println!(
        "{} to move, {turns} turns left: {} (tables: {}; {} positions searched in {seconds:.3} s)",
        color_name(pos.to_move),
        w.within,
        outcome_text(w.table.outcome(), w.table.distance()),
        w.nodes,
    );
    for m in &w.moves {
        println!(
            "  {:<10} {:<5} (tables: {})",
            m.mv.to_string(),
            m.within.as_str(),
            outcome_text(m.table.outcome(), m.table.distance())
        );
    }
    Ok(())
}

/// `solver nine probe --batch FILE`: one JSON line per input line.
fn batch(engine: &mut Analyst, file: &PathBuf) -> CliResult {
    let f = std::fs::File::open(file).map_err(CliError::file(file))?;
    let mut failed = 0;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    for (n, line) in std::io::BufReader::new(f).lines().enumerate() {
        let line = line.map_err(CliError::file(file))?;
        let text = line.trim();
        if text.is_empty() || text.starts_with('#') {
            continue;
        }
        let result = text
            .parse::<Position>()
            .map_err(|e| CliError::input(format!("bad position: {e}")))
            .and_then(|pos| engine.analyse(&pos).map_err(CliError::from));
        let record = match result {
            Ok(a) => {
                let mut j = a.to_json();
                j["best"] = a.best().map(|m| m.mv.to_string()).into();
                j
            }
            Err(e) => {
                failed += 1;
                json!({"position": text, "line": n + 1, "error": e.to_string()})
            }
        };
        writeln!(out, "{record}")?;
    }
    out.flush()?;
    if failed > 0 {
        return Err(CliError::Failed(format!(
            "{failed} lines could not be probed"
        )));
    }
    Ok(())
}

/// `solver nine play`: the human against the perfect player.
pub fn play(args: PlayArgs) -> CliResult {
    let tb = open(&args.tables)?.in_memory_wdl();
    let mut engine = Analyst::new(&tb, args.search.options());
    let policy = &args.game.policy;
    let mut rng = policy.rng();
    super::six::play_game::<Nine>(&args.game, tb.rules(), &mut |pos, quiet, history| {
        let best = match policy_move(&tb, pos, quiet, history, policy, &mut rng)? {
            Some(c) => mill::probe::analysis::MoveValue {
                mv: c.mv,
                value: c.value.outcome(),
                dtc: c.has_distance.then(|| c.value.distance()).flatten(),
            },
            // The moving phase read at the count (at a count of zero, and
            // without a count rule, what `best` answers).
            None if !pos.placing() => match engine.analyse_at(pos, quiet)?.best() {
                Some(b) => b,
                None => return Ok(None),
            },
            None => match engine.best(pos)? {
                Some(b) => b,
                None => return Ok(None),
            },
        };
        Ok(Some((best.mv, outcome_text(best.value, best.dtc))))
    })
}

/// The progress line of a long placement search (on standard error,
/// unless `quiet`), for `with_progress`.
pub(crate) fn search_progress(started: Instant, quiet: bool) -> impl FnMut(SearchStats) + Send {
    move |s| {
        if !quiet {
            eprintln!(
                "{:>8.1} s: {} nodes, {} probes, {} transpositions",
                started.elapsed().as_secs_f64(),
                s.nodes,
                s.probes,
                s.tt_entries
            );
        }
    }
}

/// `solver nine start`: the value of the empty board.
pub fn start(args: StartArgs) -> CliResult {
    let tb = open(&args.tables)?;
    let tb = if args.mapped { tb } else { tb.in_memory_wdl() };
    let pos = match &args.position {
        Some(text) => parse_position(std::slice::from_ref(text), Position::start(tb.rules()))?,
        None => Position::start(tb.rules()),
    };
    pos.validate::<Nine>(tb.rules())
        .map_err(|e| format!("illegal position: {e}"))?;
    let threads = args.threads.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        usize::from,
    );
    let quiet = args.json || args.quiet;
    let name = match &args.position {
        Some(_) => format!("{pos}"),
        None => "Nine Men's Morris start position".to_owned(),
    };
    let from_tables = if tb.has_table(&pos) {
        Some(tb.outcome(&pos)?)
    } else {
        None
    };
    if let (Some(value), false) = (from_tables, args.search) {
        let choice = policy_move(&tb, &pos, 0, &[], &args.policy, &mut args.policy.rng())?;
        if args.json {
            let mut doc = json!({
                "position": pos.to_string(), "value": value.as_str(), "dtc": null,
                "source": "tables",
            });
            if let Some(c) = choice {
                doc["choice"] =
                    json!({"policy": args.policy.policy.to_string(), "move": c.mv.to_string()});
            }
            return print_json(&doc);
        }
        println!(
            "{name}: {value} for {} (perfect play, from the tables; --search proves it by search)",
            color_name(pos.to_move)
        );
        if let Some(c) = choice {
            println!("The {} policy plays {}.", args.policy.policy, c.mv);
        }
        return Ok(());
    }
    let subspaces = Tablebases::reachable(&pos);
    tb.check_complete(&subspaces)?;
    let loading = Instant::now();
    if !quiet {
        eprintln!("loading the tables...");
    }
    tb.preload(&subspaces)?;
    let load_seconds = loading.elapsed().as_secs_f64();
    if !quiet {
        eprintln!("tables loaded in {load_seconds:.1} s; searching...");
    }
    let started = Instant::now();
    let order = args
        .shuffle
        .map_or(MoveOrder::Heuristic, MoveOrder::Shuffled);
    let mut search = PlacementSearch::with_table_mib(&tb, table_mib(&pos, args.hash_mib))
        .with_order(order)
        .with_threads(threads)?
        .with_progress(1 << 24, search_progress(started, quiet));
    let value = search.value(&pos)?;
    let s = search.stats();
    let seconds = started.elapsed().as_secs_f64();
    if let Some(stored) = from_tables.filter(|&t| t != value) {
        return Err(CliError::Failed(format!(
            "{name}: the search proves {value} but the tables say {stored}"
        )));
    }
    if args.json {
        return print_json(&json!({
            "position": pos.to_string(), "value": value.as_str(), "dtc": null, "nodes": s.nodes,
            "probes": s.probes, "tt_entries": s.tt_entries, "seconds": seconds,
            "threads": threads, "load_seconds": load_seconds, "source": "search",
            "tables": from_tables.map(|t| t.as_str()), "shuffle": args.shuffle,
        }));
    }
    println!(
        "{name}: {value} for {} (perfect play{})",
        color_name(pos.to_move),
        if from_tables.is_some() {
            "; the placement tables agree"
        } else {
            ""
        }
    );
    println!(
        "proof: {} nodes, {} tablebase probes, {} transposition entries, {seconds:.1} s on {threads} thread(s) (tables loaded in {load_seconds:.1} s before){}",
        s.nodes,
        s.probes,
        s.tt_entries,
        args.shuffle
            .map_or(String::new(), |seed| format!("; moves shuffled with seed {seed}"))
    );
    Ok(())
}
