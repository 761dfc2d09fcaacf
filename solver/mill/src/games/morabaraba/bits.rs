//! Constant tables and branch-free bit tricks for the Morabaraba board, as
//! [`crate::games::nine::bits`] has them for Nine Men's Morris: the same 24
//! points in the same bit layout (point = 8 × ring + k, odd k the
//! corners) plus the four diagonals, which join the corners of the three
//! rings. So every point lies on the spoke through its k: midpoints on
//! Nine's spokes, corners on the diagonals. The 16 symmetries are Nine's
//! (byte permutations and the ring swap), numbered as Nine's bits number
//! them. [`crate::rules::geometry::Geometry::morabaraba`] builds the same
//! board from the names of `docs/rules.md`; the tests check that both
//! agree.

use crate::games::nine::bits as nine;
use crate::rules::geometry::Bits;

/// A bit outside the board: a mill slot that never closes.
const NO_MILL: Bits = 1 << 31;

const fn build_adjacent() -> [Bits; 24] {
    let mut adj = nine::ADJACENT;
    let mut p = 0;
    while p < 24 {
        let (r, k) = (p / 8, p % 8);
        // The diagonals: a corner's neighbours on the rings next to it.
        if k % 2 == 1 {
            if r > 0 {
                adj[p] |= 1 << (p - 8);
            }
            if r < 2 {
                adj[p] |= 1 << (p + 8);
            }
        }
        p += 1;
    }
    adj
}

/// Points adjacent to each point (Nine's lines and the diagonals).
pub const ADJACENT: [Bits; 24] = build_adjacent();

const fn build_mills_at() -> ([[Bits; 3]; 24], [usize; 24]) {
    let mut at = [[NO_MILL; 3]; 24];
    let mut count = [0usize; 24];
    let mut p = 0;
    while p < 24 {
        let k = p % 8;
        // The ring mills through `p`: Nine's.
        let [a, b] = nine::MILLS_AT[p];
        let mut n = 0;
        let ring_a = a & (0xFF << (8 * (p / 8))) == a;
        let ring_b = b & (0xFF << (8 * (p / 8))) == b;
        if ring_a {
            at[p][n] = a;
            n += 1;
        }
        if ring_b {
            at[p][n] = b;
            n += 1;
        }
        // The spoke through `p` (a diagonal at a corner).
        at[p][n] = 1 << k | 1 << (k + 8) | 1 << (k + 16);
        n += 1;
        count[p] = n;
        p += 1;
    }
    (at, count)
}

const MILLS_TABLE: ([[Bits; 3]; 24], [usize; 24]) = build_mills_at();
/// The mills through each point, padded with a mill that never closes.
static MILLS_AT: [[Bits; 3]; 24] = MILLS_TABLE.0;
/// How many mills pass through each point (2 at a midpoint, 3 at a corner).
const MILL_COUNT: [usize; 24] = MILLS_TABLE.1;

/// The mills through `point`.
#[inline(always)]
pub fn mills_at(point: usize) -> &'static [Bits] {
    &MILLS_AT[point][..MILL_COUNT[point]]
}

/// Does the stone at `point` close a mill with the other stones of `bits`?
#[inline(always)]
pub fn in_mill(bits: Bits, point: usize) -> bool {
    let [a, b, c] = MILLS_AT[point];
    bits & a == a || bits & b == b || bits & c == c
}

/// The stones on a spoke full of `bits`, at every k (Nine's spokes and the
/// diagonals), spread back over the three rings.
#[inline(always)]
fn spokes(bits: Bits) -> Bits {
    (bits & (bits >> 8) & (bits >> 16) & 0xFF) * 0x0001_0101
}

/// Every stone of `bits` that is part of a mill of `bits`.
#[inline(always)]
pub fn stones_in_mills(bits: Bits) -> Bits {
    // Nine's ring mills and midpoint spokes, then every spoke.
    nine::stones_in_mills(bits) | spokes(bits)
}

/// The points of `empty` where a stone of `us` closes a mill.
#[inline(always)]
pub fn closing_points(us: Bits, empty: Bits) -> Bits {
    let (down, up) = (us >> 8, us << 8);
    let all_spokes =
        ((down & us >> 16) & 0xFF) | ((down & up) & 0xFF00) | ((up & us << 16) & 0xFF_0000);
    nine::closing_points(us, empty) | (empty & all_spokes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::board::BoardTables;
    use crate::rules::geometry::Geometry;

    fn tables() -> BoardTables {
        BoardTables::new(Geometry::morabaraba())
    }

    /// The constant tables are the board built from the rules' names.
    #[test]
    fn constants_are_the_geometry() {
        let t = tables();
        for (p, &adjacent) in ADJACENT.iter().enumerate() {
            assert_eq!(adjacent, t.adjacent(p), "point {p}");
            let mut ours = mills_at(p).to_vec();
            let mut theirs = t.mills_at(p).to_vec();
            ours.sort();
            theirs.sort();
            assert_eq!(ours, theirs, "point {p}");
        }
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        for _ in 0..200_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let bits = (x & 0xFF_FFFF) as Bits;
            let empty = (x >> 24 & 0xFF_FFFF) as Bits & !bits;
            assert_eq!(stones_in_mills(bits), t.stones_in_mills(bits), "{bits:#x}");
            let closing = (0..24)
                .filter(|&p| empty >> p & 1 == 1 && t.in_mill(bits | 1 << p, p))
                .fold(0, |m, p| m | 1 << p);
            assert_eq!(closing_points(bits, empty), closing, "{bits:#x} {empty:#x}");
            for p in (0..24).filter(|&p| bits >> p & 1 == 1) {
                assert_eq!(in_mill(bits, p), t.in_mill(bits, p), "{bits:#x} {p}");
            }
        }
    }

    /// Nine's 16 maps are Morabaraba's automorphisms (its geometry's group).
    #[test]
    fn nines_maps_are_the_boards_symmetries() {
        let g = Geometry::morabaraba();
        let image = |op: usize, m: Bits| nine::transform(op, m);
        let mut ours: Vec<Vec<Bits>> = (0..nine::SYMMETRIES)
            .map(|op| (0..24).map(|p| image(op, 1 << p)).collect())
            .collect();
        let mut theirs: Vec<Vec<Bits>> = (0..g.symmetries.len())
            .map(|s| (0..24).map(|p| g.transform(s, 1 << p)).collect())
            .collect();
        ours.sort();
        theirs.sort();
        assert_eq!(ours, theirs);
        for op in 0..nine::SYMMETRIES {
            let inv = nine::inverse(op);
            for p in 0..24 {
                assert_eq!(image(inv, image(op, 1 << p)), 1 << p);
            }
        }
    }
}
