//! `solver nine show|perft` end to end: the JSON output agrees with the
//! library, bad input gives one line on stderr and a non-zero exit.

use mill::rules::board::Nine;
use mill::rules::position::Position;
use mill::rules::variant::RuleSet;
use mill::rules::{legal_moves, perft};
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

const MIDGAME: &str = "WW....BBB....BW......W.. w 0 0";

#[test]
fn show_lists_the_legal_moves() {
    for (args, flying) in [
        (vec!["nine", "show", "--json", MIDGAME], true),
        (
            vec!["nine", "show", "--json", "--no-flying", MIDGAME],
            false,
        ),
    ] {
        let (ok, out, _) = run(&args);
        assert!(ok);
        let json: Json = serde_json::from_str(&out).unwrap();
        let pos: Position = MIDGAME.parse().unwrap();
        let mut expected: Vec<String> = legal_moves::<Nine>(&pos, RuleSet::nine(flying))
            .iter()
            .map(|m| m.to_string())
            .collect();
        let mut got: Vec<String> = json["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap().to_string())
            .collect();
        expected.sort();
        got.sort();
        assert_eq!(got, expected);
        assert_eq!(json["position"], MIDGAME);
    }
    // The human-readable form draws the board with coordinates.
    let (ok, out, _) = run(&["nine", "show"]);
    assert!(ok);
    assert!(out.contains("a  b  c  d  e  f  g") && out.contains("White to move"));
}

#[test]
fn perft_agrees_with_the_library() {
    let (ok, out, _) = run(&["nine", "perft", "3", "--json", MIDGAME]);
    assert!(ok);
    let json: Json = serde_json::from_str(&out).unwrap();
    let pos: Position = MIDGAME.parse().unwrap();
    assert_eq!(json["leaves"], perft::<Nine>(&pos, RuleSet::nine(true), 3));
    let split: u64 = json["moves"]
        .as_object()
        .unwrap()
        .values()
        .map(|v| v.as_u64().unwrap())
        .sum();
    assert_eq!(json["leaves"], split);
}

#[test]
fn bad_input_is_one_line_and_a_failure() {
    for args in [
        vec!["nine", "show", "......... w 9 9"],
        vec!["nine", "perft", "2", "........................ w 9 x"],
        vec!["nine", "show", "WWWWWWWWWW.............. b 0 0"],
    ] {
        let (ok, out, err) = run(&args);
        assert!(!ok, "{args:?}");
        assert!(out.is_empty());
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.starts_with("error: bad position"), "{err}");
    }
}
