//! Slots of the share tables. A position is seen from the side to move:
//! relative holes 0..8 are the mover's holes 1..9, 9..17 the opponent's.
//! Kazans are not part of it (the tables hold shares of the stones still on
//! the board). A table ([`Layer`]) holds every distribution of `n` stones
//! over the holes its tuzdyks leave free; its slot is the colex rank of the
//! distribution written as stars and bars (`C(n + holes − 1, n)` slots, all
//! of them positions).

use crate::board::{Board, Side, HOLES, NO_TUZDYK};
use tablebase::binomial::{binomial, colex_rank, colex_unrank};

/// Most stones on the board a table can hold (two 4-bit shares a byte).
pub const MAX_STONES: u8 = 15;

/// The tuzdyks seen from the side to move: `mover` is the number (1..8) of
/// the opponent's hole that is the mover's tuzdyk, `opponent` the number of
/// the mover's hole that is the opponent's tuzdyk; 0 for none. The two
/// numbers differ unless both are 0 (the rules forbid equal numbers).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Tuzdyks {
    /// The mover's tuzdyk (opponent's hole number) or 0.
    pub mover: u8,
    /// The opponent's tuzdyk (mover's hole number) or 0.
    pub opponent: u8,
}

impl Tuzdyks {
    /// No tuzdyk on either side.
    pub const NONE: Tuzdyks = Tuzdyks {
        mover: 0,
        opponent: 0,
    };

    /// All 73 valid configurations, in increasing order.
    pub fn all() -> impl Iterator<Item = Tuzdyks> {
        (0..9u8).flat_map(|mover| {
            (0..9u8)
                .map(move |opponent| Tuzdyks { mover, opponent })
                .filter(|t| t.is_valid())
        })
    }

    /// Whether the numbers are 0..8 and differ (unless both are 0).
    pub fn is_valid(self) -> bool {
        self.mover <= 8 && self.opponent <= 8 && (self.mover != self.opponent || self.mover == 0)
    }

    /// The same tuzdyks seen from the other side (after a move).
    pub fn swapped(self) -> Tuzdyks {
        Tuzdyks {
            mover: self.opponent,
            opponent: self.mover,
        }
    }

    /// Relative indices of the tuzdyk holes (always empty), as a bit mask.
    fn blocked(self) -> u32 {
        let mut m = 0;
        if self.mover != 0 {
            m |= 1 << (9 + self.mover as u32 - 1);
        }
        if self.opponent != 0 {
            m |= 1 << (self.opponent as u32 - 1);
        }
        m
    }

    /// Number of holes that can hold stones (18 minus the tuzdyks).
    pub fn free_holes(self) -> u32 {
        HOLES as u32 - self.blocked().count_ones()
    }

    /// Dense number 0..73 of a valid configuration.
    pub fn ordinal(self) -> usize {
        ORDINAL[self.mover as usize][self.opponent as usize] as usize
    }
}

/// [`Tuzdyks::ordinal`] by (mover, opponent).
static ORDINAL: [[u8; 9]; 9] = {
    let mut t = [[u8::MAX; 9]; 9];
    let mut n = 0;
    let mut a = 0;
    while a < 9 {
        let mut b = 0;
        while b < 9 {
            if a != b || a == 0 {
                t[a][b] = n;
                n += 1;
            }
            b += 1;
        }
        a += 1;
    }
    t
};

/// Number of tuzdyk configurations.
pub const CONFIGS: usize = 73;

/// One table: positions with `stones` on the board and these tuzdyks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Layer {
    /// Stones on the board.
    pub stones: u8,
    /// The tuzdyks, from the side to move.
    pub tuzdyks: Tuzdyks,
}

impl Layer {
    /// Number of slots (= positions).
    pub fn size(self) -> u64 {
        let k = self.tuzdyks.free_holes() as usize;
        binomial(self.stones as usize + k - 1, self.stones as usize)
    }

    /// Dense number of the table among all tables of at most `stones` stones.
    pub fn ordinal(self) -> usize {
        self.stones as usize * CONFIGS + self.tuzdyks.ordinal()
    }

    /// The table reached by a move that keeps every stone on the board.
    pub fn swapped(self) -> Layer {
        Layer {
            stones: self.stones,
            tuzdyks: self.tuzdyks.swapped(),
        }
    }

    /// Slot of the relative holes `holes` (which must hold `stones` stones
    /// and nothing on a tuzdyk).
    #[inline]
    pub fn slot(self, holes: &[u8; HOLES]) -> u64 {
        let free = !self.tuzdyks.blocked() & ((1 << HOLES) - 1);
        let (mut bits, mut pos) = (0u32, 0u32);
        let mut f = free;
        while f != 0 {
            let h = f.trailing_zeros() as usize;
            f &= f - 1;
            let c = holes[h] as u32;
            bits |= ((1u32 << c) - 1) << pos;
            pos += c + 1;
        }
        colex_rank(bits)
    }

