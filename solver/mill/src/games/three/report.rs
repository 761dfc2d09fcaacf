//! The JSON documents about Three Men's Morris that `solver three --json`
//! prints and the web API answers: one producer of each shape.

use crate::games::three::count::CountedThree;
use crate::games::three::solve::{Counts, Solution};
use crate::games::three::{Move, Position};
use serde_json::{json, Value as Json};
use tablebase::Value;

/// `solver three probe --json` and `GET /api/three/probe`: the keys every
/// board's probe has (`position`, `value`, `dtc`, `source`, every legal
/// move best first with `move`, `value`, `dtc`; Three Men's Morris has no
/// removals, so its `dtc` is the distance to the end of the game), and
/// Three's own `to_move`, `finished` and `plies` (the same as `dtc`, kept
/// for scripts written before).
pub fn probe_json(sol: &Solution, pos: &Position) -> Json {
    let moves = sol.moves(pos).into_iter().map(|(m, v)| (m, v, None));
    analysis_json(pos, sol.value(pos), pos.finished(), moves)
}

/// [`probe_json`] under the count rule after `plies` quiet plies (none
/// in placement): the values of [`CountedThree`], and `quiet_limit`,
/// `quiet_plies` and each move's `quiet_plies` after it, as every board's
/// analysis under the rule; at the limit the game is drawn (`game-over`,
/// no moves).
pub fn probe_json_at(counted: &CountedThree, sol: &Solution, pos: &Position, plies: u16) -> Json {
    let count = counted.count(pos, plies);
    let moves = counted.moves_at(sol, pos, count.plies);
    let moves = moves.into_iter().map(|(m, v, after)| (m, v, Some(after)));
    let value = counted.value_at(sol, pos, count.plies);
    let mut answer = analysis_json(pos, value, pos.finished() || count.expired(), moves);
    answer["quiet_limit"] = count.limit.into();
    answer["quiet_plies"] = count.plies.into();
    answer
}

/// The analysis object of `pos` (value `value`, `over` when the game has
/// ended) with its moves best first, each with the count after it under
/// a count rule.
fn analysis_json(
    pos: &Position,
    value: Value,
    over: bool,
    moves: impl Iterator<Item = (Move, Value, Option<u16>)>,
) -> Json {
    let moves: Vec<Json> = moves
        .map(|(m, v, after)| {
            let mut j = json!({
                "move": m.to_string(),
                "value": v.outcome().as_str(),
                "dtc": v.distance(),
                "plies": v.distance(),
            });
            if let Some(after) = after {
                j["quiet_plies"] = after.into();
            }
            j
        })
        .collect();
    json!({
        "position": pos.to_string(),
        "to_move": pos.to_move.name(),
        "value": value.outcome().as_str(),
        "dtc": value.distance(),
        "plies": value.distance(),
        "source": if over { "game-over" } else { "tables" },
        "finished": over,
        "moves": moves,
    })
}

fn counts_json(c: &Counts) -> Json {
    json!({"positions": c.positions, "wins": c.wins, "losses": c.losses, "draws": c.draws})
}

/// `solver three solve --json` and `GET /api/three/stats`: the value of the
/// empty board and of each first move, totals of reachable positions and
/// classes by value; `solve_ms` is the time the solve took.
pub fn solve_json(sol: &Solution, solve_ms: f64) -> Json {
    let start = Position::start();
    let value = sol.value(&start);
    let mut first = sol.moves(&start);
    first.sort_by_key(|&(m, _)| m.to);
    let totals = sol.reachable();
    let moves: serde_json::Map<String, Json> = first
        .iter()
        .map(|(m, v)| (m.to_string(), json!(v.outcome().as_str())))
        .collect();
    let plies: serde_json::Map<String, Json> = first
        .iter()
        .map(|(m, v)| (m.to_string(), json!(v.distance())))
        .collect();
    let p = &totals.positions;
    json!({
        "value": value.outcome().as_str(),
        "plies": value.distance(),
        "first_moves": moves,
        "first_move_plies": plies,
        "positions": p.positions,
        "wins": p.wins,
        "losses": p.losses,
        "draws": p.draws,
        "classes": counts_json(&totals.classes),
        "indexed_classes": sol.classes().len(),
        "levels": sol.levels(),
        "solve_ms": solve_ms,
    })
}
