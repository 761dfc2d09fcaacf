//! The JSON API of every mill board beyond Nine (with flying) and Three:
//! Nine Men's Morris without flying, Six Men's Morris, Lasker Morris and
//! Morabaraba, from small tables the CLI generates here into one
//! directory (the whole of Six, Lasker's 3-stone game, Morabaraba's
//! 4-stone moving phase, Nine without flying up to 7 stones). Each answer
//! is the CLI's `--json` object for the same question; every move's value
//! is its successor's seen from the other side (the definition, asked of
//! the API itself); the errors of missing tables name the command that
//! makes them.

mod web;

use serde_json::Value as Json;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use web::{get, get_position, Reply};

/// Run `solver ARGS`, which must succeed; its standard output.
fn run(args: &[&str]) -> Vec<u8> {
    let out = Command::new(env!("CARGO_BIN_EXE_solver"))
        .args(args)
        .output()
        .expect("run solver");
    assert!(
        out.status.success(),
        "solver {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// `solver ARGS` (with `--json`) as JSON.
fn solver(args: &[&str]) -> Json {
    serde_json::from_slice(&run(args)).expect("CLI JSON")
}

/// Every game's small tables in one directory, generated once.
fn tables() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("web-boards-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let d = dir.to_str().unwrap();
        for args in [
            &["nine", "generate", "--no-flying", "--max-stones", "7"][..],
            &["six", "generate"],
            &["lasker", "generate", "--stones", "3"],
            &["morabaraba", "generate", "--stones", "4"],
        ] {
            let mut args = args.to_vec();
            args.extend(["--dir", d, "--quiet"]);
            run(&args);
        }
        dir
    })
}

fn server() -> SocketAddr {
    static ADDR: OnceLock<SocketAddr> = OnceLock::new();
    *ADDR.get_or_init(|| web::start(web::config(tables())))
}

fn ok(reply: Reply) -> Json {
    assert_eq!(reply.status, 200, "{}", reply.body);
    reply.json()
}

fn error(reply: &Reply, status: u16, kind: &str) -> String {
    assert_eq!(reply.status, status, "{}", reply.body);
    let j = reply.json();
    assert_eq!(j["kind"], kind, "{j}");
    j["error"].as_str().unwrap().to_string()
}

