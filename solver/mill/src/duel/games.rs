//! The solved games a match plays, as [`Solved`]: Three Men's Morris (its
//! whole solution), the family boards (anything with
//! [`Values`]: Six Men's Morris, Morabaraba, Lasker Morris, a board defined
//! as data) and Nine Men's Morris (its tablebases, placement sectors
//! included, and Malom's sector values for the `secval` policy).

use crate::duel::{Choice, DuelError, Finish, Solved};
use crate::games::three;
use crate::malom::{read_secval, SectorId};
use crate::probe::nine::Tablebases;
use crate::probe::values::Values;
use crate::rules::board::Board;
use crate::rules::position::{Color, Move, Position};
use crate::rules::variant::RuleSet;
use crate::rules::{self, ending, legal_moves, Ending};
use std::collections::HashMap;
use std::marker::PhantomData;
use std::path::Path;
use tablebase::{Outcome, Value};

/// The value standing for an outcome where the tables know no distance.
fn outcome_value(o: Outcome) -> Value {
    match o {
        Outcome::Win => Value::win(1),
        Outcome::Draw => Value::DRAW,
        Outcome::Loss => Value::loss(1),
    }
}

/// Three Men's Morris from its complete solution.
pub struct Three<'a>(pub &'a three::solve::Solution);

impl Solved for Three<'_> {
    type Position = three::Position;
    type Move = three::Move;

    fn start(&self) -> three::Position {
        three::Position::start()
    }

    fn to_move(&self, pos: &three::Position) -> Color {
        pos.to_move
    }

    fn finish(&self, pos: &three::Position) -> Option<Finish> {
        pos.finished().then_some(Finish::Loss)
    }

    /// Best first, as the perfect player of `three probe` lists them.
    fn moves(&self, pos: &three::Position) -> Result<Vec<Choice<three::Move>>, DuelError> {
        Ok(self
            .0
            .moves(pos)
            .into_iter()
            .map(|(mv, value)| Choice {
                mv,
                value,
                has_distance: true,
            })
            .collect())
    }

    fn play(&self, pos: &three::Position, m: three::Move) -> three::Position {
        pos.play(m)
    }

    fn irreversible(&self, _pos: &three::Position, m: three::Move) -> bool {
        m.from.is_none()
    }
}

/// A game of the family (board `B`, rule set `rules`) from anything that
/// knows its values.
pub struct Family<'a, B, V> {
    values: &'a V,
    rules: RuleSet,
    board: PhantomData<fn() -> B>,
}

impl<'a, B: Board, V: Values<B>> Family<'a, B, V> {
    /// The game of `values` under `rules`.
    pub fn new(values: &'a V, rules: RuleSet) -> Self {
        Family {
            values,
            rules,
            board: PhantomData,
        }
    }
}

impl<B: Board, V: Values<B>> Solved for Family<'_, B, V> {
    type Position = Position;
    type Move = Move;

    fn start(&self) -> Position {
        Position::start(self.rules)
    }

    fn to_move(&self, pos: &Position) -> Color {
        pos.to_move
    }

    fn finish(&self, pos: &Position) -> Option<Finish> {
        ending::<B>(pos, self.rules).map(|e| match e {
            Ending::Loss(_) => Finish::Loss,
            Ending::FullBoardDraw => Finish::Draw,
        })
    }

    /// Best first; among equal values the last in the order of
    /// [`legal_moves`] first, so that `fast` plays what
    /// [`crate::probe::values::best_move`] plays.
    fn moves(&self, pos: &Position) -> Result<Vec<Choice<Move>>, DuelError> {
        let mut out = legal_moves::<B>(pos, self.rules)
            .into_iter()
            .rev()
            .map(|mv| {
                let next = pos.apply(mv);
                let (v, has_distance) = match ending::<B>(&next, self.rules) {
                    Some(Ending::Loss(_)) => (Value::loss(0), true),
                    Some(Ending::FullBoardDraw) => (Value::DRAW, true),
                    None => (
                        self.values.value(&next).ok_or_else(|| {
                            DuelError::Missing(rules::format_position::<B>(&next))
                        })?,
                        self.values.has_distance(&next),
                    ),
                };
                let converts =
                    mv.removal().is_some() || (self.rules.interleave && mv.from().is_none());
                let value = Value::after_move(v, converts);
                Ok(Choice {
                    mv,
                    value: if has_distance {
                        value
                    } else {
                        outcome_value(value.outcome())
                    },
                    has_distance,
                })
            })
            .collect::<Result<Vec<_>, DuelError>>()?;
        out.sort_by_key(|c| std::cmp::Reverse(c.value));
        Ok(out)
    }

    fn play(&self, pos: &Position, m: Move) -> Position {
        pos.apply(m)
    }

    fn irreversible(&self, _pos: &Position, m: Move) -> bool {
        m.from().is_none() || m.removal().is_some()
    }
}

