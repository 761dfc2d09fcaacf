//! Board geometry as data: point names, adjacency, mills and symmetries of
//! the Nine Men's Morris and Three Men's Morris boards.
//!
//! A board is a set of at most 32 points, each a bit of a `u32` bitboard.
//! The tables here are built from the point names and the mill list of
//! `RULES.md`; the hot paths of the Nine Men's Morris engine use the
//! constant tables of [`super::nine`], which are tested against these.

/// A bitboard: one bit per point.
pub type Bits = u32;

/// Everything that describes a morris board.
#[derive(Debug, Clone)]
pub struct Geometry {
    /// Name of the board ("nine" or "three").
    pub name: &'static str,
    /// Point names by bit index.
    pub names: Vec<&'static str>,
    /// Bit index of each character of the text format, in reading order.
    pub reading_order: Vec<u8>,
    /// Adjacent points of each point, as a bitboard.
    pub adjacent: Vec<Bits>,
    /// Every mill (line of three) as a bitboard.
    pub mills: Vec<Bits>,
    /// The symmetry group as point permutations: `symmetries[s][p]` is the
    /// image of point `p` under symmetry `s`; entry 0 is the identity.
    pub symmetries: Vec<Vec<u8>>,
}

impl Geometry {
    /// Number of points.
    pub fn points(&self) -> usize {
        self.names.len()
    }

    /// Bitboard with every point set.
    pub fn full(&self) -> Bits {
        if self.points() == 32 {
            u32::MAX
        } else {
            (1 << self.points()) - 1
        }
    }

    /// The bit index of a point given its name (`"d6"`).
    pub fn point(&self, name: &str) -> Option<u8> {
        self.names.iter().position(|n| *n == name).map(|p| p as u8)
    }

    /// Apply symmetry `s` to a bitboard (slow, table-free reference).
    pub fn transform(&self, s: usize, bits: Bits) -> Bits {
        let perm = &self.symmetries[s];
        let mut out = 0;
        let mut rest = bits;
        while rest != 0 {
            let p = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            out |= 1 << perm[p];
        }
        out
    }

    /// Mills made entirely of stones in `bits`, OR-ed together.
    pub fn stones_in_mills(&self, bits: Bits) -> Bits {
        self.mills
            .iter()
            .filter(|&&m| bits & m == m)
            .fold(0, |acc, &m| acc | m)
    }
}

/// Nine Men's Morris point names by bit: bit = 8 × ring + k, ring 0 outer,
/// 1 middle, 2 inner; k = 0 is the ring's left midpoint, then clockwise.
/// This is Malom's layout, so that ring symmetries are byte rotations.
pub const NINE_NAMES: [&str; 24] = [
    "a4", "a7", "d7", "g7", "g4", "g1", "d1", "a1", //
    "b4", "b6", "d6", "f6", "f4", "f2", "d2", "b2", //
    "c4", "c5", "d5", "e5", "e4", "e3", "d3", "c3",
];

/// Nine Men's Morris points in the reading order of the text format.
pub const NINE_READING: [&str; 24] = [
    "a7", "d7", "g7", "b6", "d6", "f6", "c5", "d5", "e5", "a4", "b4", "c4", "e4", "f4", "g4", "c3",
    "d3", "e3", "b2", "d2", "f2", "a1", "d1", "g1",
];

/// The 16 mills of Nine Men's Morris, as listed in `RULES.md`.
pub const NINE_MILLS: [[&str; 3]; 16] = [
    ["a7", "d7", "g7"],
    ["b6", "d6", "f6"],
    ["c5", "d5", "e5"],
    ["a4", "b4", "c4"],
    ["e4", "f4", "g4"],
    ["c3", "d3", "e3"],
    ["b2", "d2", "f2"],
    ["a1", "d1", "g1"],
    ["a7", "a4", "a1"],
    ["b6", "b4", "b2"],
    ["c5", "c4", "c3"],
    ["d7", "d6", "d5"],
    ["d3", "d2", "d1"],
    ["e5", "e4", "e3"],
    ["f6", "f4", "f2"],
    ["g7", "g4", "g1"],
];

