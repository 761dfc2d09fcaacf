//! The solved games a match plays, as [`Solved`]: Three Men's Morris (its
//! whole solution), the family boards (anything with
//! [`Values`]: Six Men's Morris, Morabaraba, Lasker Morris, a board defined
//! as data) and Nine Men's Morris (its tablebases, placement sectors
//! included, and Malom's sector values for the `secval` policy).

use crate::duel::{Choice, DuelError, Finish, Solved};
use crate::games::three;
use crate::malom::{read_secval, SectorId};
use crate::probe::count::Count;
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

/// Where a position after `quiet` quiet plies stands in the count rule of
/// `rules` (`None` without one; a placement position, and a count past the
/// limit, are held at zero and at the limit).
fn count_of(rules: RuleSet, pos: &Position, quiet: u16) -> Option<Count> {
    let limit = rules.quiet_limit?;
    let plies = if pos.placing() { 0 } else { quiet.min(limit) };
    Some(Count { limit, plies })
}

/// A successor's stored value (with its distance) read at its count after
/// move `m` of a position at `count`: a successor past the limit (a quiet
/// move of a game the count has drawn) is a draw.
fn read_after(count: Option<Count>, m: Move, stored: Value) -> Value {
    match count.map(|c| c.after(m)) {
        None => stored,
        Some(c) if c.plies > c.limit => Value::DRAW,
        Some(c) => c.read(stored),
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

/// Three Men's Morris under the count rule: the solution and its values
/// under the rule ([`three::count::CountedThree`]); every move is read at
/// the count after it, and the game is drawn at the limit.
pub struct ThreeCounted<'a>(
    pub &'a three::solve::Solution,
    pub &'a three::count::CountedThree,
);

impl Solved for ThreeCounted<'_> {
    type Position = three::Position;
    type Move = three::Move;

    fn start(&self) -> three::Position {
        Three(self.0).start()
    }

    fn to_move(&self, pos: &three::Position) -> Color {
        pos.to_move
    }

    fn finish(&self, pos: &three::Position) -> Option<Finish> {
        Three(self.0).finish(pos)
    }

    fn moves(&self, pos: &three::Position) -> Result<Vec<Choice<three::Move>>, DuelError> {
        self.moves_at(pos, 0)
    }

    fn play(&self, pos: &three::Position, m: three::Move) -> three::Position {
        pos.play(m)
    }

    fn irreversible(&self, _pos: &three::Position, m: three::Move) -> bool {
        m.from.is_none()
    }

    fn quiet_limit(&self) -> Option<u16> {
        Some(self.1.limit())
    }

    /// Best first, each move at the count after it.
    fn moves_at(
        &self,
        pos: &three::Position,
        quiet: u16,
    ) -> Result<Vec<Choice<three::Move>>, DuelError> {
        let quiet = quiet.min(self.1.limit());
        Ok(self
            .1
            .moves_at(self.0, pos, quiet)
            .into_iter()
            .map(|(mv, value, _)| Choice {
                mv,
                value,
                has_distance: true,
            })
            .collect())
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
    /// [`crate::probe::values::best_move`] plays. Under a count rule, read
    /// at a count of zero ([`Solved::moves_at`]).
    fn moves(&self, pos: &Position) -> Result<Vec<Choice<Move>>, DuelError> {
        self.moves_at(pos, 0)
    }

    fn quiet_limit(&self) -> Option<u16> {
        self.rules.quiet_limit
    }

    /// [`Solved::moves`] after `quiet` quiet plies: under the count rule
    /// each move's successor is read at its own count ([`Count::after`],
    /// [`Count::read`]; a placement position's outcome needs none).
    fn moves_at(&self, pos: &Position, quiet: u16) -> Result<Vec<Choice<Move>>, DuelError> {
        let count = count_of(self.rules, pos, quiet);
        let mut out = legal_moves::<B>(pos, self.rules)
            .into_iter()
            .rev()
            .map(|mv| {
                let next = pos.apply(mv);
                let (v, has_distance) = match ending::<B>(&next, self.rules) {
                    Some(Ending::Loss(_)) => (Value::loss(0), true),
                    Some(Ending::FullBoardDraw) => (Value::DRAW, true),
                    None => {
                        let v = self.values.value(&next).ok_or_else(|| {
                            DuelError::Missing(rules::format_position::<B>(&next))
                        })?;
                        let has_distance = self.values.has_distance(&next);
                        let v = if has_distance {
                            read_after(count, mv, v)
                        } else {
                            v
                        };
                        (v, has_distance)
                    }
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
        self.moves_at(pos, 0)
    }

    fn quiet_limit(&self) -> Option<u16> {
        self.tb.rules().quiet_limit
    }

    /// [`Solved::moves`] after `quiet` quiet plies: under the count rule
    /// each moving-phase move's successor is read at its own count
    /// ([`Tablebases::move_values_at`]; every placement restarts it).
    fn moves_at(&self, pos: &Position, quiet: u16) -> Result<Vec<Choice<Move>>, DuelError> {
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
        let count = count_of(self.tb.rules(), pos, quiet);
        let best = match count {
            None => self.tb.best_moves(pos)?,
            Some(c) => {
                let mut moves = if c.expired() {
                    // The count has drawn the game: a quiet move's
                    // successor is past the limit.
                    let mut moves = self.tb.move_values(pos)?;
                    for (m, v) in &mut moves {
                        if m.removal().is_none() && v.distance() != Some(1) {
                            *v = Value::DRAW;
                        }
                    }
                    moves
                } else {
                    self.tb.move_values_at(pos, Some(c))?
                };
                moves.sort_by_key(|&(m, v)| crate::probe::analysis::preference(m, v));
                moves
            }
        };
        Ok(best
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
