//! The symmetry-reduced index of moving-phase positions on any board of the
//! family ([`Board`]): the scheme of Nine Men's Morris
//! ([`crate::index::nine`]) with the board's own symmetry group, so that a
//! subspace of Morabaraba (24 points, 16 symmetries) takes a sixteenth of
//! the slots of the dense index ([`crate::index`]).
//!
//! A subspace `(w, b)` has the slots `class × C(P − w, b) + rank`: `class`
//! numbers the orbit of the side to move's stones under the board's
//! symmetries (orbits in increasing order of their numerically smallest
//! member, the *seed*), `rank` is the colex rank of the opponent's stones
//! over the `P − w` points the seed leaves free, after the map that brings
//! the side to move onto its seed. When other maps fix the seed too, only
//! the numerically smallest image of the opponent's stones under them is a
//! position; the other slots are unused.
//!
//! Nine Men's Morris has its own instance of the same index
//! ([`crate::index::nine::NineIndex`]: constant maps, huge pages, batched
//! lookups, a measured hot path). This one is built from [`Board::transform`]
//! and is the same function on the same group: on the Nine board it numbers
//! every slot as [`crate::index::nine`] does (tested), which is how it is
//! checked against an index that has solved the whole standard game.
//!
//! The tables (a map from each of the `2^P` patterns to its class and to the
//! map onto its seed: 64 MiB on 24 points) are built once per board, in
//! parallel, on first use (about a second on 24 points).

use crate::index::{rank_over_free, SlideRanks};
use crate::index::{Indexing, MoverSlots, SlideSlots};
use crate::rules::board::Board;
use crate::rules::geometry::Bits;
use crate::tables::keys::Subspace;
use rayon::prelude::*;
use std::any::TypeId;
use std::marker::PhantomData;
use std::sync::{OnceLock, RwLock};
use tablebase::binomial::{binomial, colex_unrank, scatter};
use tablebase::huge::HugeArray;

/// The class tables of one board.
struct Tables {
    /// For every pattern: class index << 4 | map onto the seed.
    class_of: HugeArray<u32>,
    /// Seeds of each stone count, in class order.
    seeds: Vec<Vec<Seed>>,
    /// The image of every point under every map.
    point_image: Vec<[u8; 24]>,
}

impl Tables {
    fn build<B: Board>() -> Tables {
        assert!(B::SYMMETRIES <= 16, "at most 16 symmetries");
        assert!(B::POINTS <= 24, "at most 24 points");
        let patterns = 1u32 << B::POINTS;
        // For every pattern, the map to its smallest image.
        let best: Vec<u8> = (0..patterns)
            .into_par_iter()
            .map(|p| {
                let (mut best_op, mut best) = (0, p);
                for op in 1..B::SYMMETRIES {
                    let img = B::transform(op, p);
                    if img < best {
                        best = img;
                        best_op = op;
                    }
                }
                best_op as u8
            })
            .collect();
        let mut seeds = vec![Vec::new(); B::POINTS + 1];
        let mut seed_class = vec![0u32; patterns as usize];
        for p in 0..patterns {
            // A seed is its own smallest image.
            if best[p as usize] == 0 {
                let w = p.count_ones() as usize;
                let stab = (0..B::SYMMETRIES)
                    .filter(|&op| B::transform(op, p) == p)
                    .fold(0u16, |m, op| m | 1 << op);
                seed_class[p as usize] = seeds[w].len() as u32;
                seeds[w].push(Seed { bits: p, stab });
            }
        }
        // On huge pages, as Nine's: every slot of a removal or a
        // predecessor looks a random pattern up here, and on 4 KiB pages
        // the lookup misses the TLB as well as the cache.
        let mut class_of = HugeArray::zeroed(patterns as usize);
        class_of
            .par_iter_mut()
            .enumerate()
            .for_each(|(p, e): (usize, &mut u32)| {
                let op = best[p] as u32;
                *e = seed_class[B::transform(op as usize, p as u32) as usize] << 4 | op;
            });
        let point_image = (0..B::SYMMETRIES)
            .map(|op| {
                std::array::from_fn(|p| {
                    if p < B::POINTS {
                        B::transform(op, 1 << p).trailing_zeros() as u8
                    } else {
                        0
                    }
                })
            })
            .collect();
        Tables {
            class_of,
            seeds,
            point_image,
        }
    }
}