/// Nine Men's Morris from its tablebases: the moving phase with distances
/// to conversion, the placement phase from the placement sectors
/// (outcomes only), and, when given, Malom's sector values.
pub struct Nine<'a> {
    tb: &'a Tablebases,
    start: Position,
    secval: Option<HashMap<SectorId, i32>>,
}

impl<'a> Nine<'a> {
    /// The game of `tb` (the placement sectors must be there for a game
    /// from the start).
    pub fn new(tb: &'a Tablebases) -> Self {
        Nine {
            tb,
            start: Position::start(tb.rules()),
            secval: None,
        }
    }

    /// Games start from `start` instead (the empty board of the game with
    /// fewer stones, `........................ w K K`).
    pub fn from(mut self, start: Position) -> Self {
        self.start = start;
        self
    }

    /// Also read Malom's `std.secval` from `dir` for the `secval` policy.
    pub fn with_secval(mut self, dir: &Path) -> Result<Self, DuelError> {
        self.secval = Some(read_secval(dir)?);
        Ok(self)
    }
}

impl Solved for Nine<'_> {
    type Position = Position;
    type Move = Move;

    fn start(&self) -> Position {
        self.start
    }

    fn to_move(&self, pos: &Position) -> Color {
        pos.to_move
    }

    fn finish(&self, pos: &Position) -> Option<Finish> {
        ending::<crate::rules::board::Nine>(pos, self.tb.rules()).map(|_| Finish::Loss)
    }

    /// Best first, as [`Tablebases::best_moves`] and
    /// [`Tablebases::move_outcomes`] list them.
    fn moves(&self, pos: &Position) -> Result<Vec<Choice<Move>>, DuelError> {
        if pos.placing() {
            return Ok(self
                .tb
                .move_outcomes(pos)?
                .into_iter()
                .map(|(mv, o)| Choice {
                    mv,
                    value: outcome_value(o),
                    has_distance: false,
                })
                .collect());
        }
        Ok(self
            .tb
            .best_moves(pos)?
            .into_iter()
            .map(|(mv, value)| Choice {
                mv,
                value,
                has_distance: true,
            })
            .collect())
    }

    fn play(&self, pos: &Position, m: Move) -> Position {
        pos.apply(m)
    }

    fn irreversible(&self, _pos: &Position, m: Move) -> bool {
        m.from().is_none() || m.removal().is_some()
    }

    /// Malom's value of the position's sector `(W, B, WF, BF)` from the side
    /// to move's view; 0 for a sector `std.secval` does not list.
    fn sector_value(&self, pos: &Position) -> Option<i32> {
        let map = self.secval.as_ref()?;
        let id = SectorId {
            w: pos.us().count_ones() as u8,
            b: pos.them().count_ones() as u8,
            wf: pos.our_hand(),
            bf: pos.their_hand(),
        };
        Some(map.get(&id).copied().unwrap_or(0))
    }
}
