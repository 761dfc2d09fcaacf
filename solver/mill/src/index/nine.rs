//! The symmetry-reduced index of Nine Men's Morris moving-phase positions.
//!
//! A subspace `(w, b)` holds every position with `w` stones of the side to
//! move and `b` of the opponent. Its slots are
//! `class × C(24 − w, b) + rank`: `class` numbers the orbit of the side to
//! move's stones under the 16 symmetries (orbits in increasing order of their
//! numerically smallest member, the *seed*), and `rank` is the colex rank of
//! the opponent's stones over the `24 − w` points the seed leaves free, after
//! the map that brings the side to move onto its seed. When the seed is
//! fixed by other symmetries too, only the numerically smallest image of the
//! opponent's stones under those maps is a position; the other slots are
//! unused. This is Malom's scheme, so slot numbers coincide with Malom's
//! sector files; waste is 24 % for 3-3 and falls below 1 % from 6 stones on.
//!
//! The tables (one 64 MiB map from every 24-bit pattern to its class and the
//! map onto the seed) are built once, in parallel, on first use.

use crate::games::nine::bits::{transform, FULL, SYMMETRIES};
use crate::index::{rank_over_free, Indexing, MoverSlots, SlideRanks, SlideSlots};
use crate::rules::board::Board;
use crate::rules::geometry::Bits;
pub use crate::tables::keys::Subspace;
use rayon::prelude::*;
use std::ops::ControlFlow;
use std::sync::LazyLock;
use tablebase::binomial::{binomial, colex_unrank, scatter, BINOMIAL};
use tablebase::huge::HugeArray;

/// Number of slots of subspace `sub` in this index (positions plus
/// unused slots): `classes(us) × C(24 − us, them)`.
pub fn size(sub: Subspace) -> u64 {
    classes(sub.us as usize) as u64 * free_ranks(sub)
}

/// Number of patterns of the opponent's stones over the points the side
/// to move leaves free: the rank modulus.
fn free_ranks(sub: Subspace) -> u64 {
    binomial(24 - sub.us as usize, sub.them as usize)
}

struct Tables {
    /// For every pattern: class index << 4 | map onto the seed.
    class_of: HugeArray<u32>,
    /// Seeds of each stone count, in class order.
    seeds: Vec<Vec<Bits>>,
    /// For each seed: bitmask of the maps that fix it (bit 0, the identity,
    /// always set).
    stabilizers: Vec<Vec<u16>>,
}

static TABLES: LazyLock<Tables> = LazyLock::new(build_tables);

fn build_tables() -> Tables {
    // For every pattern, the map to its smallest image.
    let best: Vec<u8> = (0..1u32 << 24)
        .into_par_iter()
        .map(|p| {
            let mut best_op = 0;
            let mut best = p;
            for op in 1..SYMMETRIES {
                let img = transform(op, p);
                if img < best {
                    best = img;
                    best_op = op;
                }
            }
            best_op as u8
        })
        .collect();
    let mut seeds = vec![Vec::new(); 25];
    let mut stabilizers = vec![Vec::new(); 25];
    for p in 0..1u32 << 24 {
        // A seed is its own smallest image: no map makes it smaller.
        if best[p as usize] == 0 {
            let stab = (0..SYMMETRIES)
                .filter(|&op| transform(op, p) == p)
                .fold(0u16, |m, op| m | 1 << op);
            seeds[p.count_ones() as usize].push(p);
            stabilizers[p.count_ones() as usize].push(stab);
        }
    }
    // Class number of every seed, then of every pattern through its seed.
    let mut seed_class = vec![0u32; 1 << 24];
    for list in &seeds {
        for (class, &seed) in list.iter().enumerate() {
            seed_class[seed as usize] = class as u32;
        }
    }
    // On huge pages: every probe looks a random pattern up here.
    let mut class_of = HugeArray::zeroed(1 << 24);
    class_of
        .par_iter_mut()
        .enumerate()
        .for_each(|(p, e): (usize, &mut u32)| {
            let op = best[p] as usize;
            *e = seed_class[transform(op, p as u32) as usize] << 4 | op as u32;
        });
    Tables {
        class_of,
        seeds,
        stabilizers,
    }
}

/// Number of symmetry classes of `stones`-point patterns (Malom's
/// `classes(W)`: 1, 4, 30, 158, 757, 2830, 8774, 22188, 46879, 82880).
pub fn classes(stones: usize) -> usize {
    TABLES.seeds[stones].len()
}

/// Make sure the tables are built (they take about a second).
pub fn warm_up() {
    LazyLock::force(&TABLES);
}

