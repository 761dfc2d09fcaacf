//! `solver toguz generate | probe | stats | verify`: the endgame share tables.

use super::nine_tb::with_threads;
use super::progress::Progress;
use super::CliError;
use super::{print_json, CliResult};
use serde_json::json;
use std::path::PathBuf;
use toguz::egtb::check::{check_layer, CheckReport};
use toguz::egtb::database::{self, pair_positions, positions_up_to, GenerateObserver, PairMemory};
use toguz::egtb::index::{Layer, Tuzdyks, MAX_STONES};
use toguz::egtb::Tables;
use toguz::notation::diagram;
use toguz::Board;

/// Where the tables are.
#[derive(clap::Args, Debug, Clone)]
pub struct DirArgs {
    /// Table directory.
    #[arg(long, default_value = "toguz-tables")]
    pub dir: PathBuf,
}

/// Arguments of `solver toguz generate`.
#[derive(clap::Args, Debug)]
pub struct GenerateArgs {
    #[command(flatten)]
    pub tables: DirArgs,
    /// Every position with at most N stones on the board (0..=15).
    #[arg(long, value_parser = clap::value_parser!(u8).range(0..=MAX_STONES as i64))]
    pub max_stones: u8,
    /// Worker threads (default: one per core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// No progress bar or log lines.
    #[arg(long)]
    pub quiet: bool,
    #[command(flatten)]
    pub only: super::plan::OnlyArgs,
}

/// Arguments of `solver toguz plan`.
#[derive(clap::Args, Debug)]
pub struct PlanArgs {
    /// Every position with at most N stones on the board (0..=15).
    #[arg(long, value_parser = clap::value_parser!(u8).range(0..=MAX_STONES as i64))]
    pub max_stones: u8,
    #[command(flatten)]
    pub format: super::plan::PlanFormat,
}

/// `solver toguz plan`: one job per stone count.
pub fn plan(args: PlanArgs) -> CliResult {
    let plan = toguz::egtb::plan::plan(args.max_stones);
    let options = format!("--max-stones {}", args.max_stones);
    super::plan::print(
        "toguz",
        &options,
        &plan,
        args.format.json,
        &args.format.progress,
    )
}

/// Arguments of `solver toguz probe`.
#[derive(clap::Args, Debug)]
pub struct ProbeArgs {
    /// Position (text format of docs/toguz.md; quote it or pass its four fields).
    #[arg(required = true, num_args = 1..)]
    pub position: Vec<String>,
    #[command(flatten)]
    pub tables: DirArgs,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `solver toguz stats`.
#[derive(clap::Args, Debug)]
pub struct StatsArgs {
    #[command(flatten)]
    pub tables: DirArgs,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `solver toguz verify`.
#[derive(clap::Args, Debug)]
pub struct VerifyArgs {
    #[command(flatten)]
    pub tables: DirArgs,
    /// Check the layers with at most N stones (default: all in the directory).
    #[arg(long)]
    pub max_stones: Option<u8>,
    /// Check the layers with at least N stones.
    #[arg(long, default_value_t = 0)]
    pub min_stones: u8,
    /// Check about N positions of each table (evenly spaced) instead of all.
    #[arg(long, value_name = "N")]
    pub sample: Option<u64>,
    /// Node budget of the exact solver per result.
    #[arg(long, default_value_t = 200_000)]
    pub budget: u64,
    /// Worker threads (default: one per core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

fn pair_name(l: Layer) -> String {
    let t = l.tuzdyks;
    format!("{} stones, tuzdyks {}{}", l.stones, t.mover, t.opponent)
}

impl GenerateObserver for Progress {
    fn skipped(&self, pair: Layer) {
        self.advance_overall(pair_positions(pair));
    }

