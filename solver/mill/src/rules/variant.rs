//! The rules of the mill family as data: a [`RuleSet`] says how many stones
//! each side has, whether a side reduced to three stones flies, and what a
//! full board after placement means; a [`Variant`] is a board with its
//! standard stone count. The rule set's [`RuleSet::tag`] names tablebase
//! files and labels, so that a file refuses to load under another variant
//! or rule set.
//!
//! Lasker Morris is the rule flag [`RuleSet::interleave`] (a side with
//! stones in hand may place or slide) on the Nine Men's Morris board, with
//! flying decided by stones on the board plus in hand
//! ([`RuleSet::flies`]).

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
    /// Lasker Morris: a side with stones in hand may place one or slide a
    /// board stone (placement and movement interleave from the first move),
    /// and a side flies when its stones on the board plus in hand number 3.
    pub interleave: bool,
    /// The count rule: the game is drawn once this many plies in a row
    /// have been played without a removal or a placement (`docs/rules.md`,
    /// "The count rule"; 100 plies is "fifty moves"). `None`: no count,
    /// endless play is a draw and the tables hold the game-theoretic value.
    /// The tables of a count rule hold the distance to conversion in the
    /// line that wins under the rule ([`tablebase::Value::within`]).
    pub quiet_limit: Option<u16>,
}

impl RuleSet {
    /// A rule set with `stones` stones a side; a full board is a draw.
    pub const fn new(stones: u8, flying: bool) -> RuleSet {
        RuleSet {
            stones,
            flying,
            full_board: FullBoard::Draw,
            interleave: false,
            quiet_limit: None,
        }
    }

    /// This rule set under the count rule of `limit` plies (`None`: none).
    pub const fn with_quiet_limit(self, limit: Option<u16>) -> RuleSet {
        RuleSet {
            quiet_limit: limit,
            ..self
        }
    }

    /// The options of `solver <game> generate` that write this rule set's
    /// tables, for a board whose own game has `own_stones` a side (empty
    /// for the board's own rules): ` --stones K`, ` --no-flying`,
    /// ` --blocked-loses`, ` --quiet-limit N`. What a missing table's error
    /// tells the user to run.
    pub fn generate_options(&self, own_stones: u8) -> String {
        let mut out = String::new();
        if self.stones != own_stones {
            out.push_str(&format!(" --stones {}", self.stones));
        }
        if !self.flying {
            out.push_str(" --no-flying");
        }
        if self.full_board == FullBoard::BlockedLoses {
            out.push_str(" --blocked-loses");
        }
        if let Some(limit) = self.quiet_limit {
            out.push_str(&format!(" --quiet-limit {limit}"));
        }
        out
    }

    /// Nine Men's Morris: nine stones a side, flying at three stones when
    /// `flying` (the standard rules; without it, the variant "without
    /// flying").
    pub const fn nine(flying: bool) -> RuleSet {
        RuleSet::new(9, flying)
    }

    /// Lasker Morris with `stones` stones a side (10 in the standard game):
    /// placing and sliding interleave, flying at 3 stones on the board plus
    /// in hand.
    pub const fn lasker(stones: u8) -> RuleSet {
        RuleSet {
            stones,
            flying: true,
            full_board: FullBoard::Draw,
            interleave: true,
            quiet_limit: None,
        }
    }

    /// Does a side with `board` stones on the board and `hand` in hand fly
    /// (move a board stone to any empty point)? Under the standard rules a
    /// side flies with exactly 3 stones on the board and none in hand; under
    /// Lasker's rules (Malom's condition) with 3 on the board and in hand
    /// together, so a side with 3 on the board and 2 in hand still slides.
    #[inline(always)]
    pub const fn flies(&self, board: u32, hand: u8) -> bool {
        self.flying
            && if self.interleave {
                board + hand as u32 == 3
            } else {
                hand == 0 && board == 3
            }
    }

    /// The rule part of file names and labels: `flying` or `noflying`,
    /// followed by the stone count when it is not the variant's standard
    /// one (`noflying-5`), by `-blockedloses` under that option, and by
    /// `-interleave` (or `-nointerleave` for Lasker Morris) when the rule
    /// set's interleaving is not its variant's, and by `-q100` under the
    /// count rule of 100 plies. Lasker files also carry the
    /// variant name `lasker` in their labels ([`crate::games::lasker`](mod@crate::games::lasker)), so
    /// no file of another variant or rule set loads as a Lasker table.
    pub fn tag(&self, variant: Variant) -> String {
        self.tag_for(variant.stones(), variant == Variant::Lasker)
    }

    /// [`tag`](Self::tag) for a game whose own stone count is `stones`
    /// (a board's [`Board::STONES`](crate::rules::board::Board::STONES), so that a
    /// board defined as data alone names its files); `lasker` for a game
    /// whose placing and sliding interleave.
    pub fn tag_for(&self, stones: u8, lasker: bool) -> String {
        let mut tag = String::from(if self.flying { "flying" } else { "noflying" });
        if self.stones != stones {
            tag.push_str(&format!("-{}", self.stones));
        }
        if self.full_board == FullBoard::BlockedLoses {
            tag.push_str("-blockedloses");
        }
        match (self.interleave, lasker) {
            (true, false) => tag.push_str("-interleave"),
            (false, true) => tag.push_str("-nointerleave"),
            _ => {}
        }
        if let Some(limit) = self.quiet_limit {
            tag.push_str(&format!("-q{limit}"));
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
    /// Lasker Morris: the Nine Men's Morris board, 10 stones, placing and
    /// sliding interleave.
    Lasker,
}

impl Variant {
    /// The variant's name, as in the CLI and file names.
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Nine => "nine",
            Variant::Six => "six",
            Variant::Morabaraba => "morabaraba",
            Variant::Lasker => "lasker",
        }
    }

    /// Stones each side starts with in the standard game.
    pub const fn stones(self) -> u8 {
        match self {
            Variant::Nine => 9,
            Variant::Six => 6,
            Variant::Morabaraba => 12,
            Variant::Lasker => 10,
        }
    }

    /// The standard rule set (flying on; a full board draws; Lasker
    /// Morris interleaves).
    pub const fn rules(self) -> RuleSet {
        match self {
            Variant::Lasker => RuleSet::lasker(self.stones()),
            _ => RuleSet::new(self.stones(), true),
        }
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
            RuleSet::new(6, true).with_quiet_limit(Some(100)).tag(six),
            RuleSet::new(6, true).with_quiet_limit(Some(50)).tag(six),
        ];
        assert_eq!(tags[0], "flying");
        assert_eq!(tags[4], "flying-q100");
        assert_eq!(tags[1], "noflying");
        let lasker = Variant::Lasker;
        assert_eq!(RuleSet::lasker(10).tag(lasker), "flying");
        assert_eq!(RuleSet::lasker(4).tag(lasker), "flying-4");
        assert_eq!(RuleSet::new(4, true).tag(lasker), "flying-4-nointerleave");
        assert_eq!(RuleSet::lasker(6).tag(six), "flying-interleave");
        let mut unique = tags.to_vec();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), tags.len());
    }

    #[test]
    fn lasker_flies_on_board_plus_hand() {
        let lasker = RuleSet::lasker(10);
        assert!(lasker.flies(3, 0));
        assert!(lasker.flies(1, 2));
        assert!(!lasker.flies(3, 2));
        let nine = RuleSet::new(9, true);
        assert!(nine.flies(3, 0));
        assert!(!nine.flies(1, 2));
        assert!(!RuleSet::new(9, false).flies(3, 0));
    }
}
