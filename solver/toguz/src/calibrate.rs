//! Fitting [`crate::chances`] on recorded games: positions of every game
//! with a result, each scored by the engine's own search at a fixed node
//! budget, split by game into a fitting and a held-out part; the ordered
//! logistic model fitted by maximum likelihood (Newton's method), and its
//! held-out log loss, Brier score and reliability against the constant
//! base rates. Figures in `docs/toguz.md`.

use crate::board::{Board, Side};
use crate::chances::{Calibration, ModelKind, Wdl, SCORE_CAP};
use crate::endgame::GameResult;
use crate::notation::MoveText;
use crate::pgn::Game;
use crate::search::{Config, Engine, Limits};
use rayon::prelude::*;
use std::sync::atomic::{AtomicUsize, Ordering};

/// One scored position of a recorded game.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Sample {
    /// 0-based game index in the record file.
    pub game: usize,
    /// Plies played before the position.
    pub ply: usize,
    /// The search's score in stones for the side to move (capped at
    /// ±[`SCORE_CAP`]).
    pub score: f64,
    /// Stones on the board.
    pub stones: u32,
    /// White is to move.
    pub white: bool,
    /// The game's result for the side to move.
    pub result: GameResult,
}

/// How positions are chosen and scored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SampleOptions {
    /// Node budget of each search (one thread, so reproducible).
    pub nodes: u64,
    /// Take the positions after 0, `every`, 2·`every`, … plies.
    pub every: usize,
    /// Transposition table per game, MiB.
    pub hash_mb: usize,
}

impl Default for SampleOptions {
    fn default() -> Self {
        SampleOptions {
            nodes: 20_000,
            every: 3,
            hash_mb: 8,
        }
    }
}

