//! `solver nine generate|stats|verify|probe|play|start` end to end: the
//! binary on temporary directories, its JSON against the library and against
//! Malom's sectors, and every error path (one `error:` line on stderr and a
//! non-zero exit).

use mill::index::nine::{self, Subspace};
use mill::malom::{Entry, Sector, SectorId};
use mill::probe::nine::Tablebases;
use mill::rules::board::Nine;
use mill::rules::notation::parse_move;
use mill::rules::position::{Color, Position};
use mill::rules::variant::RuleSet;
use mill::rules::{ending, legal_moves};
use mill::search::PlacementSearch;
use serde_json::Value as Json;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use tablebase::reader::Table;
use tablebase::{Outcome, Value};

const STD: RuleSet = RuleSet::nine(true);

/// White to move wins at once: c4-d7 closes a7-d7-g7 (3 against 3).
const WIN_IN_ONE: &str = "W.W..B...B.W....B....... w 0 0";

struct Run {
    ok: bool,
    /// The exit status (2: the input was wrong; 1: the command failed).
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

fn run_with_stdin(args: &[&str], stdin: Option<&str>) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_solver"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the solver binary runs");
    {
        let mut input = child.stdin.take().unwrap();
        if let Some(text) = stdin {
            // The process may exit before reading everything (`quit`).
            let _ = input.write_all(text.as_bytes());
        }
    }
    let out = child.wait_with_output().unwrap();
    Run {
        ok: out.status.success(),
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

fn run(args: &[&str]) -> Run {
    run_with_stdin(args, None)
}

/// The failure contract: non-zero exit, exactly one stderr line `error: …`.
#[track_caller]
fn assert_error(r: &Run, contains: &[&str]) -> String {
    assert!(!r.ok, "expected a failure; stdout: {}", r.stdout);
    let lines: Vec<&str> = r.stderr.lines().collect();
    assert_eq!(lines.len(), 1, "stderr: {:?}", r.stderr);
    assert!(lines[0].starts_with("error: "), "stderr: {:?}", r.stderr);
    for c in contains {
        assert!(lines[0].contains(c), "{:?} lacks {c:?}", lines[0]);
    }
    lines[0].to_string()
}

/// A temporary directory unique to one test, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("nine-cli-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        TempDir(dir)
    }

    /// A directory holding the tablebases up to 7 stones.
    fn with_tables(name: &str) -> TempDir {
        let d = TempDir::new(name);
        std::fs::create_dir_all(&d.0).unwrap();
        for (file, bytes) in template() {
            std::fs::write(d.0.join(file), bytes).unwrap();
        }
        d
    }

    fn path(&self) -> &Path {
        &self.0
    }

    fn arg(&self) -> &str {
        self.0.to_str().unwrap()
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            if let Ok(m) = std::fs::metadata(&self.0) {
                let mut p = m.permissions();
                p.set_mode(0o755);
                let _ = std::fs::set_permissions(&self.0, p);
            }
        }
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The files `solver nine generate --max-stones 7 --quiet` writes, generated
/// once per test binary (in a directory removed right after).
fn template() -> &'static [(String, Vec<u8>)] {
    static FILES: std::sync::OnceLock<Vec<(String, Vec<u8>)>> = std::sync::OnceLock::new();
    FILES.get_or_init(|| {
        let dir = TempDir::new("template");
        let r = run(&[
            "nine",
            "generate",
            "--dir",
            dir.arg(),
            "--max-stones",
            "7",
            "--quiet",
        ]);
        assert!(r.ok, "generate failed: {}", r.stderr);
        assert_eq!((r.stdout.as_str(), r.stderr.as_str()), ("", ""), "--quiet");
        let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| {
                let e = e.unwrap();
                let name = e.file_name().to_string_lossy().into_owned();
                (name, std::fs::read(e.path()).unwrap())
            })
            .collect();
        files.sort();
        let names: Vec<&str> = files.iter().map(|f| f.0.as_str()).collect();
        assert_eq!(
            names,
            [
                "nine-flying-3-3.tb",
                "nine-flying-3-4.tb",
                "nine-flying-4-3.tb"
            ]
        );
        files
    })
}

fn json(text: &str) -> Json {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

fn malom_dir() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data/malom");
    if dir.join("std.secval").exists() {
        Some(dir)
    } else {
        eprintln!("skipping the Malom comparison: {} is absent", dir.display());
        None
    }
}

