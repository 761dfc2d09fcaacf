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
use crate::tables::count::{self, Changes};
use crate::tables::files::{self, FilesError};
use crate::tables::keys::TableId;
use serde_json::{json, Value as Json};
use std::path::Path;
use tablebase::format::{EntryKind, FormatError, Header};
use tablebase::reader::Table;
use tablebase::set::SetError;

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

/// One table of a board's statistics: `table` (its file's label), `kind`
/// (`moving`, `placement`, or `sector` for Lasker's, which mix the
/// phases), the stones on the board `white` and `black` (White to move)
/// and, for a placement table, in hand `white_hand` and `black_hand`;
/// `positions`, `wins`, `draws`, `losses` for the side to move,
/// `longest_win` and `longest_loss` (plies to conversion; null for a table
/// of outcomes, which has no distances) and `bytes` of its file. The same
/// row on every board.
pub fn table_row(kind: &str, stones: [u8; 4], h: &Header, bytes: u64) -> Json {
    let distance = |d: u16| match h.kind {
        EntryKind::Value => json!(d),
        _ => Json::Null,
    };
    let mut row = json!({
        "table": h.label,
        "kind": kind,
        "white": stones[0],
        "black": stones[1],
        "positions": h.positions,
        "wins": h.wins,
        "draws": h.draws,
        "losses": h.losses,
        "longest_win": distance(h.max_win),
        "longest_loss": distance(h.max_loss),
        "bytes": bytes,
    });
    if kind != "moving" {
        row["white_hand"] = stones[2].into();
        row["black_hand"] = stones[3].into();
    }
    row
}

/// The counted keys of a row, summed in totals.
const COUNTED: [&str; 5] = ["positions", "wins", "draws", "losses", "bytes"];

/// The keys a row has under the count rule ([`count_row`]), summed too.
const COUNT_RULE: [&str; 2] = ["cursed_wins", "blessed_losses"];

/// A stats row of a table of the count rule: `wins`, `draws` and `losses`
/// become the rule's at a count of zero (right after a removal or a
/// placement), beside `cursed_wins` and `blessed_losses` (won or lost
/// without the count, drawn with it), from the table without the rule
/// ([`crate::tables::count`]).
pub fn count_row(row: &mut Json, c: Changes) {
    row["wins"] = c.wins.into();
    row["draws"] = c.draws.into();
    row["losses"] = c.losses.into();
    row["cursed_wins"] = c.cursed_wins.into();
    row["blessed_losses"] = c.blessed_losses.into();
}

