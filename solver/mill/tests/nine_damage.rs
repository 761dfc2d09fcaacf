//! Damaged tablebase files (fuzz-style, proptest): opening the directory,
//! `Table::verify`, `Table::values`, `Table::get` and `Tablebases::probe`
//! never panic and never answer a wrong value; they return the right value
//! or a typed error. Every change of the bytes (flips, truncation, junk
//! appended, a zeroed range) is detected by `scan` + `verify`.

use mill::games::nine::files::{file_name, generate, scan, DatabaseError, GenerateObserver};
use mill::index::nine::{self, Subspace};
use mill::probe::nine::{ProbeError, Tablebases};
use mill::rules::board::Nine;
use mill::rules::position::{Color, Position};
use mill::rules::variant::RuleSet;
use proptest::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use tablebase::format::{FormatError, HEADER_LEN};
use tablebase::retro::Observer;
use tablebase::set::SetError;
use tablebase::Value;

struct Quiet;
impl Observer for Quiet {}
impl GenerateObserver for Quiet {}

const STD: RuleSet = RuleSet::nine(true);
const SUB: Subspace = Subspace::new(3, 3);

/// The intact 3-3 file and its values, generated once.
struct Good {
    bytes: Vec<u8>,
    values: Vec<Value>,
}

fn good() -> &'static Good {
    static GOOD: std::sync::OnceLock<Good> = std::sync::OnceLock::new();
    GOOD.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("nine-damage-good-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        generate(&dir, STD, 6, &Quiet).unwrap();
        let path = file_name(&dir, STD, SUB);
        let bytes = std::fs::read(&path).unwrap();
        let values = tablebase::reader::Table::open(&path)
            .unwrap()
            .values()
            .unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        // Several blocks, so that damage can hit one and spare another.
        assert!(nine::size(SUB) > 3 * tablebase::format::BLOCK_SLOTS as u64);
        assert_eq!(values.len() as u64, nine::size(SUB));
        Good { bytes, values }
    })
}

/// A directory of its own for each test, removed when dropped.
struct Dir(PathBuf);

