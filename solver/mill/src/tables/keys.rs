//! Placement-phase sectors: the positions with stones still in hand,
//! grouped as Malom groups them, and the forward rule that gives each one
//! its value from the sector its placements lead into.
//!
//! A sector `(w, b, wf, bf)` holds every position whose side to move has
//! `w` stones on the board and `wf ≥ 1` in hand, and whose opponent has `b`
//! on the board and `bf` in hand, `bf = wf` (White to move) or `bf = wf − 1`
//! (Black to move, White having placed once more). Its slots are those of
//! the moving-phase subspace `(w, b)` (see [`crate::index::nine`]), so slot `h` of
//! our sector is slot `h` of Malom's `std_w_b_wf_bf.sec2`.
//!
//! The placement phase has no cycles: every placement lowers the mover's
//! hand, so a sector's values follow in one forward pass from the sectors
//! with one stone less in hand ([`Sector::after`]), down to the moving
//! phase. Sectors are solved in order of the stones left in hand.

use crate::index::{Indexing, MoverSlots};
use crate::rules::board::Board;
use crate::rules::geometry::{points, Bits};
use crate::rules::position::{Color, Position};
use std::ops::ControlFlow;
use tablebase::Outcome;

/// A moving-phase subspace: stones of the side to move and of the opponent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Subspace {
    /// Stones of the side to move.
    pub us: u8,
    /// Stones of the opponent.
    pub them: u8,
}

impl Subspace {
    /// The subspace `(us, them)`.
    pub const fn new(us: u8, them: u8) -> Subspace {
        Subspace { us, them }
    }

    /// The key that sorts subspaces in the generator's pair order
    /// ([`crate::tables::pairs`]): by stones on the board, then pair by
    /// pair (the most uneven first), `W-B` (`W ≥ B`) before `B-W`. Every
    /// subspace a removal leads into sorts before it.
    pub const fn solving_order(self) -> (u8, u8, u8) {
        let low = if self.us < self.them {
            self.us
        } else {
            self.them
        };
        (self.us + self.them, low, self.them)
    }

    /// The subspace of a position.
    pub fn of(us: Bits, them: Bits) -> Subspace {
        Subspace::new(us.count_ones() as u8, them.count_ones() as u8)
    }

    /// The subspace seen from the other side.
    pub const fn swapped(self) -> Subspace {
        Subspace::new(self.them, self.us)
    }

    /// Stones a side of the smallest game whose tables include this
    /// subspace (the larger side's stones): what `--stones K` names.
    pub const fn game_stones(self) -> u8 {
        if self.us > self.them {
            self.us
        } else {
            self.them
        }
    }

    /// The subspace a removal from `self` leads to (the opponent, one
    /// stone fewer, is to move), if the game goes on: a side left with
    /// fewer than three stones has lost.
    pub fn exit(self) -> Option<Subspace> {
        (self.them > 3).then(|| Subspace::new(self.them - 1, self.us))
    }
}

impl std::fmt::Display for Subspace {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}-{}", self.us, self.them)
    }
}

/// A placement sector, mover-relative: stones on the board and in hand of
/// the side to move and of the opponent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Sector {
    /// Stones on the board, side to move.
    pub us: u8,
    /// Stones on the board, opponent.
    pub them: u8,
    /// Stones in hand, side to move (at least 1).
    pub us_hand: u8,
    /// Stones in hand, opponent (`us_hand` or `us_hand − 1`).
    pub them_hand: u8,
}

/// A table of the directory: a placement sector or a moving-phase subspace
/// (where a placement leads: another sector, or the moving phase).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TableId {
    /// The opponent still has stones in hand.
    Placement(Sector),
    /// Both hands are empty: a moving-phase subspace (opponent to move).
    Moving(Subspace),
}

impl Sector {
    /// The sector `(us, them, us_hand, them_hand)`.
    pub const fn new(us: u8, them: u8, us_hand: u8, them_hand: u8) -> Sector {
        Sector {
            us,
            them,
            us_hand,
            them_hand,
        }
    }

    /// The sector of a placement position, or `None` in the moving phase.
    pub fn of(pos: &Position) -> Option<Sector> {
        pos.placing().then(|| {
            Sector::new(
                pos.us().count_ones() as u8,
                pos.them().count_ones() as u8,
                pos.our_hand(),
                pos.their_hand(),
            )
        })
    }

    /// The moving-phase subspace whose index this sector uses.
    pub const fn subspace(self) -> Subspace {
        Subspace::new(self.us, self.them)
    }

    /// Stones a side of the smallest game this sector belongs to (stones
    /// on the board plus in hand, of the side that has lost fewer).
    pub const fn game_stones(self) -> u8 {
        Subspace::new(self.us + self.us_hand, self.them + self.them_hand).game_stones()
    }

    /// Stones left in hand on both sides: sectors with fewer are solved first.
    pub const fn hands(self) -> u8 {
        self.us_hand + self.them_hand
    }

    /// The side to move: White while the hands are equal.
    pub const fn to_move(self) -> Color {
        if self.us_hand == self.them_hand {
            Color::White
        } else {
            Color::Black
        }
    }

