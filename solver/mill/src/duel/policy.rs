//! The perfect player's choice among its moves of the best value. Every
//! policy here plays only moves whose [`Value`](tablebase::Value) equals the best (the
//! tables' order: fastest win, any draw, slowest loss; where the tables
//! know outcomes only, any move of the best outcome), so none ever gives up
//! value; they differ in which of those moves they pick:
//!
//! - `fast`: the first in the game's move order (deterministic; what the
//!   perfect player of `probe`/`play` has always done);
//! - `random`: a uniformly random one (seeded);
//! - `ultra[:K[:MODEL]]`: the one that maximises the expected points
//!   against a model of a fallible opponent (default `epsilon=0.1`) over
//!   the next `K` opponent moves (default 1): expectimax over the tables,
//!   the opponent's replies weighted by the model, our own later moves
//!   again restricted to the best value, and the tables' value (no more
//!   errors) at the horizon. At `K = 1` it is the weight of the opponent's
//!   losing replies; ties are broken at random;
//! - `secval`: Malom's sector-value ranking (Nine Men's Morris): the move
//!   into the sector of `std.secval` best for us; ties at random.

use crate::duel::fallible::{best_value, Opponent};
use crate::duel::{finish_at, points, quiet_after, Choice, DuelError, Finish, Solved};
use rand::{Rng, RngExt};
use std::fmt;
use std::str::FromStr;
use tablebase::Outcome;

/// The `ultra` policy's look-ahead and opponent model.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ultra {
    /// Opponent moves looked ahead (at least 1).
    pub depth: u32,
    /// The opponent it assumes.
    pub model: Opponent,
}

impl Default for Ultra {
    /// One opponent move ahead, against ε-random with ε = 0.1.
    fn default() -> Ultra {
        Ultra {
            depth: 1,
            model: Opponent::Epsilon(0.1),
        }
    }
}

/// A move-choice policy of the perfect player.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub enum Policy {
    /// The first best move in the game's move order.
    #[default]
    Fast,
    /// A uniformly random best move.
    Random,
    /// The best move that most likely makes the opponent err.
    Ultra(Ultra),
    /// The best move into Malom's best sector for us.
    SectorValue,
}

/// Why a policy text is not one.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PolicyError {
    /// Not one of the names.
    #[error("'{0}' is not a policy: write fast, random, ultra, ultra:K, ultra:K:epsilon=E|softmax=T or secval")]
    Syntax(String),
    /// A bad model inside `ultra:K:MODEL`.
    #[error(transparent)]
    Model(#[from] super::fallible::OpponentError),
}

impl FromStr for Policy {
    type Err = PolicyError;

    fn from_str(text: &str) -> Result<Policy, PolicyError> {
        let syntax = || PolicyError::Syntax(text.to_string());
        let mut parts = text.trim().splitn(3, ':');
        match parts.next().unwrap_or_default() {
            "fast" | "random" | "secval" if parts.next().is_some() => Err(syntax()),
            "fast" => Ok(Policy::Fast),
            "random" => Ok(Policy::Random),
            "secval" => Ok(Policy::SectorValue),
            "ultra" => {
                let mut u = Ultra::default();
                if let Some(k) = parts.next() {
                    u.depth = k.parse().map_err(|_| syntax())?;
                    if !(1..=8).contains(&u.depth) {
                        return Err(syntax());
                    }
                }
                if let Some(model) = parts.next() {
                    u.model = model.parse()?;
                }
                Ok(Policy::Ultra(u))
            }
            _ => Err(syntax()),
        }
    }
}

impl fmt::Display for Policy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Policy::Fast => f.write_str("fast"),
            Policy::Random => f.write_str("random"),
            Policy::SectorValue => f.write_str("secval"),
            Policy::Ultra(u) if *u == Ultra::default() => f.write_str("ultra"),
            Policy::Ultra(u) => write!(f, "ultra:{}:{}", u.depth, u.model),
        }
    }
}

/// The indices of the moves of the best value.
pub fn best_indices<M>(moves: &[Choice<M>]) -> Vec<usize> {
    let Some(best) = best_value(moves) else {
        return Vec::new();
    };
    (0..moves.len())
        .filter(|&i| moves[i].value == best)
        .collect()
}

