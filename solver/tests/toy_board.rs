//! A new mill board written here as data alone — points, edges, mills,
//! stones — gets the family's engine at once: rules and perft, the whole
//! game solved (moving phase and placement), its tables written and read
//! back, verified, and probed with every move's value, and the web API
//! serves it (`/api/grid/…`, through `mill::games::SolvedGame`). The
//! answers are checked against the test oracle's own rules
//! (`common/oracle.rs`), which shares no code with the engine.

#[path = "common/oracle.rs"]
mod oracle;
mod web;

use mill::probe::values::{best_move, move_values};
use mill::rules;
use mill::rules::board::Board;
use mill::rules::geometry::Geometry;
use mill::tables::{files, solve::Solution};
use oracle::State;
use tablebase::retro::Silent;
use tablebase::{Outcome, Value};

/// The toy board: a 3 × 3 grid; rows and columns are mills, neighbours on
/// a row or column are adjacent (no diagonals).
const POINTS: [&str; 9] = ["a1", "a2", "a3", "b1", "b2", "b3", "c1", "c2", "c3"];
const READING: [&str; 9] = ["a3", "b3", "c3", "a2", "b2", "c2", "a1", "b1", "c1"];
const EDGES: [[&str; 2]; 12] = [
    ["a1", "a2"],
    ["a2", "a3"],
    ["b1", "b2"],
    ["b2", "b3"],
    ["c1", "c2"],
    ["c2", "c3"],
    ["a1", "b1"],
    ["b1", "c1"],
    ["a2", "b2"],
    ["b2", "c2"],
    ["a3", "b3"],
    ["b3", "c3"],
];
const MILLS: [[&str; 3]; 6] = [
    ["a1", "a2", "a3"],
    ["b1", "b2", "b3"],
    ["c1", "c2", "c3"],
    ["a1", "b1", "c1"],
    ["a2", "b2", "c2"],
    ["a3", "b3", "c3"],
];

mill::data_board!(
    /// The toy grid board, 3 stones a side.
    Grid, GRID_TABLES, "grid", points: 9, symmetries: 8, stones: 3,
    Geometry::from_lists("grid", &POINTS, &READING, &EDGES, &MILLS)
);

fn oracle_rules(flying: bool) -> oracle::Rules {
    oracle::Rules {
        board: oracle::Board::new(&POINTS, &READING, &EDGES, &MILLS),
        flying,
    }
}

fn position(s: &State, rules: &oracle::Rules) -> mill::rules::position::Position {
    s.position(&rules.board, |name| Grid::geometry().point(name).unwrap())
}

