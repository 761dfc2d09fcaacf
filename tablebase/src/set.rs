//! A directory of tables, one file per key: the part of every game's table
//! set that is not about the game. A game says what its keys are (a
//! subspace, a sector, a layer), how a key is named in a file name and in
//! the header's label, how many slots its table has and what its entries
//! are ([`TableSet`]); [`Directory`] does the rest the same way for all:
//! the path of a key, opening a file and checking that it holds what its
//! name says, scanning a directory (every entry must be one of the game's
//! files), the keys still missing (where a cut-off run resumes), and
//! writing a table atomically.

use crate::format::{
    write_opaque_table, write_outcome_table, write_table, EntryKind, FormatError, Header,
};
use crate::reader::Table;
use crate::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// zstd level of the tables every game writes (distances and shares). The
/// Nine Men's Morris placement sectors use a faster level; see their module.
pub const ZSTD_LEVEL: i32 = 9;

/// What a game's table set is made of.
pub trait TableSet {
    /// What names one table.
    type Key: Copy + Ord + std::fmt::Debug;

    /// The command that generates the set, named in "missing" errors
    /// (`solver nine generate`).
    fn generator(&self) -> String;

    /// The file name of a key's table (no directory).
    fn file_name(&self, key: Self::Key) -> String;

    /// Whether `name` is a file of this game, and which key it holds;
    /// `Ok(None)` for a file of the game that belongs to another set of it
    /// (another rule set) and is left alone, `Err(())` for a file that is
    /// not the game's at all.
    #[allow(clippy::result_unit_err)]
    fn parse_file_name(&self, name: &str) -> Result<Option<Self::Key>, ()>;

    /// The label a key's header must carry.
    fn label(&self, key: Self::Key) -> String;

    /// Slots of the key's table.
    fn slots(&self, key: Self::Key) -> u64;

    /// Whether a table of `key` may hold entries of `kind`.
    fn holds(&self, key: Self::Key, kind: EntryKind) -> bool;

    /// The prefix of the game's file names, so that a leftover `.tmp` of a
    /// cut-off write is recognised and skipped.
    fn prefix(&self) -> &'static str;
}

