//! The JSON documents about the family's positions and tables that
//! `solver six|lasker|morabaraba show|stats --json` print and the web API
//! answers: one producer of each shape (probes are
//! [`crate::probe::analysis::Analysis`]'s one object).

use crate::games::lasker;
use crate::games::morabaraba::moving::SubspaceReport;
use crate::rules::board::Board;
use crate::rules::position::Position;
use crate::rules::variant::RuleSet;
use crate::rules::{ending, format_position, legal_moves, move_text, Ending};
use crate::tables::files::{self, FilesError};
use crate::tables::keys::TableId;
use serde_json::{json, Value as Json};
use std::path::Path;
use tablebase::format::Header;

/// Why a game is over, in words ("the side to move has no legal move and
/// loses", "the board is full: a draw").
pub fn ending_text(e: Ending) -> String {
    match e {
        Ending::Loss(o) => format!("the side to move has {} and loses", o.describe()),
        Ending::FullBoardDraw => "the board is full: a draw".to_string(),
    }
}

/// `solver six|lasker|morabaraba show --json` and `GET /api/{game}/show`:
/// the keys of Nine Men's Morris's `show` that every board has — the
/// position, side to move, hands, stones on the board, flying, every legal
/// move in the order of the move generator, why the game is over (if it
/// is: what the side to move lacks, as Nine's says, or "the board is
/// full: a draw").
pub fn show_json<B: Board>(pos: &Position, rules: RuleSet) -> Json {
    let moves: Vec<String> = legal_moves::<B>(pos, rules)
        .into_iter()
        .map(move_text::<B>)
        .collect();
    json!({
        "position": format_position::<B>(pos),
        "to_move": pos.to_move.name(),
        "hand": {"white": pos.hand[0], "black": pos.hand[1]},
        "on_board": {"white": pos.stones[0].count_ones(), "black": pos.stones[1].count_ones()},
        "flying": rules.flying,
        "moves": moves,
        "game_over": ending::<B>(pos, rules).map(Ending::describe),
    })
}

/// A table's counts as a row: `table` (its label), `positions`, `wins`,
/// `draws`, `losses`, `longest_win`, `longest_loss`, `bytes`.
fn table_row(h: &Header, bytes: u64) -> Json {
    json!({
        "table": h.label,
        "positions": h.positions,
        "wins": h.wins,
        "draws": h.draws,
        "losses": h.losses,
        "longest_win": h.max_win,
        "longest_loss": h.max_loss,
        "bytes": bytes,
    })
}

/// Totals of `rows` (`positions`, `wins`, `draws`, `losses`, `bytes`) into
/// `out`.
fn totals(out: &mut Json, rows: &[Json]) {
    for key in ["positions", "wins", "draws", "losses", "bytes"] {
        let sum: u64 = rows.iter().map(|r| r[key].as_u64().unwrap_or(0)).sum();
        out[key] = sum.into();
    }
}

/// `solver six stats --json` and `GET /api/six/stats`: every table of the
/// whole game under `rules` in `dir` (`kind` moving or placement), with
/// totals.
pub fn solution_stats_json<B: Board>(dir: &Path, rules: RuleSet) -> Result<Json, FilesError> {
    let mut rows = Vec::new();
    for id in files::tables(rules) {
        let table = files::open::<B>(dir, rules, id)?;
        let mut row = table_row(table.header(), table.bytes());
        row["kind"] = match id {
            TableId::Moving(_) => "moving",
            TableId::Placement(_) => "placement",
        }
        .into();
        rows.push(row);
    }
    let mut out = json!({"variant": B::NAME, "flying": rules.flying, "stones": rules.stones});
    totals(&mut out, &rows);
    out["tables"] = rows.into();
    Ok(out)
}

/// `solver lasker stats --json` and `GET /api/lasker/stats`: every sector
/// of the game under `rules` in `dir` (`sector` as `[us, them, us_hand,
/// them_hand]`), with totals and the positions of the game.
pub fn lasker_stats_json<B: Board>(dir: &Path, rules: RuleSet) -> Result<Json, FilesError> {
    let mut rows = Vec::new();
    for s in lasker::sector::sectors::<B>(rules.stones) {
        let table = lasker::files::open::<B>(dir, rules, s)?;
        let mut row = table_row(table.header(), table.bytes());
        row["sector"] = json!([s.us, s.them, s.us_hand, s.them_hand]);
        rows.push(row);
    }
    let mut out = json!({
        "variant": "lasker", "stones": rules.stones, "flying": rules.flying,
        "game_positions": lasker::sector::positions::<B>(rules.stones) as u64,
    });
    totals(&mut out, &rows);
    out["tables"] = rows.into();
    Ok(out)
}

/// One subspace of Morabaraba's moving-phase tables as a row.
pub fn subspace_json(r: &SubspaceReport) -> Json {
    json!({
        "subspace": r.sub.to_string(),
        "slots": r.slots,
        "positions": r.positions,
        "wins": r.wdl[0],
        "draws": r.wdl[1],
        "losses": r.wdl[2],
        "longest_win": r.longest_win,
        "bytes": r.bytes,
    })
}

/// `solver morabaraba stats --json` and `GET /api/morabaraba/stats`: the
/// subspaces with 3..=`max` stones a side, with totals.
pub fn moving_stats_json(variant: &str, rows: &[SubspaceReport], rules: RuleSet, max: u8) -> Json {
    let rows: Vec<Json> = rows.iter().map(subspace_json).collect();
    let mut out = json!({"variant": variant, "flying": rules.flying, "max_stones": max});
    totals(&mut out, &rows);
    out["subspaces"] = rows.into();
    out
}