#[test]
fn stats_rows_equal_the_file_headers() {
    let dir = TempDir::with_tables("stats");
    let r = run(&["nine", "stats", "--dir", dir.arg(), "--json"]);
    assert!(r.ok, "{}", r.stderr);
    let j = json(&r.stdout);
    assert_eq!(j["rules"], "flying");
    let rows = j["tables"].as_array().unwrap();
    assert_eq!(rows.len(), 3);
    let keys = [
        "black",
        "bytes",
        "draws",
        "kind",
        "longest_loss",
        "longest_win",
        "losses",
        "positions",
        "table",
        "white",
        "wins",
    ];
    let mut sums = [0u64; 5];
    for row in rows {
        let mut got: Vec<&str> = row
            .as_object()
            .unwrap()
            .keys()
            .map(|k| k.as_str())
            .collect();
        got.sort();
        assert_eq!(got, keys, "{row}");
        // Every row is what the library reads in its file's header.
        let (w, b) = (
            row["white"].as_u64().unwrap(),
            row["black"].as_u64().unwrap(),
        );
        let table = Table::open(&dir.path().join(format!("nine-flying-{w}-{b}.tb"))).unwrap();
        let h = table.header();
        assert_eq!(row["positions"], h.positions);
        assert_eq!(row["wins"], h.wins);
        assert_eq!(row["losses"], h.losses);
        assert_eq!(row["draws"], h.draws);
        assert_eq!(row["kind"], "moving");
        assert_eq!(row["table"], h.label);
        assert_eq!(row["longest_win"], h.max_win);
        assert_eq!(row["longest_loss"], h.max_loss);
        assert_eq!(row["bytes"], table.bytes());
        let file_len = std::fs::metadata(table.path()).unwrap().len();
        assert_eq!(row["bytes"], file_len);
        for (s, k) in sums
            .iter_mut()
            .zip(["positions", "wins", "losses", "draws", "bytes"])
        {
            *s += row[k].as_u64().unwrap();
        }
    }
    // The 3-3 row against the published counts (Malom; Gasser 1993 for the
    // longest loss, 26 plies).
    let row33 = rows
        .iter()
        .find(|r| r["white"] == 3 && r["black"] == 3)
        .unwrap();
    let counts = ["wins", "losses", "draws"].map(|k| row33[k].as_u64().unwrap());
    assert_eq!(counts, [140_621, 28_736, 269]);
    assert_eq!(row33["longest_loss"], 26);
    assert_eq!(row33["positions"], 140_621 + 28_736 + 269);
    assert_eq!(j["by_kind"]["moving"]["tables"], 3);
    // The largest game a table belongs to: 4-3 is of the 4-stone game.
    assert_eq!(j["stones"], 4);
    for (s, k) in sums
        .iter()
        .zip(["positions", "wins", "losses", "draws", "bytes"])
    {
        assert_eq!(j[k], *s, "total {k}");
        assert_eq!(j["by_kind"]["moving"][k], *s, "total {k}");
    }
    // The table form has a row per subspace and a total.
    let r = run(&["nine", "stats", "--dir", dir.arg()]);
    assert!(r.ok);
    assert!(r
        .stdout
        .lines()
        .any(|l| l.trim_start().starts_with("3-3") && l.contains("140621") && l.contains("28736")));
    assert!(r.stdout.lines().any(|l| l.trim_start().starts_with("all")));
}

#[test]
fn verify_passes_and_catches_a_damaged_file() {
    let dir = TempDir::with_tables("verify");
    // The text form on 3-3 alone (its own partner, no exits): cheaper.
    let only33 = TempDir::new("verify33");
    std::fs::create_dir_all(only33.path()).unwrap();
    let (name, bytes) = &template()[0];
    std::fs::write(only33.path().join(name), bytes).unwrap();
    let r = run(&["nine", "verify", "--dir", only33.arg(), "--quiet"]);
    assert!(r.ok, "{}", r.stderr);
    assert_eq!(r.stdout, "1 tables verified, 0 mismatches\n");
    assert_eq!(r.stderr, "", "--quiet");
    // All three, as JSON.
    let r = run(&["nine", "verify", "--dir", dir.arg(), "--quiet", "--json"]);
    assert!(r.ok, "{}", r.stderr);
    let j = json(&r.stdout);
    assert_eq!(j["mismatches"], 0);
    let subs = j["results"].as_array().unwrap();
    assert_eq!(subs.len(), 3);
    assert_eq!(j["tables"], 3);
    let checked: u64 = [(3, 3), (3, 4), (4, 3)]
        .iter()
        .map(|&(w, b)| nine::positions(Subspace::new(w, b)))
        .sum();
    assert_eq!(j["checked"], checked);
    for s in subs {
        let sub = Subspace::new(
            s["white"].as_u64().unwrap() as u8,
            s["black"].as_u64().unwrap() as u8,
        );
        assert_eq!(s["checked"], nine::positions(sub), "{sub}");
        assert_eq!(s["mismatches"], 0);
    }
    // Only the listed subspaces; a subspace not there or not W-B: errors.
    let r = run(&[
        "nine",
        "verify",
        "--dir",
        dir.arg(),
        "--quiet",
        "--json",
        "--subspace",
        "3-4",
        "--subspace",
        "4-3",
    ]);
    assert!(r.ok, "{}", r.stderr);
    let subs = json(&r.stdout)["results"].as_array().unwrap().clone();
    let listed: Vec<(u64, u64)> = subs
        .iter()
        .map(|s| (s["white"].as_u64().unwrap(), s["black"].as_u64().unwrap()))
        .collect();
    // In the generator's pair order: `W ≥ B` first.
    assert_eq!(listed, [(4, 3), (3, 4)]);
    let r = run(&["nine", "verify", "--dir", dir.arg(), "--subspace", "5-5"]);
    assert_error(&r, &["subspace 5-5 is not in"]);
    let r = run(&["nine", "verify", "--dir", dir.arg(), "--subspace", "3-10"]);
    assert!(
        !r.ok && r.stderr.contains("is not a subspace"),
        "{}",
        r.stderr
    );
    // One flipped byte in the data area of a file: an error, not a pass.
    let f = dir.path().join("nine-flying-3-3.tb");
    let mut bytes = std::fs::read(&f).unwrap();
    let n = bytes.len();
    bytes[n - 20] ^= 0x40;
    std::fs::write(&f, &bytes).unwrap();
    let r = run(&["nine", "verify", "--dir", dir.arg(), "--quiet"]);
    assert_error(&r, &["nine-flying-3-3.tb", "damaged"]);
}

