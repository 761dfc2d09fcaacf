//! `solver toguz` subcommands: replay, perft, search, play, engine, match,
//! review, train (calibrate and puzzles in `toguz_analysis`, the share
//! tables in `toguz_tb`).

use super::CliError;
use super::{print_json, CliResult};
use clap::Subcommand;
use std::io::BufRead;
use std::time::Instant;
use toguz::endgame::GameResult;
use toguz::linear::LinearEval;
use toguz::nnue::Network;
use toguz::notation::{diagram, move_notation, side_name, MoveText};
use toguz::search::{score_text, Config, Engine, EvalKind, Iteration, Limits};
use toguz::selfplay::{self, Clock, EngineSpec, MatchOptions, Openings, RunOptions};
use toguz::train::{self, SelfPlayOptions, TrainOptions};
use toguz::{perft, pgn, Board, Outcome};

/// Arguments of `solver toguz`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    pub command: Box<Command>,
}

/// Subcommands of `solver toguz`.
// Parsed once per run and held in a `Box` (`Args`): the size of the
// largest variant (`Match`) costs nothing.
#[allow(clippy::large_enum_variant)]
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
        /// Score the best N root moves (1..9), each with its principal
        /// variation; `all` (or 9) scores every legal move.
        #[arg(long, value_name = "N|all")]
        multipv: Option<String>,
        /// Print JSON (iterations included) instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Speak the engine protocol on stdin/stdout (docs/toguz.md, section
    /// "Engine protocol"), for GUIs and match runners.
    Engine {
        #[command(flatten)]
        eval: EvalArgs,
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
        /// The engine plays on a game clock, BASE+INC seconds (e.g. 300+2),
        /// instead of a fixed time per move; it loses if the clock runs out.
        #[arg(long, conflicts_with = "time")]
        clock: Option<String>,
        /// Print each move and position as a JSON line instead of the board.
        #[arg(long)]
        json: bool,
    },
    /// Generate the endgame share tables (resumable; see docs/toguz.md).
    Generate(super::toguz_tb::GenerateArgs),
    /// The table graph of `generate`: one job per stone count, its inputs,
    /// files, estimated memory and CPU (`--json` for the Snakemake
    /// workflow, which runs each job as `generate --only KEY`).
    Plan(super::toguz_tb::PlanArgs),
    /// Look a position up in the endgame share tables.
    Probe(super::toguz_tb::ProbeArgs),
    /// Positions, shares and file sizes of the endgame share tables.
    Stats(super::toguz_tb::StatsArgs),
    /// Check the endgame share tables against the exact endgame solver.
    Verify(super::toguz_tb::VerifyArgs),
    /// Train the neural evaluation (NNUE): self-play games appended to a
    /// data file (resumable: games already there are skipped), plus
    /// recorded games, then Adam on the network; writes a network file.
    TrainNet(super::toguz_nnue::TrainNetArgs),
    /// Fit the win/draw/loss chances of the engine's score on recorded
    /// games (held-out games for the check; see docs/toguz.md).
    Calibrate(super::toguz_analysis::CalibrateArgs),
    /// Find puzzles in recorded games: positions where exactly one move
    /// keeps the win (or the draw).
    Puzzles(super::toguz_analysis::PuzzlesArgs),
    /// Self-play match between two engine set-ups (the Elo ladder): W/D/L,
    /// score, Elo with its 95 % interval and an SPRT verdict.
    Match {
        /// First engine: `full` or `plain`, then `-feature`/`+feature` with
        /// features tt, pvs, ordering, quiescence, iterative, lmr, aspiration,
        /// endgame, nnue (the network, on in `full`; `full-nnue` is the
        /// linear model), learned (the linear model; `full-learned` is the
        /// hand-set evaluation), eval (all terms) or one hand-set term: tuzdyk,
        /// mobility, own. Or `exec:PROGRAM ARGS`: another program speaking
        /// the engine protocol (e.g. `exec:./solver toguz engine`), a
        /// process per game.
        #[arg(long, default_value = "full")]
        a: String,
        /// Second engine (same syntax).
        #[arg(long, default_value = "plain")]
        b: String,
        /// Learned weights file for engine A (replaces its evaluation).
        #[arg(long)]
        a_weights: Option<std::path::PathBuf>,
        /// Learned weights file for engine B.
        #[arg(long)]
        b_weights: Option<std::path::PathBuf>,
        /// Evaluation of engine A: linear, nnue or hand (replaces the
        /// spec's; as `--eval` of `search`).
        #[arg(long, value_name = "linear|nnue|hand")]
        a_eval: Option<String>,
        /// Evaluation of engine B.
        #[arg(long, value_name = "linear|nnue|hand")]
        b_eval: Option<String>,
        /// Network file for engine A (with `--a-eval nnue`).
        #[arg(long)]
        a_net: Option<std::path::PathBuf>,
        /// Network file for engine B.
        #[arg(long)]
        b_net: Option<std::path::PathBuf>,
        /// Endgame share tables for engine A (a directory of `solver toguz
        /// generate`; default: none, whatever `./toguz-tables` holds). An
        /// external engine gets `setoption name Tables value DIR`.
        #[arg(long, value_name = "DIR")]
        a_tables: Option<std::path::PathBuf>,
        /// Endgame share tables for engine B.
        #[arg(long, value_name = "DIR")]
        b_tables: Option<std::path::PathBuf>,
        /// Number of games (each opening is played with both colours).
        #[arg(long, default_value_t = 100)]
        games: usize,
        /// Node budget per move of engine A (deterministic).
        #[arg(long)]
        nodes: Option<u64>,
        /// Fixed depth per move of engine A.
        #[arg(long)]
        depth: Option<i32>,
        /// Seconds per move of engine A.
        #[arg(long)]
        time: Option<f64>,
        /// Node budget per move of engine B (default: as A).
        #[arg(long)]
        b_nodes: Option<u64>,
        /// Fixed depth per move of engine B (default: as A).
        #[arg(long)]
        b_depth: Option<i32>,
        /// Seconds per move of engine B (default: as A).
        #[arg(long)]
        b_time: Option<f64>,
        /// Both engines play on a game clock, BASE+INC seconds (e.g. 300+2);
        /// running out of time loses.
        #[arg(long)]
        clock: Option<String>,
        /// Openings: distinct positions after --opening-plies plies of the
        /// games of this record file (e.g.
        /// ../shared/data/toguz/playok-games.pgn); default: pseudo-random
        /// plies from the start.
        #[arg(long)]
        openings: Option<std::path::PathBuf>,
        /// Plies of the openings (default 8 from records, 4 random).
        #[arg(long)]
        opening_plies: Option<u32>,
        /// Start instead from endgames of the record file: in each game the
        /// first position with at most N stones on the board (where the
        /// endgame share tables matter).
        #[arg(
            long,
            value_name = "N",
            requires = "openings",
            conflicts_with = "opening_plies"
        )]
        opening_stones: Option<u32>,
        /// Games played at once (default: one per core with node or depth
        /// limits, 1 with time limits).
        #[arg(long)]
        jobs: Option<usize>,
        /// Stop as soon as the SPRT accepts H0 or H1.
        #[arg(long)]
        sprt: bool,
        /// SPRT: Elo under H0.
        #[arg(long, default_value_t = 0.0)]
        elo0: f64,
        /// SPRT: Elo under H1.
        #[arg(long, default_value_t = 10.0)]
        elo1: f64,
        /// Match log: every finished game is appended to FILE as it ends;
        /// a rerun with the same settings takes the games already in it
        /// from there and reports the combined result (a log written with
        /// other settings is refused).
        #[arg(long, value_name = "FILE")]
        log: Option<std::path::PathBuf>,
        /// No progress lines on stderr.
        #[arg(long)]
        quiet: bool,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Review the moves of recorded games: each move's value before and
    /// after, the engine's best move, the stones lost and a label (best,
    /// good, inaccuracy, mistake, blunder), a summary per player.
    Review {
        /// The record file (PlayOK PGN).
        file: std::path::PathBuf,
        /// Review only this game (1-based; default: every game).
        #[arg(long)]
        game: Option<usize>,
        /// Seconds per position.
        #[arg(long, conflicts_with_all = ["nodes", "depth"])]
        time: Option<f64>,
        /// Nodes per position (the default, 200000, when no limit is given).
        #[arg(long, conflicts_with = "depth")]
        nodes: Option<u64>,
        /// Depth per position.
        #[arg(long)]
        depth: Option<i32>,
        /// Score every hole of every position (slower; the value after a
        /// move is then its own line at the same depth).
        #[arg(long)]
        multipv: bool,
        /// Search threads.
        #[arg(long, default_value_t = 1)]
        threads: usize,
        #[command(flatten)]
        eval: EvalArgs,
        /// Write a score graph (SVG, White's view, blunders marked); needs
        /// --game.
        #[arg(long, requires = "game")]
        svg: Option<std::path::PathBuf>,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Train the learned evaluation: self-play positions (labelled by game
    /// result and search score) plus recorded games, then logistic
    /// regression. Seeded and deterministic; writes a weights file.
    Train {
        /// Output weights file.
        #[arg(long)]
        out: std::path::PathBuf,
        #[command(flatten)]
        self_play: super::toguz_nnue::SelfPlayArgs,
        /// Also learn from the games of this record file (by their results).
        #[arg(long)]
        records: Option<std::path::PathBuf>,
        /// Training passes.
        #[arg(long, default_value_t = 300)]
        epochs: usize,
        /// Adam step size.
        #[arg(long, default_value_t = 0.01)]
        learning_rate: f64,
        /// Share of the label given by the game result (the rest by the
        /// self-play search score).
        #[arg(long, default_value_t = 0.5)]
        lambda: f64,
        /// L2 penalty per weight.
        #[arg(long, default_value_t = 1e-6)]
        l2: f64,
        /// No progress lines on stderr.
        #[arg(long)]
        quiet: bool,
        /// Print the report as JSON.
        #[arg(long)]
        json: bool,
    },
}

/// The evaluation of a searching command (`search`, `play`, `engine`,
/// `review`; `match` has the same per engine as `--a-eval`/`--b-eval`).
#[derive(clap::Args, Debug, Clone, Default)]
pub struct EvalArgs {
    /// Static evaluation: `nnue` (the neural network, the default),
    /// `linear` (the learned linear model) or `hand` (the hand-set terms).
    #[arg(long, value_name = "linear|nnue|hand")]
    eval: Option<String>,
    /// Learned linear weights file (with the linear evaluation; default:
    /// the built-in weights).
    #[arg(long)]
    weights: Option<std::path::PathBuf>,
    /// Network file (with `--eval nnue`; default: the built-in network).
    #[arg(long)]
    net: Option<std::path::PathBuf>,
    /// Use the hand-set evaluation (the same as `--eval hand`).
    #[arg(long, conflicts_with_all = ["weights", "eval", "net"])]
    hand_eval: bool,
}

/// Set `config`'s evaluation from `--eval` (default nnue, or linear when
/// only a weights file is given), `--weights` and `--net`.
pub(super) fn apply_eval(
    config: &mut Config,
    eval: Option<&str>,
    weights: Option<&std::path::Path>,
    net: Option<&std::path::Path>,
) -> Result<(), CliError> {
    let kind: EvalKind = match eval {
        Some(e) => e.parse().map_err(|e: String| CliError::from(e))?,
        None if weights.is_some() => EvalKind::Linear,
        None => EvalKind::Nnue,
    };
    if weights.is_some() && kind != EvalKind::Linear {
        return Err(CliError::from("--weights goes with the linear evaluation"));
    }
    if net.is_some() && kind != EvalKind::Nnue {
        return Err(CliError::from("--net goes with --eval nnue"));
    }
    let w = weights.map(LinearEval::load).transpose()?;
    let n = net
        .map(Network::load)
        .transpose()
        .map_err(|e| CliError::from(e.to_string()))?;
    config
        .set_eval(kind, w, n)
        .map_err(|e| CliError::from(format!("built-in network: {e}")))
}

impl EvalArgs {
    fn apply(&self, config: &mut Config) -> Result<(), CliError> {
        let eval = if self.hand_eval {
            Some("hand")
        } else {
            self.eval.as_deref()
        };
        apply_eval(config, eval, self.weights.as_deref(), self.net.as_deref())
    }
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
    #[command(flatten)]
    eval: EvalArgs,
    /// Endgame share tables to probe when few stones are left (a directory
    /// made by `solver toguz generate`; by default `./toguz-tables` when it
    /// exists, so a generated set is used without asking).
    #[arg(long, value_name = "DIR")]
    tables: Option<std::path::PathBuf>,
    /// Do not probe endgame tables, even `./toguz-tables`.
    #[arg(long, conflicts_with = "tables")]
    no_tables: bool,
}

impl SearchArgs {
    fn limits(&self, default_time: Option<f64>) -> Result<Limits, CliError> {
        let time = self
            .time
            .or(if self.depth.is_none() && self.nodes.is_none() {
                default_time
            } else {
                None
            });
        if let Some(t) = time {
            if !(t.is_finite() && t > 0.0) {
                return Err(CliError::from(format!(
                    "--time must be a positive number of seconds (got {t})"
                )));
            }
        }
        if self.depth.is_some_and(|d| !(1..=100).contains(&d)) {
            return Err(CliError::from("--depth must be 1..100"));
        }
        if !(1..=256).contains(&self.threads) {
            return Err(CliError::from("--threads must be 1..256"));
        }
        Ok(Limits {
            depth: self.depth,
            time: time.map(std::time::Duration::from_secs_f64),
            nodes: self.nodes,
            threads: self.threads,
        })
    }

    fn engine(&self) -> Result<Engine, CliError> {
        if !(1..=65536).contains(&self.hash) {
            return Err(CliError::from("--hash must be 1..65536 MiB"));
        }
        let mut config = Config {
            tt_mb: self.hash,
            ..Config::default()
        };
        self.eval.apply(&mut config)?;
        let mut engine = Engine::new(config);
        let default = std::path::Path::new("toguz-tables");
        let dir = match &self.tables {
            Some(dir) => Some(dir.as_path()),
            None if !self.no_tables && default.is_dir() => Some(default),
            None => None,
        };
        if let Some(dir) = dir {
            let tables = toguz::egtb::Tables::open(dir)?;
            engine.set_tables(Some(std::sync::Arc::new(tables)));
        }
        Ok(engine)
    }
}

/// Run a `solver toguz` subcommand.
pub fn run(args: Args) -> CliResult {
    match *args.command {
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
            multipv,
            json,
        } => {
            let multipv = match multipv.as_deref() {
                None => 1,
                Some("all") => 9,
                Some(n) => n
                    .parse::<usize>()
                    .ok()
                    .filter(|n| (1..=9).contains(n))
                    .ok_or_else(|| format!("--multipv must be 1..9 or `all` (got `{n}`)"))?,
            };
            run_search(position.as_deref(), &search, multipv, json)
        }
        Command::Engine { eval } => {
            let mut config = Config::default();
            eval.apply(&mut config)?;
            let input = std::io::BufReader::new(std::io::stdin());
            Ok(toguz::protocol::run(
                input,
                std::io::stdout().lock(),
                config,
            )?)
        }
        Command::Play {
            side,
            position,
            search,
            clock,
            json,
        } => {
            let clock = clock.map(|c| c.parse::<Clock>()).transpose()?;
            play(&side, position.as_deref(), &search, clock, json)
        }
        Command::Generate(a) => super::toguz_tb::generate(a),
        Command::Plan(a) => super::toguz_tb::plan(a),
        Command::Probe(a) => super::toguz_tb::probe(a),
        Command::Stats(a) => super::toguz_tb::stats(a),
        Command::Calibrate(a) => super::toguz_analysis::calibrate(a),
        Command::TrainNet(a) => super::toguz_nnue::train_net(a),
        Command::Puzzles(a) => super::toguz_analysis::puzzles(a),
        Command::Verify(a) => super::toguz_tb::verify(a),
        Command::Match {
            a,
            b,
            a_weights,
            b_weights,
            a_eval,
            b_eval,
            a_net,
            b_net,
            a_tables,
            b_tables,
            games,
            nodes,
            depth,
            time,
            b_nodes,
            b_depth,
            b_time,
            clock,
            openings,
            opening_plies,
            opening_stones,
            jobs,
            sprt,
            elo0,
            elo1,
            log,
            quiet,
            json,
        } => {
            let limits = |nodes: Option<u64>, depth: Option<i32>, time: Option<f64>| Limits {
                depth,
                time: time.map(std::time::Duration::from_secs_f64),
                nodes,
                threads: 1,
            };
            for t in [time, b_time].into_iter().flatten() {
                if !(t.is_finite() && t > 0.0 && t < 1e6) {
                    return Err(CliError::from(format!(
                        "--time must be a positive number of seconds (got {t})"
                    )));
                }
            }
            let la = limits(nodes, depth, time);
            let lb = if b_nodes.is_some() || b_depth.is_some() || b_time.is_some() {
                limits(b_nodes, b_depth, b_time)
            } else {
                la
            };
            let clock = clock.map(|c| c.parse::<Clock>()).transpose()?;
            let spec = |text: &str,
                        weights: Option<&std::path::Path>,
                        eval: Option<&str>,
                        net: Option<&std::path::Path>,
                        tables: Option<&std::path::Path>,
                        which: &str| {
                let mut s: EngineSpec = text.parse().map_err(|e| format!("--{which}: {e}"))?;
                if weights.is_some() || eval.is_some() || net.is_some() {
                    apply_eval(&mut s.config, eval, weights, net)?;
                    if let Some(e) = eval {
                        s.name = format!("{}[{e}]", s.name);
                    }
                }
                if let Some(p) = weights.or(net) {
                    s.name = format!("{}[{}]", s.name, p.display());
                }
                if let Some(dir) = tables {
                    let t = toguz::egtb::Tables::open(dir)?;
                    if s.exec.is_some() {
                        // The engine opens them itself (the protocol's
                        // `Tables` option); opened here only to check them.
                        let path = std::path::absolute(dir)
                            .map_err(|e| CliError::from(format!("{}: {e}", dir.display())))?;
                        s.exec_options
                            .push(("Tables".into(), path.display().to_string()));
                        s.name = format!("{}[tables {}]", s.name, t.max_stones());
                        return Ok(s);
                    }
                    s.name = format!("{}[tables {}]", s.name, t.max_stones());
                    s.tables = Some(std::sync::Arc::new(t));
                }
                Ok::<EngineSpec, CliError>(s)
            };
            let a = spec(
                &a,
                a_weights.as_deref(),
                a_eval.as_deref(),
                a_net.as_deref(),
                a_tables.as_deref(),
                "a",
            )?;
            let b = spec(
                &b,
                b_weights.as_deref(),
                b_eval.as_deref(),
                b_net.as_deref(),
                b_tables.as_deref(),
                "b",
            )?;
            let (openings, plies) = match &openings {
                Some(file) if opening_stones.is_some() => {
                    let stones = opening_stones.unwrap_or_default();
                    let p = selfplay::record_endgames(&read_games(file)?, stones);
                    if p.is_empty() {
                        return Err(CliError::from(format!(
                            "{}: no game reaches a position with at most {stones} stones on the board",
                            file.display()
                        )));
                    }
                    if !quiet {
                        eprintln!(
                            "{} distinct endgames with at most {stones} stones on the board: at most {} games",
                            p.len(),
                            p.len() * 2
                        );
                    }
                    (Openings::Positions(p), 0)
                }
                Some(file) => {
                    let plies = opening_plies.unwrap_or(8);
                    let p = selfplay::record_openings(&read_games(file)?, plies as usize);
                    if p.is_empty() {
                        return Err(CliError::from(format!(
                            "{}: no game has an unfinished position after {plies} plies",
                            file.display()
                        )));
                    }
                    if !quiet && p.len() * 2 < games {
                        eprintln!(
                            "note: {} distinct openings after {plies} plies: at most {} games (more with a larger --opening-plies)",
                            p.len(),
                            p.len() * 2
                        );
                    }
                    (Openings::Positions(p), plies)
                }
                None => (Openings::Random, opening_plies.unwrap_or(4)),
            };
            let timed = clock.is_some() || la.time.is_some() || lb.time.is_some();
            if jobs == Some(0) {
                return Err(CliError::from("--jobs must be at least 1"));
            }
            let run = RunOptions {
                jobs: jobs.unwrap_or(if timed { 1 } else { 0 }),
                clock,
                sprt_stop: sprt,
                sprt: toguz::ladder::Sprt {
                    elo0,
                    elo1,
                    ..Default::default()
                },
            };
            let m = MatchArgs {
                a,
                b,
                games,
                limits_a: la,
                limits_b: lb,
                opening_plies: plies,
                openings,
                run,
                log,
                quiet,
                json,
            };
            run_match(m)
        }
        Command::Review {
            file,
            game,
            time,
            nodes,
            depth,
            multipv,
            threads,
            svg,
            eval,
            json,
        } => {
            let mut config = Config::default();
            eval.apply(&mut config)?;
            let limits = SearchArgs {
                depth,
                time,
                nodes: if time.is_none() && depth.is_none() {
                    Some(nodes.unwrap_or(200_000))
                } else {
                    nodes
                },
                threads,
                hash: 64,
                eval: EvalArgs::default(),
                tables: None,
                no_tables: true,
            }
            .limits(None)?;
            run_review(&file, game, &limits, config, multipv, svg.as_deref(), json)
        }
        Command::Train {
            out,
            self_play,
            records,
            epochs,
            learning_rate,
            lambda,
            l2,
            quiet,
            json,
        } => {
            let sp = self_play.options("full-learned-endgame")?;
            if !(0.0..=1.0).contains(&lambda) {
                return Err(CliError::from("--lambda must be in 0..1"));
            }
            if !(learning_rate.is_finite() && learning_rate > 0.0 && l2.is_finite() && l2 >= 0.0) {
                return Err(CliError::from(
                    "--learning-rate must be positive and --l2 non-negative",
                ));
            }
            let sp = SelfPlayOptions {
                config: Config {
                    tt_mb: 8,
                    ..sp.config
                },
                ..sp
            };
            let opts = TrainOptions {
                epochs,
                learning_rate,
                l2,
                lambda,
                holdout_every: 10,
            };
            run_train(&out, &sp, records.as_deref(), &opts, quiet, json)
        }
    }
}

