//! The count rule at probe time (`docs/rules.md`, "The count rule"): where
//! a position stands in the count ([`Count`]: the limit and the quiet
//! plies already played), how a stored value of the count rule's tables
//! reads there ([`Count::read`]), and the count after a move
//! ([`Count::after`]). The tables store each position's distance to
//! conversion in the line that wins under the rule, so one table serves
//! every count: a win or loss stands iff its distance fits the plies left.

use crate::rules::position::Move;
use crate::rules::variant::RuleSet;
use tablebase::{Outcome, Value};

/// A position's place in the count rule: `plies` quiet plies (without a
/// removal or a placement) played of the `limit` after which the game is
/// drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Count {
    /// Quiet plies that draw the game.
    pub limit: u16,
    /// Quiet plies already played (at most `limit`).
    pub plies: u16,
}

/// Quiet plies beyond the rule's limit: the game is over already.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("{plies} quiet plies is past the count rule's limit of {limit}")]
pub struct CountError {
    /// The plies given.
    pub plies: u16,
    /// The limit.
    pub limit: u16,
}

impl Count {
    /// The count of a position under `rules` after `plies` quiet plies;
    /// `None` when the rule set has no count rule.
    pub fn of(rules: RuleSet, plies: u16) -> Result<Option<Count>, CountError> {
        match rules.quiet_limit {
            None => Ok(None),
            Some(limit) if plies > limit => Err(CountError { plies, limit }),
            Some(limit) => Ok(Some(Count { limit, plies })),
        }
    }

    /// Quiet plies left before the count draws the game.
    pub fn left(self) -> u16 {
        self.limit - self.plies
    }

    /// Has the count drawn the game (no quiet ply left)?
    pub fn expired(self) -> bool {
        self.plies >= self.limit
    }

    /// The count after `m`: zero after a removal or a placement, else one
    /// more.
    pub fn after(self, m: Move) -> Count {
        let restarts = m.removal().is_some() || m.from().is_none();
        Count {
            plies: if restarts { 0 } else { self.plies + 1 },
            ..self
        }
    }

    /// A stored moving-phase value of the count rule's tables read at this
    /// count: a win or loss whose distance to conversion is more than the
    /// plies left is a draw ([`Value::within`]).
    pub fn read(self, stored: Value) -> Value {
        stored.within(self.left())
    }
}

/// What the count rule made of a value, as Syzygy's chess tables name
/// it: a *cursed win* is won without the rule and drawn under it (the win
/// takes too long), a *blessed loss* lost without it and drawn under it.
/// The rule never turns a draw into a decision or a win into a loss (a
/// side that wins under the count wins without it), so no other change
/// exists.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Label {
    /// Won without the count rule, drawn under it.
    CursedWin,
    /// Lost without the count rule, drawn under it.
    BlessedLoss,
}

impl Label {
    /// The label of a value that is `plain` without the rule and
    /// `counted` under it; `None` when the rule changed nothing.
    pub fn of(plain: Outcome, counted: Outcome) -> Option<Label> {
        match (plain, counted) {
            (Outcome::Win, Outcome::Draw) => Some(Label::CursedWin),
            (Outcome::Loss, Outcome::Draw) => Some(Label::BlessedLoss),
            _ => None,
        }
    }

    /// The name in JSON: `cursed-win`, `blessed-loss`.
    pub fn as_str(self) -> &'static str {
        match self {
            Label::CursedWin => "cursed-win",
            Label::BlessedLoss => "blessed-loss",
        }
    }

    /// The name in words: `cursed win`, `blessed loss`.
    pub fn words(self) -> &'static str {
        match self {
            Label::CursedWin => "cursed win",
            Label::BlessedLoss => "blessed loss",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_count_reads_distances_against_the_plies_left() {
        let rules = RuleSet::nine(true).with_quiet_limit(Some(10));
        assert_eq!(Count::of(RuleSet::nine(true), 3), Ok(None));
        assert_eq!(
            Count::of(rules, 11),
            Err(CountError {
                plies: 11,
                limit: 10
            })
        );
        let c = Count::of(rules, 4).unwrap().unwrap();
        assert_eq!(c.left(), 6);
        assert_eq!(c.read(Value::win(6)), Value::win(6));
        assert_eq!(c.read(Value::win(7)), Value::DRAW);
        assert_eq!(c.read(Value::loss(0)), Value::loss(0));
        let slide = Move::shift(0, 1);
        assert_eq!(c.after(slide).plies, 5);
        assert_eq!(c.after(slide.with_removal(5)).plies, 0);
        assert_eq!(c.after(Move::place(3)).plies, 0);
        assert!(!c.expired());
        assert!(Count::of(rules, 10).unwrap().unwrap().expired());
    }

    #[test]
    fn only_a_decision_turned_into_a_draw_is_labelled() {
        use Outcome::{Draw, Loss, Win};
        let all = [Win, Draw, Loss];
        let labelled: Vec<_> = all
            .iter()
            .flat_map(|&p| all.iter().map(move |&c| ((p, c), Label::of(p, c))))
            .filter(|(_, l)| l.is_some())
            .collect();
        assert_eq!(
            labelled,
            [
                ((Win, Draw), Some(Label::CursedWin)),
                ((Loss, Draw), Some(Label::BlessedLoss))
            ]
        );
        assert_eq!(Label::CursedWin.as_str(), "cursed-win");
    }
}
