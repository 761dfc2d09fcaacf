//! `solver toguz` subcommands: replay, perft, search, play, match.

use super::{print_json, CliResult};
use crate::toguz::endgame::GameResult;
use crate::toguz::notation::{diagram, move_notation, side_name, MoveText};
use crate::toguz::search::{score_text, Config, Engine, Iteration, Limits};
use crate::toguz::selfplay::{self, EngineSpec, MatchOptions};
use crate::toguz::{perft, pgn, Board, Outcome};
use clap::Subcommand;
use std::io::BufRead;
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
        /// Instead of the report, print the position after this many plies
        /// of every `--every`-th game (text format; for benchmarks).
        #[arg(long)]
        positions_at: Option<usize>,
        /// With --positions-at: take every N-th game.
        #[arg(long, default_value_t = 1)]
        every: usize,
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
    /// Search a position: best move, score, principal variation.
    Search {
        /// Position (`start` or the text format of docs/toguz.md).
        position: Option<String>,
        #[command(flatten)]
        search: SearchArgs,
        /// Print JSON (iterations included) instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Play against the engine in the terminal.
    Play {
        /// Your side: `w` (moves first) or `b`.
        #[arg(long, default_value = "w")]
        side: String,
        /// Start position.
        #[arg(long)]
        position: Option<String>,
        #[command(flatten)]
        search: SearchArgs,
        /// Print each move and position as a JSON line instead of the board.
        #[arg(long)]
        json: bool,
    },
    /// Generate the endgame share tables (resumable; see docs/toguz.md).
    Generate(super::toguz_tb::GenerateArgs),
    /// Look a position up in the endgame share tables.
    Probe(super::toguz_tb::ProbeArgs),
    /// Positions, shares and file sizes of the endgame share tables.
    Stats(super::toguz_tb::StatsArgs),
    /// Check the endgame share tables against the exact endgame solver.
    Verify(super::toguz_tb::VerifyArgs),
    /// Self-play match between two engine set-ups from varied openings.
    Match {
        /// First engine: `full` or `plain`, then `-feature`/`+feature` with
        /// features tt, pvs, ordering, quiescence, iterative, lmr, aspiration,
        /// endgame, eval
        /// (all terms) or one term: tuzdyk, mobility, own.
        #[arg(long, default_value = "full")]
        a: String,
        /// Second engine (same syntax).
        #[arg(long, default_value = "plain")]
        b: String,
        /// Number of games (each opening is played with both colours).
        #[arg(long, default_value_t = 100)]
        games: usize,
        /// Node budget per move of engine A (deterministic).
        #[arg(long)]
        nodes: Option<u64>,
        /// Fixed depth per move of engine A.
        #[arg(long)]
        depth: Option<i32>,
        /// Node budget per move of engine B (default: as A).
        #[arg(long)]
        b_nodes: Option<u64>,
        /// Fixed depth per move of engine B (default: as A).
        #[arg(long)]
        b_depth: Option<i32>,
        /// Random plies of the openings.
        #[arg(long, default_value_t = 4)]
        opening_plies: u32,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
}

/// Search limits shared by `search` and `play`.
#[derive(clap::Args, Debug, Clone)]
pub struct SearchArgs {
    /// Depth limit in plies.
    #[arg(long)]
    depth: Option<i32>,
    /// Time limit in seconds.
    #[arg(long)]
    time: Option<f64>,
    /// Node limit.
    #[arg(long)]
    nodes: Option<u64>,
    /// Search threads (1 is deterministic).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 64)]
    hash: usize,
    /// Endgame share tables to probe when few stones are left (a directory
    /// made by `solver toguz generate`).
    #[arg(long, value_name = "DIR")]
    tables: Option<std::path::PathBuf>,
}

impl SearchArgs {
    fn limits(&self, default_time: Option<f64>) -> Result<Limits, String> {
        let time = self
            .time
            .or(if self.depth.is_none() && self.nodes.is_none() {
                default_time
            } else {
                None
            });
        if let Some(t) = time {
            if !(t.is_finite() && t > 0.0) {
                return Err(format!(
                    "--time must be a positive number of seconds (got {t})"
                ));
            }
        }
        if self.depth.is_some_and(|d| !(1..=100).contains(&d)) {
            return Err("--depth must be 1..100".to_string());
        }
        if !(1..=256).contains(&self.threads) {
            return Err("--threads must be 1..256".to_string());
        }
        Ok(Limits {
            depth: self.depth,
            time: time.map(std::time::Duration::from_secs_f64),
            nodes: self.nodes,
            threads: self.threads,
        })
    }

    fn engine(&self) -> Result<Engine, String> {
        if !(1..=65536).contains(&self.hash) {
            return Err("--hash must be 1..65536 MiB".to_string());
        }
        let mut engine = Engine::new(Config {
            tt_mb: self.hash,
            ..Config::default()
        });
        if let Some(dir) = &self.tables {
            let tables = crate::toguz::egtb::Tables::open(dir).map_err(|e| e.to_string())?;
            engine.set_tables(Some(std::sync::Arc::new(tables)));
        }
        Ok(engine)
    }
}

/// Run a `solver toguz` subcommand.
pub fn run(args: Args) -> CliResult {
    match args.command {
        Command::Replay {
            file,
            positions_at: Some(ply),
            every,
            ..
        } => positions_at(&file, ply, every),
        Command::Replay { file, json, .. } => replay(&file, json),
        Command::Perft {
            depth,
            position,
            divide,
            parallel,
            json,
        } => run_perft(depth, position.as_deref(), divide, parallel, json),
        Command::Search {
            position,
            search,
            json,
        } => run_search(position.as_deref(), &search, json),
        Command::Play {
            side,
            position,
            search,
            json,
        } => play(&side, position.as_deref(), &search, json),
        Command::Generate(a) => super::toguz_tb::generate(a),
        Command::Probe(a) => super::toguz_tb::probe(a),
        Command::Stats(a) => super::toguz_tb::stats(a),
        Command::Verify(a) => super::toguz_tb::verify(a),
        Command::Match {
            a,
            b,
            games,
            nodes,
            depth,
            b_nodes,
            b_depth,
            opening_plies,
            json,
        } => {
            let limits = |nodes: Option<u64>, depth: Option<i32>| Limits {
                depth,
                time: None,
                nodes,
                threads: 1,
            };
            let (la, lb) = if b_nodes.is_some() || b_depth.is_some() {
                (limits(nodes, depth), limits(b_nodes, b_depth))
            } else {
                (limits(nodes, depth), limits(nodes, depth))
            };
            run_match(&a, &b, games, la, lb, opening_plies, json)
        }
    }
}

fn parse_position(text: Option<&str>) -> Result<Board, String> {
    text.unwrap_or("start")
        .parse::<Board>()
        .map_err(|e| format!("position: {e}"))
}

fn read_games(file: &std::path::Path) -> Result<Vec<pgn::Game>, String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
    pgn::parse(&text).map_err(|e| format!("{}: {e}", file.display()))
}

