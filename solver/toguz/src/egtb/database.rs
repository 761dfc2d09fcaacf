//! The share-table directory: file names, opening and checking files, and
//! the resumable generation of every table with at most `N` stones, layer
//! by layer (a capture or a stone sown into a tuzdyk leads to a layer with
//! fewer stones, so layers are solved from 0 stones up).
//!
//! One file per table: `toguz-10-35.tb` holds the positions with 10 stones
//! on the board where the side to move owns the opponent's hole 3 and the
//! opponent owns the mover's hole 5 (`0` for no tuzdyk). A table and its
//! swapped one are solved together and each written atomically; a pair is
//! solved again unless both files are complete.

use super::graph::{solve_pair, PairGraph, Shares};
use super::index::{Layer, Tuzdyks, CONFIGS, MAX_STONES};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;
use tablebase::format::{EntryKind, FormatError, Header};
use tablebase::reader::Table;
use tablebase::retro::RetroError;
use tablebase::set::{Directory, SetError, TableSet, ZSTD_LEVEL};

/// Errors of the share tables.
#[derive(Debug, thiserror::Error)]
pub enum EgtbError {
    /// A file could not be read, written or understood.
    #[error(transparent)]
    Format(#[from] FormatError),
    /// The table directory: a file missing, damaged, unknown or holding
    /// another table than its name says.
    #[error(transparent)]
    Set(#[from] SetError),
    /// More stones than a table can hold.
    #[error("at most {MAX_STONES} stones on the board are supported (asked for {0})")]
    TooManyStones(u32),
    /// The retrograde engine failed.
    #[error(transparent)]
    Retro(#[from] RetroError),
}

/// The share tables as a table set: one file per [`Layer`].
#[derive(Clone, Copy, Debug, Default)]
pub struct ShareTables;

impl TableSet for ShareTables {
    type Key = Layer;

    fn generator(&self) -> String {
        "solver toguz generate".into()
    }

    fn file_name(&self, layer: Layer) -> String {
        format!(
            "toguz-{}-{}{}.tb",
            layer.stones, layer.tuzdyks.mover, layer.tuzdyks.opponent
        )
    }

    fn parse_file_name(&self, name: &str) -> Result<Option<Layer>, ()> {
        parse_file_name(name).map(Some).ok_or(())
    }

    fn label(&self, layer: Layer) -> String {
        label(layer)
    }

    fn slots(&self, layer: Layer) -> u64 {
        layer.size()
    }

    fn holds(&self, _layer: Layer, kind: EntryKind) -> bool {
        kind == EntryKind::Opaque
    }

    fn prefix(&self) -> &'static str {
        "toguz-"
    }
}

/// The share tables in `dir`.
pub fn directory(dir: &Path) -> Directory<ShareTables> {
    Directory::new(dir, ShareTables)
}

/// The label stored in a table's header.
pub fn label(layer: Layer) -> String {
    format!(
        "toguz/share/{}/{}{}",
        layer.stones, layer.tuzdyks.mover, layer.tuzdyks.opponent
    )
}

/// The file of a table in `dir`.
pub fn file_name(dir: &Path, layer: Layer) -> PathBuf {
    directory(dir).path(layer)
}

/// Parse a file name of ours.
pub fn parse_file_name(name: &str) -> Option<Layer> {
    let rest = name.strip_prefix("toguz-")?.strip_suffix(".tb")?;
    let (n, t) = rest.split_once('-')?;
    let stones: u8 = n.parse().ok()?;
    let t = t.as_bytes();
    if t.len() != 2 || n.len() > 2 || (n.len() == 2 && n.starts_with('0')) {
        return None;
    }
    let digit = |c: u8| c.is_ascii_digit().then(|| c - b'0');
    let tuzdyks = Tuzdyks {
        mover: digit(t[0])?,
        opponent: digit(t[1])?,
    };
    (stones <= MAX_STONES && tuzdyks.is_valid()).then_some(Layer { stones, tuzdyks })
}

/// Every table with exactly `stones` stones, one of each swapped pair
/// first (the pair's representative), in a fixed order.
pub fn pairs(stones: u8) -> Vec<Layer> {
    Tuzdyks::all()
        .filter(|t| *t <= t.swapped())
        .map(|tuzdyks| Layer { stones, tuzdyks })
        .collect()
}

/// Positions (= slots) of all tables with at most `max` stones.
pub fn positions_up_to(max: u8) -> u64 {
    (0..=max)
        .flat_map(|stones| Tuzdyks::all().map(move |tuzdyks| Layer { stones, tuzdyks }))
        .map(Layer::size)
        .sum()
}

/// Slots of a pair (one table when it is its own swap).
pub fn pair_positions(layer: Layer) -> u64 {
    if layer.swapped() == layer {
        layer.size()
    } else {
        layer.size() + layer.swapped().size()
    }
}

/// Check a table directory: every entry must be one of our files (or a
/// leftover `.tmp`); returns our files, opened and checked (header, block
/// table, label, size).
pub fn scan(dir: &Path) -> Result<BTreeMap<Layer, Table>, EgtbError> {
    Ok(directory(dir).scan()?)
}

/// Open a table file and check that it holds what its name says.
pub fn open_checked(path: &Path, layer: Layer) -> Result<Table, EgtbError> {
    Ok(directory(Path::new("")).open_at(path, layer)?)
}

/// Read a whole table's packed shares.
pub fn load(table: &Table) -> Result<Shares, EgtbError> {
    Ok(table.values()?.into_iter().map(|v| v.0 as u8).collect())
}

/// What [`generate`] reports about each pair it solves or skips.
pub trait GenerateObserver: Sync {
    /// A pair was found complete on disk.
    fn skipped(&self, _pair: Layer) {}
    /// A pair is about to be solved.
    fn solving(&self, _pair: Layer, _positions: u64) {}
    /// A pair was solved and written.
    fn solved(&self, _pair: Layer, _positions: u64, _seconds: f64, _memory: PairMemory) {}
}

/// The memory a pair held while it was solved.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PairMemory {
    /// Heap bytes of its move graph.
    pub graph: usize,
    /// Bytes of the lower tables its moves lead into ([`LowerTables`]).
    pub lower: usize,
}

/// The observer that ignores everything.
pub struct Quiet;
impl GenerateObserver for Quiet {}

/// Generate every table with at most `max_stones` stones into `dir`,
/// skipping pairs whose files are complete and valid (their checksums are
/// verified); the lower tables a pair's captures lead into are read back
/// from their files ([`LowerTables`]).
pub fn generate(
    dir: &Path,
    max_stones: u8,
    observer: &dyn GenerateObserver,
) -> Result<(), EgtbError> {
    if max_stones > MAX_STONES {
        return Err(EgtbError::TooManyStones(max_stones as u32));
    }
    let tables = directory(dir);
    if dir.exists() && !dir.is_dir() {
        return Err(SetError::Dir {
            path: dir.to_owned(),
            source: std::io::Error::other("not a directory"),
        }
        .into());
    }
    tables.create()?;
    let done = tables.scan()?;
    let mut lower = LowerTables::new(max_stones);
    for stones in 0..=max_stones {
        generate_in(&tables, &done, stones, &mut lower, observer)?;
    }
    Ok(())
}

/// Generate the tables with exactly `stones` stones into `dir`, those with
/// fewer being there already (a capture can lead into any of them; each
/// must be present before anything is solved): one job of the workflow
/// ([`super::plan::plan`]). Pairs whose files are complete and valid are
/// skipped.
pub fn generate_stones(
    dir: &Path,
    stones: u8,
    observer: &dyn GenerateObserver,
) -> Result<(), EgtbError> {
    if stones > MAX_STONES {
        return Err(EgtbError::TooManyStones(stones as u32));
    }
    let tables = directory(dir);
    tables.create()?;
    let done = tables.scan()?;
    for lower in 0..stones {
        for tuzdyks in Tuzdyks::all() {
            let layer = Layer {
                stones: lower,
                tuzdyks,
            };
            if !done.contains_key(&layer) {
                return Err(tables.missing(layer).into());
            }
        }
    }
    let mut lower = LowerTables::new(stones);
    generate_in(&tables, &done, stones, &mut lower, observer)
}

/// The tables with fewer stones that a pair's moves can lead into, held
/// in memory while the pair's move graph is built: a move that takes
/// stones off the board keeps the tuzdyks (seen from the other side) or
/// adds the mover's first one, so a pair reads only the tables with those
/// tuzdyks, a fraction of all below it ([`LowerTables::needed`]). Tables
/// are read from their files when first needed and dropped when the next
/// pair no longer needs them.
pub struct LowerTables {
    shares: Vec<Option<Shares>>,
}

impl LowerTables {
    /// Room for the tables with at most `max_stones` stones, none loaded.
    pub fn new(max_stones: u8) -> LowerTables {
        LowerTables {
            shares: vec![None; (max_stones as usize + 1) * CONFIGS],
        }
    }

