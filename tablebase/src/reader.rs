//! Random access to a tablebase file: memory-mapped (memmap2), the block
//! table checked on open, blocks decompressed on demand into a small shared
//! cache and verified against their checksums.

use crate::format::{
    checksum, EntryKind, FormatError, Header, HEADER_LEN, OUTCOME_LOSS, OUTCOME_WIN,
};
use crate::value::Value;
use memmap2::Mmap;
use rayon::prelude::*;
use std::collections::VecDeque;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// Decompressed blocks kept per table (64 KiB each with 1-byte entries).
const CACHE_BLOCKS: usize = 256;

/// A first-in first-out cache of decompressed blocks, indexed by block.
struct BlockCache {
    blocks: Vec<Option<Arc<Vec<u8>>>>,
    order: VecDeque<usize>,
}

impl BlockCache {
    fn new(blocks: usize) -> BlockCache {
        BlockCache {
            blocks: vec![None; blocks],
            order: VecDeque::with_capacity(CACHE_BLOCKS + 1),
        }
    }

    fn get(&self, b: usize) -> Option<&Arc<Vec<u8>>> {
        self.blocks[b].as_ref()
    }

    fn insert(&mut self, b: usize, raw: Arc<Vec<u8>>) {
        if self.blocks[b].replace(raw).is_none() {
            self.order.push_back(b);
            if self.order.len() > CACHE_BLOCKS {
                if let Some(old) = self.order.pop_front() {
                    self.blocks[old] = None;
                }
            }
        }
    }
}

/// An open tablebase file. Thread-safe: probe it from many threads.
pub struct Table {
    path: PathBuf,
    map: Mmap,
    header: Header,
    /// Per block: (start, end) of its compressed bytes in the map, checksum.
    blocks: Vec<(usize, usize, u64)>,
    cache: Mutex<BlockCache>,
}

impl std::fmt::Debug for Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Table")
            .field("path", &self.path)
            .field("header", &self.header)
            .finish()
    }
}

impl Table {
    /// Open and check a table file (header and block table; block contents
    /// are checked when read, or all at once by [`Table::verify`]).
    pub fn open(path: &Path) -> Result<Table, FormatError> {
        let io = |source| FormatError::Io {
            path: path.to_owned(),
            source,
        };
        let damaged = |what: &str| FormatError::Damaged {
            path: path.to_owned(),
            what: what.to_owned(),
        };
        let file = File::open(path).map_err(io)?;
        // SAFETY: the file is opened read-only and tablebase files are never
        // modified in place (they are written under a temporary name and
        // renamed); a file truncated behind our back can still fault, which
        // is the documented caveat of memory-mapping.
        let map = unsafe { Mmap::map(&file) }.map_err(io)?;
        let header = Header::from_bytes(&map, path)?;
        let n = header.blocks as usize;
        let table_end = HEADER_LEN
            .checked_add(n.checked_mul(16).ok_or_else(|| damaged("block count"))?)
            .ok_or_else(|| damaged("block count"))?;
        if map.len() < table_end {
            return Err(damaged("truncated block table"));
        }
        let mut blocks = Vec::with_capacity(n);
        let mut start = table_end;
        for i in 0..n {
            let o = HEADER_LEN + 16 * i;
            let end = u64::from_le_bytes(map[o..o + 8].try_into().unwrap()) as usize;
            let sum = u64::from_le_bytes(map[o + 8..o + 16].try_into().unwrap());
            let end = table_end
                .checked_add(end)
                .filter(|&e| e >= start && e <= map.len())
                .ok_or_else(|| damaged(&format!("block {i} lies outside the file")))?;
            blocks.push((start, end, sum));
            start = end;
        }
        if start != map.len() {
            return Err(damaged("file length does not match its block table"));
        }
        Ok(Table {
            path: path.to_owned(),
            map,
            header,
            blocks,
            cache: Mutex::new(BlockCache::new(n)),
        })
    }

    /// The header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Size of the file in bytes.
    pub fn bytes(&self) -> u64 {
        self.map.len() as u64
    }

    /// Number of blocks.
    pub(crate) fn block_count(&self) -> usize {
        self.blocks.len()
    }

