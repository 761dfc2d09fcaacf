//! Puzzles from real games: positions where exactly one move keeps the win
//! (or, when nothing wins, exactly one keeps the draw).
//!
//! A position is decided exactly when every move's result is known — from
//! the endgame share tables, or from the exact endgame solver when the
//! position after the move has few enough stones — and is then a puzzle if
//! one move wins and the others do not (`win`), or none wins, one draws and
//! the others lose (`draw`). Beyond that reach, the engine decides by its
//! calibrated chances ([`crate::chances`]): a quick two-line search picks
//! candidates, and a deeper search of every move confirms that the best
//! move's expected score is at least `keep` while every other move's is at
//! most `others` (a win kept by a clear margin; search puzzles are `win`
//! puzzles only). Figures in `docs/toguz.md`.

use crate::board::{Board, Side};
use crate::calibrate::{positions, CalibrateError};
use crate::chances::{Calibration, Wdl};
use crate::egtb::Tables;
use crate::endgame::{GameResult, Prover};
use crate::notation::{move_notation, MoveText};
use crate::pgn::Game;
use crate::search::{Config, Engine, Limits};
use rayon::prelude::*;
use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// Each legal move with the exact result it leads to, and how it was proved.
type ExactMoves = (Vec<(u8, GameResult)>, Proof);

/// What the one move keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// The only winning move.
    Win,
    /// Nothing wins; the only move that does not lose.
    Draw,
}

/// How the puzzle was proved.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Proof {
    /// Every move's result from the share tables (or the rules).
    Tables,
    /// Every move's result proved by the exact endgame solver (some may
    /// come from the tables or the rules).
    Solver,
    /// The engine's deeper search and the calibrated chances.
    Search,
}

/// One move of a puzzle position.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct MoveValue {
    /// Hole 1..9.
    pub hole: u8,
    /// PlayOK notation.
    #[serde(rename = "move")]
    pub notation: String,
    /// The exact result for the mover, when proved.
    pub result: Option<GameResult>,
    /// The search's score in stones for the mover (search proofs).
    pub score: Option<f64>,
    /// The mover's chances after the move.
    pub chances: Wdl,
}

/// A puzzle found in a position.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Found {
    /// The position (text format).
    pub position: String,
    /// Who is to move.
    pub side: Side,
    /// What the move keeps.
    pub kind: Kind,
    /// How it was proved.
    pub proof: Proof,
    /// The one move (hole 1..9).
    pub solution: u8,
    /// Its PlayOK notation.
    pub solution_move: String,
    /// Expected score (win 1, draw ½) of the solution minus that of the
    /// next best move, for the mover.
    pub margin: f64,
    /// Every legal move, best first.
    pub moves: Vec<MoveValue>,
    /// Depth of the confirming search (0 for exact proofs).
    pub depth: i32,
    /// One line for the solver: who is to move and what to find.
    pub task: String,
}

/// A puzzle of a recorded game.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Puzzle {
    /// 1-based game in the record file.
    pub game: usize,
    /// Plies played before the position.
    pub ply: usize,
    /// White's and Black's names.
    pub white: String,
    /// See `white`.
    pub black: String,
    /// The puzzle.
    #[serde(flatten)]
    pub found: Found,
    /// The move played in the game (hole) and its notation.
    pub played: u8,
    /// See `played`.
    pub played_move: String,
    /// The player found the solution.
    pub player_found: bool,
    /// Other games (1-based) in which the same position occurred.
    pub also_in: Vec<usize>,
}

/// Thresholds and budgets of the finder.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Options {
    /// Budget of the quick two-line search of every position.
    pub screen: Limits,
    /// Budget of the confirming search of every move.
    pub verify: Limits,
    /// Least expected score of the one move (search puzzles).
    pub keep: f64,
    /// Most expected score of every other move (search puzzles).
    pub others: f64,
    /// The exact solver proves positions with at most this many stones.
    pub solver_stones: u32,
    /// Node budget of each exact proof.
    pub solver_nodes: u64,
    /// Transposition table per game, MiB.
    pub hash_mb: usize,
}

impl Default for Options {
    fn default() -> Self {
        let nodes = |n| Limits {
            nodes: Some(n),
            threads: 1,
            ..Limits::default()
        };
        Options {
            screen: nodes(20_000),
            verify: nodes(400_000),
            keep: 0.8,
            others: 0.5,
            solver_stones: 12,
            solver_nodes: 200_000,
            hash_mb: 16,
        }
    }
}

/// Why puzzles cannot be searched.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum PuzzleError {
    /// A game does not replay.
    #[error(transparent)]
    Game(#[from] CalibrateError),
    /// A share table could not be read.
    #[error("share tables: {0}")]
    Tables(String),
    /// `keep` is not above `others`, or a threshold is outside 0..1.
    #[error(
        "the thresholds must satisfy 0 <= others < keep <= 1 (got keep {keep}, others {others})"
    )]
    Thresholds {
        /// See [`Options::keep`].
        keep: f64,
        /// See [`Options::others`].
        others: f64,
    },
}

