//! Self-play matches between two engine set-ups from varied openings (random
//! or from game records, each played with both colours), by node, depth,
//! time or clock limits; the result with its Elo difference, 95 % interval
//! and SPRT verdict ([`super::ladder`]) decides whether a change is kept
//! (docs/toguz.md). An engine can also be another program speaking the
//! engine protocol (`exec:PATH ARGS`, [`super::external`]), one process
//! per game.

use super::board::{Board, Side};
use super::egtb::Tables;
use super::eval::EvalParams;
use super::external::{ExternalEngine, ExternalError};
use super::ladder::{self, Sprt};
use super::linear;
use super::pgn;
use super::search::{Config, Engine, Features, Limits, Net, Weights};
use rayon::prelude::*;
use std::str::FromStr;
use std::sync::Arc;
use std::time::{Duration, Instant};

pub mod log;
pub use log::LogError;

/// An engine set-up with its name (e.g. `full-tt`).
#[derive(Clone, Debug)]
pub struct EngineSpec {
    /// The text it was parsed from.
    pub name: String,
    /// The configuration (of this build's engine; unused with `exec`).
    pub config: Config,
    /// Another program speaking the engine protocol: the program and its
    /// arguments (`exec:PATH ARGS`).
    pub exec: Option<Vec<String>>,
    /// Endgame share tables this build's engine probes (none by default;
    /// `--a-tables` / `--b-tables` of `solver toguz match`).
    pub tables: Option<Arc<Tables>>,
    /// Options sent to an external engine after its handshake
    /// (`setoption name N value V`), e.g. `Tables` and a directory.
    pub exec_options: Vec<(String, String)>,
}

/// Why an engine spec was rejected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    /// Must start with `full` or `plain`.
    #[error("engine must start with `full` or `plain` (found `{0}`)")]
    Base(String),
    /// Unknown feature name.
    #[error(
        "unknown feature `{0}` (tt, pvs, ordering, quiescence[=N], iterative, lmr[=N], aspiration, nullmove, eval, learned, nnue, tuzdyk[=N], mobility[=N], own[=N], endgame[=N])"
    )]
    Feature(String),
    /// `exec:` without a program.
    #[error("`exec:` needs a program, e.g. `exec:./solver toguz engine`")]
    Exec,
    /// The built-in network cannot be used.
    #[error("built-in network: {0}")]
    Net(String),
}

impl FromStr for EngineSpec {
    type Err = SpecError;

