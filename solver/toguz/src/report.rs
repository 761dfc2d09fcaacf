//! The JSON documents about Toguz Kumalak positions and searches that
//! `solver toguz search --json` prints and the web API answers: one
//! producer of each shape.

use super::board::{Board, NO_TUZDYK};
use super::notation::move_notation;
use super::search::SearchResult;
use super::Outcome;
use serde_json::{json, Value as Json};

/// `solver toguz search --json` and `GET /api/toguz/search`: the position,
/// the number of threads and the [`SearchResult`] fields (`best`, `score`,
/// `pv`, `depth`, `nodes`, `seconds`, `nps`, `iterations`, `exact`). The
/// endgame solver's proof `exact` counts holes from 1 like `best` and says
/// `win`/`draw`/`loss` like every other answer.
pub fn search_json(board: &Board, threads: usize, result: &SearchResult) -> Json {
    let mut out = search_fields(board, threads, result);
    if let Some(exact) = out.get_mut("exact").and_then(|e| e.as_object_mut()) {
        if let Some(hole) = exact.get("best").and_then(|b| b.as_u64()) {
            exact.insert("best".into(), (hole + 1).into());
        }
        if let Some(r) = exact.get("result").and_then(|r| r.as_str()) {
            let lower = r.to_ascii_lowercase();
            exact.insert("result".into(), lower.into());
        }
    }
    out
}

/// The fields of [`search_json`] as the search result serialises them.
fn search_fields(board: &Board, threads: usize, result: &SearchResult) -> Json {
    #[derive(serde::Serialize)]
    struct Out<'a> {
        position: String,
        threads: usize,
        #[serde(flatten)]
        result: &'a SearchResult,
    }
    serde_json::to_value(Out {
        position: board.to_string(),
        threads,
        result,
    })
    .unwrap_or_else(|e| json!({ "error": e.to_string() }))
}

/// The result of a finished game as text: `white`, `black` or `draw`.
pub fn outcome_name(o: Outcome) -> &'static str {
    match o {
        Outcome::Win(s) if s.index() == 0 => "white",
        Outcome::Win(_) => "black",
        Outcome::Draw => "draw",
    }
}

/// `GET /api/toguz/show`: the position as data (`holes`: White's 1..9 then
/// Black's 1..9; `kazans`; `tuzdyks`: the absolute hole index 0..17 each
/// side owns, or null), the side to move, the result if the game is over
/// (with the final kazans), and every legal move with its PlayOK notation
/// and the position after it.
pub fn show_json(board: &Board) -> Json {
    let moves: Vec<Json> = (0..9u8)
        .filter(|&m| board.is_legal(m))
        .map(|m| {
            let mut after = *board;
            let effect = after.make(m);
            json!({
                "hole": m + 1,
                "move": move_notation(m, &effect, &after),
                "after": after.to_string(),
            })
        })
        .collect();
    let tuzdyk = |t: u8| (t != NO_TUZDYK).then_some(t);
    let outcome = board.outcome();
    json!({
        "position": board.to_string(),
        "to_move": if board.side.index() == 0 { "white" } else { "black" },
        "holes": board.holes.to_vec(),
        "kazans": board.kazan.to_vec(),
        "tuzdyks": [tuzdyk(board.tuzdyk[0]), tuzdyk(board.tuzdyk[1])],
        "result": outcome.map(outcome_name),
        "final_kazans": outcome.map(|_| board.final_kazans().to_vec()),
        "moves": moves,
    })
}