    /// Can a game with at most `stones` stones a side reach this sector?
    /// Both sides have at least 3 stones (board and hand), and at most what
    /// they have placed on the board; the opponent has a stone on the board
    /// unless the board is empty at the start of a game (its last
    /// placement is still there when the side to move moves).
    pub fn in_game(self, stones: u8) -> bool {
        let hands_ok = self.us_hand >= 1
            && (self.them_hand == self.us_hand || self.them_hand + 1 == self.us_hand);
        hands_ok
            && self.us_hand <= stones
            && self.us + self.us_hand <= stones
            && self.them + self.them_hand <= stones
            && self.us + self.us_hand >= 3
            && self.them + self.them_hand >= 3
            && (self.them >= 1 || (self.us == 0 && self.them_hand == self.us_hand))
    }

    /// Every sector of the game with `stones` stones a side (3..=9), in the
    /// order they are solved: by stones left in hand, then by board.
    /// Includes the empty boards of the smaller games (`(0, 0, k, k)`).
    pub fn all(stones: u8) -> Vec<Sector> {
        let mut out = Vec::new();
        for hands in 1..=2 * stones {
            for us_hand in hands.div_ceil(2)..=hands.min(stones) {
                let them_hand = hands - us_hand;
                for us in 0..=stones {
                    for them in 0..=stones {
                        let s = Sector::new(us, them, us_hand, them_hand);
                        if s.in_game(stones) {
                            out.push(s);
                        }
                    }
                }
            }
        }
        out
    }

    /// The key that sorts sectors in the order [`Sector::all`] lists
    /// them: by stones in hand, then the mover's hand, then the stones on
    /// the board. Every table a sector leads into sorts before it.
    pub const fn solving_order(self) -> (u8, u8, u8, u8) {
        (self.hands(), self.us_hand, self.us, self.them)
    }

    /// The table a placement of the side to move leads into (seen from
    /// the opponent, who moves next), with or without a removal.
    pub const fn after(self, removal: bool) -> TableId {
        let them = if removal { self.them - 1 } else { self.them };
        if self.them_hand == 0 && self.us_hand == 1 {
            TableId::Moving(Subspace::new(them, self.us + 1))
        } else {
            TableId::Placement(Sector::new(
                them,
                self.us + 1,
                self.them_hand,
                self.us_hand - 1,
            ))
        }
    }

    /// Does a removal leave the opponent with fewer than 3 stones (so the
    /// placement that makes it wins at once)?
    pub const fn removal_wins(self) -> bool {
        self.them + self.them_hand < 4
    }

    /// A position of this sector from mover-relative bitboards.
    pub fn position(self, us: Bits, them: Bits) -> Position {
        let to_move = self.to_move();
        let mut pos = Position::from_mover(us, them, to_move);
        pos.hand[to_move.index()] = self.us_hand;
        pos.hand[to_move.other().index()] = self.them_hand;
        pos
    }
}

impl std::fmt::Display for Sector {
    /// `w-b-wf-bf`, Malom's order.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}-{}-{}-{}",
            self.us, self.them, self.us_hand, self.them_hand
        )
    }
}

/// The value of the position `(us, them)` of `sector` for the side to
/// move, from the outcomes of the positions its placements lead into:
/// `plain(slot)` in [`Sector::after`]`(false)`, `removal(slot)` in
/// `after(true)` (slots of the opponent-to-move positions). A win as soon
/// as one placement leaves the opponent lost; else a draw if one draws.
/// Board `B`, slots of index `I`.
#[inline]
pub fn recompute<B: Board, I: Indexing>(
    sector: Sector,
    us: Bits,
    them: Bits,
    plain: &impl Fn(u64) -> Outcome,
    removal: &impl Fn(u64) -> Outcome,
) -> Outcome {
    let next_us = u32::from(sector.us) + 1;
    let after_removal = |r: usize| I::mover::<B>(them & !(1 << r), next_us);
    Placements::new::<B, I>(sector, us, them).value::<B, _>(
        sector,
        us,
        them,
        plain,
        removal,
        after_removal,
    )
}

/// The placements of one position, split for [`recompute`]: those that
/// close a mill, and the slots of the positions the others lead into.
/// A pass keeps one and refills it in place for every position.
#[derive(Default)]
pub struct Placements {
    /// Placements that close a mill with an opponent stone to remove.
    mills: Bits,
    /// Slots of the other placements' successors.
    slots: [u64; 32],
    /// How many.
    len: usize,
}

impl Placements {
    /// The placements of `(us, them)` in `sector`.
    #[inline]
    pub fn new<B: Board, I: Indexing>(sector: Sector, us: Bits, them: Bits) -> Placements {
        let mut out = Placements::default();
        out.set_after::<B>(us, them, &I::mover::<B>(them, u32::from(sector.us) + 1));
        out
    }