    /// `full` or `plain`, then `-feature` / `+feature` toggles, e.g.
    /// `full-tt-ordering` or `plain+quiescence`; `+name=N` sets an
    /// evaluation weight (`+tuzdyk=700`), the quiescence length
    /// (`+quiescence=4`), the first reduced move (`+lmr=2`) or the endgame
    /// solver's stone limit (`+endgame=24`);
    /// `nnue` the neural network (built-in net, on in `full`; `full-nnue` is
    /// the linear model); `learned` switches the linear model (built-in
    /// weights) on, replacing the network, or off (`full-learned` is the
    /// hand-set evaluation). `exec:PATH ARGS` is an
    /// external program (arguments split at white space).
    fn from_str(s: &str) -> Result<EngineSpec, SpecError> {
        if let Some(cmd) = s.strip_prefix("exec:") {
            let argv: Vec<String> = cmd.split_whitespace().map(str::to_string).collect();
            if argv.is_empty() {
                return Err(SpecError::Exec);
            }
            return Ok(EngineSpec {
                name: s.to_string(),
                config: Config::default(),
                exec: Some(argv),
                tables: None,
                exec_options: Vec::new(),
            });
        }
        let split = s.find(['-', '+']).unwrap_or(s.len());
        let (base, mut rest) = s.split_at(split);
        let mut config = Config {
            tt_mb: 16,
            ..Config::default()
        };
        match base {
            "full" => {}
            "plain" => {
                config.features = Features::PLAIN;
                config.eval = EvalParams::MATERIAL;
                config.learned = None;
                config.nnue = None;
                config.endgame_stones = 0;
            }
            other => return Err(SpecError::Base(other.to_string())),
        }
        while !rest.is_empty() {
            let on = rest.starts_with('+');
            let body = &rest[1..];
            let end = body.find(['-', '+']).unwrap_or(body.len());
            let token = &body[..end];
            rest = &body[end..];
            // `name` or `name=value` (a weight or a length).
            let (f, value) = match token.split_once('=') {
                Some((f, v)) => (
                    f,
                    Some(
                        v.parse::<i32>()
                            .map_err(|_| SpecError::Feature(token.to_string()))?,
                    ),
                ),
                None => (token, None),
            };
            let weight = |default: i32| if on { value.unwrap_or(default) } else { 0 };
            let d = EvalParams::DEFAULT;
            let feats = &mut config.features;
            match f {
                "tt" => feats.tt = on,
                "pvs" => feats.pvs = on,
                "ordering" => feats.ordering = on,
                "quiescence" => {
                    feats.quiescence = on;
                    if let Some(v) = value {
                        config.qsearch_plies = v.max(0) as u32;
                    }
                }
                "iterative" => feats.iterative = on,
                "lmr" => {
                    feats.lmr = on;
                    if let Some(v) = value {
                        config.lmr_from = v.max(1) as u32;
                    }
                }
                "aspiration" => feats.aspiration = on,
                "nullmove" => feats.nullmove = on,
                "eval" => {
                    config.eval = if on { d } else { EvalParams::MATERIAL };
                    if !on {
                        config.learned = None;
                        config.nnue = None;
                    }
                }
                "learned" => {
                    // `+learned` is the linear model, `-learned` the
                    // hand-set terms: neither is the network.
                    config.learned = on.then(|| Weights(linear::builtin()));
                    config.nnue = None;
                }
                "nnue" => {
                    config.nnue = if on {
                        Some(Net(
                            crate::nnue::builtin().map_err(|e| SpecError::Net(e.to_string()))?
                        ))
                    } else {
                        None
                    }
                }
                "endgame" => config.endgame_stones = weight(20).max(0) as u32,
                "tuzdyk" => config.eval.tuzdyk = weight(d.tuzdyk),
                "mobility" => config.eval.mobility = weight(d.mobility),
                "own" => config.eval.own_stones = weight(d.own_stones),
                other => return Err(SpecError::Feature(other.to_string())),
            }
        }
        Ok(EngineSpec {
            name: s.to_string(),
            config,
            exec: None,
            tables: None,
            exec_options: Vec::new(),
        })
    }
}

/// A game clock: base time plus an increment per move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    /// Time for the whole game.
    pub base: Duration,
    /// Added after every move.
    pub increment: Duration,
}

impl FromStr for Clock {
    type Err = String;

    /// `BASE+INC` in seconds, e.g. `300+2` or `60` (no increment).
    fn from_str(s: &str) -> Result<Clock, String> {
        let (b, i) = s.split_once('+').unwrap_or((s, "0"));
        let secs = |t: &str| {
            t.trim()
                .parse::<f64>()
                .ok()
                .filter(|x| x.is_finite() && *x >= 0.0 && *x < 1e7)
                .map(Duration::from_secs_f64)
                .ok_or_else(|| format!("clock `{s}`: expected BASE+INC in seconds, e.g. 300+2"))
        };
        let c = Clock {
            base: secs(b)?,
            increment: secs(i)?,
        };
        if c.base.is_zero() {
            return Err(format!("clock `{s}`: the base time must be positive"));
        }
        Ok(c)
    }
}

impl std::fmt::Display for Clock {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}+{}",
            self.base.as_secs_f64(),
            self.increment.as_secs_f64()
        )
    }
}

/// How a match is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MatchOptions {
    /// Number of games (openings × 2 colours, rounded up to even).
    pub games: usize,
    /// Search limits of every move of engine A.
    pub limits_a: Limits,
    /// Search limits of every move of engine B.
    pub limits_b: Limits,
    /// Random plies of each opening (with [`Openings::Random`]).
    pub opening_plies: u32,
}

/// Where the openings come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Openings {
    /// Pseudo-random plies from the start ([`openings`]).
    Random,
    /// These positions, in order (e.g. [`record_openings`]).
    Positions(Vec<Board>),
}

/// How the match is run beyond the per-move limits.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RunOptions {
    /// Games played at once (0: one per rayon thread).
    pub jobs: usize,
    /// Both sides play on this clock instead of their per-move limits (node
    /// and depth limits still apply).
    pub clock: Option<Clock>,
    /// Stop as soon as the SPRT decides (checked after every batch of games).
    pub sprt_stop: bool,
    /// The SPRT's hypotheses (Elo under H0 and H1).
    pub sprt: Sprt,
}

