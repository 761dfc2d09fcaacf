//! The JSON API of `solver serve` against the real server on an ephemeral
//! loopback port, with tables generated small in the test: each answer is
//! the CLI's `--json` object for the same question, values agree with
//! independent facts (the published Three Men's Morris result, the
//! tablebases probed directly), and every bad request is a JSON error with
//! its HTTP status.

mod web;

use mill::analysis::{Analyst, SearchOptions};
use mill::movegen::{apply, legal_moves};
use mill::position::Position;
use mill::probe::Tablebases;
use serde_json::{json, Value as Json};
use std::net::SocketAddr;
use std::process::Command;
use std::sync::OnceLock;
use web::{get, get_position, request, Reply, STD};

/// Moving-phase positions with at most 7 stones (3-3, 3-4, 4-3).
const MOVING: [&str; 4] = [
    "W.W..B...B.W....B....... w 0 0",
    "W.W..B...B.W....B....... b 0 0",
    "WB.W...B.....W.B.......B b 0 0",
    "..W....W..B...B..W.B...B w 0 0",
];

fn server() -> SocketAddr {
    static ADDR: OnceLock<SocketAddr> = OnceLock::new();
    *ADDR.get_or_init(|| web::start(web::config(web::tables(7))))
}

/// `solver <args> --json` as JSON.
fn cli(args: &[&str]) -> Json {
    let out = Command::new(env!("CARGO_BIN_EXE_solver"))
        .args(args)
        .output()
        .expect("run solver");
    assert!(
        out.status.success(),
        "solver {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("CLI JSON")
}

fn ok(reply: Reply) -> Json {
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert!(reply.content_type.starts_with("application/json"));
    reply.json()
}

fn error(reply: &Reply, status: u16, kind: &str) -> String {
    assert_eq!(reply.status, status, "{}", reply.body);
    let j = reply.json();
    assert_eq!(j["kind"], kind, "{j}");
    let message = j["error"].as_str().expect("an error message").to_string();
    assert!(!message.is_empty() && !message.contains('\n'));
    message
}

#[test]
fn nine_probe_is_the_cli_object_and_agrees_with_the_tables() {
    let addr = server();
    let dir = web::tables(7).to_str().unwrap();
    let tb = Tablebases::open(web::tables(7), STD).unwrap();
    for text in MOVING {
        let api = ok(get_position(addr, "/api/nine/probe", text));
        let by_cli = cli(&["nine", "probe", "--dir", dir, "--json", text]);
        assert_eq!(api, by_cli, "{text}");
        let pos: Position = text.parse().unwrap();
        let lib = Analyst::new(&tb, SearchOptions::default())
            .analyse(&pos)
            .unwrap()
            .to_json();
        assert_eq!(api, lib);
        // Independently of the analysis: the value is the table's, and
        // every legal move is listed once with the table's value of the
        // position after it.
        let v = tb.probe(&pos).unwrap();
        assert_eq!(api["value"], v.outcome().as_str());
        assert_eq!(api["dtc"], json!(v.distance()));
        let moves = api["moves"].as_array().unwrap();
        assert_eq!(moves.len(), legal_moves(&pos, STD).len());
        for m in moves {
            let mv = mill::notation::parse_move(&pos, STD, m["move"].as_str().unwrap()).unwrap();
            let child = tb.probe(&apply(&pos, mv)).unwrap();
            let expected = match child.outcome() {
                tablebase::Outcome::Win => "loss",
                tablebase::Outcome::Loss => "win",
                tablebase::Outcome::Draw => "draw",
            };
            assert_eq!(m["value"], expected, "{text}: {m}");
        }
    }
}

#[test]
fn nine_placement_probe_goes_through_the_search() {
    let addr = server();
    let dir = web::tables(7).to_str().unwrap();
    // Three stones each in all: only the 3-3 table is reachable.
    let text = "W.W......B.B............ w 1 1";
    let api = ok(get_position(addr, "/api/nine/probe", text));
    assert_eq!(api["source"], "search");
    let by_cli = cli(&["nine", "probe", "--dir", dir, "--json", text]);
    assert_eq!(api, by_cli);
    let best = ok(get_position(addr, "/api/nine/best", text));
    assert_eq!(best["best"]["value"], api["value"]);
}

#[test]
fn nine_best_show_and_stats() {
    let addr = server();
    let dir = web::tables(7).to_str().unwrap();
    for text in MOVING {
        let probe = ok(get_position(addr, "/api/nine/probe", text));
        let best = ok(get_position(addr, "/api/nine/best", text));
        assert_eq!(best["best"], probe["moves"][0], "{text}");
        let show = ok(get_position(addr, "/api/nine/show", text));
        assert_eq!(show, cli(&["nine", "show", "--json", text]));
    }
    let stats = ok(get(addr, "/api/nine/stats"));
    assert_eq!(stats, cli(&["nine", "stats", "--dir", dir, "--json"]));
    assert_eq!(stats["totals"]["subspaces"], 3);
}

#[test]
fn three_probe_is_the_cli_object_and_the_centre_wins() {
    let addr = server();
    for text in ["......... w 3 3", "W...B.... w 2 2", "WB.BW.W.B b 0 0"] {
        let api = ok(get_position(addr, "/api/three/probe", text));
        assert_eq!(api, cli(&["three", "probe", "--json", text]));
    }
    // Published: the first player wins, and only by opening in the centre.
    let start = ok(get_position(addr, "/api/three/probe", "......... w 3 3"));
    assert_eq!(start["value"], "win");
    for m in start["moves"].as_array().unwrap() {
        let centre = m["move"] == "b2";
        assert_eq!(m["value"] == "win", centre, "{m}");
    }
    let best = ok(get_position(addr, "/api/three/best", "......... w 3 3"));
    assert_eq!(best["best"]["move"], "b2");
    let stats = ok(get(addr, "/api/three/stats"));
    let solved = cli(&["three", "solve", "--json"]);
    for key in [
        "value",
        "plies",
        "first_moves",
        "positions",
        "wins",
        "losses",
        "draws",
    ] {
        assert_eq!(stats[key], solved[key], "{key}");
    }
}

#[test]
fn toguz_search_is_capped_and_shaped_like_the_cli() {
    let addr = server();
    let start = "9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 w 0,0 -,-";
    let api = ok(get(
        addr,
        &format!("/api/toguz/search?position={}&time=0.3", web::encode(start)),
    ));
    let by_cli = cli(&["toguz", "search", "start", "--time", "0.3", "--json"]);
    let keys = |j: &Json| j.as_object().unwrap().keys().cloned().collect::<Vec<_>>();
    assert_eq!(keys(&api), keys(&by_cli));
    assert_eq!(api["position"], start);
    let best = api["best"].as_u64().unwrap();
    assert!((1..=9).contains(&best));
    assert!(api["seconds"].as_f64().unwrap() < 1.5, "{}", api["seconds"]);
    let show = ok(get_position(addr, "/api/toguz/show", start));
    let holes: Vec<u64> = show["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["hole"].as_u64().unwrap())
        .collect();
    assert_eq!(holes, (1..=9).collect::<Vec<_>>());
    // docs/rules.md: the first stone goes back into the emptied hole, so hole 1's
    // nine stones end in White's hole 9 (no capture on one's own side).
    assert_eq!(show["moves"][0]["move"], "19");
    assert_eq!(
        show["moves"][0]["after"],
        "1,10,10,10,10,10,10,10,10/9,9,9,9,9,9,9,9,9 b 0,0 -,-"
    );
    // Above the server's cap (2 s in the tests).
    let r = get(
        addr,
        &format!("/api/toguz/search?position={}&time=5", web::encode(start)),
    );
    assert!(error(&r, 400, "bad-request").contains("at most 2"));
    for bad in ["0", "-1", "nan", "inf", "x"] {
        let r = get(
            addr,
            &format!("/api/toguz/search?position=start&time={bad}"),
        );
        error(&r, 400, "bad-request");
    }
}

#[test]
fn errors_are_json_with_a_status() {
    let addr = server();
    let e = error(&get(addr, "/api/nine/probe"), 400, "bad-request");
    assert!(e.contains("position"), "{e}");
    let e = error(
        &get_position(addr, "/api/nine/probe", "WWW w 0 0"),
        400,
        "bad-request",
    );
    assert!(e.starts_with("bad position"), "{e}");
    error(
        &get(addr, "/api/nine/probe?position=x&unknown=1"),
        400,
        "bad-request",
    );
    // Four against four needs the 4-4 table, which is not generated.
    let e = error(
        &get_position(addr, "/api/nine/probe", "WWB.W.B..B.W....B....... w 0 0"),
        404,
        "missing-table",
    );
    assert!(e.contains("nine-flying-4-4"), "{e}");
    assert!(
        !e.contains(web::tables(7).to_str().unwrap()),
        "leaks the directory: {e}"
    );
    // The empty board needs every table.
    error(
        &get_position(addr, "/api/nine/probe", "........................ w 9 9"),
        404,
        "missing-table",
    );
    error(
        &get_position(addr, "/api/three/probe", "WWW...... w 0 3"),
        400,
        "bad-request",
    );
    error(
        &get_position(addr, "/api/toguz/show", "9,9/9 w 0,0 -,-"),
        400,
        "bad-request",
    );
    let over = "0,0,0,0,0,0,0,0,0/1,0,0,0,0,0,0,0,0 w 82,79 -,-";
    error(
        &get_position(addr, "/api/toguz/search", over),
        400,
        "bad-request",
    );
    error(&get(addr, "/api/nine/nothing"), 404, "not-found");
    error(&get(addr, "/etc/passwd"), 404, "not-found");
    error(
        &request(addr, "POST", "/api/nine/probe"),
        405,
        "method-not-allowed",
    );
    error(&request(addr, "DELETE", "/"), 405, "method-not-allowed");
    let long = format!("/api/nine/probe?position={}", "W".repeat(3000));
    error(&get(addr, &long), 414, "too-long");
    let long = format!("/api/nine/probe?position={}", "W".repeat(300));
    error(&get(addr, &long), 400, "bad-request");
}

#[test]
fn without_tables_the_nine_api_says_so_and_the_rest_works() {
    let dir = std::env::temp_dir().join(format!("web-no-tables-{}", std::process::id()));
    let addr = web::start(web::config(&dir));
    let e = error(
        &get_position(addr, "/api/nine/probe", MOVING[0]),
        404,
        "no-tables",
    );
    assert!(e.contains("solver nine generate"), "{e}");
    error(&get(addr, "/api/nine/stats"), 404, "no-tables");
    ok(get_position(addr, "/api/nine/show", MOVING[0]));
    ok(get_position(addr, "/api/three/probe", "......... w 3 3"));
}

#[test]
fn the_page_and_the_board_pictures() {
    let addr = server();
    let page = get(addr, "/");
    assert_eq!(page.status, 200);
    assert!(page.content_type.starts_with("text/html"));
    assert!(page.body.contains("/app.js"));
    let script = get(addr, "/app.js");
    assert!(script.content_type.starts_with("text/javascript"));
    assert!(get(addr, "/style.css").content_type.starts_with("text/css"));
    let svg = get_position(addr, "/api/nine/svg", MOVING[0]);
    assert_eq!(svg.content_type, "image/svg+xml");
    assert_eq!(svg.body.matches("class=\"stone white\"").count(), 3);
    assert_eq!(svg.body.matches("data-point=").count(), 24);
    // `nine show --svg` writes the same picture.
    let file = std::env::temp_dir().join(format!("web-show-{}.svg", std::process::id()));
    let out = Command::new(env!("CARGO_BIN_EXE_solver"))
        .args(["nine", "show", "--svg"])
        .arg(&file)
        .arg(MOVING[0])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(std::fs::read_to_string(&file).unwrap(), svg.body);
    let three = get_position(addr, "/api/three/svg", "W...B.... w 2 2");
    let out = Command::new(env!("CARGO_BIN_EXE_solver"))
        .args(["three", "show", "--svg"])
        .arg(&file)
        .arg("W...B.... w 2 2")
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(std::fs::read_to_string(&file).unwrap(), three.body);
    let _ = std::fs::remove_file(&file);
}

#[test]
fn concurrent_probes_all_answer() {
    let addr = server();
    let expected: Vec<Json> = MOVING
        .iter()
        .map(|t| ok(get_position(addr, "/api/nine/probe", t)))
        .collect();
    std::thread::scope(|s| {
        for i in 0..16 {
            let expected = &expected;
            s.spawn(move || {
                for k in 0..20 {
                    let j = (i + k) % MOVING.len();
                    assert_eq!(
                        ok(get_position(addr, "/api/nine/probe", MOVING[j])),
                        expected[j]
                    );
                }
            });
        }
    });
}