    /// Decompress and check block `b` into `out`, which must be exactly the
    /// block's length ([`Header::block_bytes`] of its slots).
    /// `dctx` is a reusable decompression context (a fresh one per call
    /// when `None`).
    pub(crate) fn load_block_into(
        &self,
        b: usize,
        out: &mut [u8],
        dctx: Option<&mut zstd::bulk::Decompressor<'static>>,
    ) -> Result<(), FormatError> {
        let damaged = |what: String| FormatError::Damaged {
            path: self.path.clone(),
            what,
        };
        let (start, end, sum) = self.blocks[b];
        let bytes = &self.map[start..end];
        if checksum(bytes) != sum {
            return Err(damaged(format!("block {b} checksum mismatch")));
        }
        let n = match dctx {
            Some(d) => d.decompress_to_buffer(bytes, out),
            None => zstd::bulk::decompress_to_buffer(bytes, out),
        }
        .map_err(|e| damaged(format!("block {b} does not decompress: {e}")))?;
        if n != out.len() {
            return Err(damaged(format!("block {b} has the wrong length")));
        }
        Ok(())
    }

    /// Entries in block `b`.
    pub(crate) fn block_len(&self, b: usize) -> usize {
        (self.header.slots - b as u64 * self.header.block_slots as u64)
            .min(self.header.block_slots as u64) as usize
    }

    /// Decompress and check block `b`.
    fn load_block(&self, b: usize) -> Result<Vec<u8>, FormatError> {
        let mut raw = vec![0; self.header.block_bytes(self.block_len(b))];
        self.load_block_into(b, &mut raw, None)?;
        Ok(raw)
    }

    fn entry(&self, raw: &[u8], i: usize) -> Value {
        if self.header.kind == EntryKind::Outcome {
            return match raw[i / 4] >> (2 * (i % 4)) & 3 {
                OUTCOME_WIN => Value::win(1),
                OUTCOME_LOSS => Value::loss(0),
                _ => Value::DRAW,
            };
        }
        if self.header.entry_bytes == 1 {
            Value(raw[i] as u16)
        } else {
            Value(u16::from_le_bytes([raw[2 * i], raw[2 * i + 1]]))
        }
    }

    /// The value stored in `slot` (for an [`EntryKind::Outcome`] table,
    /// `2` for a win, `1` for a loss, `0` for a draw).
    pub fn get(&self, slot: u64) -> Result<Value, FormatError> {
        self.entry_at(slot).map(Value)
    }

    /// The entry stored in `slot` as a number (for tables of
    /// [`crate::format::EntryKind::Opaque`] entries).
    pub fn get_raw(&self, slot: u64) -> Result<u16, FormatError> {
        self.entry_at(slot)
    }

    fn entry_at(&self, slot: u64) -> Result<u16, FormatError> {
        if slot >= self.header.slots {
            return Err(FormatError::Damaged {
                path: self.path.clone(),
                what: format!("slot {slot} out of range"),
            });
        }
        let bs = self.header.block_slots as u64;
        let (b, i) = (slot / bs, (slot % bs) as usize);
        {
            let cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(raw) = cache.get(b as usize) {
                return Ok(self.entry(raw, i).0);
            }
        }
        let raw = Arc::new(self.load_block(b as usize)?);
        let value = self.entry(&raw, i).0;
        self.cache
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(b as usize, raw);
        Ok(value)
    }

    /// Decompress the whole table (blocks in parallel).
    pub fn values(&self) -> Result<Vec<Value>, FormatError> {
        let blocks: Vec<Vec<u8>> = (0..self.blocks.len())
            .into_par_iter()
            .map(|b| self.load_block(b))
            .collect::<Result<_, _>>()?;
        let mut out = Vec::with_capacity(self.header.slots as usize);
        for (b, raw) in blocks.iter().enumerate() {
            out.extend((0..self.block_len(b)).map(|i| self.entry(raw, i)));
        }
        Ok(out)
    }

