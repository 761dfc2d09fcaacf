//! A match: the perfect player with a move-choice [`Policy`] against a
//! fallible [`Opponent`], N games from the start, the policy side White in
//! the even-numbered games and Black in the odd ones, played in parallel
//! (rayon). Games follow the rules of play between people
//! (`docs/rules.md`): besides the rules' own ends, a position repeated a
//! third time, or 50 moves of each side (100 plies) without a placement or
//! a removal, is a draw. Under a count rule ([`Solved::quiet_limit`]) the
//! count replaces the 50-move rule: a game is drawn once the rule's limit
//! of quiet plies is reached (unless that ply ends it), the quiet plies of
//! each position are tracked, and both players read the tables at the
//! count ([`Solved::moves_at`], [`Policy::choose_at`]).
//!
//! Game `i` draws the policy's randomness and the opponent's from two
//! streams of one ChaCha8 generator seeded by the match seed (streams `2i`
//! and `2i + 1`): a match is reproducible from its seed, whatever the
//! number of threads, and matches of different policies with one seed
//! face the same opponent random numbers (common random numbers).

use crate::duel::{finish_at, quiet_after, Choice, DuelError, Finish, Opponent, Policy, Solved};
use crate::rules::position::Color;
use rand::rngs::ChaCha8Rng;
use rand::SeedableRng;
use rayon::prelude::*;
use tablebase::Outcome;

/// Plies without a placement or a removal after which a game is a draw.
pub const QUIET_PLIES: u32 = 100;

/// What a match plays.
#[derive(Clone, Copy, Debug)]
pub struct DuelOptions {
    /// The perfect player's policy.
    pub policy: Policy,
    /// Its fallible opponent.
    pub opponent: Opponent,
    /// Games (half with each colour; the policy side is White in game 0).
    pub games: u64,
    /// Seed of the random numbers.
    pub seed: u64,
}

/// How one game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// By the rules of the game (a loss, or a full-board draw).
    Rules,
    /// A position occurred a third time.
    Repetition,
    /// 100 plies without a placement or a removal.
    Quiet,
    /// The count rule's limit of plies without a placement or a removal
    /// ([`Solved::quiet_limit`]).
    Count,
}

/// One game of a match.
#[derive(Clone, Copy, Debug)]
pub struct GameRecord {
    /// The policy side's colour.
    pub color: Color,
    /// The policy side's points: 1, ½ or 0.
    pub points: f64,
    /// Plies played.
    pub plies: u32,
    /// How it ended.
    pub end: End,
    /// Opponent moves of a worse outcome than its best (errors).
    pub errors: u32,
    /// Did the policy side stand at a win (under a count rule: a win at
    /// the count of the position) at one of its moves?
    pub stood_to_win: bool,
}

/// Wins, draws and losses of the policy side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Tally {
    /// Games won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
}

impl Tally {
    fn add(&mut self, points: f64) {
        if points > 0.75 {
            self.wins += 1;
        } else if points > 0.25 {
            self.draws += 1;
        } else {
            self.losses += 1;
        }
    }

    /// Games counted.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Points per game (0 for no game).
    pub fn score(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            return 0.0;
        }
        (self.wins as f64 + 0.5 * self.draws as f64) / n as f64
    }
}

/// The result of a match.
#[derive(Clone, Debug, serde::Serialize)]
pub struct DuelReport {
    /// The policy (its text).
    pub policy: String,
    /// The opponent (its text).
    pub opponent: String,
    /// Games played.
    pub games: u64,
    /// The seed.
    pub seed: u64,
    /// The policy side's results.
    #[serde(flatten)]
    pub tally: Tally,
    /// The policy side's points per game (0..1).
    pub score: f64,
    /// 95 % interval of the score ([`score_interval`]: Agresti and
    /// Coull's, extended to draws).
    pub interval: [f64; 2],
    /// Results with the policy side White.
    pub white: Tally,
    /// Results with the policy side Black.
    pub black: Tally,
    /// Mean plies a game.
    pub mean_plies: f64,
    /// Opponent errors (moves of a worse outcome than its best) a game.
    pub mean_errors: f64,
    /// Games drawn by repetition.
    pub repetitions: u64,
    /// Games drawn by the 50-move count.
    pub quiet_draws: u64,
    /// Games drawn by the count rule of the tables' rule set
    /// ([`Solved::quiet_limit`]; 0 without one).
    pub count_draws: u64,
    /// Games in which the policy side stood at a win at one of its moves
    /// (under a count rule, a win at that position's count): each a start
    /// that is a win.
    pub stood_to_win: u64,
    /// Of those, games it did not win (a perfect player lets none slip:
    /// under a count rule, none drawn by the count).
    pub wins_let_slip: u64,
}

