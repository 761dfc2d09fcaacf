//! Constant tables and branch-free bit tricks for the Nine Men's Morris
//! board, used by every hot loop (move and unmove generation, symmetry,
//! indexing).
//!
//! Bit layout (Malom's): point = 8 × ring + k, ring 0 outer, 1 middle, 2
//! inner; k = 0 is the ring's left midpoint, then clockwise, so even k are
//! midpoints and odd k corners. Each ring is one byte, which turns the eight
//! square symmetries into byte permutations and the inner/outer swap into a
//! byte swap. [`crate::rules::geometry::Geometry::nine`] builds the same board from
//! the names of `docs/rules.md`; the tests check that both agree.

use crate::rules::geometry::Bits;

/// All 24 points.
pub const FULL: Bits = 0x00FF_FFFF;

const fn ring_point(ring: usize, k: usize) -> usize {
    8 * ring + (k % 8)
}

const fn build_adjacent() -> [Bits; 24] {
    let mut adj = [0; 24];
    let mut p = 0;
    while p < 24 {
        let (r, k) = (p / 8, p % 8);
        adj[p] |= 1 << ring_point(r, k + 1);
        adj[p] |= 1 << ring_point(r, k + 7);
        if k % 2 == 0 {
            if r > 0 {
                adj[p] |= 1 << ring_point(r - 1, k);
            }
            if r < 2 {
                adj[p] |= 1 << ring_point(r + 1, k);
            }
        }
        p += 1;
    }
    adj
}

const fn build_mills() -> [Bits; 16] {
    let mut mills = [0; 16];
    let mut n = 0;
    let mut r = 0;
    while r < 3 {
        let mut k = 0;
        while k < 8 {
            mills[n] =
                1 << ring_point(r, k + 7) | 1 << ring_point(r, k) | 1 << ring_point(r, k + 1);
            n += 1;
            k += 2;
        }
        r += 1;
    }
    let mut k = 0;
    while k < 8 {
        mills[n] = 1 << k | 1 << (k + 8) | 1 << (k + 16);
        n += 1;
        k += 2;
    }
    mills
}

const fn build_mills_at() -> [[Bits; 2]; 24] {
    let mut at = [[0; 2]; 24];
    let mut count = [0usize; 24];
    let mut m = 0;
    while m < 16 {
        let mut p = 0;
        while p < 24 {
            if MILLS[m] >> p & 1 == 1 {
                at[p][count[p]] = MILLS[m];
                count[p] += 1;
            }
            p += 1;
        }
        m += 1;
    }
    at
}

/// Adjacent points of each point.
pub const ADJACENT: [Bits; 24] = build_adjacent();
/// The 16 mills.
pub const MILLS: [Bits; 16] = build_mills();
/// The two mills through each point.
pub const MILLS_AT: [[Bits; 2]; 24] = build_mills_at();

/// Image of k (0..8 within a ring) under each of the 8 square symmetries:
/// rotations by 0°, 90°, 180°, 270°, then the four reflections.
const fn ring_map(s: usize, k: usize) -> usize {
    if s < 4 {
        (k + 2 * s) % 8
    } else {
        (2 * (s - 4) + 8 - k) % 8
    }
}

const fn build_sym_bytes() -> [[u8; 256]; 8] {
    let mut t = [[0u8; 256]; 8];
    let mut s = 0;
    while s < 8 {
        let mut b = 0;
        while b < 256 {
            let mut out = 0u8;
            let mut k = 0;
            while k < 8 {
                if b >> k & 1 == 1 {
                    out |= 1 << ring_map(s, k);
                }
                k += 1;
            }
            t[s][b] = out;
            b += 1;
        }
        s += 1;
    }
    t
}

static SYM_BYTES: [[u8; 256]; 8] = build_sym_bytes();

/// Number of board symmetries.
pub const SYMMETRIES: usize = 16;

/// Apply symmetry `op` (0..16; 0 is the identity, 8..16 swap the inner and
/// outer rings after the square symmetry `op - 8`) to a bitboard.
#[inline(always)]
pub fn transform(op: usize, bits: Bits) -> Bits {
    let t = &SYM_BYTES[op & 7];
    let b0 = t[(bits & 0xFF) as usize] as Bits;
    let b1 = t[(bits >> 8 & 0xFF) as usize] as Bits;
    let b2 = t[(bits >> 16 & 0xFF) as usize] as Bits;
    if op < 8 {
        b0 | b1 << 8 | b2 << 16
    } else {
        b2 | b1 << 8 | b0 << 16
    }
}

/// The inverse of symmetry `op`.
pub const fn inverse(op: usize) -> usize {
    // Rotations by 90° and 270° swap; reflections and the ring swap are involutions.
    match op & 7 {
        1 => (op & 8) | 3,
        3 => (op & 8) | 1,
        _ => op,
    }
}

