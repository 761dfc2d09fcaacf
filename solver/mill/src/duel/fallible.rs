//! Fallible reference opponents: players that choose their moves
//! stochastically from the tables' values, after Haworth's "reference
//! fallible endgame players". Two models:
//!
//! - **ε-random** (`epsilon=ε`): with probability ε a uniformly random
//!   legal move, else a uniformly random optimal move (one of the moves of
//!   the best value, [`Value`]'s order: fastest win, any draw, slowest
//!   loss).
//! - **softmax** (`softmax=T`): move `m` with probability proportional to
//!   `exp(u(m) / T)`, where the utility [`utility`] ranks by outcome first
//!   and distance second. Low temperatures play nearly perfectly; high ones
//!   nearly at random.
//!
//! Both draw their randomness from the caller's generator, so a match is
//! reproducible from its seed.

use crate::duel::Choice;
use rand::{Rng, RngExt};
use std::fmt;
use std::str::FromStr;
use tablebase::{Outcome, Value};

/// A fallible reference opponent.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Opponent {
    /// A uniformly random legal move with this probability, else a random
    /// optimal move.
    Epsilon(f64),
    /// Softmax over the moves' [`utility`] at this temperature.
    Softmax(f64),
}

/// Why an opponent text is not one.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OpponentError {
    /// Not `epsilon=X` or `softmax=T`.
    #[error("'{0}' is not an opponent: write epsilon=0.2 or softmax=0.5")]
    Syntax(String),
    /// ε outside 0..=1 or a temperature that is not positive and finite.
    #[error("'{0}': epsilon must lie in 0..1 and a temperature be positive")]
    Range(String),
}

impl FromStr for Opponent {
    type Err = OpponentError;

    /// `epsilon=0.2` (also `eps=`), `softmax=0.5` (also `T=`).
    fn from_str(text: &str) -> Result<Opponent, OpponentError> {
        let syntax = || OpponentError::Syntax(text.to_string());
        let (name, x) = text.trim().split_once('=').ok_or_else(syntax)?;
        let x: f64 = x.trim().parse().map_err(|_| syntax())?;
        let range = || OpponentError::Range(text.to_string());
        match name.trim() {
            "epsilon" | "eps" | "e" => {
                if (0.0..=1.0).contains(&x) {
                    Ok(Opponent::Epsilon(x))
                } else {
                    Err(range())
                }
            }
            "softmax" | "T" | "t" => {
                if x > 0.0 && x.is_finite() {
                    Ok(Opponent::Softmax(x))
                } else {
                    Err(range())
                }
            }
            _ => Err(syntax()),
        }
    }
}

impl fmt::Display for Opponent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Opponent::Epsilon(e) => write!(f, "epsilon={e}"),
            Opponent::Softmax(t) => write!(f, "softmax={t}"),
        }
    }
}

/// The utility of a move's value for the softmax player: 1 for a win, 0 for
/// a draw, −1 for a loss, moved by `1 / d` for a known distance `d` (a win
/// in 1 is worth 2, a loss in 1 −2; a far win or loss nearly ±1). Without a
/// distance (placement tables: outcomes only) a win is 1 and a loss −1.
pub fn utility(v: Value, has_distance: bool) -> f64 {
    let near = match (has_distance, v.distance()) {
        (true, Some(d)) => 1.0 / f64::from(d.max(1)),
        _ => 0.0,
    };
    match v.outcome() {
        Outcome::Win => 1.0 + near,
        Outcome::Draw => 0.0,
        Outcome::Loss => -1.0 - near,
    }
}

/// The best value among `moves` (`None` when there are none).
pub fn best_value<M>(moves: &[Choice<M>]) -> Option<Value> {
    moves.iter().map(|c| c.value).max()
}

impl Opponent {
    /// The probability of each of `moves` (in order) into `out`, which is
    /// cleared first; they sum to 1 (empty for no moves).
    pub fn probabilities<M>(&self, moves: &[Choice<M>], out: &mut Vec<f64>) {
        out.clear();
        let Some(best) = best_value(moves) else {
            return;
        };
        let n = moves.len() as f64;
        match *self {
            Opponent::Epsilon(e) => {
                let optimal = moves.iter().filter(|c| c.value == best).count() as f64;
                out.extend(moves.iter().map(|c| {
                    let p = if c.value == best {
                        (1.0 - e) / optimal
                    } else {
                        0.0
                    };
                    p + e / n
                }));
            }
            Opponent::Softmax(t) => {
                let top = top_utility(moves);
                out.extend(
                    moves
                        .iter()
                        .map(|c| ((utility(c.value, c.has_distance) - top) / t).exp()),
                );
                let total: f64 = out.iter().sum();
                out.iter_mut().for_each(|p| *p /= total);
            }
        }
    }