/// Why a calibration cannot be made.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum CalibrateError {
    /// A move of a game is not a move.
    #[error("game {game}, ply {ply} `{text}`: {message}")]
    Move {
        /// 1-based game.
        game: usize,
        /// 1-based ply.
        ply: usize,
        /// The move as recorded.
        text: String,
        /// Why.
        message: String,
    },
    /// A part of the split has no positions.
    #[error("no positions to {0} (too few games with a result, or --holdout too small)")]
    Empty(&'static str),
    /// `every`, `nodes` or `holdout` is 0.
    #[error("{0} must be at least 1")]
    Zero(&'static str),
}

/// The result for `side` of a result tag, if the tag is one.
pub fn result_for(tag: &str, side: Side) -> Option<GameResult> {
    let white = match tag.trim() {
        "1-0" => GameResult::Win,
        "0-1" => GameResult::Loss,
        "1/2-1/2" => GameResult::Draw,
        _ => return None,
    };
    Some(match (side, white) {
        (Side::White, r) => r,
        (Side::Black, GameResult::Win) => GameResult::Loss,
        (Side::Black, GameResult::Loss) => GameResult::Win,
        (Side::Black, GameResult::Draw) => GameResult::Draw,
    })
}

/// The positions of `game` (from the start), checked against the rules.
pub fn positions(game: &Game, index: usize) -> Result<Vec<Board>, CalibrateError> {
    let mut boards = vec![Board::start()];
    for (i, text) in game.moves.iter().enumerate() {
        let b = boards[i];
        let fail = |message: String| CalibrateError::Move {
            game: index + 1,
            ply: i + 1,
            text: text.clone(),
            message,
        };
        let mt: MoveText = text.parse().map_err(|e| fail(format!("{e}")))?;
        if b.outcome().is_some() {
            return Err(fail("the game is already over".to_string()));
        }
        if !b.is_legal(mt.hole - 1) {
            return Err(fail(format!("hole {} is empty", mt.hole)));
        }
        boards.push(b.after(mt.hole - 1));
    }
    Ok(boards)
}

/// The engine configuration of the calibration searches: the default
/// engine without the exact endgame solver (its result does not change the
/// score) and with a small table.
pub fn engine_config(hash_mb: usize) -> Config {
    Config {
        endgame_stones: 0,
        tt_mb: hash_mb.max(1),
        ..Config::default()
    }
}

/// Score the positions of every game of `games` whose index `keep` accepts
/// and that has a result tag: every `every`-th ply's position that is not
/// finished, searched with a fresh engine per game (so the scores do not
/// depend on the order or the threads; games run on rayon's pool).
/// `progress` sees the games done and the games to do.
pub fn samples(
    games: &[Game],
    opts: &SampleOptions,
    keep: &(dyn Fn(usize) -> bool + Sync),
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Vec<Sample>, CalibrateError> {
    if opts.every == 0 {
        return Err(CalibrateError::Zero("every"));
    }
    if opts.nodes == 0 {
        return Err(CalibrateError::Zero("nodes"));
    }
    let chosen: Vec<usize> = (0..games.len())
        .filter(|&i| keep(i))
        .filter(|&i| {
            games[i]
                .result
                .as_deref()
                .and_then(|r| result_for(r, Side::White))
                .is_some()
        })
        .collect();
    let done = AtomicUsize::new(0);
    let limits = Limits {
        nodes: Some(opts.nodes),
        threads: 1,
        ..Limits::default()
    };
    let per_game: Vec<Result<Vec<Sample>, CalibrateError>> = chosen
        .par_iter()
        .map(|&i| {
            let game = &games[i];
            let tag = game.result.as_deref().unwrap_or("*");
            let boards = positions(game, i)?;
            let mut engine = Engine::new(engine_config(opts.hash_mb));
            let mut out = Vec::new();
            for (ply, b) in boards.iter().enumerate().step_by(opts.every) {
                if b.outcome().is_some() {
                    continue;
                }
                let Some(result) = result_for(tag, b.side) else {
                    continue;
                };
                let r = engine.search(b, &limits, &mut |_| {});
                out.push(Sample {
                    game: i,
                    ply,
                    score: (f64::from(r.score) / 100.0).clamp(-SCORE_CAP, SCORE_CAP),
                    stones: b.stones_on_board(),
                    white: b.side == Side::White,
                    result,
                });
            }
            progress(done.fetch_add(1, Ordering::Relaxed) + 1, chosen.len());
            Ok(out)
        })
        .collect();
    let mut all = Vec::new();
    for r in per_game {
        all.extend(r?);
    }
    Ok(all)
}

/// Whether game `index` is held out when every `holdout`-th game is (the
/// games numbered `holdout`, 2·`holdout`, … counting from 1).
pub fn is_held_out(index: usize, holdout: usize) -> bool {
    holdout > 0 && (index + 1).is_multiple_of(holdout)
}

/// Log loss and Brier score of predictions on some positions.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize)]
pub struct Metrics {
    /// Positions scored.
    pub positions: usize,
    /// Mean of −ln P(result).
    pub log_loss: f64,
    /// Mean over positions of Σ over win, draw, loss of (p − outcome)².
    pub brier: f64,
}

/// Metrics of `predict` on `samples`.
pub fn metrics(samples: &[Sample], predict: &dyn Fn(&Sample) -> Wdl) -> Metrics {
    let mut m = Metrics {
        positions: samples.len(),
        ..Metrics::default()
    };
    for s in samples {
        let p = predict(s);
        m.log_loss -= p.of(s.result).max(1e-15).ln();
        let y = Wdl::certain(s.result);
        m.brier += (p.win - y.win).powi(2) + (p.draw - y.draw).powi(2) + (p.loss - y.loss).powi(2);
    }
    let n = samples.len().max(1) as f64;
    m.log_loss /= n;
    m.brier /= n;
    m
}

/// The share of each result (win, draw, loss for the side to move).
pub fn base_rates(samples: &[Sample]) -> Wdl {
    let n = samples.len().max(1) as f64;
    let count = |r| samples.iter().filter(|s| s.result == r).count() as f64 / n;
    Wdl {
        win: count(GameResult::Win),
        draw: count(GameResult::Draw),
        loss: count(GameResult::Loss),
    }
}

/// One bin of a reliability table: positions whose predicted chance of one
/// result fell in `[low, high)`, the mean prediction and how often that
/// result happened.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Bin {
    /// Lower edge of the predicted chance.
    pub low: f64,
    /// Upper edge (the last bin includes 1).
    pub high: f64,
    /// Positions in the bin.
    pub positions: usize,
    /// Mean predicted chance.
    pub predicted: f64,
    /// Share of the positions with that result.
    pub observed: f64,
}

/// The reliability table of the chance of `result` in ten bins of 0.1.
pub fn reliability(
    samples: &[Sample],
    predict: &dyn Fn(&Sample) -> Wdl,
    result: GameResult,
) -> Vec<Bin> {
    let mut bins: Vec<Bin> = (0..10)
        .map(|k| Bin {
            low: k as f64 / 10.0,
            high: (k + 1) as f64 / 10.0,
            positions: 0,
            predicted: 0.0,
            observed: 0.0,
        })
        .collect();
    for s in samples {
        let p = predict(s).of(result);
        let b = &mut bins[((p * 10.0) as usize).min(9)];
        b.positions += 1;
        b.predicted += p;
        b.observed += f64::from(u8::from(s.result == result));
    }
    for b in &mut bins {
        let n = b.positions.max(1) as f64;
        b.predicted /= n;
        b.observed /= n;
    }
    bins
}

/// Parameters of the fit, in the order of the Newton steps: slope (open),
/// slope (end), bias, white, ln draw width.
type Params = [f64; 5];

fn calibration(kind: ModelKind, p: &Params, nodes: u64) -> Calibration {
    Calibration {
        kind,
        slope_open: p[0],
        slope_end: if kind == ModelKind::Score { p[0] } else { p[1] },
        bias: p[2],
        white: if kind == ModelKind::PhaseSide {
            p[3]
        } else {
            0.0
        },
        draw_width: p[4].exp(),
        nodes,
        origin: String::new(),
    }
}

/// The parameters a kind fits (the others stay fixed).
fn free(kind: ModelKind) -> Vec<usize> {
    match kind {
        ModelKind::Score => vec![0, 2, 4],
        ModelKind::Phase => vec![0, 1, 2, 4],
        ModelKind::PhaseSide => vec![0, 1, 2, 3, 4],
    }
}

/// Negative log-likelihood (sum) and its gradient in the five parameters.
fn nll_and_gradient(samples: &[Sample], kind: ModelKind, p: &Params) -> (f64, Params) {
    let c = calibration(kind, p, 0);
    let d = c.draw_width;
    let mut nll = 0.0;
    let mut g = [0.0; 5];
    for s in samples {
        let z = c.latent(s.score, s.stones, s.white);
        let x = s.score.clamp(-SCORE_CAP, SCORE_CAP);
        let phase = f64::from(s.stones.min(162)) / 162.0;
        // ∂z per parameter (ln d handled below).
        let dz: [f64; 4] = match kind {
            ModelKind::Score => [x, 0.0, 1.0, 0.0],
            _ => [
                x * phase,
                x * (1.0 - phase),
                1.0,
                if kind == ModelKind::PhaseSide && s.white {
                    1.0
                } else {
                    0.0
                },
            ],
        };
        let sig = |v: f64| {
            if v >= 0.0 {
                1.0 / (1.0 + (-v).exp())
            } else {
                v.exp() / (1.0 + v.exp())
            }
        };
        // ∂ ln p / ∂z and ∂ ln p / ∂d.
        let (lnp, gz, gd) = match s.result {
            GameResult::Win => {
                let a = sig(z - d);
                (a.max(1e-300).ln(), 1.0 - a, -(1.0 - a))
            }
            GameResult::Loss => {
                let b = sig(-z - d);
                (b.max(1e-300).ln(), -(1.0 - b), -(1.0 - b))
            }
            GameResult::Draw => {
                let a = sig(d - z); // P(not win)
                let b = sig(-d - z); // P(loss)
                let p = (a - b).max(1e-300);
                let (da, db) = (a * (1.0 - a), b * (1.0 - b));
                (p.ln(), (-da + db) / p, (da + db) / p)
            }
        };
        nll -= lnp;
        for k in 0..4 {
            g[k] -= gz * dz[k];
        }
        g[4] -= gd * d;
    }
    (nll, g)
}

/// A fitted model and how it did.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Fit {
    /// The model.
    pub calibration: Calibration,
    /// Newton iterations used.
    pub iterations: usize,
    /// On the fitting positions.
    pub train: Metrics,
    /// On the held-out positions.
    pub holdout: Metrics,
}

