//! The count rule from the command line (`--quiet-limit`, `--quiet-plies`;
//! `docs/rules.md`, "The count rule"): tables written beside the tables
//! without the rule, probes that read a position at every count and agree
//! with the probes of its moves' positions at their counts, a count at its
//! limit a drawn game, and `stats` whose cursed wins and blessed losses are
//! exactly the wins and losses the rule takes from the tables without it.
//! (The values themselves are checked against an independent oracle in
//! `solver/mill/tests/count_rule.rs`.)

mod common;

use common::cli::run_cli;
use serde_json::Value as Json;
use std::path::Path;

fn json(args: &[&str]) -> Json {
    let (out, ok) = run_cli(args);
    assert!(ok, "solver {}: {out}", args.join(" "));
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("solver {}: {e}: {out}", args.join(" ")))
}

fn flip(v: &Json) -> &'static str {
    match v.as_str() {
        Some("win") => "loss",
        Some("loss") => "win",
        _ => "draw",
    }
}

/// `stats --quiet-limit` beside `stats`: each table's wins are the rule's
/// wins and its cursed wins, its losses the rule's losses and its blessed
/// losses; the totals add up; the rule bites somewhere.
fn stats_agree(game: &str, dir: &Path, extra: &[&str], limit: &str) {
    let dir = dir.to_str().unwrap();
    let mut plain_args = vec![game, "stats", "--json", "--dir", dir];
    plain_args.extend(extra);
    let plain = json(&plain_args);
    let mut counted_args = plain_args.clone();
    counted_args.extend(["--quiet-limit", limit]);
    let counted = json(&counted_args);
    assert_eq!(counted["quiet_limit"].as_u64(), limit.parse().ok());
    let (p, c) = (
        plain["tables"].as_array().unwrap(),
        counted["tables"].as_array().unwrap(),
    );
    assert_eq!(p.len(), c.len(), "{game}: the same tables");
    let n = |row: &Json, key: &str| row[key].as_u64().unwrap();
    for (p, c) in p.iter().zip(c) {
        let what = format!("{game} {}", c["table"]);
        assert!(c["table"].as_str().unwrap().contains(&format!("-q{limit}")));
        assert_eq!(n(p, "positions"), n(c, "positions"), "{what}");
        assert_eq!(n(p, "wins"), n(c, "wins") + n(c, "cursed_wins"), "{what}");
        assert_eq!(
            n(p, "losses"),
            n(c, "losses") + n(c, "blessed_losses"),
            "{what}"
        );
        assert_eq!(
            n(c, "positions"),
            n(c, "wins") + n(c, "draws") + n(c, "losses"),
            "{what}"
        );
    }
    for key in ["wins", "cursed_wins", "blessed_losses"] {
        let sum: u64 = c.iter().map(|r| n(r, key)).sum();
        assert_eq!(n(&counted, key), sum, "{game}: total {key}");
    }
    assert!(n(&counted, "cursed_wins") > 0, "{game}: the rule bites");
}

