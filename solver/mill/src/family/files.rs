//! The tablebase directory of a family variant: one file per moving-phase
//! subspace (`six-flying-5-4.tb`: values with distance to conversion) and
//! per placement sector (`six-flying-2-3-4-3.tb`: outcomes), in the format
//! of [`tablebase::format`]. Every header's label names the board, the rule
//! set and the table (`six/noflying/5-4`); a file whose label or size is not
//! what its variant, rule set and table need is refused.

use super::index::{self, Indexing};
use super::solve::{pairs, Solution};
use crate::board::Board;
use crate::index::Subspace;
use crate::sector::{Sector, TableId};
use crate::variant::{RuleSet, Variant};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use tablebase::format::{
    summarize, summarize_outcomes, write_outcome_table, write_table, EntryKind, FormatError,
    OUTCOME_DRAW, OUTCOME_LOSS, OUTCOME_WIN,
};
use tablebase::reader::Table;
use tablebase::{Outcome, Value};

/// zstd level of the written blocks.
const ZSTD_LEVEL: i32 = 9;

/// Errors of a family tablebase directory.
#[derive(Debug, thiserror::Error)]
pub enum FilesError {
    /// A file could not be read, written or understood.
    #[error(transparent)]
    Format(#[from] FormatError),
    /// A file holds another table, variant or rule set than asked for.
    #[error(
        "{path}: holds `{found}` ({found_slots} slots), expected `{expected}` ({slots} slots)"
    )]
    Mismatch {
        /// The file.
        path: PathBuf,
        /// The label expected.
        expected: String,
        /// The label inside.
        found: String,
        /// The slots expected.
        slots: u64,
        /// The slots inside.
        found_slots: u64,
    },
    /// A file holds entries of the wrong kind.
    #[error("{0}: holds entries of the wrong kind for its table")]
    WrongEntries(PathBuf),
    /// A table is not in the directory.
    #[error("{0}: missing (run `solver {1} generate` first)")]
    Missing(PathBuf, &'static str),
    /// The board is not one of the family's variants.
    #[error("board `{0}` is not a variant of the family")]
    UnknownBoard(&'static str),
}

/// The variant whose board is `B`.
fn variant<B: Board>() -> Result<Variant, FilesError> {
    match B::NAME {
        "nine" => Ok(Variant::Nine),
        "six" => Ok(Variant::Six),
        "morabaraba" => Ok(Variant::Morabaraba),
        other => Err(FilesError::UnknownBoard(other)),
    }
}

/// The table part of labels and file names: `5-4` or `2-3-4-3`.
fn table_name(id: TableId) -> String {
    match id {
        TableId::Moving(sub) => format!("{}-{}", sub.us, sub.them),
        TableId::Placement(s) => format!("{}-{}-{}-{}", s.us, s.them, s.us_hand, s.them_hand),
    }
}

/// The label of a table: board, rule set, table (`six/flying/5-4`).
pub fn label<B: Board>(rules: RuleSet, id: TableId) -> Result<String, FilesError> {
    Ok(format!(
        "{}/{}/{}",
        B::NAME,
        rules.tag(variant::<B>()?),
        table_name(id)
    ))
}

/// The file of a table in `dir` (`six-flying-5-4.tb`).
pub fn file_name<B: Board>(dir: &Path, rules: RuleSet, id: TableId) -> Result<PathBuf, FilesError> {
    Ok(dir.join(format!(
        "{}-{}-{}.tb",
        B::NAME,
        rules.tag(variant::<B>()?),
        table_name(id)
    )))
}

/// The two-bit code of an outcome.
fn code(o: Outcome) -> u8 {
    match o {
        Outcome::Win => OUTCOME_WIN,
        Outcome::Loss => OUTCOME_LOSS,
        Outcome::Draw => OUTCOME_DRAW,
    }
}

/// Write every table of a solution into `dir` (created if needed); each
/// file is written atomically. Returns the bytes written.
pub fn write<B: Board>(dir: &Path, sol: &Solution<B>) -> Result<u64, FilesError> {
    std::fs::create_dir_all(dir).map_err(|source| FormatError::Io {
        path: dir.to_owned(),
        source,
    })?;
    let mut bytes = 0;
    for (&sub, values) in &sol.moving {
        let id = TableId::Moving(sub);
        let mut header = summarize(values, values.len() as u64);
        header.label = label::<B>(sol.rules, id)?;
        let path = file_name::<B>(dir, sol.rules, id)?;
        write_table(&path, &header, values, ZSTD_LEVEL)?;
        bytes += file_len(&path)?;
    }
    for (&sector, outcomes) in &sol.placement {
        let id = TableId::Placement(sector);
        let mut packed = vec![0u8; outcomes.len().div_ceil(4)];
        for (j, &o) in outcomes.iter().enumerate() {
            packed[j / 4] |= code(o) << (2 * (j % 4));
        }
        let mut header = summarize_outcomes(&packed, outcomes.len() as u64, outcomes.len() as u64);
        header.label = label::<B>(sol.rules, id)?;
        let path = file_name::<B>(dir, sol.rules, id)?;
        write_outcome_table(&path, &header, &packed, ZSTD_LEVEL)?;
        bytes += file_len(&path)?;
    }
    Ok(bytes)
}

fn file_len(path: &Path) -> Result<u64, FilesError> {
    Ok(std::fs::metadata(path)
        .map_err(|source| FormatError::Io {
            path: path.to_owned(),
            source,
        })?
        .len())
}

/// Open the file of a table and check its label, size and entry kind.
pub fn open<B: Board>(dir: &Path, rules: RuleSet, id: TableId) -> Result<Table, FilesError> {
    let slots = match id {
        TableId::Moving(sub) => index::size::<B>(sub),
        TableId::Placement(s) => index::size::<B>(s.subspace()),
    };
    open_sized::<B>(dir, rules, id, slots)
}

/// Open the file of a moving-phase subspace over index `I` (the
/// symmetry-reduced one for Morabaraba) and check its label, size and
/// entry kind.
pub fn open_moving<B: Board, I: Indexing>(
    dir: &Path,
    rules: RuleSet,
    sub: Subspace,
) -> Result<Table, FilesError> {
    open_sized::<B>(dir, rules, TableId::Moving(sub), I::size::<B>(sub))
}

/// Open the file of a table that must have `slots` slots.
fn open_sized<B: Board>(
    dir: &Path,
    rules: RuleSet,
    id: TableId,
    slots: u64,
) -> Result<Table, FilesError> {
    let path = file_name::<B>(dir, rules, id)?;
    let kind = match id {
        TableId::Moving(_) => EntryKind::Value,
        TableId::Placement(_) => EntryKind::Outcome,
    };
    open_checked(path, B::NAME, &label::<B>(rules, id)?, slots, kind)
}

/// Open the table file at `path` (of the game `game`, for the error) and
/// check that it has the label `expected`, `slots` slots and entries of
/// `kind`.
pub(crate) fn open_checked(
    path: PathBuf,
    game: &'static str,
    expected: &str,
    slots: u64,
    kind: EntryKind,
) -> Result<Table, FilesError> {
    if !path.exists() {
        return Err(FilesError::Missing(path, game));
    }
    let table = Table::open(&path)?;
    let h = table.header();
    if h.label != expected || h.slots != slots {
        return Err(FilesError::Mismatch {
            path,
            expected: expected.to_owned(),
            found: h.label.clone(),
            slots,
            found_slots: h.slots,
        });
    }
    if h.kind != kind {
        return Err(FilesError::WrongEntries(path));
    }
    Ok(table)
}

/// Write the values of one moving-phase subspace (`positions` of its
/// slots used) atomically into `dir`; returns the bytes written.
pub fn write_moving<B: Board>(
    dir: &Path,
    rules: RuleSet,
    sub: Subspace,
    values: &[Value],
    positions: u64,
) -> Result<u64, FilesError> {
    std::fs::create_dir_all(dir).map_err(|source| FormatError::Io {
        path: dir.to_owned(),
        source,
    })?;
    let id = TableId::Moving(sub);
    let mut header = summarize(values, positions);
    header.label = label::<B>(rules, id)?;
    let path = file_name::<B>(dir, rules, id)?;
    write_table(&path, &header, values, ZSTD_LEVEL)?;
    file_len(&path)
}

/// Every table of the game under `rules`: moving-phase subspaces, then
/// placement sectors.
pub fn tables(rules: RuleSet) -> Vec<TableId> {
    let mut out = Vec::new();
    for sub in pairs(rules.stones) {
        out.push(TableId::Moving(sub));
        if sub.us != sub.them {
            out.push(TableId::Moving(sub.swapped()));
        }
    }
    out.extend(
        Sector::all(rules.stones)
            .into_iter()
            .map(TableId::Placement),
    );
    out
}

/// Load the whole game under `rules` from `dir` (every file checked).
pub fn load<B: Board>(dir: &Path, rules: RuleSet) -> Result<Solution<B>, FilesError> {
    let mut moving: BTreeMap<Subspace, Vec<Value>> = BTreeMap::new();
    let mut placement: BTreeMap<Sector, Vec<Outcome>> = BTreeMap::new();
    for id in tables(rules) {
        let values = open::<B>(dir, rules, id)?.values()?;
        match id {
            TableId::Moving(sub) => {
                moving.insert(sub, values);
            }
            TableId::Placement(s) => {
                placement.insert(s, values.iter().map(|v| v.outcome()).collect());
            }
        }
    }
    Ok(Solution::from_tables(rules, moving, placement))
}