/// Fit `kind` on `train` by maximum likelihood (Newton's method with a
/// numerical Hessian of the exact gradient and a backtracking line
/// search; deterministic) and score it on `holdout`.
// The Hessian is symmetrised by index pairs (a, b), which no iterator says more plainly.
#[allow(clippy::needless_range_loop)]
pub fn fit(
    kind: ModelKind,
    train: &[Sample],
    holdout: &[Sample],
    nodes: u64,
) -> Result<Fit, CalibrateError> {
    if train.is_empty() {
        return Err(CalibrateError::Empty("fit"));
    }
    if holdout.is_empty() {
        return Err(CalibrateError::Empty("check"));
    }
    let idx = free(kind);
    let mut p: Params = [0.1, 0.1, 0.0, 0.0, (0.1f64).ln()];
    let (mut f, mut g) = nll_and_gradient(train, kind, &p);
    let mut iterations = 0;
    for _ in 0..100 {
        iterations += 1;
        // Numerical Hessian over the free parameters.
        let n = idx.len();
        let mut h = vec![vec![0.0; n]; n];
        for (a, &i) in idx.iter().enumerate() {
            let e = 1e-5 * (1.0 + p[i].abs());
            let (mut up, mut down) = (p, p);
            up[i] += e;
            down[i] -= e;
            let (_, gu) = nll_and_gradient(train, kind, &up);
            let (_, gd) = nll_and_gradient(train, kind, &down);
            for (b, &j) in idx.iter().enumerate() {
                h[b][a] = (gu[j] - gd[j]) / (2.0 * e);
            }
        }
        for a in 0..n {
            for b in 0..a {
                let m = (h[a][b] + h[b][a]) / 2.0;
                h[a][b] = m;
                h[b][a] = m;
            }
        }
        let grad: Vec<f64> = idx.iter().map(|&i| g[i]).collect();
        let step = solve(h, &grad)
            .filter(|s| s.iter().zip(&grad).map(|(a, b)| a * b).sum::<f64>() > 0.0)
            .unwrap_or_else(|| grad.iter().map(|v| v * 1e-6).collect());
        let mut t = 1.0;
        let mut improved = false;
        while t > 1e-10 {
            let mut q = p;
            for (a, &i) in idx.iter().enumerate() {
                q[i] -= t * step[a];
            }
            let (fq, gq) = nll_and_gradient(train, kind, &q);
            if fq.is_finite() && fq <= f {
                improved = fq < f;
                let change = f - fq;
                p = q;
                f = fq;
                g = gq;
                if change < 1e-9 * train.len() as f64 {
                    improved = false;
                }
                break;
            }
            t /= 2.0;
        }
        if !improved {
            break;
        }
    }
    let c = calibration(kind, &p, nodes);
    let predict = |s: &Sample| c.chances_for(s.score, s.stones, s.white);
    Ok(Fit {
        train: metrics(train, &predict),
        holdout: metrics(holdout, &predict),
        calibration: c,
        iterations,
    })
}

