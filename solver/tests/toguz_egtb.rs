//! The endgame share tables against the exact endgame solver (an
//! independent forward search), their files (resume, damage, atomicity) and
//! the search's use of them.

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};
use toguz::egtb::check::{check_layer, CheckReport};
use toguz::egtb::database::{file_name, generate, positions_up_to, Quiet};
use toguz::egtb::index::{Layer, Tuzdyks};
use toguz::egtb::Tables;
use toguz::endgame::GameResult;
use toguz::search::{Config, Engine, Limits, MATE_BOUND, TB_WIN};
use toguz::Board;

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("toguz-egtb-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Tables up to 4 stones, generated once for the tests of this file.
fn small() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = temp_dir("small");
        generate(&dir, 4, &Quiet).expect("generate");
        dir
    })
}

fn check_all(dir: &Path, max: u8) -> CheckReport {
    let tables = Tables::open(dir).unwrap();
    assert_eq!(tables.max_stones(), max);
    let mut total = CheckReport::default();
    for stones in 0..=max {
        for tuzdyks in Tuzdyks::all() {
            let r = check_layer(&tables, Layer { stones, tuzdyks }, 1_000_000, 1, &|_| {}).unwrap();
            total.add(r);
        }
    }
    total
}

#[test]
fn every_position_up_to_4_stones_equals_the_exact_solver() {
    let r = check_all(small(), 4);
    assert_eq!(r.positions, positions_up_to(4));
    assert_eq!(r.positions, 374_395);
    assert_eq!(r.mismatch_count, 0, "{:?}", r.mismatches);
    assert_eq!(r.unproved_decisive, 0);
    // Every position is compared at two kazan splits or more.
    assert!(r.compared >= 2 * r.positions - 73, "{r:?}");
    assert_eq!(r.agreed + r.unproved_draws, r.compared);
}

/// Longer: the same up to 6 stones (5.9 M positions, 13 M results).
#[test]
#[ignore]
fn every_position_up_to_6_stones_equals_the_exact_solver() {
    let dir = temp_dir("six");
    generate(&dir, 6, &Quiet).unwrap();
    let r = check_all(&dir, 6);
    assert_eq!(r.positions, positions_up_to(6));
    assert_eq!(r.mismatch_count, 0, "{:?}", r.mismatches);
    assert_eq!(r.unproved_decisive, 0);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn shares_of_simple_positions() {
    let tables = Tables::open(small()).unwrap();
    let share = |text: &str| {
        tables
            .share(&text.parse::<Board>().unwrap())
            .unwrap()
            .unwrap()
    };
    // One stone in the mover's hole 1: it moves to hole 2, the opponent
    // cannot move and the mover keeps it.
    let s = share("1,0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0,0 w 80,81 -,-");
    assert_eq!((s.stones, s.mover, s.opponent), (1, 1, 0));
    // In hole 9 it must cross over; then the opponent keeps it.
    let s = share("0,0,0,0,0,0,0,0,1/0,0,0,0,0,0,0,0,0 w 80,81 -,-");
    assert_eq!((s.mover, s.opponent), (0, 1));
    // No stone of the mover's: atsyrau, the opponent takes its own.
    let s = share("0,0,0,0,0,0,0,0,0/0,2,0,1,0,0,0,0,0 b 80,79 -,-");
    assert_eq!((s.stones, s.mover, s.opponent), (3, 3, 0));
    let s = share("0,0,0,0,0,0,0,0,0/0,2,0,1,0,0,0,0,0 w 80,79 -,-");
    assert_eq!((s.mover, s.opponent), (0, 3));
    // Beyond the tables.
    let b: Board = "5,0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0,0 w 80,77 -,-"
        .parse()
        .unwrap();
    assert_eq!(tables.share(&b).unwrap(), None);
    assert_eq!(tables.result(&b).unwrap(), None);
}

#[test]
fn resumes_after_a_lost_file_and_refuses_damage() {
    let dir = temp_dir("resume");
    generate(&dir, 3, &Quiet).unwrap();
    let layer = Layer {
        stones: 3,
        tuzdyks: Tuzdyks {
            mover: 2,
            opponent: 5,
        },
    };
    let path = file_name(&dir, layer);
    let good = std::fs::read(&path).unwrap();
    // A lost file (and a leftover temporary file) is made again, equal.
    std::fs::remove_file(&path).unwrap();
    std::fs::write(path.with_extension("tmp"), b"partial").unwrap();
    generate(&dir, 3, &Quiet).unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), good);
    // The same tables come out of a larger run, which resumes.
    generate(&dir, 4, &Quiet).unwrap();
    for stones in 0..=4 {
        for tuzdyks in Tuzdyks::all() {
            let l = Layer { stones, tuzdyks };
            assert_eq!(
                std::fs::read(file_name(&dir, l)).unwrap(),
                std::fs::read(file_name(small(), l)).unwrap(),
                "{l:?}"
            );
        }
    }
    // A damaged block is reported, not used.
    let mut bad = good.clone();
    let at = bad.len() - 5;
    bad[at] ^= 0x40;
    std::fs::write(&path, &bad).unwrap();
    let e = generate(&dir, 4, &Quiet).unwrap_err().to_string();
    assert!(e.contains("checksum") && !e.contains('\n'), "{e}");
    // A stranger in the directory is refused.
    std::fs::write(&path, &good).unwrap();
    std::fs::write(dir.join("notes.txt"), "x").unwrap();
    assert!(Tables::open(&dir).is_err());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn search_scores_table_positions_exactly() {
    let tables = Arc::new(Tables::open(small()).unwrap());
    let mut engine = Engine::new(Config {
        tt_mb: 4,
        ..Config::default()
    });
    engine.set_tables(Some(tables.clone()));
    let limits = Limits {
        depth: Some(3),
        threads: 1,
        ..Limits::default()
    };
    let mut x: u64 = 0x1234_5678_9ABC_DEF1;
    let (mut checked, mut draws) = (0, 0);
    for _ in 0..400 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let stones = 1 + (x % 4) as u8;
        let mut holes = [0u8; 18];
        for s in 0..stones {
            holes[((x >> (8 + 5 * s)) % 18) as usize] += 1;
        }
        // Kazans near the line where the result turns.
        let km = 81 - (x >> 40) as u8 % (stones + 1);
        let ko = (162 - stones as u32 - km as u32) as u8;
        let b = Board::from_parts(holes, [km, ko], [u8::MAX; 2], toguz::Side::White);
        if b.outcome().is_some() {
            continue;
        }
        let want = tables.result(&b).unwrap().unwrap();
        engine.clear();
        let r = engine.search(&b, &limits, &mut |_| {});
        let got = if r.score > MATE_BOUND || r.score == TB_WIN {
            GameResult::Win
        } else if r.score < -MATE_BOUND || r.score == -TB_WIN {
            GameResult::Loss
        } else {
            assert_eq!(r.score, 0, "{b}");
            GameResult::Draw
        };
        assert_eq!(got, want, "{b}");
        draws += (want == GameResult::Draw) as u32;
        checked += 1;
    }
    assert!(checked > 300 && draws > 10, "{checked} {draws}");
}