fn run_review(
    file: &std::path::Path,
    game: Option<usize>,
    limits: &Limits,
    config: Config,
    multipv: bool,
    svg: Option<&std::path::Path>,
    json: bool,
) -> CliResult {
    use toguz::review::{self, Label};
    let games = read_games(file)?;
    let chosen: Vec<usize> = match game {
        Some(n) if n >= 1 && n <= games.len() => vec![n - 1],
        Some(n) => {
            return Err(CliError::input(format!(
                "--game {n}: {} has games 1..{}",
                file.display(),
                games.len()
            )))
        }
        None => (0..games.len()).collect(),
    };
    let mut engine = Engine::new(config);
    let mut reviews = Vec::new();
    for &i in &chosen {
        let g = &games[i];
        let r = review::review(g, &mut engine, limits, multipv, &mut |_, _| {})
            .map_err(|e| format!("{}: {e}", g.describe(i)))?;
        if let Some(path) = svg {
            std::fs::write(path, review::svg(&r))
                .map_err(|e| format!("{}: {e}", path.display()))?;
        }
        if !json {
            println!("{}: {}", g.describe(i), r.result);
            println!("(values in stones and win/draw/loss chances in %, both for the mover)");
            println!(
                "{:>4}  {:<6} {:<8} {:>7} {:>7}  {:<8} {:>7} {:>6}  {:<10} {:>11}  {:>11}",
                "ply",
                "side",
                "move",
                "before",
                "after",
                "best",
                "(score)",
                "lost",
                "label",
                "W/D/L before",
                "W/D/L after"
            );
            let pct = |c: &toguz::chances::Wdl| {
                format!(
                    "{:.0}/{:.0}/{:.0}",
                    c.win * 100.0,
                    c.draw * 100.0,
                    c.loss * 100.0
                )
            };
            for m in &r.moves {
                println!(
                    "{:>4}  {:<6} {:<8} {:>+7.2} {:>+7.2}  {:<8} {:>+7.2} {:>6.2}  {:<10} {:>11}  {:>11}",
                    m.ply,
                    side_name(m.side),
                    m.notation,
                    m.before,
                    m.after,
                    m.best_move,
                    m.best_score,
                    m.loss,
                    m.label.name(),
                    pct(&m.chances_before),
                    pct(&m.chances_after)
                );
            }
            if r.moments.is_empty() {
                println!("No single move decided this game (no drop of {:.0} % or more in the mover's expected score).", review::MOMENT_DROP * 100.0);
            } else {
                println!("The moments that decided the game:");
                for (k, m) in r.moments.iter().enumerate() {
                    println!("  {}. {}", k + 1, m.text);
                }
            }
            println!("({})", r.chances_note);
            for (side, p) in ["White", "Black"].iter().zip(&r.players) {
                let counts: Vec<String> = Label::ALL
                    .iter()
                    .map(|l| format!("{} {}", l.name(), p.labels[*l as usize]))
                    .collect();
                println!(
                    "{side} {}: {} moves, {}; mean loss {:.2} stones",
                    p.name,
                    p.moves,
                    counts.join(", "),
                    p.mean_loss
                );
            }
            if let Some(path) = svg {
                println!("score graph: {}", path.display());
            }
            println!();
        }
        reviews.push((i + 1, r));
    }
    if json {
        #[derive(serde::Serialize)]
        struct Out<'a> {
            game: usize,
            #[serde(flatten)]
            review: &'a review::Review,
        }
        let out: Vec<Out> = reviews
            .iter()
            .map(|(game, review)| Out {
                game: *game,
                review,
            })
            .collect();
        return print_json(&out);
    }
    Ok(())
}

