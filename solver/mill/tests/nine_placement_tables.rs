//! Placement-phase tables of the whole 4-stone game (moving phase up to 4
//! stones a side, then every placement sector) against independent oracles:
//! Malom's list of sectors, the placement search over the moving-phase
//! tables only, and the definition (a position's value is the best of its
//! moves' values) through the user-level rules (`movegen`), not the
//! generator's bitboard code.

use mill::games::nine::files::{self, GenerateObserver};
use mill::games::nine::placement::{self, SectorObserver};
use mill::index::nine::{self, Subspace};
use mill::malom;
use mill::probe::nine::Tablebases;
use mill::rules::board::Nine;
use mill::rules::position::Position;
use mill::rules::variant::RuleSet;
use mill::rules::{ending, legal_moves};
use mill::search::{MoveOrder, PlacementSearch};
use mill::tables::keys::Sector;
use std::path::{Path, PathBuf};
use tablebase::retro::Observer;
use tablebase::Outcome;

struct Quiet;
impl Observer for Quiet {}
impl GenerateObserver for Quiet {}
impl SectorObserver for Quiet {}

const STD: RuleSet = RuleSet::nine(true);
const STONES: u8 = 4;

/// The whole 4-stone game, generated once.
fn game_dir() -> &'static Path {
    static DIR: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    DIR.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("nine-placement-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let pairs: Vec<Subspace> = files::pairs(2 * STONES)
            .into_iter()
            .filter(|p| p.us <= STONES && p.them <= STONES)
            .collect();
        files::generate_pairs(&dir, STD, &pairs, &Quiet).unwrap();
        placement::generate(&dir, STD, STONES, &Quiet).unwrap();
        dir
    })
}

fn tables() -> Tablebases {
    Tablebases::open(game_dir(), STD).unwrap()
}

/// Every used slot of every sector of the game, as positions.
fn all_positions() -> Vec<Position> {
    Sector::all(STONES)
        .into_iter()
        .flat_map(|s| {
            (0..nine::size(s.subspace())).filter_map(move |slot| {
                nine::position(s.subspace(), slot).map(|(us, them)| s.position(us, them))
            })
        })
        .collect()
}

#[test]
fn sectors_are_maloms_plus_the_starts_of_the_smaller_games() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/malom/std.secval");
    let Ok(text) = std::fs::read_to_string(&dir) else {
        eprintln!("skipping: {} is absent", dir.display());
        return;
    };
    let mut theirs: Vec<Sector> = text
        .lines()
        .skip(3)
        .filter_map(|l| {
            let f: Vec<u8> = l
                .split_whitespace()
                .take(4)
                .map(|x| x.parse().unwrap())
                .collect();
            (f.len() == 4 && f[2] + f[3] > 0).then(|| Sector::new(f[0], f[1], f[2], f[3]))
        })
        .collect();
    theirs.extend((3..9).map(|k| Sector::new(0, 0, k, k)));
    theirs.sort();
    let mut ours = Sector::all(9);
    ours.sort();
    assert_eq!(ours, theirs);
}

#[test]
fn every_position_is_the_best_of_its_moves() {
    let tb = tables();
    let positions = all_positions();
    assert!(positions.len() > 100_000, "{}", positions.len());
    let mut outcomes = [0usize; 3];
    for pos in &positions {
        let stored = tb.outcome(pos).unwrap();
        outcomes[stored as usize] += 1;
        let best = if ending::<Nine>(pos, STD).is_some() {
            Outcome::Loss
        } else {
            legal_moves::<Nine>(pos, STD)
                .into_iter()
                .map(|m| {
                    let child = pos.apply(m);
                    if ending::<Nine>(&child, STD).is_some() {
                        Outcome::Win
                    } else {
                        tb.outcome(&child).unwrap().flip()
                    }
                })
                .max()
                .unwrap()
        };
        assert_eq!(stored, best, "{pos}");
    }
    // All three outcomes occur.
    assert!(outcomes.iter().all(|&n| n > 1000), "{outcomes:?}");
}