/// Errors of a table directory.
#[derive(Debug, thiserror::Error)]
pub enum SetError {
    /// A file could not be read, written or understood.
    #[error(transparent)]
    Format(#[from] FormatError),
    /// The directory holds something that is not the game's.
    #[error("{0}: unknown file in the table directory (move it elsewhere)")]
    UnknownFile(PathBuf),
    /// A file holds another table than its name says.
    #[error("{path}: holds `{found}` ({found_slots} slots) but its name says `{expected}` ({slots} slots)")]
    Mismatch {
        /// The file.
        path: PathBuf,
        /// The label its name implies.
        expected: String,
        /// The label inside.
        found: String,
        /// The slots its name implies.
        slots: u64,
        /// The slots inside.
        found_slots: u64,
    },
    /// A file's entries are not what its table holds.
    #[error("{path}: holds {found:?} entries, the wrong kind for its table")]
    WrongEntries {
        /// The file.
        path: PathBuf,
        /// What the file holds.
        found: EntryKind,
    },
    /// A needed table has not been generated.
    #[error("{path}: missing; generate it first ({generator})")]
    Missing {
        /// The file that should hold it.
        path: PathBuf,
        /// The command that makes it.
        generator: String,
    },
    /// The directory cannot be used.
    #[error("{path}: {source}")]
    Dir {
        /// The directory.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
}

impl SetError {
    /// The same error, a missing table's command naming `options` as well
    /// (" --stones 4": what the caller asked for that the table set alone
    /// does not know); any other error unchanged.
    pub fn with_generate_options(self, options: &str) -> SetError {
        match self {
            SetError::Missing { path, generator } => SetError::Missing {
                path,
                generator: generator + options,
            },
            other => other,
        }
    }
}

/// A game's table set in a directory.
#[derive(Clone, Debug)]
pub struct Directory<S> {
    root: PathBuf,
    set: S,
}

impl<S: TableSet> Directory<S> {
    /// The set `set` in the directory `root` (nothing is read yet).
    pub fn new(root: impl Into<PathBuf>, set: S) -> Directory<S> {
        Directory {
            root: root.into(),
            set,
        }
    }

    /// The directory.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The game's description of the set.
    pub fn set(&self) -> &S {
        &self.set
    }

    /// The file of a key's table.
    pub fn path(&self, key: S::Key) -> PathBuf {
        self.root.join(self.set.file_name(key))
    }

    /// Whether a key's file exists (not whether it is sound: [`open`](Self::open) checks).
    pub fn exists(&self, key: S::Key) -> bool {
        self.path(key).is_file()
    }

    /// The "missing" error of a key.
    pub fn missing(&self, key: S::Key) -> SetError {
        SetError::Missing {
            path: self.path(key),
            generator: self.set.generator(),
        }
    }

    /// Open a key's file and check that it holds that key's table: its
    /// label, slot count and entry kind.
    pub fn open(&self, key: S::Key) -> Result<Table, SetError> {
        let path = self.path(key);
        if !path.exists() {
            return Err(self.missing(key));
        }
        self.open_at(&path, key)
    }

    /// Open the file at `path` and check that it holds `key`'s table.
    pub fn open_at(&self, path: &Path, key: S::Key) -> Result<Table, SetError> {
        let table = Table::open(path)?;
        let h = table.header();
        let expected = self.set.label(key);
        let slots = self.set.slots(key);
        if h.label != expected || h.slots != slots {
            return Err(SetError::Mismatch {
                path: path.to_owned(),
                expected,
                found: h.label.clone(),
                slots,
                found_slots: h.slots,
            });
        }
        if !self.set.holds(key, h.kind) {
            return Err(SetError::WrongEntries {
                path: path.to_owned(),
                found: h.kind,
            });
        }
        Ok(table)
    }

    /// Every table of the set in the directory, opened and checked. Every
    /// entry must be a file of the game (a leftover `.tmp` of a cut-off
    /// write is skipped; another rule set's files are left alone); a
    /// directory that does not exist is empty.
    pub fn scan(&self) -> Result<BTreeMap<S::Key, Table>, SetError> {
        let mut found = BTreeMap::new();
        let dir_error = |source| SetError::Dir {
            path: self.root.clone(),
            source,
        };
        let entries = match std::fs::read_dir(&self.root) {
            Ok(e) => e,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(found),
            Err(source) => return Err(dir_error(source)),
        };
        for entry in entries {
            let entry = entry.map_err(dir_error)?;
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            if !path.is_file() {
                return Err(SetError::UnknownFile(path));
            }
            if name.starts_with(self.set.prefix()) && name.ends_with(".tmp") {
                continue;
            }
            match self.set.parse_file_name(&name) {
                Err(()) => return Err(SetError::UnknownFile(path)),
                Ok(None) => continue,
                Ok(Some(key)) => {
                    let table = self.open_at(&path, key)?;
                    found.insert(key, table);
                }
            }
        }
        Ok(found)
    }

    /// The keys of `keys` (in their order) whose files do not exist: what a
    /// resumed run still has to make.
    pub fn absent(&self, keys: impl IntoIterator<Item = S::Key>) -> Vec<S::Key> {
        keys.into_iter().filter(|&k| !self.exists(k)).collect()
    }

    /// Create the directory if needed.
    pub fn create(&self) -> Result<(), SetError> {
        std::fs::create_dir_all(&self.root).map_err(|source| SetError::Dir {
            path: self.root.clone(),
            source,
        })
    }

    /// Write a key's values atomically (the header's label is set to the
    /// key's); returns the bytes of the file.
    pub fn write_values(
        &self,
        key: S::Key,
        header: &Header,
        values: &[Value],
        level: i32,
    ) -> Result<u64, SetError> {
        self.write_with(key, header, |path, header| {
            write_table(path, header, values, level)
        })
    }

    /// Write a key's outcomes packed two bits a slot atomically; returns
    /// the bytes of the file.
    pub fn write_outcomes(
        &self,
        key: S::Key,
        header: &Header,
        packed: &[u8],
        level: i32,
    ) -> Result<u64, SetError> {
        self.write_with(key, header, |path, header| {
            write_outcome_table(path, header, packed, level)
        })
    }

    /// Write a key's game-defined one-byte entries atomically; returns the
    /// bytes of the file.
    pub fn write_opaque(
        &self,
        key: S::Key,
        header: &Header,
        entries: &[u8],
        level: i32,
    ) -> Result<u64, SetError> {
        self.write_with(key, header, |path, header| {
            write_opaque_table(path, header, entries, level)
        })
    }

    fn write_with(
        &self,
        key: S::Key,
        header: &Header,
        write: impl FnOnce(&Path, &Header) -> Result<(), FormatError>,
    ) -> Result<u64, SetError> {
        self.create()?;
        let mut header = header.clone();
        header.label = self.set.label(key);
        let path = self.path(key);
        write(&path, &header)?;
        let len = std::fs::metadata(&path)
            .map_err(|source| FormatError::Io {
                path: path.clone(),
                source,
            })?
            .len();
        Ok(len)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::summarize;

    /// A toy game: table `n` has `n + 1` slots of values; files `toy-N.tb`;
    /// `toy-x-N.tb` belongs to another rule set of the game.
    #[derive(Clone, Copy)]
    struct Toy;

    impl TableSet for Toy {
        type Key = u8;
        fn generator(&self) -> String {
            "toy generate".into()
        }
        fn file_name(&self, key: u8) -> String {
            format!("toy-{key}.tb")
        }
        fn parse_file_name(&self, name: &str) -> Result<Option<u8>, ()> {
            let rest = name.strip_prefix("toy-").ok_or(())?;
            let rest = rest.strip_suffix(".tb").ok_or(())?;
            if rest.starts_with("x-") {
                return Ok(None);
            }
            rest.parse().map(Some).map_err(|_| ())
        }
        fn label(&self, key: u8) -> String {
            format!("toy/{key}")
        }
        fn slots(&self, key: u8) -> u64 {
            key as u64 + 1
        }
        fn holds(&self, _key: u8, kind: EntryKind) -> bool {
            kind == EntryKind::Value
        }
        fn prefix(&self) -> &'static str {
            "toy-"
        }
    }

    fn temp(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("tb-set-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    fn values(key: u8) -> Vec<Value> {
        (0..=key as u16).map(Value::loss).collect()
    }

    #[test]
    fn written_tables_are_found_checked_and_read_back() {
        let root = temp("round");
        let dir = Directory::new(&root, Toy);
        assert!(
            dir.scan().unwrap().is_empty(),
            "no directory is an empty set"
        );
        assert_eq!(dir.absent(0..4), vec![0, 1, 2, 3]);
        for key in [1u8, 3] {
            let v = values(key);
            let bytes = dir
                .write_values(key, &summarize(&v, v.len() as u64), &v, ZSTD_LEVEL)
                .unwrap();
            assert_eq!(bytes, std::fs::metadata(dir.path(key)).unwrap().len());
        }
        std::fs::write(root.join("toy-x-5.tb"), b"another rule set").unwrap();
        std::fs::write(root.join("toy-2.tb.tmp"), b"cut off").unwrap();
        assert_eq!(dir.absent(0..4), vec![0, 2]);
        let found = dir.scan().unwrap();
        assert_eq!(found.keys().copied().collect::<Vec<_>>(), vec![1, 3]);
        assert_eq!(found[&3].values().unwrap(), values(3));
        assert_eq!(found[&3].header().label, "toy/3");
        match dir.open(2) {
            Err(SetError::Missing { path, generator }) => {
                assert_eq!(path, root.join("toy-2.tb"));
                assert_eq!(generator, "toy generate");
            }
            other => panic!("expected a missing table, got {other:?}"),
        }
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn a_file_with_another_table_or_a_stranger_is_refused() {
        let root = temp("refuse");
        let dir = Directory::new(&root, Toy);
        let v = values(3);
        dir.write_values(3, &summarize(&v, 4), &v, ZSTD_LEVEL)
            .unwrap();
        // Table 3's file renamed to table 2's name: label and size differ.
        std::fs::rename(dir.path(3), dir.path(2)).unwrap();
        match dir.open(2) {
            Err(SetError::Mismatch {
                expected,
                found,
                slots,
                found_slots,
                ..
            }) => {
                assert_eq!((expected.as_str(), found.as_str()), ("toy/2", "toy/3"));
                assert_eq!((slots, found_slots), (3, 4));
            }
            other => panic!("expected a mismatch, got {other:?}"),
        }
        assert!(matches!(dir.scan(), Err(SetError::Mismatch { .. })));
        std::fs::remove_file(dir.path(2)).unwrap();
        std::fs::write(root.join("notes.txt"), b"mine").unwrap();
        match dir.scan() {
            Err(SetError::UnknownFile(p)) => assert_eq!(p, root.join("notes.txt")),
            other => panic!("expected an unknown file, got {other:?}"),
        }
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn entries_of_the_wrong_kind_are_refused() {
        let root = temp("kind");
        let dir = Directory::new(&root, Toy);
        let header = Header {
            slots: 3,
            positions: 3,
            ..summarize(&values(2), 3)
        };
        dir.write_opaque(2, &header, &[7, 8, 9], ZSTD_LEVEL)
            .unwrap();
        assert!(matches!(
            dir.open(2),
            Err(SetError::WrongEntries {
                found: EntryKind::Opaque,
                ..
            })
        ));
        std::fs::remove_dir_all(&root).unwrap();
    }
}