fn parse_position(text: Option<&str>) -> Result<Board, CliError> {
    text.unwrap_or("start")
        .parse::<Board>()
        .map_err(|e| CliError::input(format!("position: {e}")))
}

/// This program's command line (`solver ...`), for the headers of the
/// files it makes.
pub(super) fn command_line() -> String {
    let mut args = std::env::args();
    args.next();
    format!(
        "solver {}",
        args.map(|a| if a.contains(' ') { format!("'{a}'") } else { a })
            .collect::<Vec<_>>()
            .join(" ")
    )
}

pub(super) fn read_games(file: &std::path::Path) -> Result<Vec<pgn::Game>, CliError> {
    let text = std::fs::read_to_string(file).map_err(CliError::file(file))?;
    pgn::parse(&text).map_err(|e| CliError::input(format!("{}: {e}", file.display())))
}

fn positions_at(file: &std::path::Path, ply: usize, every: usize) -> CliResult {
    if every == 0 {
        return Err(CliError::from("--every must be at least 1"));
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
            Err(m) => {
                return Err(CliError::from(format!(
                    "{}: ply {}: {}",
                    g.describe(i),
                    m.ply,
                    m.message
                )))
            }
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
        return Err(CliError::Failed(format!(
            "{} of {} games failed",
            report.failed, report.games
        )));
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

fn run_search(position: Option<&str>, args: &SearchArgs, multipv: usize, json: bool) -> CliResult {
    let board = parse_position(position)?;
    let limits = args.limits(None)?;
    if limits.depth.is_none() && limits.time.is_none() && limits.nodes.is_none() {
        return Err(CliError::from(
            "give --depth N, --time SECONDS or --nodes N",
        ));
    }
    if let Some(o) = board.outcome() {
        return Err(CliError::from(format!("the game is over ({o:?})")));
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
    let r = engine.search_multipv(&board, &limits, multipv, &mut report);
    if json {
        return print_json(&toguz::report::search_json(&board, limits.threads, &r));
    }
    if multipv > 1 {
        println!(
            "depth {}, {} best moves (rank 1 = best):",
            r.depth,
            r.lines.len()
        );
        println!("hole  move     rank      score  pv");
        for hole in 1..=9u8 {
            let Some((rank, l)) = r.lines.iter().enumerate().find(|(_, l)| l.hole == hole) else {
                if !board.is_legal(hole - 1) {
                    println!("{hole:>4}  (empty)");
                }
                continue;
            };
            let mut after = board;
            let effect = after.make(hole - 1);
            let pv: Vec<String> = l.pv.iter().map(|m| m.to_string()).collect();
            println!(
                "{:>4}  {:<7} {:>5}  {:>9}  {}",
                hole,
                move_notation(hole - 1, &effect, &after),
                rank + 1,
                score_text(l.score),
                pv.join(" ")
            );
        }
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
    mover: toguz::Side,
    #[serde(rename = "move")]
    notation: String,
    position: String,
    outcome: Option<Outcome>,
}

fn play(
    side: &str,
    position: Option<&str>,
    args: &SearchArgs,
    clock: Option<Clock>,
    json: bool,
) -> CliResult {
    let human = match side {
        "w" | "white" => toguz::Side::White,
        "b" | "black" => toguz::Side::Black,
        other => {
            return Err(CliError::from(format!(
                "--side must be `w` or `b` (got `{other}`)"
            )))
        }
    };
    let mut board = parse_position(position)?;
    let mut limits = args.limits(if clock.is_some() { None } else { Some(2.0) })?;
    let mut engine = args.engine()?;
    let mut left = clock.map(|c| c.base);
    let mut plies = 0usize;
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
            if let (Some(c), Some(l)) = (clock, left) {
                limits.time = Some(selfplay::time_for_move(l, c.increment, plies));
            }
            let t = Instant::now();
            let r = engine.search(&board, &limits, &mut |_| {});
            let Some(best) = r.best else {
                return Err(CliError::from("engine found no move"));
            };
            if let (Some(c), Some(l)) = (clock, left) {
                let spent = t.elapsed();
                if spent > l {
                    println!("the engine ran out of time: you win");
                    return Ok(());
                }
                left = Some(l - spent + c.increment);
                if !json {
                    println!(
                        "engine clock: {:.1} s left",
                        (l - spent + c.increment).as_secs_f64()
                    );
                }
            }
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
        plies += 1;
        let notation = move_notation(m, &effect, &board);
        if json {
            let event = PlayEvent {
                mover,
                notation,
                position: board.to_string(),
                outcome: board.outcome(),
            };
            let line = serde_json::to_string(&event)?;
            println!("{line}");
        } else {
            println!("{} plays {notation}", side_name(mover));
        }
    }
}

struct MatchArgs {
    a: EngineSpec,
    b: EngineSpec,
    games: usize,
    limits_a: Limits,
    limits_b: Limits,
    opening_plies: u32,
    openings: Openings,
    run: RunOptions,
    log: Option<std::path::PathBuf>,
    quiet: bool,
    json: bool,
}

fn match_line(r: &selfplay::MatchResult) -> String {
    format!(
        "{} games: +{} ={} -{}, score {:.1}%, Elo {:+.1} [{:+.1}, {:+.1}], LLR {:.2} [{:.2}, {:.2}] {}",
        r.games,
        r.wins,
        r.draws,
        r.losses,
        100.0 * r.score,
        r.elo,
        r.elo_low,
        r.elo_high,
        r.sprt.llr,
        r.sprt.lower,
        r.sprt.upper,
        r.sprt.verdict
    )
}

fn run_match(m: MatchArgs) -> CliResult {
    for (name, l, spec) in [("A", &m.limits_a, &m.a), ("B", &m.limits_b, &m.b)] {
        if l.nodes.is_none() && l.depth.is_none() && l.time.is_none() && m.run.clock.is_none() {
            return Err(CliError::from(format!(
                "engine {name}: give a node, depth or time limit per move, or a --clock"
            )));
        }
        if !spec.config.features.iterative && l.depth.is_none() {
            return Err(CliError::from(format!(
                "engine {name} is not iterative: give it a depth"
            )));
        }
    }
    if m.games == 0 {
        return Err(CliError::from("--games must be at least 1"));
    }
    // An external engine must start and answer the handshake.
    for spec in [&m.a, &m.b] {
        if let Some(argv) = &spec.exec {
            toguz::external::ExternalEngine::start(argv).map_err(|e| e.to_string())?;
        }
    }
    let opts = MatchOptions {
        games: m.games,
        limits_a: m.limits_a,
        limits_b: m.limits_b,
        opening_plies: m.opening_plies,
    };
    let quiet = m.quiet;
    let (r, from_log) = selfplay::play_match_logged(
        &m.a,
        &m.b,
        &opts,
        &m.openings,
        &m.run,
        m.log.as_deref(),
        &mut |r| {
            if !quiet {
                eprintln!("{}", match_line(r));
            }
        },
    )
    .map_err(|e| CliError::from(e.to_string()))?;
    if let (Some(path), false) = (&m.log, quiet) {
        eprintln!(
            "{from_log} of {} games from the log {}, {} played now",
            r.games,
            path.display(),
            r.games - from_log
        );
    }
    if m.json {
        return print_json(&r);
    }
    let per_move = |s: usize| {
        let mv = r.moves[s].max(1) as f64;
        let tables = if r.tb_hits[s] > 0 {
            format!(
                ", {:.0} table hits per move, tables hit in {} games",
                r.tb_hits[s] as f64 / mv,
                r.tb_games[s]
            )
        } else {
            String::new()
        };
        format!(
            "{:.0} nodes, depth {:.1}, {:.1} ms per move{tables}",
            r.nodes[s] as f64 / mv,
            r.depth_sum[s] as f64 / mv,
            1000.0 * r.seconds[s] / mv
        )
    };
    println!("A = {}: {}", r.a, per_move(0));
    println!("B = {}: {}", r.b, per_move(1));
    println!(
        "for A: {} (mean kazan difference {:+.2}, {} adjudicated, time losses A {} B {})",
        match_line(&r),
        r.mean_kazan_diff,
        r.adjudicated,
        r.time_losses[0],
        r.time_losses[1]
    );
    if let Some(e) = &r.first_error {
        println!(
            "engine failures (forfeits): A {} B {}; first: {e}",
            r.engine_errors[0], r.engine_errors[1]
        );
    }
    Ok(())
}

fn run_train(
    out: &std::path::Path,
    sp: &SelfPlayOptions,
    records: Option<&std::path::Path>,
    opts: &TrainOptions,
    quiet: bool,
    json: bool,
) -> CliResult {
    // Fail on an unwritable output before hours of work (without touching
    // an existing file).
    std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(out)
        .map_err(|e| format!("{}: {e}", out.display()))?;
    let mut samples = Vec::new();
    let t = Instant::now();
    if let Some(file) = records {
        samples = train::record_samples(&read_games(file)?);
        if !quiet {
            eprintln!("{} positions from {}", samples.len(), file.display());
        }
    }
    let step = (sp.games / 20).max(1);
    let self_play = train::selfplay_samples(sp, &|done| {
        if !quiet && (done % step == 0 || done == sp.games) {
            eprintln!(
                "self-play: {done}/{} games ({:.0} s)",
                sp.games,
                t.elapsed().as_secs_f64()
            );
        }
    });
    let n_self = self_play.len();
    samples.extend(self_play);
    if samples.is_empty() {
        return Err(CliError::from(
            "no training positions (give --games or --records)",
        ));
    }
    let origin = command_line();
    let (weights, report) = train::train(&samples, opts, &origin, &mut |epoch, loss| {
        if !quiet {
            eprintln!("epoch {epoch}: training loss {loss:.5}");
        }
    });
    std::fs::write(out, weights.to_text()).map_err(|e| format!("{}: {e}", out.display()))?;
    if json {
        #[derive(serde::Serialize)]
        struct Out<'a> {
            out: String,
            self_play_positions: usize,
            seconds: f64,
            #[serde(flatten)]
            report: &'a train::TrainReport,
        }
        return print_json(&Out {
            out: out.display().to_string(),
            self_play_positions: n_self,
            seconds: t.elapsed().as_secs_f64(),
            report: &report,
        });
    }
    println!(
        "{} positions ({} self-play), {} held out; material slope {:.4}/stone; held-out loss {:.5} (material only) -> {:.5} (trained); {:.0} s; weights in {}",
        report.train_positions + report.holdout_positions,
        n_self,
        report.holdout_positions,
        report.material_slope,
        report.holdout_loss_material,
        report.holdout_loss_trained,
        t.elapsed().as_secs_f64(),
        out.display()
    );
    Ok(())
}
