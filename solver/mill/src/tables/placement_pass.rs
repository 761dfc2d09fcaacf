//! The forward pass that solves one placement sector, walked by the
//! opponent's stones.
//!
//! A sector's slots are ordered by the side to move's stones (their class,
//! see [`crate::index::nine`]), but a placement's successors are indexed by the
//! *opponent's* stones, since the opponent moves next. Walked in slot
//! order, each position's successors lie in another class block of the
//! successor tables: a cache miss for nearly every lookup once those
//! tables outgrow the cache, which the largest sectors' do by far. This
//! pass walks the opponent's patterns instead and, for each, every seed of
//! the side to move that leaves them room: all that
//! pattern's successors without removal lie in one class block of a few
//! thousand slots, and those with a removal in one block per stone taken,
//! and they stay in the cache. What misses now is the one byte each
//! position's value is written to: a store, which the processor does not
//! wait for. The seeds on the free points are found by scanning every
//! seed (at most 82,880, in the cache) 64 at a time for those disjoint
//! from the pattern, a comparison the compiler vectorises.

use crate::index::rank_over_free;
use crate::index::Indexing;
use crate::rules::board::Board;
use crate::rules::geometry::Bits;
use crate::tables::keys::{Placements, Sector};
use crate::tables::pair::Outcomes;
use rayon::prelude::*;
use std::marker::PhantomData;
use std::sync::atomic::{AtomicU8, Ordering::Relaxed};
use tablebase::binomial::{binomial, colex_unrank};
use tablebase::format::{OUTCOME_DRAW, OUTCOME_LOSS, OUTCOME_WIN};
use tablebase::huge::HugeArray;
use tablebase::retro::Observer;
use tablebase::Outcome;

/// Opponent patterns per parallel task.
const TASK: u64 = 1 << 9;

/// The two-bit code of an outcome in a placement table.
pub fn code(o: Outcome) -> u8 {
    match o {
        Outcome::Win => OUTCOME_WIN,
        Outcome::Loss => OUTCOME_LOSS,
        Outcome::Draw => OUTCOME_DRAW,
    }
}

/// The next pattern with as many points, in increasing numeric (= colex)
/// order (Gosper's hack); `x` must not be empty.
#[inline(always)]
fn next_pattern(x: Bits) -> Bits {
    let c = x | (x - 1);
    (c + 1) | (((!c & (c + 1)) - 1) >> (x.trailing_zeros() + 1))
}

/// The outcome of every slot of `sector` on board `B` over index `I`
/// (unused slots hold draws), as two-bit codes ([`code`]) packed four to a
/// byte, low bits first, from the outcomes of the tables its placements
/// lead into: `plain` ([`Sector::after`]`(false)`) and `removal`
/// (`after(true)`, `None` when no lookup is ever made there).
pub fn solve<B: Board, I: Indexing, P: Outcomes + ?Sized, R: Outcomes + ?Sized>(
    sector: Sector,
    plain: &P,
    removal: Option<&R>,
    observer: &dyn Observer,
) -> Vec<u8> {
    let (us_stones, them_stones) = (sector.us as usize, sector.them as usize);
    let (seeds, stabilizers) = I::seeds::<B>(us_stones);
    let out: HugeArray<AtomicU8> = HugeArray::zeroed(I::size::<B>(sector.subspace()) as usize);
    let patterns = binomial(B::POINTS, them_stones);
    let walk = Walk::<B, I, P, R> {
        sector,
        seeds: &seeds,
        stabilizers: &stabilizers,
        modulus: binomial(B::POINTS - us_stones, them_stones),
        plain,
        removal,
        out: &out,
        board: PhantomData,
    };
    (0..patterns.div_ceil(TASK)).into_par_iter().for_each_init(
        Placements::default,
        |placements, task| {
            let start = task * TASK;
            let mut them = colex_unrank(start, them_stones);
            let mut visited = 0;
            for i in start..(start + TASK).min(patterns) {
                if i > start {
                    them = next_pattern(them);
                }
                visited += walk.pattern(them, placements);
            }
            observer.advance(visited);
        },
    );
    pack(&out)
}

