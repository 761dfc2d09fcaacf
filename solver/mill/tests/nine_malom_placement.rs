//! The placement search against Malom's placement sectors: every used slot
//! of the early sectors (`std_0_0_9_9`, `std_0_1_9_8`, `std_1_1_8_8`,
//! `std_1_2_8_7`) and random used slots of the eleven later ones, decoded as
//! described in `shared/data/malom/FORMAT.md` section 4, have Malom's
//! win/draw/loss. The comparisons need all 49 subspaces
//! (`NINE_TABLEBASES=dir cargo test --release -p mill --test nine_malom_placement
//! -- --ignored`; `MALOM_SAMPLES=n` slots per later sector, default 300);
//! the slot decoding itself is checked without them.

use mill::games::nine::bits::{transform, FULL};
use mill::index::nine::{self, Subspace};
use mill::malom::{Entry, Sector, SectorId};
use mill::probe::nine::Tablebases;
use mill::rules::board::Nine;
use mill::rules::position::{Color, Position};
use mill::rules::variant::RuleSet;
use mill::search::PlacementSearch;
use std::path::{Path, PathBuf};
use tablebase::binomial::{binomial, colex_unrank, scatter};
use tablebase::Outcome;

/// The sectors compared: (W, B, WF, BF) from the side to move's view.
const SECTORS: [(u8, u8, u8, u8); 4] = [(0, 0, 9, 9), (0, 1, 9, 8), (1, 1, 8, 8), (1, 2, 8, 7)];

/// classes(W) for W = 0..9, as listed in FORMAT.md.
const CLASSES: [u64; 10] = [1, 4, 30, 158, 757, 2830, 8774, 22188, 46879, 82880];

fn malom_dir() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/malom");
    if dir.join("std.secval").exists() {
        Some(dir)
    } else {
        eprintln!("skipping: {} is absent", dir.display());
        None
    }
}

fn id((w, b, wf, bf): (u8, u8, u8, u8)) -> SectorId {
    SectorId { w, b, wf, bf }
}

/// Seeds of `w`-stone patterns in increasing numeric order (FORMAT.md §4.1:
/// a seed is the numerically smallest of its 16 images; Malom numbers the
/// orbits in increasing order of the patterns, Gosper order).
fn seeds(w: u32) -> Vec<u32> {
    (0..=FULL)
        .filter(|p| p.count_ones() == w)
        .filter(|&p| (0..16).all(|op| transform(op, p) >= p))
        .collect()
}

/// A decoded slot: the board (side to move, opponent), or `None` for a Sym
/// slot (the board is not the smallest of its images under the maps that
/// fix the seed, FORMAT.md §4 last paragraph).
fn decode(seeds: &[u32], w: u8, b: u8, h: u64) -> Option<(u32, u32)> {
    let free = binomial(24 - w as usize, b as usize);
    let seed = seeds[(h / free) as usize];
    let them = scatter(colex_unrank(h % free, b as usize), !seed & FULL);
    let a = seed as u64 | (them as u64) << 24;
    let smallest = (0..16)
        .filter(|&op| transform(op, seed) == seed)
        .map(|op| seed as u64 | (transform(op, them) as u64) << 24)
        .min()
        .unwrap();
    (a == smallest).then_some((seed, them))
}

/// The position of a decoded slot: White to move when both hands are
/// equal, else Black (who then holds the extra stone in hand).
fn position((_, _, wf, bf): (u8, u8, u8, u8), us: u32, them: u32) -> Position {
    let to_move = if wf == bf { Color::White } else { Color::Black };
    let mut stones = [0; 2];
    let mut hand = [0; 2];
    stones[to_move.index()] = us;
    stones[to_move.other().index()] = them;
    hand[to_move.index()] = wf;
    hand[to_move.other().index()] = bf;
    Position {
        stones,
        hand,
        to_move,
    }
}

#[test]
fn slot_decoding_of_the_placement_sectors() {
    let Some(dir) = malom_dir() else { return };
    let seeds: Vec<Vec<u32>> = (0..=1).map(seeds).collect();
    // Our own orbit count agrees with FORMAT.md's classes(W).
    assert_eq!(seeds[0], [0]);
    assert_eq!(seeds[1].len() as u64, CLASSES[1]);
    // Burnside: orbits of single points = average number of fixed points
    // over the 16 maps.
    let fixed: u32 = (0..16)
        .map(|op| (0..24).filter(|&p| transform(op, 1 << p) == 1 << p).count() as u32)
        .sum();
    assert_eq!(fixed % 16, 0);
    assert_eq!(fixed / 16, 4);
    for s in SECTORS {
        let (w, b, _, _) = s;
        let sector = Sector::open(&dir, id(s)).unwrap();
        let slots = CLASSES[w as usize] * binomial(24 - w as usize, b as usize);
        assert_eq!(sector.len(), slots, "{s:?}: classes(W) × C(24 − W, B)");
        let mut used = 0;
        for h in 0..slots {
            let decoded = decode(&seeds[w as usize], w, b, h);
            // Our Sym slots are Malom's.
            let sym = matches!(sector.entry(h), Entry::Sym);
            assert_eq!(decoded.is_none(), sym, "{s:?} slot {h}");
            // The library's index (built for the moving phase) decodes alike.
            assert_eq!(
                nine::position(Subspace::new(w, b), h),
                decoded,
                "{s:?} slot {h}"
            );
            let Some((us, them)) = decoded else { continue };
            used += 1;
            assert_eq!((us.count_ones(), them.count_ones()), (w as u32, b as u32));
            assert_eq!(us & them, 0);
            let pos = position(s, us, them);
            pos.validate::<Nine>(RuleSet::nine(true))
                .unwrap_or_else(|e| panic!("{s:?} slot {h}: {pos}: {e}"));
            assert!(pos.placing());
            // Each side has placed as many stones as the hands say.
            assert_eq!(pos.material(Color::White), 9, "{pos}");
            assert_eq!(pos.material(Color::Black), 9, "{pos}");
            // Hashing the board again (FORMAT.md §4 steps 1-4) gives the slot.
            assert_eq!(nine::index(us, them), h, "{pos}");
        }
        match s {
            // The empty board: one slot, the start position.
            (0, 0, _, _) => {
                assert_eq!(slots, 1);
                assert_eq!(used, 1);
                let start = position(s, 0, 0);
                assert_eq!(start, Position::start(RuleSet::nine(true)));
                // Gasser 1993: the start position is a draw.
                assert_eq!(sector.entry(0), Entry::Value(Outcome::Draw, None));
            }
            // One white stone: 24 slots, one per orbit of points (4).
            (0, 1, _, _) => {
                assert_eq!(slots, 24);
                assert_eq!(used, 4);
            }
            _ => assert!(used > 0),
        }
    }
}

