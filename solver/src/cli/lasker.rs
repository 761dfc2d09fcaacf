//! `solver lasker` subcommands: Lasker Morris (the Nine Men's Morris board,
//! 10 stones, placing and sliding interleave) and its reduced games with
//! `--stones K`, through the family engine
//! ([`mill::games::lasker`]). `show`, `perft` and the probing
//! verbs are the family's ([`super::six`]) over the mapped sector files;
//! generation (pair by pair on disk, resumable, one pair with `--only`),
//! the plan, statistics and verification work on Lasker's sector tables.

use super::nine_tb::with_threads;
use super::progress::Progress;
use super::six::{
    self, perft, play_with, print_position_value, show, Common, GameArgs, PerftArgs, ShowArgs,
};
use super::CliError;
use super::{print_json, CliResult};
use clap::Subcommand;
use mill::games::lasker::files::{self, LaskerFiles};
use mill::games::lasker::sector::{pairs, LaskerSector};
use mill::games::lasker::tables::{self, PairReport, SectorFigures};
use mill::games::report;
use mill::rules::board::Nine;
use mill::rules::variant::RuleSet;
use serde_json::json;
use std::path::PathBuf;
use std::time::Instant;

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
    /// Solve every sector of the game over Nine Men's Morris's
    /// symmetry-reduced index and write one file per sector as its pair is
    /// solved; the exits are read back from the finished files. Resumable:
    /// a cut-off run checks the pairs on disk and continues with the first
    /// missing one. The 10-stone game: 1.4 × 10^11 slots in 1,830 pairs.
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
    /// The table graph of `generate`: one job per sector pair (key: its
    /// greater sector, `8-8-1-0`), the pairs it reads, its files, estimated
    /// memory and CPU (`--json` for the Snakemake workflow).
    Plan {
        #[command(flatten)]
        common: Common,
        #[command(flatten)]
        progress: super::plan::ProgressArgs,
    },
    /// Per-sector counts (positions, wins, draws, losses, longest win to
    /// conversion, bytes) of a directory.
    Stats(TableArgs),
    /// Recompute every stored value from its successors and report mismatches.
    Verify {
        #[command(flatten)]
        tables: TableArgs,
        /// Only N evenly spread slots a sector.
        #[arg(long, value_name = "N")]
        sample: Option<u64>,
    },
    /// Value of a position (distance to the next placement or removal) and
    /// of each of its moves.
    Probe {
        /// Position text.
        position: Vec<String>,
        #[command(flatten)]
        tables: TableArgs,
        /// Under --quiet-limit: plies already played without a removal or
        /// a placement (the count; 0 right after one).
        #[arg(long, value_name = "Q", default_value_t = 0, requires = "quiet_limit")]
        quiet_plies: u16,
    },
    /// The value of the start position and of every opening move.
    Start(TableArgs),
    /// Compare every position of Malom's Lasker Morris sector files
    /// (`lask_W_B_WF_BF.sec2` with `lask.secval`) with our sector tables
    /// (win, draw or loss of every slot; the numbering is the same); counts
    /// of agreement, the first disagreeing positions, exit status 1 on any.
    MalomCompare {
        /// Directory of Malom's `lask_*.sec2` files and `lask.secval`.
        malom_dir: PathBuf,
        #[command(flatten)]
        tables: TableArgs,
    },
    /// Play against the perfect player in the terminal (moves as `d7`,
    /// `d7-d6`, `d7xg4`; needs the game's tables: `generate`).
    Play {
        #[command(flatten)]
        game: GameArgs,
        #[command(flatten)]
        tables: TableArgs,
    },
    /// The perfect player with a move-choice policy against a fallible
    /// opponent: N games from the start, both colours, in parallel;
    /// wins, draws, losses and the score with its 95 % interval (needs
    /// every sector of the game: `generate`).
    Duel {
        #[command(flatten)]
        tables: TableArgs,
        #[command(flatten)]
        duel: super::duel::DuelArgs,
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
        } => match &only.only {
            Some(key) => generate_only(&tables, threads, quiet, key),
            None => generate(&tables, threads, quiet),
        },
        Command::Plan { common, progress } => {
            let plan = mill::tables::plan::lasker(rules(&common));
            super::plan::print(
                "lasker",
                &six::common_options(&common),
                &plan,
                common.json,
                &progress,
            )
        }
        Command::Stats(t) => stats(&t),
        Command::Verify { tables, sample } => verify(&tables, sample),
        Command::Probe {
            position,
            tables,
            quiet_plies,
        } => probe(&position, &tables, quiet_plies),
        Command::Start(t) => probe(&[], &t, 0),
        Command::MalomCompare { malom_dir, tables } => {
            super::lasker_malom::malom_compare(&malom_dir, &tables)
        }
        Command::Play { game, tables } => {
            let (rules, sol) = load(&tables)?;
            play_with::<Nine>(&game, rules, &sol)
        }
        Command::Duel { tables, duel } => {
            let (rules, sol) = load(&tables)?;
            let name = six::game_name("lasker", rules);
            let game = mill::duel::games::Family::<Nine, _>::new(&sol, rules);
            super::duel::run(&name, &game, &duel, tables.common.json)
        }
    }
}