/// The smallest pattern of a class, with the maps that fix it (a bitmask:
/// bit 0, the identity, always set); side by side, so that a slot's lookup
/// of both misses the cache once.
#[derive(Debug, Clone, Copy)]
struct Seed {
    bits: Bits,
    stab: u16,
}

/// The tables of board `B`, built on first use: the boards of this crate
/// each have a cell of their own (the lookup is on every slot's path); any
/// other board (one defined as data, see [`crate::data_board`]) is found
/// by its type in a list of leaked tables, built once.
fn tables<B: Board>() -> &'static Tables {
    static NINE: OnceLock<Tables> = OnceLock::new();
    static SIX: OnceLock<Tables> = OnceLock::new();
    static MORABARABA: OnceLock<Tables> = OnceLock::new();
    static OTHERS: RwLock<Vec<(TypeId, &'static Tables)>> = RwLock::new(Vec::new());
    let cell = match B::NAME {
        "nine" => &NINE,
        "six" => &SIX,
        "morabaraba" => &MORABARABA,
        _ => {
            let id = TypeId::of::<B>();
            let find = |list: &[(TypeId, &'static Tables)]| {
                list.iter().find(|(k, _)| *k == id).map(|(_, t)| *t)
            };
            if let Some(t) = find(&OTHERS.read().unwrap_or_else(|e| e.into_inner())) {
                return t;
            }
            let mut list = OTHERS.write().unwrap_or_else(|e| e.into_inner());
            if let Some(t) = find(&list) {
                return t;
            }
            let t: &'static Tables = Box::leak(Box::new(Tables::build::<B>()));
            list.push((id, t));
            return t;
        }
    };
    cell.get_or_init(Tables::build::<B>)
}

/// Build the tables of board `B` now (about a second on 24 points).
pub fn warm_up<B: Board>() {
    tables::<B>();
}

/// Number of symmetry classes of `stones`-point patterns on board `B`.
pub fn classes<B: Board>(stones: usize) -> usize {
    tables::<B>().seeds[stones].len()
}

/// Number of slots of subspace `sub` (positions plus unused slots).
pub fn size<B: Board>(sub: Subspace) -> u64 {
    classes::<B>(sub.us as usize) as u64 * binomial(B::POINTS - sub.us as usize, sub.them as usize)
}

/// The opponent's stones mapped by `op` (the map bringing the side to move
/// onto its seed), then brought to the smallest image the seed's
/// stabiliser allows.
#[inline]
fn canonical_them<B: Board>(op: usize, stab: u16, them: Bits) -> Bits {
    let base = B::transform(op, them);
    let mut t = base;
    let mut rest = stab & !1;
    while rest != 0 {
        let o = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        t = t.min(B::transform(o, base));
    }
    t
}

/// The canonical form of `(us, them)`: the image under the board's
/// symmetries that the index stores.
pub fn canonical<B: Board>(us: Bits, them: Bits) -> (Bits, Bits) {
    let t = tables::<B>();
    let entry = t.class_of[us as usize];
    let (op, class) = ((entry & 15) as usize, (entry >> 4) as usize);
    let stab = t.seeds[us.count_ones() as usize][class].stab;
    (B::transform(op, us), canonical_them::<B>(op, stab, them))
}

/// The slot of `(us, them)` (of any symmetric image) in its subspace
/// ([`Subspace::of`]).
#[inline]
pub fn slot<B: Board>(us: Bits, them: Bits) -> u64 {
    Mover::<B>::new(us, them.count_ones()).index(them)
}

/// The side to move's half of a slot: its class, its seed and the map onto
/// it, shared by every position with the same side to move.
#[derive(Debug, Clone, Copy)]
pub struct Mover<B: Board> {
    seed: Bits,
    op: usize,
    stab: u16,
    base: u64,
    point_image: &'static [u8; 24],
    board: PhantomData<B>,
}

impl<B: Board> Mover<B> {
    /// Prepare for positions whose side to move has the stones `us` and
    /// whose opponent has `them` stones.
    #[inline(always)]
    pub fn new(us: Bits, them: u32) -> Mover<B> {
        let t = tables::<B>();
        let entry = t.class_of[us as usize];
        let (op, class) = ((entry & 15) as usize, (entry >> 4) as usize);
        let w = us.count_ones() as usize;
        Mover {
            seed: t.seeds[w][class].bits,
            op,
            stab: t.seeds[w][class].stab,
            base: class as u64 * binomial(B::POINTS - w, them as usize),
            point_image: &t.point_image[op],
            board: PhantomData,
        }
    }
}

impl<B: Board> MoverSlots for Mover<B> {
    type Slides = Slides<B>;

    #[inline]
    fn index(&self, them: Bits) -> u64 {
        let them_c = canonical_them::<B>(self.op, self.stab, them);
        // One step per stone, not per free point (the software gather over
        // every free point was a third of the slot's time).
        self.base + rank_over_free(them_c, self.seed)
    }

    #[inline]
    fn slides(&self, stones: Bits) -> Slides<B> {
        Slides {
            mover: *self,
            stones,
            ranks: if self.stab == 1 {
                SlideRanks::new(B::transform(self.op, stones), self.seed)
            } else {
                SlideRanks::default()
            },
        }
    }
}

/// The slots of the patterns one stone move away from one pattern: the
/// colex rank's terms summed once ([`SlideRanks`]), as Nine Men's Morris's
/// [`crate::index::nine::Slides`] does; a seed that other maps fix ranks
/// each pattern afresh.
#[derive(Debug, Clone, Copy)]
pub struct Slides<B: Board> {
    mover: Mover<B>,
    stones: Bits,
    ranks: SlideRanks,
}

impl<B: Board> SlideSlots for Slides<B> {
    #[inline]
    fn index(&self, from: usize, to: usize) -> u64 {
        let m = &self.mover;
        if m.stab != 1 {
            return m.index(self.stones ^ (1 << from) ^ (1 << to));
        }
        m.base
            + self
                .ranks
                .rank(m.point_image[from] as u32, m.point_image[to] as u32)
    }
}

/// The position stored in `slot` of `sub`, or `None` for an unused slot (or
/// a slot beyond the subspace).
#[inline]
pub fn position<B: Board>(sub: Subspace, slot: u64) -> Option<(Bits, Bits)> {
    let t = tables::<B>();
    let modulus = binomial(B::POINTS - sub.us as usize, sub.them as usize);
    let class = (slot / modulus) as usize;
    let seeds = &t.seeds[sub.us as usize];
    let &Seed { bits: seed, stab } = seeds.get(class)?;
    let them = scatter(
        colex_unrank(slot % modulus, sub.them as usize),
        !seed & B::FULL,
    );
    smallest_under::<B>(stab, them).then_some((seed, them))
}

/// Is `them` the smallest of its images under the maps of `stab` (a
/// seed's stabiliser)? Only then is the position of that seed and `them`
/// stored; the other images' slots are unused.
#[inline(always)]
pub(crate) fn smallest_under<B: Board>(stab: u16, them: Bits) -> bool {
    let mut rest = stab & !1;
    while rest != 0 {
        let o = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        if B::transform(o, them) < them {
            return false;
        }
    }
    true
}

/// Number of positions (used slots) of a subspace, counted without
/// visiting the slots of seeds that only the identity fixes.
pub fn positions<B: Board>(sub: Subspace) -> u64 {
    let t = tables::<B>();
    let free = binomial(B::POINTS - sub.us as usize, sub.them as usize);
    t.seeds[sub.us as usize]
        .par_iter()
        .enumerate()
        .map(|(class, seed)| {
            if seed.stab == 1 {
                free
            } else {
                let start = class as u64 * free;
                (start..start + free)
                    .filter(|&s| position::<B>(sub, s).is_some())
                    .count() as u64
            }
        })
        .sum()
}

/// The symmetry-reduced index as an [`Indexing`].
#[derive(Debug, Clone, Copy, Default)]
pub struct Symmetric;

impl Indexing for Symmetric {
    type Mover<B: Board> = Mover<B>;
    fn seeds<B: Board>(stones: usize) -> (Vec<Bits>, Vec<u16>) {
        tables::<B>().seeds[stones]
            .iter()
            .map(|s| (s.bits, s.stab))
            .unzip()
    }
    #[inline(always)]
    fn smallest_under<B: Board>(stab: u16, them: Bits) -> bool {
        smallest_under::<B>(stab, them)
    }
    #[inline]
    fn size<B: Board>(sub: Subspace) -> u64 {
        size::<B>(sub)
    }
    #[inline]
    fn slot<B: Board>(us: Bits, them: Bits) -> u64 {
        slot::<B>(us, them)
    }
    #[inline]
    fn position<B: Board>(sub: Subspace, slot: u64) -> Option<(Bits, Bits)> {
        position::<B>(sub, slot)
    }
    fn positions<B: Board>(sub: Subspace) -> u64 {
        positions::<B>(sub)
    }
    fn warm_up<B: Board>() {
        warm_up::<B>()
    }
    #[inline]
    fn mover<B: Board>(us: Bits, them: u32) -> Mover<B> {
        Mover::new(us, them)
    }
    #[inline(always)]
    fn prefetch_mover<B: Board>(us: Bits) {
        tablebase::huge::prefetch(&tables::<B>().class_of[us as usize]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::nine::{self, NineIndex};
    use crate::rules::board::{Morabaraba, Nine, Six};

    /// The generic index on a 24-point board of Nine's symmetry group is
    /// Nine's own index, slot for slot.
    fn numbers_slots_as_the_nine_index<B: Board>() {
        for w in 0..=9 {
            assert_eq!(classes::<B>(w), nine::classes(w), "{w} stones");
        }
        let mut x: u64 = 0x2545_F491_4F6C_DD1D;
        for (w, b) in [
            (0, 3),
            (1, 2),
            (3, 3),
            (4, 3),
            (5, 7),
            (9, 9),
            (8, 6),
            (12, 11),
        ] {
            let sub = Subspace::new(w, b);
            assert_eq!(size::<B>(sub), nine::size(sub));
            for _ in 0..2000 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let s = x % nine::size(sub);
                let found = position::<B>(sub, s);
                assert_eq!(found, nine::position(sub, s), "{sub} {s}");
                if let Some((us, them)) = found {
                    assert_eq!(slot::<B>(us, them), s, "{sub} {s}");
                    assert_eq!(NineIndex::slot::<B>(us, them), s, "{sub} {s}");
                }
            }
        }
        assert_eq!(positions::<B>(Subspace::new(3, 3)), 169_626);
    }

    #[test]
    fn nine_board_numbers_slots_as_the_nine_index() {
        numbers_slots_as_the_nine_index::<Nine>();
    }

    /// Morabaraba's tables are written over Nine's index
    /// (`Board::Index`): the same slots as the generic index gave them.
    #[test]
    fn morabaraba_board_numbers_slots_as_the_nine_index() {
        numbers_slots_as_the_nine_index::<Morabaraba>();
    }

    /// Slot → position → slot on pseudo-random slots, and every symmetric
    /// image of a position lands in its slot.
    fn round_trips<B: Board>() {
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        for w in 0..=(B::POINTS / 2) as u8 {
            for b in 0..=(B::POINTS / 2) as u8 {
                let sub = Subspace::new(w, b);
                let n = size::<B>(sub);
                for _ in 0..300 {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    let s = x % n;
                    let Some((us, them)) = position::<B>(sub, s) else {
                        continue;
                    };
                    assert_eq!(us & them, 0);
                    assert_eq!((us | them) & !B::FULL, 0);
                    assert_eq!(Subspace::of(us, them), sub);
                    assert_eq!(slot::<B>(us, them), s, "{sub} slot {s}");
                    for op in 0..B::SYMMETRIES {
                        let (u, t) = (B::transform(op, us), B::transform(op, them));
                        assert_eq!(slot::<B>(u, t), s, "{sub} slot {s} image {op}");
                        assert_eq!(canonical::<B>(u, t), (us, them));
                    }
                }
            }
        }
    }

    #[test]
    fn slots_and_positions_are_inverse() {
        round_trips::<Six>();
        round_trips::<Morabaraba>();
    }

    /// The slot of every slide from [`Slides`] (rank terms shared) equals
    /// the slot of the position it leads to, on random patterns of every
    /// size, seeds with and without other symmetries among them.
    fn slides_are_slots<B: Board, I: Indexing>() {
        let mut x: u64 = 0x2545_F491_4F6C_DD1D;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let (mut checked, mut symmetric_seeds) = (0, 0);
        for _ in 0..20_000 {
            // A random mover, and opponent stones on the other points.
            let mut mover: Bits = 0;
            let mut stones: Bits = 0;
            let (w, k) = (
                next() % (B::POINTS as u64 / 2 + 1),
                1 + next() % (B::POINTS as u64 / 2),
            );
            while (mover.count_ones() as u64) < w {
                mover |= 1 << (next() % B::POINTS as u64);
            }
            while (stones.count_ones() as u64) < k {
                stones |= 1 << (next() % B::POINTS as u64) & !mover;
            }
            let m = I::mover::<B>(mover, k as u32);
            assert_eq!(I::slot::<B>(mover, stones), m.index(stones));
            let seed = canonical::<B>(mover, 0).0;
            symmetric_seeds +=
                u64::from((1..B::SYMMETRIES).any(|op| B::transform(op, seed) == seed));
            let slides = m.slides(stones);
            let empty = !(mover | stones) & B::FULL;
            for from in crate::rules::geometry::points(stones) {
                for to in crate::rules::geometry::points(empty) {
                    let moved = stones ^ (1 << from) ^ (1 << to);
                    assert_eq!(
                        slides.index(from, to),
                        I::slot::<B>(mover, moved),
                        "{mover:#x} {stones:#x} {from}->{to}"
                    );
                    checked += 1;
                }
            }
        }
        assert!(
            checked > 100_000 && symmetric_seeds > 100,
            "{checked} {symmetric_seeds}"
        );
    }

    #[test]
    fn slide_slots_equal_the_slots() {
        slides_are_slots::<Six, Symmetric>();
        slides_are_slots::<Morabaraba, Symmetric>();
        slides_are_slots::<Six, crate::index::Dense>();
    }

    crate::data_board!(
        /// A 3 × 3 grid: rows and columns are mills (8 symmetries).
        Grid, GRID_TABLES, "grid", points: 9, symmetries: 8, stones: 3,
        crate::rules::geometry::Geometry::from_lists(
            "grid",
            &["a1", "a2", "a3", "b1", "b2", "b3", "c1", "c2", "c3"],
            &["a3", "b3", "c3", "a2", "b2", "c2", "a1", "b1", "c1"],
            &[["a1", "a2"], ["a2", "a3"], ["b1", "b2"], ["b2", "b3"], ["c1", "c2"],
              ["c2", "c3"], ["a1", "b1"], ["b1", "c1"], ["a2", "b2"], ["b2", "c2"],
              ["a3", "b3"], ["b3", "c3"]],
            &[["a1", "a2", "a3"], ["b1", "b2", "b3"], ["c1", "c2", "c3"],
              ["a1", "b1", "c1"], ["a2", "b2", "c2"], ["a3", "b3", "c3"]],
        )
    );

    /// A board written as data gets the symmetric index too: its classes
    /// are the orbits counted by Burnside's lemma (the average number of
    /// patterns each of the 8 maps fixes), and slots, positions and slides
    /// agree.
    #[test]
    fn a_board_defined_as_data_has_the_symmetric_index() {
        let group = &Grid::geometry().symmetries;
        assert_eq!(group.len(), 8);
        for w in 0..=9 {
            let fixed: usize = group
                .iter()
                .map(|op| {
                    (0u32..1 << 9)
                        .filter(|&p| p.count_ones() == w)
                        .filter(|&p| {
                            let image =
                                crate::rules::geometry::points(p).fold(0u32, |a, q| a | 1 << op[q]);
                            image == p
                        })
                        .count()
                })
                .sum();
            assert_eq!(classes::<Grid>(w as usize), fixed / 8, "{w} stones");
        }
        round_trips::<Grid>();
        slides_are_slots_small::<Grid>();
    }

    /// [`slides_are_slots`] for a board too small for its counts.
    fn slides_are_slots_small<B: Board>() {
        for mover in 0u32..1 << B::POINTS {
            for stones in [0b1_0000_0011u32, 0b0_1010_0000] {
                let stones = stones & !mover & B::FULL;
                if stones == 0 || mover.count_ones() > 4 {
                    continue;
                }
                let m = Symmetric::mover::<B>(mover, stones.count_ones());
                let slides = m.slides(stones);
                let empty = !(mover | stones) & B::FULL;
                for from in crate::rules::geometry::points(stones) {
                    for to in crate::rules::geometry::points(empty) {
                        let moved = stones ^ (1 << from) ^ (1 << to);
                        assert_eq!(slides.index(from, to), Symmetric::slot::<B>(mover, moved));
                    }
                }
            }
        }
    }
}