    fn solved(&self, pair: Layer, positions: u64, seconds: f64, memory: PairMemory) {
        if pair.stones >= 6 {
            let mib = |b: usize| b as f64 / (1 << 20) as f64;
            self.log(&format!(
                "{}: {positions} positions in {seconds:.1} s ({:.2} M/s, move graph {:.0} MiB, lower tables {:.0} MiB)",
                pair_name(pair),
                positions as f64 / seconds.max(1e-9) / 1e6,
                mib(memory.graph),
                mib(memory.lower)
            ));
        }
        self.advance_overall(positions);
    }
}

/// `solver toguz generate`.
pub fn generate(args: GenerateArgs) -> CliResult {
    if args.threads == Some(0) {
        return Err(CliError::from("--threads must be at least 1"));
    }
    let dir = &args.tables.dir;
    if dir.exists() && !dir.is_dir() {
        return Err(CliError::from(format!(
            "{}: not a directory",
            dir.display()
        )));
    }
    if let Some(key) = &args.only.only {
        let plan = toguz::egtb::plan::plan(args.max_stones);
        let job = super::plan::ready(&plan, key, dir)?;
        let progress = Progress::new(args.quiet, job.slots, "positions");
        let result = with_threads(args.threads, || {
            database::generate_stones(dir, job.id, &progress)
        })?;
        progress.done();
        return Ok(result?);
    }
    let progress = Progress::new(args.quiet, positions_up_to(args.max_stones), "positions");
    let start = std::time::Instant::now();
    let result = with_threads(args.threads, || {
        database::generate(dir, args.max_stones, &progress)
    })?;
    progress.done();
    result?;
    if !args.quiet {
        eprintln!(
            "share tables for up to {} stones are complete in {} ({:.1} s)",
            args.max_stones,
            dir.display(),
            start.elapsed().as_secs_f64()
        );
    }
    Ok(())
}

/// `solver toguz probe`.
pub fn probe(args: ProbeArgs) -> CliResult {
    let board: Board = args
        .position
        .join(" ")
        .parse()
        .map_err(|e| format!("position: {e}"))?;
    let tables = Tables::open(&args.tables.dir)?;
    let share = tables.share(&board)?;
    let Some(share) = share else {
        return Err(CliError::from(format!(
            "{} stones on the board; the tables in {} hold at most {}",
            board.stones_on_board(),
            args.tables.dir.display(),
            tables.max_stones()
        )));
    };
    let result = tables.result(&board)?;
    let me = board.side.index();
    // Each move's result and shares, from the mover's point of view.
    let mut moves = Vec::new();
    for m in (0..9u8).filter(|&m| board.is_legal(m)) {
        let child = board.after(m);
        let r = tables.result(&child)?;
        let s = tables.share(&child)?;
        let gained = child.kazan[me] - board.kazan[me];
        let given = child.kazan[1 - me] - board.kazan[1 - me];
        moves.push(json!({
            "hole": m + 1,
            "result": r.map(|r| outcome(r).flip().as_str()),
            "mover_secures": s.map(|s| gained + s.opponent),
            "opponent_secures": s.map(|s| given + s.mover),
        }));
    }
    let result_text = result.map(outcome);
    if args.json {
        return print_json(&json!({
            "position": board.to_string(),
            "stones": share.stones,
            "mover_secures": share.mover,
            "opponent_secures": share.opponent,
            "result": result_text.map(|r| r.as_str()),
            "moves": moves,
        }));
    }
    println!("{}", diagram(&board));
    println!(
        "{} stones on the board: the side to move secures {}, the opponent {}{}",
        share.stones,
        share.mover,
        share.opponent,
        if share.mover + share.opponent < share.stones {
            format!(
                " ({} can circulate for ever)",
                share.stones - share.mover - share.opponent
            )
        } else {
            String::new()
        }
    );
    if let Some(r) = result_text {
        println!("result for the side to move: {}", r.as_str());
    }
    for m in &moves {
        println!(
            "  hole {}: {} (mover secures {}, opponent {})",
            m["hole"],
            m["result"].as_str().unwrap_or("?"),
            m["mover_secures"],
            m["opponent_secures"]
        );
    }
    Ok(())
}

/// `solver toguz stats`.
pub fn stats(args: StatsArgs) -> CliResult {
    let tables = Tables::open(&args.tables.dir)?;
    let found = database::scan(&args.tables.dir)?;
    let mut rows = Vec::new();
    for stones in 0..=tables.max_stones() {
        let (mut positions, mut bytes, mut files) = (0u64, 0u64, 0u32);
        // Positions by what the two sides secure together: all stones, or
        // fewer (some circulate for ever).
        let mut open_ended = 0u64;
        for tuzdyks in Tuzdyks::all() {
            let layer = Layer { stones, tuzdyks };
            let t = &found[&layer];
            positions += t.header().positions;
            bytes += t.bytes();
            files += 1;
            let values = database::load(t)?;
            open_ended += values
                .iter()
                .filter(|&&b| {
                    let (m, o) = toguz::egtb::graph::unpack(b);
                    m + o < stones
                })
                .count() as u64;
        }
        rows.push(
            json!({"stones": stones, "tables": files, "positions": positions,
            "not_all_secured": open_ended, "bytes": bytes}),
        );
    }
    if args.json {
        return print_json(&json!({"dir": args.tables.dir.display().to_string(),
            "max_stones": tables.max_stones(), "layers": rows}));
    }
    println!(
        "{:>6} {:>6} {:>13} {:>16} {:>13}",
        "stones", "tables", "positions", "not all secured", "bytes"
    );
    let (mut p, mut o, mut b) = (0u64, 0u64, 0u64);
    for r in &rows {
        let g = |k: &str| r[k].as_u64().unwrap_or(0);
        p += g("positions");
        o += g("not_all_secured");
        b += g("bytes");
        println!(
            "{:>6} {:>6} {:>13} {:>16} {:>13}",
            g("stones"),
            g("tables"),
            g("positions"),
            g("not_all_secured"),
            g("bytes")
        );
    }
    println!("{:>6} {:>6} {:>13} {:>16} {:>13}", "all", "", p, o, b);
    Ok(())
}

/// `solver toguz verify`.
pub fn verify(args: VerifyArgs) -> CliResult {
    let tables = Tables::open(&args.tables.dir)?;
    let max = args.max_stones.unwrap_or(tables.max_stones());
    if max > tables.max_stones() {
        return Err(CliError::from(format!(
            "--max-stones {max}: the tables in {} hold at most {}",
            args.tables.dir.display(),
            tables.max_stones()
        )));
    }
    let below = positions_up_to(args.min_stones.max(1) - 1) * u64::from(args.min_stones > 0);
    let progress = Progress::new(args.quiet, positions_up_to(max) - below, "positions");
    let mut total = CheckReport::default();
    let mut layers = Vec::new();
    let start = std::time::Instant::now();
    for stones in args.min_stones..=max {
        let mut row = CheckReport::default();
        for tuzdyks in Tuzdyks::all() {
            let layer = Layer { stones, tuzdyks };
            let r = with_threads(args.threads, || {
                let stride = args.sample.map_or(1, |n| layer.size() / n.max(1));
                check_layer(&tables, layer, args.budget, stride, &|n| {
                    progress.advance_overall(n)
                })
            })??;
            row.add(r);
        }
        progress.log(&format!(
            "{stones} stones: {} positions, {} results compared, {} proved equal, {} unproved draws, {} unproved wins/losses, {} mismatches",
            row.positions, row.compared, row.agreed, row.unproved_draws, row.unproved_decisive, row.mismatch_count
        ));
        layers.push(json!({"stones": stones, "report": row.clone()}));
        total.add(row);
    }
    progress.done();
    let seconds = start.elapsed().as_secs_f64();
    if args.json {
        print_json(&json!({"layers": layers, "total": total, "seconds": seconds}))?;
    } else {
        for (pos, t, s) in &total.mismatches {
            println!("{pos}: tables say {t}, the solver {s}");
        }
        for pos in &total.unproved_examples {
            println!("{pos}: the solver proved nothing within its budget (tables: win or loss)");
        }
        println!(
            "{} positions, {} results: {} proved equal, {} unproved (tables: draw), {} unproved (tables: win/loss), {} mismatches ({seconds:.1} s)",
            total.positions,
            total.compared,
            total.agreed,
            total.unproved_draws,
            total.unproved_decisive,
            total.mismatch_count
        );
    }
    if total.mismatch_count > 0 {
        return Err(CliError::Failed(format!(
            "{} results disagree with the exact solver",
            total.mismatch_count
        )));
    }
    Ok(())
}

/// A game result as an outcome (win / draw / loss, with `flip`).
fn outcome(r: toguz::endgame::GameResult) -> tablebase::Outcome {
    use toguz::endgame::GameResult;
    match r {
        GameResult::Win => tablebase::Outcome::Win,
        GameResult::Draw => tablebase::Outcome::Draw,
        GameResult::Loss => tablebase::Outcome::Loss,
    }
}
