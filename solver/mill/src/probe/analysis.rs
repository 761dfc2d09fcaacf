//! The full answer about one position of any mill game — its value, its
//! distance to conversion, every legal move with its value, best first,
//! and where the answer came from — as one type, [`Analysis`], generic over
//! the board, with one JSON form (`position`, `value`, `dtc`, `source`,
//! `moves` with `move`, `value`, `dtc`: `docs/api.md`). The order of
//! preference is [`best_first`] (`tablebase::Value`'s `Ord`), the parent's
//! view of a child `Value::after_move`, so neither is written twice.
//!
//! Nine Men's Morris positions are answered by [`Analyst`] (the tablebases
//! in the moving phase, the placement tables before it when the directory
//! has them, else the placement search over the moving-phase tables); the
//! other boards by `probe::values::analyse`. One implementation behind
//! every game's `probe` and `play`, the web API and the Python module, so
//! all of them answer alike.

use crate::probe::count::{Count, CountError, Label};
use crate::probe::nine::{ProbeError, Tablebases};
use crate::rules::board::{Board, Nine};
use crate::rules::ending;
use crate::rules::position::PositionError;
use crate::rules::position::{Move, Position};
use crate::rules::{format_position, move_text, write_move};
use crate::search::{Kept, PlacementSearch};
use crate::tables::outcomes::OutcomesError;
use serde_json::{json, Value as Json};
use std::marker::PhantomData;
use tablebase::{Outcome, Value};

/// Errors of analysing a position.
#[derive(Debug, thiserror::Error)]
pub enum AnalysisError {
    /// Probing failed: an illegal position, a missing or damaged table.
    #[error(transparent)]
    Probe(#[from] ProbeError),
    /// The search's thread pool could not be built.
    #[error("cannot start the search threads: {0}")]
    Threads(String),
    /// A position of another board that is not legal under its rule set.
    #[error("illegal position: {0}")]
    Illegal(#[from] PositionError),
    /// A table of another board is missing, damaged or of another rule
    /// set, or a placement search reached a subspace whose table was not
    /// loaded.
    #[error(transparent)]
    Outcomes(#[from] OutcomesError),
    /// No table holds the value of this position (its text).
    #[error("no table holds the value of {0}")]
    NoValue(String),
    /// More quiet plies than the count rule allows.
    #[error(transparent)]
    Count(#[from] CountError),
}

/// How the placement search behind an [`Analyst`] is sized.
#[derive(Clone, Copy, Debug)]
pub struct SearchOptions {
    /// The transposition table holds at most this many MiB (smaller for
    /// late placement positions, see [`table_mib`]).
    pub hash_mib: u64,
    /// Search threads.
    pub threads: usize,
}

impl Default for SearchOptions {
    /// 1 GiB and all cores.
    fn default() -> SearchOptions {
        SearchOptions {
            hash_mib: 1024,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
        }
    }
}

/// One legal move and the value of the position it leads to, from the
/// mover's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveValue {
    /// The move (with its removal, if it closes a mill).
    pub mv: Move,
    /// Win, draw or loss for the side that plays it.
    pub value: Outcome,
    /// Plies to conversion when known (moving phase), `None` otherwise.
    pub dtc: Option<u16>,
}

impl MoveValue {
    /// A move's value, with its distance when `known` (placement tables
    /// and searches know outcomes only).
    pub fn new(mv: Move, value: Value, known: bool) -> MoveValue {
        MoveValue {
            mv,
            value: value.outcome(),
            dtc: if known { value.distance() } else { None },
        }
    }

    /// `{"dtc", "move", "value"}` with the move in board `B`'s coordinates.
    pub fn to_json<B: Board>(&self) -> Json {
        json!({"dtc": self.dtc, "move": move_text::<B>(self.mv), "value": self.value.as_str()})
    }
}

/// Sort moves and their values best first: by `Value`'s order of
/// preference (every win before a draw before every loss; the faster win,
/// the slower loss first), equal values in the order of `Move`. The one
/// order every probe, move list and perfect player uses.
pub fn best_first<T: Copy>(moves: &mut [(Move, Value, T)]) {
    moves.sort_by_key(|&(m, v, _)| preference(m, v));
}

/// The sort key of [`best_first`]: smaller is better.
pub fn preference(m: Move, v: Value) -> (std::cmp::Reverse<Value>, Move) {
    (std::cmp::Reverse(v), m)
}

/// Where an [`Analysis`] came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// The game is over: the side to move has lost (or the board is full
    /// and the rule set scores it a draw).
    GameOver,
    /// The tablebases (moving phase or placement sectors).
    Tables,
    /// The placement search over the tablebases.
    Search,
}

impl Source {
    /// The name used in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            Source::GameOver => "game-over",
            Source::Tables => "tables",
            Source::Search => "search",
        }
    }
}