impl Policy {
    /// The index of the move this policy plays among `moves` (the legal
    /// moves of `pos` with their values, not empty); always one of
    /// [`best_indices`]. `history` holds the positions since the last
    /// placement or removal (`pos` last; empty when unknown): `ultra`
    /// scores a move into a third occurrence as the draw it is, and of
    /// equal scores prefers the position seen fewest times (a longer game
    /// leaves the opponent more chances to err).
    pub fn choose<G: Solved, R: Rng + ?Sized>(
        &self,
        game: &G,
        pos: &G::Position,
        moves: &[Choice<G::Move>],
        history: &[G::Position],
        rng: &mut R,
    ) -> Result<usize, DuelError> {
        self.choose_at(game, pos, 0, moves, history, rng)
    }

    /// [`Policy::choose`] in a position after `quiet` quiet plies under
    /// the game's count rule ([`Solved::quiet_limit`]): `moves` are
    /// [`Solved::moves_at`] that count, and `ultra` looks ahead at the
    /// counts of the positions it reaches (a count at its limit is a
    /// draw). Without a count rule, [`Policy::choose`].
    pub fn choose_at<G: Solved, R: Rng + ?Sized>(
        &self,
        game: &G,
        pos: &G::Position,
        quiet: u16,
        moves: &[Choice<G::Move>],
        history: &[G::Position],
        rng: &mut R,
    ) -> Result<usize, DuelError> {
        let best = best_indices(moves);
        if best.len() <= 1 {
            return Ok(best.first().copied().unwrap_or(0));
        }
        let score = |i: usize| -> Result<f64, DuelError> {
            let next = game.play(pos, moves[i].mv);
            let next_quiet = quiet_after(game, pos, moves[i].mv, quiet);
            match self {
                Policy::Ultra(u) => {
                    let seen = history.iter().filter(|&&p| p == next).count();
                    if seen >= 2 {
                        // A third occurrence: a draw by repetition.
                        return Ok(0.5 - SEEN_STEP * seen as f64);
                    }
                    let score = after_our_move(game, &next, next_quiet, u.depth, &u.model)?;
                    // Round to whole steps, so that the repetitions order
                    // moves of (nearly) equal score.
                    Ok((score / SCORE_STEP).round() * SCORE_STEP - SEEN_STEP * seen as f64)
                }
                Policy::SectorValue => match finish_at(game, &next, next_quiet) {
                    // The game ends: no sector; the value decides.
                    Some(_) => Ok(0.0),
                    None => Ok(-f64::from(
                        game.sector_value(&next).ok_or(DuelError::NoSectorValues)?,
                    )),
                },
                Policy::Fast | Policy::Random => Ok(0.0),
            }
        };
        match self {
            Policy::Fast => Ok(best[0]),
            Policy::Random => Ok(best[rng.random_range(0..best.len())]),
            Policy::Ultra(_) if moves[best[0]].value.outcome() == Outcome::Win => {
                // A won game stays won whichever fastest win is played.
                Ok(best[0])
            }
            Policy::Ultra(_) | Policy::SectorValue => {
                let scores = best
                    .iter()
                    .map(|&i| score(i))
                    .collect::<Result<Vec<f64>, _>>()?;
                Ok(best[pick_max(&scores, rng)])
            }
        }
    }

    /// This policy's move in `pos` with its value; `None` when the game is
    /// over. (The moves are probed here; [`Policy::choose`] when the caller
    /// has them. `history` as there.)
    pub fn pick<G: Solved, R: Rng + ?Sized>(
        &self,
        game: &G,
        pos: &G::Position,
        history: &[G::Position],
        rng: &mut R,
    ) -> Result<Option<Choice<G::Move>>, DuelError> {
        if game.finish(pos).is_some() {
            return Ok(None);
        }
        let moves = game.moves(pos)?;
        if moves.is_empty() {
            return Ok(None);
        }
        Ok(Some(moves[self.choose(game, pos, &moves, history, rng)?]))
    }

