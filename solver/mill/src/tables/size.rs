//! Which moving-phase subspaces a run covers, the same on every board:
//! at most `stones` a side (`--stones K`: the K-stone game) and at most
//! `max_total` in all (`--max-stones N`: w + b ≤ N, the tables a smaller
//! job can stop at). Nine Men's Morris and Morabaraba take both options
//! with this meaning; the boards solved whole take `--stones K` only.

use crate::tables::keys::Subspace;
use crate::tables::{pairs, subspaces};

/// The subspaces of a run: `stones` a side, `max_total` in all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Size {
    /// Stones a side at most (the game's own count by default).
    pub stones: u8,
    /// Stones in all at most (`2 * stones`, every subspace of the game, by
    /// default).
    pub max_total: u8,
}

/// Why the size options cannot go together.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SizeError {
    /// The placement sectors need every moving-phase subspace of the game.
    #[error("--placement needs every moving subspace of the {stones}-stone game: drop --max-stones or make it at least {}", 2 * .stones)]
    PlacementNeedsMoving {
        /// Stones a side.
        stones: u8,
    },
}

impl Size {
    /// Every subspace of the `stones`-stone game.
    pub fn game(stones: u8) -> Size {
        Size {
            stones,
            max_total: 2 * stones,
        }
    }

    /// `--stones K` and, when given, `--max-stones N` (never more than the
    /// game holds).
    pub fn new(stones: u8, max_total: Option<u8>) -> Size {
        Size {
            stones,
            max_total: max_total.map_or(2 * stones, |n| n.min(2 * stones)),
        }
    }

    /// Does the run cover the whole moving phase of its game (what the
    /// placement sectors read)?
    pub fn whole_game(self) -> bool {
        self.max_total >= 2 * self.stones
    }

    /// [`Size::whole_game`], or the error naming the options.
    pub fn check_placement(self) -> Result<(), SizeError> {
        if self.whole_game() {
            Ok(())
        } else {
            Err(SizeError::PlacementNeedsMoving {
                stones: self.stones,
            })
        }
    }

    /// Is `sub` one of the run's subspaces?
    pub fn contains(self, sub: Subspace) -> bool {
        (3..=self.stones).contains(&sub.us)
            && (3..=self.stones).contains(&sub.them)
            && sub.us + sub.them <= self.max_total
    }

    /// The run's pairs in their solving order ([`pairs`]).
    pub fn pairs(self) -> Vec<Subspace> {
        pairs(self.stones, self.max_total)
    }

    /// The run's subspaces in their solving order ([`subspaces`]).
    pub fn subspaces(self) -> Vec<Subspace> {
        subspaces(self.stones, self.max_total)
    }

    /// The options as `generate` takes them, leaving out the defaults
    /// (`own` is the game's own stone count).
    pub fn options(self, own: u8) -> Vec<String> {
        let mut out = Vec::new();
        if self.stones != own {
            out.push(format!("--stones {}", self.stones));
        }
        if !self.whole_game() {
            out.push(format!("--max-stones {}", self.max_total));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every subspace listed is contained, and every contained subspace
    /// with 3..=12 stones a side is listed (an independent enumeration).
    #[test]
    fn subspaces_are_exactly_the_contained_ones() {
        for stones in 3..=12 {
            for max_total in 6..=2 * stones {
                let size = Size::new(stones, Some(max_total));
                let listed = size.subspaces();
                let mut brute = Vec::new();
                for w in 3..=12u8 {
                    for b in 3..=12u8 {
                        if w <= stones && b <= stones && w + b <= max_total {
                            brute.push(Subspace::new(w, b));
                        }
                    }
                }
                assert_eq!(listed.len(), brute.len(), "{size:?}");
                assert!(brute.iter().all(|s| listed.contains(s)), "{size:?}");
                assert!(listed.iter().all(|&s| size.contains(s)), "{size:?}");
            }
        }
    }

    #[test]
    fn options_leave_out_defaults() {
        assert!(Size::game(9).options(9).is_empty());
        assert_eq!(Size::new(9, Some(9)).options(9), ["--max-stones 9"]);
        assert_eq!(Size::new(4, Some(30)).options(12), ["--stones 4"]);
        assert_eq!(
            Size::new(4, Some(7)).check_placement(),
            Err(SizeError::PlacementNeedsMoving { stones: 4 })
        );
        assert!(Size::new(4, Some(8)).check_placement().is_ok());
    }
}