/// The answer about one position on board `B` (Nine Men's Morris by
/// default).
pub struct Analysis<B: Board = Nine> {
    /// The position analysed.
    pub position: Position,
    /// Its value for the side to move.
    pub value: Outcome,
    /// Plies to conversion when known.
    pub dtc: Option<u16>,
    /// Every legal move, best first ([`best_first`]).
    pub moves: Vec<MoveValue>,
    /// Where the answer came from.
    pub source: Source,
    /// Under the count rule: where the position stands in the count (the
    /// value and every move's are read there; each move's own count is
    /// [`Count::after`]).
    pub count: Option<Count>,
    /// The board whose coordinates the texts use.
    pub board: PhantomData<fn() -> B>,
}

impl<B: Board> Clone for Analysis<B> {
    fn clone(&self) -> Analysis<B> {
        Analysis {
            position: self.position,
            value: self.value,
            dtc: self.dtc,
            moves: self.moves.clone(),
            source: self.source,
            count: self.count,
            board: PhantomData,
        }
    }
}

impl<B: Board> PartialEq for Analysis<B> {
    fn eq(&self, other: &Analysis<B>) -> bool {
        (
            self.position,
            self.value,
            self.dtc,
            &self.moves,
            self.source,
            self.count,
        ) == (
            other.position,
            other.value,
            other.dtc,
            &other.moves,
            other.source,
            other.count,
        )
    }
}

impl<B: Board> Eq for Analysis<B> {}

impl<B: Board> std::fmt::Debug for Analysis<B> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Analysis")
            .field("board", &B::NAME)
            .field("position", &self.position)
            .field("value", &self.value)
            .field("dtc", &self.dtc)
            .field("moves", &self.moves)
            .field("source", &self.source)
            .field("count", &self.count)
            .finish()
    }
}

impl<B: Board> Analysis<B> {
    /// An analysis from its parts (`moves` as given: best first).
    pub fn new(
        position: Position,
        value: Outcome,
        dtc: Option<u16>,
        moves: Vec<MoveValue>,
        source: Source,
    ) -> Analysis<B> {
        Analysis {
            position,
            value,
            dtc,
            moves,
            source,
            count: None,
            board: PhantomData,
        }
    }

    /// This analysis, its position standing at `count` in the count rule.
    pub fn with_count(self, count: Option<Count>) -> Analysis<B> {
        Analysis { count, ..self }
    }

    /// A position whose count has reached the limit: the game is drawn
    /// (`game-over`, no moves).
    pub fn drawn_by_count(position: Position, count: Count) -> Analysis<B> {
        Analysis::new(position, Outcome::Draw, None, Vec::new(), Source::GameOver)
            .with_count(Some(count))
    }

    /// An analysis from values: the position's (`known`: whether its
    /// distance means something) and each move's (the move's value for
    /// the mover, `Value::after_move` of its child's, and whether its
    /// distance is known), put best first by [`best_first`].
    pub fn from_values(
        position: Position,
        (value, known): (Value, bool),
        mut moves: Vec<(Move, Value, bool)>,
        source: Source,
    ) -> Analysis<B> {
        best_first(&mut moves);
        let moves = moves
            .into_iter()
            .map(|(mv, v, k)| MoveValue::new(mv, v, k))
            .collect();
        let dtc = if known { value.distance() } else { None };
        Analysis::new(position, value.outcome(), dtc, moves, source)
    }

