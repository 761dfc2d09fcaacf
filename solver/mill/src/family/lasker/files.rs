//! The tablebase directory of Lasker Morris: one file per sector
//! (`lasker-flying-4-3-2-1-1.tb`: values with distance to conversion) in
//! the format of [`tablebase::format`]. Every header's label names the
//! variant, the rule set and the sector (`lasker/flying-4/3-2-1-1`); the
//! variant name `lasker` and the rule tag ([`RuleSet::tag`]) make a file
//! of Nine Men's Morris, of another stone count or of another flying rule
//! fail to load: its label or its size differs and the file is refused.

use super::sector::{sectors, LaskerSector};
use super::solve::{LaskerSolution, Tables};
use crate::board::Board;
use crate::family::files::{open_checked, FilesError};
use crate::variant::{RuleSet, Variant};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use tablebase::format::{summarize, write_table, EntryKind, FormatError};
use tablebase::reader::Table;

/// zstd level of the written blocks.
const ZSTD_LEVEL: i32 = 9;

fn sector_name(s: LaskerSector) -> String {
    format!("{}-{}-{}-{}", s.us, s.them, s.us_hand, s.them_hand)
}

/// The label of a sector's table (`lasker/flying-4/3-2-1-1`).
pub fn label(rules: RuleSet, s: LaskerSector) -> String {
    format!("lasker/{}/{}", rules.tag(Variant::Lasker), sector_name(s))
}

/// The file of a sector's table in `dir`.
pub fn file_name(dir: &Path, rules: RuleSet, s: LaskerSector) -> PathBuf {
    dir.join(format!(
        "lasker-{}-{}.tb",
        rules.tag(Variant::Lasker),
        sector_name(s)
    ))
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> FilesError + '_ {
    move |source| {
        FilesError::Format(FormatError::Io {
            path: path.to_owned(),
            source,
        })
    }
}

/// Write every table of a solution into `dir` (created if needed); each
/// file is written atomically. Returns the bytes written.
pub fn write<B: Board>(dir: &Path, sol: &LaskerSolution<B>) -> Result<u64, FilesError> {
    std::fs::create_dir_all(dir).map_err(io(dir))?;
    let mut bytes = 0;
    for (&s, values) in &sol.tables {
        let mut header = summarize(values, values.len() as u64);
        header.label = label(sol.rules, s);
        let path = file_name(dir, sol.rules, s);
        write_table(&path, &header, values, ZSTD_LEVEL)?;
        bytes += std::fs::metadata(&path).map_err(io(&path))?.len();
    }
    Ok(bytes)
}

/// Open the file of a sector and check its label, size and entry kind.
pub fn open<B: Board>(dir: &Path, rules: RuleSet, s: LaskerSector) -> Result<Table, FilesError> {
    let path = file_name(dir, rules, s);
    open_checked(
        path,
        "lasker",
        &label(rules, s),
        s.size::<B>(),
        EntryKind::Value,
    )
}

/// Load every sector of the game under `rules` from `dir` (every file
/// checked).
pub fn load<B: Board>(dir: &Path, rules: RuleSet) -> Result<LaskerSolution<B>, FilesError> {
    let mut tables: Tables = BTreeMap::new();
    for s in sectors::<B>(rules.stones) {
        tables.insert(s, open::<B>(dir, rules, s)?.values()?);
    }
    Ok(LaskerSolution::from_tables(rules, tables))
}