    /// Relative holes of `slot` (`None` beyond the table).
    pub fn holes(self, slot: u64) -> Option<[u8; HOLES]> {
        if slot >= self.size() {
            return None;
        }
        let mut bits = colex_unrank(slot, self.stones as usize);
        let mut holes = [0u8; HOLES];
        let mut f = !self.tuzdyks.blocked() & ((1 << HOLES) - 1);
        while f != 0 {
            let h = f.trailing_zeros() as usize;
            f &= f - 1;
            let c = bits.trailing_ones();
            holes[h] = c as u8;
            bits = bits.checked_shr(c + 1).unwrap_or(0);
        }
        Some(holes)
    }

    /// The position of `holes` as a [`Board`] with White (the mover) to
    /// move and empty kazans, for generating moves.
    pub fn board(self, holes: [u8; HOLES]) -> Board {
        let t = self.tuzdyks;
        let abs = |n: u8, base: u8| if n == 0 { NO_TUZDYK } else { base + n - 1 };
        Board::from_parts(
            holes,
            [0, 0],
            [abs(t.mover, 9), abs(t.opponent, 0)],
            Side::White,
        )
    }
}

/// A position as the tables see it: its table and slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Key {
    /// The table.
    pub layer: Layer,
    /// The slot.
    pub slot: u64,
}

/// Table and slot of `b` from its side to move's view, or `None` with more
/// than [`MAX_STONES`] stones on the board.
#[inline]
pub fn key(b: &Board) -> Option<Key> {
    let me = b.side.index();
    let mut holes = [0u8; HOLES];
    let mut stones = 0u32;
    for (i, h) in holes.iter_mut().enumerate() {
        *h = b.holes[(i + 9 * me) % HOLES];
        stones += *h as u32;
    }
    if stones > MAX_STONES as u32 {
        return None;
    }
    let number = |t: u8| if t == NO_TUZDYK { 0 } else { t % 9 + 1 };
    let layer = Layer {
        stones: stones as u8,
        tuzdyks: Tuzdyks {
            mover: number(b.tuzdyk[me]),
            opponent: number(b.tuzdyk[1 - me]),
        },
    };
    Some(Key {
        layer,
        slot: layer.slot(&holes),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seventy_three_configurations() {
        let all: Vec<Tuzdyks> = Tuzdyks::all().collect();
        assert_eq!(all.len(), CONFIGS);
        for (i, t) in all.iter().enumerate() {
            assert_eq!(t.ordinal(), i);
            assert_eq!(t.swapped().swapped(), *t);
            assert!(t.swapped().is_valid());
        }
    }

    #[test]
    fn slots_are_a_bijection() {
        for t in [
            Tuzdyks::NONE,
            Tuzdyks {
                mover: 3,
                opponent: 0,
            },
            Tuzdyks {
                mover: 8,
                opponent: 1,
            },
        ] {
            for stones in 0..=4u8 {
                let layer = Layer { stones, tuzdyks: t };
                let mut seen = std::collections::HashSet::new();
                for slot in 0..layer.size() {
                    let holes = layer.holes(slot).unwrap();
                    assert_eq!(holes.iter().map(|&h| h as u32).sum::<u32>(), stones as u32);
                    assert_eq!(layer.slot(&holes), slot);
                    assert!(seen.insert(holes));
                    // The key of the board (either side to move) is the slot.
                    let b = layer.board(holes);
                    assert_eq!(key(&b), Some(Key { layer, slot }));
                }
                assert_eq!(layer.holes(layer.size()), None);
            }
        }
        // Sizes: distributions of n stones over 18, 17 or 16 holes.
        let size = |stones, mover, opponent| {
            Layer {
                stones,
                tuzdyks: Tuzdyks { mover, opponent },
            }
            .size()
        };
        assert_eq!(size(10, 0, 0), 8_436_285);
        assert_eq!(size(10, 2, 0), 5_311_735);
        assert_eq!(size(10, 2, 7), 3_268_760);
    }

    #[test]
    fn black_to_move_is_seen_from_black() {
        let b: Board = "0,0,2,0,0,0,0,0,0/1,0,0,0,0,0,0,0,0 b 80,79 3,-"
            .parse()
            .unwrap();
        let k = key(&b).unwrap();
        assert_eq!(k.layer.stones, 3);
        assert_eq!(
            k.layer.tuzdyks,
            Tuzdyks {
                mover: 0,
                opponent: 3
            }
        );
        let holes = k.layer.holes(k.slot).unwrap();
        assert_eq!(holes[0], 1);
        assert_eq!(holes[9 + 2], 2);
    }
}