/// The 32 edges of the Nine Men's Morris board (drawing of `RULES.md`).
pub const NINE_EDGES: [[&str; 2]; 32] = [
    ["a7", "d7"],
    ["d7", "g7"],
    ["b6", "d6"],
    ["d6", "f6"],
    ["c5", "d5"],
    ["d5", "e5"],
    ["a4", "b4"],
    ["b4", "c4"],
    ["e4", "f4"],
    ["f4", "g4"],
    ["c3", "d3"],
    ["d3", "e3"],
    ["b2", "d2"],
    ["d2", "f2"],
    ["a1", "d1"],
    ["d1", "g1"],
    ["a7", "a4"],
    ["a4", "a1"],
    ["b6", "b4"],
    ["b4", "b2"],
    ["c5", "c4"],
    ["c4", "c3"],
    ["d7", "d6"],
    ["d6", "d5"],
    ["d3", "d2"],
    ["d2", "d1"],
    ["e5", "e4"],
    ["e4", "e3"],
    ["f6", "f4"],
    ["f4", "f2"],
    ["g7", "g4"],
    ["g4", "g1"],
];

/// Three Men's Morris point names by bit (reading order).
pub const THREE_NAMES: [&str; 9] = ["a3", "b3", "c3", "a2", "b2", "c2", "a1", "b1", "c1"];

/// Coordinates (file, rank) from a point name such as `"d6"`.
fn coords(name: &str) -> (i32, i32) {
    let b = name.as_bytes();
    ((b[0] - b'a') as i32, (b[1] - b'1') as i32)
}

/// A map of grid coordinates (file, rank).
type GridMap = Box<dyn Fn(i32, i32) -> (i32, i32)>;

/// Symmetries of a square grid of side `size` as maps of (file, rank).
fn square_maps(size: i32) -> [GridMap; 8] {
    let m = size - 1;
    [
        Box::new(|x, y| (x, y)),
        Box::new(move |x, y| (y, m - x)),
        Box::new(move |x, y| (m - x, m - y)),
        Box::new(move |x, y| (m - y, x)),
        Box::new(move |x, y| (m - x, y)),
        Box::new(move |x, y| (x, m - y)),
        Box::new(|x, y| (y, x)),
        Box::new(move |x, y| (m - y, m - x)),
    ]
}

