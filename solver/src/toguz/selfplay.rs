//! Self-play matches between two engine set-ups from varied openings, used to
//! show that each search feature and evaluation term pays (docs/toguz.md).

use super::board::{Board, Side};
use super::eval::EvalParams;
use super::search::{Config, Engine, Features, Limits};
use rayon::prelude::*;
use std::str::FromStr;

/// An engine set-up with its name (e.g. `full-tt`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// The text it was parsed from.
    pub name: String,
    /// The configuration.
    pub config: Config,
}

/// Why an engine spec was rejected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    /// Must start with `full` or `plain`.
    #[error("engine must start with `full` or `plain` (found `{0}`)")]
    Base(String),
    /// Unknown feature name.
    #[error(
        "unknown feature `{0}` (tt, pvs, ordering, quiescence[=N], iterative, lmr, aspiration, eval, tuzdyk[=N], mobility[=N], own[=N], endgame[=N])"
    )]
    Feature(String),
}

impl FromStr for EngineSpec {
    type Err = SpecError;

    /// `full` or `plain`, then `-feature` / `+feature` toggles, e.g.
    /// `full-tt-ordering` or `plain+quiescence`; `+name=N` sets an
    /// evaluation weight (`+tuzdyk=700`), the quiescence length
    /// (`+quiescence=4`) or the endgame solver's stone limit (`+endgame=24`).
    fn from_str(s: &str) -> Result<EngineSpec, SpecError> {
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
                "lmr" => feats.lmr = on,
                "aspiration" => feats.aspiration = on,
                "eval" => config.eval = if on { d } else { EvalParams::MATERIAL },
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
        })
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
    /// Random plies of each opening.
    pub opening_plies: u32,
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
    /// Mean final kazan difference, A minus B.
    pub mean_kazan_diff: f64,
    /// Games adjudicated on kazans after [`MAX_GAME_PLIES`].
    pub adjudicated: usize,
    /// Total nodes searched by A and by B.
    pub nodes: [u64; 2],
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

/// One game; returns (final kazans as [A, B], adjudicated, nodes [A, B]).
fn play_game(
    start: &Board,
    a_side: Side,
    a: &EngineSpec,
    b: &EngineSpec,
    opts: &MatchOptions,
) -> ([u32; 2], bool, [u64; 2]) {
    let mut engines = [Engine::new(a.config), Engine::new(b.config)];
    let limits = [opts.limits_a, opts.limits_b];
    let mut nodes = [0u64; 2];
    let mut board = *start;
    let mut plies = 0;
    while board.outcome().is_none() && plies < MAX_GAME_PLIES {
        let who = usize::from(board.side != a_side);
        let r = engines[who].search(&board, &limits[who], &mut |_| {});
        nodes[who] += r.nodes;
        let Some(m) = r.best else { break };
        board.make(m - 1);
        plies += 1;
    }
    let k = if board.outcome().is_some() {
        board.final_kazans()
    } else {
        [u32::from(board.kazan[0]), u32::from(board.kazan[1])]
    };
    let ka = [k[a_side.index()], k[a_side.opponent().index()]];
    (ka, board.outcome().is_none(), nodes)
}

/// Play a match (games in parallel on the rayon pool; each game is
/// deterministic under node or depth limits).
pub fn play_match(a: &EngineSpec, b: &EngineSpec, opts: &MatchOptions) -> MatchResult {
    let pairs = opts.games.div_ceil(2);
    let starts = openings(pairs, opts.opening_plies);
    let jobs: Vec<(Board, Side)> = starts
        .iter()
        .flat_map(|s| [(*s, Side::White), (*s, Side::Black)])
        .collect();
    let results: Vec<([u32; 2], bool, [u64; 2])> = jobs
        .par_iter()
        .map(|(s, side)| play_game(s, *side, a, b, opts))
        .collect();
    let mut r = MatchResult {
        a: a.name.clone(),
        b: b.name.clone(),
        games: results.len(),
        wins: 0,
        draws: 0,
        losses: 0,
        score: 0.0,
        mean_kazan_diff: 0.0,
        adjudicated: 0,
        nodes: [0, 0],
    };
    let mut diff = 0i64;
    for (k, adj, n) in &results {
        match k[0].cmp(&k[1]) {
            std::cmp::Ordering::Greater => r.wins += 1,
            std::cmp::Ordering::Equal => r.draws += 1,
            std::cmp::Ordering::Less => r.losses += 1,
        }
        r.adjudicated += usize::from(*adj);
        diff += i64::from(k[0]) - i64::from(k[1]);
        r.nodes[0] += n[0];
        r.nodes[1] += n[1];
    }
    let g = results.len().max(1) as f64;
    r.score = (r.wins as f64 + r.draws as f64 / 2.0) / g;
    r.mean_kazan_diff = diff as f64 / g;
    r
}
