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
use crate::family::files::FilesError;
use crate::variant::{RuleSet, Variant};
use std::collections::BTreeMap;
use std::marker::PhantomData;
use std::path::{Path, PathBuf};
use tablebase::format::{summarize, EntryKind};
use tablebase::reader::Table;
use tablebase::set::{Directory, TableSet, ZSTD_LEVEL};

fn sector_name(s: LaskerSector) -> String {
    format!("{}-{}-{}-{}", s.us, s.them, s.us_hand, s.them_hand)
}

/// Lasker Morris's sector tables on board `B` under one rule set, as a
/// table set.
pub struct LaskerTables<B> {
    rules: RuleSet,
    _board: PhantomData<B>,
}

impl<B: Board> LaskerTables<B> {
    /// The tables under `rules`.
    pub fn new(rules: RuleSet) -> LaskerTables<B> {
        LaskerTables {
            rules,
            _board: PhantomData,
        }
    }
}

impl<B: Board> TableSet for LaskerTables<B> {
    type Key = LaskerSector;

    fn generator(&self) -> String {
        "solver lasker generate".into()
    }

    fn file_name(&self, s: LaskerSector) -> String {
        base_name(self.rules, s)
    }

    fn parse_file_name(&self, name: &str) -> Result<Option<LaskerSector>, ()> {
        let rest = name.strip_prefix("lasker-").ok_or(())?;
        let rest = rest.strip_suffix(".tb").ok_or(())?;
        let Some(numbers) = rest.strip_prefix(self.rules.tag(Variant::Lasker).as_str()) else {
            return Ok(None); // another rule set
        };
        let n: Vec<u8> = numbers
            .strip_prefix('-')
            .ok_or(())?
            .split('-')
            .map(|n| n.parse().map_err(|_| ()))
            .collect::<Result<_, ()>>()?;
        match n[..] {
            [us, them, us_hand, them_hand] => Ok(Some(LaskerSector {
                us,
                them,
                us_hand,
                them_hand,
            })),
            _ => Err(()),
        }
    }

    fn label(&self, s: LaskerSector) -> String {
        label(self.rules, s)
    }

    fn slots(&self, s: LaskerSector) -> u64 {
        s.size::<B>()
    }

    fn holds(&self, _s: LaskerSector, kind: EntryKind) -> bool {
        kind == EntryKind::Value
    }

    fn prefix(&self) -> &'static str {
        "lasker-"
    }
}

/// The sector tables under `rules` in `dir`.
pub fn directory<B: Board>(dir: &Path, rules: RuleSet) -> Directory<LaskerTables<B>> {
    Directory::new(dir, LaskerTables::new(rules))
}

/// The label of a sector's table (`lasker/flying-4/3-2-1-1`).
pub fn label(rules: RuleSet, s: LaskerSector) -> String {
    format!("lasker/{}/{}", rules.tag(Variant::Lasker), sector_name(s))
}

/// The file name of a sector's table (`lasker-flying-4-3-2-1-1.tb`).
fn base_name(rules: RuleSet, s: LaskerSector) -> String {
    format!(
        "lasker-{}-{}.tb",
        rules.tag(Variant::Lasker),
        sector_name(s)
    )
}

/// The file of a sector's table in `dir`.
pub fn file_name(dir: &Path, rules: RuleSet, s: LaskerSector) -> PathBuf {
    dir.join(base_name(rules, s))
}

/// Write every table of a solution into `dir` (created if needed); each
/// file is written atomically. Returns the bytes written.
pub fn write<B: Board>(dir: &Path, sol: &LaskerSolution<B>) -> Result<u64, FilesError> {
    let tables = directory::<B>(dir, sol.rules);
    let mut bytes = 0;
    for (&s, values) in &sol.tables {
        let header = summarize(values, values.len() as u64);
        bytes += tables.write_values(s, &header, values, ZSTD_LEVEL)?;
    }
    Ok(bytes)
}

/// Open the file of a sector and check its label, size and entry kind.
pub fn open<B: Board>(dir: &Path, rules: RuleSet, s: LaskerSector) -> Result<Table, FilesError> {
    Ok(directory::<B>(dir, rules).open(s)?)
}

/// Load every sector of the game under `rules` from `dir` (every file
/// checked).
pub fn load<B: Board>(dir: &Path, rules: RuleSet) -> Result<LaskerSolution<B>, FilesError> {
    let tables = directory::<B>(dir, rules);
    let mut values: Tables = BTreeMap::new();
    for s in sectors::<B>(rules.stones) {
        values.insert(s, tables.open(s)?.values()?);
    }
    Ok(LaskerSolution::from_tables(rules, values))
}
