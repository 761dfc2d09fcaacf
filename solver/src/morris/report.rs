//! The JSON documents about Nine Men's Morris positions and tablebases that
//! `solver nine show|stats --json` print and the web API answers: one
//! producer of each shape (probes are [`super::analysis::Analysis::to_json`]).

use super::analysis::MoveValue;
use super::database::{rules_name, Tables};
use super::movegen::{game_over, legal_moves};
use super::notation::move_order;
use super::position::{Position, Rules};
use serde_json::{json, Value as Json};

/// `solver nine show --json` and `GET /api/nine/show`: the position, side to
/// move, hands, stones on the board, the rule set, every legal move in
/// reading order, why the game is over (if it is) and the canonical form.
pub fn show_json(pos: &Position, rules: Rules) -> Json {
    let mut moves = legal_moves(pos, rules);
    moves.sort_by_key(move_order);
    let moves: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
    let over = game_over(pos, rules);
    let (canon, op) = pos.canonical();
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
pub fn stats_json(tables: &Tables, rules: Rules) -> Json {
    let (moving, sectors) = tables;
    let mut rows = Vec::new();
    let mut totals = [0u64; 5];
    for (sub, table) in moving {
        let h = table.header();
        let row = [h.positions, h.wins, h.losses, h.draws, table.bytes()];
        for (t, v) in totals.iter_mut().zip(row) {
            *t += v;
        }
        rows.push(json!({
            "white": sub.us, "black": sub.them, "positions": h.positions,
            "wins": h.wins, "losses": h.losses, "draws": h.draws,
            "max_win": h.max_win, "max_loss": h.max_loss, "bytes": table.bytes(),
        }));
    }
    let totals = json!({
        "subspaces": moving.len(), "positions": totals[0], "wins": totals[1],
        "losses": totals[2], "draws": totals[3], "bytes": totals[4],
    });
    let mut sector_rows = Vec::new();
    let mut sector_totals = [0u64; 5];
    for (sector, table) in sectors {
        let h = table.header();
        let row = [h.positions, h.wins, h.losses, h.draws, table.bytes()];
        for (t, v) in sector_totals.iter_mut().zip(row) {
            *t += v;
        }
        sector_rows.push(json!({
            "white": sector.us, "black": sector.them, "white_hand": sector.us_hand,
            "black_hand": sector.them_hand, "positions": h.positions, "wins": h.wins,
            "losses": h.losses, "draws": h.draws, "bytes": table.bytes(),
        }));
    }
    let sector_totals = json!({
        "sectors": sectors.len(), "positions": sector_totals[0], "wins": sector_totals[1],
        "losses": sector_totals[2], "draws": sector_totals[3], "bytes": sector_totals[4],
    });
    json!({
        "rules": rules_name(rules), "subspaces": rows, "totals": totals,
        "sectors": sector_rows, "sector_totals": sector_totals,
    })
}

/// `GET /api/nine/best`: the position and the perfect player's move
/// (`move`, `value`, `dtc`), or null when the game is over.
pub fn best_json(pos: &Position, best: Option<MoveValue>) -> Json {
    json!({
        "position": pos.to_string(),
        "best": best.map(|m| json!({
            "move": m.mv.to_string(), "value": m.value.as_str(), "dtc": m.dtc,
        })),
    })
}
