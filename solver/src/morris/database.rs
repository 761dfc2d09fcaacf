//! The Nine Men's Morris tablebase directory: file names, opening and
//! checking files, and the resumable generation of all 49 moving-phase
//! subspaces in dependency order.
//!
//! One file per subspace and rule set: `nine-flying-8-7.tb` holds `(8, 7)`
//! (8 stones of the side to move, 7 of the opponent) under the standard rules,
//! `nine-noflying-8-7.tb` the same without flying. Pairs `(w, b)`, `(b, w)`
//! are solved together, ordered by total stones, since a removal from a pair
//! with `n` stones leads into a pair with `n − 1`.

use super::index::{self, Subspace};
use super::pair::{exit_subspace, recompute, Pair};
use super::position::Rules;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;
use tablebase::format::{summarize, write_table, FormatError};
use tablebase::reader::Table;
use tablebase::retro::{solve, Observer, RetroError};
use tablebase::Value;

/// zstd level of the written blocks.
const ZSTD_LEVEL: i32 = 9;

/// Errors of the tablebase directory.
#[derive(Debug, thiserror::Error)]
pub enum DatabaseError {
    /// A file could not be read, written or understood.
    #[error(transparent)]
    Format(#[from] FormatError),
    /// The directory holds something that is not ours.
    #[error("{0}: unknown file in the tablebase directory (move it elsewhere)")]
    UnknownFile(PathBuf),
    /// A file holds another table than its name says.
    #[error("{path}: holds `{found}` but its name says `{expected}`")]
    Mismatch {
        /// The file.
        path: PathBuf,
        /// The label its name implies.
        expected: String,
        /// The label inside.
        found: String,
    },
    /// A needed subspace has not been generated.
    #[error("{0}: missing; generate it first (solver nine generate)")]
    Missing(PathBuf),
    /// The directory cannot be used.
    #[error("{path}: {source}")]
    Dir {
        /// The directory.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// The retrograde engine failed.
    #[error(transparent)]
    Retro(#[from] RetroError),
}

/// Name of a rule set in file names and labels.
pub fn rules_name(rules: Rules) -> &'static str {
    if rules.flying {
        "flying"
    } else {
        "noflying"
    }
}

/// The label stored in a subspace's header.
pub fn label(rules: Rules, sub: Subspace) -> String {
    format!("nine/{}/{}", rules_name(rules), sub)
}

/// The file of a subspace in `dir`.
pub fn file_name(dir: &Path, rules: Rules, sub: Subspace) -> PathBuf {
    dir.join(format!(
        "nine-{}-{}-{}.tb",
        rules_name(rules),
        sub.us,
        sub.them
    ))
}

/// Parse a file name of ours: rule set and subspace.
pub fn parse_file_name(name: &str) -> Option<(Rules, Subspace)> {
    let rest = name.strip_prefix("nine-")?.strip_suffix(".tb")?;
    let (flying, rest) = if let Some(r) = rest.strip_prefix("flying-") {
        (true, r)
    } else {
        (false, rest.strip_prefix("noflying-")?)
    };
    let (w, b) = rest.split_once('-')?;
    let (w, b): (u8, u8) = (w.parse().ok()?, b.parse().ok()?);
    ((3..=9).contains(&w) && (3..=9).contains(&b) && rest.len() == 3)
        .then_some((Rules { flying }, Subspace::new(w, b)))
}

/// All 49 subspaces as pairs in dependency order, limited to `w + b ≤ max_stones`.
pub fn pairs(max_stones: u8) -> Vec<Subspace> {
    let mut out = Vec::new();
    for total in 6..=max_stones.min(18) {
        for w in 3..=9u8 {
            let b = total as i32 - w as i32;
            if (w as i32..=9).contains(&b) {
                out.push(Subspace::new(w, b as u8));
            }
        }
    }
    out
}

/// Check a tablebase directory: every entry must be one of our files (or a
/// leftover `.tmp` of an interrupted run); returns our files by subspace for
/// the given rule set, opened and checked (header, block table, label).
pub fn scan(dir: &Path, rules: Rules) -> Result<BTreeMap<Subspace, Table>, DatabaseError> {
    let mut found = BTreeMap::new();
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(found),
        Err(source) => {
            return Err(DatabaseError::Dir {
                path: dir.to_owned(),
                source,
            })
        }
    };
    for entry in entries {
        let entry = entry.map_err(|source| DatabaseError::Dir {
            path: dir.to_owned(),
            source,
        })?;
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if !path.is_file() {
            return Err(DatabaseError::UnknownFile(path));
        }
        if name.starts_with("nine-") && name.ends_with(".tmp") {
            continue;
        }
        let Some((file_rules, sub)) = parse_file_name(&name) else {
            return Err(DatabaseError::UnknownFile(path));
        };
        if file_rules != rules {
            continue;
        }
        let table = open_checked(&path, rules, sub)?;
        found.insert(sub, table);
    }
    Ok(found)
}

/// Open a subspace file and check that it holds what its name says.
pub fn open_checked(path: &Path, rules: Rules, sub: Subspace) -> Result<Table, DatabaseError> {
    let table = Table::open(path)?;
    let expected = label(rules, sub);
    if table.header().label != expected || table.header().slots != sub.size() {
        return Err(DatabaseError::Mismatch {
            path: path.to_owned(),
            expected,
            found: table.header().label.clone(),
        });
    }
    Ok(table)
}

/// What [`generate`] reports about each pair it solves or skips.
pub trait GenerateObserver: Observer {
    /// A pair was found complete on disk.
    fn skipped(&self, _pair: Subspace) {}
    /// A pair is about to be solved.
    fn solving(&self, _pair: Subspace, _positions: u64) {}
    /// A pair was solved and written.
    fn solved(&self, _pair: Subspace, _positions: u64, _seconds: f64) {}
}

/// Generate every pair with at most `max_stones` stones into `dir`,
/// skipping pairs whose files are complete and valid.
pub fn generate(
    dir: &Path,
    rules: Rules,
    max_stones: u8,
    observer: &dyn GenerateObserver,
) -> Result<(), DatabaseError> {
    if dir.exists() && !dir.is_dir() {
        return Err(DatabaseError::Dir {
            path: dir.to_owned(),
            source: std::io::Error::other("not a directory"),
        });
    }
    std::fs::create_dir_all(dir).map_err(|source| DatabaseError::Dir {
        path: dir.to_owned(),
        source,
    })?;
    let mut done = scan(dir, rules)?;
    index::warm_up();
    for pair in pairs(max_stones) {
        let parts = if pair.us == pair.them {
            vec![pair]
        } else {
            vec![pair, pair.swapped()]
        };
        if parts.iter().all(|s| done.contains_key(s)) {
            for s in &parts {
                done[s].verify()?;
            }
            observer.skipped(pair);
            continue;
        }
        // Load what the removals of this pair lead into.
        let mut exit_values: BTreeMap<Subspace, Vec<Value>> = BTreeMap::new();
        for s in parts.iter().filter_map(|s| exit_subspace(*s)) {
            let table = done
                .get(&s)
                .ok_or_else(|| DatabaseError::Missing(file_name(dir, rules, s)))?;
            exit_values.insert(s, table.values()?);
        }
        let positions: Vec<u64> = parts.iter().map(|s| index::positions(*s)).collect();
        observer.solving(pair, positions.iter().sum());
        let start = Instant::now();
        let game = Pair::new(rules, pair, |s| &exit_values[&s]);
        let (values, _) = solve(&game, observer)?;
        drop(exit_values);
        for ((sub, vals), n) in parts.iter().zip(&values).zip(&positions) {
            let mut header = summarize(vals, *n);
            header.label = label(rules, *sub);
            let path = file_name(dir, rules, *sub);
            write_table(&path, &header, vals, ZSTD_LEVEL)?;
            done.insert(*sub, open_checked(&path, rules, *sub)?);
        }
        observer.solved(pair, positions.iter().sum(), start.elapsed().as_secs_f64());
    }
    Ok(())
}

/// A mismatch found by [`verify`].
#[derive(Debug, Clone)]
pub struct Mismatch {
    /// The subspace.
    pub subspace: Subspace,
    /// The slot.
    pub slot: u64,
    /// The stored value.
    pub stored: Value,
    /// The value recomputed from the successors.
    pub recomputed: Value,
}

/// Recompute every stored value of `sub` from its successors' stored values
/// (a forward pass independent of the retrograde bookkeeping), or with
/// `sample: Some(n)` those of `n` slots drawn at random (reproducibly).
/// Returns the number of positions checked and the first mismatches (at
/// most `limit`).
pub fn verify(
    tables: &BTreeMap<Subspace, Table>,
    rules: Rules,
    sub: Subspace,
    limit: usize,
    sample: Option<u64>,
    observer: &dyn Observer,
) -> Result<(u64, Vec<Mismatch>), DatabaseError> {
    use rayon::prelude::*;
    // Name a missing file where its directory is known (beside any table).
    let dir = tables
        .values()
        .next()
        .and_then(|t| t.path().parent().map(Path::to_owned))
        .unwrap_or_default();
    let need = |s: Subspace| -> Result<&Table, DatabaseError> {
        tables
            .get(&s)
            .ok_or_else(|| DatabaseError::Missing(file_name(&dir, rules, s)))
    };
    let own = Arc::new(need(sub)?.values()?);
    let partner = if sub.swapped() == sub {
        own.clone()
    } else {
        Arc::new(need(sub.swapped())?.values()?)
    };
    let exit = match exit_subspace(sub) {
        Some(s) => Some(need(s)?.values()?),
        None => None,
    };
    let partner_fn = |slot: u64| partner[slot as usize];
    let exit_fn = |slot: u64| exit.as_ref().map_or(Value::DRAW, |e| e[slot as usize]);
    let count = sample.map_or(sub.size(), |n| n.min(sub.size()));
    // The i-th slot checked: all in order, or a random one (splitmix64).
    let slot_at = |i: u64| match sample {
        None => i,
        Some(_) => {
            let mut z = (i ^ (sub.us as u64) << 40 ^ (sub.them as u64) << 48)
                .wrapping_add(0x9E37_79B9_7F4A_7C15);
            z = (z ^ z >> 30).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ z >> 27).wrapping_mul(0x94D0_49BB_1331_11EB);
            (z ^ z >> 31) % sub.size()
        }
    };
    observer.start(&format!("verify {sub}"), count);
    let chunk = 1u64 << 14;
    let results: Vec<(u64, Vec<Mismatch>)> = (0..count.div_ceil(chunk))
        .into_par_iter()
        .map(|c| {
            let exit_ref: Option<&dyn Fn(u64) -> Value> = exit.as_ref().map(|_| &exit_fn as _);
            let mut checked = 0;
            let mut bad = Vec::new();
            let range = c * chunk..((c + 1) * chunk).min(count);
            for slot in range.clone().map(slot_at) {
                let Some((us, them)) = index::position(sub, slot) else {
                    continue;
                };
                checked += 1;
                let v = recompute(rules, us, them, &partner_fn, exit_ref);
                if v != own[slot as usize] && bad.len() < limit {
                    bad.push(Mismatch {
                        subspace: sub,
                        slot,
                        stored: own[slot as usize],
                        recomputed: v,
                    });
                }
            }
            observer.advance(range.end - range.start);
            (checked, bad)
        })
        .collect();
    observer.finish();
    let checked = results.iter().map(|r| r.0).sum();
    let mut bad: Vec<Mismatch> = results.into_iter().flat_map(|r| r.1).collect();
    bad.truncate(limit);
    Ok((checked, bad))
}