fn positions_at(file: &std::path::Path, ply: usize, every: usize) -> CliResult {
    if every == 0 {
        return Err("--every must be at least 1".to_string());
    }
    for (i, g) in read_games(file)?.iter().enumerate().step_by(every) {
        let mut short = g.clone();
        if short.moves.len() < ply {
            continue;
        }
        short.moves.truncate(ply);
        short.result = None;
        match pgn::replay(&short) {
            Ok(r) if r.outcome.is_none() => println!("{}", r.board),
            Ok(_) => {}
            Err(m) => return Err(format!("{}: ply {}: {}", g.describe(i), m.ply, m.message)),
        }
    }
    Ok(())
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
    let games = read_games(file)?;
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

fn result_text(r: GameResult) -> &'static str {
    match r {
        GameResult::Win => "win",
        GameResult::Draw => "draw",
        GameResult::Loss => "loss",
    }
}

fn iteration_line(it: &Iteration) {
    let nps = it.nodes as f64 / (it.millis.max(1) as f64 / 1000.0);
    let pv: Vec<String> = it.pv.iter().map(|m| m.to_string()).collect();
    println!(
        "depth {:>2}  score {:>9}  nodes {:>11}  time {:>7} ms  {:>6.2} Mn/s  pv {}",
        it.depth,
        score_text(it.score),
        it.nodes,
        it.millis,
        nps / 1e6,
        pv.join(" ")
    );
}

fn run_search(position: Option<&str>, args: &SearchArgs, json: bool) -> CliResult {
    let board = parse_position(position)?;
    let limits = args.limits(None)?;
    if limits.depth.is_none() && limits.time.is_none() && limits.nodes.is_none() {
        return Err("give --depth N, --time SECONDS or --nodes N".to_string());
    }
    if let Some(o) = board.outcome() {
        return Err(format!("the game is over ({o:?})"));
    }
    let mut engine = args.engine()?;
    if !json {
        println!("{}", diagram(&board));
    }
    let mut report = |it: &Iteration| {
        if !json {
            iteration_line(it);
        }
    };
    let r = engine.search(&board, &limits, &mut report);
    if json {
        #[derive(serde::Serialize)]
        struct Out<'a> {
            position: String,
            threads: usize,
            #[serde(flatten)]
            result: &'a crate::toguz::search::SearchResult,
        }
        return print_json(&Out {
            position: board.to_string(),
            threads: limits.threads,
            result: &r,
        });
    }
    if let Some(best) = r.best {
        let mut after = board;
        let effect = after.make(best - 1);
        println!(
            "best move {} ({}), score {}, depth {}, {} nodes in {:.3} s ({:.2} M nodes/s, {} threads)",
            best,
            move_notation(best - 1, &effect, &after),
            score_text(r.score),
            r.depth,
            r.nodes,
            r.seconds,
            r.nps / 1e6,
            limits.threads
        );
    }
    if let Some(e) = r.exact {
        let searched = r.iterations.last().and_then(|it| it.pv.first().copied());
        println!(
            "exact: {} for {} (endgame solved at depth {}, {} nodes){}",
            result_text(e.result),
            side_name(board.side),
            e.depth,
            e.nodes,
            if searched != r.best {
                "; the best move is the solver's"
            } else {
                ""
            }
        );
    }
    Ok(())
}