#[test]
fn stats_and_verify_refuse_an_empty_directory() {
    let dir = TempDir::new("empty");
    std::fs::create_dir_all(dir.path()).unwrap();
    assert_error(
        &run(&["nine", "stats", "--dir", dir.arg()]),
        &["no flying tablebases"],
    );
    assert_error(
        &run(&["nine", "verify", "--dir", dir.arg()]),
        &["no flying tablebases"],
    );
    // 3-4 without its partner 4-3: stats lists it, verify names what is missing.
    let (name, bytes) = &template()[1];
    assert_eq!(name, "nine-flying-3-4.tb");
    std::fs::write(dir.path().join(name), bytes).unwrap();
    let r = run(&["nine", "stats", "--dir", dir.arg(), "--json"]);
    assert!(r.ok, "{}", r.stderr);
    assert_eq!(json(&r.stdout)["tables"].as_array().unwrap().len(), 1);
    assert_error(
        &run(&["nine", "verify", "--dir", dir.arg(), "--quiet"]),
        &["4-3", "missing"],
    );
}

/// Six 3-3, 3-4 and 4-3 positions with each outcome that occurs there
/// (3-4 has no losses), both colours to move, in some orientation.
fn sample_positions(dir: &Path) -> Vec<Position> {
    let mut out = Vec::new();
    let cases: [(u8, u8, &[Outcome]); 3] = [
        (3, 3, &[Outcome::Win, Outcome::Loss, Outcome::Draw]),
        (3, 4, &[Outcome::Win, Outcome::Draw]),
        (4, 3, &[Outcome::Loss]),
    ];
    for (w, b, outcomes) in cases {
        let sub = Subspace::new(w, b);
        let values = Table::open(&dir.join(format!("nine-flying-{w}-{b}.tb")))
            .unwrap()
            .values()
            .unwrap();
        for &want in outcomes {
            // The 37th used slot with this outcome (skipping the trivial first ones).
            let (us, them) = (0..nine::size(sub))
                .filter_map(|s| nine::position(sub, s).map(|p| (s, p)))
                .filter(|(s, _)| values[*s as usize].outcome() == want)
                .nth(37)
                .map(|(_, p)| p)
                .expect("the outcome occurs");
            let n = out.len();
            let side = if n % 2 == 0 {
                Color::White
            } else {
                Color::Black
            };
            out.push(Position::from_mover(us, them, side).transform::<Nine>(n % 16));
        }
    }
    assert_eq!(out.len(), 6);
    out
}

#[test]
fn probe_json_agrees_with_the_library_and_malom() {
    let dir = TempDir::with_tables("probe");
    let tb = Tablebases::open(dir.path(), STD).unwrap();
    let malom = malom_dir().map(|m| {
        Sector::open(
            &m,
            SectorId {
                w: 3,
                b: 3,
                wf: 0,
                bf: 0,
            },
        )
        .unwrap()
    });
    // 3-3 win (White), 3-3 loss (Black), 3-3 draw (White), 3-4 win (Black).
    let positions = &sample_positions(dir.path())[..4];
    let mut colours = [0; 2];
    for &pos in positions {
        colours[pos.to_move.index()] += 1;
        let text = pos.to_string();
        let r = run(&["nine", "probe", "--dir", dir.arg(), "--json", &text]);
        assert!(r.ok, "{text}: {}", r.stderr);
        let j = json(&r.stdout);
        assert_eq!(j["position"], text);
        let v = tb.probe(&pos).unwrap();
        assert_eq!(j["value"], v.outcome().as_str(), "{text}");
        assert_eq!(j["dtc"], serde_json::to_value(v.distance()).unwrap());
        let moves = j["moves"].as_array().unwrap();
        let want: Vec<(String, &str, Option<u16>)> = tb
            .best_moves(&pos)
            .unwrap()
            .into_iter()
            .map(|(m, v)| (m.to_string(), v.outcome().as_str(), v.distance()))
            .collect();
        let got: Vec<(String, &str, Option<u16>)> = moves
            .iter()
            .map(|m| {
                (
                    m["move"].as_str().unwrap().to_string(),
                    m["value"].as_str().unwrap(),
                    m["dtc"].as_u64().map(|d| d as u16),
                )
            })
            .collect();
        assert_eq!(got, want, "{text}");
        // The best move keeps the position's value (and, deciding, its distance).
        assert_eq!(moves[0]["value"], j["value"], "{text}");
        if v.outcome() != Outcome::Draw {
            assert_eq!(moves[0]["dtc"], j["dtc"], "{text}");
        }
        // Every listed move is legal, and all legal moves are listed.
        assert_eq!(moves.len(), legal_moves::<Nine>(&pos, STD).len());
        // 3-3 against Malom: outcome and plies to the end (= DTC in 3-3).
        if let (Some(sector), 3, 3) = (&malom, pos.us().count_ones(), pos.them().count_ones()) {
            let Entry::Value(o, plies) = sector.entry(nine::index(pos.us(), pos.them())) else {
                panic!("{text}: Malom has a Sym slot");
            };
            assert_eq!(j["value"], o.as_str(), "{text} (Malom)");
            assert_eq!(
                j["dtc"],
                serde_json::to_value(plies).unwrap(),
                "{text} (Malom)"
            );
        }
    }
    assert!(colours[0] > 0 && colours[1] > 0, "{colours:?}");
    // The text form.
    let r = run(&["nine", "probe", "--dir", dir.arg(), WIN_IN_ONE]);
    assert!(r.ok);
    assert!(
        r.stdout.contains("White to move, flying on: win in 1"),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("c4-d7xa4"), "{}", r.stdout);
}