#[test]
fn nine_probes_and_stats_under_the_count_rule() {
    let dir = std::env::temp_dir().join(format!("count-cli-nine-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let d = dir.to_str().unwrap();
    for extra in [&[][..], &["--quiet-limit", "10"]] {
        let mut args = vec!["nine", "generate", "--stones", "3", "--quiet", "--dir", d];
        args.extend(extra);
        let (out, ok) = run_cli(&args);
        assert!(ok, "{out}");
    }
    // A win 15 plies from its removal without the count.
    let pos = "...B..BW..W.....B..W.... w 0 0";
    let plain = json(&["nine", "probe", "--json", "--dir", d, pos]);
    assert_eq!(
        (plain["value"].as_str(), plain["dtc"].as_u64()),
        (Some("win"), Some(15))
    );
    assert!(plain.get("quiet_limit").is_none());
    let at = |q: u16, moves: Option<&str>| {
        let q = q.to_string();
        let mut args = vec!["nine", "probe", "--json", "--dir", d, "--quiet-limit", "10"];
        args.extend(["--quiet-plies", q.as_str(), pos]);
        if let Some(m) = moves {
            args.extend(["--moves", m]);
        }
        json(&args)
    };
    let mut won_before = true;
    for q in 0..=10u16 {
        let a = at(q, None);
        assert_eq!(a["quiet_limit"], 10);
        assert_eq!(a["quiet_plies"], q);
        if q == 10 {
            assert_eq!(
                (a["value"].as_str(), a["source"].as_str()),
                (Some("draw"), Some("game-over"))
            );
            assert!(a["moves"].as_array().unwrap().is_empty());
            continue;
        }
        let moves = a["moves"].as_array().unwrap();
        assert_eq!(a["value"], moves[0]["value"], "q {q}");
        // A win at a count stands at every smaller count.
        let won = a["value"] == "win";
        assert!(won_before || !won, "q {q}");
        won_before = won;
        if let Some(d) = a["dtc"].as_u64().filter(|_| a["value"] != "draw") {
            assert!(d <= u64::from(10 - q), "q {q}: {a}");
        }
        // Every move's value is its position's, probed at its count (at
        // a few counts: each probe is a run of the binary).
        if ![0, 5, 9].contains(&q) {
            continue;
        }
        for m in moves.iter().step_by(5) {
            let text = m["move"].as_str().unwrap();
            let after = if text.contains('x') { 0 } else { q + 1 };
            assert_eq!(m["quiet_plies"], after, "{text}");
            let child = at(q, Some(text));
            assert_eq!(child["quiet_plies"], after, "{text}");
            assert_eq!(flip(&child["value"]), m["value"], "q {q} {text}: {child}");
        }
    }
    // Past the limit, and a count without the rule, are input errors.
    let (_, ok) = run_cli(&[
        "nine",
        "probe",
        "--dir",
        d,
        "--quiet-limit",
        "10",
        "--quiet-plies",
        "11",
        pos,
    ]);
    assert!(!ok);
    let (_, ok) = run_cli(&["nine", "probe", "--dir", d, "--quiet-plies", "3", pos]);
    assert!(!ok);
    stats_agree("nine", &dir, &[], "10");
    // The rule's tables alone: the same counts under the rule, what it
    // changed unknown (null) in every row and total.
    let alone = std::env::temp_dir().join(format!("count-cli-nine-q-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&alone);
    std::fs::create_dir(&alone).unwrap();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        if name.contains("-q10-") {
            std::fs::copy(&path, alone.join(&name)).unwrap();
        }
    }
    let stats = |d: &Path| {
        json(&[
            "nine",
            "stats",
            "--json",
            "--quiet-limit",
            "10",
            "--dir",
            d.to_str().unwrap(),
        ])
    };
    let (both, only) = (stats(&dir), stats(&alone));
    let rows = |j: &Json| j["tables"].as_array().unwrap().clone();
    assert_eq!(rows(&both).len(), rows(&only).len());
    for (b, o) in rows(&both).iter().zip(&rows(&only)) {
        for key in ["table", "positions", "wins", "draws", "losses"] {
            assert_eq!(b[key], o[key], "{}: {key}", b["table"]);
        }
        assert!(o["cursed_wins"].is_null() && o["blessed_losses"].is_null());
    }
    assert_eq!(both["wins"], only["wins"]);
    assert!(only["cursed_wins"].is_null() && only["by_kind"]["moving"]["cursed_wins"].is_null());
    std::fs::remove_dir_all(&alone).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn six_board_games_stats_under_the_count_rule() {
    let dir = std::env::temp_dir().join(format!("count-cli-six-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let d = dir.to_str().unwrap();
    for extra in [&[][..], &["--quiet-limit", "10"]] {
        let mut args = vec!["six", "generate", "--stones", "4", "--dir", d];
        args.extend(extra);
        let (out, ok) = run_cli(&args);
        assert!(ok, "{out}");
    }
    stats_agree("six", &dir, &["--stones", "4"], "10");
    // The start under the rule: a placement position, at a count of zero.
    let start = json(&[
        "six",
        "probe",
        "--json",
        "--dir",
        d,
        "--stones",
        "4",
        "--quiet-limit",
        "10",
    ]);
    assert_eq!(start["quiet_plies"], 0);
    for m in start["moves"].as_array().unwrap() {
        assert_eq!(m["quiet_plies"], 0, "a placement restarts the count");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
