//! The boards of the mill family as types, for compile-time specialisation:
//! the [`Board`] trait gives the hot loops (move and unmove generation,
//! symmetry) what they ask of a board, and generic code is monomorphised
//! per board, as shakmaty-syzygy's `Syzygy` trait does per chess variant.
//!
//! [`Nine`] answers from the constant tables and bit tricks of
//! [`crate::games::nine::bits`], so Nine Men's Morris code compiled through the trait is
//! the code it was before; [`Morabaraba`] (Nine's points plus the
//! diagonals) from those of [`crate::games::morabaraba::bits`]. [`Six`] and
//! any board of [`crate::data_board!`] answer from [`BoardTables`] built
//! once from their [`Geometry`] (points, edges, mills and the computed
//! symmetry group).

use crate::games::morabaraba::bits as morabaraba;
use crate::games::nine::bits;
use crate::rules::geometry::{points, Bits, Geometry};
use std::sync::LazyLock;

/// What the hot loops need to know about a board.
pub trait Board: Copy + Send + Sync + 'static {
    /// Name of the board, as in file names and labels (`"nine"`).
    const NAME: &'static str;
    /// Number of points.
    const POINTS: usize;
    /// Every point.
    const FULL: Bits;
    /// Number of symmetries (the order of the automorphism group).
    const SYMMETRIES: usize;
    /// Stones a side in the board's own game (9 for Nine Men's Morris):
    /// tables of other counts carry theirs in their names.
    const STONES: u8;

    /// The index of the board's tables: slot ↔ position of a subspace
    /// ([`crate::index::nine::NineIndex`] on the 24-point boards, whose
    /// points and 16 symmetries Nine Men's Morris's tuned index covers;
    /// [`crate::index::symmetric::Symmetric`], the same scheme built from
    /// the geometry, on any other board).
    type Index: crate::index::Indexing;

    /// The board as data (names, edges, mills, symmetries).
    fn geometry() -> &'static Geometry;

    /// Points adjacent to `point`.
    fn adjacent(point: usize) -> Bits;

    /// Does the stone at `point` form a mill with the other stones of
    /// `bits` (which must contain `point`)?
    fn in_mill(bits: Bits, point: usize) -> bool;

    /// Every stone of `bits` that is part of a mill of `bits`.
    fn stones_in_mills(bits: Bits) -> Bits;

    /// Apply symmetry `op` (`0..SYMMETRIES`, 0 the identity) to a bitboard.
    fn transform(op: usize, bits: Bits) -> Bits;

    /// The symmetry that undoes `op`.
    fn inverse(op: usize) -> usize;

    /// The mills through `point` (two on Nine's board, up to three on
    /// Morabaraba's).
    fn mills_at(point: usize) -> &'static [Bits];

    /// Stones of `them` that may be removed: those not in a mill, or all
    /// of them when every stone is in a mill.
    #[inline(always)]
    fn removable(them: Bits) -> Bits {
        let free = them & !Self::stones_in_mills(them);
        if free != 0 {
            free
        } else {
            them
        }
    }

    /// Destinations of a stone on `from`: adjacent empty points, or every
    /// empty point when its side flies.
    #[inline(always)]
    fn destinations(from: usize, empty: Bits, flies: bool) -> Bits {
        if flies {
            empty
        } else {
            Self::adjacent(from) & empty
        }
    }

    /// The points of `empty` where a stone of `us` would close a mill.
    #[inline(always)]
    fn closing_points(us: Bits, empty: Bits) -> Bits {
        let mut out = 0;
        for p in points(empty) {
            if Self::in_mill(us | 1 << p, p) {
                out |= 1 << p;
            }
        }
        out
    }
}

/// The Nine Men's Morris board (constant tables of [`crate::games::nine::bits`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Nine;

static NINE_GEOMETRY: LazyLock<Geometry> = LazyLock::new(Geometry::nine);

impl Board for Nine {
    const NAME: &'static str = "nine";
    const POINTS: usize = 24;
    const FULL: Bits = bits::FULL;
    const SYMMETRIES: usize = bits::SYMMETRIES;
    const STONES: u8 = 9;
    type Index = crate::index::nine::NineIndex;

