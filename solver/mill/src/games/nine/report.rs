//! The JSON documents about Nine Men's Morris positions and tablebases that
//! `solver nine show|stats --json` print and the web API answers: one
//! producer of each shape (probes are [`crate::probe::analysis::Analysis::to_json`]).

use crate::games::nine::files::{rules_name, Tables};
use crate::probe::analysis::MoveValue;
use crate::rules::board::Nine;
use crate::rules::notation::move_order;
use crate::rules::position::Position;
use crate::rules::variant::RuleSet;
use crate::rules::{ending, legal_moves};
use serde_json::{json, Value as Json};
use tablebase::reader::Table;

/// `solver nine show --json` and `GET /api/nine/show`: the position, side to
/// move, hands, stones on the board, the rule set, every legal move in
/// reading order, why the game is over (if it is) and the canonical form.
pub fn show_json(pos: &Position, rules: RuleSet) -> Json {
    let mut moves = legal_moves::<Nine>(pos, rules);
    moves.sort_by_key(move_order);
    let moves: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
    let over = ending::<Nine>(pos, rules);
    let (canon, op) = pos.canonical::<Nine>();
    json!({
        "position": pos.to_string(),
        "to_move": pos.to_move.name(),
        "hand": {"white": pos.hand[0], "black": pos.hand[1]},
        "on_board": {"white": pos.stones[0].count_ones(), "black": pos.stones[1].count_ones()},
        "flying": rules.flying,
        "moves": moves,
        "game_over": over.map(|o| o.describe()),
        "canonical": {"position": canon.to_string(), "symmetry": op},
    })
}

/// `solver nine stats --json` and `GET /api/nine/stats`: per subspace
/// (`white`, `black` stones) its positions, wins, losses, draws, longest win
/// and loss and file size, with totals; the same per placement sector
/// (`white_hand`, `black_hand` added; no distances), with `sector_totals`.
pub fn stats_json(tables: &Tables, rules: RuleSet) -> Json {
    let (moving, sectors) = tables;
    let (rows, totals) = table_rows(moving.iter().map(|(sub, table)| {
        let h = table.header();
        let row = json!({
            "white": sub.us, "black": sub.them, "max_win": h.max_win, "max_loss": h.max_loss,
        });
        (row, table)
    }));
    let (sector_rows, sector_totals) = table_rows(sectors.iter().map(|(sector, table)| {
        let row = json!({
            "white": sector.us, "black": sector.them, "white_hand": sector.us_hand,
            "black_hand": sector.them_hand,
        });
        (row, table)
    }));
    let mut totals = totals;
    totals["subspaces"] = moving.len().into();
    let mut sector_totals = sector_totals;
    sector_totals["sectors"] = sectors.len().into();
    json!({
        "rules": rules_name(rules), "subspaces": rows, "totals": totals,
        "sectors": sector_rows, "sector_totals": sector_totals,
    })
}

/// Rows of tables (each `row` completed with its table's counts and bytes)
/// and their totals.
fn table_rows<'t>(tables: impl Iterator<Item = (Json, &'t Table)>) -> (Vec<Json>, Json) {
    const KEYS: [&str; 5] = ["positions", "wins", "losses", "draws", "bytes"];
    let mut totals = [0u64; 5];
    let rows = tables
        .map(|(mut row, table)| {
            let h = table.header();
            let counts = [h.positions, h.wins, h.losses, h.draws, table.bytes()];
            for ((key, t), v) in KEYS.iter().zip(&mut totals).zip(counts) {
                *t += v;
                row[*key] = v.into();
            }
            row
        })
        .collect();
    let mut sum = json!({});
    for (key, t) in KEYS.iter().zip(totals) {
        sum[*key] = t.into();
    }
    (rows, sum)
}

/// `GET /api/nine/best`: the position and the perfect player's move
/// (`move`, `value`, `dtc`), or null when the game is over (every board's
/// `best` object: [`crate::games::best_json`]).
pub fn best_json(pos: &Position, best: Option<MoveValue>) -> Json {
    crate::games::best_json::<crate::rules::board::Nine>(pos, best)
}