#[test]
fn probe_after_moves() {
    let dir = TempDir::with_tables("moves");
    let tb = Tablebases::open(dir.path(), STD).unwrap();
    // Two plies from a 3-4 position, Black to move (chosen with the library).
    let start = sample_positions(dir.path())
        .into_iter()
        .find(|p| p.to_move == Color::Black && p.us().count_ones() + p.them().count_ones() == 7)
        .unwrap();
    let m1 = legal_moves::<Nine>(&start, STD)[3];
    let mid = start.apply(m1);
    let m2 = *legal_moves::<Nine>(&mid, STD).last().unwrap();
    let end = mid.apply(m2);
    let moves = format!("{m1} {m2}");
    let r = run(&[
        "nine",
        "probe",
        "--dir",
        dir.arg(),
        "--json",
        "--moves",
        &moves,
        &start.to_string(),
    ]);
    assert!(r.ok, "{}", r.stderr);
    let j = json(&r.stdout);
    assert_eq!(j["position"], end.to_string());
    assert_eq!(j["value"], tb.probe(&end).unwrap().outcome().as_str());
    assert_eq!(
        j["dtc"],
        serde_json::to_value(tb.probe(&end).unwrap().distance()).unwrap()
    );
    // A capture that ends the game: the side to move has lost, in 0.
    let r = run(&[
        "nine",
        "probe",
        "--dir",
        dir.arg(),
        "--json",
        "--moves",
        "c4-d7xa4",
        WIN_IN_ONE,
    ]);
    assert!(r.ok, "{}", r.stderr);
    let j = json(&r.stdout);
    let start: Position = WIN_IN_ONE.parse().unwrap();
    let after = start.apply(parse_move::<Nine>(&start, STD, "c4-d7xa4").unwrap());
    assert_eq!(after.to_string(), "WWW..B..........B....... b 0 0");
    assert_eq!(j["position"], after.to_string());
    assert_eq!((&j["value"], &j["dtc"]), (&"loss".into(), &0.into()));
    assert_eq!(j["moves"].as_array().unwrap().len(), 0);
}

#[test]
fn probe_batch_prints_one_line_per_input_line() {
    let dir = TempDir::with_tables("batch");
    let tb = Tablebases::open(dir.path(), STD).unwrap();
    // White 3 on the board, Black 3 and one in hand to place: the placement
    // search over the 3-4 and 4-3 tables.
    let placing = "W.W......W.......B.B...B b 0 1";
    let black_to_move = WIN_IN_ONE.parse::<Position>().unwrap().swap_colors();
    // (line, whether it fails)
    let lines = [
        (WIN_IN_ONE.to_string(), false),
        (String::new(), false),
        (black_to_move.to_string(), false),
        ("hello".to_string(), true),
        ("   ".to_string(), false),
        ("WWWWWWWWWW......BBB..... w 0 0".to_string(), true),
        (placing.to_string(), false),
        ("......WWWWWWWWWBBBBBBBBB w 0 0".to_string(), true),
    ];
    let file = dir.path().join("batch.txt");
    let text: Vec<&str> = lines.iter().map(|l| l.0.as_str()).collect();
    std::fs::write(&file, text.join("\n") + "\n").unwrap();
    let r = run(&[
        "nine",
        "probe",
        "--dir",
        dir.arg(),
        "--batch",
        file.to_str().unwrap(),
    ]);
    assert_error(&r, &["3 lines"]);
    let out: Vec<Json> = r.stdout.lines().map(json).collect();
    let input: Vec<(usize, &(String, bool))> = lines
        .iter()
        .enumerate()
        .filter(|(_, l)| !l.0.trim().is_empty())
        .collect();
    assert_eq!(out.len(), input.len(), "{}", r.stdout);
    for ((n, (text, fails)), j) in input.into_iter().zip(&out) {
        assert_eq!(j["position"], text.trim());
        if *fails {
            assert!(j["error"].is_string(), "{j}");
            assert_eq!(j["line"], n + 1);
            assert!(j.get("value").is_none());
            continue;
        }
        let pos: Position = text.parse().unwrap();
        assert!(j.get("error").is_none(), "{j}");
        let want = if pos.placing() {
            PlacementSearch::new(&tb).value(&pos).unwrap()
        } else {
            tb.probe(&pos).unwrap().outcome()
        };
        assert_eq!(j["value"], want.as_str(), "{text}");
        assert_eq!(j["moves"][0]["value"], j["value"], "{text}");
        assert_eq!(j["best"], j["moves"][0]["move"], "{text}");
    }
    // The good lines alone: exit 0, nothing on stderr.
    std::fs::write(&file, format!("{WIN_IN_ONE}\n\n{placing}\n")).unwrap();
    let r = run(&[
        "nine",
        "probe",
        "--dir",
        dir.arg(),
        "--batch",
        file.to_str().unwrap(),
    ]);
    assert!(r.ok, "{}", r.stderr);
    assert_eq!(r.stderr, "");
    assert_eq!(r.stdout.lines().count(), 2);
    // A batch file that does not exist.
    let missing = dir.path().join("nope.txt");
    assert_error(
        &run(&[
            "nine",
            "probe",
            "--dir",
            dir.arg(),
            "--batch",
            missing.to_str().unwrap(),
        ]),
        &["nope.txt"],
    );
}

