//! Nine Men's Morris tablebases against independent oracles: Malom's
//! perfect-play sectors, a forward level-by-level computation straight from
//! the definition (no predecessors, no counters), the forward `verify` pass,
//! and the published counts; plus determinism, resumption and bad input.

use mill::games::nine::files::{self, file_name, generate, scan, GenerateObserver};
use mill::index::nine::{self, Subspace};
use mill::malom::{Entry, Sector, SectorId};
use mill::rules::moving::for_each_move;
use mill::rules::variant::RuleSet;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use tablebase::retro::Observer;
use tablebase::{Outcome, Value};

struct Quiet;
impl Observer for Quiet {}
impl GenerateObserver for Quiet {}

const STD: RuleSet = RuleSet::nine(true);

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("nine-tb-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn malom_dir() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/malom");
    if dir.join("std.secval").exists() {
        Some(dir)
    } else {
        eprintln!("skipping the Malom comparison: {} is absent", dir.display());
        None
    }
}

/// Tables up to 7 stones, generated once per test binary.
fn small_tables() -> &'static Path {
    static DIR: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    DIR.get_or_init(|| {
        let dir = temp_dir("small");
        generate(&dir, STD, 7, &Quiet).unwrap();
        dir
    })
}

#[test]
fn counts_equal_malom_and_gasser() {
    let tables = scan(small_tables(), STD).unwrap();
    let h = |w, b| tables[&Subspace::new(w, b)].header().clone();
    // Published counts (Malom; Gasser 1993 for the deepest 3-3 loss).
    let (a, b, c) = (h(3, 3), h(3, 4), h(4, 3));
    assert_eq!((a.wins, a.losses, a.draws), (140_621, 28_736, 269));
    assert_eq!(a.max_loss, 26);
    assert_eq!((b.wins, b.losses, b.draws), (102_281, 0, 658_117));
    assert_eq!((c.wins, c.losses, c.draws), (75_397, 3_095, 681_906));
}

#[test]
fn every_position_equals_malom() {
    let Some(malom) = malom_dir() else { return };
    let tables = scan(small_tables(), STD).unwrap();
    for (w, b) in [(3u8, 3u8), (3, 4), (4, 3)] {
        let sub = Subspace::new(w, b);
        let ours = tables[&sub].values().unwrap();
        let id = SectorId { w, b, wf: 0, bf: 0 };
        let sector = Sector::open(&malom, id).unwrap();
        assert_eq!(sector.len(), nine::size(sub), "{sub}: same slot count");
        for slot in 0..nine::size(sub) {
            let used = nine::position(sub, slot).is_some();
            match sector.entry(slot) {
                Entry::Sym => assert!(!used, "{sub} slot {slot}: Malom redirects, we store"),
                Entry::Value(outcome, plies) => {
                    assert!(used, "{sub} slot {slot}: Malom stores, we do not");
                    let v = ours[slot as usize];
                    assert_eq!(v.outcome(), outcome, "{sub} slot {slot}");
                    // In 3-3 every removal ends the game: DTC is plies to the end.
                    if (w, b) == (3, 3) {
                        assert_eq!(v.distance(), plies, "{sub} slot {slot}");
                    }
                }
            }
        }
    }
}