fn negate(r: GameResult) -> GameResult {
    match r {
        GameResult::Win => GameResult::Loss,
        GameResult::Draw => GameResult::Draw,
        GameResult::Loss => GameResult::Win,
    }
}

fn notation(b: &Board, hole: u8) -> String {
    let mut a = *b;
    let e = a.make(hole - 1);
    move_notation(hole - 1, &e, &a)
}

/// Looks for puzzles position by position: an engine, the exact solver's
/// table, the share tables and the calibration.
pub struct Finder<'a> {
    opts: Options,
    engine: Engine,
    prover: Prover,
    tables: Option<Arc<Tables>>,
    calibration: &'a Calibration,
}

impl<'a> Finder<'a> {
    /// A finder with fresh tables (transposition and solver).
    pub fn new(
        opts: Options,
        tables: Option<Arc<Tables>>,
        calibration: &'a Calibration,
    ) -> Result<Finder<'a>, PuzzleError> {
        if !(0.0..=1.0).contains(&opts.others)
            || !(0.0..=1.0).contains(&opts.keep)
            || opts.others >= opts.keep
        {
            return Err(PuzzleError::Thresholds {
                keep: opts.keep,
                others: opts.others,
            });
        }
        let mut engine = Engine::new(Config {
            endgame_stones: 0,
            tt_mb: opts.hash_mb.max(1),
            ..Config::default()
        });
        engine.set_tables(tables.clone());
        Ok(Finder {
            opts,
            engine,
            prover: Prover::new(),
            tables,
            calibration,
        })
    }

    /// The exact result for the side to move of `b` after each legal move,
    /// and the proof used, or `None` when some move's result is not known.
    fn exact(&mut self, b: &Board) -> Result<Option<ExactMoves>, PuzzleError> {
        let mut out = Vec::new();
        let mut proof = Proof::Tables;
        for m in 0..9u8 {
            if !b.is_legal(m) {
                continue;
            }
            let child = b.after(m);
            let known = match &self.tables {
                Some(t) => t
                    .result(&child)
                    .map_err(|e| PuzzleError::Tables(e.to_string()))?,
                None => None,
            };
            let known = match known {
                Some(r) => Some(r),
                None if child.outcome().is_some() => {
                    Some(match child.outcome().map(|o| o.sign_for(child.side)) {
                        Some(1) => GameResult::Win,
                        Some(0) => GameResult::Draw,
                        _ => GameResult::Loss,
                    })
                }
                None if child.stones_on_board() <= self.opts.solver_stones => {
                    proof = Proof::Solver;
                    self.prover
                        .solve(&child, self.opts.solver_nodes)
                        .map(|s| s.result)
                }
                None => None,
            };
            let Some(r) = known else { return Ok(None) };
            out.push((m + 1, negate(r)));
        }
        Ok(Some((out, proof)))
    }

    /// The puzzle of position `b`, if it is one.
    pub fn examine(&mut self, b: &Board) -> Result<Option<Found>, PuzzleError> {
        if b.outcome().is_some() || b.move_count() < 2 {
            return Ok(None);
        }
        let side = if b.side == Side::White {
            "White"
        } else {
            "Black"
        };
        if let Some((results, proof)) = self.exact(b)? {
            return Ok(exact_puzzle(b, side, &results, proof));
        }
        let stones = b.stones_on_board();
        let white = b.side == Side::White;
        let cal = self.calibration;
        let expected = |score: i32| {
            cal.chances_for(f64::from(score) / 100.0, stones, white)
                .expected()
        };
        // The quick look: the best two moves, thresholds loosened a little.
        let quick = self
            .engine
            .search_multipv(b, &self.opts.screen, 2, &mut |_| {});
        if quick.lines.len() < 2
            || expected(quick.lines[0].score) < self.opts.keep - 0.1
            || expected(quick.lines[1].score) > self.opts.others + 0.1
        {
            return Ok(None);
        }
        let deep = self
            .engine
            .search_multipv(b, &self.opts.verify, 9, &mut |_| {});
        let lines = &deep.lines;
        if lines.len() < 2
            || expected(lines[0].score) < self.opts.keep
            || lines[1..]
                .iter()
                .any(|l| expected(l.score) > self.opts.others)
        {
            return Ok(None);
        }
        let moves: Vec<MoveValue> = lines
            .iter()
            .map(|l| {
                let score = (f64::from(l.score) / 100.0).clamp(-100.0, 100.0);
                MoveValue {
                    hole: l.hole,
                    notation: notation(b, l.hole),
                    result: None,
                    score: Some(score),
                    chances: cal.chances_for(score, stones, white),
                }
            })
            .collect();
        let solution = lines[0].hole;
        Ok(Some(Found {
            position: b.to_string(),
            side: b.side,
            kind: Kind::Win,
            proof: Proof::Search,
            solution,
            solution_move: notation(b, solution),
            margin: moves[0].chances.expected() - moves[1].chances.expected(),
            moves,
            depth: deep.depth,
            task: format!("{side} to move: only one move keeps the winning chances."),
        }))
    }
}