/// The side to move's half of the index computation, done once for many
/// positions that share the side to move's stones (the successors of one
/// position, for instance).
#[derive(Debug, Clone, Copy)]
pub struct Mover {
    seed: Bits,
    op: usize,
    stab: u16,
    base: u64,
    them: u8,
}

impl Mover {
    /// Prepare for positions whose side to move has the stones `us` and
    /// whose opponent has `them` stones.
    #[inline(always)]
    pub fn new(us: Bits, them: u32) -> Mover {
        Mover::from_entry(us, TABLES.class_of[us as usize], them)
    }

    #[inline(always)]
    fn from_entry(us: Bits, entry: u32, them: u32) -> Mover {
        let t = &*TABLES;
        let op = (entry & 15) as usize;
        let class = (entry >> 4) as usize;
        let w = us.count_ones() as usize;
        Mover {
            seed: transform(op, us),
            op,
            stab: t.stabilizers[w][class],
            base: class as u64 * binomial(24 - w, them as usize),
            them: them as u8,
        }
    }

    /// The opponent's stones mapped like the side to move's, then brought to
    /// the smallest image the seed's stabiliser allows.
    #[inline(always)]
    fn canonical_them(&self, them: Bits) -> Bits {
        let mut t = transform(self.op, them);
        if self.stab != 1 {
            let base = t;
            let mut rest = self.stab & !1;
            while rest != 0 {
                let o = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                t = t.min(transform(o, base));
            }
        }
        t
    }

    /// The slot of the position with opponent stones `them` (which must
    /// number as announced to [`Mover::new`]).
    #[inline(always)]
    pub fn index(&self, them: Bits) -> u64 {
        debug_assert_eq!(them.count_ones(), self.them as u32);
        self.base + rank_over_free(self.canonical_them(them), self.seed)
    }
}

impl Mover {
    /// Call `f(p, slot)` for every point `p` of `points` with the slot of
    /// the position whose opponent has the stones `others | 1 << p` (one
    /// more than `others`, as announced to [`Mover::new`]): the successors
    /// of a placement, whose mover is the placer's opponent. The colex rank
    /// of each is derived from the shared part in a few operations instead
    /// of being recomputed (when the seed has no other symmetry). Stops
    /// when `f` breaks.
    #[inline]
    pub fn for_each_added(
        &self,
        others: Bits,
        points: Bits,
        mut f: impl FnMut(usize, u64) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        if self.stab != 1 {
            for p in crate::games::nine::bits::points(points) {
                f(p, self.index(others | 1 << p))?;
            }
            return ControlFlow::Continue(());
        }
        // The shared stones, mapped and compressed onto the free points:
        // c_1 < c_2 < … . With the new stone after the first j of them the
        // rank is Σ_{i ≤ j} C(c_i, i) + C(q, j + 1) + Σ_{i > j} C(c_i, i + 1)
        // = total + d[j] + C(q, j + 1), total = Σ_i C(c_i, i + 1) and
        // d[j] = Σ_{i ≤ j} (C(c_i, i) − C(c_i, i + 1)) (wrapping: the sum
        // is not negative). Sums are kept in registers: the former prefix
        // and suffix arrays, each term read back from the one just stored,
        // were a chain of store-to-load waits (a fifth of the placement
        // pass in perf).
        let t = transform(self.op, others);
        let mut compressed: Bits = 0;
        let mut d = [0u64; 25];
        let (mut diff, mut total) = (0u64, 0u64);
        let mut k = 0;
        let mut rest = t;
        while rest != 0 {
            let point = rest.trailing_zeros();
            rest &= rest - 1;
            let c = (point - (self.seed & ((1u32 << point) - 1)).count_ones()) as usize;
            compressed |= 1 << c;
            k += 1;
            let (low, high) = (BINOMIAL[c][k], BINOMIAL[c][k + 1]);
            diff = diff.wrapping_add(low).wrapping_sub(high);
            total += high;
            d[k] = diff;
        }
        let base = self.base + total;
        let image = &POINT_IMAGE[self.op];
        for p in crate::games::nine::bits::points(points) {
            let point = image[p] as u32;
            let q = point - (self.seed & ((1u32 << point) - 1)).count_ones();
            let j = (compressed & ((1u32 << q) - 1)).count_ones() as usize;
            f(p, base.wrapping_add(d[j]) + BINOMIAL[q as usize][j + 1])?;
        }
        ControlFlow::Continue(())
    }
}

/// The slots of the positions one stone move away from a pattern: the
/// successors of a moving-phase position without removal, whose next mover
/// is the position's opponent and whose opponent is the moved stones. With
/// the colex rank's terms summed once per pattern ([`SlideRanks`]), each
/// move's slot takes a few operations instead of a rank over every stone.
#[derive(Debug, Clone, Copy)]
pub struct Slides {
    mover: Mover,
    stones: Bits,
    ranks: SlideRanks,
}