    /// The tables the moves of the pair of `pair` lead into when they take
    /// stones off the board: fewer stones, the opponent's tuzdyk kept, the
    /// mover's kept or (if it has none) possibly made by the move; seen
    /// from the opponent, who moves next.
    pub fn needed(pair: Layer) -> Vec<Layer> {
        let mut out = Vec::new();
        let mut parts = vec![pair];
        if pair.swapped() != pair {
            parts.push(pair.swapped());
        }
        for part in parts {
            let t = part.tuzdyks;
            let made: Vec<u8> = if t.mover == 0 {
                (0..=8).collect()
            } else {
                vec![t.mover]
            };
            for m in made {
                let child = Tuzdyks {
                    mover: t.opponent,
                    opponent: m,
                };
                if !child.is_valid() {
                    continue;
                }
                for stones in 0..part.stones {
                    out.push(Layer {
                        stones,
                        tuzdyks: child,
                    });
                }
            }
        }
        out.sort();
        out.dedup();
        out
    }

    /// Hold exactly `layers`: drop the others, read the missing ones from
    /// `tables`' files.
    pub fn hold(
        &mut self,
        tables: &Directory<ShareTables>,
        layers: &[Layer],
    ) -> Result<(), EgtbError> {
        let mut keep = vec![false; self.shares.len()];
        for l in layers {
            keep[l.ordinal()] = true;
        }
        for (slot, k) in self.shares.iter_mut().zip(&keep) {
            if !k {
                *slot = None;
            }
        }
        for l in layers {
            if self.shares[l.ordinal()].is_none() {
                self.shares[l.ordinal()] = Some(load(&tables.open(*l)?)?);
            }
        }
        Ok(())
    }

