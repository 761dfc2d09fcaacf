//! Board geometry as data: point names, edges, mills and the symmetry group
//! of every board of the mill family (Nine Men's Morris, Six Men's Morris,
//! Morabaraba) and of Three Men's Morris.
//!
//! A board is a set of at most 32 points, each a bit of a `u32` bitboard,
//! with its edges (which points a stone slides between) and its mills. The
//! symmetry group is not written down: it is computed as the automorphisms
//! of the board, the point permutations that map edges onto edges and mills
//! onto mills ([`automorphisms`]). The hot paths use tables built from this
//! data ([`crate::rules::board`]); Nine Men's Morris keeps the constant tables of
//! [`crate::games::nine::bits`], which are tested against these.

/// A bitboard: one bit per point.
pub type Bits = u32;

/// Iterate over the set bits of a bitboard as point indices.
#[inline(always)]
pub fn points(mut bits: Bits) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if bits == 0 {
            None
        } else {
            let p = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            Some(p)
        }
    })
}

/// Everything that describes a morris board.
#[derive(Debug, Clone)]
pub struct Geometry {
    /// Name of the board ("nine" or "three").
    pub name: &'static str,
    /// Point names by bit index.
    pub names: Vec<&'static str>,
    /// Bit index of each character of the text format, in reading order.
    pub reading_order: Vec<u8>,
    /// Adjacent points of each point, as a bitboard (the edges).
    pub adjacent: Vec<Bits>,
    /// Every mill (line of three) as a bitboard.
    pub mills: Vec<Bits>,
    /// The symmetry group as point permutations: `symmetries[s][p]` is the
    /// image of point `p` under symmetry `s`; entry 0 is the identity. For
    /// the mill family's boards these are the computed [`automorphisms`].
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

/// The 16 mills of Nine Men's Morris, as listed in `docs/rules.md`.
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

/// The 32 edges of the Nine Men's Morris board (drawing of `docs/rules.md`).
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

/// Six Men's Morris point names by bit: bit = 8 × square + k, square 0
/// outer, 1 inner; k = 0 is the square's left midpoint, then clockwise (the
/// layout of Nine Men's Morris without its middle square).
pub const SIX_NAMES: [&str; 16] = [
    "a3", "a5", "c5", "e5", "e3", "e1", "c1", "a1", //
    "b3", "b4", "c4", "d4", "d3", "d2", "c2", "b2",
];

/// Six Men's Morris points in reading order (top row first).
pub const SIX_READING: [&str; 16] = [
    "a5", "c5", "e5", "b4", "c4", "d4", "a3", "b3", "d3", "e3", "b2", "c2", "d2", "a1", "c1", "e1",
];

/// The 8 mills of Six Men's Morris (the sides of the two squares, `docs/rules.md`).
pub const SIX_MILLS: [[&str; 3]; 8] = [
    ["a5", "c5", "e5"],
    ["e5", "e3", "e1"],
    ["e1", "c1", "a1"],
    ["a1", "a3", "a5"],
    ["b4", "c4", "d4"],
    ["d4", "d3", "d2"],
    ["d2", "c2", "b2"],
    ["b2", "b3", "b4"],
];

/// The 20 edges of the Six Men's Morris board: the two squares and the four
/// spokes a3-b3, c5-c4, e3-d3, c1-c2.
pub const SIX_EDGES: [[&str; 2]; 20] = [
    ["a5", "c5"],
    ["c5", "e5"],
    ["e5", "e3"],
    ["e3", "e1"],
    ["e1", "c1"],
    ["c1", "a1"],
    ["a1", "a3"],
    ["a3", "a5"],
    ["b4", "c4"],
    ["c4", "d4"],
    ["d4", "d3"],
    ["d3", "d2"],
    ["d2", "c2"],
    ["c2", "b2"],
    ["b2", "b3"],
    ["b3", "b4"],
    ["a3", "b3"],
    ["c5", "c4"],
    ["e3", "d3"],
    ["c1", "c2"],
];

/// The four diagonal lines Morabaraba adds to the Nine Men's Morris board:
/// each is a mill, and its consecutive points are adjacent.
pub const MORABARABA_DIAGONALS: [[&str; 3]; 4] = [
    ["a7", "b6", "c5"],
    ["g7", "f6", "e5"],
    ["g1", "f2", "e3"],
    ["a1", "b2", "c3"],
];

impl Geometry {
    /// A board from its point names (by bit), its reading order (the order
    /// of the points in the text format and the ASCII picture), its edges
    /// and its mills; the symmetry group is computed. This is all a new
    /// board of the family needs (see [`crate::data_board`]).
    pub fn from_lists(
        name: &'static str,
        names: &[&'static str],
        reading: &[&'static str],
        edges: &[[&str; 2]],
        mills: &[[&str; 3]],
    ) -> Geometry {
        from_lists(name, names, reading, edges, mills)
    }
}

/// Build a board from its point names (by bit), reading order, edges and
/// mills; the symmetry group is computed ([`automorphisms`]).
fn from_lists(
    name: &'static str,
    names: &[&'static str],
    reading: &[&'static str],
    edges: &[[&str; 2]],
    mills: &[[&str; 3]],
) -> Geometry {
    let names: Vec<&'static str> = names.to_vec();
    let index = |n: &str| {
        names
            .iter()
            .position(|m| *m == n)
            .expect("board lists name only the board's points") as u8
    };
    let mut adjacent = vec![0; names.len()];
    for [a, b] in edges {
        adjacent[index(a) as usize] |= 1 << index(b);
        adjacent[index(b) as usize] |= 1 << index(a);
    }
    let mills: Vec<Bits> = mills
        .iter()
        .map(|m| m.iter().fold(0, |acc, n| acc | 1 << index(n)))
        .collect();
    let symmetries = automorphisms(&adjacent, &mills);
    Geometry {
        name,
        reading_order: reading.iter().map(|n| index(n)).collect(),
        names,
        adjacent,
        mills,
        symmetries,
    }
}

/// Every automorphism of a board: the permutations `σ` of its points such
/// that `p`–`q` is an edge exactly when `σ(p)`–`σ(q)` is one, and the image
/// of every mill is a mill. Found by backtracking over the points in
/// breadth-first order (each point after the first of its component is
/// adjacent to one already mapped, which leaves few candidates), in
/// lexicographic order of the images: entry 0 is the identity.
pub fn automorphisms(adjacent: &[Bits], mills: &[Bits]) -> Vec<Vec<u8>> {
    let n = adjacent.len();
    let mut order: Vec<usize> = Vec::with_capacity(n);
    let mut seen: Bits = 0;
    for root in 0..n {
        if seen >> root & 1 == 1 {
            continue;
        }
        seen |= 1 << root;
        let first = order.len();
        order.push(root);
        let mut i = first;
        while i < order.len() {
            let p = order[i];
            for q in 0..n {
                if adjacent[p] >> q & 1 == 1 && seen >> q & 1 == 0 {
                    seen |= 1 << q;
                    order.push(q);
                }
            }
            i += 1;
        }
    }
    let mut sorted_mills = mills.to_vec();
    sorted_mills.sort_unstable();
    let mills_at = |p: usize| mills.iter().filter(|&&m| m >> p & 1 == 1).count();
    let search = Search {
        adjacent,
        mills: &sorted_mills,
        order: &order,
        degree: (0..n).map(|p| adjacent[p].count_ones()).collect(),
        mill_count: (0..n).map(mills_at).collect(),
    };
    let mut image = vec![u8::MAX; n];
    let mut found = Vec::new();
    search.extend(0, 0, &mut image, &mut found);
    found.sort();
    found
}

/// The state of the automorphism search of [`automorphisms`].
struct Search<'a> {
    adjacent: &'a [Bits],
    mills: &'a [Bits],
    order: &'a [usize],
    degree: Vec<u32>,
    mill_count: Vec<usize>,
}

impl Search<'_> {
    /// Map `order[i]` to every candidate consistent with the points mapped
    /// so far (`used` holds their images) and recurse.
    fn extend(&self, i: usize, used: Bits, image: &mut [u8], found: &mut Vec<Vec<u8>>) {
        if i == self.order.len() {
            found.push(image.to_vec());
            return;
        }
        let p = self.order[i];
        let n = self.adjacent.len();
        for c in 0..n {
            if used >> c & 1 == 1
                || self.degree[c] != self.degree[p]
                || self.mill_count[c] != self.mill_count[p]
            {
                continue;
            }
            // Edges to the points already mapped are kept, non-edges too.
            let consistent = self.order[..i].iter().all(|&q| {
                let edge = self.adjacent[p] >> q & 1 == 1;
                edge == (self.adjacent[c] >> image[q] & 1 == 1)
            });
            if !consistent {
                continue;
            }
            image[p] = c as u8;
            let mapped: Bits = self.order[..=i].iter().fold(0, |acc, &q| acc | 1 << q);
            // Every mill through p whose points are all mapped goes onto a mill.
            let mills_kept = self
                .mills
                .iter()
                .filter(|&&m| m >> p & 1 == 1 && m & mapped == m)
                .all(|&m| {
                    let img = (0..n)
                        .filter(|&q| m >> q & 1 == 1)
                        .fold(0, |acc: Bits, q| acc | 1 << image[q]);
                    self.mills.binary_search(&img).is_ok()
                });
            if mills_kept {
                self.extend(i + 1, used | 1 << c, image, found);
            }
            image[p] = u8::MAX;
        }
    }
}

impl Geometry {
    /// The Nine Men's Morris board: 24 points, 32 edges, 16 mills, 16
    /// symmetries (computed).
    pub fn nine() -> Geometry {
        from_lists("nine", &NINE_NAMES, &NINE_READING, &NINE_EDGES, &NINE_MILLS)
    }

    /// The Six Men's Morris board: 16 points, 20 edges, 8 mills, 16
    /// symmetries (computed).
    pub fn six() -> Geometry {
        from_lists("six", &SIX_NAMES, &SIX_READING, &SIX_EDGES, &SIX_MILLS)
    }

    /// The Morabaraba board: the Nine Men's Morris board plus four diagonal
    /// lines (edges and mills): 24 points, 40 edges, 20 mills, 16
    /// symmetries (computed).
    pub fn morabaraba() -> Geometry {
        let mut edges = NINE_EDGES.to_vec();
        let mut mills = NINE_MILLS.to_vec();
        for [a, b, c] in MORABARABA_DIAGONALS {
            edges.push([a, b]);
            edges.push([b, c]);
            mills.push([a, b, c]);
        }
        from_lists("morabaraba", &NINE_NAMES, &NINE_READING, &edges, &mills)
    }

    /// The board of a family variant by name (`"nine"`, `"six"`,
    /// `"morabaraba"`, `"three"`).
    pub fn by_name(name: &str) -> Option<Geometry> {
        match name {
            "nine" => Some(Geometry::nine()),
            "six" => Some(Geometry::six()),
            "morabaraba" => Some(Geometry::morabaraba()),
            "three" => Some(Geometry::three()),
            _ => None,
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
        // All maps are distinct, and the first is the identity.
        let mut sorted = g.symmetries.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), n);
        assert!(g.symmetries[0]
            .iter()
            .enumerate()
            .all(|(p, &i)| p == i as usize));
    }

    /// Lengths of the cycles of a permutation.
    fn cycles(perm: &[u8]) -> Vec<usize> {
        let mut seen = vec![false; perm.len()];
        let mut out = Vec::new();
        for start in 0..perm.len() {
            let mut len = 0;
            let mut p = start;
            while !seen[p] {
                seen[p] = true;
                p = perm[p] as usize;
                len += 1;
            }
            if len > 0 {
                out.push(len);
            }
        }
        out
    }

    /// Burnside's lemma: the number of classes of positions with `w` white
    /// and `b` black stones is the average over the group of the positions
    /// each map fixes; a fixed position colours whole cycles, so that count
    /// is a sum over the ways to give each cycle white, black or nothing.
    fn burnside(g: &Geometry, w: usize, b: usize) -> u64 {
        let total: u64 = g
            .symmetries
            .iter()
            .map(|perm| {
                // ways[i][j]: colourings of the cycles so far with i white, j black points.
                let mut ways = vec![vec![0u64; b + 1]; w + 1];
                ways[0][0] = 1;
                for len in cycles(perm) {
                    let mut next = ways.clone();
                    for i in 0..=w {
                        for j in 0..=b {
                            if i >= len {
                                next[i][j] += ways[i - len][j];
                            }
                            if j >= len {
                                next[i][j] += ways[i][j - len];
                            }
                        }
                    }
                    ways = next;
                }
                ways[w][b]
            })
            .sum();
        assert_eq!(total % g.symmetries.len() as u64, 0);
        total / g.symmetries.len() as u64
    }

    /// The same count by brute force: every position with `w` white and `b`
    /// black stones that is the smallest of its images is one class.
    fn brute_classes(g: &Geometry, w: usize, b: usize) -> u64 {
        let n = g.points();
        // Every k-subset of the points, in increasing order (Gosper's hack).
        let subsets = |k: usize| -> Vec<Bits> {
            let mut out = Vec::new();
            let mut x: u64 = (1 << k) - 1;
            while x < 1 << n {
                out.push(x as Bits);
                if x == 0 {
                    break;
                }
                let c = x & x.wrapping_neg();
                let r = x + c;
                x = (((r ^ x) >> 2) / c) | r;
            }
            out
        };
        let mut count = 0;
        for &white in &subsets(w) {
            for &black in &subsets(b) {
                if white & black != 0 {
                    continue;
                }
                let smallest = (1..g.symmetries.len())
                    .all(|s| (g.transform(s, white), g.transform(s, black)) >= (white, black));
                count += smallest as u64;
            }
        }
        count
    }

    /// The symmetries of a square grid of odd side `size` with the swap of
    /// the squares at distances `d` and `size / 2 + 1 − d` from the centre,
    /// as point permutations: the board's group built from the geometry of
    /// the drawing instead of its edges and mills.
    fn drawn_group(g: &Geometry, size: i32) -> Vec<Vec<u8>> {
        let c = size / 2;
        let mut out = Vec::new();
        for swap in [false, true] {
            for map in square_maps(size) {
                out.push(permutation(&g.names, |name| {
                    let (x, y) = coords(name);
                    let (x, y) = if swap {
                        let (dx, dy) = (x - c, y - c);
                        let d = dx.abs().max(dy.abs());
                        let nd = c + 1 - d;
                        (c + dx.signum() * nd, c + dy.signum() * nd)
                    } else {
                        (x, y)
                    };
                    let (x, y) = map(x, y);
                    name_of(x, y)
                }));
            }
        }
        out.sort();
        out
    }

    #[test]
    fn six_board_shape() {
        let g = Geometry::six();
        assert_eq!(g.points(), 16);
        assert_eq!(g.mills.len(), 8);
        let edges: u32 = g.adjacent.iter().map(|a| a.count_ones()).sum();
        assert_eq!(edges, 40);
        // docs/rules.md: 16 automorphisms, the square's 8 with or without
        // swapping the squares; they are the drawing's symmetries.
        assert_eq!(g.symmetries.len(), 16);
        check_group(&g);
        assert_eq!(g.symmetries, drawn_group(&g, 5));
    }

    #[test]
    fn morabaraba_board_shape() {
        let g = Geometry::morabaraba();
        assert_eq!(g.points(), 24);
        assert_eq!(g.mills.len(), 20);
        let edges: u32 = g.adjacent.iter().map(|a| a.count_ones()).sum();
        assert_eq!(edges, 80);
        check_group(&g);
        // docs/rules.md: the same 16 automorphisms as Nine Men's Morris.
        assert_eq!(g.symmetries, Geometry::nine().symmetries);
    }

    #[test]
    fn nine_group_is_the_drawings() {
        let g = Geometry::nine();
        assert_eq!(g.symmetries, drawn_group(&g, 7));
    }

    #[test]
    fn burnside_counts_the_classes() {
        // Six Men's Morris: every position with up to 3 stones a side by brute force.
        let six = Geometry::six();
        for w in 0..=3 {
            for b in 0..=3 {
                assert_eq!(
                    burnside(&six, w, b),
                    brute_classes(&six, w, b),
                    "six {w}-{b}"
                );
            }
        }
        // The boards with 24 points: one-colour patterns of up to 3 stones.
        for g in [Geometry::nine(), Geometry::morabaraba()] {
            for k in 0..=3 {
                assert_eq!(
                    burnside(&g, k, 0),
                    brute_classes(&g, k, 0),
                    "{} {k}",
                    g.name
                );
            }
        }
        // Malom's published class counts of k-stone patterns on the Nine
        // Men's Morris board (`classes(W)`), k = 0..=9.
        let malom = [1, 4, 30, 158, 757, 2830, 8774, 22188, 46879, 82880];
        let nine = Geometry::nine();
        for (k, &count) in malom.iter().enumerate() {
            assert_eq!(burnside(&nine, k, 0), count, "nine {k}");
        }
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
