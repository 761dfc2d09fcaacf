//! The placement tables of the standard game against Malom and against the
//! search. Needs every table of the game (`solver nine generate
//! --placement`): `NINE_TABLEBASES=DIR cargo test --release -p mill
//! --test nine_placement_full -- --ignored`. The search comparison takes
//! `NINE_SAMPLES=n` positions uniformly over all placement positions
//! (default 1,000,000), then 20 of every sector (1 where more than 12
//! stones are in hand), then the empty boards. The search
//! comparison also runs on the tables of a smaller game (`solver nine
//! generate --stones K --placement`).

use mill::games::nine::files::scan_all;
use mill::index::nine::{self, Subspace};
use mill::malom;
use mill::probe::nine::Tablebases;
use mill::rules::position::Position;
use mill::rules::variant::RuleSet;
use mill::search::PlacementSearch;
use mill::tables::keys::Sector;
use std::path::{Path, PathBuf};

const STD: RuleSet = RuleSet::nine(true);

fn full_dir() -> PathBuf {
    PathBuf::from(std::env::var_os("NINE_TABLEBASES").expect("set NINE_TABLEBASES=DIR"))
}

#[test]
#[ignore = "needs every table of the game (NINE_TABLEBASES)"]
fn every_malom_sector_equals_our_tables() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/malom");
    let (moving, sectors) = scan_all(&full_dir(), STD).unwrap();
    let ids = malom::sector_files(&dir).unwrap();
    assert!(ids.len() >= 18, "{} Malom sectors", ids.len());
    for id in ids {
        let sector = malom::Sector::open(&dir, id).unwrap();
        let table = if id.wf == 0 && id.bf == 0 {
            &moving[&Subspace::new(id.w, id.b)]
        } else {
            &sectors[&Sector::new(id.w, id.b, id.wf, id.bf)]
        };
        let values = table.values().unwrap();
        let sub = Subspace::new(id.w, id.b);
        let c = malom::compare(id, &sector, |h| {
            nine::position(sub, h).map(|_| values[h as usize].outcome())
        });
        eprintln!("{id:?}: {} agree", c.agree);
        assert_eq!((c.disagree, c.unused_mismatch), (0, 0), "{id:?} {c:?}");
        assert_eq!(c.agree, nine::positions(sub));
    }
}

/// A xorshift generator: the same positions every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

#[test]
#[ignore = "needs every table of the game (NINE_TABLEBASES)"]
fn random_placement_positions_equal_the_search() {
    let n: u64 = std::env::var("NINE_SAMPLES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1_000_000);
    let tb = Tablebases::open(&full_dir(), STD).unwrap().in_memory_wdl();
    // The largest game whose tables are all there (9: the standard game).
    let stones = (3..=9)
        .rev()
        .find(|&k| matches!(tb.sector_table(Sector::new(0, 0, k, k)), Ok(Some(_))))
        .expect("placement tables");
    let sectors = Sector::all(stones);
    let mut search = PlacementSearch::with_table_mib(&tb, 1024)
        .with_threads(std::thread::available_parallelism().map_or(1, |n| n.get()))
        .unwrap();
    let mut check = |pos: Position| {
        assert_eq!(
            tb.outcome(&pos).unwrap(),
            search.value(&pos).unwrap(),
            "{pos}"
        );
    };
    let mut rng = Rng(0x0DDB_1A5E_5BAD_5EED);
    // 1. Uniform over every placement position of the game: a random slot
    //    of all sectors together, unused slots drawn again.
    let ends: Vec<u64> = sectors
        .iter()
        .scan(0, |end, s| {
            *end += nine::size(s.subspace());
            Some(*end)
        })
        .collect();
    let total = *ends.last().unwrap();
    let mut done = 0;
    while done < n {
        let slot = rng.next() % total;
        let i = ends.partition_point(|&end| end <= slot);
        let s = sectors[i];
        let local = slot - (ends[i] - nine::size(s.subspace()));
        if let Some((us, them)) = nine::position(s.subspace(), local) {
            check(s.position(us, them));
            done += 1;
            if done % 100_000 == 0 {
                eprintln!("{done} uniform positions equal the search");
            }
        }
    }
    // 2. Every sector, as most positions lie in the sectors with few stones
    //    in hand: 20 positions of each (one where the search from the
    //    nearly empty board takes seconds, more than 12 stones in hand).
    for s in &sectors {
        let want = if s.hands() > 12 { 1 } else { 20 };
        let mut got = 0;
        for _ in 0..1000 * want {
            if got == want {
                break;
            }
            if let Some((us, them)) =
                nine::position(s.subspace(), rng.next() % nine::size(s.subspace()))
            {
                check(s.position(us, them));
                got += 1;
            }
        }
        assert_eq!(got, want, "{s:?}: too few used slots found");
    }
    eprintln!("every sector's samples equal the search");
    for k in 3..=stones {
        check(format!("{} w {k} {k}", ".".repeat(24)).parse().unwrap());
    }
}
