//! Six Men's Morris through the family engine, checked against a separate,
//! simple implementation of the rules written here from the text of
//! `docs/rules.md` (its own board lists, point numbering and move generation):
//! perft from the start and from hand-made positions, and the solved
//! tables of the reduced games (3 and 4 stones a side) against a forward,
//! definition-level solver over every position reachable from the start.

mod common;

use common::cli::{run_cli, run_cli_stderr, run_cli_with_input};
use common::oracle::{self, Rules, State};
use mill::rules;
use mill::rules::board::{Board, Six};
use mill::rules::position::Position;
use mill::rules::variant::RuleSet;
use mill::tables::files;
use mill::tables::keys::Subspace;
use mill::tables::keys::TableId;
use mill::tables::solve::Solution;
use tablebase::retro::Silent;
use tablebase::Outcome;

/// The board of `docs/rules.md`, by name: points in alphabetical order.
const POINTS: [&str; 16] = [
    "a1", "a3", "a5", "b2", "b3", "b4", "c1", "c2", "c4", "c5", "d2", "d3", "d4", "e1", "e3", "e5",
];
const OUTER: [&str; 8] = ["a5", "c5", "e5", "e3", "e1", "c1", "a1", "a3"];
const INNER: [&str; 8] = ["b4", "c4", "d4", "d3", "d2", "c2", "b2", "b3"];
const SPOKES: [[&str; 2]; 4] = [["a3", "b3"], ["c5", "c4"], ["e3", "d3"], ["c1", "c2"]];
const MILLS: [[&str; 3]; 8] = [
    ["a5", "c5", "e5"],
    ["e5", "e3", "e1"],
    ["e1", "c1", "a1"],
    ["a1", "a3", "a5"],
    ["b4", "c4", "d4"],
    ["d4", "d3", "d2"],
    ["d2", "c2", "b2"],
    ["b2", "b3", "b4"],
];

const READING: [&str; 16] = [
    "a5", "c5", "e5", "b4", "c4", "d4", "a3", "b3", "d3", "e3", "b2", "c2", "d2", "a1", "c1", "e1",
];

/// The oracle's board.
fn board() -> oracle::Board {
    let mut edges = Vec::new();
    for square in [OUTER, INNER] {
        for i in 0..8 {
            edges.push([square[i], square[(i + 1) % 8]]);
        }
    }
    edges.extend(SPOKES);
    oracle::Board::new(&POINTS, &READING, &edges, &MILLS)
}

fn model(flying: bool) -> Rules {
    Rules {
        board: board(),
        flying,
    }
}

/// The engine's position of an oracle state.
fn position(s: &State) -> Position {
    s.position(&board(), |name| Six::geometry().point(name).unwrap())
}

/// A state from a board picture in the engine's reading order
/// (a5 c5 e5 b4 c4 d4 a3 b3 d3 e3 b2 c2 d2 a1 c1 e1).
fn state(picture: &str, turn: usize, hand: [u8; 2]) -> State {
    State::picture(&board(), picture, turn, hand)
}

#[test]
fn perft_matches_the_oracle() {
    let positions = [
        (State::start(6), 5),
        // Moving phase, mills to close on both sides.
        (state("WW.BB.W.B..W.BW.", 0, [0, 0]), 4),
        // White flies with three stones; Black slides.
        (state("W...B.W.BB...B.W", 0, [0, 0]), 3),
        // Late placement: a mill closes with stones of Black in mills.
        (state("BBB.W...W..W....", 0, [3, 3]), 3),
        // Black to move, all White stones in mills.
        (state("WWWB.B......B...", 1, [2, 3]), 3),
    ];
    for flying in [true, false] {
        let model = model(flying);
        for (s, depth) in &positions {
            let rules = RuleSet::new(6, flying);
            let pos = position(s);
            pos.validate::<Six>(rules).unwrap();
            let text = rules::format_position::<Six>(&pos);
            assert_eq!(rules::parse_position::<Six>(&text, rules).unwrap(), pos);
            for d in 1..=*depth {
                assert_eq!(
                    rules::perft::<Six>(&pos, rules, d),
                    oracle::perft(s, &model, d),
                    "{text} depth {d} flying {flying}"
                );
            }
        }
    }
}

