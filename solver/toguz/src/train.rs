//! Training of the learned evaluation ([`super::linear`]): positions from
//! self-play of our own search (labelled by the game result blended with the
//! search score) and from game records (labelled by the result), then logistic
//! regression of the result on the features (Texel tuning, full-batch Adam).
//! Everything is seeded and deterministic: self-play uses node limits and one
//! thread per game, and gradients are summed in a fixed order.

use super::board::{Board, Side};
use super::linear::{self, LinearEval, FEATURES, SCALE};
use super::pgn;
use super::search::{Config, Engine, Limits, MATE_BOUND};
use rayon::prelude::*;

/// One training position.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    /// The position (not finished).
    pub board: Board,
    /// Game result for the side to move: 1 win, 0.5 draw, 0 loss.
    pub result: f32,
    /// Search score for the side to move (centi-stones), when searched.
    pub score: Option<i32>,
    /// Exact value for the side to move from the endgame share tables
    /// (1 win, 0.5 draw, 0 loss), when the position is in them.
    pub exact: Option<f32>,
}

/// How to generate self-play positions.
#[derive(Clone, Copy, Debug)]
pub struct SelfPlayOptions {
    /// Games to play.
    pub games: usize,
    /// Node budget of every move.
    pub nodes: u64,
    /// Uniformly random plies from the start before the engine plays.
    pub random_plies: u32,
    /// Seed of the random openings.
    pub seed: u64,
    /// Engine that plays (one thread, node-limited).
    pub config: Config,
}

/// Games longer than this are dropped (no result by the rules).
const MAX_PLIES: usize = 600;

/// One step of the xorshift64 generator (never zero from a non-zero state).
pub(crate) fn xorshift(x: &mut u64) -> u64 {
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    *x
}

/// A random opening of `plies` plies from the start (`None` if the game
/// ended on the way).
pub fn random_opening(seed: u64, plies: u32) -> Option<Board> {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut b = Board::start();
    for _ in 0..plies {
        let mask = b.legal_mask();
        if mask == 0 {
            return None;
        }
        let k = (xorshift(&mut x) % u64::from(mask.count_ones())) as u32;
        let mut mm = mask;
        for _ in 0..k {
            mm &= mm - 1;
        }
        b.make(mm.trailing_zeros() as u8);
    }
    b.outcome().is_none().then_some(b)
}

fn result_for(side: Side, winner: Option<Side>) -> f32 {
    match winner {
        None => 0.5,
        Some(w) if w == side => 1.0,
        Some(_) => 0.0,
    }
}

/// Play self-play game number `index` (its opening seeded by `opts.seed`
/// and `index`) and return its positions; empty when the game ended in the
/// random opening or did not end by the rules.
pub fn selfplay_game(opts: &SelfPlayOptions, index: usize) -> Vec<Sample> {
    let seed = opts.seed ^ (index as u64).wrapping_mul(0xD1B5_4A32_D192_ED03);
    let Some(mut board) = random_opening(seed, opts.random_plies) else {
        return Vec::new();
    };
    let mut engine = Engine::new(opts.config);
    let limits = Limits {
        nodes: Some(opts.nodes),
        threads: 1,
        ..Limits::default()
    };
    let mut seen: Vec<(Board, i32)> = Vec::new();
    while board.outcome().is_none() && seen.len() < MAX_PLIES {
        let r = engine.search(&board, &limits, &mut |_| {});
        let Some(m) = r.best else { break };
        seen.push((board, r.score));
        board.make(m - 1);
    }
    let Some(o) = board.outcome() else {
        return Vec::new();
    };
    let winner = match o {
        super::Outcome::Win(s) => Some(s),
        super::Outcome::Draw => None,
    };
    seen.into_iter()
        .map(|(b, s)| Sample {
            board: b,
            result: result_for(b.side, winner),
            score: Some(s),
            exact: None,
        })
        .collect()
}

/// Self-play positions of `opts.games` games (in parallel; the same for
/// the same options). `progress` is called with the games finished so far.
pub fn selfplay_samples(opts: &SelfPlayOptions, progress: &(dyn Fn(usize) + Sync)) -> Vec<Sample> {
    let done = std::sync::atomic::AtomicUsize::new(0);
    let per_game: Vec<Vec<Sample>> = (0..opts.games)
        .into_par_iter()
        .map(|i| {
            let s = selfplay_game(opts, i);
            let d = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
            progress(d);
            s
        })
        .collect();
    per_game.into_iter().flatten().collect()
}