/// A 3-3 position, White to move, that White wins in exactly 5 plies.
fn quick_win(dir: &Path) -> Position {
    let sub = Subspace::new(3, 3);
    let values = Table::open(&dir.join("nine-flying-3-3.tb"))
        .unwrap()
        .values()
        .unwrap();
    let slot = (0..nine::size(sub))
        .find(|&s| values[s as usize] == Value::win(5) && nine::position(sub, s).is_some())
        .unwrap();
    let (us, them) = nine::position(sub, slot).unwrap();
    Position::from_mover(us, them, Color::White)
}

#[test]
fn the_perfect_player_keeps_the_value_in_the_placement_phase() {
    let dir = TempDir::with_tables("play-placement");
    let tb = Tablebases::open(dir.path(), STD).unwrap();
    // Two stones each on the board and one each in hand, White to move:
    // the engine's placement must keep the position's value.
    for text in [
        "W.W..............B.B.... w 1 1",
        "WW.......B.......B...... w 1 1",
    ] {
        let pos: Position = text.parse().unwrap();
        let want = PlacementSearch::new(&tb).value(&pos).unwrap();
        let r = run_with_stdin(
            &["nine", "play", "--dir", dir.arg(), "--human", "black", text],
            Some("quit\n"),
        );
        assert!(r.ok, "{}", r.stderr);
        let line = r
            .stdout
            .lines()
            .find(|l| l.starts_with("White plays "))
            .unwrap_or_else(|| panic!("{}", r.stdout));
        let (played, value) = line["White plays ".len()..]
            .trim_end_matches(')')
            .split_once(" (")
            .unwrap();
        assert_eq!(value, want.as_str(), "{text}: {line}");
        let m = legal_moves::<Nine>(&pos, STD)
            .into_iter()
            .find(|m| m.to_string() == played)
            .unwrap_or_else(|| panic!("{played} is not legal in {text}"));
        let after = PlacementSearch::new(&tb).value(&pos.apply(m)).unwrap();
        assert_eq!(after.flip(), want, "{text}: {played}");
    }
}

#[test]
fn play_to_the_end_of_a_game() {
    let dir = TempDir::with_tables("play");
    let tb = Tablebases::open(dir.path(), STD).unwrap();
    let start = quick_win(dir.path());
    // The game the engine will play (DTC-optimal, best move first) against
    // a human (Black) who always plays the first legal move.
    let mut pos = start;
    let mut engine = Vec::new();
    let mut human = vec!["zz".to_string()]; // a bad line first: re-prompted
    while ending::<Nine>(&pos, STD).is_none() {
        let m = if pos.to_move == Color::White {
            let m = tb.best_moves(&pos).unwrap()[0].0;
            engine.push(m.to_string());
            m
        } else {
            let m = legal_moves::<Nine>(&pos, STD)[0];
            human.push(m.to_string());
            m
        };
        pos = pos.apply(m);
        assert!(engine.len() + human.len() < 20, "the game does not end");
    }
    // Win in 5 plies: at most 3 engine moves, with human moves between.
    assert!((2..=3).contains(&engine.len()), "{engine:?}");
    let input = human.join("\n") + "\n";
    let r = run_with_stdin(
        &[
            "nine",
            "play",
            "--dir",
            dir.arg(),
            "--human",
            "black",
            &start.to_string(),
        ],
        Some(&input),
    );
    assert!(r.ok, "{}", r.stderr);
    assert_eq!(r.stderr, "");
    let plays: Vec<&str> = r
        .stdout
        .lines()
        .filter_map(|l| l.strip_prefix("White plays "))
        .map(|rest| rest.split(' ').next().unwrap())
        .collect();
    assert_eq!(plays, engine, "{}", r.stdout);
    // One prompt per line read, the bad one included, which is reported.
    assert_eq!(
        r.stdout.matches("Your move (Black)").count(),
        human.len(),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("'zz'"), "{}", r.stdout);
    let last = r.stdout.lines().last().unwrap();
    assert!(
        last.contains("Black has") && last.ends_with("White wins."),
        "{last}"
    );
    assert_eq!(r.stdout.matches("wins.").count(), 1);
    assert!(r.stdout.contains(&pos.to_string()), "final position shown");
}

#[test]
fn play_ends_on_quit_and_on_end_of_input() {
    let dir = TempDir::with_tables("quit");
    let start = quick_win(dir.path()).to_string();
    for input in ["quit\n", "", "q\nc4\n"] {
        let r = run_with_stdin(&["nine", "play", "--dir", dir.arg(), &start], Some(input));
        assert!(r.ok, "{input:?}: {}", r.stderr);
        assert_eq!(r.stderr, "");
        assert!(r.stdout.contains("Your move (White)"), "{}", r.stdout);
        assert_eq!(r.stdout.matches("Your move").count(), 1, "{}", r.stdout);
        assert!(!r.stdout.contains("wins."));
        assert!(!r.stdout.contains(" plays "));
    }
    assert_error(
        &run(&[
            "nine",
            "play",
            "--dir",
            dir.arg(),
            "WWWWWWWWWW......BBB..... w 0 0",
        ]),
        &[],
    );
}