/// The reduced games' tables agree with the forward solver: outcomes
/// everywhere; with 3 stones, where every removal ends the game, the
/// moving phase's distances to conversion are the distances to the end.
fn check_reduced_game(stones: u8, flying: bool) {
    let rules = RuleSet::new(stones, flying);
    let sol = Solution::<Six>::solve(rules, true, &Silent, |_| {}).unwrap();
    let (states, values) = oracle::forward_solve(stones, &model(flying));
    let depths = sol.depths().unwrap();
    let mut checked = 0;
    for (s, v) in states.iter().zip(&values) {
        let pos = position(s);
        let expected = match v {
            None => Outcome::Draw,
            Some((true, _)) => Outcome::Win,
            Some((false, _)) => Outcome::Loss,
        };
        if rules::ending::<Six>(&pos, rules).is_some() {
            assert_eq!(expected, Outcome::Loss);
            continue;
        }
        let got = sol.value(&pos).unwrap();
        assert_eq!(
            got.outcome(),
            expected,
            "{}",
            rules::format_position::<Six>(&pos)
        );
        if stones == 3 && !pos.placing() {
            let d = v.map(|(_, d)| d as u16);
            assert_eq!(got.distance(), d, "{}", rules::format_position::<Six>(&pos));
        }
        // Plies to the end of the game, every phase.
        let d = v.map(|(_, d)| d as u16);
        assert_eq!(
            depths.of::<Six>(&pos),
            d,
            "{}",
            rules::format_position::<Six>(&pos)
        );
        checked += 1;
    }
    assert!(checked > 1000, "only {checked} positions checked");
    // The deepest reachable win is the forward solver's.
    let deepest = sol.deepest_reachable_win(&depths).unwrap();
    let forward = values
        .iter()
        .filter_map(|v| v.filter(|(won, _)| *won).map(|(_, d)| d as u16))
        .max()
        .unwrap_or(0);
    assert_eq!(deepest.plies, forward);
    // Reachable positions: the forward solver's, less the games the side
    // to move has lost on material (blocked positions are in the tables),
    // seen from the side to move (the tables store a position and its
    // colour swap once).
    let live = states
        .iter()
        .map(position)
        .filter(|p| p.material(p.to_move) >= 3)
        .map(|p| (p.us(), p.them(), p.our_hand(), p.their_hand()))
        .collect::<std::collections::HashSet<_>>()
        .len() as u64;
    assert_eq!(deepest.reachable, live);
    // Every stored value is its successors' (the tables are consistent).
    for (id, n, bad) in sol.verify().unwrap() {
        assert_eq!(bad, 0, "{id:?}: {bad} of {n}");
    }
}

#[test]
fn three_stone_game_matches_the_forward_solver() {
    check_reduced_game(3, true);
    check_reduced_game(3, false);
}

/// The 4-stone game: removals convert into the 3-stone pairs, then the
/// flying phase. Without flying it runs with the ignored tests (time).
#[test]
fn four_stone_game_matches_the_forward_solver() {
    check_reduced_game(4, true);
}

#[test]
#[ignore = "about 10 s more; run with --ignored"]
fn four_stone_game_without_flying_matches_the_forward_solver() {
    check_reduced_game(4, false);
}

