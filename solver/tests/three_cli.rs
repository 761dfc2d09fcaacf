//! `solver three solve|probe|perft|start` end to end: JSON keys and values agree with
//! the library and the literature; bad input fails with one line.

use mill::games::three::solve::Solution;
use mill::games::three::Position;
use serde_json::Value as Json;
use std::process::Command;

fn run(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_solver"))
        .args(args)
        .output()
        .expect("the solver binary runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn solve_reports_the_solution() {
    let (ok, out, _) = run(&["three", "solve", "--json"]);
    assert!(ok);
    let json: Json = serde_json::from_str(&out).unwrap();
    let sol = Solution::solve().unwrap();
    let start = Position::start();
    let value = sol.value(&start);
    assert_eq!(json["value"], value.outcome().as_str());
    assert_eq!(json["plies"], value.distance().unwrap());
    let totals = sol.reachable().positions;
    assert_eq!(json["positions"], totals.positions);
    assert_eq!(json["wins"], totals.wins);
    assert_eq!(json["losses"], totals.losses);
    assert_eq!(json["draws"], totals.draws);
    // Literature: only the centre opening wins.
    let first = json["first_moves"].as_object().unwrap();
    assert_eq!(first.len(), 9);
    for (m, v) in first {
        assert_eq!(v == "win", m == "b2", "{m}: {v}");
    }
}

#[test]
fn probe_after_moves_matches_the_library() {
    let (ok, out, _) = run(&["three", "probe", "--json", "--moves", "b2 a1 c3"]);
    assert!(ok);
    let json: Json = serde_json::from_str(&out).unwrap();
    let pos: Position = "..W.W.B.. b 1 2".parse().unwrap();
    assert_eq!(json["position"], pos.to_string());
    let sol = Solution::solve().unwrap();
    let moves = json["moves"].as_array().unwrap();
    assert_eq!(moves.len(), sol.moves(&pos).len());
    for (entry, (m, v)) in moves.iter().zip(sol.moves(&pos)) {
        assert_eq!(entry["move"], m.to_string());
        assert_eq!(entry["value"], v.outcome().as_str());
    }
}

#[test]
fn bad_input_is_one_line_and_a_failure() {
    for args in [
        vec!["three", "probe", "......... w 3"],
        vec!["three", "probe", "--moves", "b2 b2"],
        vec!["three", "probe", "WWW...... w 0 3"],
    ] {
        let (ok, out, err) = run(&args);
        assert!(!ok, "{args:?}");
        assert!(out.is_empty());
        assert_eq!(err.lines().count(), 1, "{err}");
    }
}

/// `solver three perft --json` against counting by hand: the first five
/// plies place stones on empty points (9!/(9−d)! sequences, no line is
/// possible before White's third stone); at ply 6 the sequences whose
/// five stones give White a line (8 lines × C(6, 2) Black pairs × 3! × 2!
/// orders) are finished leaves, every other has Black's 4 placements.
#[test]
fn perft_counts_the_placements() {
    let mut placements = 1u64;
    for depth in 1..=6u64 {
        let want = if depth <= 5 {
            placements *= 10 - depth;
            placements
        } else {
            let lines = 8 * 15 * 6 * 2;
            lines + (placements - lines) * 4
        };
        let (ok, out, err) = run(&["three", "perft", &depth.to_string(), "--json"]);
        assert!(ok, "{err}");
        let json: Json = serde_json::from_str(&out).unwrap();
        assert_eq!(json["leaves"], want, "perft {depth}");
        let split: u64 = json["moves"]
            .as_object()
            .unwrap()
            .values()
            .map(|n| n.as_u64().unwrap())
            .sum();
        assert_eq!(split, want, "perft {depth}: the first moves' counts");
    }
    let (ok, _, err) = run(&["three", "perft", "2", "WWWB..... w 0 2"]);
    assert!(!ok && err.lines().count() == 1, "{err}");
}

/// `solver three start` says what `probe` says of the empty board.
#[test]
fn start_is_the_empty_board_probed() {
    let (ok, start, _) = run(&["three", "start", "--json"]);
    assert!(ok);
    let (ok, probe, _) = run(&["three", "probe", "--json"]);
    assert!(ok);
    let (start, probe): (Json, Json) = (
        serde_json::from_str(&start).unwrap(),
        serde_json::from_str(&probe).unwrap(),
    );
    assert_eq!(start, probe);
    assert_eq!(start["position"], Position::start().to_string());
}

/// `solver three probe --quiet-limit L --quiet-plies Q --json`: the
/// answer of the library's game under the rule with its marks against
/// the game without it (`games::count::analyse_marked`; the values under
/// the rule are checked against a search over (position, count) states
/// in `games::three::count`), on moving-phase positions spread by a fixed
/// walk; a limit that bites marks some values, one past every distance of
/// the game (its longest win is 9 plies from the empty board, far less in
/// the moving phase here) marks none; a count past the limit fails.
#[test]
fn probe_under_the_count_rule_marks_what_it_changes() {
    use mill::games::MillGame;
    let plain = mill::games::ThreeGame::new();
    let mut seed: u64 = 0x2545_F491_4F6C_DD1D;
    let mut next = move |k: u64| {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (seed >> 33) % k
    };
    let mut marked = 0;
    for limit in [3u16, 200] {
        let counted = mill::games::ThreeGame::with_quiet_limit(limit);
        let mut probed = 0;
        while probed < 6 {
            let mut board = ['.'; 9];
            for stone in ['W', 'W', 'W', 'B', 'B', 'B'] {
                loop {
                    let p = next(9) as usize;
                    if board[p] == '.' {
                        board[p] = stone;
                        break;
                    }
                }
            }
            let side = if next(2) == 0 { "w" } else { "b" };
            let pos = format!("{} {side} 0 0", board.iter().collect::<String>());
            if !plain.show(&pos).is_ok_and(|s| s["game_over"].is_null()) {
                continue;
            }
            probed += 1;
            let q = (next(u64::from(limit.min(4))) as u16).min(limit - 1);
            let (ok, out, err) = run(&[
                "three",
                "probe",
                &pos,
                "--quiet-limit",
                &limit.to_string(),
                "--quiet-plies",
                &q.to_string(),
                "--json",
            ]);
            assert!(ok, "{pos}: {err}");
            let cli: Json = serde_json::from_str(&out).unwrap();
            let lib = mill::games::count::analyse_marked(&counted, &plain, &pos, q).unwrap();
            for key in ["value", "dtc", "label", "plain_value", "quiet_plies"] {
                assert_eq!(cli[key], lib[key], "{pos} at {q}: {key}");
            }
            let moves = |j: &Json| -> Vec<[Json; 5]> {
                j["moves"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|m| ["move", "value", "dtc", "label", "quiet_plies"].map(|k| m[k].clone()))
                    .collect()
            };
            assert_eq!(moves(&cli), moves(&lib), "{pos} at {q}");
            let labels = std::iter::once(&cli)
                .chain(cli["moves"].as_array().unwrap())
                .filter(|m| !m["label"].is_null())
                .count();
            if limit == 200 {
                assert_eq!(labels, 0, "{pos}: the rule cannot bite at 200 plies");
            }
            marked += labels;
        }
    }
    assert!(marked > 0, "a 3-ply rule marked nothing");
    let (ok, _, err) = run(&[
        "three",
        "probe",
        "WWBW...BB w 0 0",
        "--quiet-limit",
        "3",
        "--quiet-plies",
        "4",
    ]);
    assert!(!ok);
    assert_eq!(err.lines().count(), 1, "{err}");
}