impl Mover {
    /// Prepare [`Slides::index`] for the patterns one stone move away from
    /// `stones` (which number as announced to [`Mover::new`]).
    #[inline(always)]
    pub fn slides(&self, stones: Bits) -> Slides {
        Slides {
            mover: *self,
            stones,
            ranks: if self.stab == 1 {
                SlideRanks::new(transform(self.op, stones), self.seed)
            } else {
                SlideRanks::default()
            },
        }
    }
}

impl Slides {
    /// The slot of the position whose opponent has the stones with the one
    /// on `from` moved to the empty point `to`.
    #[inline(always)]
    pub fn index(&self, from: usize, to: usize) -> u64 {
        let m = &self.mover;
        if m.stab != 1 {
            return m.index(self.stones ^ (1 << from) ^ (1 << to));
        }
        let image = &POINT_IMAGE[m.op];
        m.base + self.ranks.rank(image[from] as u32, image[to] as u32)
    }
}

/// The image of every point under every symmetry.
static POINT_IMAGE: LazyLock<[[u8; 24]; SYMMETRIES]> = LazyLock::new(|| {
    std::array::from_fn(|op| std::array::from_fn(|p| transform(op, 1 << p).trailing_zeros() as u8))
});

/// Ask for the class-table entry of `stones` ahead of a [`Mover::new`] of
/// it (the table is 64 MiB: a random lookup misses the cache).
#[inline(always)]
pub fn prefetch_class(stones: Bits) {
    tablebase::huge::prefetch(&TABLES.class_of[stones as usize]);
}

/// Number of positions (used slots) of a subspace, counted without
/// visiting the slots of seeds that only the identity fixes.
pub fn positions(sub: Subspace) -> u64 {
    let t = &*TABLES;
    let free = free_ranks(sub);
    t.stabilizers[sub.us as usize]
        .par_iter()
        .enumerate()
        .map(|(class, &stab)| {
            if stab == 1 {
                free
            } else {
                let start = class as u64 * free;
                (start..start + free)
                    .filter(|&slot| position(sub, slot).is_some())
                    .count() as u64
            }
        })
        .sum()
}

/// Call `f` with the slot of `(us, them)` for every `us` in `movers` (all
/// of one stone count). The class-table lookups, which miss the cache, are
/// issued together first so that they overlap.
#[inline]
pub fn for_each_index(movers: &[Bits], them: Bits, mut f: impl FnMut(u64)) {
    let t = &*TABLES;
    let mut entries = [0u32; 64];
    let n = them.count_ones();
    for chunk in movers.chunks(64) {
        for (e, &us) in entries.iter_mut().zip(chunk) {
            *e = t.class_of[us as usize];
        }
        for (&e, &us) in entries.iter().zip(chunk) {
            f(Mover::from_entry(us, e, n).index(them));
        }
    }
}

/// The canonical form of a moving-phase position `(us, them)`: the image
/// under the 16 symmetries that the index stores.
pub fn canonical(us: Bits, them: Bits) -> (Bits, Bits) {
    let m = Mover::new(us, them.count_ones());
    (m.seed, m.canonical_them(them))
}

/// The slot of a position in its subspace ([`Subspace::of`]).
#[inline]
pub fn index(us: Bits, them: Bits) -> u64 {
    Mover::new(us, them.count_ones()).index(them)
}

/// The position stored in `slot` of `sub`, or `None` for an unused slot
/// (or a slot beyond the subspace).
#[inline]
pub fn position(sub: Subspace, slot: u64) -> Option<(Bits, Bits)> {
    let t = &*TABLES;
    let modulus = free_ranks(sub);
    let class = (slot / modulus) as usize;
    let seeds = &t.seeds[sub.us as usize];
    if class >= seeds.len() {
        return None;
    }
    let seed = seeds[class];
    let them = scatter(
        colex_unrank(slot % modulus, sub.them as usize),
        !seed & FULL,
    );
    let stab = t.stabilizers[sub.us as usize][class];
    smallest_under(stab, them).then_some((seed, them))
}

/// Is `them` the smallest of its images under the maps of `stab` (a
/// seed's stabiliser, see [`seeds`])? Only then is the position
/// of that seed and `them` stored; the other images' slots are unused.
#[inline(always)]
pub fn smallest_under(stab: u16, them: Bits) -> bool {
    let mut rest = stab & !1;
    while rest != 0 {
        let o = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        if transform(o, them) < them {
            return false;
        }
    }
    true
}