/// The puzzle of a position whose moves' exact results are `results`.
fn exact_puzzle(
    b: &Board,
    side: &str,
    results: &[(u8, GameResult)],
    proof: Proof,
) -> Option<Found> {
    let count = |r| results.iter().filter(|(_, x)| *x == r).count();
    let (kind, keeps) = match (count(GameResult::Win), count(GameResult::Draw)) {
        (1, _) => (Kind::Win, GameResult::Win),
        (0, 1) => (Kind::Draw, GameResult::Draw),
        _ => return None,
    };
    let rank = |r: GameResult| match r {
        GameResult::Win => 0,
        GameResult::Draw => 1,
        GameResult::Loss => 2,
    };
    let mut sorted = results.to_vec();
    sorted.sort_by_key(|&(h, r)| (rank(r), h));
    let moves: Vec<MoveValue> = sorted
        .iter()
        .map(|&(hole, r)| MoveValue {
            hole,
            notation: notation(b, hole),
            result: Some(r),
            score: None,
            chances: Wdl::certain(r),
        })
        .collect();
    let solution = results.iter().find(|(_, r)| *r == keeps).map(|&(h, _)| h)?;
    Some(Found {
        position: b.to_string(),
        side: b.side,
        kind,
        proof,
        solution,
        solution_move: notation(b, solution),
        margin: moves[0].chances.expected() - moves[1].chances.expected(),
        moves,
        depth: 0,
        task: match kind {
            Kind::Win => format!("{side} to move and win: only one move wins."),
            Kind::Draw => format!("{side} to move: only one move saves the draw."),
        },
    })
}

/// What [`find`] did.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Report {
    /// Games searched.
    pub games: usize,
    /// Positions examined (not finished, at least two moves).
    pub positions: usize,
    /// Puzzles, distinct positions in game order.
    pub puzzles: Vec<Puzzle>,
}

/// The puzzles of games `chosen` (0-based indices into `games`), each game
/// with a fresh finder (so the result does not depend on the threads of
/// rayon's pool, which runs the games); a position met in several games is
/// listed once, at its first game. `progress` sees games done and to do.
pub fn find(
    games: &[Game],
    chosen: &[usize],
    opts: &Options,
    tables: Option<Arc<Tables>>,
    calibration: &Calibration,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Report, PuzzleError> {
    Finder::new(*opts, None, calibration)?;
    let done = AtomicUsize::new(0);
    let per_game: Vec<Result<(usize, Vec<Puzzle>), PuzzleError>> = chosen
        .par_iter()
        .map(|&i| {
            let game = &games[i];
            let boards = positions(game, i)?;
            let mut finder = Finder::new(*opts, tables.clone(), calibration)?;
            let mut examined = 0;
            let mut found = Vec::new();
            for (ply, b) in boards.iter().enumerate().take(game.moves.len()) {
                if b.outcome().is_some() || b.move_count() < 2 {
                    continue;
                }
                examined += 1;
                let Some(f) = finder.examine(b)? else {
                    continue;
                };
                let played = game.moves[ply]
                    .parse::<MoveText>()
                    .map(|m| m.hole)
                    .unwrap_or(0);
                found.push(Puzzle {
                    game: i + 1,
                    ply,
                    white: game.tag("White").unwrap_or("?").to_string(),
                    black: game.tag("Black").unwrap_or("?").to_string(),
                    played,
                    played_move: notation(b, played),
                    player_found: played == f.solution,
                    found: f,
                    also_in: Vec::new(),
                });
            }
            progress(done.fetch_add(1, Ordering::Relaxed) + 1, chosen.len());
            Ok((examined, found))
        })
        .collect();
    let mut report = Report {
        games: chosen.len(),
        positions: 0,
        puzzles: Vec::new(),
    };
    let mut first: HashMap<String, usize> = HashMap::new();
    for r in per_game {
        let (examined, found) = r?;
        report.positions += examined;
        for p in found {
            match first.get(&p.found.position) {
                Some(&k) => report.puzzles[k].also_in.push(p.game),
                None => {
                    first.insert(p.found.position.clone(), report.puzzles.len());
                    report.puzzles.push(p);
                }
            }
        }
    }
    Ok(report)
}
