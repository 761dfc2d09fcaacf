//! `solver morabaraba` subcommands: Morabaraba (the 24 points of Nine Men's
//! Morris plus four diagonals, 12 stones, a full board draws) through the
//! family engine: the rules layer (`show`, `perft`) and the moving-phase
//! tables over the symmetry-reduced index (`generate`, `stats`, `verify`,
//! `probe`; [`mill::games::morabaraba::moving`]); the placement sectors'
//! verbs (`generate --placement`, placement probes, `malom-compare`) are in
//! [`super::morabaraba_placement`].

use super::family_search::{self, StartArgs};
use super::progress::Progress;
use super::six::{perft, print_analysis, rules, show, GameArgs, PerftArgs, ShowArgs};
use super::CliError;
use super::{print_json, CliResult};
use clap::Subcommand;
use mill::games::morabaraba::moving::{self, SubspaceReport};
use mill::games::morabaraba::Index;
use mill::games::report;
use mill::index::Indexing;
use mill::probe::values::{MovingFiles, TableFiles};
use mill::rules::board::Morabaraba;
use mill::rules::parse_position;
use mill::rules::position::Position;
use mill::rules::variant::{FullBoard, RuleSet};
use mill::tables::Size;
use std::path::PathBuf;
use std::time::Instant;

/// Arguments of `solver morabaraba`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    pub command: Command,
}

/// The tablebase directory and the rule set of its files.
#[derive(clap::Args, Debug, Clone)]
pub struct RuleArgs {
    /// Tablebase directory.
    #[arg(long, default_value = "morabaraba-tables")]
    pub dir: PathBuf,
    /// Play without flying (a side with 3 stones slides like any other).
    #[arg(long)]
    pub no_flying: bool,
    /// A full board (12-12, right after placement) loses for the side to
    /// move instead of drawing (the tables are named apart).
    #[arg(long)]
    pub blocked_loses: bool,
    /// The count rule: the game is drawn once PLIES plies in a row pass
    /// without a removal or a placement (100 is "fifty moves",
    /// docs/rules.md). Its tables are files of their own (`-qPLIES` in
    /// the name), written by `generate --quiet-limit PLIES`; without it
    /// endless play is a draw and nothing else is.
    #[arg(long, value_name = "PLIES", value_parser = clap::value_parser!(u16).range(1..=10000))]
    pub quiet_limit: Option<u16>,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

impl RuleArgs {
    pub(super) fn rules(&self) -> RuleSet {
        let mut rules = RuleSet::new(12, !self.no_flying).with_quiet_limit(self.quiet_limit);
        if self.blocked_loses {
            rules.full_board = FullBoard::BlockedLoses;
        }
        rules
    }
}

/// Options of the verbs that use the moving-phase tables.
#[derive(clap::Args, Debug, Clone)]
pub struct TableArgs {
    #[command(flatten)]
    pub files: RuleArgs,
    /// The game with K stones a side (3..=12): its subspaces, 3..=K stones
    /// a side (12 is the whole moving phase, about 1.65 × 10^10 positions:
    /// hours) and, with `--placement`, its placement sectors.
    #[arg(long, value_name = "K", default_value_t = 12,
          value_parser = clap::value_parser!(u8).range(3..=12))]
    pub stones: u8,
}

impl TableArgs {
    pub(super) fn rules(&self) -> RuleSet {
        self.files.rules()
    }
}

