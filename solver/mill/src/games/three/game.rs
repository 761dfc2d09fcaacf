//! Three Men's Morris as a [`MillGame`]: the whole game solved in memory
//! on first use (a few milliseconds, no table files), so the server, the
//! Python module and any front end serve it through the same object as
//! every other board.

use crate::duel::{self, Policy};
use crate::games::three::count::CountedThree;
use crate::games::three::report::{probe_json, probe_json_at, solve_json};
use crate::games::three::solve::Solution;
use crate::games::three::{parse_move, Board, Position};
use crate::games::{GameError, MillGame};
use crate::probe::count::Count;
use crate::rules::geometry::THREE_NAMES;
use crate::rules::position::Color;
use crate::rules::variant::RuleSet;
use serde_json::{json, Value as Json};
use std::sync::OnceLock;
use std::time::Instant;
use tablebase::Value;

/// Three Men's Morris with its solution (solved when first asked), under
/// a count rule when made [`ThreeGame::with_quiet_limit`].
#[derive(Default)]
pub struct ThreeGame {
    solved: OnceLock<Result<(Solution, f64), GameError>>,
    quiet_limit: Option<u16>,
    counted: OnceLock<CountedThree>,
}

impl ThreeGame {
    /// The game, not solved yet.
    pub fn new() -> ThreeGame {
        ThreeGame::default()
    }

    /// The game under the count rule of `limit` plies (`docs/rules.md`;
    /// [`CountedThree`], computed on first use in about a millisecond).
    pub fn with_quiet_limit(limit: u16) -> ThreeGame {
        ThreeGame {
            quiet_limit: Some(limit),
            ..ThreeGame::default()
        }
    }

    /// The count rule's values, or `None` without a rule; an input error
    /// for quiet plies asked without one or past the limit.
    fn counted(&self, plies: u16) -> Result<Option<&CountedThree>, GameError> {
        let Some(limit) = self.quiet_limit else {
            if plies == 0 {
                return Ok(None);
            }
            return Err(GameError::Input(format!(
                "{plies} quiet plies: this Three Men's Morris is played without a count rule"
            )));
        };
        Count::of(self.rules(), plies).map_err(|e| GameError::Input(e.to_string()))?;
        let sol = self.solution()?;
        Ok(Some(
            self.counted.get_or_init(|| CountedThree::new(sol, limit)),
        ))
    }

    /// The solution and the milliseconds it took, solving it on first use.
    fn solved(&self) -> Result<&(Solution, f64), GameError> {
        self.solved
            .get_or_init(|| {
                let started = Instant::now();
                Solution::solve()
                    .map(|s| (s, started.elapsed().as_secs_f64() * 1e3))
                    .map_err(|e| {
                        GameError::Other(format!("solving Three Men's Morris failed: {e}"))
                    })
            })
            .as_ref()
            .map_err(Clone::clone)
    }

    fn solution(&self) -> Result<&Solution, GameError> {
        self.solved().map(|(s, _)| s)
    }
}

/// A position text as a legal Three Men's Morris position.
fn parse(text: &str) -> Result<Position, GameError> {
    text.parse()
        .map_err(|e| GameError::Input(format!("bad position: {e}")))
}

/// Why a finished game ended (the side to move has lost): as the other
/// boards' `game_over` says what the mover lacks, or what its opponent
/// has.
fn game_over(pos: &Position) -> Option<&'static str> {
    if !pos.finished() {
        None
    } else if Board::get().has_line(pos.them()) {
        Some("the opponent has three in a row")
    } else {
        Some("no legal move")
    }
}

/// `best`'s move object: `move`, `value`, `dtc` as on every board, and
/// `plies` (the same distance: Three's spelling before).
fn move_json(mv: impl ToString, value: Value) -> Json {
    json!({
        "move": mv.to_string(),
        "value": value.outcome().as_str(),
        "dtc": value.distance(),
        "plies": value.distance(),
    })
}

