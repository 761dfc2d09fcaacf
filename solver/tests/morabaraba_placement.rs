//! Morabaraba's placement sectors (`solver morabaraba generate
//! --placement`): the stored outcomes against the placement search over
//! the moving-phase tables (itself checked against a plain minimax and the
//! rule-text oracle in `tests/morabaraba.rs`), the start values from the
//! tables against `solver morabaraba start`, resuming a cut-off run,
//! `verify --placement` (and a planted error it must find), probing, play
//! and the library's `MillGame`, and `malom-compare`'s reader.
//!
//! The ignored test `placement_sample_matches_the_search` samples a larger
//! game: `MORABARABA_TABLEBASES=DIR MORABARABA_STONES=N
//! [MORABARABA_SAMPLES=n] cargo test --release -p solver --test
//! morabaraba_placement -- --ignored` (DIR made by `solver morabaraba
//! generate --placement --stones N`).

mod common;

use common::cli::{run_cli, run_cli_with_input};
use mill::games::morabaraba::placement;
use mill::games::{self, MillGame};
use mill::index::symmetric::{self, Symmetric};
use mill::probe::analysis::SearchOptions;
use mill::rules::board::Morabaraba;
use mill::rules::variant::RuleSet;
use mill::search::PlacementSearch;
use mill::tables::files;
use mill::tables::keys::{Sector, TableId};
use mill::tables::outcomes::MovingOutcomes;
use std::path::{Path, PathBuf};
use tablebase::format::summarize_outcomes;
use tablebase::resident::Wdl;
use tablebase::retro::Silent;
use tablebase::Outcome;

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mora-pl-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn json(out: &str) -> serde_json::Value {
    serde_json::from_str(out).unwrap_or_else(|e| panic!("{e}: {out}"))
}

/// `count` placement positions of the `stones`-stone game drawn uniformly
/// (a sector chosen in proportion to its slots, a slot at random, unused
/// slots drawn again): each stored outcome equals the placement search's
/// value over the moving-phase outcomes. Returns how many of each outcome
/// were met.
fn sample_against_search(dir: &Path, stones: u8, count: u64, seed: u64) -> [u64; 3] {
    let rules = RuleSet::new(12, true);
    let tb = MovingOutcomes::<Morabaraba, Symmetric>::load(dir, rules, stones, |_| {}).unwrap();
    let mut search = PlacementSearch::with_table_mib(&tb, 256);
    let sectors = placement::sectors(stones);
    let sizes: Vec<u64> = sectors
        .iter()
        .map(|&s| placement::slots::<Morabaraba>(s))
        .collect();
    let total: u64 = sizes.iter().sum();
    let tables: Vec<Wdl> = sectors
        .iter()
        .map(|&s| Wdl::load(&placement::open::<Morabaraba>(dir, rules, s).unwrap()).unwrap())
        .collect();
    let mut x = seed | 1;
    let mut next = |n: u64| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x % n
    };
    let mut met = [0u64; 3];
    let mut done = 0;
    while done < count {
        let mut r = next(total);
        let i = sizes
            .iter()
            .position(|&n| {
                if r < n {
                    true
                } else {
                    r -= n;
                    false
                }
            })
            .unwrap();
        let sector = sectors[i];
        let Some((us, them)) = symmetric::position::<Morabaraba>(sector.subspace(), r) else {
            continue;
        };
        let pos = sector.position(us, them);
        let stored = tables[i].get(r).unwrap();
        let searched = search.value(&pos).unwrap();
        assert_eq!(
            stored,
            searched,
            "{sector} slot {r}: {}",
            mill::rules::format_position::<Morabaraba>(&pos)
        );
        met[match stored {
            Outcome::Win => 0,
            Outcome::Draw => 1,
            Outcome::Loss => 2,
        }] += 1;
        done += 1;
    }
    met
}

/// `solver morabaraba VERB… --placement --stones 4 --dir DIR --json`,
/// which must succeed: its two documents, the moving phase's and the
/// placement phase's.
fn four_stone_placement(verb: &[&str], dir: &str) -> [serde_json::Value; 2] {
    let mut args = vec!["morabaraba"];
    args.extend(verb);
    args.extend(["--placement", "--stones", "4", "--dir", dir, "--json"]);
    let (out, ok) = run_cli(&args);
    assert!(ok, "{out}");
    let mut docs = serde_json::Deserializer::from_str(&out).into_iter::<serde_json::Value>();
    let mut next = || docs.next().unwrap().unwrap();
    [next(), next()]
}

