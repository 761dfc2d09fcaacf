//! A game under the count rule beside the same game without it
//! (`docs/rules.md`, "The count rule"): the rule's answer with each value
//! the rule changes marked, as Syzygy's tables mark their cursed wins and
//! blessed losses. A *cursed win* is won without the count rule and drawn
//! under it (the win takes too long); a *blessed loss* is lost without it
//! and drawn under it. (The rule never turns a draw into a decision or a
//! win into a loss: a side that wins under the count wins without it.)

use crate::games::{GameError, MillGame};
use crate::probe::count::Label;
use serde_json::Value as Json;
use tablebase::Outcome;

/// `"cursed-win"`, `"blessed-loss"` or null ([`Label::of`]): what the
/// count rule made of a value `plain` (`win`, `draw`, `loss`) that reads
/// `counted` under it.
fn label(plain: &Json, counted: &Json) -> Json {
    let outcome = |j: &Json| match j.as_str() {
        Some("win") => Some(Outcome::Win),
        Some("draw") => Some(Outcome::Draw),
        Some("loss") => Some(Outcome::Loss),
        _ => None,
    };
    match (outcome(plain), outcome(counted)) {
        (Some(p), Some(c)) => Label::of(p, c).map_or(Json::Null, |l| l.as_str().into()),
        _ => Json::Null,
    }
}

/// Mark `counted`, an analysis under the count rule (the JSON of
/// [`MillGame::analyse_at`]), against `plain`, the same position's
/// analysis without the rule: a `label` on the position and on each move
/// (matched by its text), `"cursed-win"`, `"blessed-loss"` or null, and
/// the value without the rule as `plain_value`.
pub fn mark(counted: &mut Json, plain: &Json) {
    counted["label"] = label(&plain["value"], &counted["value"]);
    counted["plain_value"] = plain["value"].clone();
    let plain_moves = plain["moves"].as_array().map_or(&[][..], Vec::as_slice);
    if let Some(moves) = counted["moves"].as_array_mut() {
        for m in moves {
            let before = plain_moves.iter().find(|p| p["move"] == m["move"]);
            let before = before.map_or(&Json::Null, |p| &p["value"]);
            m["label"] = label(before, &m["value"]);
            m["plain_value"] = before.clone();
        }
    }
}

/// The analysis of `position` after `plies` quiet plies by `counted` (a
/// game served under the count rule), marked against `plain` (the same
/// board without it: [`mark`]). When `plain` cannot answer (its tables
/// are missing), the rule's answer comes unmarked.
pub fn analyse_marked(
    counted: &dyn MillGame,
    plain: &dyn MillGame,
    position: &str,
    plies: u16,
) -> Result<Json, GameError> {
    let mut answer = counted.analyse_at(position, plies)?;
    if let Ok(before) = plain.analyse(position) {
        mark(&mut answer, &before);
    }
    Ok(answer)
}

/// The position after `mv` (a legal move of `position`, texts as the
/// game writes them) and the quiet plies after it: none after a removal or
/// a placement (the stones on the board or in hand change), one more
/// after any other move.
pub fn play_counted(
    game: &dyn MillGame,
    position: &str,
    mv: &str,
    plies: u16,
) -> Result<(String, u16), GameError> {
    let stones = |j: &Json| (j["hand"].clone(), j["on_board"].clone());
    let before = game.show(position)?;
    let next = game.play(position, mv)?;
    let quiet = stones(&before) == stones(&game.show(&next)?);
    Ok((next, if quiet { plies.saturating_add(1) } else { 0 }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_rule_s_changes_are_marked_by_move() {
        let plain = json!({"value": "win", "moves": [
            {"move": "a1-a4", "value": "win"},
            {"move": "d1-d2", "value": "loss"},
            {"move": "g1-g4", "value": "draw"},
        ]});
        let mut counted = json!({"value": "draw", "moves": [
            {"move": "d1-d2", "value": "draw"},
            {"move": "a1-a4", "value": "draw"},
            {"move": "g1-g4", "value": "draw"},
        ]});
        mark(&mut counted, &plain);
        assert_eq!(counted["label"], "cursed-win");
        assert_eq!(counted["plain_value"], "win");
        let labels: Vec<_> = counted["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["label"].clone())
            .collect();
        assert_eq!(
            labels,
            [json!("blessed-loss"), json!("cursed-win"), Json::Null]
        );
        assert_eq!(counted["moves"][0]["plain_value"], "loss");
    }
}
