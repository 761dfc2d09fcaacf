//! Reader for Malom's perfect-play sector files (`.sec2`), the independent
//! oracle the tests compare the tablebases and the placement search with.
//! The format is described in `../shared/data/malom/FORMAT.md`; Malom's slot
//! numbering is the one of [`crate::index::nine`], so slot `h` of sector
//! `std_W_B_0_0` is slot `h` of our subspace `(W, B)`. Malom names each
//! game's files by a prefix ([`STANDARD`] `std_W_B_WF_BF.sec2` with
//! `std.secval`, [`MORABARABA`] `mora_…`, [`LASKER`] `lask_…`); the `_of`
//! functions take it, the others read the standard game's.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use tablebase::Outcome;

/// Errors reading Malom files.
#[derive(Debug, thiserror::Error)]
pub enum MalomError {
    /// The file could not be read.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// The file is not in the expected format.
    #[error("{path}: {what}")]
    Format {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        what: String,
    },
}

/// A sector id: stones on board and in hand of the side to move and of the
/// opponent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SectorId {
    /// Stones on the board, side to move.
    pub w: u8,
    /// Stones on the board, opponent.
    pub b: u8,
    /// Stones in hand, side to move.
    pub wf: u8,
    /// Stones in hand, opponent.
    pub bf: u8,
}

/// One decoded slot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Entry {
    /// The slot redirects to a symmetric image (it is not a position of ours).
    Sym,
    /// A value: outcome for the side to move and, for wins and losses, plies
    /// to the end of the game under optimal play.
    Value(Outcome, Option<u16>),
}

/// A loaded sector file.
pub struct Sector {
    data: Vec<u8>,
    sval: i32,
    overflow: HashMap<u64, i32>,
}

/// Malom's file prefix of Nine Men's Morris (flying on).
pub const STANDARD: &str = "std";
/// Malom's file prefix of Morabaraba.
pub const MORABARABA: &str = "mora";
/// Malom's file prefix of Lasker Morris.
pub const LASKER: &str = "lask";

fn read(path: &Path) -> Result<Vec<u8>, MalomError> {
    std::fs::read(path).map_err(|source| MalomError::Io {
        path: path.to_owned(),
        source,
    })
}

/// Sector values from `std.secval`.
pub fn read_secval(dir: &Path) -> Result<HashMap<SectorId, i32>, MalomError> {
    read_secval_of(dir, STANDARD)
}

/// Sector values from `PREFIX.secval` (`mora.secval` for Morabaraba).
pub fn read_secval_of(dir: &Path, prefix: &str) -> Result<HashMap<SectorId, i32>, MalomError> {
    let path = dir.join(format!("{prefix}.secval"));
    let text = String::from_utf8_lossy(&read(&path)?).into_owned();
    let bad = |what: &str| MalomError::Format {
        path: path.clone(),
        what: what.to_owned(),
    };
    let mut map = HashMap::new();
    for line in text.lines().skip(3) {
        let f: Vec<i32> = line
            .split_whitespace()
            .map(|x| x.parse().map_err(|_| bad(&format!("bad line `{line}`"))))
            .collect::<Result<_, _>>()?;
        if f.len() != 5 {
            return Err(bad(&format!("bad line `{line}`")));
        }
        let id = SectorId {
            w: f[0] as u8,
            b: f[1] as u8,
            wf: f[2] as u8,
            bf: f[3] as u8,
        };
        map.insert(id, f[4]);
    }
    Ok(map)
}

fn sign12(x: u32) -> i32 {
    ((x << 20) as i32) >> 20
}

impl Sector {
    /// The file of a sector in `dir`.
    pub fn path(dir: &Path, id: SectorId) -> PathBuf {
        Sector::path_of(dir, STANDARD, id)
    }

    /// The file of a sector of the game named `prefix` in `dir`
    /// (`mora_W_B_WF_BF.sec2`).
    pub fn path_of(dir: &Path, prefix: &str, id: SectorId) -> PathBuf {
        dir.join(format!(
            "{prefix}_{}_{}_{}_{}.sec2",
            id.w, id.b, id.wf, id.bf
        ))
    }

    /// Load sector `id` from `dir` (with `std.secval` beside it).
    pub fn open(dir: &Path, id: SectorId) -> Result<Sector, MalomError> {
        Sector::open_of(dir, STANDARD, id)
    }