/// What every opponent pattern's walk shares.
struct Walk<'a, B, I, P: ?Sized, R: ?Sized> {
    sector: Sector,
    /// The side to move's seeds, in class order, and their stabilisers.
    seeds: &'a [Bits],
    stabilizers: &'a [u16],
    /// Slots a class of the side to move spans.
    modulus: u64,
    plain: &'a P,
    removal: Option<&'a R>,
    /// One outcome code a slot.
    out: &'a [AtomicU8],
    board: PhantomData<(B, I)>,
}

impl<B: Board, I: Indexing, P: Outcomes + ?Sized, R: Outcomes + ?Sized> Walk<'_, B, I, P, R> {
    /// Solve every position whose opponent has the stones `them` (as they
    /// stand, not mapped): each seed of the side to move on the free
    /// points, where the pair is a position. Returns the slots visited
    /// (positions and unused slots), for progress.
    #[inline]
    fn pattern(&self, them: Bits, placements: &mut Placements) -> u64 {
        let sector = self.sector;
        let next_us = u32::from(sector.us) + 1;
        // The successors' side to move: the opponent, and the opponent less
        // each stone a mill may take (prepared on first use).
        let next = I::mover::<B>(them, next_us);
        let mut after: [Option<I::Mover<B>>; 32] = [None; 32];
        let mut after_removal =
            |r: usize| *after[r].get_or_insert_with(|| I::mover::<B>(them & !(1 << r), next_us));
        let plain = |slot: u64| self.plain.outcome(slot);
        let removal = |slot: u64| self.removal.map_or(Outcome::Draw, |r| r.outcome(slot));
        let mut visited = 0;
        for (block, seeds) in self.seeds.chunks(64).enumerate() {
            let mut disjoint = 0u64;
            for (j, &us) in seeds.iter().enumerate() {
                disjoint |= u64::from(us & them == 0) << j;
            }
            visited += u64::from(disjoint.count_ones());
            while disjoint != 0 {
                let j = disjoint.trailing_zeros() as usize;
                disjoint &= disjoint - 1;
                let (us, class) = (seeds[j], block * 64 + j);
                let stab = self.stabilizers[class];
                if stab != 1 && !I::smallest_under::<B>(stab, them) {
                    continue;
                }
                placements.set_after::<B>(us, them, &next);
                let o = placements.value::<B, _>(
                    sector,
                    us,
                    them,
                    &plain,
                    &removal,
                    &mut after_removal,
                );
                // Slots start zeroed: draws.
                if o != Outcome::Draw {
                    let slot = class as u64 * self.modulus + rank_over_free(them, us);
                    self.out[slot as usize].store(code(o), Relaxed);
                }
            }
        }
        visited
    }
}

