//! The tablebase file format: a fixed header, a block table and zstd
//! compressed blocks of fixed-size value entries. See `docs/format.md`.
//!
//! All integers are little-endian. Layout:
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `RETROTB\0` |
//! | 8 | 4 | format version (1) |
//! | 12 | 1 | entry width in bytes (1 or 2; 0 for kind 2, four entries a byte) |
//! | 13 | 1 | entry kind: 0 = [`Value`] (win/draw/loss + distance), 1 = opaque (the game defines it), 2 = outcome (two bits) |
//! | 14 | 2 | zero |
//! | 16 | 48 | label, UTF-8, zero padded (game, rule set, subspace) |
//! | 64 | 8 | slots |
//! | 72 | 8 | positions (used slots) |
//! | 80 | 8 | wins |
//! | 88 | 8 | losses |
//! | 96 | 8 | draws |
//! | 104 | 2 | longest win (plies) |
//! | 106 | 2 | longest loss (plies) |
//! | 108 | 4 | slots per block |
//! | 112 | 8 | number of blocks `n` |
//! | 120 | 8 | checksum of bytes 0..120 |
//! | 128 | 16 n | block table: per block, end offset of its compressed bytes (u64, from the start of the data area) and checksum of those bytes (u64) |
//! | 128 + 16 n | … | data area: the compressed blocks, back to back |
//!
//! A block decompresses to `slots per block × entry width` bytes (the last
//! block to what is left). An entry of kind 0 is a [`Value`] (`0` draw, `2d`
//! win in `d`, `2d + 1` loss in `d`); with entry width 1 it is the low byte.
//! An entry of kind 1 is a number whose meaning the game defines (the
//! win/loss/draw counts and longest distances of the header are then zero).
//! Entries of kind 2 are outcomes without distance, two bits each, four to
//! a byte (slot `j` in bits `2(j mod 4)` of byte `j / 4` of its block):
//! [`OUTCOME_DRAW`], [`OUTCOME_WIN`], [`OUTCOME_LOSS`]; a block of `n` slots
//! decompresses to `⌈n / 4⌉` bytes, and the longest distances are zero.

use crate::value::Value;
use std::fs::{self, File};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// Two-bit outcome code of an [`EntryKind::Outcome`] entry: a draw (or an
/// unused slot).
pub const OUTCOME_DRAW: u8 = 0;
/// Two-bit outcome code: the side to move wins.
pub const OUTCOME_WIN: u8 = 1;
/// Two-bit outcome code: the side to move loses.
pub const OUTCOME_LOSS: u8 = 2;

/// File magic.
pub const MAGIC: &[u8; 8] = b"RETROTB\0";
/// Current format version.
pub const VERSION: u32 = 1;
/// Header size in bytes.
pub const HEADER_LEN: usize = 128;
/// Slots per compressed block.
pub const BLOCK_SLOTS: u32 = 1 << 16;
const LABEL_LEN: usize = 48;

/// Errors reading or writing a tablebase file.
#[derive(Debug, thiserror::Error)]
pub enum FormatError {
    /// An I/O error, with the file it concerns.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// The file is not a valid tablebase file.
    #[error("{path}: damaged tablebase file: {what}")]
    Damaged {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        what: String,
    },
}

/// What a table's entries mean.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum EntryKind {
    /// A [`Value`]: win, draw or loss with a distance (the header counts them).
    #[default]
    Value,
    /// A number whose meaning the game defines (for example a share of
    /// stones); the header's win/loss/draw counts and distances are zero.
    Opaque,
    /// Win, draw or loss without distance, two bits a slot (four slots a
    /// byte; the header's entry width is 0 and its distances zero). Read
    /// through [`crate::reader::Table::get`], a win is the value `2`, a
    /// loss `1`, a draw `0`.
    Outcome,
}

/// Facts about a table, stored in its header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Header {
    /// What the table holds, e.g. `nine/flying/8-7`.
    pub label: String,
    /// Entry width in bytes (1 or 2; 0 for [`EntryKind::Outcome`]).
    pub entry_bytes: u8,
    /// What the entries mean.
    pub kind: EntryKind,
    /// Number of slots.
    pub slots: u64,
    /// Used slots (positions).
    pub positions: u64,
    /// Won positions.
    pub wins: u64,
    /// Lost positions.
    pub losses: u64,
    /// Drawn positions.
    pub draws: u64,
    /// Longest win, in plies.
    pub max_win: u16,
    /// Longest loss, in plies.
    pub max_loss: u16,
    /// Slots per block.
    pub block_slots: u32,
    /// Number of blocks.
    pub blocks: u64,
}