/// [`count_row`] of the count rule's `table` (under `rules`) when the rule
/// set has a count rule, from `plain`, which opens the same table without
/// the rule; when that table is missing, [`tally_row`].
fn with_count(
    row: &mut Json,
    rules: RuleSet,
    table: &Table,
    plain: impl FnOnce(RuleSet) -> Result<Table, FilesError>,
) -> Result<(), FilesError> {
    if let Some(limit) = rules.quiet_limit {
        match plain(rules.with_quiet_limit(None)) {
            Ok(plain) => count_row(row, count::compare(&plain, table, limit)?),
            Err(FilesError::Set(SetError::Missing { .. })) => tally_row(row, table, limit)?,
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// The row of a count rule's `table` (limit `limit`) whose table without
/// the rule is missing: the rule's own wins, draws and losses at a count
/// of zero, `cursed_wins` and `blessed_losses` null (unknown; so are the
/// totals that include it, [`stats_json`]).
pub fn tally_row(row: &mut Json, table: &Table, limit: u16) -> Result<(), FormatError> {
    count_row(row, count::tally(table, limit)?);
    for key in COUNT_RULE {
        row[key] = Json::Null;
    }
    Ok(())
}

/// Every mill board's `stats --json` and `GET /api/{game}/stats`: the
/// game (`variant`, `stones` a side, `flying`), the totals of every table
/// listed (`positions`, `wins`, `draws`, `losses`, `bytes`), the same per
/// kind of table (`by_kind`: `moving`, `placement`, `sector`, each with its
/// number of `tables`), and the `tables`, rows of [`table_row`] (a row with
/// an `error` is a file that did not open and counts nowhere). Under the
/// count rule also `quiet_limit`, and every count is the rule's
/// ([`count_row`]: `cursed_wins` and `blessed_losses` summed too; null
/// where a row's are null: its table without the rule is missing).
pub fn stats_json(variant: &str, rules: RuleSet, stones: u8, tables: Vec<Json>) -> Json {
    let mut out = json!({"variant": variant, "stones": stones, "flying": rules.flying});
    let mut by_kind = serde_json::Map::new();
    let counted: Vec<&str> = match rules.quiet_limit {
        Some(limit) => {
            out["quiet_limit"] = limit.into();
            COUNTED.iter().chain(&COUNT_RULE).copied().collect()
        }
        None => COUNTED.to_vec(),
    };
    for &key in &counted {
        out[key] = 0u64.into();
    }
    for row in tables.iter().filter(|r| r.get("error").is_none()) {
        let kind = row["kind"].as_str().unwrap_or("moving").to_string();
        let sum = by_kind
            .entry(kind)
            .or_insert_with(|| json!({"tables": 0u64}));
        sum["tables"] = (sum["tables"].as_u64().unwrap_or(0) + 1).into();
        for &key in &counted {
            let n = row[key].as_u64().unwrap_or(0);
            sum[key] = (sum[key].as_u64().unwrap_or(0) + n).into();
            out[key] = (out[key].as_u64().unwrap_or(0) + n).into();
        }
    }
    // What the rule changed is unknown in a total that includes a table
    // whose counterpart without the rule is missing.
    for key in COUNT_RULE.iter().filter(|_| rules.quiet_limit.is_some()) {
        let unknown = |r: &&Json| r.get("error").is_none() && r[*key].is_null();
        for r in tables.iter().filter(unknown) {
            let kind = r["kind"].as_str().unwrap_or("moving");
            by_kind[kind][*key] = Json::Null;
            out[*key] = Json::Null;
        }
    }
    out["by_kind"] = by_kind.into();
    out["tables"] = tables.into();
    out
}

/// Every mill board's `verify --json`: the game (`variant`, `stones` a
/// side, `flying`), the number of `tables` checked, the positions
/// `checked` (values recomputed from their successors), the `mismatches`
/// and the `seconds` taken; a board that lists its tables one by one adds
/// them under `results`.
pub fn verify_json(
    variant: &str,
    rules: RuleSet,
    stones: u8,
    tables: usize,
    [checked, mismatches]: [u64; 2],
    seconds: f64,
) -> Json {
    json!({
        "variant": variant, "stones": stones, "flying": rules.flying, "tables": tables,
        "checked": checked, "mismatches": mismatches, "seconds": seconds,
    })
}

/// `solver six stats --json` and `GET /api/six/stats`: every table of the
/// whole game under `rules` in `dir`, moving-phase subspaces and placement
/// sectors ([`stats_json`]).
pub fn solution_stats_json<B: Board>(dir: &Path, rules: RuleSet) -> Result<Json, FilesError> {
    let mut rows = Vec::new();
    for id in files::tables(rules) {
        let table = files::open::<B>(dir, rules, id)?;
        let (kind, stones) = match id {
            TableId::Moving(s) => ("moving", [s.us, s.them, 0, 0]),
            TableId::Placement(s) => ("placement", [s.us, s.them, s.us_hand, s.them_hand]),
        };
        let mut row = table_row(kind, stones, table.header(), table.bytes());
        with_count(&mut row, rules, &table, |plain| {
            files::open::<B>(dir, plain, id)
        })?;
        rows.push(row);
    }
    Ok(stats_json(B::NAME, rules, rules.stones, rows))
}

/// `solver lasker stats --json` and `GET /api/lasker/stats`: every sector
/// of the game under `rules` in `dir` (kind `sector`), with the positions
/// of the game (`game_positions`: the sectors store one of each pair of
/// colour-swapped positions) ([`stats_json`]).
pub fn lasker_stats_json<B: Board>(dir: &Path, rules: RuleSet) -> Result<Json, FilesError> {
    let mut rows = Vec::new();
    for s in lasker::sector::sectors::<B>(rules.stones) {
        let table = lasker::files::open::<B>(dir, rules, s)?;
        let stones = [s.us, s.them, s.us_hand, s.them_hand];
        let mut row = table_row("sector", stones, table.header(), table.bytes());
        with_count(&mut row, rules, &table, |plain| {
            lasker::files::open::<B>(dir, plain, s)
        })?;
        rows.push(row);
    }
    let mut out = stats_json("lasker", rules, rules.stones, rows);
    out["game_positions"] = (lasker::sector::positions::<B>(rules.stones) as u64).into();
    Ok(out)
}

/// `solver morabaraba stats --json` and `GET /api/morabaraba/stats`: the
/// moving-phase subspaces with 3..=`max` stones a side, each row with its
/// index `slots` as well ([`stats_json`]); under the count rule, `changes`
/// holds each row's counts beside the tables without it ([`count_row`];
/// empty otherwise).
pub fn moving_stats_json(
    variant: &str,
    rows: &[SubspaceReport],
    rules: RuleSet,
    max: u8,
    changes: &[Changes],
) -> Json {
    let rows: Vec<Json> = rows
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let mut row = json!({
                "table": r.label, "kind": "moving", "white": r.sub.us, "black": r.sub.them,
                "positions": r.positions, "wins": r.wdl[0], "draws": r.wdl[1], "losses": r.wdl[2],
                "longest_win": r.longest_win, "longest_loss": r.longest_loss, "bytes": r.bytes,
            });
            row["slots"] = r.slots.into();
            if let Some(&c) = changes.get(i) {
                count_row(&mut row, c);
            }
            row
        })
        .collect();
    stats_json(variant, rules, max, rows)
}