/// Subcommands of `solver morabaraba`.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Draw a position (24 characters W, B or . in the reading order of
    /// Nine Men's Morris, side to move, hands) and list its legal moves.
    Show(ShowArgs),
    /// Count the leaves of the game tree to DEPTH plies (a finished game is
    /// a leaf, a full board too), with the count below each first move.
    Perft(PerftArgs),
    /// Solve the moving-phase subspaces with 3..=K stones a side, pair by
    /// pair, each written to the directory when solved (a cut-off run
    /// resumes: pairs already on disk are checked and skipped); with
    /// `--placement`, then every placement sector of the K-stone game
    /// (Malom's `W-B-WF-BF`), sector by sector, resumable the same way.
    Generate {
        #[command(flatten)]
        tables: TableArgs,
        #[command(flatten)]
        max: super::size::MaxStones,
        /// Also every placement sector (the whole K-stone game stored).
        #[arg(long)]
        placement: bool,
        /// Worker threads (default: one per core).
        #[arg(long)]
        threads: Option<usize>,
        /// No progress bars or per-pair lines.
        #[arg(long)]
        quiet: bool,
        #[command(flatten)]
        only: super::plan::OnlyArgs,
    },
    /// The table graph of `generate`: one job per pair (with
    /// `--placement`, per placement sector too), its inputs, files,
    /// estimated memory and CPU (`--json` for the Snakemake workflow, which
    /// runs each job as `generate --only KEY`).
    Plan {
        #[command(flatten)]
        tables: TableArgs,
        #[command(flatten)]
        max: super::size::MaxStones,
        /// Also every placement sector of the K-stone game.
        #[arg(long)]
        placement: bool,
        #[command(flatten)]
        progress: super::plan::ProgressArgs,
    },
    /// Per-subspace counts (positions, wins, draws, losses, longest win,
    /// bytes) of a directory; with `--placement`, per placement sector too.
    Stats {
        #[command(flatten)]
        tables: TableArgs,
        #[command(flatten)]
        max: super::size::MaxStones,
        /// Also every placement sector of the K-stone game.
        #[arg(long)]
        placement: bool,
    },
    /// Recompute stored values from their successors and report mismatches.
    Verify {
        #[command(flatten)]
        tables: TableArgs,
        #[command(flatten)]
        max: super::size::MaxStones,
        /// Also every placement sector of the K-stone game.
        #[arg(long)]
        placement: bool,
        /// Check this many slots a table, drawn at random (reproducibly), instead of all.
        #[arg(long, value_name = "N")]
        sample: Option<u64>,
    },
    /// Value of a position and of each of its moves: from the tables (a
    /// placement position from its sector's file, written by `generate
    /// --placement`), else by the placement search over the moving-phase
    /// tables.
    Probe {
        /// Position text (default: the start of the `--stones N` game).
        position: Vec<String>,
        #[command(flatten)]
        tables: TableArgs,
        /// Under --quiet-limit: plies already played without a removal or
        /// a placement (the count; 0 right after one).
        #[arg(long, value_name = "Q", default_value_t = 0, requires = "quiet_limit")]
        quiet_plies: u16,
    },
    /// Compare every position of Malom's Morabaraba sector files
    /// (`mora_W_B_WF_BF.sec2` with `mora.secval`) with our tables; counts
    /// of agreement.
    MalomCompare {
        /// Directory of Malom's `mora_*.sec2` files and `mora.secval`.
        malom_dir: PathBuf,
        #[command(flatten)]
        files: RuleArgs,
    },
    /// Value of the start position of the N-stone game (12: Morabaraba
    /// itself), or of any placement position, by the placement search over
    /// the moving-phase tables (held in memory as two-bit outcomes: 4.3 GB
    /// for 12 stones).
    Start {
        #[command(flatten)]
        files: RuleArgs,
        #[command(flatten)]
        start: StartArgs,
    },
    /// Play the N-stone game against the perfect player in the terminal
    /// (moves as `d7`, `d7-d6`, `d7xg4`): it reads the moving-phase tables
    /// and searches placements (for 12 stones, the first placements take
    /// long searches).
    Play {
        #[command(flatten)]
        files: RuleArgs,
        /// The game with N stones a side (needs the tables of 3..=N).
        #[arg(long, value_name = "N", default_value_t = 12,
              value_parser = clap::value_parser!(u8).range(3..=12))]
        stones: u8,
        #[command(flatten)]
        game: GameArgs,
    },
    /// The perfect player with a move-choice policy against a fallible
    /// opponent: N games from the start of the `--stones N` game, both
    /// colours, in parallel; wins, draws, losses and the score with its
    /// 95 % interval (needs the game's placement sectors: `generate
    /// --placement`).
    Duel {
        #[command(flatten)]
        tables: TableArgs,
        #[command(flatten)]
        duel: super::duel::DuelArgs,
    },
}