/// A 64-bit checksum (FNV-1a over 8-byte little-endian words, then the tail).
pub fn checksum(bytes: &[u8]) -> u64 {
    const PRIME: u64 = 0x0000_0100_0000_01B3;
    let mut h: u64 = 0xCBF2_9CE4_8422_2325;
    let mut words = bytes.chunks_exact(8);
    for w in &mut words {
        h = (h ^ u64::from_le_bytes(w.try_into().unwrap())).wrapping_mul(PRIME);
        h ^= h >> 29;
    }
    for &b in words.remainder() {
        h = (h ^ b as u64).wrapping_mul(PRIME);
    }
    h ^ bytes.len() as u64
}

impl Header {
    /// Bytes that a block of `entries` slots decompresses to.
    pub fn block_bytes(&self, entries: usize) -> usize {
        match self.kind {
            EntryKind::Outcome => entries.div_ceil(4),
            _ => entries * self.entry_bytes as usize,
        }
    }

    /// Serialise to the 128-byte header.
    pub fn to_bytes(&self) -> [u8; HEADER_LEN] {
        let mut b = [0u8; HEADER_LEN];
        b[0..8].copy_from_slice(MAGIC);
        b[8..12].copy_from_slice(&VERSION.to_le_bytes());
        b[12] = self.entry_bytes;
        b[13] = match self.kind {
            EntryKind::Value => 0,
            EntryKind::Opaque => 1,
            EntryKind::Outcome => 2,
        };
        let label = self.label.as_bytes();
        let n = label.len().min(LABEL_LEN);
        b[16..16 + n].copy_from_slice(&label[..n]);
        for (i, v) in [
            self.slots,
            self.positions,
            self.wins,
            self.losses,
            self.draws,
        ]
        .iter()
        .enumerate()
        {
            b[64 + 8 * i..72 + 8 * i].copy_from_slice(&v.to_le_bytes());
        }
        b[104..106].copy_from_slice(&self.max_win.to_le_bytes());
        b[106..108].copy_from_slice(&self.max_loss.to_le_bytes());
        b[108..112].copy_from_slice(&self.block_slots.to_le_bytes());
        b[112..120].copy_from_slice(&self.blocks.to_le_bytes());
        let sum = checksum(&b[..120]);
        b[120..128].copy_from_slice(&sum.to_le_bytes());
        b
    }

    /// Parse and validate a header.
    pub fn from_bytes(b: &[u8], path: &Path) -> Result<Header, FormatError> {
        let damaged = |what: &str| FormatError::Damaged {
            path: path.to_owned(),
            what: what.to_owned(),
        };
        if b.len() < HEADER_LEN {
            return Err(damaged("shorter than the header"));
        }
        if &b[0..8] != MAGIC {
            return Err(damaged("not a tablebase file (bad magic)"));
        }
        let u64_at = |o: usize| u64::from_le_bytes(b[o..o + 8].try_into().unwrap());
        if checksum(&b[..120]) != u64_at(120) {
            return Err(damaged("header checksum mismatch"));
        }
        let version = u32::from_le_bytes(b[8..12].try_into().unwrap());
        if version != VERSION {
            return Err(damaged(&format!(
                "format version {version}, this program reads {VERSION}"
            )));
        }
        let label_end = b[16..64].iter().position(|&c| c == 0).unwrap_or(LABEL_LEN);
        let label = std::str::from_utf8(&b[16..16 + label_end])
            .map_err(|_| damaged("label is not UTF-8"))?
            .to_owned();
        let kind = match b[13] {
            0 => EntryKind::Value,
            1 => EntryKind::Opaque,
            2 => EntryKind::Outcome,
            k => return Err(damaged(&format!("unknown entry kind {k}"))),
        };
        let h = Header {
            label,
            entry_bytes: b[12],
            kind,
            slots: u64_at(64),
            positions: u64_at(72),
            wins: u64_at(80),
            losses: u64_at(88),
            draws: u64_at(96),
            max_win: u16::from_le_bytes([b[104], b[105]]),
            max_loss: u16::from_le_bytes([b[106], b[107]]),
            block_slots: u32::from_le_bytes(b[108..112].try_into().unwrap()),
            blocks: u64_at(112),
        };
        let width_ok = match h.kind {
            EntryKind::Outcome => h.entry_bytes == 0 && h.block_slots.is_multiple_of(4),
            _ => h.entry_bytes == 1 || h.entry_bytes == 2,
        };
        if !width_ok
            || h.block_slots == 0
            || h.blocks != h.slots.div_ceil(h.block_slots as u64)
            || (h.kind != EntryKind::Opaque && h.wins + h.losses + h.draws != h.positions)
            || (h.kind == EntryKind::Outcome && (h.max_win, h.max_loss) != (0, 0))
            || (h.kind == EntryKind::Opaque
                && (h.wins, h.losses, h.draws, h.max_win, h.max_loss) != (0, 0, 0, 0, 0))
            || h.positions > h.slots
        {
            return Err(damaged("inconsistent header fields"));
        }
        Ok(h)
    }
}

