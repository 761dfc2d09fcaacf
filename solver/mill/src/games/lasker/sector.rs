//! The sectors of Lasker Morris: stones on the board and in hand of the
//! side to move and of its opponent. Sliding keeps the stone counts (the
//! successor lies in the swapped sector: the other side is to move), a
//! placement lowers the mover's hand, a removal the opponent's board count.
//! So the two sectors `(a, b, ha, hb)` and `(b, a, hb, ha)` form a pair
//! closed under slides (cycles inside), and every other move leaves the
//! pair for a pair with fewer stones in hand, or as many in hand and fewer
//! on the board: the order of [`pairs`].

use crate::index;
use crate::rules::board::Board;
use crate::tables::keys::Subspace;

/// A sector, mover-relative.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LaskerSector {
    /// Stones on the board, side to move.
    pub us: u8,
    /// Stones on the board, opponent.
    pub them: u8,
    /// Stones in hand, side to move.
    pub us_hand: u8,
    /// Stones in hand, opponent.
    pub them_hand: u8,
}

impl LaskerSector {
    /// The sector `(us, them, us_hand, them_hand)`.
    pub const fn new(us: u8, them: u8, us_hand: u8, them_hand: u8) -> LaskerSector {
        LaskerSector {
            us,
            them,
            us_hand,
            them_hand,
        }
    }

    /// The same stones seen from the other side (the sector slides lead to).
    pub const fn swapped(self) -> LaskerSector {
        LaskerSector::new(self.them, self.us, self.them_hand, self.us_hand)
    }

    /// The boards of the sector as a subspace of the dense index.
    pub const fn subspace(self) -> Subspace {
        Subspace::new(self.us, self.them)
    }

    /// Positions of the sector on board `B`, each symmetric image apart:
    /// the slots of the dense index ([`crate::index`]), which the
    /// in-memory solver of the reduced games uses.
    pub fn size<B: Board>(self) -> u64 {
        index::size::<B>(self.subspace())
    }

    /// Slots of the sector's table in Nine Men's Morris's symmetry-reduced
    /// index ([`crate::index::nine`]; Malom's sector numbering): what the
    /// generator on disk solves and stores.
    pub fn slots(self) -> u64 {
        crate::index::nine::size(self.subspace())
    }

    /// The sector of a position (its side to move's stones first).
    pub fn of(pos: &crate::rules::position::Position) -> LaskerSector {
        LaskerSector::new(
            pos.us().count_ones() as u8,
            pos.them().count_ones() as u8,
            pos.our_hand(),
            pos.their_hand(),
        )
    }

    /// The pair the sector is solved in, named by its greater sector (as
    /// [`pairs`] lists it).
    pub fn pair(self) -> LaskerSector {
        self.max(self.swapped())
    }

    /// Is this a sector of the `stones`-stone game on board `B`: each side
    /// has between 3 and `stones` stones on the board and in hand (a side
    /// with fewer has lost) and the stones fit the board?
    pub fn in_game<B: Board>(self, stones: u8) -> bool {
        let (mine, theirs) = (self.us + self.us_hand, self.them + self.them_hand);
        (3..=stones).contains(&mine)
            && (3..=stones).contains(&theirs)
            && (self.us + self.them) as usize <= B::POINTS
    }

    /// Stones in hand of both sides (placements lower it).
    pub const fn hands(self) -> u8 {
        self.us_hand + self.them_hand
    }

    /// Stones on the board of both sides (removals lower it).
    pub const fn boards(self) -> u8 {
        self.us + self.them
    }

    /// Where a placement leads (a removal with it too, with `removal`), or
    /// `None` when the removal leaves the opponent fewer than 3 stones (a
    /// win) — or when the side has nothing in hand.
    pub fn after_placement(self, removal: bool) -> Option<LaskerSector> {
        if self.us_hand == 0 {
            return None;
        }
        let them = self.them.checked_sub(removal as u8)?;
        (them + self.them_hand >= 3)
            .then(|| LaskerSector::new(them, self.us + 1, self.them_hand, self.us_hand - 1))
    }

    /// Where a board move with a removal leads, or `None` when the removal
    /// wins (the opponent keeps fewer than 3 stones) or cannot happen.
    pub fn after_slide_removal(self) -> Option<LaskerSector> {
        let them = self.them.checked_sub(1)?;
        (them + self.them_hand >= 3)
            .then(|| LaskerSector::new(them, self.us, self.them_hand, self.us_hand))
    }
}

/// Every sector pair of the `stones`-stone game on board `B`, one sector
/// per pair (the greater of a sector and its swap), in the order they are
/// solved: by stones in hand of both sides, then by stones on the board,
/// ascending: every exit of a pair leads into a pair listed before it.
pub fn pairs<B: Board>(stones: u8) -> Vec<LaskerSector> {
    let mut out = Vec::new();
    for a in 0..=stones {
        for b in 0..=stones {
            for ha in 0..=stones {
                for hb in 0..=stones {
                    let s = LaskerSector::new(a, b, ha, hb);
                    if s.in_game::<B>(stones) && s >= s.swapped() {
                        out.push(s);
                    }
                }
            }
        }
    }
    out.sort_by_key(|s| (s.hands(), s.boards(), std::cmp::Reverse(*s)));
    out
}

/// Every sector of the game (both of each pair), in solving order.
pub fn sectors<B: Board>(stones: u8) -> Vec<LaskerSector> {
    let mut out = Vec::new();
    for s in pairs::<B>(stones) {
        out.push(s);
        if s.swapped() != s {
            out.push(s.swapped());
        }
    }
    out
}

/// Positions of the whole `stones`-stone game on board `B`, each symmetric
/// image apart (the dense index's slots).
pub fn positions<B: Board>(stones: u8) -> u128 {
    sectors::<B>(stones)
        .iter()
        .map(|s| s.size::<B>() as u128)
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::board::Nine;

    #[test]
    fn exits_lead_to_pairs_solved_before() {
        for stones in 3..=10 {
            let order = pairs::<Nine>(stones);
            let rank = |s: LaskerSector| {
                let key = s.max(s.swapped());
                order.iter().position(|&p| p == key)
            };
            for (i, &p) in order.iter().enumerate() {
                for s in [p, p.swapped()] {
                    let exits = [
                        s.after_placement(false),
                        s.after_placement(true),
                        s.after_slide_removal(),
                    ];
                    for e in exits.into_iter().flatten() {
                        let j = rank(e).unwrap_or_else(|| panic!("{e:?} not in the game"));
                        assert!(j < i, "{s:?} -> {e:?}");
                    }
                }
            }
        }
    }
}