    /// The best move, if the side to move has one.
    pub fn best(&self) -> Option<MoveValue> {
        self.moves.first().copied()
    }

    /// What the count rule made of this analysis (read under a count
    /// rule) against `plain`, the same position's analysis without the
    /// rule ([`Label::of`]): the position's label and each move's, in the
    /// order of [`Analysis::moves`] (a move `plain` lacks has none).
    pub fn labels(&self, plain: &Analysis<B>) -> (Option<Label>, Vec<Option<Label>>) {
        let moves = self
            .moves
            .iter()
            .map(|m| {
                let before = plain.moves.iter().find(|p| p.mv == m.mv)?;
                Label::of(before.value, m.value)
            })
            .collect();
        (Label::of(plain.value, self.value), moves)
    }

    /// The JSON object of every game's `probe --json` and the web API:
    /// `position`, `value`, `dtc`, `source`, `moves` (`move`, `value`,
    /// `dtc`); under the count rule also `quiet_limit` and `quiet_plies`,
    /// and each move's `quiet_plies` after it. The same object as serialising the analysis (its
    /// `Serialize`), which the web server does straight into the response.
    pub fn to_json(&self) -> Json {
        serde_json::to_value(self).unwrap_or_else(|e| json!({ "error": e.to_string() }))
    }
}

/// Keys in sorted order, as a `serde_json` object prints them.
impl<B: Board> serde::Serialize for Analysis<B> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = s.serialize_map(Some(if self.count.is_some() { 7 } else { 5 }))?;
        map.serialize_entry("dtc", &self.dtc)?;
        let moves = MovesJson::<B>(&self.moves, self.count, PhantomData);
        map.serialize_entry("moves", &moves)?;
        map.serialize_entry("position", &format_position::<B>(&self.position))?;
        if let Some(c) = self.count {
            map.serialize_entry("quiet_limit", &c.limit)?;
            map.serialize_entry("quiet_plies", &c.plies)?;
        }
        map.serialize_entry("source", self.source.as_str())?;
        map.serialize_entry("value", self.value.as_str())?;
        map.end()
    }
}

/// `{"dtc", "move", "value"}` in Nine Men's Morris's coordinates, keys in
/// sorted order.
impl serde::Serialize for MoveValue {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        MoveJson::<Nine>(self, None, PhantomData).serialize(s)
    }
}

/// A move's value serialised in board `B`'s coordinates: the object of
/// [`MoveValue::to_json`] (with the count after the move when the
/// position has one), written straight to the serializer (no
/// intermediate `Json` value: a probe answer allocates only its texts).
struct MoveJson<'a, B>(&'a MoveValue, Option<Count>, PhantomData<B>);

impl<B: Board> serde::Serialize for MoveJson<'_, B> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = s.serialize_map(Some(if self.1.is_some() { 4 } else { 3 }))?;
        map.serialize_entry("dtc", &self.0.dtc)?;
        map.serialize_entry("move", &MoveText::<B>(self.0.mv, PhantomData))?;
        if let Some(c) = self.1 {
            map.serialize_entry("quiet_plies", &c.after(self.0.mv).plies)?;
        }
        map.serialize_entry("value", self.0.value.as_str())?;
        map.end()
    }
}

/// A move's text in board `B`'s coordinates ([`move_text`]), written
/// into the serializer without a `String` of its own.
struct MoveText<B>(Move, PhantomData<B>);

impl<B: Board> std::fmt::Display for MoveText<B> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write_move::<B>(self.0, f)
    }
}

impl<B: Board> serde::Serialize for MoveText<B> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// Every move's value in board `B`'s coordinates, as a JSON array.
struct MovesJson<'a, B>(&'a [MoveValue], Option<Count>, PhantomData<B>);

impl<B: Board> serde::Serialize for MovesJson<'_, B> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().map(|m| MoveJson::<B>(m, self.1, PhantomData)))
    }
}

/// Transposition table size for searching `pos`: `2^plies` MiB for the
/// plies of placement left, at most `max` (a small game needs a small
/// table, and little time to allocate it).
pub fn table_mib(pos: &Position, max: u64) -> u64 {
    let plies = u32::from(pos.hand[0] + pos.hand[1]);
    max.min(1 << plies.min(40))
}