/// The seeds of `stones` points in class order (increasing), and for each
/// the bitmask of the maps that fix it (bit 0, the identity, always set):
/// for passes that visit every seed, such as the placement pass's scan for
/// those on the points an opponent pattern leaves free.
pub fn seeds(stones: usize) -> (&'static [Bits], &'static [u16]) {
    let t = &*TABLES;
    (&t.seeds[stones], &t.stabilizers[stones])
}

/// Call `f(slot, us, them)` for every used slot of `range` in `sub`, in
/// order: [`position`] for a run of slots, stepping from one opponent
/// pattern to the next (Gosper's next subset, the colex successor) instead
/// of decoding every slot.
pub fn for_each_position(
    sub: Subspace,
    range: std::ops::Range<u64>,
    mut f: impl FnMut(u64, Bits, Bits),
) {
    let t = &*TABLES;
    let modulus = free_ranks(sub);
    let seeds = &t.seeds[sub.us as usize];
    let end = range.end.min(seeds.len() as u64 * modulus);
    let mut slot = range.start;
    while slot < end {
        let class = (slot / modulus) as usize;
        let seed = seeds[class];
        let stab = t.stabilizers[sub.us as usize][class];
        let free = !seed & FULL;
        let class_end = end.min((class as u64 + 1) * modulus);
        let mut x = colex_unrank(slot % modulus, sub.them as usize);
        loop {
            let them = scatter(x, free);
            if stab == 1 || smallest_under(stab, them) {
                f(slot, seed, them);
            }
            slot += 1;
            if slot >= class_end {
                break;
            }
            // The next k-subset in numeric (= colex) order.
            let c = x | (x - 1);
            x = (c + 1) | (((!c & (c + 1)) - 1) >> (x.trailing_zeros() + 1));
        }
    }
}

/// The index of this module as an [`Indexing`]: the symmetry-reduced
/// index of the Nine Men's Morris board, with its constant maps, huge pages
/// and batched lookups — the hand-tuned instance of
/// [`Symmetric`](crate::index::symmetric::Symmetric) (the same slots,
/// tested), for every game on that board (Nine Men's Morris, with or
/// without flying, and its reduced games). `B` must be a board with Nine's
/// points and symmetries ([`crate::rules::board::Nine`]).
#[derive(Debug, Clone, Copy, Default)]
pub struct NineIndex;

impl MoverSlots for Mover {
    type Slides = Slides;
    #[inline(always)]
    fn for_each_added(
        &self,
        others: Bits,
        points: Bits,
        f: impl FnMut(usize, u64) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        Mover::for_each_added(self, others, points, f)
    }
    #[inline(always)]
    fn index(&self, them: Bits) -> u64 {
        Mover::index(self, them)
    }
    #[inline(always)]
    fn slides(&self, stones: Bits) -> Slides {
        Mover::slides(self, stones)
    }
}

impl SlideSlots for Slides {
    #[inline(always)]
    fn index(&self, from: usize, to: usize) -> u64 {
        Slides::index(self, from, to)
    }
}

impl Indexing for NineIndex {
    type Mover<B: Board> = Mover;
    fn seeds<B: Board>(stones: usize) -> (Vec<Bits>, Vec<u16>) {
        let (seeds, stabilizers) = seeds(stones);
        (seeds.to_vec(), stabilizers.to_vec())
    }
    /// The maps numbered as [`crate::games::nine::bits`] numbers them
    /// (whatever the board's own numbering: Morabaraba's is its geometry's).
    #[inline(always)]
    fn smallest_under<B: Board>(stab: u16, them: Bits) -> bool {
        smallest_under(stab, them)
    }
    #[inline]
    fn size<B: Board>(sub: Subspace) -> u64 {
        size(sub)
    }
    #[inline]
    fn slot<B: Board>(us: Bits, them: Bits) -> u64 {
        index(us, them)
    }
    #[inline]
    fn position<B: Board>(sub: Subspace, slot: u64) -> Option<(Bits, Bits)> {
        position(sub, slot)
    }
    fn positions<B: Board>(sub: Subspace) -> u64 {
        positions(sub)
    }
    fn warm_up<B: Board>() {
        warm_up()
    }
    #[inline(always)]
    fn mover<B: Board>(us: Bits, them: u32) -> Mover {
        Mover::new(us, them)
    }
    #[inline(always)]
    fn prefetch_mover<B: Board>(us: Bits) {
        prefetch_class(us)
    }
    #[inline(always)]
    fn for_each_position<B: Board>(
        sub: Subspace,
        range: std::ops::Range<u64>,
        f: impl FnMut(u64, Bits, Bits),
    ) {
        for_each_position(sub, range, f)
    }
    #[inline(always)]
    fn for_each_slot<B: Board>(movers: &[Bits], them: Bits, f: impl FnMut(u64)) {
        for_each_index(movers, them, f)
    }
}

#[cfg(test)]
mod tests;
