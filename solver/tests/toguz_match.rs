//! `solver toguz match --log FILE`: a match interrupted and resumed from
//! its log gives the result of the same match played in one go, and a log
//! written with other settings is refused with a one-line message.

use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_solver");

fn run_match(log: &std::path::Path, nodes: &str) -> std::process::Output {
    Command::new(BIN)
        .args([
            "toguz",
            "match",
            "--a",
            "full",
            "--b",
            "full-nnue",
            "--nodes",
            nodes,
            "--games",
            "8",
            "--jobs",
            "2",
            "--json",
            "--log",
        ])
        .arg(log)
        .output()
        .expect("run solver")
}

/// The parts of the JSON report that do not depend on the clock.
fn outcome(out: &std::process::Output) -> serde_json::Value {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    v.as_object_mut().unwrap().remove("seconds");
    v
}

#[test]
fn interrupted_and_resumed_match_equals_one_go() {
    let dir = std::env::temp_dir().join(format!("toguz-match-log-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (whole, cut) = (dir.join("whole.log"), dir.join("cut.log"));
    let one_go = outcome(&run_match(&whole, "1500"));
    assert_eq!(one_go["games"], 8);
    let text = std::fs::read_to_string(&whole).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2 + 8, "{text}");
    assert_eq!(lines[0], "toguz match log 1");
    // Interrupted after three games, in the middle of writing the fourth.
    let partial = format!("{}\n{}", lines[..5].join("\n"), &lines[5][..20]);
    std::fs::write(&cut, partial).unwrap();
    let out = run_match(&cut, "1500");
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(stderr.contains("3 of 8 games from the log"), "{stderr}");
    assert_eq!(outcome(&out), one_go);
    // The resumed log holds every game once (the cut-off line dropped).
    let resumed = std::fs::read_to_string(&cut).unwrap();
    let mut games: Vec<u64> = resumed
        .lines()
        .skip(2)
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["game"]
                .as_u64()
                .unwrap()
        })
        .collect();
    games.sort_unstable();
    assert_eq!(games, (0..8).collect::<Vec<u64>>());
    // Played again: all from the log, nothing played.
    let again = run_match(&cut, "1500");
    let stderr = String::from_utf8_lossy(&again.stderr).to_string();
    assert!(
        stderr.contains("8 of 8 games from the log") && stderr.contains(", 0 played now"),
        "{stderr}"
    );
    assert_eq!(outcome(&again), one_go);
    // Other settings: refused, one line, naming the difference.
    let other = run_match(&cut, "1600");
    assert!(!other.status.success());
    let msg = String::from_utf8_lossy(&other.stderr).to_string();
    assert_eq!(msg.trim_end().lines().count(), 1, "{msg}");
    assert!(msg.contains("other settings"), "{msg}");
    assert!(
        msg.contains("nodes 1500") && msg.contains("nodes 1600"),
        "{msg}"
    );
    assert_eq!(std::fs::read_to_string(&cut).unwrap(), resumed);
    std::fs::remove_dir_all(&dir).ok();
}
