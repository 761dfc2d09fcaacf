//! What the count rule changes in a table (`docs/rules.md`, "The count
//! rule"): a table of the count rule beside the same table without it,
//! position by position at a count of zero (right after a removal or a
//! placement): the wins, draws and losses under the rule, and the
//! *cursed wins* (won without the count, drawn with it) and *blessed
//! losses* (lost without the count, saved by it), as Syzygy's tables of
//! chess name them. The figures of `stats` under `--quiet-limit`.

use tablebase::format::FormatError;
use tablebase::reader::Table;
use tablebase::{Outcome, Value};

/// The count rule's outcomes of one table at a count of zero, beside the
/// outcomes without the rule.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Changes {
    /// Positions (used slots).
    pub positions: u64,
    /// Wins under the rule.
    pub wins: u64,
    /// Draws under the rule.
    pub draws: u64,
    /// Losses under the rule.
    pub losses: u64,
    /// Wins without the rule that the count turns into draws.
    pub cursed_wins: u64,
    /// Losses without the rule that the count turns into draws.
    pub blessed_losses: u64,
}

impl Changes {
    /// Count one position: `plain` its value without the rule, `counted`
    /// its stored value under the rule of `limit` plies.
    #[inline]
    pub fn add(&mut self, plain: Value, counted: Value, limit: u16) {
        match (plain.outcome(), counted.within(limit).outcome()) {
            (_, Outcome::Win) => self.wins += 1,
            (_, Outcome::Loss) => self.losses += 1,
            (Outcome::Win, Outcome::Draw) => self.cursed_wins += 1,
            (Outcome::Loss, Outcome::Draw) => self.blessed_losses += 1,
            (Outcome::Draw, Outcome::Draw) => {}
        }
    }

    /// The sum of two tables' counts.
    pub fn plus(self, o: Changes) -> Changes {
        Changes {
            positions: self.positions + o.positions,
            wins: self.wins + o.wins,
            draws: self.draws + o.draws,
            losses: self.losses + o.losses,
            cursed_wins: self.cursed_wins + o.cursed_wins,
            blessed_losses: self.blessed_losses + o.blessed_losses,
        }
    }
}

/// Compare the count rule's table `counted` (limit `limit`) with the same
/// table without the rule, `plain`, slot by slot. Slots that hold no
/// position are draws in both and count as no position (the draws are the
/// positions neither won nor lost under the rule, as the headers count
/// them).
/// Tables of different sizes are an error naming the count rule's file.
pub fn compare(plain: &Table, counted: &Table, limit: u16) -> Result<Changes, FormatError> {
    let (p, c) = (plain.header(), counted.header());
    if p.slots != c.slots {
        return Err(FormatError::Damaged {
            path: counted.path().to_owned(),
            what: format!(
                "{} slots, its table without the count rule {}",
                c.slots, p.slots
            ),
        });
    }
    let (plain, counted) = (plain.values()?, counted.values()?);
    Ok(of_values(&plain, &counted, limit, c.positions))
}

/// The count rule's wins, draws and losses of `counted` (limit `limit`)
/// at a count of zero, without the table without the rule: its cursed
/// wins and blessed losses are not known (left at zero; the caller says
/// so).
pub fn tally(counted: &Table, limit: u16) -> Result<Changes, FormatError> {
    let positions = counted.header().positions;
    let values = counted.values()?;
    let mut out = Changes {
        positions,
        ..Changes::default()
    };
    for v in values.iter() {
        match v.within(limit).outcome() {
            Outcome::Win => out.wins += 1,
            Outcome::Loss => out.losses += 1,
            Outcome::Draw => {}
        }
    }
    out.draws = positions.saturating_sub(out.wins + out.losses);
    Ok(out)
}

/// [`compare`] of two value arrays holding `positions` positions.
pub fn of_values(plain: &[Value], counted: &[Value], limit: u16, positions: u64) -> Changes {
    let mut out = Changes {
        positions,
        ..Changes::default()
    };
    for (&p, &c) in plain.iter().zip(counted) {
        out.add(p, c, limit);
    }
    out.draws = positions.saturating_sub(out.wins + out.losses);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changes_sort_each_position_by_both_outcomes() {
        let plain = [
            Value::win(3),
            Value::win(9),
            Value::loss(8),
            Value::loss(2),
            Value::DRAW,
            Value::win(7),
        ];
        // Under a rule of 5 plies: the stored distances of the rule's
        // tables (the last win reached a cursed exit: a draw).
        let counted = [
            Value::win(3),
            Value::win(9),
            Value::loss(8),
            Value::loss(2),
            Value::DRAW,
            Value::DRAW,
        ];
        let c = of_values(&plain, &counted, 5, 6);
        // The rule's own counts need no table without the rule.
        let alone = of_values(&counted, &counted, 5, 6);
        assert_eq!((alone.wins, alone.draws, alone.losses), (1, 4, 1));
        assert_eq!(
            c,
            Changes {
                positions: 6,
                wins: 1,
                draws: 4,
                losses: 1,
                cursed_wins: 2,
                blessed_losses: 1,
            }
        );
    }
}