/// Longest game before it is adjudicated on kazans.
pub const MAX_GAME_PLIES: usize = 600;

/// Match outcome from engine A's point of view.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct MatchResult {
    /// Engine A.
    pub a: String,
    /// Engine B.
    pub b: String,
    /// Games played.
    pub games: usize,
    /// Wins of A.
    pub wins: usize,
    /// Draws.
    pub draws: usize,
    /// Losses of A.
    pub losses: usize,
    /// (wins + draws / 2) / games.
    pub score: f64,
    /// Elo difference A − B (logistic model).
    pub elo: f64,
    /// 95 % interval of the Elo difference.
    pub elo_low: f64,
    /// See `elo_low`.
    pub elo_high: f64,
    /// SPRT log-likelihood ratio and its verdict.
    pub sprt: ladder::SprtResult,
    /// Mean final kazan difference, A minus B.
    pub mean_kazan_diff: f64,
    /// Games adjudicated on kazans after [`MAX_GAME_PLIES`].
    pub adjudicated: usize,
    /// Games lost on time by A and by B (clock mode).
    pub time_losses: [usize; 2],
    /// Games forfeited by A and by B because the engine failed (an external
    /// engine that crashed, hung or played an illegal move).
    pub engine_errors: [usize; 2],
    /// The first such failure.
    pub first_error: Option<String>,
    /// Total nodes searched by A and by B.
    pub nodes: [u64; 2],
    /// Total search time of A and of B in seconds.
    pub seconds: [f64; 2],
    /// Sum of the depths reached by A and by B, and moves searched.
    pub depth_sum: [u64; 2],
    /// Moves searched by A and by B.
    pub moves: [u64; 2],
    /// Search nodes answered by the endgame share tables, A and B (an
    /// external engine's from the `tbhits` of its last `info` line).
    pub tb_hits: [u64; 2],
    /// Games in which some move of A's or B's search was answered by its
    /// tables.
    pub tb_games: [usize; 2],
}

/// Distinct openings: `plies` pseudo-random legal moves from the start
/// (deterministic; stops early at a finished game).
pub fn openings(count: usize, plies: u32) -> Vec<Board> {
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::with_capacity(count);
    let mut x: u64 = 0x0123_4567_89AB_CDEF;
    let mut tries = 0;
    while out.len() < count && tries < count * 100 {
        tries += 1;
        let mut b = Board::start();
        for _ in 0..plies {
            let mask = b.legal_mask();
            if mask == 0 {
                break;
            }
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let k = (x % u64::from(mask.count_ones())) as u32;
            let mut mm = mask;
            for _ in 0..k {
                mm &= mm - 1;
            }
            b.make(mm.trailing_zeros() as u8);
        }
        if seen.insert(b.hash()) {
            out.push(b);
        }
    }
    out
}

/// Distinct positions after `plies` plies of recorded games, in file order
/// (games that are shorter, do not replay or have ended are skipped).
pub fn record_openings(games: &[pgn::Game], plies: usize) -> Vec<Board> {
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for g in games {
        if g.moves.len() <= plies {
            continue;
        }
        let mut short = g.clone();
        short.moves.truncate(plies);
        short.result = None;
        if let Ok(r) = pgn::replay(&short) {
            if r.outcome.is_none() && seen.insert(r.board.hash()) {
                out.push(r.board);
            }
        }
    }
    out
}

/// Distinct endgame starts: in each recorded game (that replays), the first
/// position with at most `stones` stones on the board and the game not
/// over, in file order. A suite for what the endgame share tables change.
pub fn record_endgames(games: &[pgn::Game], stones: u32) -> Vec<Board> {
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for g in games.iter().filter(|g| pgn::replay(g).is_ok()) {
        let mut short = g.clone();
        short.result = None;
        for plies in 0..=g.moves.len() {
            short.moves = g.moves[..plies].to_vec();
            let Ok(r) = pgn::replay(&short) else { break };
            if r.outcome.is_some() {
                break;
            }
            if r.board.stones_on_board() <= stones {
                if seen.insert(r.board.hash()) {
                    out.push(r.board);
                }
                break;
            }
        }
    }
    out
}

/// One game's record (a line of a match log holds it: [`log`]).
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
struct GameRecord {
    /// Final kazans as [A, B].
    kazans: [u32; 2],
    adjudicated: bool,
    /// Side that lost on time (0 = A, 1 = B).
    flagged: Option<usize>,
    /// Side whose engine failed, and why.
    failed: Option<(usize, String)>,
    nodes: [u64; 2],
    seconds: [f64; 2],
    depth_sum: [u64; 2],
    moves: [u64; 2],
    tb_hits: [u64; 2],
}

