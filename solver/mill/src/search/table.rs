//! The transposition table of the placement search, shared by all search
//! threads without locks: a fixed array of two-entry buckets keyed by the
//! canonical position and both hands (56 bits). Each entry is two atomic
//! words, `key ^ data` and `data`, so a torn write reads as a miss. It keeps
//! score bounds and the best move (in the canonical frame); on a collision
//! the entry farther from the root gives way.

use crate::rules::position::Move;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use tablebase::huge::HugeArray;

/// Bounds on a position's score (−1 loss, 0 draw, 1 win).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Bounds {
    pub lower: i8,
    pub upper: i8,
}

impl Bounds {
    /// Nothing known yet.
    pub const OPEN: Bounds = Bounds {
        lower: -1,
        upper: 1,
    };
}

/// "No point" in the packed move fields.
const NONE: u64 = 0xFF;

/// What the table knows of a position.
#[derive(Debug, Clone, Copy)]
pub(super) struct Known {
    pub bounds: Bounds,
    /// The move that was best or refuted the window last time.
    pub best: Option<Move>,
}

/// Packed entry data: bounds (2 bits each, offset by 1), depth (5 bits),
/// destination and removal (8 bits each).
fn pack(b: Bounds, best: Option<Move>, depth: u8) -> u64 {
    let to = best.map_or(NONE, |m| m.to() as u64);
    let removal = best.and_then(|m| m.removal()).map_or(NONE, |r| r as u64);
    (b.lower + 1) as u64
        | ((b.upper + 1) as u64) << 2
        | (depth as u64) << 4
        | to << 9
        | removal << 17
}

fn depth_of(data: u64) -> u8 {
    (data >> 4 & 31) as u8
}

fn unpack(data: u64) -> Known {
    let to = data >> 9 & 0xFF;
    let removal = data >> 17 & 0xFF;
    Known {
        bounds: Bounds {
            lower: (data & 3) as i8 - 1,
            upper: (data >> 2 & 3) as i8 - 1,
        },
        best: (to != NONE).then(|| {
            let m = Move::place(to as u8);
            if removal == NONE {
                m
            } else {
                m.with_removal(removal as u8)
            }
        }),
    }
}

/// The table itself.
pub(super) struct Table {
    /// Pairs of words per entry, two entries per bucket.
    words: HugeArray<AtomicU64>,
    shift: u32,
}

impl Table {
    /// A table of `2^bits` entries (`bits` clamped to 4..=40).
    pub fn new(bits: u32) -> Table {
        let bits = bits.clamp(4, 40);
        let mut words = HugeArray::zeroed(2usize << bits);
        words.prefault();
        Table {
            words,
            shift: 64 - bits,
        }
    }

    /// The table holds `2^bits` entries.
    pub fn bits(&self) -> u32 {
        64 - self.shift
    }

    /// Index of the first word of the key's bucket.
    fn bucket(&self, key: u64) -> usize {
        ((key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize & !1) * 2
    }

    /// The entry `i` of a bucket: (stored key, data), key 0 if empty or torn.
    fn entry(&self, at: usize) -> (u64, u64) {
        let (check, data) = (
            self.words[at].load(Relaxed),
            self.words[at + 1].load(Relaxed),
        );
        (check ^ data, data)
    }

    /// What is known of `key` (never 0), if anything.
    pub fn get(&self, key: u64) -> Option<Known> {
        let b = self.bucket(key);
        [b, b + 2]
            .into_iter()
            .map(|at| self.entry(at))
            .find(|&(k, _)| k == key)
            .map(|(_, data)| unpack(data))
    }

    /// Store bounds and the best placement (canonical frame) of `key`
    /// (never 0), `depth` plies from the end of placement. Returns whether
    /// the entry took an empty slot (callers count entries in use; a
    /// shared counter here would bounce between cores on every store).
    pub fn put(&self, key: u64, bounds: Bounds, best: Option<Move>, depth: u8) -> bool {
        let b = self.bucket(key);
        let (x, y) = (self.entry(b), self.entry(b + 2));
        let at = if x.0 == key {
            b
        } else if y.0 == key {
            b + 2
        } else if x.0 == 0 || (y.0 != 0 && depth_of(x.1) <= depth_of(y.1)) {
            b
        } else {
            b + 2
        };
        let empty = self.words[at].load(Relaxed) == 0 && self.words[at + 1].load(Relaxed) == 0;
        let data = pack(bounds, best, depth);
        self.words[at].store(key ^ data, Relaxed);
        self.words[at + 1].store(data, Relaxed);
        empty
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_round_trip_and_the_root_side_survives() {
        let t = Table::new(4);
        let m = Move::place(5).with_removal(9);
        assert!(t.put(7, Bounds { lower: 0, upper: 1 }, Some(m), 18));
        assert!(!t.put(7, Bounds { lower: 0, upper: 1 }, Some(m), 18));
        let k = t.get(7).unwrap();
        assert_eq!(k.bounds, Bounds { lower: 0, upper: 1 });
        assert_eq!(k.best, Some(m));
        assert!(t.get(8).is_none());
        // Three keys in one bucket: the entry farthest from the root goes.
        let b = t.bucket(7);
        let same: Vec<u64> = (8..100_000).filter(|&k| t.bucket(k) == b).take(2).collect();
        t.put(
            same[0],
            Bounds {
                lower: -1,
                upper: -1,
            },
            None,
            3,
        );
        t.put(same[1], Bounds::OPEN, Some(Move::place(1)), 5);
        assert!(t.get(7).is_some(), "the entry nearer the root stays");
        assert!(t.get(same[0]).is_none(), "the shallow entry was replaced");
        let k = t.get(same[1]).unwrap();
        assert_eq!((k.bounds, k.best), (Bounds::OPEN, Some(Move::place(1))));
        // A torn entry (half of another write) reads as a miss.
        t.words[b + 1].store(12345, Relaxed);
        assert!(t.get(7).is_none());
    }
}