    /// Drop every table held.
    pub fn release(&mut self) {
        self.shares.iter_mut().for_each(|s| *s = None);
    }

    /// Bytes of the tables held.
    pub fn bytes(&self) -> usize {
        self.shares.iter().flatten().map(Vec::len).sum()
    }
}

impl super::graph::Lower for LowerTables {
    fn shares(&self, layer: Layer, slot: u64) -> u8 {
        self.shares[layer.ordinal()]
            .as_ref()
            .expect("a lower table the pair needs is held")[slot as usize]
    }
}

/// Solve and write every pair with `stones` stones whose files are not in
/// `done` (their files verified), the tables with fewer stones being on
/// disk already.
fn generate_in(
    tables: &Directory<ShareTables>,
    done: &BTreeMap<Layer, Table>,
    stones: u8,
    lower: &mut LowerTables,
    observer: &dyn GenerateObserver,
) -> Result<(), EgtbError> {
    for pair in pairs(stones) {
        let layers = if pair.swapped() == pair {
            vec![pair]
        } else {
            vec![pair, pair.swapped()]
        };
        if layers.iter().all(|l| done.contains_key(l)) {
            for l in &layers {
                done[l].verify()?;
            }
            observer.skipped(pair);
            continue;
        }
        let positions = pair_positions(pair);
        observer.solving(pair, positions);
        let start = Instant::now();
        lower.hold(tables, &LowerTables::needed(pair))?;
        let graph = PairGraph::build(pair, lower);
        let memory = PairMemory {
            graph: graph.bytes(),
            lower: lower.bytes(),
        };
        // The threshold games read only the graph: the lower tables make
        // room for their states (the next pair reads its own back).
        lower.release();
        let shares = solve_pair(&graph)?;
        drop(graph);
        for (l, s) in layers.iter().zip(shares) {
            let header = Header {
                label: String::new(),
                entry_bytes: 1,
                kind: EntryKind::Opaque,
                slots: l.size(),
                positions: l.size(),
                wins: 0,
                losses: 0,
                draws: 0,
                max_win: 0,
                max_loss: 0,
                block_slots: 0,
                blocks: 0,
            };
            tables.write_opaque(*l, &header, &s, ZSTD_LEVEL)?;
            tables.open(*l)?;
        }
        observer.solved(pair, positions, start.elapsed().as_secs_f64(), memory);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every lower table a pair's moves read is among the ones
    /// [`LowerTables::needed`] names (up to 6 stones, every pair), and
    /// those are a fraction of all the tables below.
    #[test]
    fn pairs_read_only_the_lower_tables_named() {
        use super::super::graph::Lower;
        use std::sync::Mutex;
        struct Recorder {
            shares: Vec<Option<Shares>>,
            read: Mutex<std::collections::BTreeSet<Layer>>,
        }
        impl Lower for Recorder {
            fn shares(&self, layer: Layer, slot: u64) -> u8 {
                self.read.lock().unwrap().insert(layer);
                self.shares[layer.ordinal()].as_ref().unwrap()[slot as usize]
            }
        }
        let max = 6u8;
        let mut all = Recorder {
            shares: vec![None; (max as usize + 1) * CONFIGS],
            read: Mutex::new(Default::default()),
        };
        for stones in 0..=max {
            for pair in pairs(stones) {
                all.read.lock().unwrap().clear();
                let graph = PairGraph::build(pair, &all);
                let read = std::mem::take(&mut *all.read.lock().unwrap());
                let needed = LowerTables::needed(pair);
                for l in &read {
                    assert!(needed.contains(l), "pair {pair:?} reads {l:?}");
                }
                if stones == max && pair.tuzdyks != Tuzdyks::NONE {
                    assert!(needed.len() * 4 < stones as usize * CONFIGS, "{pair:?}");
                }
                let shares = solve_pair(&graph).unwrap();
                let layers = [pair, pair.swapped()];
                for (l, s) in layers.iter().zip(shares) {
                    all.shares[l.ordinal()] = Some(s);
                }
            }
        }
    }

    #[test]
    fn file_names_round_trip() {
        for stones in [0u8, 7, 15] {
            for tuzdyks in Tuzdyks::all() {
                let l = Layer { stones, tuzdyks };
                let p = file_name(Path::new("d"), l);
                let name = p.file_name().unwrap().to_str().unwrap();
                assert_eq!(parse_file_name(name), Some(l));
            }
        }
        for bad in [
            "toguz-1-33.tb",
            "toguz-16-00.tb",
            "toguz-01-00.tb",
            "toguz-3-0.tb",
            "toguz-3-90.tb",
            "nine-3-00.tb",
        ] {
            assert_eq!(parse_file_name(bad), None, "{bad}");
        }
        // 73 tables per layer in 37 pairs.
        assert_eq!(pairs(4).len(), 37);
        assert_eq!(
            pairs(4).into_iter().map(pair_positions).sum::<u64>(),
            Tuzdyks::all()
                .map(|tuzdyks| Layer { stones: 4, tuzdyks }.size())
                .sum::<u64>()
        );
    }
}
