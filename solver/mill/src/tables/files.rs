//! The tablebase directory of a family variant: one file per moving-phase
//! subspace (`six-flying-5-4.tb`: values with distance to conversion) and
//! per placement sector (`six-flying-2-3-4-3.tb`: outcomes), in the format
//! of [`tablebase::format`]. Every header's label names the board, the rule
//! set and the table (`six/noflying/5-4`); a file whose label or size is not
//! what its variant, rule set and table need is refused.

use crate::index::{self, Indexing};
use crate::rules::board::Board;
use crate::rules::variant::RuleSet;
use crate::tables::keys::Subspace;
use crate::tables::keys::{Sector, TableId};
use crate::tables::solve::{pairs, Solution};
use std::collections::BTreeMap;
use std::marker::PhantomData;
use std::path::{Path, PathBuf};
use tablebase::format::{
    summarize, summarize_outcomes, EntryKind, FormatError, OUTCOME_DRAW, OUTCOME_LOSS, OUTCOME_WIN,
};
use tablebase::reader::Table;
use tablebase::set::{Directory, SetError, TableSet, ZSTD_LEVEL};
use tablebase::{Outcome, Value};

/// Errors of a family tablebase directory.
#[derive(Debug, thiserror::Error)]
pub enum FilesError {
    /// A file could not be read, written or understood.
    #[error(transparent)]
    Format(#[from] FormatError),
    /// The table directory: a file missing, unknown, or holding another
    /// table, variant or rule set than asked for.
    #[error(transparent)]
    Set(#[from] SetError),
}

impl FilesError {
    /// The same error, a missing table's command naming `options` as well
    /// ([`SetError::with_generate_options`]).
    pub fn with_generate_options(self, options: &str) -> FilesError {
        match self {
            FilesError::Set(e) => FilesError::Set(e.with_generate_options(options)),
            other => other,
        }
    }
}

/// The table part of labels and file names: `5-4` or `2-3-4-3`.
fn table_name(id: TableId) -> String {
    match id {
        TableId::Moving(sub) => format!("{}-{}", sub.us, sub.them),
        TableId::Placement(s) => format!("{}-{}-{}-{}", s.us, s.them, s.us_hand, s.them_hand),
    }
}

/// A family board's tables under one rule set, as a table set: moving-phase
/// subspaces hold values, placement sectors outcomes; the moving-phase
/// tables are sized by the index `I` (dense for Six, symmetry-reduced for
/// Morabaraba), the placement sectors by the dense index.
pub struct FamilyTables<B, I = index::Dense> {
    rules: RuleSet,
    tag: String,
    _board: PhantomData<(B, I)>,
}

impl<B: Board, I: Indexing> FamilyTables<B, I> {
    /// The tables of board `B` under `rules` (the rule tag of the file
    /// names counts stones against the board's own game, `B::STONES`).
    pub fn new(rules: RuleSet) -> FamilyTables<B, I> {
        FamilyTables {
            rules,
            tag: rules.tag_for(B::STONES, false),
            _board: PhantomData,
        }
    }

    /// The rule set.
    pub fn rules(&self) -> RuleSet {
        self.rules
    }
}

/// The numbers of a table's name after its rule set's tag (`-5-4` or
/// `-0-1-4-3`), or `None` when the name goes on with another rule set's
/// longer tag (`-q100-5-4` or `-5-3-3` after `flying`: the count rule's
/// tables or another stone count, in the same directory).
pub(crate) fn numbers_after_tag(rest: &str) -> Option<Vec<u8>> {
    let numbers: Vec<u8> = rest
        .strip_prefix('-')?
        .split('-')
        .map(|n| n.parse().ok())
        .collect::<Option<_>>()?;
    matches!(numbers.len(), 2 | 4).then_some(numbers)
}

impl<B: Board, I: Indexing> TableSet for FamilyTables<B, I> {
    type Key = TableId;

    fn generator(&self) -> String {
        format!(
            "solver {} generate{}",
            B::NAME,
            self.rules.generate_options(B::STONES)
        )
    }

    fn file_name(&self, id: TableId) -> String {
        format!("{}-{}-{}.tb", B::NAME, self.tag, table_name(id))
    }

    fn parse_file_name(&self, name: &str) -> Result<Option<TableId>, ()> {
        let rest = name.strip_prefix(B::NAME).and_then(|r| r.strip_prefix('-'));
        let rest = rest.and_then(|r| r.strip_suffix(".tb")).ok_or(())?;
        let Some(numbers) = rest.strip_prefix(self.tag.as_str()) else {
            return Ok(None); // another rule set of the board
        };
        let Some(numbers) = numbers_after_tag(numbers) else {
            return Ok(None); // a longer tag: another rule set
        };
        // Only tables of this game: a subspace of 3..=stones a side, a
        // sector the game reaches.
        let stones = self.rules.stones;
        match numbers[..] {
            [us, them] if (3..=stones).contains(&us) && (3..=stones).contains(&them) => {
                Ok(Some(TableId::Moving(Subspace::new(us, them))))
            }
            [us, them, uh, th] if Sector::new(us, them, uh, th).in_game(stones) => {
                Ok(Some(TableId::Placement(Sector::new(us, them, uh, th))))
            }
            _ => Err(()),
        }
    }

    fn label(&self, id: TableId) -> String {
        format!("{}/{}/{}", B::NAME, self.tag, table_name(id))
    }

    fn slots(&self, id: TableId) -> u64 {
        match id {
            TableId::Moving(sub) => I::size::<B>(sub),
            TableId::Placement(s) => I::size::<B>(s.subspace()),
        }
    }

    /// Moving-phase tables hold values with distances; placement tables
    /// outcomes (two-bit, or one-byte values as Nine Men's Morris's first
    /// placement tables were written).
    fn holds(&self, id: TableId, kind: EntryKind) -> bool {
        match id {
            TableId::Moving(_) => kind == EntryKind::Value,
            TableId::Placement(_) => kind != EntryKind::Opaque,
        }
    }

    fn prefix(&self) -> &'static str {
        B::NAME
    }
}

/// The tables of board `B` under `rules` in `dir`, moving-phase tables
/// over index `I`.
pub fn directory<B: Board, I: Indexing>(
    dir: &Path,
    rules: RuleSet,
) -> Directory<FamilyTables<B, I>> {
    Directory::new(dir, FamilyTables::new(rules))
}

/// The label of a table: board, rule set, table (`six/flying/5-4`).
pub fn label<B: Board>(rules: RuleSet, id: TableId) -> String {
    FamilyTables::<B>::new(rules).label(id)
}

/// The file of a table in `dir` (`six-flying-5-4.tb`).
pub fn file_name<B: Board>(dir: &Path, rules: RuleSet, id: TableId) -> PathBuf {
    directory::<B, index::Dense>(dir, rules).path(id)
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
    let tables = directory::<B, index::Dense>(dir, sol.rules);
    let mut bytes = 0;
    for (&sub, values) in &sol.moving {
        let header = summarize(values, values.len() as u64);
        bytes += tables.write_values(TableId::Moving(sub), &header, values, ZSTD_LEVEL)?;
    }
    for (&sector, outcomes) in &sol.placement {
        let mut packed = vec![0u8; outcomes.len().div_ceil(4)];
        for (j, &o) in outcomes.iter().enumerate() {
            packed[j / 4] |= code(o) << (2 * (j % 4));
        }
        let n = outcomes.len() as u64;
        let header = summarize_outcomes(&packed, n, n);
        bytes += tables.write_outcomes(TableId::Placement(sector), &header, &packed, ZSTD_LEVEL)?;
    }
    Ok(bytes)
}

/// Open the file of a table and check its label, size and entry kind.
pub fn open<B: Board>(dir: &Path, rules: RuleSet, id: TableId) -> Result<Table, FilesError> {
    Ok(directory::<B, index::Dense>(dir, rules).open(id)?)
}

/// Open the file of a moving-phase subspace over index `I` (the
/// symmetry-reduced one for Morabaraba) and check its label, size and
/// entry kind.
pub fn open_moving<B: Board, I: Indexing>(
    dir: &Path,
    rules: RuleSet,
    sub: Subspace,
) -> Result<Table, FilesError> {
    Ok(directory::<B, I>(dir, rules).open(TableId::Moving(sub))?)
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
    let header = summarize(values, positions);
    let tables = directory::<B, index::Dense>(dir, rules);
    Ok(tables.write_values(TableId::Moving(sub), &header, values, ZSTD_LEVEL)?)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::nine::NineIndex;
    use crate::rules::board::Nine;

    /// Rule sets whose tags extend each other (`flying`, `flying-q100`,
    /// `flying-5`) share a directory: each reads its own names and passes
    /// over the others'.
    #[test]
    fn rule_sets_with_longer_tags_share_a_directory() {
        let sets = [
            RuleSet::nine(true),
            RuleSet::nine(true).with_quiet_limit(Some(100)),
            RuleSet::new(5, true),
            RuleSet::new(5, true).with_quiet_limit(Some(10)),
        ];
        let ids = [
            TableId::Moving(Subspace::new(4, 3)),
            TableId::Placement(Sector::new(0, 1, 4, 3)),
        ];
        for (i, &own) in sets.iter().enumerate() {
            let set = FamilyTables::<Nine, NineIndex>::new(own);
            for (j, &other) in sets.iter().enumerate() {
                for id in ids {
                    let name = FamilyTables::<Nine, NineIndex>::new(other).file_name(id);
                    let want = (i == j).then_some(id);
                    assert_eq!(set.parse_file_name(&name), Ok(want), "{name} under {own:?}");
                }
            }
            assert_eq!(set.parse_file_name("nine-flying-x.tb"), Ok(None));
            assert!(set.parse_file_name("notes.txt").is_err());
        }
    }
}