    /// Load sector `id` of the game named `prefix` from `dir` (with
    /// `PREFIX.secval` beside it).
    pub fn open_of(dir: &Path, prefix: &str, id: SectorId) -> Result<Sector, MalomError> {
        let path = Sector::path_of(dir, prefix, id);
        let data = read(&path)?;
        let bad = |what: &str| MalomError::Format {
            path: path.clone(),
            what: what.to_owned(),
        };
        let sval = *read_secval_of(dir, prefix)?
            .get(&id)
            .ok_or_else(|| bad(&format!("sector missing from {prefix}.secval")))?;
        let int = |o: usize| -> Result<i32, MalomError> {
            data.get(o..o + 4)
                .map(|b| i32::from_le_bytes(b.try_into().unwrap()))
                .ok_or_else(|| bad("truncated"))
        };
        if int(0)? != 2 || int(4)? != 3 {
            return Err(bad("not a version 2 sector file"));
        }
        // Entries run to the overflow table: n such that the rest is 4 + 8m bytes.
        let body = data
            .len()
            .checked_sub(64 + 4)
            .ok_or_else(|| bad("truncated"))?;
        let mut n = body / 3;
        let mut overflow = HashMap::new();
        loop {
            let tail = 64 + 3 * n;
            let m = int(tail)?;
            if m >= 0 && tail + 4 + 8 * m as usize == data.len() {
                for i in 0..m as usize {
                    overflow.insert(int(tail + 4 + 8 * i)? as u64, int(tail + 8 + 8 * i)?);
                }
                break;
            }
            n = n
                .checked_sub(1)
                .ok_or_else(|| bad("no overflow table found"))?;
        }
        let mut data = data;
        data.truncate(64 + 3 * n);
        Ok(Sector {
            data,
            sval,
            overflow,
        })
    }

    /// Number of slots.
    pub fn len(&self) -> u64 {
        (self.data.len() as u64 - 64) / 3
    }

    /// Whether the sector has no slots.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Decode slot `h`.
    pub fn entry(&self, h: u64) -> Entry {
        let o = 64 + 3 * h as usize;
        let a =
            self.data[o] as u32 | (self.data[o + 1] as u32) << 8 | (self.data[o + 2] as u32) << 16;
        let key1 = sign12(a & 0xFFF);
        let mut key2 = sign12(a >> 12);
        if key1 == 0 && key2 < 0 && key2 != -2048 {
            return Entry::Sym;
        }
        if key2 == -2048 {
            key2 = self.overflow.get(&h).copied().unwrap_or(key2);
        }
        match key1 + self.sval {
            299 => Entry::Value(Outcome::Win, Some(key2 as u16)),
            -299 => Entry::Value(Outcome::Loss, Some(key2 as u16)),
            _ => Entry::Value(Outcome::Draw, None),
        }
    }
}

/// The agreement of one Malom sector with our table of the same positions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Comparison {
    /// The sector.
    pub id: SectorId,
    /// Slots of the sector.
    pub slots: u64,
    /// Positions (value slots) whose win/draw/loss equals ours.
    pub agree: u64,
    /// Positions whose win/draw/loss differs from ours.
    pub disagree: u64,
    /// Slots that one side uses for a position and the other marks unused
    /// (Malom's `Sym`): zero when the numberings coincide.
    pub unused_mismatch: u64,
    /// The first disagreeing slots (at most 10).
    pub examples: Vec<u64>,
}

/// The Malom sector files (`std_W_B_WF_BF.sec2`) in `dir`, in file-name
/// order.
pub fn sector_files(dir: &Path) -> Result<Vec<SectorId>, MalomError> {
    sector_files_of(dir, STANDARD)
}

/// The Malom sector files of the game named `prefix`
/// (`PREFIX_W_B_WF_BF.sec2`) in `dir`, most stones in hand first.
pub fn sector_files_of(dir: &Path, prefix: &str) -> Result<Vec<SectorId>, MalomError> {
    let io = |source| MalomError::Io {
        path: dir.to_owned(),
        source,
    };
    let mut ids = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(io)? {
        let name = entry.map_err(io)?.file_name();
        let name = name.to_string_lossy();
        let Some(rest) = name
            .strip_prefix(prefix)
            .and_then(|r| r.strip_prefix('_'))
            .and_then(|r| r.strip_suffix(".sec2"))
        else {
            continue;
        };
        let f: Vec<u8> = match rest.split('_').map(|x| x.parse()).collect() {
            Ok(f) => f,
            Err(_) => continue,
        };
        if let [w, b, wf, bf] = f[..] {
            ids.push(SectorId { w, b, wf, bf });
        }
    }
    ids.sort_by_key(|id| (id.wf + id.bf, id.w, id.b, id.wf));
    ids.reverse();
    Ok(ids)
}

/// Compare every slot of a Malom sector with `ours`, our outcome of each
/// slot (`None` for an unused slot) of the same numbering.
pub fn compare(id: SectorId, malom: &Sector, ours: impl Fn(u64) -> Option<Outcome>) -> Comparison {
    let mut c = Comparison {
        id,
        slots: malom.len(),
        agree: 0,
        disagree: 0,
        unused_mismatch: 0,
        examples: Vec::new(),
    };
    for h in 0..malom.len() {
        match (malom.entry(h), ours(h)) {
            (Entry::Sym, None) => {}
            (Entry::Sym, Some(_)) | (Entry::Value(..), None) => c.unused_mismatch += 1,
            (Entry::Value(theirs, _), Some(o)) if theirs == o => c.agree += 1,
            (Entry::Value(..), Some(_)) => {
                c.disagree += 1;
                if c.examples.len() < 10 {
                    c.examples.push(h);
                }
            }
        }
    }
    c
}
