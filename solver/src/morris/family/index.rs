//! The dense index of the family's small boards: slot of `(us, them)` in
//! subspace `(w, b)` = `colex(us) × C(P − w, b) + colex(them over the points
//! us leaves free)`, every slot a position.
//!
//! It stores each position and its symmetric images separately (16 times
//! the symmetry-reduced index of Nine Men's Morris, [`crate::morris::index`])
//! and needs no tables: on the 16 points of Six Men's Morris the largest
//! subspace has 2,018,016 slots, which costs less than building the
//! symmetry tables would.

use crate::morris::board::Board;
use crate::morris::geometry::Bits;
use crate::morris::index::Subspace;
use tablebase::binomial::{binomial, colex_rank, colex_unrank, gather, scatter};

/// Number of slots of subspace `sub` (also the index of a placement sector
/// with that board).
pub fn size<B: Board>(sub: Subspace) -> u64 {
    binomial(B::POINTS, sub.us as usize) * binomial(B::POINTS - sub.us as usize, sub.them as usize)
}

/// The slot of `(us, them)` in its subspace.
#[inline]
pub fn slot<B: Board>(us: Bits, them: Bits) -> u64 {
    let free = !us & B::FULL;
    colex_rank(us)
        * binomial(
            B::POINTS - us.count_ones() as usize,
            them.count_ones() as usize,
        )
        + colex_rank(gather(them, free))
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
    /// Number of slots of `sub`.
    fn size<B: Board>(sub: Subspace) -> u64;
    /// The slot of `(us, them)` in its subspace.
    fn slot<B: Board>(us: Bits, them: Bits) -> u64;
    /// The position of `slot` in `sub`, `None` for an unused slot.
    fn position<B: Board>(sub: Subspace, slot: u64) -> Option<(Bits, Bits)>;
}

/// The dense index of this module: every slot a position.
#[derive(Debug, Clone, Copy, Default)]
pub struct Dense;

impl Indexing for Dense {
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::morris::board::Six;

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