/// The whole 4-stone game stored by one command, then checked every way.
#[test]
fn four_stone_game_stored_whole() {
    let dir = temp_dir("four");
    let d = dir.to_str().unwrap();
    let rules = RuleSet::new(12, true);
    // The moving phase's summary, then the placement phase's.
    let [moving, placement] = four_stone_placement(&["generate", "--quiet"], d);
    assert_eq!(moving["tables"].as_array().unwrap().len(), 4);
    let sectors = Sector::all(4);
    assert_eq!(
        placement["sectors"].as_array().unwrap().len(),
        sectors.len()
    );
    let positions = placement["positions"].as_u64().unwrap();
    assert!(positions > 1_000_000, "{positions}");

    // Every outcome of a uniform sample equals the placement search's.
    let met = sample_against_search(&dir, 4, 4_000, 0x9E37_79B9_7F4A_7C15);
    assert!(met.iter().all(|&n| n > 0), "{met:?}");

    // The start values from the tables equal `start`'s search: the
    // 3-stone game (its empty board is a sector of the 4-stone game's
    // list) and the 4-stone game.
    for stones in ["3", "4"] {
        let empty = format!("........................ w {stones} {stones}");
        let (out, ok) = run_cli(&["morabaraba", "probe", &empty, "--dir", d, "--json"]);
        assert!(ok, "{out}");
        let tables = json(&out);
        assert_eq!(tables["source"], "tables");
        let (out, ok) = run_cli(&[
            "morabaraba",
            "start",
            "--stones",
            stones,
            "--dir",
            d,
            "--json",
        ]);
        assert!(ok, "{out}");
        let searched = json(&out);
        assert_eq!(tables["value"], searched["value"], "{stones} stones");
        // Without a position, `probe` takes the `--stones N` game's start.
        let (out, ok) = run_cli(&[
            "morabaraba",
            "probe",
            "--stones",
            stones,
            "--dir",
            d,
            "--json",
        ]);
        assert!(ok, "{out}");
        assert_eq!(json(&out), tables, "{stones} stones, no position");
    }

    // verify recomputes every sector from its successors.
    let [_moving, v] = four_stone_placement(&["verify"], d);
    assert_eq!(v["checked"].as_u64().unwrap(), positions);
    assert_eq!(v["mismatches"], 0);

    // Resuming: two sectors removed (and a cut-off write's leftover) are
    // solved again, byte for byte, the others checked and kept.
    let set = files::directory::<Morabaraba, Symmetric>(&dir, rules);
    let cut = [Sector::new(2, 3, 1, 1), Sector::new(3, 3, 1, 0)];
    let before: Vec<Vec<u8>> = cut
        .iter()
        .map(|&s| std::fs::read(set.path(TableId::Placement(s))).unwrap())
        .collect();
    for &s in &cut {
        let path = set.path(TableId::Placement(s));
        std::fs::rename(&path, path.with_extension("tb.tmp")).unwrap();
    }
    std::fs::remove_file(
        set.path(TableId::Placement(cut[1]))
            .with_extension("tb.tmp"),
    )
    .unwrap();
    let [_moving, v] = four_stone_placement(&["generate", "--quiet"], d);
    let expected: u64 = cut.iter().map(|&s| placement::slots::<Morabaraba>(s)).sum();
    assert_eq!(v["solved_slots"].as_u64().unwrap(), expected);
    for (s, bytes) in cut.iter().zip(&before) {
        let again = std::fs::read(set.path(TableId::Placement(*s))).unwrap();
        assert!(&again == bytes, "{s} differs after resuming");
    }

    // A planted error: verify finds it and fails.
    let planted = Sector::new(3, 2, 1, 1);
    let table = placement::open::<Morabaraba>(&dir, rules, planted).unwrap();
    let own = Wdl::load(&table).unwrap();
    let slot = (0..own.len())
        .find(|&h| {
            symmetric::position::<Morabaraba>(planted.subspace(), h).is_some()
                && own.get(h) == Some(Outcome::Win)
        })
        .unwrap();
    let mut packed = vec![0u8; own.len().div_ceil(4) as usize];
    for h in 0..own.len() {
        let o = if h == slot {
            Outcome::Loss
        } else {
            own.get(h).unwrap()
        };
        packed[(h / 4) as usize] |= mill::tables::placement_pass::code(o) << (2 * (h % 4));
    }
    let positions = table.header().positions;
    let header = summarize_outcomes(&packed, own.len(), positions);
    drop(table);
    set.write_outcomes(TableId::Placement(planted), &header, &packed, 1)
        .unwrap();
    let (out, ok) = run_cli(&[
        "morabaraba",
        "verify",
        "--placement",
        "--stones",
        "4",
        "--dir",
        d,
        "--json",
    ]);
    assert!(!ok, "a planted error passed: {out}");
    let mut docs = serde_json::Deserializer::from_str(&out).into_iter::<serde_json::Value>();
    let _moving = docs.next().unwrap().unwrap();
    let v = docs.next().unwrap().unwrap();
    assert!(v["mismatches"].as_u64().unwrap() >= 1, "{v}");

    // Without that sector's file, its positions are searched.
    std::fs::remove_file(set.path(TableId::Placement(planted))).unwrap();
    let (us, them) = symmetric::position::<Morabaraba>(planted.subspace(), slot).unwrap();
    let pos = planted.position(us, them);
    let text = mill::rules::format_position::<Morabaraba>(&pos);
    let (out, ok) = run_cli(&["morabaraba", "probe", &text, "--dir", d, "--json"]);
    assert!(ok, "{out}");
    let v = json(&out);
    assert_eq!(v["source"], "search");
    assert_eq!(v["value"], "win");
    // Solved again; every position of the game is stored once more.
    let (out, ok) = run_cli(&[
        "morabaraba",
        "generate",
        "--placement",
        "--stones",
        "4",
        "--dir",
        d,
        "--quiet",
    ]);
    assert!(ok, "{out}");

    // The library's game object (the server's and Python's) answers
    // placement positions from the tables.
    let game = games::morabaraba(&dir, SearchOptions::default());
    let a = game.analyse("........................ w 4 4").unwrap();
    assert_eq!(a["source"], "tables");
    assert_eq!(a["moves"].as_array().unwrap().len(), 24);
    let a = game.analyse(&text).unwrap();
    assert_eq!(a["source"], "tables");
    assert_eq!(a["value"], "win");

    // Play: every value from the files; the program, White, opens with a
    // move of the start's value.
    let (out, ok) = run_cli_with_input(
        &[
            "morabaraba",
            "play",
            "--stones",
            "4",
            "--human",
            "black",
            "--dir",
            d,
        ],
        "quit\n",
    );
    assert!(ok, "{out}");
    let opening = out.lines().find(|l| l.starts_with("White plays")).unwrap();
    assert!(opening.ends_with("(draw)"), "{opening}");

    // stats --placement lists every sector.
    let (out, ok) = run_cli(&[
        "morabaraba",
        "stats",
        "--placement",
        "--stones",
        "4",
        "--dir",
        d,
        "--json",
    ]);
    assert!(ok, "{out}");
    assert_eq!(
        json(&out)["sectors"].as_array().unwrap().len(),
        sectors.len()
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// No Morabaraba data of Malom's is at hand (`../shared/data/malom/` holds
/// Nine Men's Morris's), so the reader is checked on Nine's 3-3 sector
/// under Morabaraba's file names: the files are found and read, every
/// slot Malom leaves unused is unused in our Morabaraba 3-3 table and
/// every other holds a position (the numbering is the same: Malom's scheme
/// over the same 16 automorphisms), and the values, of another game,
/// disagree somewhere, which the command reports as a failure.
#[test]
fn malom_compare_reads_mora_files() {
    let malom = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data/malom");
    if !malom.join("std_3_3_0_0.sec2").exists() {
        eprintln!("skipped: {} has no std_3_3_0_0.sec2", malom.display());
        return;
    }
    let dir = temp_dir("malom");
    let ours = dir.join("tables");
    let theirs = dir.join("malom");
    std::fs::create_dir_all(&theirs).unwrap();
    std::fs::copy(
        malom.join("std_3_3_0_0.sec2"),
        theirs.join("mora_3_3_0_0.sec2"),
    )
    .unwrap();
    std::fs::copy(malom.join("std.secval"), theirs.join("mora.secval")).unwrap();
    std::fs::copy(
        malom.join("std_3_4_0_0.sec2"),
        theirs.join("std_3_4_0_0.sec2"),
    )
    .unwrap();
    let rules = RuleSet::new(12, true);
    mill::games::morabaraba::moving::generate::<Morabaraba>(
        &ours,
        rules,
        mill::tables::Size::game(3),
        &Silent,
        |_| {},
    )
    .unwrap();
    let ids = mill::malom::sector_files_of(&theirs, mill::malom::MORABARABA).unwrap();
    assert_eq!(ids.len(), 1, "only the mora_ file");
    let (out, ok) = run_cli(&[
        "morabaraba",
        "malom-compare",
        theirs.to_str().unwrap(),
        "--dir",
        ours.to_str().unwrap(),
        "--json",
    ]);
    assert!(!ok, "another game's values agreed everywhere: {out}");
    let v = json(&out);
    let positions = symmetric::positions::<Morabaraba>(mill::tables::keys::Subspace::new(3, 3));
    assert_eq!(v["positions"].as_u64().unwrap(), positions);
    assert_eq!(v["unused_mismatch"], 0);
    assert!(v["disagree"].as_u64().unwrap() > 0);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A uniform sample of a larger game's placement positions against the
/// search (`MORABARABA_SAMPLES`, default 1,000,000).
#[test]
#[ignore]
fn placement_sample_matches_the_search() {
    let Ok(dir) = std::env::var("MORABARABA_TABLEBASES") else {
        eprintln!("set MORABARABA_TABLEBASES=DIR and MORABARABA_STONES=N");
        return;
    };
    let stones: u8 = std::env::var("MORABARABA_STONES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(12);
    let count: u64 = std::env::var("MORABARABA_SAMPLES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1_000_000);
    let started = std::time::Instant::now();
    let met = sample_against_search(Path::new(&dir), stones, count, 0x2545_F491_4F6C_DD1D);
    eprintln!(
        "{count} placement positions of the {stones}-stone game equal the search \
         (wins, draws, losses: {met:?}) in {:.1} s",
        started.elapsed().as_secs_f64()
    );
}