/// Lasker's rules with the stones asked (10 by default).
pub(super) fn rules(common: &Common) -> RuleSet {
    RuleSet {
        flying: !common.no_flying,
        quiet_limit: common.quiet_limit,
        ..RuleSet::lasker(common.stones.unwrap_or(10))
    }
}

fn sector_text(s: LaskerSector) -> String {
    format!("{}-{} in hand {}-{}", s.us, s.them, s.us_hand, s.them_hand)
}

const HEADER: &str =
    "sector                      slots  positions       wins      draws     losses  win      bytes";

fn sector_line(f: &SectorFigures) -> String {
    format!(
        "{:<22} {:>10} {:>10} {:>10} {:>10} {:>10} {:>4} {:>10}",
        sector_text(f.sector),
        f.slots,
        f.positions,
        f.wdl[0],
        f.wdl[1],
        f.wdl[2],
        f.longest_win,
        f.bytes
    )
}

/// The per-pair log line: its sectors, then how long it took.
fn log_pair(progress: &Progress, r: &PairReport) {
    for p in &r.parts {
        progress.log(&sector_line(p));
    }
    progress.log(&if r.resumed {
        format!(
            "  pair {} on disk, every block checked ({:.1} s)",
            tables::pair_key(r.pair),
            r.seconds
        )
    } else {
        format!(
            "  pair {}: {} slots solved in {:.1} s ({:.2} M slots/s)",
            tables::pair_key(r.pair),
            r.slots(),
            r.seconds,
            r.slots() as f64 / r.seconds.max(1e-9) / 1e6
        )
    });
}

fn generate(args: &TableArgs, threads: Option<usize>, quiet: bool) -> CliResult {
    let rules = rules(&args.common);
    let json = args.common.json;
    let total: u64 = pairs::<Nine>(rules.stones)
        .into_iter()
        .flat_map(mill::games::lasker::solve::pair_parts)
        .map(|s| s.slots())
        .sum();
    let progress = Progress::new(quiet || json, total, "slots");
    if !quiet && !json {
        progress.log(HEADER);
    }
    let started = Instant::now();
    let reports = with_threads(threads, || {
        tables::generate(&args.dir, rules, &progress, |r| {
            progress.advance_overall(r.slots());
            if !quiet && !json {
                log_pair(&progress, r);
            }
        })
    })?;
    progress.done();
    let reports = reports?;
    let seconds = started.elapsed().as_secs_f64();
    let parts: Vec<&SectorFigures> = reports.iter().flat_map(|r| &r.parts).collect();
    let slots: u64 = parts.iter().map(|p| p.slots).sum();
    let positions: u64 = parts.iter().map(|p| p.positions).sum();
    let bytes: u64 = parts.iter().map(|p| p.bytes).sum();
    let wdl = parts.iter().fold([0u64; 3], |mut acc, p| {
        (0..3).for_each(|i| acc[i] += p.wdl[i]);
        acc
    });
    let solved: u64 = reports
        .iter()
        .filter(|r| !r.resumed)
        .map(PairReport::slots)
        .sum();
    let sol = LaskerFiles::open(&args.dir, rules)?;
    let start = sol.get(&mill::rules::position::Position::start(rules))?;
    let memory = tablebase::memory::peak_resident_bytes();
    if json {
        return print_json(&json!({
            "variant": "lasker",
            "stones": rules.stones,
            "flying": rules.flying,
            "pairs": reports.len(),
            "sectors": parts.len(),
            "slots": slots,
            "positions": positions,
            "wins": wdl[0],
            "draws": wdl[1],
            "losses": wdl[2],
            "bytes": bytes,
            "solved_slots": solved,
            "seconds": seconds,
            "slots_per_second": solved as f64 / seconds.max(1e-9),
            "peak_memory_bytes": memory,
            "start": start.map(|v| v.to_string()),
        }));
    }
    println!(
        "{} sectors in {} pairs, {slots} slots, {positions} positions (W {} D {} L {}); {solved} slots solved in {seconds:.1} s ({:.0} slots/s); {bytes} bytes in {}",
        parts.len(),
        reports.len(),
        wdl[0],
        wdl[1],
        wdl[2],
        solved as f64 / seconds.max(1e-9),
        args.dir.display()
    );
    if let Some(m) = memory {
        println!("Peak memory: {}", tablebase::memory::mib(m));
    }
    if let Some(v) = start {
        println!("Start position: {v}");
    }
    Ok(())
}