fn permutation(names: &[&'static str], map: impl Fn(&str) -> String) -> Vec<u8> {
    names
        .iter()
        .map(|n| {
            let image = map(n);
            names
                .iter()
                .position(|m| *m == image)
                .expect("symmetry maps the board onto itself") as u8
        })
        .collect()
}

fn name_of(x: i32, y: i32) -> String {
    format!("{}{}", (b'a' + x as u8) as char, y + 1)
}

/// Swap of the inner and outer squares of the Nine Men's Morris board (the
/// middle square is fixed): a point at distance `d` from the centre goes to
/// distance `4 - d` on the same ray.
fn swap_rings(x: i32, y: i32) -> (i32, i32) {
    let (dx, dy) = (x - 3, y - 3);
    let d = dx.abs().max(dy.abs());
    let nd = 4 - d;
    (3 + dx.signum() * nd, 3 + dy.signum() * nd)
}

impl Geometry {
    /// The Nine Men's Morris board: 24 points, 32 edges, 16 mills, 16 symmetries.
    pub fn nine() -> Geometry {
        let names: Vec<&'static str> = NINE_NAMES.to_vec();
        let index = |n: &str| names.iter().position(|m| *m == n).unwrap() as u8;
        let mut adjacent = vec![0; 24];
        for [a, b] in NINE_EDGES {
            adjacent[index(a) as usize] |= 1 << index(b);
            adjacent[index(b) as usize] |= 1 << index(a);
        }
        let mills = NINE_MILLS
            .iter()
            .map(|m| m.iter().fold(0, |acc, n| acc | 1 << index(n)))
            .collect();
        let mut symmetries = Vec::new();
        for swap in [false, true] {
            for map in square_maps(7) {
                symmetries.push(permutation(&names, |n| {
                    let (x, y) = coords(n);
                    let (x, y) = if swap { swap_rings(x, y) } else { (x, y) };
                    let (x, y) = map(x, y);
                    name_of(x, y)
                }));
            }
        }
        Geometry {
            name: "nine",
            reading_order: NINE_READING.iter().map(|n| index(n)).collect(),
            names,
            adjacent,
            mills,
            symmetries,
        }
    }

    /// The Three Men's Morris board: 3×3 points, lines are the rows, columns
    /// and both diagonals; adjacency follows the lines; 8 symmetries.
    pub fn three() -> Geometry {
        let names: Vec<&'static str> = THREE_NAMES.to_vec();
        let index = |x: i32, y: i32| names.iter().position(|m| *m == name_of(x, y)).unwrap() as u8;
        let mut mills = Vec::new();
        for i in 0..3 {
            mills.push((0..3).fold(0u32, |acc, j| acc | 1 << index(j, i)));
            mills.push((0..3).fold(0u32, |acc, j| acc | 1 << index(i, j)));
        }
        mills.push((0..3).fold(0u32, |acc, j| acc | 1 << index(j, j)));
        mills.push((0..3).fold(0u32, |acc, j| acc | 1 << index(j, 2 - j)));
        let mut adjacent = vec![0u32; 9];
        for &m in &mills {
            // Consecutive points of a line are adjacent.
            let pts: Vec<u32> = (0..9).filter(|p| m >> p & 1 == 1).collect();
            let mut pts = pts;
            pts.sort_by_key(|&p| {
                let (x, y) = coords(names[p as usize]);
                (x, y)
            });
            for w in pts.windows(2) {
                adjacent[w[0] as usize] |= 1 << w[1];
                adjacent[w[1] as usize] |= 1 << w[0];
            }
        }
        let symmetries = square_maps(3)
            .iter()
            .map(|map| {
                permutation(&names, |n| {
                    let (x, y) = coords(n);
                    let (x, y) = map(x, y);
                    name_of(x, y)
                })
            })
            .collect();
        Geometry {
            name: "three",
            reading_order: (0..9).collect(),
            names,
            adjacent,
            mills,
            symmetries,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check_group(g: &Geometry) {
        let n = g.symmetries.len();
        for s in 0..n {
            for p in 0..g.points() {
                // Adjacency and mills are preserved.
                let image = g.symmetries[s][p] as usize;
                assert_eq!(g.transform(s, g.adjacent[p]), g.adjacent[image]);
            }
            for &m in &g.mills {
                assert!(g.mills.contains(&g.transform(s, m)));
            }
            // Closure: the composition of any two maps is in the group.
            for t in 0..n {
                let composed: Vec<u8> = (0..g.points())
                    .map(|p| g.symmetries[t][g.symmetries[s][p] as usize])
                    .collect();
                assert!(g.symmetries.contains(&composed));
            }
        }
        // All maps are distinct.
        let mut sorted = g.symmetries.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), n);
    }

    #[test]
    fn nine_board_shape() {
        let g = Geometry::nine();
        assert_eq!(g.points(), 24);
        assert_eq!(g.mills.len(), 16);
        let edges: u32 = g.adjacent.iter().map(|a| a.count_ones()).sum();
        assert_eq!(edges, 64);
        assert_eq!(g.symmetries.len(), 16);
        check_group(&g);
    }

    #[test]
    fn three_board_shape() {
        let g = Geometry::three();
        assert_eq!(g.mills.len(), 8);
        let b2 = g.point("b2").unwrap() as usize;
        assert_eq!(g.adjacent[b2].count_ones(), 8);
        let a1 = g.point("a1").unwrap() as usize;
        assert_eq!(g.adjacent[a1].count_ones(), 3);
        let b1 = g.point("b1").unwrap() as usize;
        assert_eq!(g.adjacent[b1].count_ones(), 3);
        assert_eq!(g.symmetries.len(), 8);
        check_group(&g);
    }
}
