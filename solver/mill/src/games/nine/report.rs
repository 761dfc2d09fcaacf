//! The JSON documents about Nine Men's Morris positions and tablebases that
//! `solver nine show|stats --json` print and the web API answers: one
//! producer of each shape (probes are [`crate::probe::analysis::Analysis::to_json`]).

use crate::games::nine::files::{rules_name, DatabaseError, Tables};
use crate::games::report::{count_row, table_row, tally_row};
use crate::probe::analysis::MoveValue;
use crate::rules::board::Nine;
use crate::rules::notation::move_order;
use crate::rules::position::Position;
use crate::rules::variant::RuleSet;
use crate::rules::{ending, legal_moves};
use crate::tables::count;
use crate::tables::keys::TableId;
use crate::tables::keys::{Sector, Subspace};
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

/// `solver nine stats --json` and `GET /api/nine/stats`: every table on
/// disk under `rules`, moving-phase subspaces (`white`, `black` stones,
/// White to move) and placement sectors (`white_hand`, `black_hand` added;
/// outcomes without distances): every board's statistics
/// ([`crate::games::report::stats_json`]), `stones` those of the largest
/// game a table belongs to.
pub fn stats_json(tables: &Tables, rules: RuleSet) -> Json {
    let (subspaces, sectors) = tables;
    let moving = subspaces.iter().map(|(sub, table)| {
        let stones = [sub.us, sub.them, 0, 0];
        table_row("moving", stones, table.header(), table.bytes())
    });
    let placement = sectors.iter().map(|(s, table)| {
        let stones = [s.us, s.them, s.us_hand, s.them_hand];
        table_row("placement", stones, table.header(), table.bytes())
    });
    // Nine's directory holds the tables of any smaller game: its `stones`
    // are those of the largest game a listed table belongs to.
    let stones = largest_game(subspaces.keys().copied(), sectors.keys().copied());
    let mut out =
        crate::games::report::stats_json("nine", rules, stones, moving.chain(placement).collect());
    out["rules"] = rules_name(rules).into();
    out
}

/// [`stats_json`] of the count rule's tables `tables` (under `rules`,
/// which has a count rule) beside the same tables without the rule,
/// `plain`, from `dir`: every row's wins, draws and losses at a count of
/// zero, its cursed wins and blessed losses ([`count_row`]). A table
/// without its counterpart gives the rule's counts alone, its
/// `cursed_wins` and `blessed_losses` null (and so the totals' that
/// include it).
pub fn counted_stats_json(
    tables: &Tables,
    plain: &Tables,
    rules: RuleSet,
) -> Result<Json, DatabaseError> {
    let limit = rules.quiet_limit.unwrap_or(u16::MAX);
    let (subspaces, sectors) = tables;
    let mut rows = Vec::new();
    let mut add = |kind: &str, stones: [u8; 4], id: TableId, table: &Table| {
        let other = match id {
            TableId::Moving(sub) => plain.0.get(&sub),
            TableId::Placement(s) => plain.1.get(&s),
        };
        let mut row = table_row(kind, stones, table.header(), table.bytes());
        match other {
            Some(other) => count_row(&mut row, count::compare(other, table, limit)?),
            None => tally_row(&mut row, table, limit)?,
        }
        rows.push(row);
        Ok::<(), DatabaseError>(())
    };
    for (&sub, table) in subspaces {
        add(
            "moving",
            [sub.us, sub.them, 0, 0],
            TableId::Moving(sub),
            table,
        )?;
    }
    for (&s, table) in sectors {
        let stones = [s.us, s.them, s.us_hand, s.them_hand];
        add("placement", stones, TableId::Placement(s), table)?;
    }
    let stones = largest_game(subspaces.keys().copied(), sectors.keys().copied());
    let mut out = crate::games::report::stats_json("nine", rules, stones, rows);
    out["rules"] = rules_name(rules).into();
    Ok(out)
}

/// Stones a side of the largest game any of these tables belongs to (0
/// for none): the `stones` of Nine's statistics and verify reports, whose
/// directory may hold the tables of several games.
pub fn largest_game(
    subspaces: impl IntoIterator<Item = Subspace>,
    sectors: impl IntoIterator<Item = Sector>,
) -> u8 {
    let of_moving = subspaces.into_iter().map(Subspace::game_stones);
    let of_sectors = sectors.into_iter().map(Sector::game_stones);
    of_moving.chain(of_sectors).max().unwrap_or(0)
}

/// `GET /api/nine/best`: the position and the perfect player's move
/// (`move`, `value`, `dtc`), or null when the game is over (every board's
/// `best` object: [`crate::games::best_json`]).
pub fn best_json(pos: &Position, best: Option<MoveValue>) -> Json {
    crate::games::best_json::<crate::rules::board::Nine>(pos, best)
}
