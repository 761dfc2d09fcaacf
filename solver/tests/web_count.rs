//! The count rule over the web API (`solver serve --quiet-limit`,
//! `docs/api.md`): small tables of Six Men's Morris (the 4-stone game)
//! and of Nine Men's Morris (up to 7 stones), each with and without a
//! count rule of 4 plies (so that it bites often), in one directory. A
//! `probe` with `quiet_plies` is the CLI's `probe --quiet-limit 4
//! --quiet-plies Q --json`; every move's value is its successor's at the
//! count after it, seen from the other side (the rule's definition, asked
//! of the API itself); `label` marks exactly the values the rule turned
//! from a win or a loss into a draw, and a walk finds both kinds; `best`
//! is the analysis' first move; bad counts are 400s.

mod common;
mod web;

use common::cli::run_cli;
use mill::probe::analysis::SearchOptions;
use serde_json::Value as Json;
use std::collections::HashSet;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use web::{encode, get};

/// The count rule of the tables here.
const LIMIT: u16 = 4;

/// Run `solver ARGS` with `--json`, which must succeed; its answer.
fn solver(args: &[&str]) -> Json {
    let (out, ok) = run_cli(args);
    assert!(ok, "solver {args:?}");
    serde_json::from_str(&out).expect("CLI JSON")
}

/// Six's 4-stone game and Nine up to 7 stones, each with and without the
/// rule in one directory (`six/`, `nine/` under the returned one).
fn root() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("web-count-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let limit = LIMIT.to_string();
        for rule in [&[][..], &["--quiet-limit", &limit]] {
            for (game, sub) in [
                (&["six", "generate", "--stones", "4"][..], "six"),
                (&["nine", "generate", "--max-stones", "7"], "nine"),
            ] {
                let d = dir.join(sub);
                let mut args = game.to_vec();
                args.extend(rule);
                args.extend(["--dir", d.to_str().unwrap(), "--quiet"]);
                assert!(run_cli(&args).1, "solver {args:?}");
            }
        }
        dir
    })
}

/// The directory of `game`'s tables (`six` or `nine`).
fn tables(game: &str) -> PathBuf {
    root().join(game)
}

/// The server over [`root`], with the count rule or without.
fn server(rule: bool) -> SocketAddr {
    let mut config = web::config(&tables("nine"));
    config.six_dir = tables("six");
    config.quiet_limit = rule.then_some(LIMIT);
    web::start(config)
}

fn served() -> SocketAddr {
    static ADDR: OnceLock<SocketAddr> = OnceLock::new();
    *ADDR.get_or_init(|| server(true))
}

/// `GET /api/{game}/{path}?position=…&quiet_plies=…`: status and JSON.
fn ask(
    addr: SocketAddr,
    game: &str,
    path: &str,
    position: &str,
    plies: Option<u16>,
) -> (u16, Json) {
    let count = plies.map_or_else(String::new, |q| format!("&quiet_plies={q}"));
    let r = get(
        addr,
        &format!("/api/{game}/{path}?position={}{count}", encode(position)),
    );
    (r.status, r.json())
}

fn ok(addr: SocketAddr, game: &str, path: &str, position: &str, plies: Option<u16>) -> Json {
    let (status, body) = ask(addr, game, path, position, plies);
    assert_eq!(status, 200, "{game} {path} {position} {plies:?}: {body}");
    body
}

fn flip(v: &Json) -> &'static str {
    match v.as_str() {
        Some("win") => "loss",
        Some("loss") => "win",
        _ => "draw",
    }
}

/// Positions of Six's 4-stone game from its start, breadth first, through
/// the rules alone (the library's `show` and `play`): the first `n` in
/// the moving phase.
fn six_positions(n: usize) -> Vec<String> {
    let game = mill::games::open("six", &tables("six"), SearchOptions::default()).unwrap();
    let mut seen = HashSet::new();
    let mut queue = std::collections::VecDeque::from([game.start()]);
    let mut out = Vec::new();
    while let Some(pos) = queue.pop_front() {
        let shown = game.show(&pos).unwrap();
        let moving = shown["hand"]["white"] == 0 && shown["hand"]["black"] == 0;
        if moving && shown["game_over"].is_null() {
            out.push(pos.clone());
            if out.len() == n {
                break;
            }
        }
        for m in shown["moves"].as_array().unwrap() {
            let next = game.play(&pos, m.as_str().unwrap()).unwrap();
            if seen.insert(next.clone()) {
                queue.push_back(next);
            }
        }
    }
    out
}

