//! The perfect player under the count rule (`mill::duel`, issue 46): on the
//! whole 4-stone game on Six Men's Morris's board solved in memory under a
//! count rule short enough to bite, from hundreds of moving-phase starts
//! that are wins under the rule at a count of zero, the perfect player
//! (reading every move at its count, [`Solved::moves_at`]) against the
//! ε-random opponent wins every game, and the match draws a game by the
//! count when the limit is reached. The negative: a player that reads the
//! tables at a count of zero every move does lose some of those wins to
//! the count, so the check can fail.

use mill::duel::games::Family;
use mill::duel::harness::{play_from, End, GameRecord};
use mill::duel::{Choice, DuelError, DuelOptions, Opponent, Policy, Solved};
use mill::index;
use mill::rules::board::Six;
use mill::rules::ending;
use mill::rules::position::{Color, Move, Position};
use mill::rules::variant::RuleSet;
use mill::tables::solve::Solution;
use rayon::prelude::*;
use tablebase::retro::Silent;
use tablebase::{Outcome, Value};

/// The count rule's limit: short enough that many wins of the game
/// without the rule are draws under it.
const LIMIT: u16 = 10;
/// Starts taken from the solution.
const STARTS: usize = 600;

/// Moving-phase positions that are wins under the rule at a count of zero
/// (a stored win within the limit; 3 or 4 stones a side), spread over
/// every subspace, the side to move alternating between the colours.
fn rule_wins(sol: &Solution<Six>) -> Vec<Position> {
    let rules = sol.rules;
    let mut all = Vec::new();
    for (&sub, values) in &sol.moving {
        for (slot, v) in values.iter().enumerate() {
            if v.outcome() == Outcome::Win && v.distance().is_some_and(|d| d <= LIMIT) {
                all.push((sub, slot as u64));
            }
        }
    }
    assert!(all.len() > STARTS, "{} rule wins", all.len());
    let step = all.len() / STARTS;
    all.iter()
        .step_by(step)
        .take(STARTS)
        .enumerate()
        .map(|(i, &(sub, slot))| {
            let (us, them) = index::position::<Six>(sub, slot);
            let color = if i % 2 == 0 {
                Color::White
            } else {
                Color::Black
            };
            let pos = Position::from_mover(us, them, color);
            assert!(pos.us().count_ones() >= 3 && pos.them().count_ones() >= 3);
            assert!(ending::<Six>(&pos, rules).is_none());
            pos
        })
        .collect()
}

/// The game with its move values read at a count of zero whatever the
/// quiet plies played: a player that ignores the count. The match still
/// draws at the limit.
struct CountBlind<'a>(Family<'a, Six, Solution<Six>>);

impl Solved for CountBlind<'_> {
    type Position = Position;
    type Move = Move;

    fn start(&self) -> Position {
        self.0.start()
    }
    fn to_move(&self, pos: &Position) -> Color {
        self.0.to_move(pos)
    }
    fn finish(&self, pos: &Position) -> Option<mill::duel::Finish> {
        self.0.finish(pos)
    }
    fn moves(&self, pos: &Position) -> Result<Vec<Choice<Move>>, DuelError> {
        self.0.moves_at(pos, 0)
    }
    fn moves_at(&self, pos: &Position, _quiet: u16) -> Result<Vec<Choice<Move>>, DuelError> {
        self.0.moves_at(pos, 0)
    }
    fn play(&self, pos: &Position, m: Move) -> Position {
        self.0.play(pos, m)
    }
    fn irreversible(&self, pos: &Position, m: Move) -> bool {
        self.0.irreversible(pos, m)
    }
    fn quiet_limit(&self) -> Option<u16> {
        self.0.quiet_limit()
    }
}

/// A game whose move values are outcomes only (a win is any winning move,
/// as a player that only knows who wins sees them), read at the count
/// (`aware`) or at a count of zero.
struct Outcomes<'a> {
    game: Family<'a, Six, Solution<Six>>,
    aware: bool,
}

impl Solved for Outcomes<'_> {
    type Position = Position;
    type Move = Move;

    fn start(&self) -> Position {
        self.game.start()
    }
    fn to_move(&self, pos: &Position) -> Color {
        self.game.to_move(pos)
    }
    fn finish(&self, pos: &Position) -> Option<mill::duel::Finish> {
        self.game.finish(pos)
    }
    fn moves(&self, pos: &Position) -> Result<Vec<Choice<Move>>, DuelError> {
        self.moves_at(pos, 0)
    }
    fn moves_at(&self, pos: &Position, quiet: u16) -> Result<Vec<Choice<Move>>, DuelError> {
        let quiet = if self.aware { quiet } else { 0 };
        let mut moves = self.game.moves_at(pos, quiet)?;
        for c in &mut moves {
            c.value = match c.value.outcome() {
                Outcome::Win => Value::win(1),
                Outcome::Draw => Value::DRAW,
                Outcome::Loss => Value::loss(1),
            };
            c.has_distance = false;
        }
        Ok(moves)
    }
    fn play(&self, pos: &Position, m: Move) -> Position {
        self.game.play(pos, m)
    }
    fn irreversible(&self, pos: &Position, m: Move) -> bool {
        self.game.irreversible(pos, m)
    }
    fn quiet_limit(&self) -> Option<u16> {
        self.game.quiet_limit()
    }
}