#[test]
fn tables_equal_the_search_on_random_positions() {
    // The search knows only the moving-phase tables. Its second move
    // ordering reaches the same values by other paths.
    let tb = tables();
    let mut search = PlacementSearch::with_table_mib(&tb, 16);
    let mut shuffled = PlacementSearch::with_table_mib(&tb, 16).with_order(MoveOrder::Shuffled(5));
    let positions = all_positions();
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    for i in 0..3000 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let pos = positions[(x % positions.len() as u64) as usize];
        let stored = tb.outcome(&pos).unwrap();
        assert_eq!(stored, search.value(&pos).unwrap(), "{pos}");
        if i % 3 == 0 {
            assert_eq!(stored, shuffled.value(&pos).unwrap(), "{pos} (shuffled)");
        }
    }
    // The empty boards of the 3- and 4-stone games.
    for k in 3..=STONES {
        let pos: Position = format!("{} w {k} {k}", ".".repeat(24)).parse().unwrap();
        assert_eq!(tb.outcome(&pos).unwrap(), search.value(&pos).unwrap());
        assert_eq!(tb.outcome(&pos).unwrap(), shuffled.value(&pos).unwrap());
    }
}

#[test]
fn verify_is_clean_and_catches_a_planted_error() {
    let tables = files::scan_all(game_dir(), STD).unwrap();
    for sector in Sector::all(STONES) {
        let (checked, bad) =
            placement::verify(&tables, game_dir(), STD, sector, 5, None, &Quiet).unwrap();
        assert!(bad.is_empty(), "{sector}: {bad:?}");
        assert_eq!(checked, nine::positions(sector.subspace()), "{sector}");
    }
    // A copy of the game with one sector rewritten wrongly.
    let copy = std::env::temp_dir().join(format!("nine-placement-bad-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&copy);
    std::fs::create_dir_all(&copy).unwrap();
    for entry in std::fs::read_dir(game_dir()).unwrap() {
        let p = entry.unwrap().path();
        std::fs::copy(&p, copy.join(p.file_name().unwrap())).unwrap();
    }
    let sector = Sector::new(2, 2, 1, 1);
    let path = files::sector_file_name(&copy, STD, sector);
    let table = tablebase::reader::Table::open(&path).unwrap();
    let mut values = table.values().unwrap();
    let slot = (0..values.len())
        .find(|&h| nine::position(sector.subspace(), h as u64).is_some())
        .unwrap();
    values[slot] = placement::stored(match values[slot].outcome() {
        Outcome::Win => Outcome::Loss,
        _ => Outcome::Win,
    });
    let header = table.header().clone();
    drop(table);
    // Rewritten in the generator's format: two-bit outcomes.
    let mut packed = vec![0u8; values.len().div_ceil(4)];
    for (i, v) in values.iter().enumerate() {
        let code = match v.outcome() {
            Outcome::Win => tablebase::format::OUTCOME_WIN,
            Outcome::Loss => tablebase::format::OUTCOME_LOSS,
            Outcome::Draw => tablebase::format::OUTCOME_DRAW,
        };
        packed[i / 4] |= code << (2 * (i % 4));
    }
    let mut rewritten =
        tablebase::format::summarize_outcomes(&packed, header.slots, header.positions);
    rewritten.label = header.label.clone();
    tablebase::format::write_outcome_table(&path, &rewritten, &packed, 3).unwrap();
    let tables = files::scan_all(&copy, STD).unwrap();
    let (_, bad) = placement::verify(&tables, &copy, STD, sector, 5, None, &Quiet).unwrap();
    assert_eq!(bad.len(), 1);
    assert_eq!(bad[0].slot, slot as u64);
    let _ = std::fs::remove_dir_all(&copy);
}

#[test]
fn malom_moving_sectors_agree_and_placement_ones_are_reported_missing() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/malom");
    if !dir.join("std_3_3_0_0.sec2").exists() {
        eprintln!("skipping: {} is absent", dir.display());
        return;
    }
    let id = malom::SectorId {
        w: 3,
        b: 4,
        wf: 0,
        bf: 0,
    };
    let sector = malom::Sector::open(&dir, id).unwrap();
    let (moving, _) = files::scan_all(game_dir(), STD).unwrap();
    let values = moving[&Subspace::new(3, 4)].values().unwrap();
    let c = malom::compare(id, &sector, |h| {
        nine::position(Subspace::new(3, 4), h).map(|_| values[h as usize].outcome())
    });
    assert_eq!((c.disagree, c.unused_mismatch), (0, 0));
    assert_eq!(c.agree, nine::positions(Subspace::new(3, 4)));
    // A wrong table is caught.
    let c = malom::compare(id, &sector, |h| {
        nine::position(Subspace::new(3, 4), h).map(|_| values[h as usize].outcome().flip())
    });
    assert!(c.disagree > 0 && c.examples.len() == 10);
}