    /// Make these the placements of `(us, them)`, in place, with the
    /// successors' side to move prepared by the caller (`I::mover(them,
    /// us + 1)`: shared by every position with the same opponent stones).
    #[inline]
    pub fn set_after<B: Board>(&mut self, us: Bits, them: Bits, next: &impl MoverSlots) {
        let empty = !(us | them) & B::FULL;
        // With no opponent stone on the board a mill removes nothing.
        let mills = if them != 0 {
            B::closing_points(us, empty)
        } else {
            0
        };
        self.mills = mills;
        self.len = 0;
        let _ = next.for_each_added(us, empty & !mills, |_, slot| {
            self.slots[self.len] = slot;
            self.len += 1;
            ControlFlow::Continue(())
        });
    }

    /// The slots of the successors without a removal.
    fn plain_slots(&self) -> &[u64] {
        &self.slots[..self.len]
    }

    /// The value for the side to move (see [`recompute`]), with the
    /// successors' side to move after the removal of the opponent's stone
    /// `r` given by `after_removal(r)` (`I::mover(them & !(1 << r), us +
    /// 1)`, which a caller may keep for every position with the same
    /// opponent stones).
    #[inline]
    pub fn value<B: Board, M: MoverSlots>(
        &self,
        sector: Sector,
        us: Bits,
        them: Bits,
        plain: &impl Fn(u64) -> Outcome,
        removal: &impl Fn(u64) -> Outcome,
        mut after_removal: impl FnMut(usize) -> M,
    ) -> Outcome {
        let empty = !(us | them) & B::FULL;
        if sector.us + sector.us_hand < 3 || empty == 0 {
            return Outcome::Loss;
        }
        let mut best = Outcome::Loss;
        // Mill-closing placements first: they win most often.
        if self.mills != 0 {
            if sector.removal_wins() {
                return Outcome::Win;
            }
            // Each stone taken gives the next mover (the opponent less that
            // stone) once; the mill-closing placements share it.
            for r in points(B::removable(them)) {
                let found = after_removal(r).for_each_added(us, self.mills, |_, slot| {
                    match removal(slot) {
                        Outcome::Loss => return ControlFlow::Break(()),
                        Outcome::Draw => best = Outcome::Draw,
                        Outcome::Win => {}
                    }
                    ControlFlow::Continue(())
                });
                if found.is_break() {
                    return Outcome::Win;
                }
            }
        }
        for &slot in self.plain_slots() {
            match plain(slot) {
                Outcome::Loss => return Outcome::Win,
                Outcome::Draw => best = Outcome::Draw,
                Outcome::Win => {}
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A table's `game_stones` is the smallest game whose enumeration
    /// lists it ([`Sector::all`], [`crate::tables::subspaces`]).
    #[test]
    fn game_stones_is_the_smallest_game_listing_the_table() {
        for k in 3..=9u8 {
            for sector in Sector::all(k) {
                let smallest = (3..=k).find(|&j| Sector::all(j).contains(&sector));
                assert_eq!(Some(sector.game_stones()), smallest, "{sector}");
            }
            for sub in crate::tables::subspaces(k, 2 * k) {
                let smallest = (3..=k).find(|&j| crate::tables::subspaces(j, 2 * j).contains(&sub));
                assert_eq!(Some(sub.game_stones()), smallest, "{sub}");
            }
        }
    }

    #[test]
    fn the_nine_stone_game_has_maloms_sectors_plus_the_smaller_starts() {
        // Malom's std.secval lists 449 placement sectors for the standard
        // game; ours add the empty boards of the 3..8-stone games.
        let all = Sector::all(9);
        assert_eq!(all.len(), 449 + 6);
        for k in 3..=8 {
            assert!(all.contains(&Sector::new(0, 0, k, k)));
        }
        // Dependency order: every successor is solved before.
        for (i, s) in all.iter().enumerate() {
            for removal in [false, true] {
                if removal && (s.them == 0 || s.removal_wins()) {
                    continue;
                }
                if let TableId::Placement(next) = s.after(removal) {
                    let j = all.iter().position(|t| *t == next);
                    assert!(j.is_some_and(|j| j < i), "{s} -> {next}");
                    assert!(next.solving_order() < s.solving_order(), "{s} -> {next}");
                }
            }
        }
        // Subspaces: pair by pair in `pairs`' order, exits before.
        let mut subs: Vec<Subspace> = crate::games::nine::files::pairs(18)
            .into_iter()
            .flat_map(|p| [p, p.swapped()])
            .collect();
        subs.dedup();
        assert_eq!(subs.len(), 49);
        let mut sorted = subs.clone();
        sorted.sort_by_key(|s| s.solving_order());
        assert_eq!(sorted, subs);
        for s in &subs {
            if let Some(e) = s.exit() {
                assert!(e.solving_order() < s.solving_order(), "{s} -> {e}");
            }
        }
        // `solving_order` sorts a shuffled list back into `all`'s order.
        let mut shuffled = all.clone();
        shuffled.sort_by_key(|s| (s.them, s.us_hand, s.us, s.them_hand));
        assert_ne!(shuffled, all);
        shuffled.sort_by_key(|s| s.solving_order());
        assert_eq!(shuffled, all);
    }
}