/// One game from each start, the perfect player (`policy`) on the side to
/// move, against ε-random.
fn from_each<G: Solved<Position = Position> + Sync>(
    game: &G,
    starts: &[Position],
    policy: Policy,
    opponent: Opponent,
) -> Vec<GameRecord> {
    let options = DuelOptions {
        policy,
        opponent,
        games: starts.len() as u64,
        seed: 46,
    };
    starts
        .par_iter()
        .enumerate()
        .map(|(i, pos)| play_from(game, &options, i as u64, pos.to_move, *pos, 0).unwrap())
        .collect()
}

fn summary(records: &[GameRecord]) -> (usize, usize, usize) {
    let wins = records.iter().filter(|r| r.points == 1.0).count();
    let by_count = records.iter().filter(|r| r.end == End::Count).count();
    let losses = records.iter().filter(|r| r.points == 0.0).count();
    (wins, by_count, losses)
}

#[test]
fn the_perfect_player_keeps_every_win_under_the_count_rule() {
    let rules = RuleSet::new(4, true).with_quiet_limit(Some(LIMIT));
    let sol = Solution::<Six>::solve(rules, true, &Silent, |_| {}).unwrap();
    let starts = rule_wins(&sol);
    let game = Family::<Six, _>::new(&sol, rules);
    assert_eq!(game.quiet_limit(), Some(LIMIT));
    for (policy, opponent) in [
        ("fast", "epsilon=0.3"),
        ("random", "epsilon=1"),
        ("ultra", "softmax=0.5"),
    ] {
        let records = from_each(
            &game,
            &starts,
            policy.parse().unwrap(),
            opponent.parse().unwrap(),
        );
        let (wins, by_count, _) = summary(&records);
        assert_eq!(
            wins,
            starts.len(),
            "{policy} against {opponent}: {by_count} drawn by the count"
        );
    }
    // The fastest win is safe whatever the count (its distance fits the
    // plies left at every count where the position wins), so even a
    // perfect player blind to the count keeps these wins ...
    let blind = CountBlind(Family::<Six, _>::new(&sol, rules));
    let records = from_each(&blind, &starts, Policy::Fast, Opponent::Epsilon(0.3));
    assert_eq!(summary(&records).0, starts.len());
    // ... but a player content with any winning move keeps them only when
    // it reads the moves at their count: at a count of zero a "win" may
    // be too far for the plies left, and the count draws the game.
    let mut drawn = Vec::new();
    for aware in [true, false] {
        let g = Outcomes {
            game: Family::<Six, _>::new(&sol, rules),
            aware,
        };
        let records = from_each(&g, &starts, Policy::Random, Opponent::Epsilon(0.3));
        let (wins, by_count, losses) = summary(&records);
        eprintln!(
            "any winning move, read at {}: {wins} wins, {by_count} drawn by the count, {losses} losses of {}",
            if aware { "the count" } else { "a count of zero" },
            starts.len()
        );
        assert_eq!(losses, 0);
        assert_eq!(wins + by_count, starts.len());
        drawn.push(by_count);
        let options = DuelOptions {
            policy: Policy::Random,
            opponent: Opponent::Epsilon(0.3),
            games: starts.len() as u64,
            seed: 46,
        };
        assert_eq!(
            mill::duel::DuelReport::of(&options, &records).count_draws,
            by_count as u64
        );
    }
    assert_eq!(drawn[0], 0, "read at the count, every win is kept");
    assert!(drawn[1] > 0, "read at a count of zero, some wins are lost");
}

/// Without a count rule nothing changes: the quiet plies are ignored and
/// the match draws after 100 quiet plies by the rules of play between
/// people, never by a count.
#[test]
fn without_a_count_rule_the_count_is_ignored() {
    let rules = RuleSet::new(4, true);
    let sol = Solution::<Six>::solve(rules, true, &Silent, |_| {}).unwrap();
    let game = Family::<Six, _>::new(&sol, rules);
    assert_eq!(game.quiet_limit(), None);
    let pos = Position::start(rules);
    assert_eq!(game.moves_at(&pos, 57).unwrap(), game.moves(&pos).unwrap());
    let options = DuelOptions {
        policy: Policy::Fast,
        opponent: Opponent::Epsilon(0.2),
        games: 40,
        seed: 3,
    };
    let report = mill::duel::duel(&game, &options).unwrap();
    assert_eq!(report.count_draws, 0);
}