/// `solver lasker generate --only KEY`: one pair of the plan, its inputs
/// on disk.
fn generate_only(args: &TableArgs, threads: Option<usize>, quiet: bool, key: &str) -> CliResult {
    let rules = rules(&args.common);
    let plan = mill::tables::plan::lasker(rules);
    let job = super::plan::ready(&plan, key, &args.dir)?;
    let mill::tables::plan::Unit::Lasker(pair) = job.id else {
        return Err(CliError::Failed(format!("job {key} is not a sector pair")));
    };
    let json = args.common.json;
    let progress = Progress::new(quiet || json, job.slots, "slots");
    let r = with_threads(threads, || {
        tables::generate_pair(&args.dir, rules, pair, &progress)
    })?;
    progress.done();
    let r = r?;
    if json {
        return print_json(&json!({
            "variant": "lasker",
            "stones": rules.stones,
            "pair": tables::pair_key(pair),
            "slots": r.slots(),
            "resumed": r.resumed,
            "seconds": r.seconds,
            "bytes": r.parts.iter().map(|p| p.bytes).sum::<u64>(),
            "peak_memory_bytes": tablebase::memory::peak_resident_bytes(),
        }));
    }
    if !quiet {
        println!("{HEADER}");
        for p in &r.parts {
            println!("{}", sector_line(p));
        }
        println!(
            "pair {}: {} in {:.1} s; peak memory {:.1} MiB",
            tables::pair_key(pair),
            if r.resumed {
                "on disk, checked"
            } else {
                "solved"
            },
            r.seconds,
            tablebase::memory::peak_resident_bytes().unwrap_or(0) as f64 / (1 << 20) as f64
        );
    }
    Ok(())
}

fn stats(args: &TableArgs) -> CliResult {
    let rules = rules(&args.common);
    if args.common.json {
        return print_json(&report::lasker_stats_json::<Nine>(&args.dir, rules)?);
    }
    let rows = tables::stats(&args.dir, rules)?;
    println!("{HEADER}");
    let mut total = [0u64; 6];
    for f in &rows {
        println!("{}", sector_line(f));
        for (t, x) in
            total
                .iter_mut()
                .zip([f.slots, f.positions, f.wdl[0], f.wdl[1], f.wdl[2], f.bytes])
        {
            *t += x;
        }
    }
    println!(
        "{:<22} {:>10} {:>10} {:>10} {:>10} {:>10} {:>4} {:>10}",
        "total", total[0], total[1], total[2], total[3], total[4], "", total[5]
    );
    Ok(())
}

fn load(args: &TableArgs) -> Result<(RuleSet, LaskerFiles), CliError> {
    let rules = rules(&args.common);
    let sol = files::load(&args.dir, rules)?;
    Ok((rules, sol))
}

fn verify(args: &TableArgs, sample: Option<u64>) -> CliResult {
    let rules = rules(&args.common);
    let started = Instant::now();
    let json = args.common.json;
    let report = tables::verify(&args.dir, rules, sample, |r| {
        if !json && r.mismatches > 0 {
            println!(
                "{}: {} of {} values differ",
                sector_text(r.sector),
                r.mismatches,
                r.checked
            );
        }
    })?;
    let checked: u64 = report.iter().map(|r| r.checked).sum();
    let bad: u64 = report.iter().map(|r| r.mismatches).sum();
    let seconds = started.elapsed().as_secs_f64();
    if json {
        print_json(&report::verify_json(
            "lasker",
            rules,
            rules.stones,
            report.len(),
            [checked, bad],
            seconds,
        ))?;
    } else {
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

fn probe(words: &[String], args: &TableArgs, plies: u16) -> CliResult {
    let (rules, sol) = load(args)?;
    let pos = six::position::<Nine>(words, rules)?;
    let plain = six::plain_tables(rules, |r| files::load(&args.dir, r));
    print_position_value(
        &sol,
        plain.as_ref(),
        rules,
        &pos,
        args.common.json,
        None,
        plies,
    )
}