/// Summary counts of a value array whose unused slots hold draws, given
/// the number of used slots (`positions`).
pub fn summarize(values: &[Value], positions: u64) -> Header {
    let mut h = Header {
        label: String::new(),
        entry_bytes: 1,
        kind: EntryKind::Value,
        slots: values.len() as u64,
        positions,
        wins: 0,
        losses: 0,
        draws: 0,
        max_win: 0,
        max_loss: 0,
        block_slots: BLOCK_SLOTS,
        blocks: (values.len() as u64).div_ceil(BLOCK_SLOTS as u64),
    };
    let mut widest = 0;
    for v in values {
        widest = widest.max(v.0);
        match (v.outcome(), v.distance()) {
            (crate::Outcome::Win, Some(d)) => {
                h.wins += 1;
                h.max_win = h.max_win.max(d);
            }
            (crate::Outcome::Loss, Some(d)) => {
                h.losses += 1;
                h.max_loss = h.max_loss.max(d);
            }
            _ => {}
        }
    }
    h.draws = positions.saturating_sub(h.wins + h.losses);
    h.entry_bytes = if widest <= u8::MAX as u16 { 1 } else { 2 };
    h
}

fn io_err(path: &Path) -> impl Fn(std::io::Error) -> FormatError + '_ {
    move |source| FormatError::Io {
        path: path.to_owned(),
        source,
    }
}

/// Write a table atomically: into `path` + `.tmp`, flushed to disk, then
/// renamed to `path`. `header` carries the label and the counts (from
/// [`summarize`]); blocks are compressed in parallel at zstd `level`.
pub fn write_table(
    path: &Path,
    header: &Header,
    values: &[Value],
    level: i32,
) -> Result<(), FormatError> {
    let width = header.entry_bytes as usize;
    let mut header = header.clone();
    header.slots = values.len() as u64;
    write_entries(
        path,
        &header,
        values,
        BLOCK_SLOTS as usize,
        level,
        |chunk, raw| {
            for v in chunk {
                if width == 1 {
                    raw.push(v.0 as u8);
                } else {
                    raw.extend_from_slice(&v.0.to_le_bytes());
                }
            }
        },
    )
}

/// Write a table of one-byte [`EntryKind::Opaque`] entries atomically, like
/// [`write_table`]; `header` gives the label and the number of positions
/// (width, kind, slots and block fields are set here, counts zeroed).
pub fn write_opaque_table(
    path: &Path,
    header: &Header,
    entries: &[u8],
    level: i32,
) -> Result<(), FormatError> {
    let header = Header {
        entry_bytes: 1,
        kind: EntryKind::Opaque,
        slots: entries.len() as u64,
        wins: 0,
        losses: 0,
        draws: 0,
        max_win: 0,
        max_loss: 0,
        ..header.clone()
    };
    write_entries(
        path,
        &header,
        entries,
        BLOCK_SLOTS as usize,
        level,
        |chunk, raw| raw.extend_from_slice(chunk),
    )
}