impl MillGame for ThreeGame {
    fn id(&self) -> &'static str {
        "three"
    }

    fn title(&self) -> &'static str {
        "Three Men's Morris"
    }

    /// Three stones a side; no flying (a stone slides to a neighbour).
    fn rules(&self) -> RuleSet {
        RuleSet::new(3, false).with_quiet_limit(self.quiet_limit)
    }

    fn start(&self) -> String {
        Position::start().to_string()
    }

    fn reading(&self) -> Vec<&'static str> {
        THREE_NAMES.to_vec()
    }

    /// The keys of every board's `show`: `position`, `to_move`, `hand`,
    /// `on_board`, `flying` (false), `moves`, `game_over`.
    fn show(&self, position: &str) -> Result<Json, GameError> {
        let pos = parse(position)?;
        let moves: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
        let count = |c: Color| pos.stones[c.index()].count_ones();
        Ok(json!({
            "position": pos.to_string(),
            "to_move": pos.to_move.name(),
            "hand": {"white": pos.hand(Color::White), "black": pos.hand(Color::Black)},
            "on_board": {"white": count(Color::White), "black": count(Color::Black)},
            "flying": false,
            "moves": moves,
            "game_over": game_over(&pos),
        }))
    }

    /// The object of `solver three probe --json` ([`probe_json`]); under
    /// the count rule with `quiet_limit`, `quiet_plies` and each move's
    /// `quiet_plies` ([`probe_json_at`]).
    fn analysis_text_at(&self, position: &str, plies: u16) -> Result<String, GameError> {
        let counted = self.counted(plies)?;
        let pos = parse(position)?;
        let sol = self.solution()?;
        Ok(match counted {
            None => probe_json(sol, &pos),
            Some(c) => probe_json_at(c, sol, &pos, plies),
        }
        .to_string())
    }

    fn best_at(&self, position: &str, plies: u16) -> Result<Json, GameError> {
        self.best_by_at(position, &Policy::Fast, 0, plies)
    }

    /// Every style is served: the game is solved whole (under the count
    /// rule, `fast`: the first of the rule's moves).
    fn best_by_at(
        &self,
        position: &str,
        policy: &Policy,
        seed: u64,
        plies: u16,
    ) -> Result<Json, GameError> {
        let pos = parse(position)?;
        if let Some(c) = self.counted(plies)? {
            if *policy != Policy::Fast {
                return Err(GameError::Input(format!(
                    "the {policy} style is not available for Three Men's Morris under the count rule (only fast)"
                )));
            }
            let best = c.moves_at(self.solution()?, &pos, plies).into_iter().next();
            return Ok(json!({
                "position": pos.to_string(),
                "best": best.map(|(m, v, _)| move_json(m, v)),
                "policy": "fast",
            }));
        }
        let game = duel::games::Three(self.solution()?);
        let choice = policy
            .pick(&game, &pos, &[], &mut duel::seeded(seed))
            .map_err(|e| GameError::Other(e.to_string()))?;
        Ok(json!({
            "position": pos.to_string(),
            "best": choice.map(|c| move_json(c.mv, c.value)),
            "policy": policy.to_string(),
        }))
    }

    /// The object of `solver three solve --json` ([`solve_json`]).
    fn stats(&self) -> Result<Json, GameError> {
        let (solution, ms) = self.solved()?;
        Ok(solve_json(solution, *ms))
    }

    fn svg(&self, position: &str) -> Result<String, GameError> {
        Ok(crate::rules::svg::three_svg(&parse(position)?))
    }

    fn play_move(&self, position: &str, mv: &str) -> Result<(String, String), GameError> {
        let pos = parse(position)?;
        let m = parse_move(&pos, mv).map_err(|e| GameError::IllegalMove {
            text: mv.trim().to_string(),
            reason: e.to_string(),
        })?;
        Ok((m.to_string(), pos.play(m).to_string()))
    }

    /// Every position, once the game is solved.
    fn resident(&self, _position: &str) -> bool {
        self.solved.get().is_some_and(|s| s.is_ok())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::three::solve::Solution;

    /// Every answer of the game object is the solution's own: values and
    /// best moves from [`Solution`], moves from [`Position::legal_moves`],
    /// over every position reachable in six plies.
    #[test]
    fn answers_are_the_solutions() {
        let game = ThreeGame::new();
        let sol = Solution::solve().unwrap();
        let mut layer = vec![Position::start()];
        let mut checked = 0;
        for _ in 0..6 {
            let mut next = Vec::new();
            for pos in &layer {
                let text = pos.to_string();
                let shown = game.show(&text).unwrap();
                let moves: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
                assert_eq!(shown["moves"], json!(moves), "{text}");
                assert_eq!(shown["game_over"].is_null(), !pos.finished(), "{text}");
                let probe = game.analyse(&text).unwrap();
                assert_eq!(probe["value"], sol.value(pos).outcome().as_str(), "{text}");
                let best = game.best(&text).unwrap();
                match sol.best_move(pos) {
                    Some(m) => assert_eq!(best["best"]["move"], m.to_string(), "{text}"),
                    None => assert!(best["best"].is_null(), "{text}"),
                }
                for m in pos.legal_moves() {
                    let (written, after) = game.play_move(&text, &m.to_string()).unwrap();
                    assert_eq!(written, m.to_string());
                    assert_eq!(after, pos.play(m).to_string());
                    next.push(pos.play(m));
                }
                checked += 1;
            }
            next.sort_by_key(|p| (p.stones, p.to_move.index()));
            next.dedup();
            layer = next;
        }
        assert!(checked > 1000, "{checked} positions");
        assert!(game.resident("......... w 3 3"));
    }

    #[test]
    fn bad_input_is_an_input_error() {
        let game = ThreeGame::new();
        assert!(matches!(
            game.analyse("WWW...... w 0 3"),
            Err(GameError::Input(_))
        ));
        assert!(matches!(
            game.play_move("......... w 3 3", "a1-b2"),
            Err(GameError::IllegalMove { .. })
        ));
        assert!(!game.resident("......... w 3 3"));
    }

    /// A finished game says why, from the loser's side.
    #[test]
    fn endings_are_named() {
        let game = ThreeGame::new();
        // Counts White-first placement cannot reach.
        let shown = game.show("......WWW b 0 3").unwrap_err();
        assert!(matches!(shown, GameError::Input(_)), "{shown}");
        // White has a1 b1 c1: Black to move has lost to the line.
        let shown = game.show("BB....WWW b 0 1").unwrap();
        assert_eq!(shown["game_over"], "the opponent has three in a row");
        assert_eq!(shown["moves"], json!([]));
    }
}
