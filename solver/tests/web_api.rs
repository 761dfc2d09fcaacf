//! The JSON API of `solver serve` against the real server on an ephemeral
//! loopback port, with tables generated small in the test: each answer is
//! the CLI's `--json` object for the same question, values agree with
//! independent facts (the published Three Men's Morris result, the
//! tablebases probed directly), and every bad request is a JSON error with
//! its HTTP status.

mod web;

use mill::games::nine::files::file_name;
use mill::probe::analysis::{Analyst, SearchOptions};
use mill::probe::nine::Tablebases;
use mill::rules::board::Nine;
use mill::rules::legal_moves;
use mill::rules::position::Position;
use mill::tables::keys::Subspace;
use serde_json::{json, Value as Json};
use server::TableMemory;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::Command;
use std::sync::OnceLock;
use std::time::{Duration, Instant};
use tablebase::format::HEADER_LEN;
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
        assert_eq!(moves.len(), legal_moves::<Nine>(&pos, STD).len());
        for m in moves {
            let mv = mill::rules::notation::parse_move::<mill::rules::board::Nine>(
                &pos,
                STD,
                m["move"].as_str().unwrap(),
            )
            .unwrap();
            let child = tb.probe(&pos.apply(mv)).unwrap();
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

/// Placement positions the placement sectors hold are read from them by
/// many requests at once (the blocking pool), not queued for the single
/// search worker (whose queue of 4 would answer most of them 503): the
/// 3-stone game's tables, 16 clients, every answer the CLI's.
#[test]
fn placement_probes_from_tables_answer_concurrently() {
    let dir = std::env::temp_dir().join(format!("web-placement-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let d = dir.to_str().unwrap();
    let made = Command::new(env!("CARGO_BIN_EXE_solver"))
        .args([
            "nine",
            "generate",
            "--stones",
            "3",
            "--placement",
            "--quiet",
            "--dir",
            d,
        ])
        .status()
        .expect("run solver");
    assert!(made.success());
    let texts = [
        "W.W......B.B............ w 1 1",
        "W.........B............. w 2 2",
        "........................ w 3 3",
        "W.........B.......W..... b 1 2",
    ];
    let expected: Vec<Json> = texts
        .iter()
        .map(|t| cli(&["nine", "probe", "--dir", d, "--json", t]))
        .collect();
    for e in &expected {
        assert_eq!(e["source"], "tables", "{e}");
    }
    // The default memory mode (sectors read on the blocking pool), then
    // `values`, where the second round is answered in place once every
    // sector is in memory (`Tablebases::resident`).
    let mut addr = None;
    for memory in [TableMemory::Outcomes, TableMemory::Values] {
        let mut config = web::config(&dir);
        config.memory = memory;
        let server = web::start(config);
        for _round in 0..2 {
            std::thread::scope(|s| {
                for i in 0..16 {
                    let (texts, expected) = (&texts, &expected);
                    s.spawn(move || {
                        for k in 0..10 {
                            let j = (i + k) % texts.len();
                            let probe = ok(get_position(server, "/api/nine/probe", texts[j]));
                            assert_eq!(probe, expected[j], "{memory:?}");
                            let best = ok(get_position(server, "/api/nine/best", texts[j]));
                            assert_eq!(best["best"]["move"], expected[j]["moves"][0]["move"]);
                        }
                    });
                }
            });
        }
        addr = Some(server);
    }
    let addr = addr.expect("a server");
    // The stats answer is kept while the directory's table files stay the
    // same, and follows them when they change.
    let rows = |j: &Json, kind: &str| {
        j["tables"]
            .as_array()
            .map_or(0, |t| t.iter().filter(|r| r["kind"] == kind).count())
    };
    let before = ok(get(addr, "/api/nine/stats"));
    assert_eq!(ok(get(addr, "/api/nine/stats")), before);
    let sectors = rows(&before, "placement");
    assert!(sectors > 0 && rows(&before, "moving") > 0, "{before}");
    let gone = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.to_string_lossy().ends_with("-1-0.tb"))
        .expect("a placement sector file");
    std::fs::remove_file(&gone).unwrap();
    let after = ok(get(addr, "/api/nine/stats"));
    assert_eq!(rows(&after, "placement"), sectors - 1, "{after}");
    let _ = std::fs::remove_dir_all(&dir);
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
    assert_eq!(stats["by_kind"]["moving"]["tables"], 3);
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
    // Served as every board is: `show` lists the probe's moves, `replay`
    // plays them, `best` has every board's keys.
    assert_eq!(best["best"]["dtc"], start["dtc"]);
    let text = "WB.BW.W.B b 0 0";
    let shown = ok(get_position(addr, "/api/three/show", text));
    let probed = ok(get_position(addr, "/api/three/probe", text));
    let mut listed: Vec<&Json> = probed["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| &m["move"])
        .collect();
    let mut shown_moves: Vec<&Json> = shown["moves"].as_array().unwrap().iter().collect();
    listed.sort_by_key(|m| m.to_string());
    shown_moves.sort_by_key(|m| m.to_string());
    assert_eq!(shown_moves, listed);
    assert_eq!(shown["to_move"], "black");
    let replay = ok(get(
        addr,
        &format!(
            "/api/three/replay?position={}&moves={}",
            web::encode("......... w 3 3"),
            web::encode("b2 a1 c3")
        ),
    ));
    assert_eq!(replay["moves"], json!(["b2", "a1", "c3"]));
    // By hand: White on c3 and b2, Black on a1 (reading order a3 b3 c3 a2
    // b2 c2 a1 b1 c1), Black to move, 1 and 2 stones in hand.
    assert_eq!(replay["positions"][3], "..W.W.B.. b 1 2");
}

/// A Toguz search whose client closes the connection stops: with one
/// search slot, a 10 s search abandoned after 300 ms does not hold the
/// slot, and the next search answers at once (not after 10 s).
#[test]
fn an_abandoned_toguz_search_frees_its_slot() {
    let addr = web::start(server::Config {
        toguz_max_time: Duration::from_secs(10),
        toguz_searches: 1,
        ..web::config(web::tables(7))
    });
    let mut stream = TcpStream::connect(addr).unwrap();
    write!(
        stream,
        "GET /api/toguz/search?position=start&time=10 HTTP/1.1\r\nHost: {addr}\r\n\r\n"
    )
    .unwrap();
    std::thread::sleep(Duration::from_millis(300));
    drop(stream);
    let started = Instant::now();
    let answer = ok(get(addr, "/api/toguz/search?position=start&time=0.2"));
    assert!(answer["best"].as_u64().is_some(), "{answer}");
    assert!(
        started.elapsed() < Duration::from_secs(4),
        "the next search waited {:?}",
        started.elapsed()
    );
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
    let said = error(
        &get_position(addr, "/api/toguz/search", over),
        400,
        "bad-request",
    );
    assert_eq!(
        said,
        "the game is over: White has won 82–80, so there is no move to search"
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
    // The favicon is a served file (the CSP allows no `data:` pictures).
    assert!(page
        .body
        .contains("<link rel=\"icon\" href=\"/favicon.svg\""));
    let icon = get(addr, "/favicon.svg");
    assert_eq!(
        (icon.status, icon.content_type.as_str()),
        (200, "image/svg+xml")
    );
    assert!(icon.body.starts_with("<svg"), "{}", icon.body);
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

/// Whether reading `stream` ends (EOF or a reset) rather than timing out;
/// what was read.
fn read_until_closed(stream: &mut TcpStream) -> Result<String, std::io::Error> {
    let mut raw = Vec::new();
    match stream.read_to_end(&mut raw) {
        Ok(_) => Ok(String::from_utf8_lossy(&raw).into_owned()),
        Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => {
            Ok(String::from_utf8_lossy(&raw).into_owned())
        }
        Err(e) => Err(e),
    }
}

#[test]
fn half_sent_requests_and_idle_connections_are_closed() {
    let mut config = web::config(web::tables(7));
    config.header_timeout = Duration::from_secs(1);
    let addr = web::start(config);
    // A request without its closing blank line.
    let mut half = TcpStream::connect(addr).unwrap();
    half.set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let started = Instant::now();
    write!(half, "GET / HTTP/1.1\r\nHost: {addr}\r\n").unwrap();
    let answer = read_until_closed(&mut half).expect("the server closes the connection");
    let waited = started.elapsed();
    assert!(
        waited >= Duration::from_millis(900) && waited < Duration::from_secs(4),
        "closed after {waited:?}"
    );
    // Nothing, or hyper's 408; never the page.
    assert!(
        answer.is_empty() || answer.starts_with("HTTP/1.1 408"),
        "{answer}"
    );
    // A keep-alive connection left idle after an answer.
    let mut idle = TcpStream::connect(addr).unwrap();
    idle.set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    write!(idle, "GET /style.css HTTP/1.1\r\nHost: {addr}\r\n\r\n").unwrap();
    let (status, _) = web::read_response(&mut idle);
    assert_eq!(status, 200);
    let started = Instant::now();
    let rest = read_until_closed(&mut idle).expect("the server closes the idle connection");
    let waited = started.elapsed();
    assert!(
        waited >= Duration::from_millis(900) && waited < Duration::from_secs(4),
        "closed after {waited:?}"
    );
    assert!(
        rest.is_empty() || rest.starts_with("HTTP/1.1 408"),
        "{rest}"
    );
}

#[test]
fn connections_beyond_the_cap_wait_for_a_free_one() {
    let mut config = web::config(web::tables(7));
    config.max_connections = 2;
    config.header_timeout = Duration::from_secs(30);
    let addr = web::start(config);
    let first = TcpStream::connect(addr).unwrap();
    let _second = TcpStream::connect(addr).unwrap();
    std::thread::sleep(Duration::from_millis(200));
    let mut third = TcpStream::connect(addr).unwrap();
    write!(
        third,
        "GET /style.css HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    third
        .set_read_timeout(Some(Duration::from_millis(700)))
        .unwrap();
    let mut byte = [0u8; 1];
    let early = third.read(&mut byte);
    assert!(
        matches!(&early, Err(e) if matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut)),
        "answered beyond the cap: {early:?}"
    );
    // A slot frees: the waiting client is served.
    drop(first);
    let started = Instant::now();
    third
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let (status, body) = web::read_response(&mut third);
    assert_eq!(status, 200);
    assert!(body.contains("body"), "{body}");
    assert!(started.elapsed() < Duration::from_secs(3));
}

#[test]
fn one_client_cannot_take_every_connection() {
    let mut config = web::config(web::tables(7));
    config.max_connections = 16;
    config.max_client_connections = 2;
    config.header_timeout = Duration::from_secs(30);
    let addr = web::start(config);
    let first = TcpStream::connect(addr).unwrap();
    let _second = TcpStream::connect(addr).unwrap();
    std::thread::sleep(Duration::from_millis(200));
    // A third connection from the same address is closed at once.
    let mut third = TcpStream::connect(addr).unwrap();
    let _ = write!(
        third,
        "GET /style.css HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    );
    third
        .set_read_timeout(Some(Duration::from_secs(5)))
        .unwrap();
    let mut byte = [0u8; 1];
    let closed = third.read(&mut byte);
    assert!(
        matches!(&closed, Ok(0))
            || matches!(&closed, Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset),
        "a connection beyond the client's share was served: {closed:?}"
    );
    // One of its connections closes: it is served again.
    drop(first);
    std::thread::sleep(Duration::from_millis(200));
    let reply = get(addr, "/style.css");
    assert_eq!(reply.status, 200);
}

/// A copy of the small tables with the 3-3 table's blocks and the 3-4
/// table's header damaged (bytes flipped, as `nine_damage.rs` does).
fn damaged_tables() -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("web-damaged-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for entry in std::fs::read_dir(web::tables(7)).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), dir.join(entry.file_name())).unwrap();
    }
    let flip = |sub: Subspace, at: &dyn Fn(usize) -> Vec<usize>| {
        let file = file_name(&dir, STD, sub);
        let mut bytes = std::fs::read(&file).unwrap();
        for i in at(bytes.len()) {
            bytes[i] ^= 0x5a;
        }
        std::fs::write(&file, bytes).unwrap();
    };
    // Past the header: the compressed blocks.
    flip(Subspace::new(3, 3), &|n| {
        (0..16)
            .map(|k| HEADER_LEN + 64 + k * (n - HEADER_LEN - 128) / 16)
            .collect()
    });
    // Inside the header.
    flip(Subspace::new(3, 4), &|_| vec![20, 21]);
    dir
}

#[test]
fn damaged_tables_are_named_without_the_servers_path() {
    let dir = damaged_tables();
    let addr = web::start(web::config(&dir));
    let full = dir.canonicalize().unwrap();
    let leaks = |e: &str| {
        e.contains(dir.to_str().unwrap())
            || e.contains(full.to_str().unwrap())
            || e.contains(std::env::temp_dir().to_str().unwrap())
    };
    // White to move with three stones each: the 3-3 table.
    let e = error(
        &get_position(addr, "/api/nine/probe", MOVING[0]),
        500,
        "damaged-table",
    );
    assert!(e.contains("nine-flying-3-3.tb"), "{e}");
    assert!(!leaks(&e), "leaks the server's path: {e}");
    let e = error(
        &get_position(addr, "/api/nine/best", MOVING[0]),
        500,
        "damaged-table",
    );
    assert!(!leaks(&e), "leaks the server's path: {e}");
    // Stats: the damaged header is its row's error, the rest is counted.
    let stats = ok(get(addr, "/api/nine/stats"));
    let rows = stats["tables"].as_array().unwrap();
    assert_eq!(rows.len(), 3, "{stats}");
    let broken: Vec<&Json> = rows.iter().filter(|r| r.get("error").is_some()).collect();
    assert_eq!(broken.len(), 1, "{stats}");
    assert_eq!(
        (&broken[0]["white"], &broken[0]["black"]),
        (&json!(3), &json!(4))
    );
    let e = broken[0]["error"].as_str().unwrap();
    assert!(e.contains("nine-flying-3-4.tb"), "{e}");
    assert!(!leaks(e), "leaks the server's path: {e}");
    assert_eq!(stats["by_kind"]["moving"]["tables"], 2);
    // The 3-3 table's header is intact: its row is counted.
    for r in rows.iter().filter(|r| r.get("error").is_none()) {
        assert!(r["positions"].as_u64().unwrap() > 0, "{r}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn unknown_and_repeated_parameters_are_refused_everywhere() {
    let addr = server();
    let nine = web::encode(MOVING[0]);
    let three = web::encode("......... w 3 3");
    let toguz = web::encode("9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 w 0,0 -,-");
    for (path, query) in [
        ("/api/nine/probe", format!("position={nine}")),
        ("/api/nine/best", format!("position={nine}")),
        ("/api/nine/show", format!("position={nine}")),
        ("/api/nine/svg", format!("position={nine}")),
        ("/api/nine/stats", String::new()),
        ("/api/three/probe", format!("position={three}")),
        ("/api/three/best", format!("position={three}")),
        ("/api/three/svg", format!("position={three}")),
        ("/api/three/stats", String::new()),
        ("/api/toguz/show", format!("position={toguz}")),
        ("/api/toguz/search", format!("position={toguz}&time=0.1")),
        (
            "/api/nine/replay",
            format!("position={nine}&moves=c4-d7xa4"),
        ),
        ("/api/three/replay", format!("position={three}&moves=b2")),
        ("/api/toguz/replay", "record=7%208".to_string()),
        ("/api/toguz/review", "record=7%208&time=0.01".to_string()),
    ] {
        let sep = if query.is_empty() { "" } else { "&" };
        // The request as it is answers; with an extra parameter it is a 400.
        let r = get(addr, &format!("{path}?{query}"));
        assert_eq!(r.status, 200, "{path}?{query}: {}", r.body);
        for extra in ["foo=1", "time=5", "position=x"] {
            if path.starts_with("/api/toguz/re") && extra == "position=x" {
                continue; // `position` is theirs (the start of the moves)
            }
            if ["/api/toguz/search", "/api/toguz/review"].contains(&path) && extra == "time=5" {
                continue; // `time` is their own parameter (repeated below)
            }
            let target = format!("{path}?{query}{sep}{extra}");
            let e = error(&get(addr, &target), 400, "bad-request");
            assert!(
                e.contains("unknown field") || e.contains("duplicate field"),
                "{target}: {e}"
            );
        }
    }
    let e = error(
        &get(
            addr,
            &format!("/api/toguz/search?position={toguz}&time=0.1&time=0.2"),
        ),
        400,
        "bad-request",
    );
    assert!(e.contains("duplicate field"), "{e}");
}

#[test]
fn toguz_exact_counts_holes_from_one_and_says_win_draw_loss() {
    let addr = server();
    // White's only stones are the two in hole 9: its only move, and the
    // endgame is solved at once.
    let text = "0,0,0,0,0,0,0,0,2/0,0,0,0,0,0,0,0,2 w 79,79 -,-";
    let api = ok(get(
        addr,
        &format!("/api/toguz/search?position={}&time=0.2", web::encode(text)),
    ));
    assert_eq!(api["best"], 9, "{api}");
    let exact = &api["exact"];
    assert!(exact.is_object(), "no exact result: {api}");
    assert_eq!(exact["best"], 9, "{api}");
    let result = exact["result"].as_str().unwrap();
    assert!(["win", "draw", "loss"].contains(&result), "{api}");
}

#[test]
fn every_answer_has_the_security_headers() {
    let addr = server();
    let nine = web::encode(MOVING[0]);
    for target in [
        "/".to_string(),
        "/app.js".into(),
        format!("/api/nine/probe?position={nine}"),
        format!("/api/nine/svg?position={nine}"),
        "/api/nine/probe".into(),
        "/nothing".into(),
    ] {
        let r = get(addr, &target);
        let csp = r.header("content-security-policy").unwrap_or_default();
        for directive in [
            "default-src 'self'",
            "script-src 'self'",
            "style-src 'self'",
            "frame-ancestors 'none'",
        ] {
            assert!(csp.contains(directive), "{target}: CSP `{csp}`");
        }
        assert!(!csp.contains("unsafe-inline"), "{target}: {csp}");
        assert_eq!(
            r.header("x-frame-options").as_deref(),
            Some("DENY"),
            "{target}"
        );
        assert_eq!(
            r.header("referrer-policy").as_deref(),
            Some("no-referrer"),
            "{target}"
        );
        assert_eq!(
            r.header("x-content-type-options").as_deref(),
            Some("nosniff"),
            "{target}"
        );
    }
    // The page fits that policy: no inline script, style or handlers.
    let page = get(addr, "/").body;
    assert!(
        !page.contains("<script>") && !page.contains("<style"),
        "inline code"
    );
    assert!(
        !page.contains(" style=") && !page.contains(" onclick="),
        "inline attributes"
    );
    let script = get(addr, "/app.js").body;
    assert!(
        !script.contains("setAttribute(\"style\""),
        "style attributes"
    );
}

#[test]
fn other_host_names_are_refused_against_dns_rebinding() {
    let addr = server();
    let port = addr.port();
    let target = "/api/three/best?position=.........%20w%203%203";
    for host in [
        format!("localhost:{port}"),
        format!("127.0.0.1:{port}"),
        format!("[::1]:{port}"),
    ] {
        let r = web::request_with_host(addr, "GET", target, Some(&host));
        assert_eq!(r.status, 200, "{host}: {}", r.body);
    }
    for host in [
        "evil.example".to_string(),
        format!("evil.example:{port}"),
        format!("localhost:{}", port.wrapping_add(1)),
        format!("localhost.evil.example:{port}"),
        "127.0.0.1".into(),
    ] {
        let r = web::request_with_host(addr, "GET", target, Some(&host));
        error(&r, 403, "bad-host");
        assert!(r.header("content-security-policy").is_some());
    }
    let r = web::request_with_host(addr, "GET", target, None);
    error(&r, 403, "bad-host");
    // `--allow-host`: a reverse proxy's name, with any port.
    let mut config = web::config(web::tables(7));
    config.allow_hosts = vec!["board.example".into()];
    let proxied = web::start(config);
    for host in ["board.example", "board.example:443", "Board.Example:8443"] {
        let r = web::request_with_host(proxied, "GET", target, Some(host));
        assert_eq!(r.status, 200, "{host}: {}", r.body);
    }
    let r = web::request_with_host(proxied, "GET", target, Some("other.example"));
    error(&r, 403, "bad-host");
}

/// Every position of a move list, by the library's rules.
fn nine_line(start: &str, moves: &[&str]) -> Vec<String> {
    let mut pos: Position = start.parse().unwrap();
    let mut out = vec![pos.to_string()];
    for m in moves {
        pos = pos.apply(mill::rules::notation::parse_move::<Nine>(&pos, STD, m).unwrap());
        out.push(pos.to_string());
    }
    out
}

#[test]
fn the_perfect_players_styles_play_a_best_move() {
    let addr = server();
    let tb = Tablebases::open(web::tables(7), STD).unwrap();
    for text in MOVING {
        let pos: Position = text.parse().unwrap();
        let values = tb.best_moves(&pos).unwrap();
        let best = values[0].1;
        for policy in ["fast", "random", "ultra"] {
            let mut chosen = std::collections::BTreeSet::new();
            for seed in 0..6u64 {
                let target = format!(
                    "/api/nine/best?position={}&policy={policy}&seed={seed}",
                    web::encode(text)
                );
                let answer = ok(get(addr, &target));
                assert_eq!(answer["policy"], policy, "{answer}");
                let mv = answer["best"]["move"].as_str().unwrap().to_string();
                let value = values
                    .iter()
                    .find(|(m, _)| m.to_string() == mv)
                    .unwrap_or_else(|| panic!("{text}: {mv} is not a legal move"))
                    .1;
                assert_eq!(value, best, "{text} {policy}: {mv} is not a best move");
                // The same seed, the same move.
                assert_eq!(ok(get(addr, &target))["best"]["move"], json!(mv));
                chosen.insert(mv);
            }
            if policy == "fast" {
                assert_eq!(chosen.len(), 1, "{text}: fast is deterministic");
            }
        }
    }
    // Three Men's Morris: only the centre wins from the empty board
    // (docs/three.md), whatever the style.
    for policy in ["fast", "random", "ultra"] {
        for seed in [1, 2, 3] {
            let answer = ok(get(
                addr,
                &format!(
                    "/api/three/best?position=.........%20w%203%203&policy={policy}&seed={seed}"
                ),
            ));
            assert_eq!(answer["best"]["move"], "b2", "{policy}: {answer}");
            assert_eq!(answer["best"]["value"], "win");
        }
    }
    // A placement position only the search answers: the search's move,
    // said to be `fast`'s.
    let start = web::encode("........................ w 3 3");
    let answer = ok(get(
        addr,
        &format!("/api/nine/best?position={start}&policy=ultra&seed=1"),
    ));
    assert_eq!(answer["policy"], "fast", "{answer}");
    // Anything else is a 400.
    let nine = web::encode(MOVING[0]);
    for query in [
        "policy=secval",
        "policy=ULTRA",
        "policy=ultra:2",
        "policy=",
        "policy=fast&seed=x",
        "policy=random&seed=-1",
        "policy=random&seed=1e3",
        "policy=random&seed=18446744073709551616",
    ] {
        let target = format!("/api/nine/best?position={nine}&{query}");
        let e = error(&get(addr, &target), 400, "bad-request");
        assert!(e.contains("policy") || e.contains("seed"), "{target}: {e}");
    }
    let e = error(
        &get(
            addr,
            &format!("/api/nine/best?position={nine}&policy=fast&policy=ultra"),
        ),
        400,
        "bad-request",
    );
    assert!(e.contains("duplicate field"), "{e}");
}

#[test]
fn move_lists_replay_by_the_rules() {
    let addr = server();
    let moves = ["d6", "d2", "b4", "f4", "d7", "g1", "d5xg1"];
    let start = "........................ w 4 3";
    let target = format!(
        "/api/nine/replay?position={}&moves={}",
        web::encode(start),
        web::encode(&moves.join(" "))
    );
    let answer = ok(get(addr, &target));
    assert_eq!(answer["positions"], json!(nine_line(start, &moves)));
    assert_eq!(answer["moves"], json!(moves));
    // The first move that is not legal is named.
    for (list, says) in [
        ("d6 d6", "move 2 `d6`"),
        ("d6 d2 b4 f4 d7 g1 d5", "move 7 `d5`"),
        ("d6 zz", "move 2 `zz`"),
    ] {
        let target = format!(
            "/api/nine/replay?position={}&moves={}",
            web::encode(start),
            web::encode(list)
        );
        let e = error(&get(addr, &target), 400, "bad-request");
        assert!(e.starts_with(says), "{list}: {e}");
    }
    let e = error(
        &get(
            addr,
            &format!("/api/nine/replay?position={}", web::encode(start)),
        ),
        400,
        "bad-request",
    );
    assert!(e.contains("`moves`"), "{e}");
    // Three Men's Morris: the centre, then a corner.
    let answer = ok(get(
        addr,
        "/api/three/replay?position=.........%20w%203%203&moves=b2%20a1",
    ));
    assert_eq!(
        answer["positions"],
        json!(["......... w 3 3", "....W.... b 2 3", "....W.B.. w 2 2"])
    );
}

#[test]
fn toguz_multipv_scores_every_legal_hole() {
    let addr = server();
    let answer = ok(get(
        addr,
        "/api/toguz/search?position=start&time=0.3&multipv=all",
    ));
    let lines = answer["lines"].as_array().expect("lines");
    let mut holes: Vec<u64> = lines.iter().map(|l| l["hole"].as_u64().unwrap()).collect();
    assert_eq!(lines[0]["hole"], answer["best"], "{answer}");
    assert_eq!(lines[0]["score"], answer["score"]);
    let scores: Vec<i64> = lines.iter().map(|l| l["score"].as_i64().unwrap()).collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
    holes.sort_unstable();
    assert_eq!(holes, (1..=9).collect::<Vec<u64>>());
    let three = ok(get(
        addr,
        "/api/toguz/search?position=start&time=0.2&multipv=3",
    ));
    assert_eq!(three["lines"].as_array().unwrap().len(), 3);
    for bad in ["0", "10", "x", "-1", "all9"] {
        let e = error(
            &get(
                addr,
                &format!("/api/toguz/search?position=start&time=0.1&multipv={bad}"),
            ),
            400,
            "bad-request",
        );
        assert!(e.contains("multipv"), "{e}");
    }
}

/// The movetext of the `n`th game (1-based) of the shared PlayOK records,
/// or `None` when the data is absent.
fn playok_game(n: usize) -> Option<(toguz::pgn::Game, String)> {
    let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/data/toguz/playok-games.pgn");
    let Ok(text) = std::fs::read_to_string(&path) else {
        println!("skipping: {} is absent", path.display());
        return None;
    };
    let game = toguz::pgn::parse(&text).unwrap().swap_remove(n - 1);
    let movetext = game.moves.join(" ");
    Some((game, movetext))
}

#[test]
fn toguz_records_replay_and_review() {
    let addr = server();
    let Some((game, movetext)) = playok_game(2) else {
        return;
    };
    let replayed = toguz::pgn::replay(&game).unwrap();
    let target = format!("/api/toguz/replay?record={}", web::encode(&movetext));
    let answer = ok(get(addr, &target));
    let positions = answer["positions"].as_array().unwrap();
    assert_eq!(positions.len(), game.moves.len() + 1);
    assert_eq!(positions[0], toguz::Board::start().to_string());
    assert_eq!(
        positions.last().unwrap(),
        &json!(replayed.board.to_string())
    );
    let notation: Vec<&Json> = answer["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| &m["move"])
        .collect();
    assert_eq!(notation, game.moves.iter().collect::<Vec<_>>());
    // Holes alone replay to the same positions.
    let holes: Vec<String> = game.moves.iter().map(|m| m[..1].to_string()).collect();
    let by_holes = ok(get(
        addr,
        &format!("/api/toguz/replay?record={}", web::encode(&holes.join(" "))),
    ));
    assert_eq!(by_holes["positions"], answer["positions"]);
    // A wrong kazan total is named by its move.
    let mut wrong = game.moves.clone();
    let i = wrong.iter().position(|m| m.contains('(')).unwrap();
    wrong[i] = format!("{}(999)", &wrong[i][..2]);
    let e = error(
        &get(
            addr,
            &format!("/api/toguz/replay?record={}", web::encode(&wrong.join(" "))),
        ),
        400,
        "bad-request",
    );
    assert!(e.starts_with(&format!("move {}", i + 1)), "{e}");
    // The review of the first 16 plies: each move the record's, White's
    // curve through every position, each label by the documented
    // thresholds (docs/toguz.md), every legal hole scored.
    let first = &game.moves[..16];
    let answer = ok(get(
        addr,
        &format!(
            "/api/toguz/review?record={}&time=0.02",
            web::encode(&first.join(" "))
        ),
    ));
    let moves = answer["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 16);
    assert_eq!(answer["positions"].as_array().unwrap().len(), 17);
    assert_eq!(answer["white_curve"].as_array().unwrap().len(), 17);
    let mut board = toguz::Board::start();
    for (m, text) in moves.iter().zip(first) {
        assert_eq!(&m["move"], text);
        let loss = m["loss"].as_f64().unwrap();
        let best = m["best_hole"] == json!(text[..1].parse::<u8>().unwrap());
        let label = if best || loss <= 0.005 {
            "best"
        } else if loss <= 1.0 {
            "good"
        } else if loss <= 3.0 {
            "inaccuracy"
        } else if loss <= 7.0 {
            "mistake"
        } else {
            "blunder"
        };
        assert_eq!(m["label"], label, "{m}");
        let scored: Vec<bool> = m["holes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| !h.is_null())
            .collect();
        let legal: Vec<bool> = (0..9).map(|h| board.is_legal(h)).collect();
        assert_eq!(scored, legal, "{m}");
        board.make(text[..1].parse::<u8>().unwrap() - 1);
    }
    let svg = answer["svg"].as_str().unwrap();
    assert!(
        svg.starts_with("<svg") && svg.contains("data-plot="),
        "{svg}"
    );
    // Too long a review for the server's limit is refused before it runs.
    let e = error(
        &get(
            addr,
            &format!("/api/toguz/review?record={}&time=2", web::encode(&movetext)),
        ),
        400,
        "bad-request",
    );
    assert!(e.contains("limit"), "{e}");
    for bad in ["", "record=1.%2076&time=0", "time=0.1", "record=%5BEvent"] {
        error(
            &get(addr, &format!("/api/toguz/review?{bad}")),
            400,
            "bad-request",
        );
    }
}

/// A game whose `search` positions run a "placement search" that waits
/// for the test's word, and whose other positions answer at once: the
/// server's scheduling seen without timing (`server/games.rs`).
struct Gated {
    /// Sends once a search has started.
    started: std::sync::Mutex<std::sync::mpsc::Sender<()>>,
    /// A search finishes when this has a message.
    release: std::sync::Mutex<std::sync::mpsc::Receiver<()>>,
    /// Searches running now, and the most ever at once.
    running: std::sync::atomic::AtomicUsize,
    most: std::sync::atomic::AtomicUsize,
}

impl mill::MillGame for Gated {
    fn id(&self) -> &'static str {
        "gated"
    }
    fn title(&self) -> &'static str {
        "Gated"
    }
    fn rules(&self) -> mill::RuleSet {
        mill::RuleSet::new(3, true)
    }
    fn start(&self) -> String {
        "table".into()
    }
    fn reading(&self) -> Vec<&'static str> {
        Vec::new()
    }
    fn show(&self, position: &str) -> Result<Json, mill::GameError> {
        Ok(json!({ "position": position }))
    }
    fn searches(&self, position: &str) -> bool {
        position.starts_with("search")
    }
    fn analysis_text_at(&self, position: &str, _plies: u16) -> Result<String, mill::GameError> {
        use std::sync::atomic::Ordering::SeqCst;
        if self.searches(position) {
            let now = self.running.fetch_add(1, SeqCst) + 1;
            self.most.fetch_max(now, SeqCst);
            self.started.lock().unwrap().send(()).unwrap();
            self.release.lock().unwrap().recv().unwrap();
            self.running.fetch_sub(1, SeqCst);
        }
        Ok(json!({ "position": position }).to_string())
    }
    fn best_at(&self, position: &str, plies: u16) -> Result<Json, mill::GameError> {
        self.analyse_at(position, plies)
    }
    fn stats(&self) -> Result<Json, mill::GameError> {
        Ok(json!({}))
    }
    fn svg(&self, _position: &str) -> Result<String, mill::GameError> {
        Ok(String::new())
    }
    fn play_move(&self, position: &str, mv: &str) -> Result<(String, String), mill::GameError> {
        Ok((mv.into(), position.into()))
    }
}

/// Placement searches of a game take turns, at most `server::QUEUE`
/// waiting (the next is `busy` at once), while its table questions
/// answer beside a running search; every waiting search answers in the
/// end.
#[test]
fn searches_take_turns_and_table_questions_go_past_them() {
    use std::sync::atomic::Ordering::SeqCst;
    let (started, on_start) = std::sync::mpsc::channel();
    let (release, on_release) = std::sync::mpsc::channel();
    let game = std::sync::Arc::new(Gated {
        started: std::sync::Mutex::new(started),
        release: std::sync::Mutex::new(on_release),
        running: Default::default(),
        most: Default::default(),
    });
    let dir = std::env::temp_dir().join(format!("web-gated-{}", std::process::id()));
    let config = web::config(&dir);
    let state = server::AppState::with_games(
        &config,
        vec![server::GameState::new(
            game.clone(),
            dir,
            Duration::from_secs(60),
        )],
    )
    .unwrap();
    let addr = web::start_state(state);
    // One search runs...
    let first = std::thread::spawn(move || get_position(addr, "/api/gated/probe", "search 0"));
    on_start.recv_timeout(Duration::from_secs(20)).unwrap();
    // ...the queue fills (waiting requests are not visible to the game:
    // the server is given a second to take them)...
    let queued: Vec<_> = (1..=server::QUEUE)
        .map(|i| {
            let text = format!("search {i}");
            std::thread::spawn(move || get_position(addr, "/api/gated/probe", &text))
        })
        .collect();
    std::thread::sleep(Duration::from_secs(1));
    // ...the next search is turned away at once...
    let e = error(
        &get_position(addr, "/api/gated/probe", "search 9"),
        503,
        "busy",
    );
    assert!(e.contains("Gated"), "{e}");
    // ...and table questions answer while the search runs.
    for _ in 0..3 {
        assert_eq!(
            ok(get_position(addr, "/api/gated/probe", "table"))["position"],
            "table"
        );
    }
    assert_eq!(game.running.load(SeqCst), 1);
    // Release the searches one at a time: every one answers, never two at once.
    for _ in 0..server::QUEUE {
        release.send(()).unwrap();
        on_start.recv_timeout(Duration::from_secs(20)).unwrap();
    }
    release.send(()).unwrap();
    assert_eq!(ok(first.join().unwrap())["position"], "search 0");
    for (i, q) in queued.into_iter().enumerate() {
        assert_eq!(
            ok(q.join().unwrap())["position"],
            format!("search {}", i + 1)
        );
    }
    assert_eq!(game.most.load(SeqCst), 1);
}
