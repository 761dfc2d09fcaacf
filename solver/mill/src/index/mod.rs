//! The dense index of the family's small boards: slot of `(us, them)` in
//! subspace `(w, b)` = `colex(us) × C(P − w, b) + colex(them over the points
//! us leaves free)`, every slot a position.
//!
//! It stores each position and its symmetric images separately (16 times
//! the symmetry-reduced index of Nine Men's Morris, [`crate::index::nine`])
//! and needs no tables: on the 16 points of Six Men's Morris the largest
//! subspace has 2,018,016 slots, which costs less than building the
//! symmetry tables would.

pub mod nine;
pub mod symmetric;

use crate::rules::board::Board;
use crate::rules::geometry::Bits;
use crate::tables::keys::Subspace;
use std::ops::ControlFlow;
use tablebase::binomial::{binomial, colex_rank, colex_unrank, gather, scatter, BINOMIAL};

/// Number of slots of subspace `sub` (also the index of a placement sector
/// with that board).
pub fn size<B: Board>(sub: Subspace) -> u64 {
    binomial(B::POINTS, sub.us as usize) * binomial(B::POINTS - sub.us as usize, sub.them as usize)
}

/// The slot of `(us, them)` in its subspace.
#[inline]
pub fn slot<B: Board>(us: Bits, them: Bits) -> u64 {
    Dense::mover::<B>(us, them.count_ones()).index(them)
}

/// The position `(us, them)` of `slot` in `sub` (`slot < size(sub)`).
#[inline]
pub fn position<B: Board>(sub: Subspace, slot: u64) -> (Bits, Bits) {
    let modulus = binomial(B::POINTS - sub.us as usize, sub.them as usize);
    let us = colex_unrank(slot / modulus, sub.us as usize);
    let them = scatter(
        colex_unrank(slot % modulus, sub.them as usize),
        !us & B::FULL,
    );
    (us, them)
}

/// Colex rank of `them` over the points `occupied` leaves free.
#[inline(always)]
pub(crate) fn rank_over_free(them: Bits, occupied: Bits) -> u64 {
    let mut rank = 0;
    let mut rest = them;
    let mut i = 1;
    while rest != 0 {
        let c = rest.trailing_zeros();
        rest &= rest - 1;
        let below = occupied & ((1u32 << c) - 1);
        rank += BINOMIAL[(c - below.count_ones()) as usize][i];
        i += 1;
    }
    rank
}

/// The colex rank's terms of a pattern over the points a seed leaves free,
/// summed once, so that the rank of each pattern one stone move away
/// (a stone taken off one point of the pattern and put on a free point)
/// costs a few operations: the shared half of [`Slides`] and of the
/// family's symmetric index.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct SlideRanks {
    seed: Bits,
    /// Stones of the pattern.
    k: usize,
    /// The stones' compressed numbers (points the seed leaves free,
    /// counted), as a bit set.
    compressed: Bits,
    /// `p0[t] = Σ_{i ≤ t} C(c_i, i)`, `pm` with `i − 1`, `pp` with `i + 1`
    /// (for the stones' compressed numbers `c_1 < c_2 < …`).
    p0: [u64; 25],
    pm: [u64; 25],
    pp: [u64; 25],
}

impl SlideRanks {
    /// The terms of `stones` (already mapped like the seed) over the points
    /// `seed` leaves free.
    #[inline(always)]
    pub(crate) fn new(stones: Bits, seed: Bits) -> SlideRanks {
        let mut out = SlideRanks {
            seed,
            ..SlideRanks::default()
        };
        let mut rest = stones;
        let mut i = 0;
        while rest != 0 {
            let point = rest.trailing_zeros();
            rest &= rest - 1;
            let c = (point - (seed & ((1u32 << point) - 1)).count_ones()) as usize;
            out.compressed |= 1 << c;
            i += 1;
            out.p0[i] = out.p0[i - 1] + BINOMIAL[c][i];
            out.pm[i] = out.pm[i - 1] + BINOMIAL[c][i - 1];
            out.pp[i] = out.pp[i - 1] + BINOMIAL[c][i + 1];
        }
        out.k = i;
        out
    }

    /// The compressed number of (mapped) point `point`, and how many of the
    /// stones' compressed numbers lie below it.
    #[inline(always)]
    fn place(&self, point: u32) -> (usize, usize) {
        let q = point - (self.seed & ((1u32 << point) - 1)).count_ones();
        let below = (self.compressed & ((1u32 << q) - 1)).count_ones();
        (q as usize, below as usize)
    }