/// Positions of recorded games with a decisive or drawn result tag (`1-0`,
/// `0-1`, `1/2-1/2`), labelled by it. Games that do not replay are skipped.
pub fn record_samples(games: &[pgn::Game]) -> Vec<Sample> {
    let mut out = Vec::new();
    for g in games {
        let winner = match g.result.as_deref() {
            Some("1-0") => Some(Side::White),
            Some("0-1") => Some(Side::Black),
            Some("1/2-1/2") => None,
            _ => continue,
        };
        if pgn::replay(g).is_err() {
            continue;
        }
        let mut b = Board::start();
        for text in &g.moves {
            if b.outcome().is_some() {
                break;
            }
            out.push(Sample {
                board: b,
                result: result_for(b.side, winner),
                score: None,
                exact: None,
            });
            let m = text.as_bytes()[0] - b'1';
            b.make(m);
        }
    }
    out
}

/// Training settings.
#[derive(Clone, Copy, Debug)]
pub struct TrainOptions {
    /// Passes over the data.
    pub epochs: usize,
    /// Adam step size.
    pub learning_rate: f64,
    /// L2 penalty per weight.
    pub l2: f64,
    /// Weight of the game result in the label (the rest is the search score).
    pub lambda: f64,
    /// Every n-th position is held out for validation (0: none).
    pub holdout_every: usize,
}

impl Default for TrainOptions {
    fn default() -> Self {
        TrainOptions {
            epochs: 300,
            learning_rate: 0.01,
            l2: 1e-6,
            lambda: 0.5,
            holdout_every: 10,
        }
    }
}

/// What training measured.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct TrainReport {
    /// Training positions.
    pub train_positions: usize,
    /// Held-out positions.
    pub holdout_positions: usize,
    /// Logistic slope of the result on the kazan difference (per stone).
    pub material_slope: f64,
    /// Cross-entropy against the labels on the held-out positions, for the
    /// material-only model and for the trained model.
    pub holdout_loss_material: f64,
    /// See `holdout_loss_material`.
    pub holdout_loss_trained: f64,
}

/// Features of one sample, flattened.
struct Encoded {
    start: Vec<u32>,
    index: Vec<u16>,
    value: Vec<f32>,
    phase: Vec<f32>,
    target: Vec<f32>,
}

fn encode(samples: &[&Sample], targets: &[f32]) -> Encoded {
    let mut e = Encoded {
        start: vec![0],
        index: Vec::new(),
        value: Vec::new(),
        phase: Vec::new(),
        target: targets.to_vec(),
    };
    for s in samples {
        linear::for_each_feature(&s.board, |i, v| {
            e.index.push(i as u16);
            e.value.push(v);
        });
        e.start.push(e.index.len() as u32);
        e.phase.push(linear::phase(&s.board) as f32 / 162.0);
    }
    e
}

/// The logistic function.
pub fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

/// Cross-entropy of a predicted probability `p` against a label `y`.
pub fn cross_entropy(p: f64, y: f64) -> f64 {
    let p = p.clamp(1e-9, 1.0 - 1e-9);
    -(y * p.ln() + (1.0 - y) * (1.0 - p).ln())
}

/// Logistic slope `k` of result ~ sigmoid(k × kazan difference), by Newton's
/// method on the training results.
pub fn material_slope(samples: &[&Sample]) -> f64 {
    let mut k = 0.1;
    for _ in 0..30 {
        let (mut g, mut h) = (0.0, 1e-9);
        for s in samples {
            let me = s.board.side.index();
            let d = f64::from(s.board.kazan[me]) - f64::from(s.board.kazan[1 - me]);
            let p = sigmoid(k * d);
            g += (p - f64::from(s.result)) * d;
            h += p * (1.0 - p) * d * d;
        }
        k -= g / h;
    }
    k
}

/// The training target of a sample: `lambda × result + (1 − lambda) × p`,
/// where `p` is the exact share-table value when there is one, else the
/// search score read through the material slope `k` (100 centi-stones = one
/// stone; won and lost games 1 and 0); the result alone when neither is
/// known.
pub fn label(s: &Sample, k: f64, lambda: f64) -> f32 {
    let p = match (s.exact, s.score) {
        (Some(e), _) => f64::from(e),
        (None, Some(sc)) if sc > MATE_BOUND => 1.0,
        (None, Some(sc)) if sc < -MATE_BOUND => 0.0,
        (None, Some(sc)) => sigmoid(k * f64::from(sc) / 100.0),
        (None, None) => return s.result,
    };
    (lambda * f64::from(s.result) + (1.0 - lambda) * p) as f32
}

/// Split `samples` into the training set and every `holdout_every`-th
/// position held out (0: none).
pub fn split_holdout(samples: &[Sample], holdout_every: usize) -> (Vec<&Sample>, Vec<&Sample>) {
    let (mut train_set, mut hold) = (Vec::new(), Vec::new());
    for (i, s) in samples.iter().enumerate() {
        if holdout_every > 0 && i % holdout_every == holdout_every - 1 {
            hold.push(s);
        } else {
            train_set.push(s);
        }
    }
    (train_set, hold)
}