/// Run a `solver morabaraba` subcommand.
pub fn run(args: Args) -> CliResult {
    match args.command {
        Command::Show(a) => show::<Morabaraba>(&a, rules::<Morabaraba>(&a.common)),
        Command::Perft(a) => perft::<Morabaraba>(&a, rules::<Morabaraba>(&a.common)),
        Command::Generate {
            tables,
            max,
            threads,
            quiet,
            placement,
            only: super::plan::OnlyArgs { only: Some(key) },
        } => pool(threads)?.install(|| {
            super::morabaraba_plan::generate_only(&tables, &max, placement, &key, quiet)
        }),
        Command::Generate {
            tables,
            max,
            placement,
            threads,
            quiet,
            ..
        } => pool(threads)?.install(|| {
            let size = max.of(tables.stones);
            if placement {
                size.check_placement()
                    .map_err(|e| CliError::input(e.to_string()))?;
            }
            generate(&tables, size, quiet)?;
            if placement {
                super::morabaraba_placement::generate(&tables, quiet)?;
            }
            Ok(())
        }),
        Command::Plan {
            tables,
            max,
            placement,
            progress,
        } => super::morabaraba_plan::plan(&tables, &max, placement, &progress),
        Command::Stats {
            tables,
            max,
            placement,
        } => {
            if placement {
                super::morabaraba_placement::stats(&tables)
            } else {
                stats(&tables, max.of(tables.stones))
            }
        }
        Command::Verify {
            tables,
            max,
            placement,
            sample,
        } => {
            verify(&tables, max.of(tables.stones), sample)?;
            if placement {
                super::morabaraba_placement::verify(&tables, sample)?;
            }
            Ok(())
        }
        Command::Probe {
            position,
            tables,
            quiet_plies,
        } => probe(&position, &tables, quiet_plies),
        Command::MalomCompare { malom_dir, files } => {
            super::morabaraba_placement::malom_compare(&malom_dir, &files)
        }
        Command::Start { files, start } => pool(start.threads)?.install(|| {
            family_search::start::<Morabaraba, Index>(
                "Morabaraba",
                &files.dir,
                files.rules(),
                &start,
                files.json,
            )
        }),
        Command::Play {
            files,
            stones,
            game,
        } => family_search::play::<Morabaraba, Index>(&files.dir, files.rules(), stones, &game),
        Command::Duel { tables, duel } => run_duel(&tables, &duel),
    }
}

/// `solver morabaraba duel`: a match over the stored tables of the
/// `--stones N` game (moving phase and placement sectors).
fn run_duel(args: &TableArgs, duel: &super::duel::DuelArgs) -> CliResult {
    let dir = &args.files.dir;
    if !dir.is_dir() {
        return Err(CliError::from(format!(
            "{}: no such tablebase directory",
            dir.display()
        )));
    }
    let stones = args.stones;
    let stored = TableFiles::<Morabaraba, Index>::new(dir, args.rules());
    if !stored.has_placement(stones) {
        return Err(CliError::from(format!(
            "{}: the placement sectors of the {stones}-stone game are missing \
             (solver morabaraba generate --placement --stones {stones}{}{})",
            dir.display(),
            if args.files.no_flying {
                " --no-flying"
            } else {
                ""
            },
            if args.files.blocked_loses {
                " --blocked-loses"
            } else {
                ""
            }
        )));
    }
    let rules = RuleSet {
        stones,
        ..args.rules()
    };
    let name = super::six::game_name("morabaraba", rules);
    let game = mill::duel::games::Family::<Morabaraba, _>::new(&stored, rules);
    super::duel::run(&name, &game, duel, args.files.json)
}

