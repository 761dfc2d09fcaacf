//! The dense index of the family's small boards: slot of `(us, them)` in
//! subspace `(w, b)` = `colex(us) × C(P − w, b) + colex(them over the points
//! us leaves free)`, every slot a position.
//!
//! It stores each position and its symmetric images separately (16 times
//! the symmetry-reduced index of Nine Men's Morris, [`crate::index`])
//! and needs no tables: on the 16 points of Six Men's Morris the largest
//! subspace has 2,018,016 slots, which costs less than building the
//! symmetry tables would.

use crate::board::Board;
use crate::geometry::Bits;
use crate::index::Subspace;
use tablebase::binomial::{binomial, colex_rank, colex_unrank, gather, scatter};

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

/// An index of moving-phase subspaces on any board: the dense one
/// ([`Dense`]) or the symmetry-reduced one
/// ([`super::symmetric::Symmetric`]). The retrograde pair and the
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
    /// Prepare for the slots of positions whose side to move has the
    /// stones `us` and whose opponent has `them` stones: what many
    /// positions share (the successors of one position) computed once.
    fn mover<B: Board>(us: Bits, them: u32) -> Self::Mover<B>;
    /// A hint that [`Indexing::mover`] of `us` comes soon.
    #[inline(always)]
    fn prefetch_mover<B: Board>(_us: Bits) {}
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
    use crate::board::Six;

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