#[test]
fn probe_errors_are_one_line() {
    let dir = TempDir::with_tables("errors");
    let d = dir.arg();
    let missing = dir.path().join("no-such-dir");
    assert_error(
        &run(&[
            "nine",
            "probe",
            "--dir",
            missing.to_str().unwrap(),
            WIN_IN_ONE,
        ]),
        &["no-such-dir"],
    );
    // 9 against 9 is not in the directory: the command failed (status 1).
    let r = run(&[
        "nine",
        "probe",
        "--dir",
        d,
        "......WWWWWWWWWBBBBBBBBB w 0 0",
    ]);
    assert_error(&r, &["nine-flying-9-9.tb", "missing"]);
    assert_eq!(
        r.code,
        Some(1),
        "a missing table is a failure, not bad input"
    );
    for bad in [
        "WWWWWWWWWW......BBB..... w 0 0",  // 10 white stones
        "WWWWWWWW........BBB..... w 2 2",  // 8 on the board and 2 in hand
        "W.W..B...B.W....B...... w 0 0",   // 23 points
        "W.W..B...B.W....B........ w 0 0", // 25 points
        "W.W..B...B.W....B....... x 0 0",  // bad side
        "W.W..B...B.W....B....... w 0 2",  // impossible hands
        "W.W..B...B.W....B....... w 0",    // a field missing
        "W.W..B...B.W....X....... w 0 0",  // bad point
        "WW...................... w 0 0",  // the side not to move has lost
    ] {
        let r = run(&["nine", "probe", "--dir", d, "--json", bad]);
        assert_error(&r, &[]);
        assert_eq!(r.stdout, "", "{bad}");
        assert_eq!(r.code, Some(2), "bad input: {bad}");
    }
    for moves in ["zz", "c4-d7xa4 a4", "c4-c5 c4-c3", "g7-g7", "c4-d7xc4"] {
        assert_error(
            &run(&["nine", "probe", "--dir", d, "--moves", moves, WIN_IN_ONE]),
            &["move"],
        );
    }
    // Another rule set has no files there.
    assert_error(
        &run(&["nine", "probe", "--dir", d, "--no-flying", WIN_IN_ONE]),
        &["nine-noflying-3-3.tb"],
    );
}

#[test]
fn generate_errors_are_one_line() {
    let dir = TempDir::new("generate-errors");
    std::fs::create_dir_all(dir.path()).unwrap();
    // A path that is a regular file.
    let file = dir.path().join("plain-file");
    std::fs::write(&file, b"x").unwrap();
    let args = |d: &Path| {
        vec![
            "nine".to_string(),
            "generate".into(),
            "--dir".into(),
            d.to_str().unwrap().into(),
            "--max-stones".into(),
            "6".into(),
            "--quiet".into(),
        ]
    };
    let run_args = |a: Vec<String>| run(&a.iter().map(|s| s.as_str()).collect::<Vec<_>>());
    assert_error(&run_args(args(&file)), &["plain-file"]);
    // A directory with a file that is not ours.
    let unknown = dir.path().join("unknown");
    std::fs::create_dir_all(&unknown).unwrap();
    std::fs::write(unknown.join("notes.txt"), b"hello").unwrap();
    assert_error(&run_args(args(&unknown)), &["notes.txt", "unknown file"]);
    assert_eq!(
        std::fs::read_dir(&unknown).unwrap().count(),
        1,
        "nothing written"
    );
    // Bad option values.
    let mut a = args(&unknown);
    a.push("--threads".into());
    a.push("0".into());
    std::fs::remove_file(unknown.join("notes.txt")).unwrap();
    assert_error(&run_args(a), &["--threads"]);
    // A read-only directory (root may write anyway: then skip).
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let ro = dir.path().join("read-only");
        std::fs::create_dir_all(&ro).unwrap();
        std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o555)).unwrap();
        let probe = ro.join("probe");
        if std::fs::write(&probe, b"x").is_ok() {
            let _ = std::fs::remove_file(&probe);
            eprintln!("skipping the read-only directory case: it is writable (root?)");
        } else {
            assert_error(&run_args(args(&ro)), &["read-only"]);
            assert_eq!(std::fs::read_dir(&ro).unwrap().count(), 0);
        }
        std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
}

#[test]
fn start_proves_smaller_games_with_the_tables_they_need() {
    let dir = TempDir::with_tables("start-small");
    let tb = Tablebases::open(dir.path(), STD).unwrap();
    // Three stones each, and four against three: at most 7 stones, which
    // the test tables hold.
    for text in [
        "........................ w 3 3",
        "........................ w 4 3",
    ] {
        let r = run(&[
            "nine",
            "start",
            "--dir",
            dir.arg(),
            "--position",
            text,
            "--json",
        ]);
        assert!(r.ok, "{text}: {}", r.stderr);
        let j = json(&r.stdout);
        let pos: Position = text.parse().unwrap();
        let want = PlacementSearch::new(&tb).value(&pos).unwrap();
        assert_eq!(j["value"], want.as_str(), "{text}");
        assert_eq!(j["position"], text);
        assert!(j["nodes"].as_u64().unwrap() > 0);
    }
    // Four each needs the 4-4 table, which is absent: one error line.
    let r = run(&[
        "nine",
        "start",
        "--dir",
        dir.arg(),
        "--position",
        "........................ w 4 4",
    ]);
    let line = assert_error(&r, &["missing"]);
    assert!(line.contains("nine-flying-4-4.tb"), "{line}");
    assert_eq!(r.stdout, "");
}