impl GameRecord {
    /// The result for engine A (`Greater` a win): a side that lost on
    /// time or whose engine failed has lost, else the kazans decide.
    fn result_for_a(&self) -> std::cmp::Ordering {
        match self.flagged.or(self.failed.as_ref().map(|f| f.0)) {
            Some(0) => std::cmp::Ordering::Less,
            Some(_) => std::cmp::Ordering::Greater,
            None => self.kazans[0].cmp(&self.kazans[1]),
        }
    }
}

/// A player of one game: this build's engine or another process.
enum Player {
    Internal(Box<Engine>),
    External(Box<ExternalEngine>),
}

impl Player {
    fn new(spec: &EngineSpec) -> Result<Player, ExternalError> {
        Ok(match &spec.exec {
            None => {
                let mut e = Engine::new(spec.config);
                e.set_tables(spec.tables.clone());
                Player::Internal(Box::new(e))
            }
            Some(argv) => {
                let mut e = ExternalEngine::start(argv)?;
                for (name, value) in &spec.exec_options {
                    e.set_option(name, value)?;
                }
                e.new_game()?;
                Player::External(Box::new(e))
            }
        })
    }
}

/// The `go` arguments for an external engine.
fn go_text(l: &Limits, clock: Option<(Clock, [Duration; 2])>) -> String {
    let mut s = Vec::new();
    if let Some(n) = l.nodes {
        s.push(format!("nodes {n}"));
    }
    if let Some(d) = l.depth {
        s.push(format!("depth {d}"));
    }
    if let Some((c, left)) = clock {
        let ms = |d: Duration| d.as_millis();
        s.push(format!(
            "wtime {} btime {} winc {} binc {}",
            ms(left[0]),
            ms(left[1]),
            ms(c.increment),
            ms(c.increment)
        ));
    } else if let Some(t) = l.time {
        s.push(format!("movetime {}", t.as_millis().max(1)));
    }
    s.join(" ")
}

/// One game from `start` with A playing `a_side`.
fn play_game(
    start: &Board,
    a_side: Side,
    a: &EngineSpec,
    b: &EngineSpec,
    opts: &MatchOptions,
    clock: Option<Clock>,
) -> GameRecord {
    let mut rec = GameRecord::default();
    let mut engines = match (Player::new(a), Player::new(b)) {
        (Ok(x), Ok(y)) => [x, y],
        (Err(e), _) => {
            rec.failed = Some((0, e.to_string()));
            return rec;
        }
        (_, Err(e)) => {
            rec.failed = Some((1, e.to_string()));
            return rec;
        }
    };
    let limits = [opts.limits_a, opts.limits_b];
    let mut left = [clock.map_or(Duration::ZERO, |c| c.base); 2];
    let mut board = *start;
    let mut played: Vec<u8> = Vec::new();
    let mut plies = 0;
    while board.outcome().is_none() && plies < MAX_GAME_PLIES {
        let who = usize::from(board.side != a_side);
        let mut l = limits[who];
        if let Some(c) = clock {
            l.time = Some(time_for_move(left[who], c.increment, plies));
        }
        let t = Instant::now();
        let (best, nodes, depth) = match &mut engines[who] {
            Player::Internal(e) => {
                let r = e.search(&board, &l, &mut |_| {});
                rec.tb_hits[who] += r.tb_hits;
                (r.best, r.nodes, r.depth)
            }
            Player::External(e) => {
                // White's and Black's clocks.
                let by_colour = if a_side == Side::White {
                    left
                } else {
                    [left[1], left[0]]
                };
                let go = go_text(&l, clock.map(|c| (c, by_colour)));
                // Node and depth limits get a generous allowance.
                let timeout = match clock {
                    Some(_) => left[who] + Duration::from_secs(5),
                    None => l
                        .time
                        .map_or(Duration::from_secs(120), |t| t * 2 + Duration::from_secs(5)),
                };
                match e.go(start, &played, &go, timeout) {
                    Ok(ans) => {
                        rec.tb_hits[who] += ans.tb_hits;
                        (ans.best, ans.nodes, ans.depth)
                    }
                    Err(err) => {
                        rec.failed = Some((who, err.to_string()));
                        break;
                    }
                }
            }
        };
        let spent = t.elapsed();
        rec.nodes[who] += nodes;
        rec.seconds[who] += spent.as_secs_f64();
        rec.depth_sum[who] += depth.max(0) as u64;
        rec.moves[who] += 1;
        if let Some(c) = clock {
            if spent > left[who] {
                rec.flagged = Some(who);
                break;
            }
            left[who] = left[who] - spent + c.increment;
        }
        let Some(m) = best else { break };
        board.make(m - 1);
        played.push(m);
        plies += 1;
    }
    let k = if board.outcome().is_some() {
        board.final_kazans()
    } else {
        [u32::from(board.kazan[0]), u32::from(board.kazan[1])]
    };
    rec.kazans = [k[a_side.index()], k[a_side.opponent().index()]];
    rec.adjudicated = board.outcome().is_none() && rec.flagged.is_none() && rec.failed.is_none();
    rec
}