/// Logit of the model for sample `i`.
#[inline]
fn logit(e: &Encoded, w: &[f64], i: usize) -> f64 {
    let ph = f64::from(e.phase[i]);
    let mut z = 0.0;
    for j in e.start[i] as usize..e.start[i + 1] as usize {
        let k = e.index[j] as usize;
        z += f64::from(e.value[j]) * (w[k] * ph + w[FEATURES + k] * (1.0 - ph));
    }
    z
}

fn mean_loss(e: &Encoded, w: &[f64]) -> f64 {
    let n = e.target.len();
    if n == 0 {
        return 0.0;
    }
    let total: f64 = (0..n)
        .into_par_iter()
        .with_min_len(4096)
        .map(|i| cross_entropy(sigmoid(logit(e, w, i)), f64::from(e.target[i])))
        .sum::<f64>();
    total / n as f64
}

/// Chunk of samples per parallel gradient job (fixed so the sum order, and
/// with it the result, does not depend on the thread count).
const CHUNK: usize = 8192;

/// Train weights on `samples`; `progress(epoch, loss)` is called every 10
/// epochs. Returns the engine weights (origin `origin`) and a report.
pub fn train(
    samples: &[Sample],
    opts: &TrainOptions,
    origin: &str,
    progress: &mut dyn FnMut(usize, f64),
) -> (LinearEval, TrainReport) {
    let (train_set, hold) = split_holdout(samples, opts.holdout_every);
    let k = material_slope(&train_set);
    let label = |s: &&Sample| label(s, k, opts.lambda);
    let tr = encode(&train_set, &train_set.iter().map(label).collect::<Vec<_>>());
    let ho = encode(&hold, &hold.iter().map(label).collect::<Vec<_>>());
    let mut w = vec![0.0f64; 2 * FEATURES];
    w[linear::F_KAZAN_DIFF] = k;
    w[FEATURES + linear::F_KAZAN_DIFF] = k;
    let holdout_loss_material = mean_loss(&ho, &w);
    let n = tr.target.len().max(1);
    let (mut m1, mut m2) = (vec![0.0f64; w.len()], vec![0.0f64; w.len()]);
    let (b1, b2, eps) = (0.9f64, 0.999f64, 1e-8);
    for epoch in 1..=opts.epochs {
        let chunks: Vec<(Vec<f64>, f64)> = (0..tr.target.len().div_ceil(CHUNK))
            .into_par_iter()
            .map(|c| {
                let mut g = vec![0.0f64; 2 * FEATURES];
                let mut loss = 0.0;
                for i in c * CHUNK..((c + 1) * CHUNK).min(tr.target.len()) {
                    let p = sigmoid(logit(&tr, &w, i));
                    let y = f64::from(tr.target[i]);
                    loss += cross_entropy(p, y);
                    let d = p - y;
                    let ph = f64::from(tr.phase[i]);
                    for j in tr.start[i] as usize..tr.start[i + 1] as usize {
                        let k = tr.index[j] as usize;
                        let v = d * f64::from(tr.value[j]);
                        g[k] += v * ph;
                        g[FEATURES + k] += v * (1.0 - ph);
                    }
                }
                (g, loss)
            })
            .collect();
        let mut g = vec![0.0f64; 2 * FEATURES];
        let mut loss = 0.0;
        for (cg, cl) in &chunks {
            for (a, b) in g.iter_mut().zip(cg) {
                *a += b;
            }
            loss += cl;
        }
        let t = epoch as i32;
        for i in 0..w.len() {
            let gi = g[i] / n as f64 + 2.0 * opts.l2 * w[i];
            m1[i] = b1 * m1[i] + (1.0 - b1) * gi;
            m2[i] = b2 * m2[i] + (1.0 - b2) * gi * gi;
            let mh = m1[i] / (1.0 - b1.powi(t));
            let vh = m2[i] / (1.0 - b2.powi(t));
            w[i] -= opts.learning_rate * mh / (vh.sqrt() + eps);
        }
        if epoch % 10 == 0 || epoch == opts.epochs {
            progress(epoch, loss / n as f64);
        }
    }
    let holdout_loss_trained = mean_loss(&ho, &w);
    // Logit units to centi-stones × SCALE: one stone of kazan difference in
    // the material model is 100 centi-stones.
    let to_int = |x: f64| (x * 100.0 / k * f64::from(SCALE)).round() as i32;
    let mut e = LinearEval::zero(origin);
    for i in 0..FEATURES {
        e.weights[i] = [to_int(w[i]), to_int(w[FEATURES + i])];
    }
    let report = TrainReport {
        train_positions: tr.target.len(),
        holdout_positions: ho.target.len(),
        material_slope: k,
        holdout_loss_material,
        holdout_loss_trained,
    };
    (e, report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Weights;

    #[test]
    fn integer_inference_matches_the_feature_sum() {
        // Arbitrary weights; the engine's integer sum must equal the feature
        // enumeration used in training.
        let mut e = LinearEval::zero("test");
        for i in 0..FEATURES {
            e.weights[i] = [(i as i32 * 37 % 101) - 50, (i as i32 * 53 % 97) - 48];
        }
        let mut b = Board::start();
        for ply in 0..120 {
            if b.outcome().is_some() {
                break;
            }
            let ph = linear::phase(&b) as i64;
            let (mut so, mut se) = (0i64, 0i64);
            linear::for_each_feature(&b, |i, v| {
                so += i64::from(e.weights[i][0]) * v as i64;
                se += i64::from(e.weights[i][1]) * v as i64;
            });
            let want = (so * ph + se * (162 - ph)) / (162 * i64::from(SCALE));
            assert_eq!(i64::from(e.evaluate(&b)), want, "ply {ply}: {b}");
            let mask = b.legal_mask();
            let k = (ply * 7 + 3) % mask.count_ones() as usize;
            let mut mm = mask;
            for _ in 0..k {
                mm &= mm - 1;
            }
            b.make(mm.trailing_zeros() as u8);
        }
    }

    #[test]
    fn best_capture_agrees_with_making_the_moves() {
        let mut b = Board::start();
        for ply in 0..200 {
            if b.outcome().is_some() {
                break;
            }
            for side in 0..2 {
                // Brute force: make every move of `side` on a copy whose
                // side to move is `side`.
                let mut me = b;
                if me.side.index() != side {
                    me = Board::from_parts(b.holes, b.kazan, b.tuzdyk, Side::from_index(side));
                }
                let (mut best, mut tuz) = (0, false);
                if me.kazan[0] < 82 && me.kazan[1] < 82 {
                    for m in 0..9u8 {
                        if me.holes[side * 9 + m as usize] == 0 {
                            continue;
                        }
                        let mut c = me;
                        let eff = c.make(m);
                        best = best.max(i32::from(eff.captured));
                        tuz |= eff.tuzdyk;
                    }
                }
                assert_eq!(
                    linear::best_capture(&b, side),
                    (best, tuz),
                    "ply {ply} side {side}: {b}"
                );
            }
            let mask = b.legal_mask();
            let k = (ply * 5 + 1) % mask.count_ones() as usize;
            let mut mm = mask;
            for _ in 0..k {
                mm &= mm - 1;
            }
            b.make(mm.trailing_zeros() as u8);
        }
    }

    #[test]
    fn weights_text_round_trips() {
        let mut e = LinearEval::zero("solver toguz train --seed 1");
        e.weights[3] = [17, -4];
        e.weights[FEATURES - 1] = [0, 9];
        let back = LinearEval::parse(&e.to_text()).unwrap();
        assert_eq!(back, e);
        assert!(LinearEval::parse("w 1 2 3").is_err());
        assert!(LinearEval::parse(&format!("{}\nw 99999 1 1\n", linear::MAGIC)).is_err());
    }

    /// A model trained on a small self-play set beats the material-only
    /// evaluation at equal nodes (a real match: it fails if training does
    /// not learn what wins).
    #[test]
    fn fresh_model_beats_material() {
        let material = Config {
            eval: crate::eval::EvalParams::MATERIAL,
            learned: None,
            nnue: None,
            tt_mb: 4,
            endgame_stones: 0,
            ..Config::default()
        };
        let sp = SelfPlayOptions {
            games: 150,
            nodes: 800,
            random_plies: 8,
            seed: 7,
            config: material,
        };
        let samples = selfplay_samples(&sp, &|_| {});
        assert!(samples.len() > 3000, "{} positions", samples.len());
        let opts = TrainOptions {
            epochs: 150,
            learning_rate: 0.02,
            ..TrainOptions::default()
        };
        let (w, report) = train(&samples, &opts, "test", &mut |_, _| {});
        assert!(
            report.holdout_loss_trained < report.holdout_loss_material,
            "{report:?}"
        );
        let w: &'static LinearEval = Box::leak(Box::new(w));
        let trained = Config {
            learned: Some(Weights(w)),
            ..material
        };
        let r = crate::selfplay::match_against_material(trained, material);
        eprintln!("{report:?}\n{r:?}");
        // 60 games: 60 % is about 1.6 standard errors above even.
        assert!(r.score >= 0.6, "{r:?}");
    }
}