    /// The colex rank over the free points of the pattern with its stone on
    /// (mapped) point `from` moved to the free (mapped) point `to`.
    #[inline(always)]
    pub(crate) fn rank(&self, from: u32, to: u32) -> u64 {
        let k = self.k;
        // `from` is the a-th stone (1-based); `to` lands after j of them.
        let (ca, below_a) = self.place(from);
        let a = below_a + 1;
        let (q, j) = self.place(to);
        if ca < q {
            // Stones a+1..=j move down one place; `to` takes place j.
            self.p0[a - 1] + (self.pm[j] - self.pm[a]) + BINOMIAL[q][j] + (self.p0[k] - self.p0[j])
        } else {
            // `to` takes place j+1; stones j+1..a-1 move up one place.
            self.p0[j]
                + BINOMIAL[q][j + 1]
                + (self.pp[a - 1] - self.pp[j])
                + (self.p0[k] - self.p0[a])
        }
    }
}

/// An index of moving-phase subspaces on any board: the dense one
/// ([`Dense`]) or the symmetry-reduced one
/// ([`crate::index::symmetric::Symmetric`]). The retrograde pair and the
/// recomputation of values work over either.
pub trait Indexing: Send + Sync + 'static {
    /// The side to move's half of the slot computation ([`Indexing::mover`]).
    type Mover<B: Board>: MoverSlots;
    /// Number of slots of `sub`.
    fn size<B: Board>(sub: Subspace) -> u64;
    /// The slot of `(us, them)` in its subspace.
    fn slot<B: Board>(us: Bits, them: Bits) -> u64;
    /// The position of `slot` in `sub`, `None` for an unused slot.
    fn position<B: Board>(sub: Subspace, slot: u64) -> Option<(Bits, Bits)>;
    /// Number of positions (used slots) of `sub`: what a table's header
    /// counts.
    fn positions<B: Board>(sub: Subspace) -> u64;
    /// Build the index's tables of board `B` now (a second on 24 points),
    /// before a job's clock and progress start.
    fn warm_up<B: Board>() {}
    /// Prepare for the slots of positions whose side to move has the
    /// stones `us` and whose opponent has `them` stones: what many
    /// positions share (the successors of one position) computed once.
    fn mover<B: Board>(us: Bits, them: u32) -> Self::Mover<B>;
    /// A hint that [`Indexing::mover`] of `us` comes soon.
    #[inline(always)]
    fn prefetch_mover<B: Board>(_us: Bits) {}

    /// The classes of the side to move's patterns of `stones` points, in
    /// slot order: each one's seed (the pattern its slots store) and the
    /// maps that fix the seed (a bitmask, bit 0 the identity: only the
    /// smallest image of the opponent's stones under them is a position).
    /// Class `c` spans the slots `c × C(P − stones, b) ..` of a subspace
    /// with `b` opponent stones, the rank being the colex rank of the
    /// opponent's stones over the points the seed leaves free. For passes
    /// that visit every class, such as the placement pass.
    fn seeds<B: Board>(stones: usize) -> (Vec<Bits>, Vec<u16>);

    /// Is `them` the smallest of its images under the maps of `stab` (a
    /// seed's stabiliser from [`Indexing::seeds`], its maps numbered as
    /// this index numbers them)? Only then is the position of that seed
    /// and `them` stored; the other images' slots are unused.
    fn smallest_under<B: Board>(stab: u16, them: Bits) -> bool;

    /// Call `f(slot, us, them)` for every used slot of `range` in `sub`, in
    /// order. By default each slot is decoded ([`Indexing::position`]); an
    /// index may step from one position to the next instead.
    #[inline(always)]
    fn for_each_position<B: Board>(
        sub: Subspace,
        range: std::ops::Range<u64>,
        mut f: impl FnMut(u64, Bits, Bits),
    ) {
        for slot in range {
            if let Some((us, them)) = Self::position::<B>(sub, slot) {
                f(slot, us, them);
            }
        }
    }

    /// Call `f` with the slot of `(us, them)` for every `us` of `movers`
    /// (all of one stone count): the predecessors of a position. Every
    /// lookup is asked for ([`Indexing::prefetch_mover`]) before the first
    /// is waited on.
    #[inline(always)]
    fn for_each_slot<B: Board>(movers: &[Bits], them: Bits, mut f: impl FnMut(u64)) {
        for &us in movers {
            Self::prefetch_mover::<B>(us);
        }
        for &us in movers {
            f(Self::slot::<B>(us, them));
        }
    }
}

