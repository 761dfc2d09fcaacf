//! The transposition table of the placement search: a fixed-size array of
//! two-entry buckets keyed by the canonical position and both hands. Each
//! entry keeps score bounds and the best move (in the canonical frame);
//! on a collision the entry farther from the root gives way.

use crate::morris::position::Move;

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

/// "No move stored" marker for [`Entry::to`].
const NO_MOVE: u8 = u8::MAX;

/// One entry; `key == 0` marks an empty slot (no placement position has
/// key 0: the side to move still holds a stone).
#[derive(Debug, Clone, Copy)]
struct Entry {
    key: u64,
    lower: i8,
    upper: i8,
    /// Stones still in hand: plies to the end of placement.
    depth: u8,
    /// Best move, canonical frame: destination and removal.
    to: u8,
    removal: u8,
}

const EMPTY: Entry = Entry {
    key: 0,
    lower: -1,
    upper: 1,
    depth: 0,
    to: NO_MOVE,
    removal: NO_MOVE,
};

/// What the table knows of a position.
#[derive(Debug, Clone, Copy)]
pub(super) struct Known {
    pub bounds: Bounds,
    /// The move that was best or refuted the window last time.
    pub best: Option<Move>,
}

/// The table itself.
pub(super) struct Table {
    entries: Vec<Entry>,
    shift: u32,
    filled: u64,
}

impl Table {
    /// A table of `2^bits` entries (`bits` clamped to 4..=40).
    pub fn new(bits: u32) -> Table {
        let bits = bits.clamp(4, 40);
        Table {
            entries: vec![EMPTY; 1 << bits],
            shift: 64 - bits,
            filled: 0,
        }
    }

    /// Entries in use.
    pub fn filled(&self) -> u64 {
        self.filled
    }

    fn bucket(&self, key: u64) -> usize {
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize & !1
    }

    /// What is known of `key`, if anything.
    pub fn get(&self, key: u64) -> Option<Known> {
        let b = self.bucket(key);
        self.entries[b..b + 2]
            .iter()
            .find(|e| e.key == key)
            .map(|e| Known {
                bounds: Bounds {
                    lower: e.lower,
                    upper: e.upper,
                },
                best: (e.to != NO_MOVE).then(|| {
                    let m = Move::place(e.to);
                    if e.removal == NO_MOVE {
                        m
                    } else {
                        m.with_removal(e.removal)
                    }
                }),
            })
    }

    /// Store bounds and the best placement (canonical frame) of `key`,
    /// `depth` plies from the end of placement.
    pub fn put(&mut self, key: u64, bounds: Bounds, best: Option<Move>, depth: u8) {
        let b = self.bucket(key);
        let slot = match self.entries[b..b + 2].iter().position(|e| e.key == key) {
            Some(i) => b + i,
            None => {
                let (x, y) = (self.entries[b], self.entries[b + 1]);
                let i = if x.key == 0 || (y.key != 0 && x.depth <= y.depth) {
                    b
                } else {
                    b + 1
                };
                if self.entries[i].key == 0 {
                    self.filled += 1;
                }
                i
            }
        };
        self.entries[slot] = Entry {
            key,
            lower: bounds.lower,
            upper: bounds.upper,
            depth,
            to: best.map_or(NO_MOVE, |m| m.to()),
            removal: best.and_then(|m| m.removal()).unwrap_or(NO_MOVE),
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_round_trip_and_the_root_side_survives() {
        let mut t = Table::new(4);
        let m = Move::place(5).with_removal(9);
        t.put(7, Bounds { lower: 0, upper: 1 }, Some(m), 10);
        let k = t.get(7).unwrap();
        assert_eq!(k.bounds, Bounds { lower: 0, upper: 1 });
        assert_eq!(k.best, Some(m));
        assert!(t.get(8).is_none());
        // Fill one bucket with three keys: the deepest-from-root entry goes.
        let bucket = |k: u64| t.bucket(k);
        let b = bucket(7);
        let same: Vec<u64> = (8..10_000).filter(|&k| bucket(k) == b).take(2).collect();
        t.put(same[0], Bounds::OPEN, None, 3);
        t.put(same[1], Bounds::OPEN, Some(Move::place(1)), 5);
        assert!(t.get(7).is_some(), "the entry nearer the root stays");
        assert!(t.get(same[0]).is_none(), "the shallow entry was replaced");
        assert_eq!(t.get(same[1]).unwrap().best, Some(Move::place(1)));
        assert_eq!(t.filled(), 2);
    }
}
