//! Probing and the placement search against the tablebases and against a
//! plain minimax without pruning or transpositions.

use mill::games::nine::files::{generate, GenerateObserver};
use mill::index::nine::{self, Subspace};
use mill::probe::nine::{ProbeError, Tablebases};
use mill::rules::board::Nine;
use mill::rules::position::{Color, Position};
use mill::rules::variant::RuleSet;
use mill::rules::{ending, legal_moves};
use mill::search::PlacementSearch;
use std::path::PathBuf;
use tablebase::retro::Observer;
use tablebase::Outcome;

struct Quiet;
impl Observer for Quiet {}
impl GenerateObserver for Quiet {}

const STD: RuleSet = RuleSet::nine(true);

fn table_dir() -> PathBuf {
    std::env::temp_dir().join(format!("nine-probe-{}", std::process::id()))
}

fn tables() -> &'static Tablebases {
    static TB: std::sync::OnceLock<Tablebases> = std::sync::OnceLock::new();
    TB.get_or_init(|| {
        let dir = table_dir();
        let _ = std::fs::remove_dir_all(&dir);
        generate(&dir, STD, 8, &Quiet).unwrap();
        Tablebases::open(&dir, STD).unwrap()
    })
}

struct Rng(u64);
impl Rng {
    fn next(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

/// Random legal moving-phase positions of subspaces with at most 8 stones,
/// in random orientation and colour.
fn random_positions(n: usize) -> Vec<Position> {
    let mut rng = Rng(0xDEAD_BEEF_1234_5678);
    let subs: Vec<Subspace> = (3..=5u8)
        .flat_map(|w| (3..=5u8).map(move |b| Subspace::new(w, b)))
        .filter(|s| s.us + s.them <= 8)
        .collect();
    let mut out = Vec::new();
    while out.len() < n {
        let sub = subs[rng.next(subs.len() as u64) as usize];
        let Some((us, them)) = nine::position(sub, rng.next(nine::size(sub))) else {
            continue;
        };
        let side = if rng.next(2) == 0 {
            Color::White
        } else {
            Color::Black
        };
        out.push(Position::from_mover(us, them, side).transform::<Nine>(rng.next(16) as usize));
    }
    out
}

#[test]
fn probe_agrees_with_the_best_move() {
    let tb = tables();
    for pos in random_positions(3000) {
        let v = tb.probe(&pos).unwrap();
        let moves = tb.best_moves(&pos).unwrap();
        match moves.first() {
            None => assert_eq!(v, tablebase::Value::loss(0), "{pos}"),
            Some(&(_, best)) => assert_eq!(best, v, "{pos}"),
        }
        // Symmetric images and the colour swap probe alike.
        assert_eq!(tb.probe(&pos.transform::<Nine>(5)).unwrap(), v);
        assert_eq!(tb.probe(&pos.swap_colors()).unwrap(), v);
    }
}

#[test]
fn in_memory_probes_equal_mapped_probes() {
    let mapped = tables();
    let resident = Tablebases::open(&table_dir(), STD).unwrap().in_memory();
    let wdl = Tablebases::open(&table_dir(), STD).unwrap().in_memory_wdl();
    for pos in random_positions(2000) {
        let want = mapped.probe(&pos).unwrap();
        assert_eq!(resident.probe(&pos).unwrap(), want, "{pos}");
        assert_eq!(wdl.probe(&pos).unwrap(), want, "{pos}");
        if !pos.placing() && want.distance() != Some(0) {
            let (us, them) = (pos.us(), pos.them());
            assert_eq!(wdl.probe_outcome(us, them).unwrap(), want.outcome());
            assert_eq!(mapped.probe_outcome(us, them).unwrap(), want.outcome());
        }
    }
    let big: Position = "......WWWWWWWWWBBBBBBBBB w 0 0".parse().unwrap();
    assert!(resident.probe(&big).is_err());
    // Ten stones on a side: no table, an error whichever the memory mode
    // (not the 9-9 table read at a wrong slot).
    let ten = 0x3FF;
    for tb in [mapped, &resident, &wdl] {
        assert!(tb.probe_bits(ten, 0x7 << 12).is_err());
        assert!(tb.probe_outcome(0x7 << 12, ten).is_err());
    }
}

/// `resident` promises a probe that reads memory only: once it says so,
/// the position and its moves probe alike with the files gone. It is never
/// said before the tables are loaded, nor in the mapped mode.
#[test]
fn resident_probes_need_no_file() {
    tables();
    let copy = std::env::temp_dir().join(format!("nine-resident-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&copy);
    std::fs::create_dir_all(&copy).unwrap();
    for entry in std::fs::read_dir(table_dir()).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, copy.join(path.file_name().unwrap())).unwrap();
    }
    let resident = Tablebases::open(&copy, STD).unwrap().in_memory();
    let positions = random_positions(300);
    assert!(!resident.resident(&positions[0]), "nothing is loaded yet");
    for pos in &positions {
        let want = (
            tables().probe(pos).unwrap(),
            tables().move_values(pos).unwrap(),
        );
        assert_eq!(resident.probe(pos).unwrap(), want.0, "{pos}");
        assert_eq!(resident.move_values(pos).unwrap(), want.1, "{pos}");
        assert!(!tables().resident(pos), "mapped tables are never resident");
    }
    // Every table a probe reads is loaded once it has been probed.
    let said: Vec<&Position> = positions.iter().filter(|p| resident.resident(p)).collect();
    assert_eq!(said.len(), positions.len());
    std::fs::remove_dir_all(&copy).unwrap();
    for pos in said {
        let probe = resident.probe(pos).unwrap();
        assert_eq!(probe, tables().probe(pos).unwrap(), "{pos} without files");
        let moves = resident.move_values(pos).unwrap();
        assert_eq!(moves, tables().move_values(pos).unwrap(), "{pos}");
    }
}

#[test]
fn probe_errors_instead_of_panicking() {
    let tb = tables();
    let placing: Position = "........................ w 9 9".parse().unwrap();
    assert!(matches!(tb.probe(&placing), Err(ProbeError::Placement)));
    // 9 against 9 is not generated in the test directory.
    let big: Position = "......WWWWWWWWWBBBBBBBBB w 0 0".parse().unwrap();
    let err = tb.probe(&big).unwrap_err().to_string();
    assert!(
        err.contains("nine-flying-9-9.tb") && err.contains("missing"),
        "{err}"
    );
    assert!(Tablebases::open("/nonexistent/tb".as_ref(), STD).is_err());
}

/// Plain minimax to the end of placement, scoring moving-phase positions
/// by probing.
fn minimax(tb: &Tablebases, pos: &Position) -> i8 {
    if ending::<Nine>(pos, STD).is_some() {
        return -1;
    }
    if !pos.placing() {
        return match tb.probe(pos).unwrap().outcome() {
            Outcome::Win => 1,
            Outcome::Draw => 0,
            Outcome::Loss => -1,
        };
    }
    legal_moves::<Nine>(pos, STD)
        .into_iter()
        .map(|m| -minimax(tb, &pos.apply(m)))
        .max()
        .unwrap()
}

#[test]
fn placement_search_equals_plain_minimax() {
    let tb = tables();
    let mut rng = Rng(42);
    let mut seen = [0; 3];
    // Small placement positions whose moving phase has at most 8 stones.
    let mut tested = 0;
    while tested < 12 {
        let (w_board, b_board, hand) =
            [(1, 1, 2), (2, 1, 2), (2, 2, 2), (2, 2, 1), (3, 2, 1)][rng.next(5) as usize];
        let mut stones = [0u32; 2];
        for (c, n) in [(0, w_board), (1, b_board)] {
            while stones[c].count_ones() < n {
                let p = 1 << rng.next(24);
                if (stones[0] | stones[1]) & p == 0 {
                    stones[c] |= p;
                }
            }
        }
        let pos = Position {
            stones,
            hand: [hand, hand],
            to_move: Color::White,
        };
        if pos.validate::<Nine>(RuleSet::nine(true)).is_err() {
            continue;
        }
        let want = minimax(tb, &pos);
        let mut reports = Vec::new();
        let mut search = PlacementSearch::new(tb).with_progress(100, |s| reports.push(s.nodes));
        let got = search.value(&pos).unwrap();
        let nodes = search.stats().nodes;
        drop(search);
        // Reports come as the node count passes multiples of 100 (counted
        // in batches of up to 1,024 nodes).
        assert!(reports.windows(2).all(|w| w[0] < w[1]), "{reports:?}");
        assert!(reports.last().is_none_or(|&n| n <= nodes));
        assert_eq!(reports.is_empty(), nodes < 100, "{reports:?} {nodes}");
        let want_outcome = [Outcome::Loss, Outcome::Draw, Outcome::Win][(want + 1) as usize];
        assert_eq!(got, want_outcome, "{pos}");
        // A two-thread search splitting at every node, and a search whose
        // 16-entry table keeps overwriting itself, agree.
        let parallel = PlacementSearch::with_table_bits(tb, 10)
            .with_threads(2)
            .unwrap()
            .with_split_depth(1)
            .value(&pos)
            .unwrap();
        assert_eq!(parallel, want_outcome, "{pos}");
        let tiny = PlacementSearch::with_table_bits(tb, 4).value(&pos).unwrap();
        assert_eq!(tiny, want_outcome, "{pos}");
        for (m, o) in PlacementSearch::new(tb).move_values(&pos).unwrap() {
            assert_eq!(-minimax(tb, &pos.apply(m)), o as i8 - 1, "{pos} {m}");
        }
        seen[(want + 1) as usize] += 1;
        tested += 1;
    }
    assert!(seen.iter().filter(|&&n| n > 0).count() >= 2, "{seen:?}");
}

/// A search resumed from what another kept (`PlacementSearch::keep`,
/// `resume`: how a server's or a player's search goes on between
/// questions) gives the same values from its kept table, in a fraction of
/// the nodes; an `Analyst` resumes only a table as large as the position
/// needs.
#[test]
fn a_resumed_search_keeps_its_table() {
    let tb = tables();
    let pos: Position = "W.W......B.B............ w 2 2".parse().unwrap();
    let mut first = PlacementSearch::new(tb);
    let value = first.value(&pos).unwrap();
    let moves = first.move_values(&pos).unwrap();
    let fresh = first.stats().nodes;
    let kept = first.keep();
    assert!(kept.holds_mib(16) && !kept.holds_mib(32));
    let mut resumed = PlacementSearch::resume(tb, kept);
    assert_eq!(resumed.value(&pos).unwrap(), value);
    assert_eq!(resumed.move_values(&pos).unwrap(), moves);
    let again = resumed.stats().nodes;
    assert!(
        fresh > 100 && again * 10 < fresh,
        "{fresh} nodes, then {again}"
    );
    // The analyst's answers are the same with a kept table and without.
    let options = mill::SearchOptions {
        hash_mib: 16,
        threads: 1,
    };
    let mut plain = mill::probe::analysis::Analyst::new(tb, options);
    let want = plain.analyse(&pos).unwrap();
    let mut analyst = mill::probe::analysis::Analyst::resume(tb, options, Some(resumed.keep()));
    assert_eq!(analyst.analyse(&pos).unwrap(), want);
    assert!(analyst.keep().is_some_and(|k| k.holds_mib(16)));
}

#[test]
fn searches_on_the_global_pool_load_tables_lazily_without_deadlock() {
    use rayon::prelude::*;
    let want = {
        let tb = tables();
        let pos: Position = "W..............B........ w 3 3".parse().unwrap();
        PlacementSearch::new(tb).value(&pos).unwrap()
    };
    // Fresh in-memory tables: the first searches all want the same tables
    // loaded at once, from threads of the global pool, on one thread and
    // on two.
    for threads in [1, 2] {
        let tb = Tablebases::open(&table_dir(), STD).unwrap().in_memory_wdl();
        let values: Vec<Outcome> = (0..8)
            .into_par_iter()
            .map(|i| {
                let pos: Position = "W..............B........ w 3 3".parse().unwrap();
                let search = PlacementSearch::with_table_bits(&tb, 12);
                let mut search = if threads > 1 && i % 2 == 0 {
                    search.with_threads(threads).unwrap()
                } else {
                    search
                };
                search.value(&pos.transform::<Nine>(i)).unwrap()
            })
            .collect();
        assert!(values.iter().all(|&v| v == want), "{values:?}");
    }
}

#[test]
fn last_placement_matches_the_tablebase() {
    // Black places its last stone; the move values come from the tables.
    let tb = tables();
    let mut rng = Rng(7);
    for _ in 0..40 {
        let mut stones = [0u32; 2];
        for (c, n) in [(0, 4), (1, 3)] {
            while stones[c].count_ones() < n {
                let p = 1 << rng.next(24);
                if (stones[0] | stones[1]) & p == 0 {
                    stones[c] |= p;
                }
            }
        }
        let pos = Position {
            stones,
            hand: [0, 1],
            to_move: Color::Black,
        };
        if pos.validate::<Nine>(RuleSet::nine(true)).is_err() || ending::<Nine>(&pos, STD).is_some()
        {
            continue;
        }
        let direct = legal_moves::<Nine>(&pos, STD)
            .into_iter()
            .map(|m| {
                let child = pos.apply(m);
                if ending::<Nine>(&child, STD).is_some() {
                    Outcome::Win
                } else {
                    tb.probe(&child).unwrap().outcome().flip()
                }
            })
            .max()
            .unwrap();
        let mut search = PlacementSearch::new(tb);
        assert_eq!(search.value(&pos).unwrap(), direct, "{pos}");
        let moves = search.move_values(&pos).unwrap();
        assert_eq!(moves[0].1, direct);
    }
}