    /// [`Policy::pick`] after `quiet` quiet plies under the game's count
    /// rule ([`Policy::choose_at`]); `None` also when the count has drawn
    /// the game.
    pub fn pick_at<G: Solved, R: Rng + ?Sized>(
        &self,
        game: &G,
        pos: &G::Position,
        quiet: u16,
        history: &[G::Position],
        rng: &mut R,
    ) -> Result<Option<Choice<G::Move>>, DuelError> {
        if finish_at(game, pos, quiet).is_some() {
            return Ok(None);
        }
        let moves = game.moves_at(pos, quiet)?;
        if moves.is_empty() {
            return Ok(None);
        }
        Ok(Some(
            moves[self.choose_at(game, pos, quiet, &moves, history, rng)?],
        ))
    }
}

/// Ultra's scores are compared to this precision.
const SCORE_STEP: f64 = 1e-9;
/// Less than [`SCORE_STEP`]: the penalty of a position already seen once.
const SEEN_STEP: f64 = 1e-11;

/// The index of the largest score; ties (within 1e-13) drawn at random.
fn pick_max<R: Rng + ?Sized>(scores: &[f64], rng: &mut R) -> usize {
    let top = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let ties: Vec<usize> = (0..scores.len())
        .filter(|&i| scores[i] >= top - 1e-13)
        .collect();
    ties[rng.random_range(0..ties.len())]
}

/// Expected points of the side that just moved into `q` (the opponent to
/// move), the opponent playing by `model` for `depth` moves and perfectly
/// after (the tables' value), we playing only best-value moves.
fn after_our_move<G: Solved>(
    game: &G,
    q: &G::Position,
    quiet: u16,
    depth: u32,
    model: &Opponent,
) -> Result<f64, DuelError> {
    match finish_at(game, q, quiet) {
        Some(Finish::Loss) => return Ok(1.0),
        Some(Finish::Draw | Finish::Count) => return Ok(0.5),
        None => {}
    }
    let replies = game.moves_at(q, quiet)?;
    let mut p = Vec::with_capacity(replies.len());
    model.probabilities(&replies, &mut p);
    let mut total = 0.0;
    for (r, &pr) in replies.iter().zip(&p) {
        if pr == 0.0 {
            continue;
        }
        let ours = 1.0 - points(r.value);
        let v = if depth <= 1 || r.value.outcome() == Outcome::Loss {
            // At the horizon, or the opponent has erred into a loss: the
            // tables' value.
            ours
        } else {
            let after = quiet_after(game, q, r.mv, quiet);
            our_best(game, &game.play(q, r.mv), after, depth - 1, model)?
        };
        total += pr * v;
    }
    Ok(total)
}

/// Expected points of the side to move at `p` playing its best-value move
/// that scores most by [`after_our_move`].
fn our_best<G: Solved>(
    game: &G,
    p: &G::Position,
    quiet: u16,
    depth: u32,
    model: &Opponent,
) -> Result<f64, DuelError> {
    match finish_at(game, p, quiet) {
        Some(Finish::Loss) => return Ok(0.0),
        Some(Finish::Draw | Finish::Count) => return Ok(0.5),
        None => {}
    }
    let moves = game.moves_at(p, quiet)?;
    let best = best_indices(&moves);
    let Some(&first) = best.first() else {
        return Ok(0.0);
    };
    if moves[first].value.outcome() == Outcome::Win {
        return Ok(1.0);
    }
    let mut top = f64::NEG_INFINITY;
    for i in best {
        top = top.max(after_our_move(
            game,
            &game.play(p, moves[i].mv),
            quiet_after(game, p, moves[i].mv, quiet),
            depth,
            model,
        )?);
    }
    Ok(top)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_print() {
        for text in ["fast", "random", "secval", "ultra", "ultra:2:softmax=0.5"] {
            let p: Policy = text.parse().unwrap();
            assert_eq!(p.to_string(), text);
        }
        assert_eq!(
            "ultra:1".parse::<Policy>().unwrap(),
            Policy::Ultra(Ultra::default())
        );
        assert!("ultra:0".parse::<Policy>().is_err());
        assert!("ultra:x".parse::<Policy>().is_err());
        assert!("fast:2".parse::<Policy>().is_err());
        assert!(matches!(
            "ultra:1:softmax=-1".parse::<Policy>(),
            Err(PolicyError::Model(_))
        ));
        assert!("best".parse::<Policy>().is_err());
    }
}
