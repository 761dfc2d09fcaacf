//! The moving phase in mover-relative bitboards: forward moves (slide or
//! fly, with the removal a closed mill brings) and backward moves
//! ("unmoves", the predecessors the retrograde engine walks), generic over
//! the [`Board`] (`*_on::<B>`) and, without suffix, on Nine Men's Morris
//! (the same code monomorphised for [`Nine`]).
//!
//! A moving-phase position here is `(us, them)`: the stones of the side to
//! move and of its opponent, nobody has stones in hand. After a move the
//! opponent is to move, so the successor is `(them', us')`.

use crate::rules::board::{Board, Nine};
use crate::rules::geometry::points;
use crate::rules::geometry::Bits;

/// Marks "no removal" in [`Slide::remove`].
pub const NO_REMOVAL: u8 = u8::MAX;

/// A moving-phase move: a stone goes from `from` to `to` (slide or fly), and
/// if that closes a mill, the opponent's stone at `remove` is taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Slide {
    /// Origin point.
    pub from: u8,
    /// Destination point.
    pub to: u8,
    /// Removed opponent stone, or [`NO_REMOVAL`].
    pub remove: u8,
}

impl Slide {
    /// The removed point, if any.
    pub fn removal(self) -> Option<u8> {
        (self.remove != NO_REMOVAL).then_some(self.remove)
    }

    /// The successor position `(next_us, next_them)`, seen from the side to
    /// move next (the opponent).
    #[inline(always)]
    pub fn apply(self, us: Bits, them: Bits) -> (Bits, Bits) {
        let moved = us ^ (1 << self.from) ^ (1 << self.to);
        let taken = if self.remove == NO_REMOVAL {
            0
        } else {
            1 << self.remove
        };
        (them & !taken, moved)
    }
}

/// Does a side with `stones` on the board (none in hand) fly?
#[inline(always)]
pub fn flies(stones: Bits, flying: bool) -> bool {
    flying && stones.count_ones() == 3
}

/// Call `f` for every legal moving-phase move of the side to move (Nine
/// Men's Morris).
///
/// A move that closes a mill is reported once per removable opponent stone.
#[inline]
pub fn for_each_move(us: Bits, them: Bits, flying: bool, f: impl FnMut(Slide)) {
    for_each_move_on::<Nine>(us, them, flying, f)
}

/// Call `f` for every legal moving-phase move of the side to move on board `B`.
///
/// A move that closes a mill is reported once per removable opponent stone.
#[inline]
pub fn for_each_move_on<B: Board>(us: Bits, them: Bits, flying: bool, mut f: impl FnMut(Slide)) {
    let empty = !(us | them) & B::FULL;
    let fly = flies(us, flying);
    let taken = B::removable(them);
    for from in points(us) {
        let rest = us & !(1 << from);
        for to in points(B::destinations(from, empty, fly)) {
            if B::in_mill(rest | 1 << to, to) {
                for r in points(taken) {
                    f(Slide {
                        from: from as u8,
                        to: to as u8,
                        remove: r as u8,
                    });
                }
            } else {
                f(Slide {
                    from: from as u8,
                    to: to as u8,
                    remove: NO_REMOVAL,
                });
            }
        }
    }
}

/// Does the side to move have any legal move (Nine Men's Morris)?
#[inline]
pub fn has_move(us: Bits, them: Bits, flying: bool) -> bool {
    has_move_on::<Nine>(us, them, flying)
}

/// Does the side to move have any legal move on board `B`?
#[inline]
pub fn has_move_on<B: Board>(us: Bits, them: Bits, flying: bool) -> bool {
    let empty = !(us | them) & B::FULL;
    if flies(us, flying) {
        return empty != 0;
    }
    points(us).any(|from| B::adjacent(from) & empty != 0)
}

/// Call `f` with every predecessor of `(us, them)` reached by a move without
/// removal (Nine Men's Morris); see [`for_each_unmove_on`].
#[inline]
pub fn for_each_unmove(us: Bits, them: Bits, flying: bool, f: impl FnMut(Bits)) {
    for_each_unmove_on::<Nine>(us, them, flying, f)
}

/// Call `f` with every predecessor of `(us, them)` on board `B` reached by
/// a move without removal: the opponent (`them`, who just moved) is to
/// move in the predecessor, which is `(prev_them, us)` with `prev_them`
/// passed to `f`.
///
/// A stone that stands in a mill now cannot have just arrived without a
/// removal, so only stones outside mills are moved back.
#[inline]
pub fn for_each_unmove_on<B: Board>(us: Bits, them: Bits, flying: bool, mut f: impl FnMut(Bits)) {
    let empty = !(us | them) & B::FULL;
    let fly = flies(them, flying);
    for to in points(them) {
        if B::in_mill(them, to) {
            continue;
        }
        let rest = them & !(1 << to);
        for from in points(B::destinations(to, empty, fly)) {
            f(rest | 1 << from);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small deterministic generator of random positions.
    pub(crate) struct Rng(u64);
    impl Rng {
        pub(crate) fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
        pub(crate) fn position_on(&mut self, points: u64, w: u32, b: u32) -> (Bits, Bits) {
            let mut us: Bits = 0;
            let mut them: Bits = 0;
            while us.count_ones() < w {
                us |= 1 << (self.next() % points);
            }
            while them.count_ones() < b {
                let p = 1 << (self.next() % points);
                if us & p == 0 {
                    them |= p;
                }
            }
            (us, them)
        }
    }

    /// On board `B`: every non-removing successor lists the position among
    /// its predecessors, and every predecessor lists it among its successors.
    fn generation_agrees<B: Board>(max_stones: u32) {
        let mut rng = Rng(0x1234_5678_9ABC_DEF1);
        for flying in [true, false] {
            for w in 3..=max_stones {
                for b in 3..=max_stones {
                    for _ in 0..200 {
                        let (us, them) = rng.position_on(B::POINTS as u64, w, b);
                        for_each_move_on::<B>(us, them, flying, |m| {
                            if m.removal().is_none() {
                                let (nu, nt) = m.apply(us, them);
                                let mut found = false;
                                for_each_unmove_on::<B>(nu, nt, flying, |p| found |= p == us);
                                assert!(found, "{us:#x} {them:#x} {m:?}");
                            }
                        });
                        for_each_unmove_on::<B>(us, them, flying, |prev| {
                            let mut found = false;
                            for_each_move_on::<B>(prev, us, flying, |m| {
                                found |= m.removal().is_none() && m.apply(prev, us) == (us, them);
                            });
                            assert!(found, "{us:#x} {them:#x} {prev:#x}");
                        });
                    }
                }
            }
        }
    }

    #[test]
    fn forward_and_backward_generation_agree() {
        generation_agrees::<Nine>(9);
        generation_agrees::<crate::rules::board::Six>(6);
        generation_agrees::<crate::rules::board::Morabaraba>(11);
    }
}
