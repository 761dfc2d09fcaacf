//! Moves of Lasker Morris in mover-relative bitboards: a side with stones
//! in hand places one on any empty point or moves a board stone (slides
//! along an edge, or flies to any empty point when its stones on the board
//! plus in hand number 3); a side with an empty hand only moves. Closing a
//! mill removes one opponent stone (not one in a mill unless all are); when
//! the opponent has no stone on the board, a mill removes nothing (as a
//! placement in Nine Men's Morris does).
//!
//! Apart from the standard moving phase ([`crate::rules::moving`]), whose
//! hot path stays untouched, these generators decide flying from the hand
//! and let a mill close without a victim.

use crate::rules::board::Board;
use crate::rules::geometry::points;
use crate::rules::geometry::Bits;
use crate::rules::position::Move;
use crate::rules::variant::RuleSet;

/// Call `f` for every move of the side to move with `us` on the board and
/// `hand` stones in hand against `them`: placements first (when `hand >
/// 0`), then moves of board stones, a mill-closing move once per removable
/// opponent stone. The caller checks that the side has 3 stones or more.
#[inline]
pub fn for_each_move<B: Board>(
    us: Bits,
    them: Bits,
    hand: u8,
    rules: RuleSet,
    mut f: impl FnMut(Move),
) {
    let empty = !(us | them) & B::FULL;
    // `removable(0)` is 0: no victim, the mill removes nothing.
    let taken = B::removable(them);
    let mut emit = |m: Move, after: Bits, to: usize| {
        if taken != 0 && B::in_mill(after, to) {
            for r in points(taken) {
                f(m.with_removal(r as u8));
            }
        } else {
            f(m);
        }
    };
    if hand > 0 {
        for to in points(empty) {
            emit(Move::place(to as u8), us | 1 << to, to);
        }
    }
    let fly = rules.flies(us.count_ones(), hand);
    for from in points(us) {
        let rest = us & !(1 << from);
        for to in points(B::destinations(from, empty, fly)) {
            emit(Move::shift(from as u8, to as u8), rest | 1 << to, to);
        }
    }
}

/// Does the side to move have a legal move?
#[inline]
pub fn has_move<B: Board>(us: Bits, them: Bits, hand: u8, rules: RuleSet) -> bool {
    let empty = !(us | them) & B::FULL;
    if empty == 0 {
        return false;
    }
    hand > 0
        || rules.flies(us.count_ones(), hand)
        || points(us).any(|from| B::adjacent(from) & empty != 0)
}

/// The successor `(next_us, next_them)` of move `m` of the side `us`, seen
/// from the opponent, who moves next.
#[inline(always)]
pub fn apply(us: Bits, them: Bits, m: Move) -> (Bits, Bits) {
    let moved = match m.from() {
        Some(from) => us ^ (1 << from) ^ (1 << m.to()),
        None => us | 1 << m.to(),
    };
    let taken = m.removal().map_or(0, |r| 1 << r);
    (them & !taken, moved)
}

/// Call `f` with every predecessor of `(us, them)` reached by a move of a
/// board stone without removal (the moves that keep a sector pair): the
/// opponent, with `them_hand` stones in hand, moved, so the predecessor is
/// `(prev_them, us)` and `f` gets `prev_them`.
///
/// A stone that stands in a mill now arrived without a removal only if the
/// side to move has no stone on the board (a mill without a victim).
#[inline]
pub fn for_each_unmove<B: Board>(
    us: Bits,
    them: Bits,
    them_hand: u8,
    rules: RuleSet,
    mut f: impl FnMut(Bits),
) {
    let empty = !(us | them) & B::FULL;
    let fly = rules.flies(them.count_ones(), them_hand);
    for to in points(them) {
        if us != 0 && B::in_mill(them, to) {
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
    use crate::rules::board::Nine;

    /// Every board move without removal is undone by an unmove, and every
    /// unmove is a board move without removal, on pseudo-random positions of
    /// every stone and hand count of the 5-stone game.
    #[test]
    fn moves_and_unmoves_agree() {
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let rules = RuleSet::lasker(5);
        for a in 0..=5u32 {
            for b in 0..=5u32 {
                for _ in 0..40 {
                    let (mut us, mut them) = (0 as Bits, 0 as Bits);
                    while us.count_ones() < a {
                        us |= 1 << (next() % 24);
                    }
                    while them.count_ones() < b {
                        let p = 1 << (next() % 24);
                        if us & p == 0 {
                            them |= p;
                        }
                    }
                    let (uh, th) = ((5 - a) as u8, (next() % (6 - b as u64)) as u8);
                    for_each_move::<Nine>(us, them, uh, rules, |m| {
                        if m.from().is_some() && m.removal().is_none() {
                            let (nu, nt) = apply(us, them, m);
                            let mut found = false;
                            for_each_unmove::<Nine>(nu, nt, uh, rules, |p| found |= p == us);
                            assert!(found, "{us:#x} {them:#x} {m:?}");
                        }
                    });
                    for_each_unmove::<Nine>(us, them, th, rules, |prev| {
                        let mut found = false;
                        for_each_move::<Nine>(prev, us, th, rules, |m| {
                            found |= m.from().is_some()
                                && m.removal().is_none()
                                && apply(prev, us, m) == (us, them);
                        });
                        assert!(found, "{us:#x} {them:#x} {prev:#x}");
                    });
                }
            }
        }
    }
}
