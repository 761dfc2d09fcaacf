//! One JSON schema for every mill board (issue 44): `probe`, `start`,
//! `stats`, `verify` and `plan --json` run on Nine, Six, Lasker, Morabaraba and Three
//! over small games' tables written by `generate`, and every document has
//! the common keys (`stats`' totals are the sums of its rows); `start`'s value is `probe`'s value of the same position (on Nine
//! and Morabaraba from another path: the placement search), and a probed
//! position's value is its best move's.

mod common;

use common::cli::run_cli;
use serde_json::Value as Json;
use std::path::Path;

/// The keys of `probe`, of each of its moves, of `start` and of `plan`.
const PROBE: &[&str] = &["position", "value", "dtc", "source", "moves"];
const MOVE: &[&str] = &["move", "value", "dtc"];
const START: &[&str] = &["position", "value", "dtc", "source"];
const STATS: &[&str] = &["variant", "stones", "flying", "by_kind", "tables"];
const VERIFY: &[&str] = &[
    "variant",
    "stones",
    "flying",
    "tables",
    "checked",
    "mismatches",
    "seconds",
];
const ROW: &[&str] = &[
    "table",
    "kind",
    "white",
    "black",
    "longest_win",
    "longest_loss",
];
/// The counts of a statistics row, summed in its totals.
const COUNTED: [&str; 5] = ["positions", "wins", "draws", "losses", "bytes"];
const PLAN: &[&str] = &[
    "game",
    "command",
    "options",
    "jobs",
    "waves",
    "total_cpu_seconds",
    "critical_path_cpu_seconds",
    "max_memory_bytes",
    "notes",
];

fn json(args: &[&str]) -> Json {
    let (out, ok) = run_cli(args);
    assert!(ok, "solver {}: {out}", args.join(" "));
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("solver {}: {e}: {out}", args.join(" ")))
}

fn has_keys(doc: &Json, keys: &[&str], what: &str) {
    for k in keys {
        assert!(doc.get(k).is_some(), "{what}: no `{k}` in {doc}");
    }
}

/// One board's verbs: `generate` (if it has tables), then `probe` and
/// `start` of `position` (None: the game's start, no position given) and
/// `plan`.
struct Board<'a> {
    game: &'a str,
    generate: &'a [&'a str],
    table: Vec<String>,
    position: Option<&'a str>,
    start: &'a [&'a str],
    plan: &'a [&'a str],
}