/// `n` moving-phase positions of Six with three stones a side (where the
/// 4-stone game's wins are: after placement it is nearly all draws),
/// spread by a fixed pseudo-random walk over the points.
fn six_three_three(n: usize) -> Vec<String> {
    let game = mill::games::open("six", &tables("six"), SearchOptions::default()).unwrap();
    let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move |k: u64| {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (seed >> 33) % k
    };
    let mut out = Vec::new();
    while out.len() < n {
        let mut board = ['.'; 16];
        for stone in ['W', 'W', 'W', 'B', 'B', 'B'] {
            loop {
                let p = next(16) as usize;
                if board[p] == '.' {
                    board[p] = stone;
                    break;
                }
            }
        }
        let side = if next(2) == 0 { "w" } else { "b" };
        let pos = format!("{} {side} 0 0", board.iter().collect::<String>());
        match game.show(&pos) {
            Ok(shown) if shown["game_over"].is_null() => out.push(pos),
            _ => {}
        }
    }
    out
}

#[test]
fn games_name_the_rule_they_also_serve() {
    let games = get(served(), "/api/games").json();
    let limit = |id: &str| {
        games
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["id"] == id)
            .map(|g| g["quiet_limit"].clone())
            .unwrap()
    };
    assert_eq!(limit("six"), LIMIT);
    assert_eq!(limit("nine"), LIMIT);
    assert_eq!(limit("three"), LIMIT);
    let plain = get(server(false), "/api/games").json();
    assert!(plain
        .as_array()
        .unwrap()
        .iter()
        .all(|g| g["quiet_limit"].is_null()));
}

/// Every move's value is its successor's at the count after it, flipped;
/// each count after a move is the rule's (none after a removal or a
/// placement, one more after a slide); labels mark exactly the changed
/// values; a few answers equal the CLI's.
#[test]
fn six_under_the_rule_is_consistent_marked_and_the_cli_s() {
    let addr = served();
    let rules = mill::games::open("six", &tables("six"), SearchOptions::default()).unwrap();
    let (mut cursed, mut blessed) = (0, 0);
    let mut positions = six_positions(20);
    positions.extend(six_three_three(40));
    for (i, pos) in positions.iter().enumerate() {
        for q in [0, 2, LIMIT - 1] {
            let a = ok(addr, "six", "probe", pos, Some(q));
            let plain = ok(addr, "six", "probe", pos, None);
            assert_eq!(a["quiet_limit"], LIMIT);
            assert_eq!(a["quiet_plies"], q);
            assert_eq!(a["plain_value"], plain["value"]);
            let label = |before: &Json, now: &Json| match (before.as_str(), now.as_str()) {
                (Some("win"), Some("draw")) => Json::from("cursed-win"),
                (Some("loss"), Some("draw")) => Json::from("blessed-loss"),
                _ => Json::Null,
            };
            assert_eq!(
                a["label"],
                label(&plain["value"], &a["value"]),
                "{pos} at {q}"
            );
            // The rule never makes a draw a decision, or a win a loss.
            if plain["value"] == "draw" {
                assert_eq!(a["value"], "draw");
            }
            if a["label"] == "cursed-win" {
                cursed += 1;
            }
            if a["label"] == "blessed-loss" {
                blessed += 1;
            }
            for m in a["moves"].as_array().unwrap() {
                let text = m["move"].as_str().unwrap();
                let next = rules.play(pos, text).unwrap();
                let quiet = !text.contains('x');
                assert_eq!(
                    m["quiet_plies"],
                    if quiet { q + 1 } else { 0 },
                    "{pos} {text}"
                );
                let after = m["quiet_plies"].as_u64().unwrap() as u16;
                let child = ok(addr, "six", "probe", &next, Some(after));
                assert_eq!(m["value"], flip(&child["value"]), "{pos} {text} at {q}");
                let before = plain["moves"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|p| p["move"] == m["move"])
                    .unwrap();
                assert_eq!(m["label"], label(&before["value"], &m["value"]));
                if m["label"] == "cursed-win" {
                    cursed += 1;
                }
                if m["label"] == "blessed-loss" {
                    blessed += 1;
                }
            }
            if i % 20 == 0 {
                let mut cli = solver(&[
                    "six",
                    "probe",
                    pos,
                    "--stones",
                    "4",
                    "--quiet-limit",
                    &LIMIT.to_string(),
                    "--quiet-plies",
                    &q.to_string(),
                    "--dir",
                    tables("six").to_str().unwrap(),
                    "--json",
                ]);
                // The CLI marks what the rule changed as the API does.
                let mut api = a.clone();
                let api = api.as_object_mut().unwrap();
                cli.as_object_mut()
                    .unwrap()
                    .retain(|k, _| api.contains_key(k));
                assert!(api.contains_key("label"), "{pos} at {q}");
                assert_eq!(Json::from(api.clone()), cli, "{pos} at {q}");
            }
        }
    }
    assert!(cursed > 0, "no cursed win met");
    assert!(blessed > 0, "no blessed loss met");
}