/// A search counts the nodes the tables answer (none without tables), and a
/// match gives each engine its own tables: only the engine with tables hits
/// them.
#[test]
fn table_hits_are_counted_per_engine() {
    use toguz::selfplay::{play_match_with, EngineSpec, MatchOptions, Openings, RunOptions};
    let tables = Arc::new(Tables::open(small()).unwrap());
    // Four stones on the board: every position after the root is in the
    // tables (at most 4 stones).
    let starts: Vec<Board> = [
        "0,0,0,1,0,0,0,2,0/0,1,0,0,0,0,0,0,0 w 79,79 -,-",
        "1,0,0,0,0,0,0,1,0/0,0,1,0,0,0,0,1,0 w 79,79 -,-",
    ]
    .iter()
    .map(|t| t.parse().unwrap())
    .collect();
    let limits = Limits {
        depth: Some(4),
        threads: 1,
        ..Limits::default()
    };
    for b in &starts {
        let mut plain = Engine::new(Config::default());
        assert_eq!(plain.search(b, &limits, &mut |_| {}).tb_hits, 0);
        let mut with = Engine::new(Config::default());
        with.set_tables(Some(tables.clone()));
        let r = with.search(b, &limits, &mut |_| {});
        assert!(r.tb_hits > 0 && r.tb_hits <= r.nodes, "{b}: {r:?}");
    }
    let mut a: EngineSpec = "full".parse().unwrap();
    a.tables = Some(tables.clone());
    let b: EngineSpec = "full".parse().unwrap();
    let opts = MatchOptions {
        games: 4,
        limits_a: limits,
        limits_b: limits,
        opening_plies: 0,
    };
    let r = play_match_with(
        &a,
        &b,
        &opts,
        &Openings::Positions(starts.clone()),
        &RunOptions::default(),
        &mut |_| {},
    );
    assert_eq!(r.games, 4);
    assert!(r.tb_hits[0] > 0 && r.tb_games[0] >= 2, "{r:?}");
    assert_eq!((r.tb_hits[1], r.tb_games[1]), (0, 0));
    // The same through the engine protocol: the tables by `setoption name
    // Tables`, the hits from the `tbhits` of its `info` lines.
    let mut x: EngineSpec = format!("exec:{} toguz engine", env!("CARGO_BIN_EXE_solver"))
        .parse()
        .unwrap();
    x.exec_options
        .push(("Tables".into(), small().display().to_string()));
    let r = play_match_with(
        &x,
        &b,
        &opts,
        &Openings::Positions(starts),
        &RunOptions::default(),
        &mut |_| {},
    );
    assert_eq!(r.engine_errors, [0, 0], "{r:?}");
    assert!(r.tb_hits[0] > 0 && r.tb_games[0] >= 2, "{r:?}");
    assert_eq!(r.tb_hits[1], 0);
}