#[inline(always)]
fn rotl1(x: Bits) -> Bits {
    ((x << 1) & 0x00FE_FEFE) | ((x >> 7) & 0x0001_0101)
}

#[inline(always)]
fn rotr1(x: Bits) -> Bits {
    ((x >> 1) & 0x007F_7F7F) | ((x << 7) & 0x0080_8080)
}

/// Every stone of `bits` that is part of a mill of `bits`.
#[inline(always)]
pub fn stones_in_mills(bits: Bits) -> Bits {
    const MID: Bits = 0x0055_5555;
    // Ring mills are centred on a midpoint k with both corners k±1 set.
    let centres = bits & rotl1(bits) & rotr1(bits) & MID;
    let ring = centres | rotl1(centres) | rotr1(centres);
    // Spoke mills: the same midpoint k in all three rings.
    let spokes = bits & (bits >> 8) & (bits >> 16) & 0x55;
    ring | (spokes * 0x0001_0101)
}

/// The points of `empty` where a stone of `us` would close a mill: the
/// other two points of one of its mills are `us`'s (bit-parallel, as
/// [`stones_in_mills`]; the same as `in_mill(us | 1 << p, p)` for each p).
#[inline(always)]
pub fn closing_points(us: Bits, empty: Bits) -> Bits {
    const MID: Bits = 0x0055_5555;
    const CORNERS: Bits = 0x00AA_AAAA;
    let (l1, r1) = (rotl1(us), rotr1(us));
    // A midpoint between two corners of ours; a corner next to a midpoint
    // and the corner beyond it, on either side.
    let ring = (MID & l1 & r1) | (CORNERS & ((l1 & rotl1(l1)) | (r1 & rotr1(r1))));
    // A midpoint whose two partners on the spoke (other rings) are ours.
    let (down, up) = (us >> 8, us << 8);
    let spokes =
        ((down & us >> 16) & 0xFF) | ((down & up) & 0xFF00) | ((up & us << 16) & 0xFF_0000);
    empty & (ring | (spokes & MID))
}

/// Does the stone at `point` form a mill with the other stones of `bits`
/// (which must contain `point`)?
#[inline(always)]
pub fn in_mill(bits: Bits, point: usize) -> bool {
    let [a, b] = MILLS_AT[point];
    bits & a == a || bits & b == b
}

/// Stones of `them` that may be removed: those not in a mill, or all of
/// them when every stone is in a mill.
#[inline(always)]
pub fn removable(them: Bits) -> Bits {
    let free = them & !stones_in_mills(them);
    if free != 0 {
        free
    } else {
        them
    }
}

/// Destinations for a stone of a side with `stones` on the board: adjacent
/// empty points, or every empty point when the side flies.
#[inline(always)]
pub fn destinations(from: usize, empty: Bits, flies: bool) -> Bits {
    if flies {
        empty
    } else {
        ADJACENT[from] & empty
    }
}

pub use crate::rules::geometry::points;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::geometry::Geometry;

    #[test]
    fn constant_tables_match_the_rules_board() {
        let g = Geometry::nine();
        assert_eq!(ADJACENT.to_vec(), g.adjacent);
        let mut a = MILLS.to_vec();
        let mut b = g.mills.clone();
        a.sort();
        b.sort();
        assert_eq!(a, b);
        // Same group: every fast map is one of the reference permutations.
        let mut fast: Vec<Vec<u8>> = (0..16)
            .map(|op| {
                (0..24)
                    .map(|p| transform(op, 1 << p).trailing_zeros() as u8)
                    .collect()
            })
            .collect();
        fast.sort();
        fast.dedup();
        let mut reference = g.symmetries.clone();
        reference.sort();
        assert_eq!(fast, reference);
    }

    #[test]
    fn inverse_undoes_each_map() {
        for op in 0..16 {
            for p in 0..24 {
                assert_eq!(transform(inverse(op), transform(op, 1 << p)), 1 << p);
            }
        }
    }

    #[test]
    fn closing_points_are_the_placements_that_close_a_mill() {
        let mut x: u64 = 0x2545_F491_4F6C_DD1D;
        for _ in 0..100_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            // Two sides on disjoint points, from sparse to crowded boards.
            let us = (x as Bits) & FULL & (x >> 24) as Bits;
            let them = (x >> 40) as Bits & FULL & !us;
            let empty = FULL & !(us | them);
            let expected = points(empty)
                .filter(|&p| in_mill(us | 1 << p, p))
                .fold(0, |b, p| b | 1 << p);
            assert_eq!(closing_points(us, empty), expected, "{us:06x} {them:06x}");
        }
    }

    #[test]
    fn stones_in_mills_matches_the_mill_list() {
        let g = Geometry::nine();
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        for _ in 0..100_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let bits = (x as u32) & (x >> 32) as u32 & FULL | (x as u32 & 0x00F0_0F0F);
            assert_eq!(stones_in_mills(bits), g.stones_in_mills(bits), "{bits:#x}");
        }
    }
}