    /// The index of the move this opponent plays among `moves` (not
    /// empty), drawn from `rng`.
    pub fn choose<M, R: Rng + ?Sized>(&self, moves: &[Choice<M>], rng: &mut R) -> usize {
        debug_assert!(!moves.is_empty());
        match *self {
            Opponent::Epsilon(e) => {
                if rng.random_bool(e) {
                    return rng.random_range(0..moves.len());
                }
                let best = best_value(moves).expect("a move");
                let optimal = moves.iter().filter(|c| c.value == best).count();
                let k = rng.random_range(0..optimal);
                moves
                    .iter()
                    .enumerate()
                    .filter(|(_, c)| c.value == best)
                    .nth(k)
                    .map(|(i, _)| i)
                    .expect("k < optimal")
            }
            Opponent::Softmax(t) => {
                // Two passes over the weights instead of a buffer.
                let top = top_utility(moves);
                let weight = |c: &Choice<M>| ((utility(c.value, c.has_distance) - top) / t).exp();
                let total: f64 = moves.iter().map(weight).sum();
                let mut x = rng.random::<f64>() * total;
                for (i, c) in moves.iter().enumerate() {
                    let w = weight(c);
                    if x < w {
                        return i;
                    }
                    x -= w;
                }
                moves.len() - 1
            }
        }
    }
}

/// The largest utility among `moves` (subtracted before `exp`, so that
/// the weights cannot overflow).
fn top_utility<M>(moves: &[Choice<M>]) -> f64 {
    moves
        .iter()
        .map(|c| utility(c.value, c.has_distance))
        .fold(f64::NEG_INFINITY, f64::max)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    fn choices(values: &[Value]) -> Vec<Choice<usize>> {
        values
            .iter()
            .enumerate()
            .map(|(i, &value)| Choice {
                mv: i,
                value,
                has_distance: true,
            })
            .collect()
    }

    #[test]
    fn parse_and_print() {
        assert_eq!("epsilon=0.2".parse(), Ok(Opponent::Epsilon(0.2)));
        assert_eq!("softmax=0.5".parse(), Ok(Opponent::Softmax(0.5)));
        assert_eq!(Opponent::Epsilon(0.05).to_string(), "epsilon=0.05");
        assert!(matches!(
            "epsilon=1.5".parse::<Opponent>(),
            Err(OpponentError::Range(_))
        ));
        assert!(matches!(
            "softmax=0".parse::<Opponent>(),
            Err(OpponentError::Range(_))
        ));
        assert!(matches!(
            "greedy".parse::<Opponent>(),
            Err(OpponentError::Syntax(_))
        ));
    }

    /// ε-random by hand: 2 draws and 2 losses, ε = 0.2: each loss 0.05,
    /// each draw 0.4 + 0.05.
    #[test]
    fn epsilon_probabilities() {
        let moves = choices(&[Value::DRAW, Value::loss(3), Value::DRAW, Value::loss(1)]);
        let mut p = Vec::new();
        Opponent::Epsilon(0.2).probabilities(&moves, &mut p);
        let want = [0.45, 0.05, 0.45, 0.05];
        for (a, b) in p.iter().zip(want) {
            assert!((a - b).abs() < 1e-12, "{p:?}");
        }
    }

    /// Softmax by hand: utilities 0 (draw) and −2 (loss in 1) at T = 1.
    #[test]
    fn softmax_probabilities() {
        let moves = choices(&[Value::DRAW, Value::loss(1)]);
        let mut p = Vec::new();
        Opponent::Softmax(1.0).probabilities(&moves, &mut p);
        let z = 1.0 + (-2.0f64).exp();
        assert!((p[0] - 1.0 / z).abs() < 1e-12);
        assert!((p[1] - (-2.0f64).exp() / z).abs() < 1e-12);
    }

    /// The sampled frequencies follow the probabilities (ε = 0.3, 60,000
    /// draws; 5 standard deviations of slack).
    #[test]
    fn choices_follow_probabilities() {
        let moves = choices(&[Value::win(3), Value::DRAW, Value::win(1), Value::loss(2)]);
        for opp in [Opponent::Epsilon(0.3), Opponent::Softmax(0.7)] {
            let mut p = Vec::new();
            opp.probabilities(&moves, &mut p);
            let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(7);
            let n = 60_000;
            let mut count = [0u32; 4];
            for _ in 0..n {
                count[opp.choose(&moves, &mut rng)] += 1;
            }
            for (c, pi) in count.iter().zip(&p) {
                let f = f64::from(*c) / f64::from(n);
                let sd = (pi * (1.0 - pi) / f64::from(n)).sqrt();
                assert!(
                    (f - pi).abs() < 5.0 * sd + 1e-9,
                    "{opp}: {count:?} vs {p:?}"
                );
            }
        }
    }
}