impl DuelReport {
    /// The report of a match's games.
    pub fn of(options: &DuelOptions, records: &[GameRecord]) -> DuelReport {
        let n = records.len() as f64;
        let mut tally = Tally::default();
        let mut white = Tally::default();
        let mut black = Tally::default();
        for r in records {
            tally.add(r.points);
            match r.color {
                Color::White => white.add(r.points),
                Color::Black => black.add(r.points),
            }
        }
        let score = tally.score();
        let mean = |f: fn(&GameRecord) -> f64| records.iter().map(f).sum::<f64>() / n.max(1.0);
        DuelReport {
            policy: options.policy.to_string(),
            opponent: options.opponent.to_string(),
            games: records.len() as u64,
            seed: options.seed,
            tally,
            score,
            interval: score_interval(&tally, 1.96),
            white,
            black,
            mean_plies: mean(|r| f64::from(r.plies)),
            mean_errors: mean(|r| f64::from(r.errors)),
            repetitions: records.iter().filter(|r| r.end == End::Repetition).count() as u64,
            quiet_draws: records.iter().filter(|r| r.end == End::Quiet).count() as u64,
            count_draws: records.iter().filter(|r| r.end == End::Count).count() as u64,
            stood_to_win: records.iter().filter(|r| r.stood_to_win).count() as u64,
            wins_let_slip: records
                .iter()
                .filter(|r| r.stood_to_win && r.points < 0.75)
                .count() as u64,
        }
    }
}

/// The 95 % interval of a match's score at `z` standard errors, for games
/// of 1, ½ or 0 points: Agresti and Coull's interval extended to draws.
/// `z²/2` won and `z²/2` lost games are added to the `n` played, which
/// gives the score `p̃` and draw rate `d̃` over `ñ = n + z²` games; a game's
/// points have variance `p̃(1 − p̃) − d̃/4`, and the interval is
/// `p̃ ± z √(variance / ñ)`, cut to `[0, 1]`. Without draws it is Agresti
/// and Coull's; for many games it is the normal interval with the games'
/// sample variance; unlike that one it does not shrink to a point when
/// every game is won, or every game drawn.
pub fn score_interval(tally: &Tally, z: f64) -> [f64; 2] {
    let n = (tally.wins + tally.draws + tally.losses) as f64;
    let z2 = z * z;
    let games = n + z2;
    let p = (tally.wins as f64 + 0.5 * tally.draws as f64 + z2 / 2.0) / games;
    let d = tally.draws as f64 / games;
    let half = z * ((p * (1.0 - p) - d / 4.0).max(0.0) / games).sqrt();
    [(p - half).max(0.0), (p + half).min(1.0)]
}

/// Play a match (in parallel on rayon's current pool).
pub fn duel<G: Solved + Sync>(game: &G, options: &DuelOptions) -> Result<DuelReport, DuelError> {
    let records = (0..options.games)
        .into_par_iter()
        .map(|i| play_game(game, options, i))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(DuelReport::of(options, &records))
}

/// Game `i` of a match.
pub fn play_game<G: Solved>(
    game: &G,
    options: &DuelOptions,
    i: u64,
) -> Result<GameRecord, DuelError> {
    let color = if i.is_multiple_of(2) {
        Color::White
    } else {
        Color::Black
    };
    play_from(game, options, i, color, game.start(), 0)
}