/// A pool of `threads` workers (default: one per core).
fn pool(threads: Option<usize>) -> Result<rayon::ThreadPool, CliError> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads.unwrap_or(0))
        .build()
        .map_err(CliError::from)
}

fn subspace_line(r: &SubspaceReport) -> String {
    format!(
        "{:>5} {:>12} {:>12} {:>12} {:>12} {:>12} {:>5} {:>5} {:>11}",
        r.sub.to_string(),
        r.slots,
        r.positions,
        r.wdl[0],
        r.wdl[1],
        r.wdl[2],
        r.longest_win,
        r.longest_loss,
        r.bytes
    )
}

const HEADER: &str =
    "  sub        slots    positions         wins        draws       losses   win  loss       bytes";

fn generate(args: &TableArgs, size: Size, quiet: bool) -> CliResult {
    let rules = args.rules();
    Index::warm_up::<Morabaraba>();
    let total: u64 = size
        .subspaces()
        .iter()
        .map(|&s| Index::size::<Morabaraba>(s))
        .sum();
    let progress = Progress::new(quiet || args.files.json, total, "slots");
    let started = Instant::now();
    if !quiet && !args.files.json {
        println!("{HEADER}");
    }
    let reports = moving::generate::<Morabaraba>(&args.files.dir, rules, size, &progress, |r| {
        let slots: u64 = r.parts.iter().map(|p| p.slots).sum();
        progress.advance_overall(slots);
        if !quiet && !args.files.json {
            for p in &r.parts {
                progress.log(&subspace_line(p));
            }
            progress.log(&if r.resumed {
                "      (on disk, checked and kept)".to_string()
            } else {
                format!(
                    "      pair solved in {:.1} s ({:.2} M slots/s)",
                    r.seconds,
                    slots as f64 / r.seconds.max(1e-9) / 1e6
                )
            });
        }
    });
    progress.done();
    let reports = reports?;
    let seconds = started.elapsed().as_secs_f64();
    let parts: Vec<&SubspaceReport> = reports.iter().flat_map(|r| &r.parts).collect();
    let slots: u64 = parts.iter().map(|p| p.slots).sum();
    let positions: u64 = parts.iter().map(|p| p.positions).sum();
    let bytes: u64 = parts.iter().map(|p| p.bytes).sum();
    let solved: u64 = reports
        .iter()
        .filter(|r| !r.resumed)
        .flat_map(|r| &r.parts)
        .map(|p| p.slots)
        .sum();
    if args.files.json {
        // The statistics of the subspaces written, as `stats --json`
        // prints them, with the run's own figures.
        let rows: Vec<SubspaceReport> = parts.iter().map(|&p| p.clone()).collect();
        let mut doc = report::moving_stats_json("morabaraba", &rows, rules, size.stones, &[]);
        doc["slots"] = slots.into();
        doc["solved_slots"] = solved.into();
        doc["seconds"] = seconds.into();
        doc["peak_memory_bytes"] = tablebase::memory::peak_resident_bytes().into();
        return print_json(&doc);
    }
    println!(
        "{} subspaces, {positions} positions ({slots} slots, {solved} solved now) in {seconds:.1} s; {bytes} bytes in {}",
        parts.len(),
        args.files.dir.display()
    );
    if let Some(m) = tablebase::memory::peak_resident_bytes() {
        println!("Peak memory: {}", tablebase::memory::mib(m));
    }
    Ok(())
}