#[test]
fn start_without_the_full_tablebases() {
    let dir = TempDir::with_tables("start");
    for json_flag in [false, true] {
        let mut args = vec!["nine", "start", "--dir", dir.arg()];
        if json_flag {
            args.push("--json");
        }
        let r = run(&args);
        let line = assert_error(&r, &["missing"]);
        assert_eq!(r.stdout, "");
        // It names a file of a subspace with more than 7 stones.
        let name = line
            .split(|c: char| c == '/' || c == ':' || c.is_whitespace())
            .find(|w| w.starts_with("nine-flying-") && w.ends_with(".tb"))
            .unwrap_or_else(|| panic!("{line}"));
        assert!(!dir.path().join(name).exists(), "{line}");
    }
    let missing = dir.path().join("absent");
    assert_error(
        &run(&["nine", "start", "--dir", missing.to_str().unwrap()]),
        &["absent"],
    );
}

#[test]
fn help_of_each_subcommand() {
    let cases: [(&str, &[&str]); 8] = [
        ("show", &["--no-flying", "--json"]),
        ("perft", &["--no-flying", "--json", "DEPTH"]),
        (
            "generate",
            &[
                "--dir",
                "--max-stones",
                "--no-flying",
                "--threads",
                "--quiet",
                "--json",
            ],
        ),
        ("stats", &["--dir", "--no-flying", "--json"]),
        (
            "verify",
            &["--dir", "--no-flying", "--threads", "--quiet", "--json"],
        ),
        (
            "probe",
            &[
                "--dir",
                "--moves",
                "--batch",
                "--json",
                "--no-flying",
                "--hash-mib",
                "--threads",
            ],
        ),
        (
            "play",
            &["--dir", "--human", "--no-flying", "--hash-mib", "--threads"],
        ),
        (
            "start",
            &["--dir", "--json", "--no-flying", "--position", "--threads"],
        ),
    ];
    for (sub, options) in cases {
        let r = run(&["nine", sub, "--help"]);
        assert!(r.ok, "{sub}: {}", r.stderr);
        for o in options {
            assert!(r.stdout.contains(o), "`nine {sub} --help` lacks {o}");
        }
    }
    let r = run(&["nine", "--help"]);
    assert!(r.ok);
    for sub in ["generate", "stats", "verify", "probe", "play", "start"] {
        assert!(r.stdout.contains(sub), "`nine --help` lacks {sub}");
    }
}

#[test]
fn moving_phase_probe_matches_a_parsed_move() {
    // `probe --moves` and the library's parse_move agree on the first ply.
    let dir = TempDir::with_tables("parse");
    let start: Position = WIN_IN_ONE.parse().unwrap();
    let m = parse_move::<Nine>(&start, STD, "c4-g4").unwrap();
    let r = run(&[
        "nine",
        "probe",
        "--dir",
        dir.arg(),
        "--json",
        "--moves",
        "c4-g4",
        WIN_IN_ONE,
    ]);
    assert!(r.ok, "{}", r.stderr);
    assert_eq!(json(&r.stdout)["position"], start.apply(m).to_string());
    // White won in 3 after c4-g4 (see the move list), so Black loses in 2.
    assert_eq!(json(&r.stdout)["value"], "loss");
    assert_eq!(json(&r.stdout)["dtc"], 2);
}

#[test]
fn the_whole_three_stone_game_from_the_command_line() {
    let dir = TempDir::new("placement");
    let gen = |extra: &[&str]| {
        let mut args = vec!["nine", "generate", "--dir", dir.arg(), "--quiet"];
        args.extend_from_slice(extra);
        run(&args)
    };
    // --placement needs the whole moving phase of the game.
    let r = gen(&["--stones", "4", "--placement", "--max-stones", "7"]);
    assert_error(&r, &["--placement", "at least 8"]);
    let r = gen(&["--stones", "3", "--placement"]);
    assert!(r.ok, "{}", r.stderr);
    // Only 3-3 of the moving phase, and the sectors of the 3-stone game.
    let j = json(&run(&["nine", "stats", "--dir", dir.arg(), "--json"]).stdout);
    let tables = j["tables"].as_array().unwrap();
    let of_kind = |kind: &str| {
        tables
            .iter()
            .filter(|r| r["kind"] == kind)
            .collect::<Vec<_>>()
    };
    assert_eq!(of_kind("moving").len(), 1);
    let sectors = of_kind("placement");
    assert_eq!(
        sectors.len(),
        mill::tables::keys::Sector::all(3).len(),
        "{j}"
    );
    assert_eq!(
        j["by_kind"]["placement"]["positions"].as_u64().unwrap(),
        sectors
            .iter()
            .map(|s| s["positions"].as_u64().unwrap())
            .sum::<u64>()
    );
    let r = run(&["nine", "verify", "--dir", dir.arg(), "--quiet"]);
    assert!(r.ok, "{}", r.stderr);
    let tables = 1 + sectors.len();
    assert_eq!(
        r.stdout,
        format!("{tables} tables verified, 0 mismatches\n")
    );
    planted_values_are_found(&dir);
    // The empty board from the tables, every opening move with its value;
    // the search agrees.
    let empty = "........................ w 3 3";
    let p = json(&run(&["nine", "probe", "--dir", dir.arg(), empty, "--json"]).stdout);
    assert_eq!(p["source"], "tables");
    assert_eq!(p["moves"].as_array().unwrap().len(), 24);
    let tb = Tablebases::open(dir.path(), STD).unwrap();
    let mut search = PlacementSearch::with_table_mib(&tb, 4);
    let pos: Position = empty.parse().unwrap();
    assert_eq!(p["value"], search.value(&pos).unwrap().as_str());
    for m in p["moves"].as_array().unwrap() {
        let mv = parse_move::<Nine>(&pos, STD, m["move"].as_str().unwrap()).unwrap();
        let v = search.value(&pos.apply(mv)).unwrap().flip();
        assert_eq!(m["value"], v.as_str(), "{m}");
    }
    let s = json(
        &run(&[
            "nine",
            "start",
            "--dir",
            dir.arg(),
            "--position",
            empty,
            "--json",
        ])
        .stdout,
    );
    assert_eq!((&s["source"], &s["value"]), (&"tables".into(), &p["value"]));
    let s = json(
        &run(&[
            "nine",
            "start",
            "--dir",
            dir.arg(),
            "--position",
            empty,
            "--search",
            "--json",
        ])
        .stdout,
    );
    assert_eq!(
        (&s["source"], &s["tables"]),
        (&"search".into(), &p["value"])
    );
    // A missing sector: the probe falls back to the search.
    let first = mill::games::nine::files::sector_file_name(
        dir.path(),
        STD,
        mill::tables::keys::Sector::new(0, 0, 3, 3),
    );
    std::fs::remove_file(first).unwrap();
    let q = json(&run(&["nine", "probe", "--dir", dir.arg(), empty, "--json"]).stdout);
    assert_eq!((&q["source"], &q["value"]), (&"search".into(), &p["value"]));
}

