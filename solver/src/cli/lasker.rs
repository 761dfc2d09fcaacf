//! `solver lasker` subcommands: Lasker Morris (the Nine Men's Morris board,
//! 10 stones, placing and sliding interleave) and its reduced games with
//! `--stones K`, through the family engine
//! ([`mill::family::lasker`]). `show`, `perft` and the probing
//! verbs are the family's ([`super::six`]); generation, statistics and
//! verification work on Lasker's sector tables.

use super::six::{
    self, perft, play_with, print_position_value, show, value_text, Common, GameArgs, PerftArgs,
    ShowArgs,
};
use super::CliError;
use super::{print_json, CliResult};
use clap::Subcommand;
use mill::board::Nine;
use mill::family::lasker::files;
use mill::family::lasker::sector::{positions, sectors, LaskerSector};
use mill::family::lasker::solve::LaskerSolution;
use mill::family::report;
use mill::variant::RuleSet;
use serde_json::json;
use std::path::PathBuf;
use std::time::Instant;
use tablebase::retro::Silent;

/// Arguments of `solver lasker`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    pub command: Command,
}

/// Options of the verbs that use the tablebase directory.
#[derive(clap::Args, Debug, Clone)]
pub struct TableArgs {
    /// Tablebase directory.
    #[arg(long, default_value = "lasker-tables")]
    pub dir: PathBuf,
    #[command(flatten)]
    pub common: Common,
}

/// Subcommands of `solver lasker`.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Draw a position (24 characters W, B or . in the reading order of
    /// Nine Men's Morris, side to move, hands: any hands, a side may slide
    /// instead of placing) and list its legal moves.
    Show(ShowArgs),
    /// Count the leaves of the game tree to DEPTH plies (a finished game is
    /// a leaf), with the count below each first move.
    Perft(PerftArgs),
    /// Solve every sector of the game and write one file per sector. Every
    /// table stays in memory (2 bytes a slot): the reduced games (--stones
    /// 3, 4, 5: 7 MB, 250 MB, 3.7 GB); the 10-stone game's 2.1 × 10^12
    /// slots are refused.
    Generate {
        #[command(flatten)]
        tables: TableArgs,
        /// Worker threads (default: one per core).
        #[arg(long)]
        threads: Option<usize>,
        /// No per-sector lines.
        #[arg(long)]
        quiet: bool,
        #[command(flatten)]
        only: super::plan::OnlyArgs,
    },
    /// The table graph of `generate`: one job, since every sector of a
    /// reduced game is solved in memory at once; its files, estimated
    /// memory and CPU (`--json` for the Snakemake workflow).
    Plan {
        #[command(flatten)]
        common: Common,
    },
    /// Per-sector counts (positions, wins, draws, losses, longest win to
    /// conversion, bytes) of a directory.
    Stats(TableArgs),
    /// Recompute every stored value from its successors and report mismatches.
    Verify(TableArgs),
    /// Value of a position (distance to the next placement or removal) and
    /// of each of its moves.
    Probe {
        /// Position text.
        position: Vec<String>,
        #[command(flatten)]
        tables: TableArgs,
    },
    /// The value of the start position and of every opening move.
    Start(TableArgs),
    /// Play against the perfect player in the terminal (moves as `d7`,
    /// `d7-d6`, `d7xg4`; needs the game's tables: `generate`).
    Play {
        #[command(flatten)]
        game: GameArgs,
        #[command(flatten)]
        tables: TableArgs,
    },
}

/// Run a `solver lasker` subcommand.
pub fn run(args: Args) -> CliResult {
    match args.command {
        Command::Show(a) => show::<Nine>(&a, rules(&a.common)),
        Command::Perft(a) => perft::<Nine>(&a, rules(&a.common)),
        Command::Generate {
            tables,
            threads,
            quiet,
            only,
        } => {
            if let Some(key) = &only.only {
                let plan = mill::plan::lasker(rules(&tables.common));
                super::plan::ready(&plan, key, &tables.dir)?;
            }
            generate(&tables, threads, quiet)
        }
        Command::Plan { common } => {
            let plan = mill::plan::lasker(rules(&common));
            super::plan::print("lasker", &six::common_options(&common), &plan, common.json)
        }
        Command::Stats(t) => stats(&t),
        Command::Verify(t) => verify(&t),
        Command::Probe { position, tables } => probe(&position, &tables),
        Command::Start(t) => probe(&[], &t),
        Command::Play { game, tables } => {
            let (rules, sol) = load(&tables)?;
            play_with::<Nine>(&game, rules, &sol)
        }
    }
}

/// Lasker's rules with the stones asked (10 by default).
fn rules(common: &Common) -> RuleSet {
    RuleSet {
        flying: !common.no_flying,
        ..RuleSet::lasker(common.stones.unwrap_or(10))
    }
}

fn sector_text(s: LaskerSector) -> String {
    format!("{}-{} in hand {}-{}", s.us, s.them, s.us_hand, s.them_hand)
}

/// Peak resident memory of this process in bytes (Linux), if known.
fn peak_memory() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// Physical memory of the machine in bytes (Linux), if known.
fn total_memory() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