/// The tablebases of `NINE_TABLEBASES` (outcomes in memory) and a search
/// on all cores with a 1 GiB transposition table, or `None` to skip.
fn tables() -> Option<Tablebases> {
    let Some(tables) = std::env::var_os("NINE_TABLEBASES") else {
        eprintln!("skipping: set NINE_TABLEBASES to a directory with all 49 subspaces");
        return None;
    };
    let tb = Tablebases::open(Path::new(&tables), RuleSet::nine(true))
        .unwrap()
        .in_memory_wdl();
    tb.preload(&Tablebases::reachable(&Position::start(RuleSet::nine(
        true,
    ))))
    .unwrap();
    Some(tb)
}

fn search(tb: &Tablebases) -> PlacementSearch<'_, Tablebases> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    PlacementSearch::with_table_mib(tb, 1024)
        .with_threads(threads)
        .unwrap()
}

/// Compare the search with Malom on the used slots `slots` of sector `s`;
/// counts of (loss, draw, win) compared.
fn compare(
    search: &mut PlacementSearch<Tablebases>,
    dir: &Path,
    s: (u8, u8, u8, u8),
    slots: impl Iterator<Item = u64>,
    seeds: &[u32],
) -> [u64; 3] {
    let (w, b, _, _) = s;
    let sector = Sector::open(dir, id(s)).unwrap();
    let mut compared = [0u64; 3];
    for h in slots {
        let Some((us, them)) = decode(seeds, w, b, h) else {
            continue;
        };
        let Entry::Value(want, _) = sector.entry(h) else {
            panic!("{s:?} slot {h}: Malom has Sym where we decode a position");
        };
        let pos = position(s, us, them);
        let got = search.value(&pos).unwrap();
        assert_eq!(got, want, "{s:?} slot {h}: {pos}");
        compared[want as usize] += 1;
    }
    eprintln!("{s:?}: {compared:?} (loss, draw, win) equal to Malom");
    compared
}

#[test]
#[ignore = "needs all 49 subspaces: NINE_TABLEBASES=dir; about 5 minutes on 2 cores"]
fn early_placement_sectors_equal_malom() {
    let Some(dir) = malom_dir() else { return };
    let Some(tb) = tables() else { return };
    let mut search = search(&tb);
    let seeds: Vec<Vec<u32>> = (0..=1).map(seeds).collect();
    let mut total = [0u64; 3];
    // One search for all: the start position first (the deepest search);
    // its transposition table serves the later sectors.
    for s in SECTORS {
        let n = Sector::open(&dir, id(s)).unwrap().len();
        let c = compare(&mut search, &dir, s, 0..n, &seeds[s.0 as usize]);
        (0..3).for_each(|i| total[i] += c[i]);
    }
    // The start position is a draw (Gasser 1993), so draws were compared.
    assert!(total[1] > 0);
}

/// Later placement sectors in `shared/data/malom/`, (W, B, WF, BF).
const LATER: [(u8, u8, u8, u8); 11] = [
    (1, 3, 7, 6),
    (2, 2, 7, 7),
    (2, 3, 6, 6),
    (2, 3, 7, 6),
    (2, 4, 6, 5),
    (3, 3, 5, 5),
    (3, 3, 6, 5),
    (3, 3, 6, 6),
    (3, 4, 5, 5),
    (3, 4, 6, 5),
    (4, 3, 5, 5),
];

#[test]
#[ignore = "needs all 49 subspaces: NINE_TABLEBASES=dir; a few minutes"]
fn later_placement_sectors_equal_malom_sampled() {
    let Some(dir) = malom_dir() else { return };
    let Some(tb) = tables() else { return };
    let mut search = search(&tb);
    let seeds: Vec<Vec<u32>> = (0..=4).map(seeds).collect();
    let per_sector: u64 = std::env::var("MALOM_SAMPLES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(300);
    let mut total = [0u64; 3];
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    for s in LATER {
        let n = Sector::open(&dir, id(s)).unwrap().len();
        // Random slots; Sym slots are skipped, so take more than needed.
        let slots: Vec<u64> = (0..4 * per_sector)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x % n
            })
            .filter(|&h| decode(&seeds[s.0 as usize], s.0, s.1, h).is_some())
            .take(per_sector as usize)
            .collect();
        let c = compare(
            &mut search,
            &dir,
            s,
            slots.into_iter(),
            &seeds[s.0 as usize],
        );
        assert_eq!(c.iter().sum::<u64>(), per_sector, "{s:?}");
        (0..3).for_each(|i| total[i] += c[i]);
    }
    // All three outcomes occur among the samples.
    assert!(total.iter().all(|&n| n > 0), "{total:?}");
}