fn check(board: &Board) {
    let game = board.game;
    let table: Vec<&str> = board.table.iter().map(String::as_str).collect();
    let with = |verb: &[&str], extra: &[&str]| -> Vec<String> {
        let mut v: Vec<String> = std::iter::once(game)
            .chain(verb.iter().copied())
            .map(str::to_string)
            .collect();
        v.extend(extra.iter().map(|s| s.to_string()));
        v.extend(table.iter().map(|s| s.to_string()));
        v
    };
    let call = |args: Vec<String>| json(&args.iter().map(String::as_str).collect::<Vec<_>>());
    if !board.generate.is_empty() {
        let args = with(board.generate, &[]);
        let (out, ok) = run_cli(&args.iter().map(String::as_str).collect::<Vec<_>>());
        assert!(ok, "{game} generate: {out}");
    }
    let mut probe_args = vec!["probe", "--json"];
    probe_args.extend(board.position);
    let probe = call(with(&probe_args, &[]));
    has_keys(&probe, PROBE, &format!("{game} probe"));
    let moves = probe["moves"].as_array().expect("moves is a list");
    assert!(!moves.is_empty(), "{game} probe: no moves in {probe}");
    for m in moves {
        has_keys(m, MOVE, &format!("{game} probe's move"));
    }
    assert_eq!(
        probe["value"], moves[0]["value"],
        "{game}: the position's value is its best move's"
    );
    let mut start_args = vec!["start", "--json"];
    start_args.extend(board.start);
    let start = call(with(&start_args, &[]));
    has_keys(&start, START, &format!("{game} start"));
    assert_eq!(
        start["position"], probe["position"],
        "{game}: start and probe of one position"
    );
    assert_eq!(
        start["value"], probe["value"],
        "{game}: start {start} against probe"
    );
    if !board.generate.is_empty() {
        let stats = call(with(&["stats", "--json"], &[]));
        has_keys(&stats, STATS, &format!("{game} stats"));
        has_keys(&stats, &COUNTED, &format!("{game} stats"));
        assert_eq!(stats["variant"], game, "{game} stats");
        let rows = stats["tables"].as_array().expect("tables is a list");
        assert!(!rows.is_empty(), "{game} stats: no tables");
        for key in COUNTED {
            let sum: u64 = rows
                .iter()
                .map(|r| {
                    has_keys(r, ROW, &format!("{game} stats row"));
                    r[key].as_u64().unwrap()
                })
                .sum();
            assert_eq!(stats[key], sum, "{game} stats: total {key}");
            let by_kind: u64 = stats["by_kind"]
                .as_object()
                .unwrap()
                .values()
                .map(|k| k[key].as_u64().unwrap())
                .sum();
            assert_eq!(by_kind, sum, "{game} stats: {key} by kind");
        }
        // `verify` recomputes every stored value: every table listed by
        // `stats`, its positions each checked once, none differing.
        let verify = call(with(&["verify", "--json"], &[]));
        has_keys(&verify, VERIFY, &format!("{game} verify"));
        assert_eq!(verify["variant"], game, "{game} verify");
        assert_eq!(verify["mismatches"], 0, "{game} verify");
        assert_eq!(verify["stones"], stats["stones"], "{game} verify");
        if game != "morabaraba" {
            // (Morabaraba's verify checks the moving phase; its placement
            // sectors by `verify --placement`.)
            assert_eq!(verify["tables"], rows.len(), "{game} verify");
            assert_eq!(verify["checked"], stats["positions"], "{game} verify");
        }
    }
    if !board.plan.is_empty() {
        let mut plan_args = vec![game, "plan", "--json"];
        plan_args.extend(board.plan);
        let plan = json(&plan_args);
        has_keys(&plan, PLAN, &format!("{game} plan"));
        assert_eq!(plan["game"], game, "{game} plan");
        assert!(
            !plan["jobs"].as_array().unwrap().is_empty(),
            "{game} plan: no jobs"
        );
    }
}

#[test]
fn every_board_answers_one_schema() {
    let root = std::env::temp_dir().join(format!("json-schema-{}", std::process::id()));
    let dir = |game: &str| -> Vec<String> {
        let d: &Path = &root.join(game);
        vec!["--dir".into(), d.to_str().unwrap().into()]
    };
    let four = |game: &str| -> Vec<String> {
        let mut v = vec!["--stones".to_string(), "4".to_string()];
        v.extend(dir(game));
        v
    };
    let boards = [
        // Nine: the moving phase up to 8 stones in all, and the 3-stone
        // game's start, which `start` proves by the placement search.
        Board {
            game: "nine",
            generate: &["generate", "--max-stones", "8", "--quiet"],
            table: dir("nine"),
            position: Some("........................ w 3 3"),
            start: &["--position", "........................ w 3 3"],
            plan: &["--max-stones", "8"],
        },
        Board {
            game: "six",
            generate: &["generate", "--quiet"],
            table: four("six"),
            position: None,
            start: &[],
            plan: &["--stones", "4"],
        },
        Board {
            game: "lasker",
            generate: &["generate", "--quiet"],
            table: four("lasker"),
            position: None,
            start: &[],
            plan: &["--stones", "4"],
        },
        // Morabaraba: probe from the placement sectors, start by the search.
        Board {
            game: "morabaraba",
            generate: &["generate", "--placement", "--quiet"],
            table: four("morabaraba"),
            position: None,
            start: &[],
            plan: &["--stones", "4"],
        },
        Board {
            game: "three",
            generate: &[],
            table: Vec::new(),
            position: None,
            start: &[],
            plan: &[],
        },
    ];
    for board in &boards {
        check(board);
    }
    std::fs::remove_dir_all(&root).ok();
}