/// Thinking time for one move on a clock with `left` remaining and
/// `increment` per move, `plies` plies into the game. The search stops
/// starting new iterations after half of it, so about `left / 40 +
/// increment` is spent on average; it never exceeds a third of `left`.
pub fn time_for_move(left: Duration, increment: Duration, plies: usize) -> Duration {
    // Games last about 150 plies; plan for at least 25 more own moves.
    let to_go = (75u32.saturating_sub(plies as u32 / 2)).max(25);
    let budget = left / to_go + increment * 3 / 4;
    let margin = Duration::from_millis(20).min(left / 4);
    (budget * 2)
        .min(left / 3)
        .min(left.saturating_sub(margin))
        .max(Duration::from_millis(1))
}

/// The test match of a trained evaluation against the material-only one
/// (the trainers' tests): 60 games at 2,000 nodes a move, one thread per
/// engine, openings after 6 pseudo-random plies with both colours.
#[cfg(test)]
pub(crate) fn match_against_material(trained: Config, material: Config) -> MatchResult {
    let spec = |name: &str, config: Config| EngineSpec {
        name: name.into(),
        config,
        exec: None,
        tables: None,
        exec_options: Vec::new(),
    };
    let limits = Limits {
        nodes: Some(2000),
        threads: 1,
        ..Limits::default()
    };
    let opts = MatchOptions {
        games: 60,
        limits_a: limits,
        limits_b: limits,
        opening_plies: 6,
    };
    play_match(
        &spec("trained", trained),
        &spec("material", material),
        &opts,
    )
}

/// Play a match with openings from the start (pseudo-random plies), all
/// games at once on the rayon pool (each game is deterministic under node or
/// depth limits).
pub fn play_match(a: &EngineSpec, b: &EngineSpec, opts: &MatchOptions) -> MatchResult {
    play_match_with(
        a,
        b,
        opts,
        &Openings::Random,
        &RunOptions::default(),
        &mut |_| {},
    )
}

/// Play a match: every opening with both colours (at most two games per
/// opening, so fewer than `opts.games` when there are too few), in batches of games
/// played `run.jobs` at a time; `progress` sees the running result after
/// every batch. With `run.sprt_stop` the match ends when the SPRT decides.
pub fn play_match_with(
    a: &EngineSpec,
    b: &EngineSpec,
    opts: &MatchOptions,
    openings_from: &Openings,
    run: &RunOptions,
    progress: &mut dyn FnMut(&MatchResult),
) -> MatchResult {
    match play_match_logged(a, b, opts, openings_from, run, None, progress) {
        Ok((r, _)) => r,
        Err(e) => unreachable!("no log, no log error: {e}"),
    }
}