    /// Check every block's checksum and that it decompresses.
    pub fn verify(&self) -> Result<(), FormatError> {
        (0..self.blocks.len())
            .into_par_iter()
            .try_for_each(|b| self.load_block(b).map(drop))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::{summarize, write_table};

    fn sample(n: usize, wide: bool) -> Vec<Value> {
        (0..n)
            .map(|i| {
                let d = (i * 7919 % 97) as u16 + if wide { 200 } else { 0 };
                match i % 3 {
                    0 => Value::DRAW,
                    1 => Value::win(d + 1),
                    _ => Value::loss(d),
                }
            })
            .collect()
    }

    #[test]
    fn write_then_read_back() {
        let dir = std::env::temp_dir().join(format!("tb-rw-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for wide in [false, true] {
            let values = sample(200_003, wide);
            let mut header = summarize(&values, values.len() as u64);
            header.label = "test/sample".into();
            let path = dir.join(format!("t{wide}.tb"));
            write_table(&path, &header, &values, 3).unwrap();
            assert!(!path.with_extension("tmp").exists());
            let t = Table::open(&path).unwrap();
            assert_eq!(t.header().label, "test/sample");
            assert_eq!(t.header().entry_bytes, if wide { 2 } else { 1 });
            assert_eq!(t.header().positions, 200_003);
            assert_eq!(t.header().draws, 66_668);
            t.verify().unwrap();
            assert_eq!(t.values().unwrap(), values);
            let r = crate::resident::Resident::load(&t).unwrap();
            assert_eq!(r.len(), values.len() as u64);
            assert!((0..values.len()).all(|i| r.get(i as u64) == Some(values[i])));
            assert_eq!(r.get(values.len() as u64), None);
            let w = crate::resident::Wdl::load(&t).unwrap();
            assert_eq!(w.len(), values.len() as u64);
            assert!((0..values.len()).all(|i| w.get(i as u64) == Some(values[i].outcome())));
            assert_eq!(w.get(values.len() as u64), None);
            // Under a count rule: every value past the limit a draw.
            for limit in [0, 3, 40, 250, u16::MAX] {
                let w = crate::resident::Wdl::load_within(&t, Some(limit)).unwrap();
                assert!((0..values.len()).all(|i| {
                    let want = match values[i].distance() {
                        Some(d) if d > limit => crate::Outcome::Draw,
                        _ => values[i].outcome(),
                    };
                    w.get(i as u64) == Some(want)
                }));
            }
            for slot in (0..values.len()).step_by(997) {
                assert_eq!(t.get(slot as u64).unwrap(), values[slot]);
            }
            assert!(t.get(values.len() as u64).is_err());
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn opaque_entries_round_trip() {
        let dir = std::env::temp_dir().join(format!("tb-opq-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let entries: Vec<u8> = (0..140_001u32).map(|i| (i * 31 % 251) as u8).collect();
        let header = Header {
            label: "test/opaque".into(),
            entry_bytes: 2,
            kind: crate::format::EntryKind::Value,
            slots: 0,
            positions: 140_000,
            wins: 5,
            losses: 6,
            draws: 7,
            max_win: 8,
            max_loss: 9,
            block_slots: 0,
            blocks: 0,
        };
        let path = dir.join("o.tb");
        crate::format::write_opaque_table(&path, &header, &entries, 3).unwrap();
        let t = Table::open(&path).unwrap();
        let h = t.header();
        assert_eq!(h.kind, crate::format::EntryKind::Opaque);
        assert_eq!((h.entry_bytes, h.slots, h.positions), (1, 140_001, 140_000));
        assert_eq!(
            (h.wins, h.losses, h.draws, h.max_win, h.max_loss),
            (0, 0, 0, 0, 0)
        );
        t.verify().unwrap();
        for slot in (0..entries.len()).step_by(13) {
            assert_eq!(t.get_raw(slot as u64).unwrap(), entries[slot] as u16);
        }
        let all: Vec<u8> = t.values().unwrap().iter().map(|v| v.0 as u8).collect();
        assert_eq!(all, entries);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn outcome_entries_round_trip() {
        use crate::format::{summarize_outcomes, write_outcome_table, EntryKind};
        use crate::Outcome;
        let dir = std::env::temp_dir().join(format!("tb-wdl-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        // Not a multiple of 4 nor of the block: the last byte and block are partial.
        let slots = 3 * crate::format::BLOCK_SLOTS as usize + 4097;
        let outcome = |i: usize| match (i * 7919) % 5 {
            0 | 3 => Outcome::Draw,
            1 => Outcome::Win,
            _ => Outcome::Loss,
        };
        let code = |o| match o {
            Outcome::Draw => 0u8,
            Outcome::Win => 1,
            Outcome::Loss => 2,
        };
        let mut packed = vec![0u8; slots.div_ceil(4)];
        for i in 0..slots {
            packed[i / 4] |= code(outcome(i)) << (2 * (i % 4));
        }
        let mut header = summarize_outcomes(&packed, slots as u64, slots as u64);
        let wins = (0..slots).filter(|&i| outcome(i) == Outcome::Win).count() as u64;
        let losses = (0..slots).filter(|&i| outcome(i) == Outcome::Loss).count() as u64;
        assert_eq!((header.wins, header.losses), (wins, losses));
        assert_eq!(header.draws, slots as u64 - wins - losses);
        header.label = "test/outcome".into();
        let path = dir.join("w.tb");
        assert!(write_outcome_table(&path, &header, &packed[1..], 3).is_err());
        write_outcome_table(&path, &header, &packed, 3).unwrap();
        let t = Table::open(&path).unwrap();
        assert_eq!(t.header().kind, EntryKind::Outcome);
        assert_eq!(t.header().slots, slots as u64);
        t.verify().unwrap();
        let stored = |o| match o {
            Outcome::Draw => Value::DRAW,
            Outcome::Win => Value::win(1),
            Outcome::Loss => Value::loss(0),
        };
        let values = t.values().unwrap();
        assert_eq!(values.len(), slots);
        assert!((0..slots).all(|i| values[i] == stored(outcome(i))));
        for slot in (0..slots).step_by(331).chain([slots - 1]) {
            assert_eq!(t.get(slot as u64).unwrap(), stored(outcome(slot)));
        }
        let w = crate::resident::Wdl::load(&t).unwrap();
        assert_eq!(w.len(), slots as u64);
        assert!((0..slots).all(|i| w.get(i as u64) == Some(outcome(i))));
        assert_eq!(w.get(slots as u64), None);
        let r = crate::resident::Resident::load(&t).unwrap();
        assert!((0..slots).all(|i| r.get(i as u64) == Some(stored(outcome(i)))));
        // A flipped byte in the data is caught.
        let mut bad = std::fs::read(&path).unwrap();
        let at = bad.len() - 10;
        bad[at] ^= 0x21;
        std::fs::write(&path, &bad).unwrap();
        let t = Table::open(&path).unwrap();
        assert!(t.verify().is_err() && crate::resident::Wdl::load(&t).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn damage_is_reported_not_panicked() {
        let dir = std::env::temp_dir().join(format!("tb-dmg-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let values = sample(150_000, false);
        let mut header = summarize(&values, values.len() as u64);
        header.label = "test/damage".into();
        let path = dir.join("d.tb");
        write_table(&path, &header, &values, 3).unwrap();
        let good = std::fs::read(&path).unwrap();
        // Flip one byte at many places, and truncate at many lengths.
        let mut detected = 0;
        for at in (0..good.len()).step_by(good.len() / 97 + 1) {
            let mut bad = good.clone();
            bad[at] ^= 0x5A;
            std::fs::write(&path, &bad).unwrap();
            let broken = match Table::open(&path) {
                Err(_) => true,
                Ok(t) => {
                    let bad = t.verify().is_err();
                    assert_eq!(crate::resident::Wdl::load(&t).is_err(), bad);
                    assert_eq!(crate::resident::Resident::load(&t).is_err(), bad);
                    bad || t.values().is_err()
                }
            };
            detected += broken as u32;
            assert!(broken, "flip at {at} went unnoticed");
        }
        for len in [0, 7, 100, 128, 200, good.len() - 1] {
            std::fs::write(&path, &good[..len]).unwrap();
            assert!(Table::open(&path).is_err(), "truncated to {len}");
        }
        assert!(detected > 50);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