/// Answers positions: tablebase probes in the moving phase, the placement
/// search (created at the first placement position, its transposition
/// table kept between positions) before. Not shareable between threads
/// (the search is parallel inside); make one per thread or lock it.
pub struct Analyst<'a> {
    tb: &'a Tablebases,
    options: SearchOptions,
    search: Option<PlacementSearch<'a, Tablebases>>,
    /// What an earlier analyst's search kept, resumed at the first search.
    kept: Option<Kept>,
}

impl<'a> Analyst<'a> {
    /// An analyst over `tb`.
    pub fn new(tb: &'a Tablebases, options: SearchOptions) -> Analyst<'a> {
        Analyst::resume(tb, options, None)
    }

    /// An analyst over `tb` that resumes what an earlier one kept
    /// ([`Analyst::keep`]): its first placement search goes on with the
    /// kept transposition table when that is as large as the position
    /// needs ([`table_mib`]), else with a new one.
    pub fn resume(tb: &'a Tablebases, options: SearchOptions, kept: Option<Kept>) -> Analyst<'a> {
        Analyst {
            tb,
            options,
            search: None,
            kept,
        }
    }

    /// What the placement search holds (its table and threads), for
    /// [`Analyst::resume`]; `None` if no search ran and none was kept.
    pub fn keep(self) -> Option<Kept> {
        self.search.map(PlacementSearch::keep).or(self.kept)
    }

    /// The tablebases.
    pub fn tablebases(&self) -> &'a Tablebases {
        self.tb
    }

    /// The placement search, sized for `pos` when first needed (a late
    /// placement position does not need the full table).
    fn placement(
        &mut self,
        pos: &Position,
    ) -> Result<&mut PlacementSearch<'a, Tablebases>, AnalysisError> {
        if self.search.is_none() {
            let mib = table_mib(pos, self.options.hash_mib);
            let search = match self.kept.take() {
                Some(kept) if kept.holds_mib(mib) => PlacementSearch::resume(self.tb, kept),
                _ => PlacementSearch::with_table_mib(self.tb, mib)
                    .with_threads(self.options.threads.max(1))
                    .map_err(AnalysisError::Threads)?,
            };
            self.search = Some(search);
        }
        Ok(self.search.as_mut().expect("just created"))
    }

    /// Value, distance and every move's value of `pos` (under a count
    /// rule, with no quiet ply played: [`Analyst::analyse_at`]).
    pub fn analyse(&mut self, pos: &Position) -> Result<Analysis, AnalysisError> {
        self.analyse_at(pos, 0)
    }

    /// [`Analyst::analyse`] after `plies` quiet plies under the tables'
    /// count rule: a moving-phase position's value and every move's read
    /// at their counts ([`Count`]); a count at its limit has drawn the
    /// game. (A placement position's count is zero.)
    pub fn analyse_at(&mut self, pos: &Position, plies: u16) -> Result<Analysis, AnalysisError> {
        let tb = self.tb;
        pos.validate::<Nine>(tb.rules()).map_err(ProbeError::from)?;
        let count = Count::of(tb.rules(), if pos.placing() { 0 } else { plies })?;
        if ending::<Nine>(pos, tb.rules()).is_some() {
            return Ok(
                Analysis::new(*pos, Outcome::Loss, Some(0), Vec::new(), Source::GameOver)
                    .with_count(count),
            );
        }
        if let Some(c) = count.filter(|c| c.expired()) {
            return Ok(Analysis::drawn_by_count(*pos, c));
        }
        if pos.placing() {
            // Outcomes only, best first: from the placement tables when the
            // directory has them, else by the search.
            let (moves, source) = if tb.has_table(pos) {
                (tb.move_outcomes(pos)?, Source::Tables)
            } else {
                (self.placement(pos)?.move_values(pos)?, Source::Search)
            };
            return Ok(Analysis::new(
                *pos,
                moves.first().map_or(Outcome::Loss, |m| m.1),
                None,
                moves
                    .into_iter()
                    .map(|(mv, value)| MoveValue {
                        mv,
                        value,
                        dtc: None,
                    })
                    .collect(),
                source,
            )
            .with_count(count));
        }
        let value = tb.probe(pos)?;
        let value = count.map_or(value, |c| c.read(value));
        let moves = tb
            .move_values_at(pos, count)?
            .into_iter()
            .map(|(mv, v)| (mv, v, true))
            .collect();
        Ok(Analysis::from_values(*pos, (value, true), moves, Source::Tables).with_count(count))
    }

