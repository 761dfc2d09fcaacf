//! The tablebase directory of Lasker Morris: one file per sector
//! (`lasker-flying-4-3-2-1-1.tb`: values with distance to conversion) in
//! the format of [`tablebase::format`], its slots those of Nine Men's
//! Morris's symmetry-reduced index ([`crate::index::nine`], Malom's numbering of
//! sector `W-B-WF-BF` with the side to move as White), unused slots draws. Every header's label names the
//! variant, the rule set and the sector (`lasker/flying-4/3-2-1-1`); the
//! variant name `lasker` and the rule tag ([`RuleSet::tag`]) make a file
//! of Nine Men's Morris, of another stone count or of another flying rule
//! fail to load: its label or its size differs and the file is refused.

use crate::games::lasker::sector::{sectors, LaskerSector};
use crate::probe::values::Values;
use crate::rules::board::Board;
use crate::rules::position::Position;
use crate::rules::variant::{RuleSet, Variant};
use crate::tables::files::FilesError;
use std::collections::BTreeMap;
use std::marker::PhantomData;
use std::path::{Path, PathBuf};
use tablebase::format::EntryKind;
use tablebase::reader::Table;
use tablebase::set::{Directory, TableSet};
use tablebase::Value;

/// The sector's part of file names, labels and plan keys (`3-2-1-1`:
/// stones on the board of the side to move and of its opponent, then in
/// hand).
pub fn sector_name(s: LaskerSector) -> String {
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
        format!(
            "solver lasker generate{}",
            self.rules.generate_options(Variant::Lasker.stones())
        )
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
        let Some(n) = crate::tables::files::numbers_after_tag(numbers) else {
            return Ok(None); // a longer tag: another rule set
        };
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
        s.slots()
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

/// Open the file of a sector and check its label, size and entry kind.
pub fn open<B: Board>(dir: &Path, rules: RuleSet, s: LaskerSector) -> Result<Table, FilesError> {
    Ok(directory::<B>(dir, rules).open(s)?)
}

/// Every sector table of a game, memory-mapped (nothing loaded whole: a
/// probe decompresses one block, cached by the reader): what `solver
/// lasker probe|start|play`, the web API and the Python module read.
/// Thread-safe.
#[derive(Debug)]
pub struct LaskerFiles {
    /// The rule set the files were written under.
    pub rules: RuleSet,
    tables: BTreeMap<LaskerSector, Table>,
}

impl LaskerFiles {
    /// Open every sector's file of the game under `rules` in `dir` (labels,
    /// sizes and block tables checked).
    pub fn open(dir: &Path, rules: RuleSet) -> Result<LaskerFiles, FilesError> {
        let set = directory::<crate::rules::board::Nine>(dir, rules);
        let tables = sectors::<crate::rules::board::Nine>(rules.stones)
            .into_iter()
            .map(|s| Ok((s, set.open(s)?)))
            .collect::<Result<_, FilesError>>()?;
        Ok(LaskerFiles { rules, tables })
    }

    /// The table of sector `s`, if it is a sector of the game.
    pub fn table(&self, s: LaskerSector) -> Option<&Table> {
        self.tables.get(&s)
    }

    /// The stored value of a position (distance to conversion), `None` when
    /// its sector is not in the game; a damaged block is an error.
    pub fn get(&self, pos: &Position) -> Result<Option<Value>, FilesError> {
        let Some(table) = self.tables.get(&LaskerSector::of(pos)) else {
            return Ok(None);
        };
        Ok(Some(
            table.get(crate::index::nine::index(pos.us(), pos.them()))?,
        ))
    }
}

/// Every Lasker value carries its distance to conversion; a position of a
/// damaged block has no value (the error is `get`'s).
impl Values<crate::rules::board::Nine> for LaskerFiles {
    fn value(&self, pos: &Position) -> Option<Value> {
        self.get(pos).ok().flatten()
    }

    fn has_distance(&self, _pos: &Position) -> bool {
        true
    }
}

/// Open every sector of the game under `rules` in `dir` (every file
/// checked): [`LaskerFiles::open`].
pub fn load(dir: &Path, rules: RuleSet) -> Result<LaskerFiles, FilesError> {
    LaskerFiles::open(dir, rules)
}