#[test]
fn a_board_defined_as_data_is_solved_stored_verified_and_probed() {
    assert_eq!(Grid::geometry().symmetries.len(), Grid::SYMMETRIES);
    for flying in [true, false] {
        let rules = mill::rules::variant::RuleSet::new(3, flying);
        let model = oracle_rules(flying);
        // Rules: perft from the start against the oracle's move generator.
        let start = position(&State::start(3), &model);
        for depth in 1..=5 {
            let ours = rules::perft::<Grid>(&start, rules, depth);
            assert_eq!(
                ours,
                oracle::perft(&State::start(3), &model, depth),
                "perft {depth}"
            );
        }
        // Generate: the whole game; written, read back, verified.
        let sol = Solution::<Grid>::solve(rules, true, &Silent, |_| {}).unwrap();
        let dir = std::env::temp_dir().join(format!("toy-grid-{flying}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        files::write::<Grid>(&dir, &sol).unwrap();
        let name = files::file_name::<Grid>(
            &dir,
            rules,
            mill::tables::keys::TableId::Moving(mill::tables::keys::Subspace::new(3, 3)),
        );
        let tag = if flying {
            "grid-flying-3-3.tb"
        } else {
            "grid-noflying-3-3.tb"
        };
        assert!(name.ends_with(tag) && name.exists(), "{}", name.display());
        let sol = files::load::<Grid>(&dir, rules).unwrap();
        let api = serve(&dir, flying);
        for (id, n, bad) in sol.verify().unwrap() {
            assert_eq!(bad, 0, "{id:?}: {bad} of {n} differ");
        }
        // Probe: every position reachable from the start, and every move's
        // value, against the oracle's forward solution.
        let (states, values) = oracle::forward_solve(3, &model);
        let outcome = |v: &Option<(bool, u32)>| match v {
            None => Outcome::Draw,
            Some((true, _)) => Outcome::Win,
            Some((false, _)) => Outcome::Loss,
        };
        let by_position: std::collections::HashMap<_, Outcome> = states
            .iter()
            .zip(&values)
            .map(|(s, v)| (position(s, &model), outcome(v)))
            .collect();
        let mut probed = 0;
        for (s, v) in states.iter().zip(&values) {
            let pos = position(s, &model);
            if rules::ending::<Grid>(&pos, rules).is_some() {
                continue;
            }
            assert_eq!(sol.value(&pos).map(|v| v.outcome()), Some(outcome(v)));
            let moves = move_values(&sol, rules, &pos);
            assert_eq!(
                moves.len(),
                s.successors(&model).len(),
                "every move has a value"
            );
            for &(m, value) in &moves {
                let child = by_position[&pos.apply(m)];
                assert_eq!(value.outcome(), child.flip(), "a move's value");
            }
            let (_, best) = best_move(&sol, rules, &pos).unwrap();
            assert_eq!(best.outcome(), outcome(v));
            assert_eq!(Some(best), moves.iter().map(|&(_, v)| v).max());
            probed += 1;
        }
        assert!(probed > 500, "only {probed} positions probed");
        // The API: every 7th reachable position, its value and each move's
        // the oracle's, its legal moves the oracle's successors.
        for (s, v) in states.iter().zip(&values).step_by(7) {
            let pos = position(s, &model);
            let text = rules::format_position::<Grid>(&pos);
            let a = web::get_position(api, "/api/grid/probe", &text).json();
            let over = rules::ending::<Grid>(&pos, rules).is_some();
            assert_eq!(a["source"], if over { "game-over" } else { "tables" });
            if !over {
                assert_eq!(a["value"], outcome(v).as_str(), "{text}");
            }
            let moves = a["moves"].as_array().unwrap();
            assert_eq!(
                moves.len(),
                if over { 0 } else { s.successors(&model).len() }
            );
            for m in moves {
                let mv = mill::rules::notation::parse_move::<Grid>(
                    &pos,
                    rules,
                    m["move"].as_str().unwrap(),
                );
                let child = by_position[&pos.apply(mv.unwrap())];
                assert_eq!(m["value"], child.flip().as_str(), "{text}: {m}");
            }
            let shown = web::get_position(api, "/api/grid/show", &text).json();
            assert_eq!(shown["moves"].as_array().unwrap().len(), moves.len());
        }
        let svg = web::get_position(
            api,
            "/api/grid/svg",
            &rules::format_position::<Grid>(&start),
        );
        assert_eq!(svg.body.matches("data-point=").count(), 9);
        std::fs::remove_dir_all(&dir).unwrap();
        let first = sol.value(&start).unwrap_or(Value::DRAW).outcome();
        assert_eq!(first, outcome(&values[0]), "the start");
    }
}

/// The web server with the grid as its one board beyond Nine and Three,
/// its tables in `dir`; its address.
fn serve(dir: &std::path::Path, flying: bool) -> std::net::SocketAddr {
    let game = mill::games::SolvedGame::<Grid, Solution<Grid>>::open("grid", "Grid", dir, flying);
    let served = server::GameState::new(
        std::sync::Arc::new(game),
        dir.to_owned(),
        std::time::Duration::from_secs(60),
    );
    let state = server::AppState::with_games(&web::config(dir), vec![served]).unwrap();
    web::start_state(state)
}