/// Solve `h · x = b` by Gaussian elimination with partial pivoting.
// Gaussian elimination reads rows r and col of `h` at once: indices, not iterators.
#[allow(clippy::needless_range_loop)]
fn solve(mut h: Vec<Vec<f64>>, b: &[f64]) -> Option<Vec<f64>> {
    let n = b.len();
    let mut b = b.to_vec();
    for col in 0..n {
        let piv = (col..n).max_by(|&i, &j| h[i][col].abs().total_cmp(&h[j][col].abs()))?;
        if h[piv][col].abs() < 1e-12 {
            return None;
        }
        h.swap(col, piv);
        b.swap(col, piv);
        for r in col + 1..n {
            let f = h[r][col] / h[col][col];
            for c in col..n {
                h[r][c] -= f * h[col][c];
            }
            b[r] -= f * b[col];
        }
    }
    let mut x = vec![0.0; n];
    for r in (0..n).rev() {
        let s: f64 = (r + 1..n).map(|c| h[r][c] * x[c]).sum();
        x[r] = (b[r] - s) / h[r][r];
    }
    x.iter().all(|v| v.is_finite()).then_some(x)
}

/// Everything `solver toguz calibrate` reports.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Report {
    /// Games with a result used (fitting, held out).
    pub games: [usize; 2],
    /// Positions (fitting, held out).
    pub positions: [usize; 2],
    /// The base rates on the fitting positions (the constant baseline).
    pub base_rates: Wdl,
    /// The baseline on the held-out positions.
    pub baseline: Metrics,
    /// Every model kind, simplest first.
    pub fits: Vec<Fit>,
    /// The chosen fit's index in `fits`.
    pub chosen: usize,
    /// The built-in calibration on the held-out positions.
    pub builtin: Metrics,
    /// Reliability of the chosen fit's win chance on the held-out positions.
    pub reliability_win: Vec<Bin>,
    /// The same for the loss chance.
    pub reliability_loss: Vec<Bin>,
    /// The same for the draw chance.
    pub reliability_draw: Vec<Bin>,
}