/// Game `i` of a match played from `start` after `quiet` quiet plies
/// (the count rule's count; 0 at the start of a game), the policy side
/// playing `color`; the random numbers of game `i` ([`play_game`]).
pub fn play_from<G: Solved>(
    game: &G,
    options: &DuelOptions,
    i: u64,
    color: Color,
    start: G::Position,
    quiet: u16,
) -> Result<GameRecord, DuelError> {
    let mut ours = ChaCha8Rng::seed_from_u64(options.seed);
    ours.set_stream(2 * i);
    let mut theirs = ChaCha8Rng::seed_from_u64(options.seed);
    theirs.set_stream(2 * i + 1);
    let mut pos = start;
    // Positions since the last irreversible move, for repetitions.
    let mut history = vec![pos];
    let mut quiet = quiet;
    let limit = game.quiet_limit();
    let mut plies = 0;
    let mut errors = 0;
    let mut stood_to_win = false;
    let record = |points: f64, plies: u32, end: End, errors: u32, stood_to_win| GameRecord {
        color,
        points,
        plies,
        end,
        errors,
        stood_to_win,
    };
    loop {
        let side = game.to_move(&pos);
        match finish_at(game, &pos, quiet) {
            Some(Finish::Loss) => {
                let points = if side == color { 0.0 } else { 1.0 };
                return Ok(record(points, plies, End::Rules, errors, stood_to_win));
            }
            Some(Finish::Draw) => return Ok(record(0.5, plies, End::Rules, errors, stood_to_win)),
            Some(Finish::Count) => return Ok(record(0.5, plies, End::Count, errors, stood_to_win)),
            None => {}
        }
        let moves: Vec<Choice<G::Move>> = game.moves_at(&pos, quiet)?;
        if moves.is_empty() {
            // Not finished, yet no move: the tables and the rules disagree.
            return Err(DuelError::Missing(format!("the moves after ply {plies}")));
        }
        let k = if side == color {
            stood_to_win |= moves.iter().any(|c| c.value.outcome() == Outcome::Win);
            options
                .policy
                .choose_at(game, &pos, quiet, &moves, &history, &mut ours)?
        } else {
            let k = options.opponent.choose(&moves, &mut theirs);
            let best = moves.iter().map(|c| c.value.outcome()).max();
            if Some(moves[k].value.outcome()) < best {
                errors += 1;
            }
            k
        };
        let m = moves[k].mv;
        let irreversible = game.irreversible(&pos, m);
        quiet = quiet_after(game, &pos, m, quiet);
        pos = game.play(&pos, m);
        plies += 1;
        if irreversible {
            history.clear();
        }
        history.push(pos);
        if history.iter().filter(|&&p| p == pos).count() >= 3 {
            return Ok(record(0.5, plies, End::Repetition, errors, stood_to_win));
        }
        // Under a count rule the count ends the game (at the top of the
        // loop); else the rules of play between people.
        if limit.is_none() && u32::from(quiet) >= QUIET_PLIES && game.finish(&pos).is_none() {
            return Ok(record(0.5, plies, End::Quiet, errors, stood_to_win));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tally(wins: u64, draws: u64, losses: u64) -> Tally {
        Tally {
            wins,
            draws,
            losses,
        }
    }

    /// Without draws, Agresti and Coull's interval: 10 wins of 10 is
    /// p̃ = 11.9208 / 13.8416 = 0.86123, half width
    /// 1.96 √(0.86123 · 0.13877 / 13.8416) = 0.18219.
    #[test]
    fn without_draws_it_is_agresti_coull() {
        let [lo, hi] = score_interval(&tally(10, 0, 0), 1.96);
        assert!((lo - (0.86123 - 0.18219)).abs() < 1e-4, "{lo}");
        assert_eq!(hi, 1.0);
        let [lo, hi] = score_interval(&tally(2000, 0, 0), 1.96);
        assert!(lo > 0.997 && lo < 1.0 && hi == 1.0, "{lo}");
        let [lo, hi] = score_interval(&tally(0, 0, 30), 1.96);
        assert!(lo == 0.0 && hi > 0.0 && hi < 0.15, "{hi}");
    }

    /// Many games with draws: the normal interval with the games' sample
    /// variance (computed here from the games themselves).
    #[test]
    fn many_games_match_the_normal_interval() {
        for (w, d, l) in [(5200, 3100, 1700), (900, 9000, 100), (3000, 4000, 3000)] {
            let t = tally(w, d, l);
            let n = (w + d + l) as f64;
            let points = std::iter::repeat_n(1.0, w as usize)
                .chain(std::iter::repeat_n(0.5, d as usize))
                .chain(std::iter::repeat_n(0.0, l as usize));
            let mean = t.score();
            let var = points.map(|x: f64| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
            let half = 1.96 * (var / n).sqrt();
            let [lo, hi] = score_interval(&t, 1.96);
            assert!((lo - (mean - half)).abs() < 2e-4, "{lo} vs {}", mean - half);
            assert!((hi - (mean + half)).abs() < 2e-4, "{hi} vs {}", mean + half);
            assert!(lo < mean && mean < hi);
        }
        let [lo, hi] = score_interval(&tally(0, 0, 0), 1.96);
        assert!(lo < 0.1 && hi > 0.9, "no games: [{lo}, {hi}]");
        let [lo, hi] = score_interval(&tally(0, 7, 0), 1.96);
        assert!(lo < 0.4 && hi > 0.6 && lo >= 0.0 && hi <= 1.0, "all drawn");
    }
}