#[test]
fn files_refuse_another_rule_set() {
    let dir = std::env::temp_dir().join(format!("six-files-test-{}", std::process::id()));
    let rules = RuleSet::new(3, true);
    let sol = Solution::<Six>::solve(rules, true, &Silent, |_| {}).unwrap();
    files::write::<Six>(&dir, &sol).unwrap();
    let back = files::load::<Six>(&dir, rules).unwrap();
    assert_eq!(back.moving, sol.moving);
    assert_eq!(back.placement, sol.placement);
    // The same table under the other rule set's name is refused.
    let other = RuleSet::new(3, false);
    let id = TableId::Moving(Subspace::new(3, 3));
    std::fs::copy(
        files::file_name::<Six>(&dir, rules, id),
        files::file_name::<Six>(&dir, other, id),
    )
    .unwrap();
    let err = files::open::<Six>(&dir, other, id).unwrap_err();
    assert!(
        matches!(
            err,
            files::FilesError::Set(tablebase::set::SetError::Mismatch { .. })
        ),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn cli_perft_generate_and_start() {
    // perft --json from the start against the oracle.
    let (out, ok) = run_cli(&["six", "perft", "3", "--json"]);
    assert!(ok);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        v["leaves"].as_u64().unwrap(),
        oracle::perft(&State::start(6), &model(true), 3)
    );
    // A bad position is one error line and a failure.
    let (_, ok) = run_cli(&["six", "show", "WWWWWWW......... w 0 0"]);
    assert!(!ok);
    // The 3-stone game through the files: its start value is the forward
    // solver's.
    let dir = std::env::temp_dir().join(format!("six-cli-test-{}", std::process::id()));
    let d = dir.to_str().unwrap();
    for flying in [true, false] {
        let mut args = vec!["six", "generate", "--stones", "3", "--dir", d, "--quiet"];
        let mut start = vec!["six", "start", "--stones", "3", "--dir", d, "--json"];
        if !flying {
            args.push("--no-flying");
            start.push("--no-flying");
        }
        assert!(run_cli(&args).1);
        let (out, ok) = run_cli(&start);
        assert!(ok);
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        let (_, values) = oracle::forward_solve(3, &model(flying));
        let expected = match values[0] {
            None => "draw",
            Some((true, _)) => "win",
            Some((false, _)) => "loss",
        };
        assert_eq!(v["value"], expected, "flying {flying}");
        // Play as Black: the program opens with a move of the start's
        // outcome (placements carry no distance); `quit` ends the game.
        let mut play = vec![
            "six", "play", "--stones", "3", "--human", "black", "--dir", d,
        ];
        if !flying {
            play.push("--no-flying");
        }
        let (out, ok) = run_cli_with_input(&play, "quit\n");
        assert!(ok, "{out}");
        let opening = out.lines().find(|l| l.starts_with("White plays")).unwrap();
        assert!(opening.ends_with(&format!("({expected})")), "{opening}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn missing_tables_name_the_generate_options() {
    // A probe over an empty directory fails with one line that names the
    // command writing exactly the tables it needs: the stone count and the
    // rule options of the probe, on every family board.
    let dir = std::env::temp_dir().join(format!("six-missing-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let d = dir.to_str().unwrap();
    let cases: [(&[&str], &str); 5] = [
        (
            &["six", "start", "--stones", "5", "--no-flying"],
            "solver six generate --stones 5 --no-flying",
        ),
        (&["six", "start"], "solver six generate)"),
        (
            &["lasker", "start", "--stones", "5"],
            "solver lasker generate --stones 5",
        ),
        (
            &["morabaraba", "start", "--stones", "4"],
            "solver morabaraba generate --stones 4",
        ),
        (
            &["morabaraba", "probe", "WWW..................BBB w 3 3"],
            "solver morabaraba generate --stones 6",
        ),
    ];
    for (args, expected) in cases {
        let mut args = args.to_vec();
        args.extend(["--dir", d]);
        let (err, ok) = run_cli_stderr(&args);
        assert!(!ok, "{args:?}");
        // One error line (a progress line may come before it).
        let errors: Vec<&str> = err.lines().filter(|l| l.starts_with("error:")).collect();
        assert_eq!(errors.len(), 1, "{args:?}: {err}");
        assert!(errors[0].contains(expected), "{args:?}: {err}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