/// Values of one pair computed level by level from the definition, with
/// successors from forward generation only.
fn oracle(pair: Subspace, exits: &BTreeMap<Subspace, Vec<Value>>) -> Vec<Vec<Value>> {
    let parts = if pair.us == pair.them {
        vec![pair]
    } else {
        vec![pair, pair.swapped()]
    };
    // Per position: successor slots in the other part, and the exit outcomes.
    let mut succ: Vec<Vec<Vec<u32>>> = Vec::new();
    let mut exit_best: Vec<Vec<Option<Outcome>>> = Vec::new();
    let mut used: Vec<Vec<bool>> = Vec::new();
    for sub in &parts {
        let n = nine::size(*sub) as usize;
        let (mut s, mut e, mut u) = (vec![Vec::new(); n], vec![None; n], vec![false; n]);
        for slot in 0..n {
            let Some((us, them)) = nine::position(*sub, slot as u64) else {
                continue;
            };
            u[slot] = true;
            for_each_move(us, them, true, |m| {
                let (nu, nt) = m.apply(us, them);
                if m.removal().is_none() {
                    s[slot].push(nine::index(nu, nt) as u32);
                } else {
                    let o = if sub.them == 3 {
                        Outcome::Win
                    } else {
                        let t = &exits[&Subspace::new(sub.them - 1, sub.us)];
                        t[nine::index(nu, nt) as usize].outcome().flip()
                    };
                    e[slot] = Some(e[slot].map_or(o, |x: Outcome| x.max(o)));
                }
            });
        }
        succ.push(s);
        exit_best.push(e);
        used.push(u);
    }
    let other = |p: usize| if parts.len() == 2 { 1 - p } else { p };
    let mut vals: Vec<Vec<Option<Value>>> = parts
        .iter()
        .map(|s| vec![None; nine::size(*s) as usize])
        .collect();
    let mut d = 0u16;
    let mut last_change = 0u16;
    while d <= last_change + 1 {
        let mut new = Vec::new();
        for p in 0..parts.len() {
            for i in 0..vals[p].len() {
                if !used[p][i] || vals[p][i].is_some() {
                    continue;
                }
                let s: Vec<Option<Value>> = succ[p][i]
                    .iter()
                    .map(|&j| vals[other(p)][j as usize])
                    .collect();
                let exit = exit_best[p][i];
                let win = (d == 1 && exit == Some(Outcome::Win))
                    || (d >= 1 && s.contains(&Some(Value::loss(d - 1))));
                let all_won = s
                    .iter()
                    .all(|v| v.is_some_and(|v| v.outcome() == Outcome::Win && v.0 / 2 < d));
                let longest = s
                    .iter()
                    .map(|v| v.map_or(0, |v| v.0 / 2 + 1))
                    .chain(exit.map(|_| 1))
                    .max()
                    .unwrap_or(0);
                let exit_ok = exit.is_none() || exit == Some(Outcome::Loss);
                if win {
                    new.push((p, i, Value::win(d)));
                } else if all_won && exit_ok && longest == d {
                    new.push((p, i, Value::loss(d)));
                }
            }
        }
        if !new.is_empty() {
            last_change = d;
        }
        for (p, i, v) in new {
            vals[p][i] = Some(v);
        }
        d += 1;
    }
    vals.into_iter()
        .map(|v| v.into_iter().map(|x| x.unwrap_or(Value::DRAW)).collect())
        .collect()
}

#[test]
fn every_position_equals_a_forward_oracle() {
    let tables = scan(small_tables(), STD).unwrap();
    let mut solved: BTreeMap<Subspace, Vec<Value>> = BTreeMap::new();
    for pair in [Subspace::new(3, 3), Subspace::new(3, 4)] {
        let vals = oracle(pair, &solved);
        let parts = if pair.us == pair.them {
            vec![pair]
        } else {
            vec![pair, pair.swapped()]
        };
        for (sub, want) in parts.iter().zip(vals) {
            let ours = tables[sub].values().unwrap();
            for (slot, (a, b)) in ours.iter().zip(&want).enumerate() {
                assert_eq!(a, b, "{sub} slot {slot}");
            }
            solved.insert(*sub, want);
        }
    }
}

#[test]
fn verify_finds_no_mismatch_and_catches_a_planted_one() {
    let dir = small_tables();
    let tables = scan(dir, STD).unwrap();
    for sub in tables.keys() {
        let (checked, bad) = files::verify(&tables, STD, *sub, 5, None, &Quiet).unwrap();
        assert_eq!(checked, nine::positions(*sub));
        assert!(bad.is_empty(), "{sub}: {bad:?}");
    }
    // A copy with one value changed is caught.
    let sub = Subspace::new(3, 3);
    let copy = temp_dir("planted");
    std::fs::create_dir_all(&copy).unwrap();
    let mut values = tables[&sub].values().unwrap();
    let slot = (0..nine::size(sub))
        .find(|&s| values[s as usize].outcome() == Outcome::Win)
        .unwrap();
    values[slot as usize] = Value::win(values[slot as usize].distance().unwrap() + 2);
    let mut header = tablebase::format::summarize(&values, nine::positions(sub));
    header.label = files::label(STD, sub);
    tablebase::format::write_table(&file_name(&copy, STD, sub), &header, &values, 1).unwrap();
    let planted = scan(&copy, STD).unwrap();
    let (_, bad) = files::verify(&planted, STD, sub, 5, None, &Quiet).unwrap();
    assert!(bad.iter().any(|m| m.slot == slot), "{bad:?}");
    // A sampled check: clean tables pass; a table whose wins are all a ply
    // too long is caught by a few hundred random slots.
    for sub in tables.keys() {
        let (checked, bad) = files::verify(&tables, STD, *sub, 5, Some(500), &Quiet).unwrap();
        assert!(checked > 300 && checked <= 500, "{sub}: {checked}");
        assert!(bad.is_empty(), "{sub}: {bad:?}");
    }
    for v in values.iter_mut().filter(|v| v.outcome() == Outcome::Win) {
        *v = Value::win(v.distance().unwrap() + 1);
    }
    tablebase::format::write_table(&file_name(&copy, STD, sub), &header, &values, 1).unwrap();
    let planted = scan(&copy, STD).unwrap();
    let (_, bad) = files::verify(&planted, STD, sub, 5, Some(500), &Quiet).unwrap();
    assert_eq!(bad.len(), 5, "{bad:?}");
    std::fs::remove_dir_all(&copy).unwrap();
}

