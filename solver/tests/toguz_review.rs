//! `solver toguz review` on a PlayOK game through the built binary: the
//! report is checked against the record replayed here (moves, sides, legal
//! best moves), the documented thresholds, the per-player counts and the
//! SVG (one point per position, one red mark per blunder). Skips with a
//! message when the shared data is absent.

use std::path::PathBuf;
use std::process::Command;
use toguz::notation::MoveText;
use toguz::{pgn, Board};

const BIN: &str = env!("CARGO_BIN_EXE_solver");

fn record() -> Option<PathBuf> {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/data/toguz/playok-games.pgn");
    if path.exists() {
        Some(path)
    } else {
        println!("skipping: {} is absent", path.display());
        None
    }
}

/// The labels of docs/toguz.md: at most 1, 3 and 7 stones lost.
fn label(loss: f64, played: u8, best: u8) -> &'static str {
    if played == best || loss <= 0.005 {
        "best"
    } else if loss <= 1.0 {
        "good"
    } else if loss <= 3.0 {
        "inaccuracy"
    } else if loss <= 7.0 {
        "mistake"
    } else {
        "blunder"
    }
}

#[test]
fn review_of_a_playok_game() {
    let Some(file) = record() else { return };
    let game_no = 2;
    let svg = std::env::temp_dir().join(format!("toguz-review-test-{}.svg", std::process::id()));
    let out = Command::new(BIN)
        .args(["toguz", "review"])
        .arg(&file)
        .args([
            "--game",
            &game_no.to_string(),
            "--depth",
            "5",
            "--json",
            "--svg",
        ])
        .arg(&svg)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let r = &json[0];
    assert_eq!(r["game"], game_no);
    let games = pgn::parse(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let g = &games[game_no - 1];
    let moves = r["moves"].as_array().unwrap();
    assert_eq!(moves.len(), g.moves.len());
    let mut board = Board::start();
    let mut counts = [[0usize; 5]; 2];
    let names = ["best", "good", "inaccuracy", "mistake", "blunder"];
    for (m, text) in moves.iter().zip(&g.moves) {
        assert_eq!(m["move"].as_str().unwrap(), text);
        let side = usize::from(m["side"] != "White");
        assert_eq!(side, board.side.index());
        let best = m["best_hole"].as_u64().unwrap() as u8;
        assert!(board.is_legal(best - 1), "{m}");
        let played = text.parse::<MoveText>().unwrap().hole;
        let loss = m["loss"].as_f64().unwrap();
        let (before, after) = (m["before"].as_f64().unwrap(), m["after"].as_f64().unwrap());
        if played != best {
            assert!((loss - (before - after).max(0.0)).abs() < 1e-9, "{m}");
        }
        let l = label(loss, played, best);
        assert_eq!(m["label"], l, "{m}");
        counts[side][names.iter().position(|n| *n == l).unwrap()] += 1;
        board.make(played - 1);
    }
    for side in 0..2 {
        assert_eq!(
            r["players"][side]["labels"],
            serde_json::json!(counts[side])
        );
    }
    let text = std::fs::read_to_string(&svg).unwrap();
    std::fs::remove_file(&svg).ok();
    // One point per position on every curve: the chances panel's draw band
    // (up the win line and back down the win-or-draw line), its two lines,
    // then the score curve.
    let points: Vec<usize> = text
        .split("points=\"")
        .skip(1)
        .map(|p| p.split('"').next().unwrap().split_whitespace().count())
        .collect();
    let n = g.moves.len() + 1;
    assert_eq!(points, [2 * n, n, n, n]);
    let red = text
        .matches("fill=\"#d62728\" stroke=\"#000000\" stroke-width=\"0.5\"><title>")
        .count();
    assert_eq!(red, counts[0][4] + counts[1][4]);
}

#[test]
fn review_refuses_bad_arguments() {
    let Some(file) = record() else { return };
    let out = Command::new(BIN)
        .args(["toguz", "review"])
        .arg(&file)
        .args(["--game", "99999"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("has games 1..1230"));
}
