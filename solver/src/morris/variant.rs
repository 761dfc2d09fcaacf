//! The rules of the mill family as data: a [`RuleSet`] says how many stones
//! each side has, whether a side reduced to three stones flies, and what a
//! full board after placement means; a [`Variant`] is a board with its
//! standard stone count. The rule set's [`RuleSet::tag`] names tablebase
//! files and labels, so that a file refuses to load under another variant
//! or rule set.

use std::fmt;

/// What a board filled by placement means (only Morabaraba can fill its
/// board: 2 × 12 stones on 24 points).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FullBoard {
    /// The side to move, which has no legal move, draws (Malom's default).
    Draw,
    /// The side to move, which has no legal move, loses (the general rule).
    BlockedLoses,
}

/// The rules of one game of the family on a given board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RuleSet {
    /// Stones each side starts with in hand.
    pub stones: u8,
    /// A side with exactly 3 stones on the board and none in hand moves a
    /// stone to any empty point.
    pub flying: bool,
    /// The value of a board filled by placement.
    pub full_board: FullBoard,
}

impl RuleSet {
    /// A rule set with `stones` stones a side; a full board is a draw.
    pub const fn new(stones: u8, flying: bool) -> RuleSet {
        RuleSet {
            stones,
            flying,
            full_board: FullBoard::Draw,
        }
    }

    /// The rule part of file names and labels: `flying` or `noflying`,
    /// followed by the stone count when it is not the variant's standard
    /// one (`noflying-5`), and by `-blockedloses` under that option.
    pub fn tag(&self, variant: Variant) -> String {
        let mut tag = String::from(if self.flying { "flying" } else { "noflying" });
        if self.stones != variant.stones() {
            tag.push_str(&format!("-{}", self.stones));
        }
        if self.full_board == FullBoard::BlockedLoses {
            tag.push_str("-blockedloses");
        }
        tag
    }
}

/// A game of the mill family.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Variant {
    /// Nine Men's Morris: 24 points, 9 stones.
    Nine,
    /// Six Men's Morris: 16 points, 6 stones.
    Six,
    /// Morabaraba: 24 points with diagonals, 12 stones.
    Morabaraba,
}

impl Variant {
    /// The variant's name, as in the CLI and file names.
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Nine => "nine",
            Variant::Six => "six",
            Variant::Morabaraba => "morabaraba",
        }
    }

    /// Stones each side starts with in the standard game.
    pub const fn stones(self) -> u8 {
        match self {
            Variant::Nine => 9,
            Variant::Six => 6,
            Variant::Morabaraba => 12,
        }
    }

    /// The standard rule set (flying on; a full board draws).
    pub const fn rules(self) -> RuleSet {
        RuleSet::new(self.stones(), true)
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_tell_rule_sets_apart() {
        let six = Variant::Six;
        let tags = [
            RuleSet::new(6, true).tag(six),
            RuleSet::new(6, false).tag(six),
            RuleSet::new(5, true).tag(six),
            RuleSet {
                full_board: FullBoard::BlockedLoses,
                ..RuleSet::new(6, true)
            }
            .tag(six),
        ];
        assert_eq!(tags[0], "flying");
        assert_eq!(tags[1], "noflying");
        let mut unique = tags.to_vec();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), tags.len());
    }
}