fn stats(args: &TableArgs, size: Size) -> CliResult {
    let rules = args.rules();
    let rows = moving::stats::<Morabaraba>(&args.files.dir, rules, size)?;
    let sum = |f: fn(&SubspaceReport) -> u64| rows.iter().map(f).sum::<u64>();
    let (positions, wins, draws, losses, bytes) = (
        sum(|r| r.positions),
        sum(|r| r.wdl[0]),
        sum(|r| r.wdl[1]),
        sum(|r| r.wdl[2]),
        sum(|r| r.bytes),
    );
    // Under the count rule: each subspace beside its table without it.
    let mut changes = Vec::new();
    if let Some(limit) = rules.quiet_limit {
        let dir = &args.files.dir;
        for r in &rows {
            let counted = mill::tables::files::open_moving::<Morabaraba, Index>(dir, rules, r.sub)?;
            let plain = mill::tables::files::open_moving::<Morabaraba, Index>(
                dir,
                rules.with_quiet_limit(None),
                r.sub,
            )?;
            changes.push(
                mill::tables::count::compare(&plain, &counted, limit)
                    .map_err(|e| CliError::Failed(e.to_string()))?,
            );
        }
    }
    if args.files.json || !changes.is_empty() {
        let doc = report::moving_stats_json("morabaraba", &rows, rules, size.stones, &changes);
        if args.files.json {
            return print_json(&doc);
        }
        super::six::print_stats_table(&doc);
        return Ok(());
    }
    println!("{HEADER}");
    for r in &rows {
        println!("{}", subspace_line(r));
    }
    println!(
        "{:>5} {:>12} {positions:>12} {wins:>12} {draws:>12} {losses:>12} {:>5} {:>5} {bytes:>11}",
        "total", "", "", ""
    );
    Ok(())
}

fn verify(args: &TableArgs, size: Size, sample: Option<u64>) -> CliResult {
    let rules = args.rules();
    let started = Instant::now();
    let json = args.files.json;
    Index::warm_up::<Morabaraba>();
    let per = |slots: u64| sample.map_or(slots, |n| n.min(slots));
    let total = size
        .subspaces()
        .iter()
        .map(|&s| per(Index::size::<Morabaraba>(s)))
        .sum();
    let progress = Progress::new(json, total, "slots");
    let reports =
        moving::verify::<Morabaraba>(&args.files.dir, rules, size, sample, &progress, |r| {
            progress.advance_overall(per(Index::size::<Morabaraba>(r.sub)));
            if !json {
                progress.log(&format!(
                    "{:>5}: {} positions recomputed, {} mismatches",
                    r.sub.to_string(),
                    r.checked,
                    r.mismatches
                ));
            }
        })?;
    progress.done();
    let checked: u64 = reports.iter().map(|r| r.checked).sum();
    let bad: u64 = reports.iter().map(|r| r.mismatches).sum();
    let seconds = started.elapsed().as_secs_f64();
    if json {
        print_json(&report::verify_json(
            "morabaraba",
            rules,
            size.stones,
            reports.len(),
            [checked, bad],
            seconds,
        ))?;
    } else {
        println!(
            "{} subspaces, {checked} values recomputed from their successors, {bad} mismatches ({seconds:.1} s)",
            reports.len()
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
    let rules = args.rules();
    // No position: the start of the `--stones N` game (as `six probe`
    // takes its start).
    let pos = if words.is_empty() {
        Position::start(RuleSet {
            stones: args.stones,
            ..rules
        })
    } else {
        parse_position::<Morabaraba>(&words.join(" "), rules)
            .map_err(|e| format!("bad position: {e}"))?
    };
    if pos.placing() {
        return super::morabaraba_placement::probe(&pos, args);
    }
    let files = MovingFiles::<Morabaraba, Index>::new(&args.files.dir, rules);
    let a = files.analyse_at(rules, &pos, plies)?;
    let plain = super::six::plain_tables(rules, |r| {
        MovingFiles::<Morabaraba, Index>::new(&args.files.dir, r).analyse_at(r, &pos, 0)
    });
    print_analysis(&a, plain.as_ref(), rules, args.files.json, None)
}