/// Every legal move (`show`'s) once, best first, each the value of the
/// position after it (`show`'s successor, probed) from the other side,
/// and `best` the first.
fn check_moves(addr: SocketAddr, game: &str, analysis: &Json) {
    let text = analysis["position"].as_str().unwrap();
    let show = ok(get_position(addr, &format!("/api/{game}/show"), text));
    let mut listed: Vec<&str> = analysis["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].as_str().unwrap())
        .collect();
    let mut legal: Vec<&str> = show["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    listed.sort_unstable();
    legal.sort_unstable();
    assert_eq!(listed, legal, "{text}");
    let rank = |v: &Json| ["loss", "draw", "win"].iter().position(|r| v == r).unwrap();
    let moves = analysis["moves"].as_array().unwrap();
    assert!(moves
        .windows(2)
        .all(|w| rank(&w[0]["value"]) >= rank(&w[1]["value"])));
    if let Some(first) = moves.first() {
        assert_eq!(first["value"], analysis["value"], "{text}");
        let best = ok(get_position(addr, &format!("/api/{game}/best"), text));
        if analysis["source"] == "search" {
            // The search stops at the first move of the best outcome.
            assert_eq!(best["best"]["value"], first["value"], "{text}");
            assert!(moves.contains(&best["best"]), "{text}: {best}");
        } else {
            assert_eq!(&best["best"], first, "{text}");
        }
    }
    for m in moves {
        let child_text = play(text, m["move"].as_str().unwrap(), &show);
        let child = ok(get_position(
            addr,
            &format!("/api/{game}/probe"),
            &child_text,
        ));
        let flipped = match child["value"].as_str().unwrap() {
            "win" => "loss",
            "loss" => "win",
            _ => "draw",
        };
        assert_eq!(m["value"], flipped, "{text}: {m}");
        let slide =
            m["move"].as_str().unwrap().contains('-') && !m["move"].as_str().unwrap().contains('x');
        if slide && !m["dtc"].is_null() && !child["dtc"].is_null() {
            assert_eq!(m["dtc"].as_u64(), Some(child["dtc"].as_u64().unwrap() + 1));
        }
    }
}

/// The position after `mv` (its text), computed from the position text
/// and the reading order (as the page does).
fn play(text: &str, mv: &str, show: &Json) -> String {
    let reading: Vec<String> = reading_of(show);
    let fields: Vec<&str> = text.split_whitespace().collect();
    let mut cells: Vec<char> = fields[0].chars().collect();
    let white = fields[1] == "w";
    let mut hand = [fields[2].parse::<u8>().unwrap(), fields[3].parse().unwrap()];
    let at = |p: &str| reading.iter().position(|r| r == p).unwrap();
    let (main, removal) = match mv.split_once('x') {
        Some((a, b)) => (a, Some(b)),
        None => (mv, None),
    };
    let to = match main.split_once('-') {
        Some((from, to)) => {
            cells[at(from)] = '.';
            to
        }
        None => {
            hand[usize::from(!white)] -= 1;
            main
        }
    };
    cells[at(to)] = if white { 'W' } else { 'B' };
    if let Some(r) = removal {
        cells[at(r)] = '.';
    }
    let side = if white { "b" } else { "w" };
    format!(
        "{} {side} {} {}",
        cells.iter().collect::<String>(),
        hand[0],
        hand[1]
    )
}

/// The point names in reading order of the game of a `show` answer.
fn reading_of(show: &Json) -> Vec<String> {
    let points = show["position"]
        .as_str()
        .unwrap()
        .split_whitespace()
        .next()
        .unwrap()
        .len();
    let games = ok(get(server(), "/api/games"));
    let game = games
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["reading"].as_array().unwrap().len() == points)
        .unwrap();
    game["reading"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap().to_string())
        .collect()
}

#[test]
fn six_is_the_cli_object_and_each_move_is_its_successors_value() {
    let addr = server();
    let d = tables().to_str().unwrap();
    for text in [
        "................ w 6 6",
        "W...B.....W..B.. b 4 4",
        "W.W.B....B.W..B. w 0 0",
        "WW.W.B..B...B... b 0 0",
    ] {
        let api = ok(get_position(addr, "/api/six/probe", text));
        assert_eq!(api, solver(&["six", "probe", "--dir", d, "--json", text]));
        check_moves(addr, "six", &api);
        let show = ok(get_position(addr, "/api/six/show", text));
        assert_eq!(show, solver(&["six", "show", "--json", text]));
    }
    let stats = ok(get(addr, "/api/six/stats"));
    assert_eq!(stats, solver(&["six", "stats", "--dir", d, "--json"]));
    assert_eq!(stats["stones"], 6);
    let svg = get_position(addr, "/api/six/svg", "W.W.B....B.W..B. w 0 0");
    assert_eq!(svg.content_type, "image/svg+xml");
    assert_eq!(svg.body.matches("data-point=").count(), 16);
    assert_eq!(svg.body.matches("<line ").count(), 20);
}

#[test]
fn lasker_is_the_cli_object() {
    let addr = server();
    let d = tables().to_str().unwrap();
    let start = ok(get_position(
        addr,
        "/api/lasker/probe",
        "........................ w 3 3",
    ));
    assert_eq!(
        start,
        solver(&["lasker", "start", "--stones", "3", "--dir", d, "--json"])
    );
    for text in [
        "...W...................B w 2 2",
        "W.W..B...B.W....B....... w 0 0",
    ] {
        let api = ok(get_position(addr, "/api/lasker/probe", text));
        let cli = solver(&[
            "lasker", "probe", "--stones", "3", "--dir", d, "--json", text,
        ]);
        assert_eq!(api, cli);
        check_moves(addr, "lasker", &api);
    }
    let stats = ok(get(addr, "/api/lasker/stats"));
    assert_eq!(
        stats,
        solver(&["lasker", "stats", "--stones", "3", "--dir", d, "--json"])
    );
}

#[test]
fn morabaraba_by_tables_and_by_search() {
    let addr = server();
    let d = tables().to_str().unwrap();
    // Moving phase: the tables, as `morabaraba probe`.
    let text = "W..W...W............B.BB w 0 0";
    let api = ok(get_position(addr, "/api/morabaraba/probe", text));
    assert_eq!(
        api,
        solver(&[
            "morabaraba",
            "probe",
            "--stones",
            "4",
            "--dir",
            d,
            "--json",
            text
        ])
    );
    // White closes the diagonal a7-b6-c5 (d5 to c5): a win in one ply.
    assert_eq!((&api["value"], &api["dtc"]), (&"win".into(), &1.into()));
    check_moves(addr, "morabaraba", &api);
    // Placement: the search, as `morabaraba start`.
    let start = ok(get_position(
        addr,
        "/api/morabaraba/probe",
        "........................ w 4 4",
    ));
    assert_eq!(start["source"], "search");
    let cli = solver(&["morabaraba", "start", "--stones", "4", "--dir", d, "--json"]);
    assert_eq!(start["value"], cli["value"]);
    let late = "W.W.....B..B.....W.B.... w 1 1";
    check_moves(
        addr,
        "morabaraba",
        &ok(get_position(addr, "/api/morabaraba/probe", late)),
    );
    let stats = ok(get(addr, "/api/morabaraba/stats"));
    assert_eq!(
        stats,
        solver(&["morabaraba", "stats", "--stones", "4", "--dir", d, "--json"])
    );
    // The diagonals are drawn.
    let svg = get_position(addr, "/api/morabaraba/svg", text);
    assert_eq!(svg.body.matches("<line ").count(), 32 + 8);
    // More stones than the tables cover: the command that makes them.
    let e = error(
        &get_position(
            addr,
            "/api/morabaraba/probe",
            "WWWWW...........BBBBB... w 0 0",
        ),
        404,
        "missing-table",
    );
    assert!(e.contains("solver morabaraba generate --stones 5"), "{e}");
}

#[test]
fn nine_without_flying_is_the_cli_object() {
    let addr = server();
    let d = tables().to_str().unwrap();
    for text in [
        "W.W..B...B.W....B....... w 0 0",
        "WB.W...B.....W.B.......B b 0 0",
    ] {
        let api = ok(get_position(addr, "/api/nine-noflying/probe", text));
        let cli = solver(&["nine", "probe", "--no-flying", "--dir", d, "--json", text]);
        assert_eq!(api, cli);
        check_moves(addr, "nine-noflying", &api);
        // With flying the 3-3 position is another game.
        let flying = get_position(addr, "/api/nine/probe", text);
        assert_eq!(flying.status, 404, "{}", flying.body);
    }
}

#[test]
fn games_are_listed_and_without_tables_say_how_to_make_them() {
    let games = ok(get(server(), "/api/games"));
    let listed: Vec<(&str, &str, u64)> = games
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            (
                g["id"].as_str().unwrap(),
                g["start"].as_str().unwrap(),
                g["stones"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        listed,
        [
            ("nine", "........................ w 9 9", 9),
            ("nine-noflying", "........................ w 9 9", 9),
            ("six", "................ w 6 6", 6),
            ("lasker", "........................ w 3 3", 3),
            ("morabaraba", "........................ w 4 4", 4),
            ("three", "......... w 3 3", 3),
        ]
    );
    let dir = std::env::temp_dir().join(format!("web-boards-none-{}", std::process::id()));
    let addr = web::start(web::config(&dir));
    for (game, position, command) in [
        ("six", "................ w 6 6", "solver six generate"),
        (
            "lasker",
            "........................ w 10 10",
            "solver lasker generate --stones 4",
        ),
        (
            "morabaraba",
            "........................ w 12 12",
            "solver morabaraba generate --stones 4",
        ),
        (
            "nine-noflying",
            "........................ w 9 9",
            "solver nine generate",
        ),
    ] {
        for path in ["probe", "best"] {
            let e = error(
                &get_position(addr, &format!("/api/{game}/{path}"), position),
                404,
                "no-tables",
            );
            assert!(e.contains(command), "{e}");
        }
        // The rules need no tables.
        let show = ok(get_position(addr, &format!("/api/{game}/show"), position));
        assert_eq!(show["position"], position);
        error(
            &get_position(addr, &format!("/api/{game}/probe"), "not a position"),
            400,
            "bad-request",
        );
    }
    error(&get(addr, "/api/six/stats"), 404, "no-tables");
    error(&get(addr, "/api/six/stats?x=1"), 400, "bad-request");
}

#[test]
fn move_lists_replay_and_best_has_the_fast_style() {
    let addr = server();
    // Placements on Six's board, applied here by hand (points in reading
    // order a5 c5 e5 …).
    let answer = ok(get(
        addr,
        "/api/six/replay?position=................%20w%206%206&moves=a5%20c5%20e5",
    ));
    assert_eq!(
        answer["positions"],
        serde_json::json!([
            "................ w 6 6",
            "W............... b 5 6",
            "WB.............. w 5 5",
            "WBW............. b 4 5"
        ])
    );
    let e = error(
        &get(
            addr,
            "/api/six/replay?position=................%20w%206%206&moves=a5%20a5",
        ),
        400,
        "bad-request",
    );
    assert!(e.starts_with("move 2"), "{e}");
    let start = "................ w 6 6";
    let fast = ok(get_position(addr, "/api/six/best", start));
    assert_eq!(fast["policy"], "fast", "{fast}");
    let same = ok(get(
        addr,
        &format!("/api/six/best?position={}&policy=fast", web::encode(start)),
    ));
    assert_eq!(same["best"], fast["best"]);
    // Every style plays one of the best moves: a move whose value, as the
    // probe gives it, equals the best move's.
    let probe = ok(get_position(addr, "/api/six/probe", start));
    let moves = probe["moves"].as_array().unwrap();
    let best: Vec<&Json> = moves
        .iter()
        .filter(|m| m["value"] == moves[0]["value"])
        .map(|m| &m["move"])
        .collect();
    for style in ["random", "ultra"] {
        for seed in [1, 2, 3] {
            let url = format!(
                "/api/six/best?position={}&policy={style}&seed={seed}",
                web::encode(start)
            );
            let answer = ok(get(addr, &url));
            assert_eq!(answer["policy"], style, "{answer}");
            assert!(
                best.contains(&&answer["best"]["move"]),
                "{answer} not among {best:?}"
            );
        }
    }
    // Morabaraba's placement is searched: the fast style only.
    let e = error(
        &get(
            addr,
            &format!(
                "/api/morabaraba/best?position={}&policy=ultra",
                web::encode("........................ w 4 4")
            ),
        ),
        400,
        "bad-request",
    );
    assert!(e.contains("only fast"), "{e}");
}