    /// The perfect player's move: the first of [`Analyst::analyse`]'s moves,
    /// found faster in the placement phase (one best move, not every
    /// move's value). `None` when the game is over.
    pub fn best(&mut self, pos: &Position) -> Result<Option<MoveValue>, AnalysisError> {
        self.best_at(pos, 0)
    }

    /// [`Analyst::best`] after `plies` quiet plies under the tables' count
    /// rule: the first of [`Analyst::analyse_at`]'s moves, so that a win is
    /// one the count leaves time for. `None` also when the count has
    /// drawn the game.
    pub fn best_at(
        &mut self,
        pos: &Position,
        plies: u16,
    ) -> Result<Option<MoveValue>, AnalysisError> {
        if pos.placing() && !self.tb.has_table(pos) {
            pos.validate::<Nine>(self.tb.rules())
                .map_err(ProbeError::from)?;
            if ending::<Nine>(pos, self.tb.rules()).is_some() {
                return Ok(None);
            }
            let best = self.placement(pos)?.best_move(pos)?;
            return Ok(best.map(|(mv, value)| MoveValue {
                mv,
                value,
                dtc: None,
            }));
        }
        Ok(self.analyse_at(pos, plies)?.best())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::legal_moves;
    use crate::rules::variant::RuleSet;

    /// The generic texts on Nine's board are Nine's own (`Display`), so
    /// Nine's JSON did not change when `Analysis` became generic.
    #[test]
    fn nine_texts_through_the_board_are_nines_own() {
        let mut pos = Position::start(RuleSet::nine(true));
        let rules = RuleSet::nine(true);
        let mut seen = 0;
        // A deterministic walk through placement into the moving phase.
        for ply in 0..60 {
            assert_eq!(format_position::<Nine>(&pos), pos.to_string());
            let moves = legal_moves::<Nine>(&pos, rules);
            for m in &moves {
                assert_eq!(move_text::<Nine>(*m), m.to_string());
                seen += 1;
            }
            let Some(&m) = moves.get((ply * 7 + 3) % moves.len().max(1)) else {
                break;
            };
            pos = pos.apply(m);
        }
        assert!(seen > 300, "{seen} moves compared");
    }

    /// Best first: wins (faster first), draws, losses (slower first).
    #[test]
    fn best_first_is_values_order_of_preference() {
        let pos: Position = "W.W..B...B.W....B....... w 0 0".parse().unwrap();
        let moves = legal_moves::<Nine>(&pos, RuleSet::nine(true));
        let values = [
            Value::loss(3),
            Value::win(5),
            Value::DRAW,
            Value::loss(9),
            Value::win(1),
            Value::DRAW,
        ];
        let list: Vec<_> = moves
            .iter()
            .zip(values)
            .map(|(&m, v)| (m, v, true))
            .collect();
        let a = Analysis::<Nine>::from_values(pos, (Value::win(1), true), list, Source::Tables);
        let got: Vec<(Outcome, Option<u16>)> = a.moves.iter().map(|m| (m.value, m.dtc)).collect();
        assert_eq!(
            got,
            [
                (Outcome::Win, Some(1)),
                (Outcome::Win, Some(5)),
                (Outcome::Draw, None),
                (Outcome::Draw, None),
                (Outcome::Loss, Some(9)),
                (Outcome::Loss, Some(3)),
            ]
        );
        let j = a.to_json();
        assert_eq!(j["position"], pos.to_string());
        assert_eq!(j["dtc"], 1);
        assert_eq!(j["moves"][0]["dtc"], 1);
    }
}