/// The slots of positions whose side to move has the same stones.
pub trait MoverSlots: Copy {
    /// What ranks the patterns one stone move away from one pattern.
    type Slides: SlideSlots;
    /// The slot of the position whose opponent has the stones `them`.
    fn index(&self, them: Bits) -> u64;
    /// Prepare [`SlideSlots::index`] for the opponent's patterns one stone
    /// move away from `stones`: the successors without removal of a
    /// position, whose next mover is the position's opponent.
    fn slides(&self, stones: Bits) -> Self::Slides;

    /// Call `f(p, slot)` for every point `p` of `points` with the slot of
    /// the position whose opponent has the stones `others | 1 << p` (one
    /// more than `others`): the successors of a placement, whose mover is
    /// the placer's opponent. Stops when `f` breaks.
    #[inline(always)]
    fn for_each_added(
        &self,
        others: Bits,
        points: Bits,
        mut f: impl FnMut(usize, u64) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        for p in crate::rules::geometry::points(points) {
            f(p, self.index(others | 1 << p))?;
        }
        ControlFlow::Continue(())
    }
}

/// The slots of the positions whose opponent's stones are one pattern with
/// one stone moved.
pub trait SlideSlots {
    /// The slot after the stone on `from` moves to the empty point `to`.
    fn index(&self, from: usize, to: usize) -> u64;
}

/// The dense index of this module: every slot a position.
#[derive(Debug, Clone, Copy, Default)]
pub struct Dense;

impl Indexing for Dense {
    type Mover<B: Board> = DenseMover;
    /// Every pattern is its own class (colex order), fixed by no map.
    fn seeds<B: Board>(stones: usize) -> (Vec<Bits>, Vec<u16>) {
        let n = binomial(B::POINTS, stones);
        let seeds: Vec<Bits> = (0..n).map(|r| colex_unrank(r, stones)).collect();
        let stabilizers = vec![1; seeds.len()];
        (seeds, stabilizers)
    }
    /// No map fixes a class: every slot is a position.
    #[inline]
    fn smallest_under<B: Board>(_stab: u16, _them: Bits) -> bool {
        true
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
        Some(position::<B>(sub, slot))
    }
    fn positions<B: Board>(sub: Subspace) -> u64 {
        size::<B>(sub)
    }
    #[inline]
    fn mover<B: Board>(us: Bits, them: u32) -> DenseMover {
        DenseMover {
            base: colex_rank(us) * binomial(B::POINTS - us.count_ones() as usize, them as usize),
            free: !us & B::FULL,
        }
    }
}

/// The side to move's half of a dense slot.
#[derive(Debug, Clone, Copy)]
pub struct DenseMover {
    base: u64,
    free: Bits,
}

impl MoverSlots for DenseMover {
    type Slides = DenseSlides;
    #[inline]
    fn index(&self, them: Bits) -> u64 {
        self.base + colex_rank(gather(them, self.free))
    }
    #[inline]
    fn slides(&self, stones: Bits) -> DenseSlides {
        DenseSlides {
            mover: *self,
            stones,
        }
    }
}

/// Slides over the dense index: each slot ranked afresh (the small boards
/// need no more).
#[derive(Debug, Clone, Copy)]
pub struct DenseSlides {
    mover: DenseMover,
    stones: Bits,
}

impl SlideSlots for DenseSlides {
    #[inline]
    fn index(&self, from: usize, to: usize) -> u64 {
        self.mover.index(self.stones ^ (1 << from) ^ (1 << to))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::board::Six;

    #[test]
    fn slots_and_positions_are_inverse() {
        for w in 0..=6u8 {
            for b in 0..=6u8 {
                let sub = Subspace::new(w, b);
                let n = size::<Six>(sub);
                let step = (n / 997).max(1);
                let mut s = 0;
                while s < n {
                    let (us, them) = position::<Six>(sub, s);
                    assert_eq!(us & them, 0);
                    assert_eq!(Subspace::of(us, them), sub);
                    assert_eq!((us | them) & !Six::FULL, 0);
                    assert_eq!(slot::<Six>(us, them), s);
                    s += step;
                }
            }
        }
    }
}