    fn geometry() -> &'static Geometry {
        &NINE_GEOMETRY
    }

    #[inline(always)]
    fn adjacent(point: usize) -> Bits {
        bits::ADJACENT[point]
    }

    #[inline(always)]
    fn in_mill(bits: Bits, point: usize) -> bool {
        bits::in_mill(bits, point)
    }

    #[inline(always)]
    fn stones_in_mills(bits: Bits) -> Bits {
        bits::stones_in_mills(bits)
    }

    #[inline(always)]
    fn transform(op: usize, bits: Bits) -> Bits {
        bits::transform(op, bits)
    }

    #[inline(always)]
    fn inverse(op: usize) -> usize {
        bits::inverse(op)
    }

    #[inline(always)]
    fn mills_at(point: usize) -> &'static [Bits] {
        &bits::MILLS_AT[point]
    }

    #[inline(always)]
    fn removable(them: Bits) -> Bits {
        bits::removable(them)
    }

    #[inline(always)]
    fn destinations(from: usize, empty: Bits, flies: bool) -> Bits {
        bits::destinations(from, empty, flies)
    }

    #[inline(always)]
    fn closing_points(us: Bits, empty: Bits) -> Bits {
        bits::closing_points(us, empty)
    }
}

/// Most mills through one point on any board of the family (a Morabaraba
/// corner lies on three).
const MAX_MILLS_AT: usize = 3;

/// Hot-path tables of a board built from its [`Geometry`]: adjacency, the
/// mills through each point, and every symmetry as four byte tables (the
/// image of a bitboard is the OR of the images of its bytes).
#[derive(Debug, Clone)]
pub struct BoardTables {
    /// The board as data.
    pub geometry: Geometry,
    adjacent: [Bits; 32],
    /// Mills through each point, padded with [`Bits::MAX`] (never
    /// contained in a bitboard of a board with fewer than 32 points).
    mills_at: [[Bits; MAX_MILLS_AT]; 32],
    /// How many of `mills_at[p]` are mills.
    mill_count: [usize; 32],
    /// `inverse[op]`: the symmetry undoing `op`.
    inverse: Vec<usize>,
    /// `bytes[op][j][b]`: the image under `op` of byte `j` holding `b`.
    bytes: Vec<[[Bits; 256]; 4]>,
}

impl BoardTables {
    /// Build the tables of a board (fewer than 32 points, at most three
    /// mills through a point).
    pub fn new(geometry: Geometry) -> BoardTables {
        assert!(geometry.points() < 32, "a board has fewer than 32 points");
        let mut adjacent = [0; 32];
        let mut mills_at = [[Bits::MAX; MAX_MILLS_AT]; 32];
        let mut mill_count = [0; 32];
        for p in 0..geometry.points() {
            adjacent[p] = geometry.adjacent[p];
            let through: Vec<Bits> = geometry
                .mills
                .iter()
                .copied()
                .filter(|m| m >> p & 1 == 1)
                .collect();
            assert!(through.len() <= MAX_MILLS_AT, "too many mills at a point");
            mills_at[p][..through.len()].copy_from_slice(&through);
            mill_count[p] = through.len();
        }
        let syms = &geometry.symmetries;
        let inverse = syms
            .iter()
            .map(|s| {
                (0..syms.len())
                    .find(|&t| (0..s.len()).all(|p| syms[t][s[p] as usize] as usize == p))
                    .expect("a symmetry group holds every inverse")
            })
            .collect();
        let bytes = (0..geometry.symmetries.len())
            .map(|op| {
                let mut t = [[0; 256]; 4];
                for (j, table) in t.iter_mut().enumerate() {
                    for (b, image) in table.iter_mut().enumerate() {
                        let bits = ((b as Bits) << (8 * j)) & geometry.full();
                        *image = geometry.transform(op, bits);
                    }
                }
                t
            })
            .collect();
        BoardTables {
            geometry,
            adjacent,
            mills_at,
            mill_count,
            inverse,
            bytes,
        }
    }

    /// The board as data.
    pub fn geometry(&self) -> &Geometry {
        &self.geometry
    }

    /// Points adjacent to `point`.
    #[inline(always)]
    pub fn adjacent(&self, point: usize) -> Bits {
        self.adjacent[point]
    }

    /// The symmetry that undoes `op`.
    #[inline(always)]
    pub fn inverse(&self, op: usize) -> usize {
        self.inverse[op]
    }

    /// The mills through `point`.
    #[inline(always)]
    pub fn mills_at(&self, point: usize) -> &[Bits] {
        &self.mills_at[point][..self.mill_count[point]]
    }

    /// Does the stone at `point` close a mill of `bits`?
    #[inline(always)]
    pub fn in_mill(&self, bits: Bits, point: usize) -> bool {
        let [a, b, c] = self.mills_at[point];
        bits & a == a || bits & b == b || bits & c == c
    }