/// Nine's moving phase under the rule: the CLI's answer.
#[test]
fn nine_under_the_rule_is_the_cli_s() {
    let addr = served();
    let start = "W.W..B...B.W....B....... w 0 0";
    let game = mill::games::open("nine", &tables("nine"), SearchOptions::default()).unwrap();
    let shown = game.show(start).unwrap();
    let mut positions = vec![start.to_string()];
    for m in shown["moves"].as_array().unwrap().iter().take(6) {
        positions.push(game.play(start, m.as_str().unwrap()).unwrap());
    }
    for pos in &positions {
        for q in [0, LIMIT - 1, LIMIT] {
            let a = ok(addr, "nine", "probe", pos, Some(q));
            let cli = solver(&[
                "nine",
                "probe",
                pos,
                "--quiet-limit",
                &LIMIT.to_string(),
                "--quiet-plies",
                &q.to_string(),
                "--dir",
                tables("nine").to_str().unwrap(),
                "--json",
            ]);
            for key in [
                "value",
                "dtc",
                "source",
                "quiet_plies",
                "quiet_limit",
                "label",
                "plain_value",
            ] {
                assert_eq!(a[key], cli[key], "{pos} at {q}: {key}");
            }
            let moves = |j: &Json| -> Vec<[Json; 5]> {
                j["moves"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|m| ["move", "value", "dtc", "label", "plain_value"].map(|k| m[k].clone()))
                    .collect()
            };
            assert_eq!(moves(&a), moves(&cli), "{pos} at {q}");
            if q == LIMIT {
                // The count has drawn the game.
                assert_eq!(a["source"], "game-over");
                assert_eq!(a["value"], "draw");
            }
        }
    }
}

/// Three Men's Morris under the rule (solved in memory): a moving-phase
/// position's moves are their successors' values at the count after
/// them, flipped; the marks against the game without the rule; the start
/// (placement) has a count of zero.
#[test]
fn three_under_the_rule_is_consistent() {
    let addr = served();
    let start = ok(addr, "three", "probe", "......... w 3 3", Some(0));
    assert_eq!(
        (start["quiet_plies"].clone(), start["quiet_limit"].clone()),
        (0.into(), LIMIT.into())
    );
    // A moving-phase position: White and Black have placed all three.
    let pos = "WB.BW.W.B w 0 0";
    let mut labelled = 0;
    for q in 0..LIMIT {
        let a = ok(addr, "three", "probe", pos, Some(q));
        let plain = ok(addr, "three", "probe", pos, None);
        assert_eq!(a["plain_value"], plain["value"]);
        for m in a["moves"].as_array().unwrap() {
            let text = m["move"].as_str().unwrap();
            assert_eq!(m["quiet_plies"], q + 1, "a slide counts one ply");
            let next = get(
                addr,
                &format!("/api/three/replay?position={}&moves={text}", encode(pos)),
            )
            .json()["positions"][1]
                .as_str()
                .unwrap()
                .to_string();
            let child = ok(addr, "three", "probe", &next, Some(q + 1));
            if child["finished"] == true
                && child["source"] == "game-over"
                && child["value"] == "loss"
            {
                assert_eq!(m["value"], "win");
            } else {
                assert_eq!(m["value"], flip(&child["value"]), "{text} at {q}");
            }
            labelled += usize::from(!m["label"].is_null());
        }
        let best = ok(addr, "three", "best", pos, Some(q));
        assert_eq!(best["best"]["value"], a["moves"][0]["value"]);
    }
    assert!(labelled > 0, "the rule changes no move of {pos}");
}

/// `best` under the rule is the analysis' first move at the same count.
#[test]
fn best_under_the_rule_is_the_first_move() {
    let addr = served();
    for pos in six_positions(15) {
        for q in [0, LIMIT - 1] {
            let a = ok(addr, "six", "probe", &pos, Some(q));
            let best = ok(addr, "six", "best", &pos, Some(q));
            let first = &a["moves"][0];
            assert_eq!(best["best"]["value"], first["value"], "{pos} at {q}");
            assert_eq!(best["best"]["dtc"], first["dtc"], "{pos} at {q}");
        }
        let drawn = ok(addr, "six", "best", &pos, Some(LIMIT));
        assert!(drawn["best"].is_null(), "the count has drawn {pos}");
    }
}

#[test]
fn bad_counts_are_bad_requests() {
    let addr = served();
    let pos = &six_positions(1)[0];
    for (game, q, why) in [
        ("six", "x", "must be a whole number"),
        ("six", "-1", "must be a whole number"),
        ("six", "5", "past the count rule's limit"),
        ("three", "5", "past the count rule's limit"),
    ] {
        let position = if game == "three" {
            "......... w 3 3"
        } else {
            pos
        };
        for path in ["probe", "best"] {
            let r = get(
                addr,
                &format!(
                    "/api/{game}/{path}?position={}&quiet_plies={q}",
                    encode(position)
                ),
            );
            assert_eq!(r.status, 400, "{game} {path} {q}");
            let message = r.json()["error"].as_str().unwrap().to_string();
            assert!(message.contains(why), "{game} {path} {q}: {message}");
        }
    }
    let (status, body) = ask(server(false), "six", "probe", pos, Some(0));
    assert_eq!(status, 400);
    assert!(
        body["error"].as_str().unwrap().contains("--quiet-limit"),
        "{body}"
    );
}
