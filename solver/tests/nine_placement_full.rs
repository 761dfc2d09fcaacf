//! The placement tables of the standard game against Malom and against the
//! search. Needs every table of the game (`solver nine generate
//! --placement`): `NINE_TABLEBASES=DIR cargo test --release -p solver
//! --test nine_placement_full -- --ignored` (`NINE_SAMPLES=n` random
//! positions for the search comparison, default 1,000,000). The search
//! comparison also runs on the tables of a smaller game (`solver nine
//! generate --stones K --placement`).

use solver::morris::database::scan_all;
use solver::morris::index::{self, Subspace};
use solver::morris::malom;
use solver::morris::placement::PlacementSearch;
use solver::morris::position::{Position, Rules};
use solver::morris::probe::Tablebases;
use solver::morris::sector::Sector;
use std::path::{Path, PathBuf};

const STD: Rules = Rules { flying: true };

fn full_dir() -> PathBuf {
    PathBuf::from(std::env::var_os("NINE_TABLEBASES").expect("set NINE_TABLEBASES=DIR"))
}

#[test]
#[ignore = "needs every table of the game (NINE_TABLEBASES)"]
fn every_malom_sector_equals_our_tables() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data/malom");
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
            index::position(sub, h).map(|_| values[h as usize].outcome())
        });
        eprintln!("{id:?}: {} agree", c.agree);
        assert_eq!((c.disagree, c.unused_mismatch), (0, 0), "{id:?} {c:?}");
        assert_eq!(c.agree, index::positions(sub));
    }
}

#[test]
#[ignore = "needs every table of the game (NINE_TABLEBASES)"]
fn random_placement_positions_equal_the_search() {
    let n: usize = std::env::var("NINE_SAMPLES")
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
    let mut x = 0x0DDB_1A5E_5BAD_5EEDu64;
    let mut done = 0;
    while done < n {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        // Weighted towards late sectors (early ones take the search seconds).
        let s = sectors[(x % sectors.len() as u64) as usize];
        if s.hands() > 12 && !x.is_multiple_of(1000) {
            continue;
        }
        let Some((us, them)) = index::position(s.subspace(), (x >> 8) % s.size()) else {
            continue;
        };
        let pos = s.position(us, them);
        assert_eq!(
            tb.outcome(&pos).unwrap(),
            search.value(&pos).unwrap(),
            "{pos}"
        );
        done += 1;
    }
    for k in 3..=stones {
        let pos: Position = format!("{} w {k} {k}", ".".repeat(24)).parse().unwrap();
        assert_eq!(
            tb.outcome(&pos).unwrap(),
            search.value(&pos).unwrap(),
            "{k} stones"
        );
    }
}