    /// Every stone of `bits` that is part of a mill of `bits`.
    #[inline]
    pub fn stones_in_mills(&self, bits: Bits) -> Bits {
        let mut out = 0;
        for &m in &self.geometry.mills {
            if bits & m == m {
                out |= m;
            }
        }
        out
    }

    /// Apply symmetry `op` to a bitboard.
    #[inline(always)]
    pub fn transform(&self, op: usize, bits: Bits) -> Bits {
        let t = &self.bytes[op];
        t[0][(bits & 0xFF) as usize]
            | t[1][(bits >> 8 & 0xFF) as usize]
            | t[2][(bits >> 16 & 0xFF) as usize]
            | t[3][(bits >> 24) as usize]
    }
}

/// Define a board whose tables are built from its geometry on first use:
/// a new mill board is its data and this line.
///
/// ```
/// use mill::rules::geometry::Geometry;
/// mill::data_board!(
///     /// Three rows of three points; rows and columns are mills.
///     Grid, GRID_TABLES, "grid", points: 9, symmetries: 8, stones: 3,
///     Geometry::from_lists(
///         "grid",
///         &["a1", "a2", "a3", "b1", "b2", "b3", "c1", "c2", "c3"],
///         &["a3", "b3", "c3", "a2", "b2", "c2", "a1", "b1", "c1"],
///         &[["a1", "a2"], ["a2", "a3"], ["b1", "b2"], ["b2", "b3"], ["c1", "c2"], ["c2", "c3"],
///           ["a1", "b1"], ["b1", "c1"], ["a2", "b2"], ["b2", "c2"], ["a3", "b3"], ["b3", "c3"]],
///         &[["a1", "a2", "a3"], ["b1", "b2", "b3"], ["c1", "c2", "c3"],
///           ["a1", "b1", "c1"], ["a2", "b2", "c2"], ["a3", "b3", "c3"]],
///     )
/// );
/// use mill::rules::board::Board;
/// assert_eq!(Grid::geometry().symmetries.len(), Grid::SYMMETRIES);
/// ```
#[macro_export]
macro_rules! data_board {
    ($(#[$doc:meta])* $ty:ident, $tables:ident, $name:literal, points: $points:literal,
     symmetries: $syms:literal, stones: $stones:literal, $build:expr) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
        pub struct $ty;

        static $tables: std::sync::LazyLock<$crate::rules::board::BoardTables> =
            std::sync::LazyLock::new(|| $crate::rules::board::BoardTables::new($build));

        impl $crate::rules::board::Board for $ty {
            const NAME: &'static str = $name;
            const POINTS: usize = $points;
            const FULL: $crate::rules::geometry::Bits = (1 << $points) - 1;
            const SYMMETRIES: usize = $syms;
            const STONES: u8 = $stones;
            type Index = $crate::index::symmetric::Symmetric;

            fn geometry() -> &'static $crate::rules::geometry::Geometry {
                $tables.geometry()
            }

            #[inline(always)]
            fn adjacent(point: usize) -> $crate::rules::geometry::Bits {
                $tables.adjacent(point)
            }

            #[inline(always)]
            fn in_mill(bits: $crate::rules::geometry::Bits, point: usize) -> bool {
                $tables.in_mill(bits, point)
            }

            #[inline(always)]
            fn stones_in_mills(bits: $crate::rules::geometry::Bits) -> $crate::rules::geometry::Bits {
                $tables.stones_in_mills(bits)
            }

            #[inline(always)]
            fn transform(op: usize, bits: $crate::rules::geometry::Bits) -> $crate::rules::geometry::Bits {
                $tables.transform(op, bits)
            }

            #[inline(always)]
            fn inverse(op: usize) -> usize {
                $tables.inverse(op)
            }

            #[inline(always)]
            fn mills_at(point: usize) -> &'static [$crate::rules::geometry::Bits] {
                $tables.mills_at(point)
            }
        }
    };
}

data_board!(
    /// The Six Men's Morris board: 16 points (tables built from data).
    Six,
    SIX_TABLES,
    "six",
    points: 16,
    symmetries: 16,
    stones: 6,
    Geometry::six()
);

/// The Morabaraba board: Nine Men's Morris plus four diagonals, from the
/// constant tables of [`crate::games::morabaraba::bits`] (Nine's bit
/// layout and symmetries; the tests check them against
/// [`Geometry::morabaraba`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Morabaraba;