/// [`play_match_with`], appending every finished game to the match log at
/// `log` ([`log`]) and taking the games already in it from there instead
/// of playing them again; also returns how many games came from the log.
/// A log written with other settings (engines, limits, clock, openings) is
/// refused. The result equals a match played in one go (the same games in
/// the same batches).
pub fn play_match_logged(
    a: &EngineSpec,
    b: &EngineSpec,
    opts: &MatchOptions,
    openings_from: &Openings,
    run: &RunOptions,
    log: Option<&std::path::Path>,
    progress: &mut dyn FnMut(&MatchResult),
) -> Result<(MatchResult, usize), LogError> {
    let pairs = opts.games.div_ceil(2);
    let starts = match openings_from {
        Openings::Random => openings(pairs, opts.opening_plies),
        // Each opening once with each colour: no game is repeated.
        Openings::Positions(p) => p.iter().copied().take(pairs).collect(),
    };
    let jobs: Vec<(Board, Side)> = starts
        .iter()
        .flat_map(|s| [(*s, Side::White), (*s, Side::Black)])
        .take(opts.games.max(2))
        .collect();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(run.jobs)
        .build()
        .expect("rayon pool");
    let width = pool.current_num_threads().max(1);
    // Batches of whole pairs, a few per thread, so the SPRT can stop early
    // (and results are reported as they come).
    let batch = (width * 4).next_multiple_of(2).max(10);
    let log = match log {
        Some(path) => {
            let l = log::MatchLog::open(path, &log::settings(a, b, opts, openings_from, run))?;
            l.check_starts(&jobs)?;
            Some(l)
        }
        None => None,
    };
    let mut from_log = 0;
    let mut records: Vec<GameRecord> = Vec::with_capacity(jobs.len());
    let mut result = summarise(a, b, &records, run);
    for (c, chunk) in jobs.chunks(batch).enumerate() {
        let first = c * batch;
        let done: Vec<Result<GameRecord, LogError>> = pool.install(|| {
            chunk
                .par_iter()
                .enumerate()
                .map(|(k, (s, side))| {
                    let i = first + k;
                    if let Some(g) = log.as_ref().and_then(|l| l.games.get(&i)) {
                        return Ok(g.clone());
                    }
                    let g = play_game(s, *side, a, b, opts, run.clock);
                    if let Some(l) = &log {
                        l.append(i, s, *side, &g)?;
                    }
                    Ok(g)
                })
                .collect()
        });
        for g in done {
            records.push(g?);
        }
        from_log += log.as_ref().map_or(0, |l| {
            (first..first + chunk.len())
                .filter(|i| l.games.contains_key(i))
                .count()
        });
        result = summarise(a, b, &records, run);
        progress(&result);
        if run.sprt_stop && result.sprt.verdict != ladder::Verdict::Continue {
            break;
        }
    }
    Ok((result, from_log))
}

fn summarise(
    a: &EngineSpec,
    b: &EngineSpec,
    records: &[GameRecord],
    run: &RunOptions,
) -> MatchResult {
    let mut r = MatchResult {
        a: a.name.clone(),
        b: b.name.clone(),
        games: records.len(),
        wins: 0,
        draws: 0,
        losses: 0,
        score: 0.0,
        elo: 0.0,
        elo_low: 0.0,
        elo_high: 0.0,
        sprt: ladder::SprtResult::default(),
        mean_kazan_diff: 0.0,
        adjudicated: 0,
        time_losses: [0, 0],
        engine_errors: [0, 0],
        first_error: None,
        nodes: [0, 0],
        seconds: [0.0, 0.0],
        depth_sum: [0, 0],
        moves: [0, 0],
        tb_hits: [0, 0],
        tb_games: [0, 0],
    };
    let mut diff = 0i64;
    for g in records {
        let k = g.kazans;
        if let Some((who, why)) = &g.failed {
            r.engine_errors[*who] += 1;
            if r.first_error.is_none() {
                r.first_error = Some(why.clone());
            }
        }
        match g.result_for_a() {
            std::cmp::Ordering::Greater => r.wins += 1,
            std::cmp::Ordering::Equal => r.draws += 1,
            std::cmp::Ordering::Less => r.losses += 1,
        }
        if let Some(w) = g.flagged {
            r.time_losses[w] += 1;
        }
        r.adjudicated += usize::from(g.adjudicated);
        diff += i64::from(k[0]) - i64::from(k[1]);
        for s in 0..2 {
            r.nodes[s] += g.nodes[s];
            r.seconds[s] += g.seconds[s];
            r.depth_sum[s] += g.depth_sum[s];
            r.moves[s] += g.moves[s];
            r.tb_hits[s] += g.tb_hits[s];
            r.tb_games[s] += usize::from(g.tb_hits[s] > 0);
        }
    }
    let g = records.len().max(1) as f64;
    r.score = (r.wins as f64 + r.draws as f64 / 2.0) / g;
    r.mean_kazan_diff = diff as f64 / g;
    let e = ladder::elo_interval(r.wins, r.draws, r.losses);
    (r.elo, r.elo_low, r.elo_high) = (e.elo, e.low, e.high);
    r.sprt = run.sprt.test(r.wins, r.draws, r.losses);
    r
}