#[test]
fn same_bytes_with_one_and_two_threads() {
    let one = temp_dir("one");
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    pool.install(|| generate(&one, STD, 7, &Quiet)).unwrap();
    let two = temp_dir("two");
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    pool.install(|| generate(&two, STD, 7, &Quiet)).unwrap();
    for pair in files::pairs(7) {
        for sub in [pair, pair.swapped()] {
            let a = std::fs::read(file_name(&one, STD, sub)).unwrap();
            let b = std::fs::read(file_name(&two, STD, sub)).unwrap();
            assert!(a == b, "{sub} differs");
        }
    }
    std::fs::remove_dir_all(&one).unwrap();
    std::fs::remove_dir_all(&two).unwrap();
}

#[test]
fn resumes_and_refuses_bad_directories() {
    let dir = temp_dir("resume");
    generate(&dir, STD, 6, &Quiet).unwrap();
    let f33 = file_name(&dir, STD, Subspace::new(3, 3));
    let before = std::fs::read(&f33).unwrap();
    let mtime = std::fs::metadata(&f33).unwrap().modified().unwrap();
    // A leftover temporary file of a killed run is ignored; complete files are kept.
    std::fs::write(dir.join("nine-flying-3-4.tmp"), b"partial").unwrap();
    generate(&dir, STD, 7, &Quiet).unwrap();
    assert_eq!(std::fs::metadata(&f33).unwrap().modified().unwrap(), mtime);
    assert!(file_name(&dir, STD, Subspace::new(4, 3)).exists());
    // A damaged file is reported, not overwritten.
    let mut bad = before.clone();
    let n = bad.len();
    bad[n - 10] ^= 0xFF;
    std::fs::write(&f33, &bad).unwrap();
    let err = generate(&dir, STD, 7, &Quiet).unwrap_err().to_string();
    assert!(err.contains("nine-flying-3-3.tb"), "{err}");
    assert_eq!(std::fs::read(&f33).unwrap(), bad);
    std::fs::write(&f33, &before).unwrap();
    // A file whose contents do not match its name.
    let f34 = file_name(&dir, STD, Subspace::new(3, 4));
    std::fs::copy(&f33, dir.join("nine-noflying-3-3.tb")).unwrap();
    let err = scan(&dir, RuleSet::nine(false)).unwrap_err().to_string();
    assert!(err.contains("holds `nine/flying/3-3`"), "{err}");
    std::fs::remove_file(dir.join("nine-noflying-3-3.tb")).unwrap();
    // An unknown file.
    std::fs::write(dir.join("notes.txt"), b"hello").unwrap();
    let err = generate(&dir, STD, 7, &Quiet).unwrap_err().to_string();
    assert!(err.contains("notes.txt"), "{err}");
    std::fs::remove_file(dir.join("notes.txt")).unwrap();
    // Missing dependency: 3-4 deleted but 4-4 asked for.
    std::fs::remove_file(&f34).unwrap();
    std::fs::remove_file(file_name(&dir, STD, Subspace::new(4, 3))).unwrap();
    generate(&dir, STD, 8, &Quiet).unwrap();
    assert!(f34.exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn no_flying_rule_set_is_separate() {
    let dir = temp_dir("noflying");
    let nf = RuleSet::nine(false);
    generate(&dir, nf, 7, &Quiet).unwrap();
    generate(&dir, STD, 6, &Quiet).unwrap();
    let tables = scan(&dir, nf).unwrap();
    assert_eq!(tables.len(), 3);
    for sub in tables.keys() {
        let (_, bad) = files::verify(&tables, nf, *sub, 5, None, &Quiet).unwrap();
        assert!(bad.is_empty());
    }
    // Without flying, 3 stones against 3 is not the same game.
    let a = scan(&dir, STD).unwrap()[&Subspace::new(3, 3)]
        .header()
        .clone();
    let b = tables[&Subspace::new(3, 3)].header().clone();
    assert_ne!((a.wins, a.losses), (b.wins, b.losses));
    std::fs::remove_dir_all(&dir).unwrap();
}