#[derive(serde::Serialize)]
struct PlayEvent {
    mover: crate::toguz::Side,
    #[serde(rename = "move")]
    notation: String,
    position: String,
    outcome: Option<Outcome>,
}

fn play(side: &str, position: Option<&str>, args: &SearchArgs, json: bool) -> CliResult {
    let human = match side {
        "w" | "white" => crate::toguz::Side::White,
        "b" | "black" => crate::toguz::Side::Black,
        other => return Err(format!("--side must be `w` or `b` (got `{other}`)")),
    };
    let mut board = parse_position(position)?;
    let limits = args.limits(Some(2.0))?;
    let mut engine = args.engine()?;
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    loop {
        if !json {
            println!("\n{}", diagram(&board));
        }
        if let Some(o) = board.outcome() {
            if json {
                return Ok(());
            }
            let [w, b] = board.final_kazans();
            match o {
                Outcome::Win(s) => println!("{} wins, {w}-{b}", side_name(s)),
                Outcome::Draw => println!("draw, {w}-{b}"),
            }
            return Ok(());
        }
        let m = if board.side == human {
            if !json {
                println!("your move (hole 1-9, e.g. `7` or `76`; `q` quits):");
            }
            let Some(line) = lines.next() else {
                return Ok(());
            };
            let line = line.map_err(|e| format!("stdin: {e}"))?;
            let text = line.trim();
            if text == "q" || text == "quit" {
                return Ok(());
            }
            match text.parse::<MoveText>() {
                Ok(mt) if board.is_legal(mt.hole - 1) => mt.hole - 1,
                Ok(mt) => {
                    println!("hole {} is empty", mt.hole);
                    continue;
                }
                Err(e) => {
                    println!("{e}");
                    continue;
                }
            }
        } else {
            let r = engine.search(&board, &limits, &mut |_| {});
            let Some(best) = r.best else {
                return Err("engine found no move".to_string());
            };
            if !json {
                println!(
                    "engine: depth {}, score {}, {} nodes",
                    r.depth,
                    score_text(r.score),
                    r.nodes
                );
            }
            best - 1
        };
        let mover = board.side;
        let effect = board.make(m);
        let notation = move_notation(m, &effect, &board);
        if json {
            let event = PlayEvent {
                mover,
                notation,
                position: board.to_string(),
                outcome: board.outcome(),
            };
            let line = serde_json::to_string(&event).map_err(|e| e.to_string())?;
            println!("{line}");
        } else {
            println!("{} plays {notation}", side_name(mover));
        }
    }
}

fn run_match(
    a: &str,
    b: &str,
    games: usize,
    limits_a: Limits,
    limits_b: Limits,
    opening_plies: u32,
    json: bool,
) -> CliResult {
    let a: EngineSpec = a.parse().map_err(|e| format!("--a: {e}"))?;
    let b: EngineSpec = b.parse().map_err(|e| format!("--b: {e}"))?;
    for (name, l, spec) in [("A", &limits_a, &a), ("B", &limits_b, &b)] {
        if l.nodes.is_none() && l.depth.is_none() {
            return Err(format!(
                "engine {name}: give a node or depth limit per move"
            ));
        }
        if !spec.config.features.iterative && l.depth.is_none() {
            return Err(format!("engine {name} is not iterative: give it a depth"));
        }
    }
    if games == 0 {
        return Err("--games must be at least 1".to_string());
    }
    let opts = MatchOptions {
        games,
        limits_a,
        limits_b,
        opening_plies,
    };
    let r = selfplay::play_match(&a, &b, &opts);
    if json {
        return print_json(&r);
    }
    println!(
        "{} vs {}: {} games, {} wins, {} draws, {} losses for {} (score {:.1}%, mean kazan difference {:+.2}, {} adjudicated, nodes {} vs {})",
        r.a,
        r.b,
        r.games,
        r.wins,
        r.draws,
        r.losses,
        r.a,
        100.0 * r.score,
        r.mean_kazan_diff,
        r.adjudicated,
        r.nodes[0],
        r.nodes[1]
    );
    Ok(())
}