fn generate(args: &TableArgs, threads: Option<usize>, quiet: bool) -> CliResult {
    let rules = rules(&args.common);
    // Every table stays in memory (2 bytes a slot): refuse what cannot fit.
    let need = positions::<Nine>(rules.stones) * 2;
    if let Some(have) = total_memory() {
        if need > have as u128 {
            return Err(CliError::Failed(format!(
                "the {}-stone game keeps {:.1} GB of tables in memory, this machine has {:.1} GB \
                 (the full game needs the symmetry-reduced index and tables on disk: docs/results.md)",
                rules.stones,
                need as f64 / 1e9,
                have as f64 / 1e9
            )));
        }
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.unwrap_or(0))
        .build()?;
    let json = args.common.json;
    let started = Instant::now();
    let sol = pool.install(|| {
        LaskerSolution::<Nine>::solve(rules, &Silent, |r| {
            if !quiet && !json {
                println!(
                    "{:<22} {:>10} slots  W {:>10} D {:>10} L {:>10}  longest win {:>3}  {:.2} s",
                    sector_text(r.id),
                    r.slots,
                    r.wdl[0],
                    r.wdl[1],
                    r.wdl[2],
                    r.longest_win,
                    r.seconds
                );
            }
        })
    });
    let sol = sol?;
    let solved = started.elapsed().as_secs_f64();
    let bytes = pool.install(|| files::write::<Nine>(&args.dir, &sol))?;
    let slots: u64 = sol.reports.iter().map(|r| r.slots).sum();
    let wdl = sol.reports.iter().fold([0u64; 3], |mut acc, r| {
        (0..3).for_each(|i| acc[i] += r.wdl[i]);
        acc
    });
    let start = sol.value(&mill::position::Position::start(rules));
    let memory = peak_memory();
    if json {
        return print_json(&json!({
            "variant": "lasker",
            "stones": rules.stones,
            "flying": rules.flying,
            "sectors": sol.reports.len(),
            "slots": slots,
            "wins": wdl[0],
            "draws": wdl[1],
            "losses": wdl[2],
            "bytes": bytes,
            "seconds": solved,
            "positions_per_second": slots as f64 / solved.max(1e-9),
            "peak_memory_bytes": memory,
            "start": start.map(value_text),
        }));
    }
    println!(
        "{} sectors, {slots} slots (W {} D {} L {}) solved in {solved:.1} s ({:.0} positions/s); {bytes} bytes written to {}",
        sol.reports.len(),
        wdl[0],
        wdl[1],
        wdl[2],
        slots as f64 / solved.max(1e-9),
        args.dir.display()
    );
    if let Some(m) = memory {
        println!("Peak memory: {:.1} MiB", m as f64 / (1 << 20) as f64);
    }
    if let Some(v) = start {
        println!("Start position: {}", value_text(v));
    }
    Ok(())
}

fn stats(args: &TableArgs) -> CliResult {
    let rules = rules(&args.common);
    let mut rows = Vec::new();
    let mut total = [0u64; 5];
    for s in sectors::<Nine>(rules.stones) {
        let table = files::open::<Nine>(&args.dir, rules, s)?;
        let h = table.header().clone();
        total[0] += h.positions;
        total[1] += h.wins;
        total[2] += h.draws;
        total[3] += h.losses;
        total[4] += table.bytes();
        rows.push((s, h, table.bytes()));
    }
    if args.common.json {
        return print_json(&report::lasker_stats_json::<Nine>(&args.dir, rules)?);
    }
    println!(
        "{:<22} {:>10} {:>10} {:>10} {:>10} {:>5} {:>9}",
        "sector", "positions", "wins", "draws", "losses", "win", "bytes"
    );
    for (s, h, bytes) in &rows {
        println!(
            "{:<22} {:>10} {:>10} {:>10} {:>10} {:>5} {:>9}",
            sector_text(*s),
            h.positions,
            h.wins,
            h.draws,
            h.losses,
            h.max_win,
            bytes
        );
    }
    println!(
        "{:<22} {:>10} {:>10} {:>10} {:>10} {:>5} {:>9}",
        "total", total[0], total[1], total[2], total[3], "", total[4]
    );
    Ok(())
}

fn load(args: &TableArgs) -> Result<(RuleSet, LaskerSolution<Nine>), CliError> {
    let rules = rules(&args.common);
    let sol = files::load::<Nine>(&args.dir, rules)?;
    Ok((rules, sol))
}

fn verify(args: &TableArgs) -> CliResult {
    let (rules, sol) = load(args)?;
    let started = Instant::now();
    let report = sol.verify()?;
    let checked: u64 = report.iter().map(|r| r.1).sum();
    let bad: u64 = report.iter().map(|r| r.2).sum();
    let seconds = started.elapsed().as_secs_f64();
    if args.common.json {
        print_json(&json!({
            "variant": "lasker",
            "stones": rules.stones,
            "flying": rules.flying,
            "tables": report.len(),
            "checked": checked,
            "mismatches": bad,
            "seconds": seconds,
        }))?;
    } else {
        for (s, n, b) in &report {
            if *b > 0 {
                println!("{}: {b} of {n} values differ", sector_text(*s));
            }
        }
        println!(
            "{} sectors, {checked} values recomputed from their successors, {bad} mismatches ({seconds:.1} s)",
            report.len()
        );
    }
    if bad > 0 {
        Err(CliError::Failed(format!(
            "{bad} stored values differ from their recomputation"
        )))
    } else {
        Ok(())
    }
}

fn probe(words: &[String], args: &TableArgs) -> CliResult {
    let (rules, sol) = load(args)?;
    let pos = six::position::<Nine>(words, rules)?;
    print_position_value(&sol, rules, &pos, args.common.json, None)
}