static MORABARABA_GEOMETRY: LazyLock<Geometry> = LazyLock::new(Geometry::morabaraba);

impl Board for Morabaraba {
    const NAME: &'static str = "morabaraba";
    const POINTS: usize = 24;
    const FULL: Bits = bits::FULL;
    const SYMMETRIES: usize = bits::SYMMETRIES;
    const STONES: u8 = 12;
    type Index = crate::index::nine::NineIndex;

    fn geometry() -> &'static Geometry {
        &MORABARABA_GEOMETRY
    }

    #[inline(always)]
    fn adjacent(point: usize) -> Bits {
        morabaraba::ADJACENT[point]
    }

    #[inline(always)]
    fn in_mill(bits: Bits, point: usize) -> bool {
        morabaraba::in_mill(bits, point)
    }

    #[inline(always)]
    fn stones_in_mills(bits: Bits) -> Bits {
        morabaraba::stones_in_mills(bits)
    }

    #[inline(always)]
    fn transform(op: usize, b: Bits) -> Bits {
        bits::transform(op, b)
    }

    #[inline(always)]
    fn inverse(op: usize) -> usize {
        bits::inverse(op)
    }

    #[inline(always)]
    fn mills_at(point: usize) -> &'static [Bits] {
        morabaraba::mills_at(point)
    }

    #[inline(always)]
    fn closing_points(us: Bits, empty: Bits) -> Bits {
        morabaraba::closing_points(us, empty)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The trait's answers agree with the board's data, point by point and
    /// on pseudo-random bitboards.
    fn check<B: Board>() {
        let g = B::geometry();
        assert_eq!(g.name, B::NAME);
        assert_eq!(g.points(), B::POINTS);
        assert_eq!(g.full(), B::FULL);
        assert_eq!(g.symmetries.len(), B::SYMMETRIES);
        for p in 0..B::POINTS {
            assert_eq!(B::adjacent(p), g.adjacent[p]);
            let mut through: Vec<Bits> = g
                .mills
                .iter()
                .copied()
                .filter(|m| m >> p & 1 == 1)
                .collect();
            let mut at = B::mills_at(p).to_vec();
            through.sort_unstable();
            at.sort_unstable();
            assert_eq!(at, through, "mills at {p}");
        }
        for op in 0..B::SYMMETRIES {
            for p in 0..B::POINTS {
                assert_eq!(
                    B::transform(B::inverse(op), B::transform(op, 1 << p)),
                    1 << p
                );
            }
        }
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let bits = (x as Bits & (x >> 32) as Bits) & B::FULL;
            assert_eq!(B::stones_in_mills(bits), g.stones_in_mills(bits));
            for p in 0..B::POINTS {
                let with = bits | 1 << p;
                let closes = g.mills.iter().any(|&m| m >> p & 1 == 1 && with & m == m);
                assert_eq!(B::in_mill(with, p), closes);
            }
            for op in 0..B::SYMMETRIES {
                let pointwise = (0..B::POINTS)
                    .filter(|&p| bits >> p & 1 == 1)
                    .fold(0, |m, p| m | B::transform(op, 1 << p));
                assert_eq!(B::transform(op, bits), pointwise);
            }
        }
        // The maps are the geometry's group (Morabaraba numbers them as
        // Nine's bits do, the boards built from data as their geometry).
        let images = |f: &dyn Fn(usize, Bits) -> Bits| {
            let mut all: Vec<Vec<Bits>> = (0..B::SYMMETRIES)
                .map(|op| (0..B::POINTS).map(|p| f(op, 1 << p)).collect())
                .collect();
            all.sort();
            all
        };
        assert_eq!(images(&B::transform), images(&|op, b| g.transform(op, b)));
    }

    #[test]
    fn boards_agree_with_their_geometry() {
        check::<Six>();
        check::<Morabaraba>();
    }

    #[test]
    fn nine_constant_tables_are_the_same_group() {
        // The fast maps of `nine` are numbered differently from the
        // computed group; as sets they are equal.
        let g = Nine::geometry();
        let mut fast: Vec<Vec<u8>> = (0..Nine::SYMMETRIES)
            .map(|op| {
                (0..24)
                    .map(|p| Nine::transform(op, 1 << p).trailing_zeros() as u8)
                    .collect()
            })
            .collect();
        fast.sort();
        assert_eq!(fast, g.symmetries);
        for p in 0..24 {
            assert_eq!(Nine::adjacent(p), g.adjacent[p]);
        }
    }
}