/// A file with one value changed (and sound otherwise: checksums and
/// counts rewritten) fails `verify`, which names the slot; put back, it
/// passes. Moving subspace 3-3 and one placement sector of the
/// 3-stone game in `dir`.
fn planted_values_are_found(dir: &TempDir) {
    use mill::tables::keys::{Sector, TableId};
    use tablebase::format::{summarize, summarize_outcomes};
    use tablebase::resident::Wdl;
    let set = mill::games::nine::files::directory(dir.path(), STD);
    let mismatch_at = |args: &[&str], slot: u64| {
        let mut all = vec!["nine", "verify", "--dir", dir.arg()];
        all.extend_from_slice(args);
        let r = run(&all);
        assert!(!r.ok, "a planted value passed: {}", r.stdout);
        assert!(
            r.stderr.contains(&format!("slot {slot}:")),
            "{args:?}: {}",
            r.stderr
        );
    };
    // 3-3: the first win made a draw.
    let sub = Subspace::new(3, 3);
    let id = TableId::Moving(sub);
    let file = std::fs::read(set.path(id)).unwrap();
    let mut values = Table::open(&set.path(id)).unwrap().values().unwrap();
    let slot = values
        .iter()
        .position(|v| v.outcome() == Outcome::Win)
        .unwrap();
    values[slot] = Value::DRAW;
    let header = summarize(&values, nine::positions(sub));
    set.write_values(id, &header, &values, 3).unwrap();
    mismatch_at(&["--subspace", "3-3"], slot as u64);
    std::fs::write(set.path(id), &file).unwrap();
    // A sector: the first decided slot's outcome turned round.
    let sector = Sector::new(2, 2, 1, 1);
    let id = TableId::Placement(sector);
    let file = std::fs::read(set.path(id)).unwrap();
    let size = nine::size(sector.subspace());
    let table = Wdl::load(&Table::open(&set.path(id)).unwrap()).unwrap();
    let slot = (0..size)
        .find(|&s| table.get(s) == Some(Outcome::Win))
        .unwrap();
    let mut packed = vec![0u8; size.div_ceil(4) as usize];
    for s in 0..size {
        let o = match table.get(s).unwrap() {
            Outcome::Win if s == slot => Outcome::Loss,
            o => o,
        };
        packed[(s / 4) as usize] |= mill::tables::placement_pass::code(o) << (2 * (s % 4));
    }
    let header = summarize_outcomes(&packed, size, nine::positions(sector.subspace()));
    set.write_outcomes(id, &header, &packed, 1).unwrap();
    mismatch_at(&["--sector", "2-2-1-1"], slot);
    std::fs::write(set.path(id), &file).unwrap();
    let r = run(&["nine", "verify", "--dir", dir.arg(), "--quiet"]);
    assert!(r.ok, "{}", r.stderr);
}

#[test]
fn generate_json_lists_the_tables_stats_reads_back() {
    // The 3-stone game, then the moving phase up to 7 stones in all into
    // the same directory: each run's JSON lists its own game's tables, row
    // for row what `stats` reads back from the files.
    let dir = TempDir::new("generate-json");
    let gen = |extra: &[&str]| {
        let mut args = vec!["nine", "generate", "--dir", dir.arg(), "--json"];
        args.extend_from_slice(extra);
        let r = run(&args);
        assert!(r.ok, "{}", r.stderr);
        json(&r.stdout)
    };
    let three = gen(&["--stones", "3", "--placement"]);
    let seven = gen(&["--max-stones", "7"]);
    let stats = json(&run(&["nine", "stats", "--dir", dir.arg(), "--json"]).stdout);
    let rows = |j: &Json| j["tables"].as_array().unwrap().clone();
    let all = rows(&stats);
    let sectors = mill::tables::keys::Sector::all(3).len();
    assert_eq!(rows(&three).len(), 1 + sectors, "{three}");
    assert_eq!(rows(&seven).len(), 3, "{seven}");
    assert_eq!(all.len(), 3 + sectors, "{stats}");
    for doc in [&three, &seven] {
        for row in rows(doc) {
            assert!(all.contains(&row), "{row} not in stats");
        }
        assert!(doc["seconds"].as_f64().is_some(), "{doc}");
        assert!(doc.get("peak_memory_bytes").is_some(), "{doc}");
    }
    assert_eq!(three["stones"], 3);
    assert_eq!(seven["stones"], 4);
}