/// One code a byte to four a byte.
fn pack(codes: &[AtomicU8]) -> Vec<u8> {
    const BYTES: usize = 1 << 16;
    let mut packed = vec![0u8; codes.len().div_ceil(4)];
    packed
        .par_chunks_mut(BYTES)
        .zip(codes.par_chunks(4 * BYTES))
        .for_each(|(out, codes)| {
            for (byte, four) in out.iter_mut().zip(codes.chunks(4)) {
                *byte = four
                    .iter()
                    .enumerate()
                    .fold(0, |p, (k, c)| p | c.load(Relaxed) << (2 * k));
            }
        });
    packed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::nine::NineIndex;
    use crate::index::symmetric::Symmetric;
    use crate::index::Dense;
    use crate::rules::board::{Morabaraba, Nine, Six};
    use crate::tables::keys::{recompute, TableId};
    use tablebase::resident::Wdl;
    use tablebase::retro::Silent;

    fn slots<B: Board, I: Indexing>(id: TableId) -> u64 {
        match id {
            TableId::Moving(sub) => I::size::<B>(sub),
            TableId::Placement(s) => I::size::<B>(s.subspace()),
        }
    }

    /// A table of `slots` random outcomes (fixed-seed xorshift): equally
    /// likely, or (`mostly_won`) 94 % wins, so that some positions have
    /// every successor won by the opponent.
    fn random_table(slots: u64, mut seed: u64, mostly_won: bool) -> Wdl {
        let mut packed = vec![0u8; slots.div_ceil(4) as usize];
        for byte in &mut packed {
            for k in 0..4 {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let o = match (mostly_won, seed % 3, seed % 100) {
                    (false, 0, _) | (true, _, 0..94) => OUTCOME_WIN,
                    (false, 1, _) | (true, _, 94..97) => OUTCOME_LOSS,
                    _ => OUTCOME_DRAW,
                };
                *byte |= o << (2 * k);
            }
        }
        Wdl::from_packed(slots, &packed).unwrap()
    }

    /// The pass against `recompute`, which decodes each slot and ranks each
    /// successor from scratch, on every slot of `sectors` of a game with
    /// `stones` a side on board `B` over index `I`, with random successor
    /// outcomes (so that every kind of successor decides somewhere);
    /// unused slots stay drawn. Returns how many slots came out won,
    /// drawn and lost.
    fn check<B: Board, I: Indexing>(stones: u8, sectors: &[Sector]) -> [u64; 3] {
        let all = Sector::all(stones);
        let mut decided = [0u64; 3];
        for (i, &sector) in sectors.iter().enumerate() {
            assert!(all.contains(&sector), "{sector}");
            let won = i % 2 == 1;
            let plain = random_table(slots::<B, I>(sector.after(false)), 7 + i as u64, won);
            let removal = random_table(
                slots::<B, I>(sector.after(sector.them > 0)),
                99 + i as u64,
                won,
            );
            let removal = (sector.them > 0 && !sector.removal_wins()).then_some(&removal);
            let packed = solve::<B, I, _, _>(sector, &plain, removal, &Silent);
            let size = I::size::<B>(sector.subspace());
            let got = Wdl::from_packed(size, &packed).unwrap();
            let plain_fn = |slot: u64| plain.get(slot).unwrap_or(Outcome::Draw);
            let removal_fn = |slot: u64| removal.and_then(|r| r.get(slot)).unwrap_or(Outcome::Draw);
            for slot in 0..size {
                let expected = match I::position::<B>(sector.subspace(), slot) {
                    Some((us, them)) => recompute::<B, I>(sector, us, them, &plain_fn, &removal_fn),
                    None => Outcome::Draw,
                };
                assert_eq!(got.get(slot), Some(expected), "{sector} slot {slot}");
                decided[code(expected) as usize] += 1;
            }
        }
        decided
    }

    #[test]
    fn every_slot_equals_its_recomputed_value() {
        let decided = check::<Nine, NineIndex>(
            9,
            &[
                Sector::new(0, 0, 9, 9),
                Sector::new(0, 1, 9, 8),
                Sector::new(1, 1, 8, 8),
                Sector::new(2, 3, 6, 6),
                Sector::new(3, 3, 1, 0),
                Sector::new(4, 3, 2, 2),
                Sector::new(3, 5, 1, 1),
                Sector::new(5, 2, 2, 1),
            ],
        );
        // Every outcome occurs (the comparison is not vacuous).
        assert!(decided.iter().all(|&n| n > 0), "{decided:?}");
    }

    #[test]
    fn the_pass_is_the_same_on_every_board_and_index() {
        let sectors = [
            Sector::new(0, 1, 6, 5),
            Sector::new(2, 3, 2, 2),
            Sector::new(3, 3, 1, 0),
            Sector::new(4, 2, 1, 1),
        ];
        let decided = check::<Six, Dense>(6, &sectors);
        assert!(decided.iter().all(|&n| n > 0), "{decided:?}");
        let decided = check::<Six, Symmetric>(6, &sectors);
        assert!(decided.iter().all(|&n| n > 0), "{decided:?}");
        let decided =
            check::<Morabaraba, Symmetric>(12, &[Sector::new(3, 3, 2, 2), Sector::new(4, 3, 1, 1)]);
        assert!(decided.iter().all(|&n| n > 0), "{decided:?}");
        // Morabaraba over Nine's index (its maps numbered as Nine's bits,
        // not as Morabaraba's geometry): seeds with few stones have large
        // stabilisers.
        let sectors = [
            Sector::new(0, 1, 12, 11),
            Sector::new(1, 1, 11, 11),
            Sector::new(2, 1, 10, 10),
            Sector::new(3, 3, 2, 2),
        ];
        let decided = check::<Morabaraba, NineIndex>(12, &sectors);
        assert!(decided.iter().all(|&n| n > 0), "{decided:?}");
    }
}