/// The header of an [`EntryKind::Outcome`] table of `slots` slots whose
/// packed codes are `packed` (see [`write_outcome_table`]) and of which
/// `positions` are used (unused slots hold draws): wins and losses counted.
pub fn summarize_outcomes(packed: &[u8], slots: u64, positions: u64) -> Header {
    use rayon::prelude::*;
    // Per byte: wins and losses among its four codes.
    let counts: [(u8, u8); 256] = std::array::from_fn(|b| {
        (0..4).fold((0, 0), |(w, l), k| match (b >> (2 * k)) as u8 & 3 {
            OUTCOME_WIN => (w + 1, l),
            OUTCOME_LOSS => (w, l + 1),
            _ => (w, l),
        })
    });
    let (wins, losses) = packed
        .par_chunks(1 << 16)
        .map(|c| {
            c.iter().fold((0u64, 0u64), |(w, l), &b| {
                let (cw, cl) = counts[b as usize];
                (w + cw as u64, l + cl as u64)
            })
        })
        .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
    Header {
        label: String::new(),
        entry_bytes: 0,
        kind: EntryKind::Outcome,
        slots,
        positions,
        wins,
        losses,
        draws: positions.saturating_sub(wins + losses),
        max_win: 0,
        max_loss: 0,
        block_slots: BLOCK_SLOTS,
        blocks: slots.div_ceil(BLOCK_SLOTS as u64),
    }
}

/// Write a table of [`EntryKind::Outcome`] entries atomically, like
/// [`write_table`]: `packed` holds the two-bit codes of `header.slots`
/// slots, four a byte, low bits first (`⌈slots / 4⌉` bytes); `header`
/// comes from [`summarize_outcomes`] with its label set.
pub fn write_outcome_table(
    path: &Path,
    header: &Header,
    packed: &[u8],
    level: i32,
) -> Result<(), FormatError> {
    if header.kind != EntryKind::Outcome || packed.len() as u64 != header.slots.div_ceil(4) {
        return Err(FormatError::Damaged {
            path: path.to_owned(),
            what: "outcome table: header and packed entries disagree".into(),
        });
    }
    write_entries(
        path,
        header,
        packed,
        BLOCK_SLOTS as usize / 4,
        level,
        |chunk, raw| raw.extend_from_slice(chunk),
    )
}

/// Compress `entries` block by block, `per_block` entries a block
/// (serialised by `encode`), and write them; `header.slots` is the number
/// of slots.
fn write_entries<T: Sync>(
    path: &Path,
    header: &Header,
    entries: &[T],
    per_block: usize,
    level: i32,
    encode: impl Fn(&[T], &mut Vec<u8>) + Sync,
) -> Result<(), FormatError> {
    use rayon::prelude::*;
    let mut header = header.clone();
    header.block_slots = BLOCK_SLOTS;
    header.blocks = header.slots.div_ceil(BLOCK_SLOTS as u64);
    let blocks: Vec<Vec<u8>> = entries
        .par_chunks(per_block)
        .map(|chunk| {
            let mut raw = Vec::with_capacity(header.block_bytes(BLOCK_SLOTS as usize));
            encode(chunk, &mut raw);
            zstd::bulk::compress(&raw, level)
        })
        .collect::<Result<_, _>>()
        .map_err(io_err(path))?;
    let tmp = path.with_extension("tmp");
    let written = write_file(&tmp, &header, &blocks);
    if written.is_err() {
        // A full disk or a failing device: leave no partial file behind.
        let _ = fs::remove_file(&tmp);
    }
    written?;
    fs::rename(&tmp, path).map_err(io_err(path))?;
    if let Some(dir) = path.parent() {
        // Make the rename itself durable; not every platform can open a directory.
        if let Ok(d) = File::open(if dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            dir
        }) {
            let _ = d.sync_all();
        }
    }
    Ok(())
}

/// Write header, block table and blocks to `tmp` and flush it to disk.
fn write_file(tmp: &Path, header: &Header, blocks: &[Vec<u8>]) -> Result<(), FormatError> {
    let file = File::create(tmp).map_err(io_err(tmp))?;
    let mut out = BufWriter::with_capacity(1 << 20, file);
    out.write_all(&header.to_bytes()).map_err(io_err(tmp))?;
    let mut end = 0u64;
    for block in blocks {
        end += block.len() as u64;
        out.write_all(&end.to_le_bytes()).map_err(io_err(tmp))?;
        out.write_all(&checksum(block).to_le_bytes())
            .map_err(io_err(tmp))?;
    }
    for block in blocks {
        out.write_all(block).map_err(io_err(tmp))?;
    }
    let file = out.into_inner().map_err(|e| io_err(tmp)(e.into_error()))?;
    file.sync_all().map_err(io_err(tmp))?;
    drop(file);
    Ok(())
}
