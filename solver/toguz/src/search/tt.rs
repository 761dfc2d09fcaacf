//! The shared transposition table: lock-free, two 64-bit words per entry
//! (key xor data, data), so a torn write between threads is detected as a
//! miss. Buckets of two entries: one kept by depth, one always replaced.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use tablebase::huge::HugeArray;

/// Kind of bound a stored score is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// Exact score (PV node).
    Exact,
    /// Score is a lower bound (fail high).
    Lower,
    /// Score is an upper bound (fail low).
    Upper,
}

/// A probed entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Score (mate scores relative to this node).
    pub score: i32,
    /// Remaining depth the score was searched to.
    pub depth: i32,
    /// Bound kind.
    pub bound: Bound,
    /// Best move (hole 0..8), if any.
    pub mv: Option<u8>,
}

/// Shared transposition table.
pub struct Table {
    /// On huge pages, written once up front: a parallel search must not
    /// take copy-on-write faults of the zero page (each flushes every
    /// core's TLB).
    slots: HugeArray<[AtomicU64; 2]>,
    mask: usize,
    generation: AtomicU64,
}

fn pack(e: &Entry, generation: u64) -> u64 {
    let bound = match e.bound {
        Bound::Exact => 0u64,
        Bound::Lower => 1,
        Bound::Upper => 2,
    };
    let mv = u64::from(e.mv.unwrap_or(15));
    (e.score as i16 as u16 as u64)
        | ((e.depth.clamp(0, 255) as u64) << 16)
        | (bound << 24)
        | (mv << 26)
        | ((generation & 0xFF) << 32)
}

fn unpack(d: u64) -> Entry {
    let mv = ((d >> 26) & 15) as u8;
    Entry {
        score: i32::from(d as u16 as i16),
        depth: ((d >> 16) & 0xFF) as i32,
        bound: match (d >> 24) & 3 {
            0 => Bound::Exact,
            1 => Bound::Lower,
            _ => Bound::Upper,
        },
        mv: (mv < 9).then_some(mv),
    }
}

impl Table {
    /// A table of about `megabytes` MiB (rounded down to a power of two of
    /// entries, at least 1024).
    pub fn new(megabytes: usize) -> Table {
        let want = (megabytes.max(1) << 20) / 16;
        let n = (want.next_power_of_two() / 2).max(1024);
        let mut slots = HugeArray::zeroed(n);
        slots.prefault();
        Table {
            slots,
            mask: n - 2,
            generation: AtomicU64::new(0),
        }
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Always false (a table has at least 1024 entries).
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// Forget everything.
    pub fn clear(&self) {
        for s in self.slots.iter() {
            s[0].store(0, Relaxed);
            s[1].store(0, Relaxed);
        }
    }

    /// Start a new search: older entries become preferred victims.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Relaxed);
    }

    #[inline]
    fn bucket(&self, hash: u64) -> usize {
        // The position hash is additive; mix it before taking index bits.
        let h = hash.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        ((h >> 32) as usize) & self.mask
    }

    /// Look a position up.
    #[inline]
    pub fn probe(&self, hash: u64) -> Option<Entry> {
        let i = self.bucket(hash);
        for slot in &self.slots[i..i + 2] {
            let k = slot[0].load(Relaxed);
            let d = slot[1].load(Relaxed);
            if k ^ d == hash && d != 0 {
                return Some(unpack(d));
            }
        }
        None
    }

    /// Store a result.
    #[inline]
    pub fn store(&self, hash: u64, e: Entry) {
        let generation = self.generation.load(Relaxed);
        let i = self.bucket(hash);
        let data = pack(&e, generation);
        let first = &self.slots[i];
        let k = first[0].load(Relaxed);
        let d = first[1].load(Relaxed);
        let same = k ^ d == hash;
        let old_depth = ((d >> 16) & 0xFF) as i32;
        let old_gen = (d >> 32) & 0xFF;
        let slot = if same || d == 0 || e.depth >= old_depth || old_gen != generation & 0xFF {
            first
        } else {
            &self.slots[i + 1]
        };
        slot[0].store(hash ^ data, Relaxed);
        slot[1].store(data, Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_and_probe() {
        let t = Table::new(1);
        let e = Entry {
            score: -1234,
            depth: 7,
            bound: Bound::Lower,
            mv: Some(4),
        };
        t.store(42, e);
        assert_eq!(t.probe(42), Some(e));
        assert_eq!(t.probe(43), None);
    }
}