impl Dir {
    fn new() -> Dir {
        static N: AtomicUsize = AtomicUsize::new(0);
        let n = N.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("nine-damage-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Dir(dir)
    }

    fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[derive(Debug, Clone)]
enum Damage {
    /// XOR bytes at fractions of the file length with non-zero masks.
    Flip(Vec<(prop::sample::Index, u8)>),
    /// Keep only the first bytes.
    Truncate(prop::sample::Index),
    /// Junk after the end.
    Append(Vec<u8>),
    /// Zero a range.
    Zero(prop::sample::Index, usize),
    /// Flip bytes inside the header only.
    FlipHeader(Vec<(usize, u8)>),
}

fn damage() -> impl Strategy<Value = Damage> {
    prop_oneof![
        3 => prop::collection::vec((any::<prop::sample::Index>(), 1u8..=255), 1..=8)
            .prop_map(Damage::Flip),
        1 => any::<prop::sample::Index>().prop_map(Damage::Truncate),
        1 => prop::collection::vec(any::<u8>(), 1..64).prop_map(Damage::Append),
        1 => (any::<prop::sample::Index>(), 1usize..4096).prop_map(|(i, n)| Damage::Zero(i, n)),
        1 => prop::collection::vec((0..HEADER_LEN, 1u8..=255), 1..=8).prop_map(Damage::FlipHeader),
    ]
}

fn apply(good: &[u8], d: &Damage) -> Vec<u8> {
    let mut b = good.to_vec();
    match d {
        Damage::Flip(flips) => {
            for (i, mask) in flips {
                b[i.index(good.len())] ^= mask;
            }
        }
        Damage::Truncate(i) => b.truncate(i.index(good.len())),
        Damage::Append(junk) => b.extend_from_slice(junk),
        Damage::Zero(i, n) => {
            let start = i.index(good.len());
            let end = (start + n).min(good.len());
            b[start..end].fill(0);
        }
        Damage::FlipHeader(flips) => {
            for (at, mask) in flips {
                b[*at] ^= mask;
            }
        }
    }
    b
}

/// Errors must be the typed ones of a damaged file, naming it.
fn check_format_error(e: &FormatError) {
    match e {
        FormatError::Damaged { path, what } => {
            assert!(path.ends_with("nine-flying-3-3.tb"), "{e}");
            assert!(!what.is_empty());
        }
        FormatError::Io { .. } => panic!("an I/O error on a readable file: {e}"),
    }
}

/// Open, verify, read and probe the damaged copy; returns whether the
/// damage was detected by `scan` + `verify`.
fn exercise(dir: &Path, bytes: &[u8], slots: &[u64]) -> bool {
    let good = good();
    let path = file_name(dir, STD, SUB);
    std::fs::write(&path, bytes).unwrap();
    let detected = match scan(dir, STD) {
        Err(DatabaseError::Format(e) | DatabaseError::Set(SetError::Format(e))) => {
            check_format_error(&e);
            true
        }
        Err(DatabaseError::Set(SetError::Mismatch { path, .. })) => {
            assert!(path.ends_with("nine-flying-3-3.tb"));
            true
        }
        Err(e) => panic!("unexpected error kind: {e}"),
        Ok(tables) => {
            assert_eq!(tables.len(), 1);
            let table = &tables[&SUB];
            let verified = table.verify();
            if let Err(e) = &verified {
                check_format_error(e);
            }
            // `values` fails exactly when `verify` does, and is right when it works.
            match table.values() {
                Ok(v) => {
                    assert!(verified.is_ok(), "values read what verify refused");
                    assert!(v == good.values, "a damaged table read back wrong values");
                }
                Err(e) => {
                    check_format_error(&e);
                    assert!(verified.is_err(), "verify passed but values failed: {e}");
                }
            }
            for &s in slots {
                match table.get(s % nine::size(SUB)) {
                    Ok(v) => {
                        assert_eq!(v, good.values[(s % nine::size(SUB)) as usize], "slot {s}")
                    }
                    Err(e) => check_format_error(&e),
                }
            }
            assert!(table.get(nine::size(SUB)).is_err());
            verified.is_err()
        }
    };
    // Probing positions through the lazily opening reader: the right value
    // or a typed error.
    let tb = Tablebases::open(dir, STD).unwrap();
    for (i, &s) in slots.iter().enumerate() {
        let slot = s % nine::size(SUB);
        let Some((us, them)) = nine::position(SUB, slot) else {
            continue;
        };
        let side = if i % 2 == 0 {
            Color::White
        } else {
            Color::Black
        };
        let pos = Position::from_mover(us, them, side).transform::<Nine>(i % 16);
        match tb.probe(&pos) {
            Ok(v) => assert_eq!(v, good.values[slot as usize], "{pos}"),
            Err(ProbeError::Table(_)) => {}
            Err(e) => panic!("{pos}: unexpected error kind: {e}"),
        }
    }
    detected
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn damage_is_detected_and_never_panics(
        d in damage(),
        slots in prop::collection::vec(any::<u64>(), 8),
    ) {
        let dir = Dir::new();
        let good = good();
        let bytes = apply(&good.bytes, &d);
        let detected = exercise(dir.path(), &bytes, &slots);
        // Any change of the bytes is caught (two flips of one byte may cancel).
        prop_assert_eq!(detected, bytes != good.bytes, "{:?}", d);
    }
}

#[test]
fn every_single_header_flip_is_detected() {
    let dir = Dir::new();
    let good = good();
    for at in 0..HEADER_LEN {
        for mask in [0x01, 0x80] {
            let mut bytes = good.bytes.clone();
            bytes[at] ^= mask;
            assert!(exercise(dir.path(), &bytes, &[0, 70_000]), "byte {at}");
        }
    }
}

#[test]
fn truncation_at_the_boundaries_is_detected() {
    let dir = Dir::new();
    let good = good();
    let n = good.bytes.len();
    let table_end = HEADER_LEN + 16 * nine::size(SUB).div_ceil(65_536) as usize;
    for len in [
        0,
        1,
        8,
        HEADER_LEN - 1,
        HEADER_LEN,
        HEADER_LEN + 1,
        table_end - 1,
        table_end,
        table_end + 1,
        n - 1,
    ] {
        assert!(
            exercise(dir.path(), &good.bytes[..len], &[0, 1, 100_000]),
            "length {len}"
        );
    }
    let mut longer = good.bytes.clone();
    longer.push(0);
    assert!(exercise(dir.path(), &longer, &[5]));
}

#[test]
fn intact_file_is_read_back_exactly() {
    // The control: the undamaged file passes and probes right, so the
    // detections above are not a reader that refuses everything.
    let dir = Dir::new();
    let good = good();
    let slots: Vec<u64> = (0..nine::size(SUB)).step_by(7919).collect();
    assert!(!exercise(dir.path(), &good.bytes, &slots));
    // And the values are the published 3-3 counts (Malom).
    let used: Vec<Value> = (0..nine::size(SUB))
        .filter(|&s| nine::position(SUB, s).is_some())
        .map(|s| good.values[s as usize])
        .collect();
    let wins = used
        .iter()
        .filter(|v| v.outcome() == tablebase::Outcome::Win);
    let losses = used
        .iter()
        .filter(|v| v.outcome() == tablebase::Outcome::Loss);
    assert_eq!(
        (wins.count(), losses.count(), used.len()),
        (140_621, 28_736, 169_626)
    );
}