/// Fit every model kind on `train`, check each on `holdout`, and report
/// the `chosen` kind's reliability; `builtin` is scored on `holdout` too.
pub fn report(
    train: &[Sample],
    holdout: &[Sample],
    chosen: ModelKind,
    nodes: u64,
    builtin: &Calibration,
) -> Result<Report, CalibrateError> {
    let fits = ModelKind::ALL
        .iter()
        .map(|&k| fit(k, train, holdout, nodes))
        .collect::<Result<Vec<_>, _>>()?;
    let chosen = ModelKind::ALL
        .iter()
        .position(|&k| k == chosen)
        .unwrap_or(0);
    let rates = base_rates(train);
    let c = &fits[chosen].calibration;
    let predict = |s: &Sample| c.chances_for(s.score, s.stones, s.white);
    let count_games = |v: &[Sample]| {
        let mut g: Vec<usize> = v.iter().map(|s| s.game).collect();
        g.dedup();
        g.len()
    };
    Ok(Report {
        games: [count_games(train), count_games(holdout)],
        positions: [train.len(), holdout.len()],
        base_rates: rates,
        baseline: metrics(holdout, &|_| rates),
        builtin: metrics(holdout, &|s| {
            builtin.chances_for(s.score, s.stones, s.white)
        }),
        reliability_win: reliability(holdout, &predict, GameResult::Win),
        reliability_loss: reliability(holdout, &predict, GameResult::Loss),
        reliability_draw: reliability(holdout, &predict, GameResult::Draw),
        fits,
        chosen,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Samples drawn from a known model: the fit must recover its
    /// parameters (the likelihood's gradient and the Newton steps are right).
    #[test]
    fn fit_recovers_a_known_model() {
        let truth = Calibration {
            kind: ModelKind::PhaseSide,
            slope_open: 0.08,
            slope_end: 0.3,
            bias: -0.1,
            white: 0.2,
            draw_width: 0.4,
            nodes: 0,
            origin: String::new(),
        };
        // A fixed pseudo-random sequence.
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 11) as f64 / (1u64 << 53) as f64
        };
        let mut samples = Vec::new();
        for i in 0..40_000 {
            let score = (next() - 0.5) * 40.0;
            let stones = (next() * 162.0) as u32;
            let white = i % 2 == 0;
            let p = truth.chances_for(score, stones, white);
            let u = next();
            let result = if u < p.win {
                GameResult::Win
            } else if u < p.win + p.draw {
                GameResult::Draw
            } else {
                GameResult::Loss
            };
            samples.push(Sample {
                game: i / 50,
                ply: i % 50,
                score,
                stones,
                white,
                result,
            });
        }
        let (train, holdout) = samples.split_at(30_000);
        let f = fit(ModelKind::PhaseSide, train, holdout, 0).unwrap();
        let c = &f.calibration;
        for (got, want, tol) in [
            (c.slope_open, truth.slope_open, 0.02),
            (c.slope_end, truth.slope_end, 0.03),
            (c.bias, truth.bias, 0.06),
            (c.white, truth.white, 0.08),
            (c.draw_width, truth.draw_width, 0.05),
        ] {
            assert!((got - want).abs() < tol, "{c:?}");
        }
        // The true model on the held-out part scores as well as the fit.
        let t = metrics(holdout, &|s| truth.chances_for(s.score, s.stones, s.white));
        assert!((f.holdout.log_loss - t.log_loss).abs() < 0.01);
        let base = base_rates(train);
        assert!(metrics(holdout, &|_| base).log_loss > f.holdout.log_loss + 0.1);
    }

    #[test]
    fn results_by_side_and_split() {
        assert_eq!(result_for("1-0", Side::Black), Some(GameResult::Loss));
        assert_eq!(result_for("0-1", Side::Black), Some(GameResult::Win));
        assert_eq!(result_for("1/2-1/2", Side::White), Some(GameResult::Draw));
        assert_eq!(result_for("*", Side::White), None);
        let held: Vec<usize> = (0..12).filter(|&i| is_held_out(i, 5)).collect();
        assert_eq!(held, vec![4, 9]);
    }
}
