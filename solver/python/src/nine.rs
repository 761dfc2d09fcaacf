//! Nine Men's Morris for Python: `Position`, `Move`, `Tablebases` (probes
//! through [`Analyst`], the implementation behind `solver nine probe`),
//! `Analysis` and `MoveValue`.
//!
//! Points are numbered 0..23 in reading order (`a7 d7 g7 b6 … a1 d1 g1`),
//! the order of the position text and of OpenSpiel's `nine_mens_morris`.

use super::args::{int_in, integer, is_sequence, type_name, IntProblem};
use super::{batch, move_error, position_error, BudgetError, SolverError, TablebaseError};
use mill::duel::games::Nine as NineGame;
use mill::duel::policy::PolicyError;
use mill::duel::{seeded, DuelError, Policy};
use mill::games::nine::files::parse_file_name;
use mill::probe::analysis::{Analysis, AnalysisError, Analyst, MoveValue, SearchOptions, Source};
use mill::probe::horizon::{Horizon, HorizonError, DEFAULT_BUDGET};
use mill::probe::nine::{ProbeError, Tablebases};
use mill::rules::board::Nine;
use mill::rules::geometry::NINE_READING;
use mill::rules::notation::{move_order, parse_move, point, reading_rank};
use mill::rules::position::{Color, Move, Position};
use mill::rules::variant::RuleSet;
use mill::rules::{draw, ending, legal_moves};
use numpy::{PyArray1, PyArray2};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString, PyTuple, PyType};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};
use tablebase::Outcome;

/// Internal point of each reading-order index (`a7` is 0, `g1` is 23).
pub(crate) fn reading_points() -> &'static [u8; 24] {
    static MAP: OnceLock<[u8; 24]> = OnceLock::new();
    MAP.get_or_init(|| {
        std::array::from_fn(|i| point(NINE_READING[i]).expect("a point of the board"))
    })
}

/// Reading-order index of an internal point.
fn reading(p: u8) -> u8 {
    reading_rank(p) as u8
}

/// The exception for an error of analysing a position, with its message.
pub(crate) fn analysis_error(e: AnalysisError) -> PyErr {
    match e {
        AnalysisError::Probe(e) => probe_error(e),
        AnalysisError::Illegal(_) | AnalysisError::Count(_) => position_error(e.to_string()),
        AnalysisError::Threads(_) => SolverError::new_err(e.to_string()),
        // Other boards' errors (not raised for Nine's tables).
        AnalysisError::Outcomes(_) | AnalysisError::NoValue(_) => {
            TablebaseError::new_err(e.to_string())
        }
    }
}

/// The exception for a probing error, with its message.
pub(crate) fn probe_error(e: ProbeError) -> PyErr {
    match e {
        ProbeError::Illegal(_) | ProbeError::Placement => position_error(e.to_string()),
        ProbeError::Table(_) | ProbeError::NoDirectory(_) => TablebaseError::new_err(e.to_string()),
    }
}

/// The arguments of `probe_within` and `best_within`: the position, the
/// turns left (0..=65535) and the node budget (default
/// [`DEFAULT_BUDGET`]), checked with the documented errors.
fn horizon_args(
    position: PositionArg,
    turns_left: &Bound<'_, PyAny>,
    budget: Option<&Bound<'_, PyAny>>,
) -> PyResult<(Position, u16, u64)> {
    let pos = position.position()?;
    let plies = int_in(turns_left, "turns_left", 0, i128::from(u16::MAX))? as u16;
    let budget = match budget {
        Some(b) => int_in(b, "budget", 1, i128::from(u64::MAX >> 1))? as u64,
        None => DEFAULT_BUDGET,
    };
    Ok((pos, plies, budget))
}

/// The exception for an error of the search under a turn limit.
fn horizon_error(e: HorizonError) -> PyErr {
    match e {
        HorizonError::Probe(e) => probe_error(e),
        HorizonError::Budget { .. } => BudgetError::new_err(e.to_string()),
    }
}

/// Parse a position text, with the command line's message on error.
pub(crate) fn parse_position(text: &str) -> PyResult<Position> {
    text.parse::<Position>()
        .map_err(|e| position_error(format!("bad position: {e}")))
}

fn color_letter(c: Color) -> &'static str {
    match c {
        Color::White => "w",
        Color::Black => "b",
    }
}

/// A position given from Python: a `Position` or its text.
pub(crate) enum PositionArg {
    /// A `Position` object.
    Position(PyPosition),
    /// A position text.
    Text(String),
}

impl<'py> FromPyObject<'py> for PositionArg {
    /// A `Position` or a `str`; anything else is a `TypeError` saying so
    /// (PyO3 prefixes the argument's name).
    fn extract_bound(obj: &Bound<'py, PyAny>) -> PyResult<PositionArg> {
        if let Ok(p) = obj.downcast::<PyPosition>() {
            return Ok(PositionArg::Position(p.get().clone()));
        }
        if let Ok(t) = obj.downcast::<PyString>() {
            return Ok(PositionArg::Text(t.to_cow()?.into_owned()));
        }
        Err(PyTypeError::new_err(format!(
            "expected a Position or a position text (str), found {}",
            type_name(obj)
        )))
    }
}

impl PositionArg {
    /// The position (a text is parsed and checked).
    pub(crate) fn position(self) -> PyResult<Position> {
        match self {
            PositionArg::Position(p) => Ok(p.0),
            PositionArg::Text(t) => parse_position(&t),
        }
    }
}

/// A move given from Python: a `Move` object or its text.
pub(crate) enum MoveArg {
    /// A `Move` object.
    Move(PyMove),
    /// A move text such as `d6`, `d6-d5` or `d6-d5xg7`.
    Text(String),
}

impl MoveArg {
    /// The move argument `name`: a `Move` or a `str`; anything else is a
    /// `TypeError` naming the argument as Python spells it.
    fn from_arg(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<MoveArg> {
        if let Ok(m) = obj.downcast::<PyMove>() {
            return Ok(MoveArg::Move(m.get().clone()));
        }
        if let Ok(t) = obj.downcast::<PyString>() {
            return Ok(MoveArg::Text(t.to_cow()?.into_owned()));
        }
        Err(PyTypeError::new_err(format!(
            "{name} must be a Move or a move text (str), found {}",
            type_name(obj)
        )))
    }
}

/// The legal move `m` names in `pos`, with the command line's messages.
fn resolve_move(pos: &Position, rules: RuleSet, m: MoveArg) -> PyResult<Move> {
    match m {
        MoveArg::Text(text) => parse_move::<Nine>(pos, rules, &text)
            .map_err(|e| move_error(format!("move `{text}`: {e}"))),
        MoveArg::Move(m) => {
            if legal_moves::<Nine>(pos, rules).contains(&m.0) {
                Ok(m.0)
            } else {
                Err(move_error(format!(
                    "move `{}`: not a legal move in {pos}",
                    m.0
                )))
            }
        }
    }
}

/// A Nine Men's Morris position: the stones of both colours, the side to
/// move and the stones in hand. Immutable and hashable.
///
/// `Position()` is the start position; `Position(text)` parses the text
/// format of `docs/notation.md`, e.g.
/// `Position("WW....BBB....BW......W.. w 0 0")`, and raises `PositionError`
/// for a bad or illegal position.
#[pyclass(name = "Position", module = "mill_solver", frozen, eq, hash)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct PyPosition(pub(crate) Position);

#[pymethods]
impl PyPosition {
    #[new]
    #[pyo3(signature = (text = None))]
    fn new(text: Option<&str>) -> PyResult<PyPosition> {
        match text {
            None => Ok(PyPosition(Position::start(RuleSet::nine(true)))),
            Some(t) => parse_position(t).map(PyPosition),
        }
    }

    /// The start position `........................ w 9 9`.
    #[staticmethod]
    fn start() -> PyPosition {
        PyPosition(Position::start(RuleSet::nine(true)))
    }

    /// A position from 24 cells in reading order (0 empty, 1 White,
    /// 2 Black), the side to move (`"w"` or `"b"`) and the stones in hand
    /// `(white, black)`. Cells and hands must be ints (`TypeError`
    /// otherwise); a value out of range or an illegal position raises
    /// `PositionError` (also a `ValueError`).
    #[staticmethod]
    fn from_board(
        board: &Bound<'_, PyAny>,
        to_move: &Bound<'_, PyAny>,
        hands: &Bound<'_, PyAny>,
    ) -> PyResult<PyPosition> {
        let board = int_sequence(board, "board", "cell")?;
        if board.len() != 24 {
            return Err(position_error(format!(
                "bad position: the board has 24 points, found {}",
                board.len()
            )));
        }
        let mut cells = String::with_capacity(24);
        for (i, c) in board.iter().enumerate() {
            cells.push(match c {
                Some(0) => '.',
                Some(1) => 'W',
                Some(2) => 'B',
                _ => {
                    return Err(position_error(format!(
                        "bad position: cell {i} ({}) must be 0 (empty), 1 (White) or 2 (Black), found {}",
                        NINE_READING[i],
                        c.map_or("a huge int".to_string(), |c| c.to_string())
                    )))
                }
            });
        }
        let to_move = match to_move.downcast::<PyString>() {
            Ok(s) => match &*s.to_cow()? {
                "w" => "w",
                "b" => "b",
                other => {
                    return Err(position_error(format!(
                        "bad position: to_move must be \"w\" or \"b\", found {other:?}"
                    )))
                }
            },
            Err(_) => {
                return Err(PyTypeError::new_err(format!(
                    "to_move must be \"w\" or \"b\", found {}",
                    type_name(to_move)
                )))
            }
        };
        let hands = int_sequence(hands, "hands", "hand")?;
        let [white, black] = hands[..] else {
            return Err(PyValueError::new_err(format!(
                "hands must be (white, black), found {} values",
                hands.len()
            )));
        };
        let mut counts = [0u8; 2];
        for (slot, (hand, who)) in counts.iter_mut().zip([(white, "White"), (black, "Black")]) {
            *slot = match hand {
                Some(h @ 0..=9) => h as u8,
                _ => {
                    return Err(position_error(format!(
                        "bad position: {who}'s stones in hand must be 0..9, found {}",
                        hand.map_or("a huge int".to_string(), |h| h.to_string())
                    )))
                }
            };
        }
        parse_position(&format!("{cells} {to_move} {} {}", counts[0], counts[1])).map(PyPosition)
    }

    /// The 24 cells in reading order: 0 empty, 1 White, 2 Black.
    #[getter]
    fn board(&self) -> Vec<u32> {
        reading_points()
            .iter()
            .map(|&p| {
                if self.0.stones[0] >> p & 1 == 1 {
                    1
                } else if self.0.stones[1] >> p & 1 == 1 {
                    2
                } else {
                    0
                }
            })
            .collect()
    }

    /// The side to move: `"w"` or `"b"`.
    #[getter]
    fn to_move(&self) -> &'static str {
        color_letter(self.0.to_move)
    }

    /// Stones in hand `(white, black)`.
    #[getter]
    fn hands(&self) -> (u8, u8) {
        (self.0.hand[0], self.0.hand[1])
    }

    /// Stones on the board `(white, black)`.
    #[getter]
    fn stones(&self) -> (u32, u32) {
        (self.0.stones[0].count_ones(), self.0.stones[1].count_ones())
    }

    /// Whether the side to move still has stones to place.
    #[getter]
    fn placing(&self) -> bool {
        self.0.placing()
    }

    /// The legal moves in reading order (a move that closes a mill comes
    /// once per stone it may remove). Empty when the game is over.
    #[pyo3(signature = (flying = true))]
    fn legal_moves(&self, flying: bool) -> Vec<PyMove> {
        let mut moves = legal_moves::<Nine>(&self.0, RuleSet::nine(flying));
        moves.sort_by_key(move_order);
        moves.into_iter().map(PyMove).collect()
    }

    /// The position after `move` (a `Move` or its text). Raises `MoveError`
    /// with the reason when it is not legal, `TypeError` when `move` is
    /// neither a `Move` nor a `str`.
    #[pyo3(signature = (r#move, flying = true))]
    fn play(&self, r#move: &Bound<'_, PyAny>, flying: bool) -> PyResult<PyPosition> {
        let m = resolve_move(
            &self.0,
            RuleSet::nine(flying),
            MoveArg::from_arg(r#move, "move")?,
        )?;
        Ok(PyPosition(self.0.apply(m)))
    }

    /// Why the game is over (the side to move has lost), or `None`.
    #[pyo3(signature = (flying = true))]
    fn game_over(&self, flying: bool) -> Option<&'static str> {
        ending::<Nine>(&self.0, RuleSet::nine(flying)).map(|g| g.describe())
    }

    /// The same position with the colours swapped.
    fn swap_colors(&self) -> PyPosition {
        PyPosition(self.0.swap_colors())
    }

    /// The canonical image under the 16 board symmetries and the index of
    /// the symmetry that maps this position to it.
    fn canonical(&self) -> (PyPosition, usize) {
        let (p, op) = self.0.canonical::<Nine>();
        (PyPosition(p), op)
    }

    /// The board drawn in ASCII with coordinates.
    fn draw(&self) -> String {
        draw::<Nine>(&self.0)
    }

    /// One row of the arrays `Tablebases.probe_many` takes:
    /// `[white, black, to_move, white_hand, black_hand]`, where bit `i` of
    /// `white`/`black` is point `i` in reading order and `to_move` is 0 for
    /// White, 1 for Black.
    fn to_array(&self) -> [u32; 5] {
        batch::encode(&self.0)
    }

    fn __str__(&self) -> String {
        self.0.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Position('{}')", self.0)
    }

    /// Pickling (any protocol): `Position(str(self))`.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> (Bound<'py, PyType>, (String,)) {
        (slf.get_type(), (slf.get().0.to_string(),))
    }

    /// Positions are immutable: the copy is the position itself.
    fn __copy__(slf: Bound<'_, Self>) -> Bound<'_, Self> {
        slf
    }

    /// Positions are immutable: the copy is the position itself.
    fn __deepcopy__<'py>(slf: Bound<'py, Self>, _memo: &Bound<'py, PyAny>) -> Bound<'py, Self> {
        slf
    }
}

/// The integers of a sequence argument `name` (a list, tuple or 1-D
/// array; not a string), each `None` when it is too large for any range;
/// floats and bools are a `TypeError` naming the `item`.
fn int_sequence(obj: &Bound<'_, PyAny>, name: &str, item: &str) -> PyResult<Vec<Option<i128>>> {
    if !is_sequence(obj) {
        return Err(PyTypeError::new_err(format!(
            "{name} must be a sequence of ints, found {}",
            type_name(obj)
        )));
    }
    let seq = obj;
    (0..seq.len()?)
        .map(|i| {
            let v = seq.get_item(i)?;
            match integer(&v) {
                Ok(x) => Ok(Some(x)),
                Err(IntProblem::Huge) => Ok(None),
                Err(IntProblem::NotInt) => Err(PyTypeError::new_err(format!(
                    "{name}: {item} {i} must be an int, found {}",
                    type_name(&v)
                ))),
            }
        })
        .collect()
}

/// A reading-order point argument `name`: an int 0..23.
fn point_arg(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<u8> {
    Ok(reading_points()[int_in(obj, name, 0, 23)? as usize])
}

/// A legal move: a placement, slide or fly, with the removal of an opponent
/// stone when it closes a mill. Points are reading-order indices 0..23
/// (OpenSpiel's numbering); `str(move)` is the notation (`d6`, `d6-d5`,
/// `d6-d5xg7`).
#[pyclass(name = "Move", module = "mill_solver", frozen, eq, hash)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct PyMove(pub(crate) Move);

#[pymethods]
impl PyMove {
    /// `Move(from_point, to_point, removal=None)`: a move from its
    /// reading-order points (`from_point` `None` for a placement). It is
    /// not checked against any position (`Position.play` and the probes
    /// do that); points must be ints 0..23 (`TypeError`, `ValueError`),
    /// distinct.
    #[new]
    #[pyo3(signature = (from_point, to_point, removal = None))]
    fn new(
        from_point: Option<&Bound<'_, PyAny>>,
        to_point: &Bound<'_, PyAny>,
        removal: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyMove> {
        let to = point_arg(to_point, "to_point")?;
        let mut m = match from_point {
            None => Move::place(to),
            Some(f) => {
                let from = point_arg(f, "from_point")?;
                if from == to {
                    return Err(PyValueError::new_err("from_point and to_point must differ"));
                }
                Move::shift(from, to)
            }
        };
        if let Some(r) = removal {
            let r = point_arg(r, "removal")?;
            if r == to || Some(r) == m.from() {
                return Err(PyValueError::new_err(
                    "removal must differ from from_point and to_point",
                ));
            }
            m = m.with_removal(r);
        }
        Ok(PyMove(m))
    }

    /// Parse `text` as a move in `position`; raises `MoveError` with the
    /// reason when it is not legal there.
    #[staticmethod]
    #[pyo3(signature = (position, text, flying = true))]
    fn parse(position: PositionArg, text: String, flying: bool) -> PyResult<PyMove> {
        let pos = position.position()?;
        resolve_move(&pos, RuleSet::nine(flying), MoveArg::Text(text)).map(PyMove)
    }

    /// The point the stone leaves (slides and flies), `None` for a placement.
    #[getter(from_point)]
    fn origin(&self) -> Option<u8> {
        self.0.from().map(reading)
    }

    /// The point the stone arrives on.
    #[getter]
    fn to_point(&self) -> u8 {
        reading(self.0.to())
    }

    /// The opponent stone removed, `None` if the move closes no mill.
    #[getter]
    fn removal(&self) -> Option<u8> {
        self.0.removal().map(reading)
    }

    fn __str__(&self) -> String {
        self.0.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Move('{}')", self.0)
    }

    /// Pickling (any protocol): `Move(from_point, to_point, removal)`.
    #[allow(clippy::type_complexity)]
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> (Bound<'py, PyType>, (Option<u8>, u8, Option<u8>)) {
        let m = slf.get();
        (slf.get_type(), (m.origin(), m.to_point(), m.removal()))
    }

    /// Moves are immutable: the copy is the move itself.
    fn __copy__(slf: Bound<'_, Self>) -> Bound<'_, Self> {
        slf
    }

    /// Moves are immutable: the copy is the move itself.
    fn __deepcopy__<'py>(slf: Bound<'py, Self>, _memo: &Bound<'py, PyAny>) -> Bound<'py, Self> {
        slf
    }
}

/// An outcome from its name: `"win"`, `"draw"` or `"loss"`.
fn outcome_arg(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<Outcome> {
    let text = obj.downcast::<PyString>().map_err(|_| {
        PyTypeError::new_err(format!(
            "{name} must be \"win\", \"draw\" or \"loss\", found {}",
            type_name(obj)
        ))
    })?;
    match &*text.to_cow()? {
        "win" => Ok(Outcome::Win),
        "draw" => Ok(Outcome::Draw),
        "loss" => Ok(Outcome::Loss),
        other => Err(PyValueError::new_err(format!(
            "{name} must be \"win\", \"draw\" or \"loss\", found {other:?}"
        ))),
    }
}

/// A distance to conversion argument: `None` or an int 0..65535.
fn dtc_arg(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Option<u16>> {
    obj.map(|d| int_in(d, "dtc", 0, u16::MAX.into()).map(|d| d as u16))
        .transpose()
}

/// A legal move with its value for the side that plays it.
///
/// `MoveValue(move, value, dtc=None)` (as the probes make them; pickling
/// uses it): `value` is `"win"`, `"draw"` or `"loss"`, `dtc` `None` or
/// 0..65535. Equal when move, value and dtc are.
#[pyclass(name = "MoveValue", module = "mill_solver", frozen, eq)]
#[derive(Clone, PartialEq)]
pub struct PyMoveValue(pub(crate) MoveValue);

#[pymethods]
impl PyMoveValue {
    #[new]
    #[pyo3(signature = (r#move, value, dtc = None))]
    fn new(
        r#move: &Bound<'_, PyAny>,
        value: &Bound<'_, PyAny>,
        dtc: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyMoveValue> {
        let mv = r#move
            .downcast::<PyMove>()
            .map_err(|_| {
                PyTypeError::new_err(format!("move must be a Move, found {}", type_name(r#move)))
            })?
            .get()
            .0;
        Ok(PyMoveValue(MoveValue {
            mv,
            value: outcome_arg(value, "value")?,
            dtc: dtc_arg(dtc)?,
        }))
    }

    /// The move.
    #[getter]
    fn r#move(&self) -> PyMove {
        PyMove(self.0.mv)
    }

    /// `"win"`, `"draw"` or `"loss"` for the mover.
    #[getter]
    fn value(&self) -> &'static str {
        self.0.value.as_str()
    }

    /// Plies to conversion (moving phase), `None` when not known
    /// (placement search) or for a draw.
    #[getter]
    fn dtc(&self) -> Option<u16> {
        self.0.dtc
    }

    fn __repr__(&self) -> String {
        format!(
            "MoveValue('{}', '{}', {})",
            self.0.mv,
            self.0.value.as_str(),
            self.0.dtc.map_or("None".to_string(), |d| d.to_string())
        )
    }

    /// A hash agreeing with `==` (move, value and dtc).
    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        (self.0.mv, self.0.value.as_str(), self.0.dtc).hash(&mut h);
        h.finish()
    }

    /// Pickling (any protocol): `MoveValue(move, value, dtc)`.
    #[allow(clippy::type_complexity)]
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> (Bound<'py, PyType>, (PyMove, &'static str, Option<u16>)) {
        let v = slf.get().0;
        (slf.get_type(), (PyMove(v.mv), v.value.as_str(), v.dtc))
    }

    /// Immutable: the copy is the object itself.
    fn __copy__(slf: Bound<'_, Self>) -> Bound<'_, Self> {
        slf
    }

    /// Immutable: the copy is the object itself.
    fn __deepcopy__<'py>(slf: Bound<'py, Self>, _memo: &Bound<'py, PyAny>) -> Bound<'py, Self> {
        slf
    }
}

/// The answer about one position: its value, distance to conversion and
/// every legal move with its value, best first — the answer of
/// `solver nine probe`.
///
/// `Analysis(position, value, dtc, source, moves)` rebuilds one from its
/// fields (pickling uses it; the fields are not checked against the
/// tables). Equal when all fields are.
#[pyclass(name = "Analysis", module = "mill_solver", frozen, eq)]
#[derive(PartialEq)]
pub struct PyAnalysis(pub(crate) Analysis);

#[pymethods]
impl PyAnalysis {
    #[new]
    fn new(
        position: PositionArg,
        value: &Bound<'_, PyAny>,
        dtc: Option<&Bound<'_, PyAny>>,
        source: &str,
        moves: Vec<PyMoveValue>,
    ) -> PyResult<PyAnalysis> {
        let source = match source {
            "tables" => Source::Tables,
            "search" => Source::Search,
            "game-over" => Source::GameOver,
            other => {
                return Err(PyValueError::new_err(format!(
                    "source must be \"tables\", \"search\" or \"game-over\", found {other:?}"
                )))
            }
        };
        Ok(PyAnalysis(Analysis::new(
            position.position()?,
            outcome_arg(value, "value")?,
            dtc_arg(dtc)?,
            moves.into_iter().map(|m| m.0).collect(),
            source,
        )))
    }

    /// The position analysed.
    #[getter]
    fn position(&self) -> PyPosition {
        PyPosition(self.0.position)
    }

    /// `"win"`, `"draw"` or `"loss"` for the side to move.
    #[getter]
    fn value(&self) -> &'static str {
        self.0.value.as_str()
    }

    /// Plies to conversion (moving phase; 0 for a finished game), `None`
    /// for a draw or a placement position.
    #[getter]
    fn dtc(&self) -> Option<u16> {
        self.0.dtc
    }

    /// Where the answer came from: `"tables"`, `"search"` or `"game-over"`.
    #[getter]
    fn source(&self) -> &'static str {
        self.0.source.as_str()
    }

    /// Every legal move with its value, best first.
    #[getter]
    fn moves(&self) -> Vec<PyMoveValue> {
        self.0.moves.iter().copied().map(PyMoveValue).collect()
    }

    /// The best move, `None` when the game is over.
    #[getter]
    fn best(&self) -> Option<PyMoveValue> {
        self.0.best().map(PyMoveValue)
    }

    /// The JSON text of `solver nine probe --json` (compact).
    fn to_json(&self) -> String {
        self.0.to_json().to_string()
    }

    /// The object of `solver nine probe --json` as a dict: `position`,
    /// `value`, `dtc`, `source`, `moves` (each `move`, `value`, `dtc`).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        py.import("json")?.call_method1("loads", (self.to_json(),))
    }

    fn __repr__(&self) -> String {
        format!(
            "Analysis('{}', value='{}', dtc={}, moves={})",
            self.0.position,
            self.0.value.as_str(),
            self.0.dtc.map_or("None".to_string(), |d| d.to_string()),
            self.0.moves.len()
        )
    }

    /// Pickling (any protocol): `Analysis(position, value, dtc, source,
    /// moves)`.
    #[allow(clippy::type_complexity)]
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> (
        Bound<'py, PyType>,
        (
            PyPosition,
            &'static str,
            Option<u16>,
            &'static str,
            Vec<PyMoveValue>,
        ),
    ) {
        let a = &slf.get().0;
        (
            slf.get_type(),
            (
                PyPosition(a.position),
                a.value.as_str(),
                a.dtc,
                a.source.as_str(),
                a.moves.iter().copied().map(PyMoveValue).collect(),
            ),
        )
    }

    /// Immutable: the copy is the object itself.
    fn __copy__(slf: Bound<'_, Self>) -> Bound<'_, Self> {
        slf
    }

    /// Immutable: the copy is the object itself.
    fn __deepcopy__<'py>(slf: Bound<'py, Self>, _memo: &Bound<'py, PyAny>) -> Bound<'py, Self> {
        slf
    }
}

type AnalystOf<'a> = Analyst<'a>;

self_cell::self_cell!(
    /// An [`Analyst`] together with the tablebases it borrows.
    pub(crate) struct Engine {
        owner: Arc<Tablebases>,
        #[not_covariant]
        dependent: AnalystOf,
    }
);

/// A Nine Men's Morris tablebase directory opened for probing (the files
/// of `solver nine generate`).
///
/// `Tablebases(dir, *, flying=True, memory="values", hash_mib=1024,
/// threads=None)`: `memory` is `"values"` (each table decompressed whole
/// into memory at its first probe: about one byte a position, 9 GB for all
/// 49; fastest), `"outcomes"` (two bits a position, 2.2 GB for all 49, as
/// `solver nine probe` does; distances read from the files) or `"mapped"`
/// (memory-mapped files with a small block cache: least memory, slowest).
/// `hash_mib` (1..65536) and `threads` (1..256) size the placement search
/// (`threads` defaults to all cores). The arguments are checked here:
/// `TypeError` for a wrong type, `ValueError` for a value out of range,
/// `TablebaseError` if `dir` does not exist or holds no tablebase file; a
/// missing or damaged table is reported when a probe needs it.
///
/// Pickling re-opens the directory (by its absolute path) with the same
/// options, so a `Tablebases` can be sent to `multiprocessing` workers;
/// `copy.copy` and `copy.deepcopy` return the same object (the tables are
/// immutable and shared between threads).
#[pyclass(name = "Tablebases", module = "mill_solver", frozen)]
pub struct PyTablebases {
    pub(crate) tb: Arc<Tablebases>,
    pub(crate) engine: Mutex<Engine>,
    dir: PathBuf,
    memory: String,
    flying: bool,
    hash_mib: u64,
    threads: Option<usize>,
}

/// Largest `hash_mib` (64 GiB, as `solver serve` clamps it).
const MAX_HASH_MIB: i128 = 1 << 16;
/// Largest `threads`.
const MAX_THREADS: i128 = 256;

/// Whether `dir` holds a tablebase file (`nine-flying-…tb` or
/// `nine-noflying-…tb`), with `TablebaseError` when it cannot be read. The
/// rule set is not required to match: the tables of another rule set are
/// reported at the first probe (and the OpenSpiel bot says why it refuses
/// them).
fn has_tables(dir: &std::path::Path) -> PyResult<bool> {
    let entries = std::fs::read_dir(dir)
        .map_err(|e| TablebaseError::new_err(format!("{}: {e}", dir.display())))?;
    Ok(entries.flatten().any(|entry| {
        entry
            .file_name()
            .to_str()
            .and_then(parse_file_name)
            .is_some()
    }))
}

impl PyTablebases {
    /// Run `f` on the analyst, without the GIL.
    pub(crate) fn with_analyst<T: Send>(
        &self,
        py: Python<'_>,
        f: impl FnOnce(&mut Analyst<'_>) -> T + Send,
    ) -> T {
        py.allow_threads(|| {
            let mut engine = self.engine.lock().unwrap_or_else(|e| e.into_inner());
            engine.with_dependent_mut(|_, analyst| f(analyst))
        })
    }

    fn rules(&self) -> RuleSet {
        self.tb.rules()
    }
}

#[pymethods]
impl PyTablebases {
    #[new]
    #[pyo3(
        signature = (dir = PathBuf::from("tablebases"), *, flying = true, memory = "values", hash_mib = None, threads = None),
        text_signature = "(dir='tablebases', *, flying=True, memory='values', hash_mib=1024, threads=None)"
    )]
    fn new(
        dir: PathBuf,
        flying: bool,
        memory: &str,
        hash_mib: Option<&Bound<'_, PyAny>>,
        threads: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyTablebases> {
        // The arguments first, so that a bad one is reported whatever the
        // directory.
        if !matches!(memory, "values" | "outcomes" | "mapped") {
            return Err(PyValueError::new_err(format!(
                "memory must be \"values\", \"outcomes\" or \"mapped\", found {memory:?}"
            )));
        }
        let hash_mib = match hash_mib {
            Some(h) => int_in(h, "hash_mib", 1, MAX_HASH_MIB)? as u64,
            None => 1024,
        };
        let threads = threads
            .map(|t| int_in(t, "threads", 1, MAX_THREADS).map(|t| t as usize))
            .transpose()?;
        if dir.as_os_str().is_empty() {
            return Err(TablebaseError::new_err(
                "the tablebase directory is empty (\"\"); give the directory of `solver nine generate`",
            ));
        }
        let rules = RuleSet::nine(flying);
        let tb = Tablebases::open(&dir, rules).map_err(probe_error)?;
        if !has_tables(&dir)? {
            return Err(TablebaseError::new_err(format!(
                "{}: no tablebase files in this directory (nine-*.tb, made by `solver nine generate`)",
                dir.display(),
            )));
        }
        let tb = match memory {
            "values" => tb.in_memory(),
            "outcomes" => tb.in_memory_wdl(),
            _ => tb,
        };
        let mut options = SearchOptions {
            hash_mib,
            ..SearchOptions::default()
        };
        if let Some(t) = threads {
            options.threads = t;
        }
        let tb = Arc::new(tb);
        let engine = Engine::new(tb.clone(), |tb| Analyst::new(tb, options));
        Ok(PyTablebases {
            tb,
            engine: Mutex::new(engine),
            dir,
            memory: memory.to_string(),
            flying,
            hash_mib,
            threads,
        })
    }

    /// The size of the placement search's table in MiB.
    #[getter]
    fn hash_mib(&self) -> u64 {
        self.hash_mib
    }

    /// The placement search's threads as given (`None`: all cores).
    #[getter]
    fn threads(&self) -> Option<usize> {
        self.threads
    }

    /// Pickling (any protocol): the directory (made absolute, so that a
    /// worker with another working directory finds it) and the options, as
    /// `functools.partial(Tablebases, flying=…, memory=…, hash_mib=…,
    /// threads=…)(dir)`: unpickling opens the directory again.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (PathBuf,))> {
        let py = slf.py();
        let tb = slf.get();
        let dir = std::path::absolute(&tb.dir).unwrap_or_else(|_| tb.dir.clone());
        let kwargs = PyDict::new(py);
        kwargs.set_item("flying", tb.flying)?;
        kwargs.set_item("memory", &tb.memory)?;
        kwargs.set_item("hash_mib", tb.hash_mib)?;
        kwargs.set_item("threads", tb.threads)?;
        let reopen = py
            .import("functools")?
            .getattr("partial")?
            .call((slf.get_type(),), Some(&kwargs))?;
        Ok((reopen, (dir,)))
    }

    /// The same object: the opened tables are immutable and thread-safe.
    fn __copy__(slf: Bound<'_, Self>) -> Bound<'_, Self> {
        slf
    }

    /// The same object (opening the tables again would hold them twice).
    fn __deepcopy__<'py>(slf: Bound<'py, Self>, _memo: &Bound<'py, PyAny>) -> Bound<'py, Self> {
        slf
    }

    /// The directory.
    #[getter]
    fn directory(&self) -> PathBuf {
        self.dir.clone()
    }

    /// Whether flying is allowed (the rule set of the tables).
    #[getter]
    fn flying(&self) -> bool {
        self.flying
    }

    /// How the tables are held: `"values"`, `"outcomes"` or `"mapped"`.
    #[getter]
    fn memory(&self) -> &str {
        &self.memory
    }

    /// Value, distance to conversion and every move's value of `position`
    /// (a `Position` or its text; the start position when omitted), after
    /// playing `moves` ("d6 d2 b4") from it — `solver nine probe`.
    /// Moving-phase positions are read from the tables; placement positions
    /// go through the placement search (seconds late in placement, about a
    /// minute for the empty board with all tables on two cores).
    #[pyo3(signature = (position = None, moves = None))]
    fn probe(
        &self,
        py: Python<'_>,
        position: Option<PositionArg>,
        moves: Option<&str>,
    ) -> PyResult<PyAnalysis> {
        let mut pos = match position {
            Some(p) => p.position()?,
            None => Position::start(RuleSet::nine(true)),
        };
        for text in moves.iter().flat_map(|m| m.split_whitespace()) {
            let m = resolve_move(&pos, self.rules(), MoveArg::Text(text.to_string()))?;
            pos = pos.apply(m);
        }
        self.with_analyst(py, |a| a.analyse(&pos))
            .map(PyAnalysis)
            .map_err(analysis_error)
    }

    /// The perfect player's move in `position` (fastest conversion when
    /// winning, slowest when losing), `None` when the game is over. Faster
    /// than `probe` in the placement phase (one best move, not every value).
    /// `policy` picks among the moves of the best value (docs/policies.md):
    /// `"fast"` (the default), `"random"`, `"ultra"`, `"ultra:K"` or
    /// `"ultra:K:MODEL"`, its random choices seeded by `seed`; a policy
    /// other than `"fast"` needs the tables of the position (placement
    /// positions: the placement tables), else the move is the search's.
    #[pyo3(signature = (position, policy = None, seed = 1))]
    fn best_move(
        &self,
        py: Python<'_>,
        position: PositionArg,
        policy: Option<&str>,
        seed: u64,
    ) -> PyResult<Option<PyMoveValue>> {
        let pos = position.position()?;
        let policy: Policy = match policy {
            None => Policy::Fast,
            Some(text) => text
                .parse()
                .map_err(|e: PolicyError| PyValueError::new_err(e.to_string()))?,
        };
        if policy == Policy::SectorValue {
            return Err(PyValueError::new_err(
                "the secval policy is offered by `solver nine` (it reads Malom's std.secval), not here",
            ));
        }
        if policy != Policy::Fast && self.tb.has_table(&pos) {
            let tb = Arc::clone(&self.tb);
            let chosen = py.allow_threads(|| {
                let game = NineGame::new(&tb).from(pos);
                policy.pick(&game, &pos, &[], &mut seeded(seed))
            });
            return match chosen {
                Ok(c) => Ok(c.map(|c| {
                    PyMoveValue(MoveValue {
                        mv: c.mv,
                        value: c.value.outcome(),
                        dtc: c.has_distance.then(|| c.value.distance()).flatten(),
                    })
                })),
                Err(DuelError::Probe(e)) => Err(probe_error(e)),
                Err(e) => Err(TablebaseError::new_err(e.to_string())),
            };
        }
        self.with_analyst(py, |a| a.best(&pos))
            .map(|m| m.map(PyMoveValue))
            .map_err(analysis_error)
    }

    /// Values under a turn limit (`solver nine probe --turns-left`): the
    /// value of a moving-phase `position` and of each of its moves when the
    /// game is a draw after `turns_left` more turns (plies; this position's
    /// move included: OpenSpiel's `200 - turn`), by an exact search over
    /// the tables (`mill::probe::horizon`). Returns the command's JSON object as a
    /// dict: `position`, `plies`, `value` (under the limit), `table_value`,
    /// `dtc`, `nodes`, `moves` (best under the limit first, each `move`,
    /// `value`, `table_value`, `dtc`). `budget` (default 5,000,000)
    /// bounds the positions the search expands: past it `BudgetError` is
    /// raised, never an inexact value. A placement position is a
    /// `PositionError`. The GIL is released while it searches.
    #[pyo3(signature = (position, turns_left, *, budget = None))]
    fn probe_within<'py>(
        &self,
        py: Python<'py>,
        position: PositionArg,
        turns_left: &Bound<'py, PyAny>,
        budget: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let (pos, plies, budget) = horizon_args(position, turns_left, budget)?;
        let tb = Arc::clone(&self.tb);
        let answer = py.allow_threads(|| {
            Horizon::new(&tb)
                .with_budget(budget)
                .analyse(&pos, plies)
                .map(|w| w.to_json().to_string())
        });
        let text = answer.map_err(horizon_error)?;
        py.import("json")?.getattr("loads")?.call1((text,))
    }

    /// The best move under a turn limit, searching only as far as that
    /// choice needs (what `PerfectBot` plays): a move that wins before the
    /// limit when there is one, else one that draws, else the slowest
    /// loss. Returns `None` when the game is over or `turns_left` is 0,
    /// else a dict: `move`, `value` (under the limit, exact), `table_value`,
    /// `dtc`, `nodes`. `budget` and errors as for `probe_within`.
    #[pyo3(signature = (position, turns_left, *, budget = None))]
    fn best_within<'py>(
        &self,
        py: Python<'py>,
        position: PositionArg,
        turns_left: &Bound<'py, PyAny>,
        budget: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let (pos, plies, budget) = horizon_args(position, turns_left, budget)?;
        let tb = Arc::clone(&self.tb);
        let answer = py.allow_threads(|| {
            let mut horizon = Horizon::new(&tb).with_budget(budget);
            let best = horizon.best(&pos, plies)?;
            Ok::<_, HorizonError>(best.map(|m| {
                serde_json::json!({
                    "move": m.mv.to_string(),
                    "value": m.within.as_str(),
                    "table_value": m.table.outcome().as_str(),
                    "dtc": m.table.distance(),
                    "nodes": horizon.nodes(),
                })
                .to_string()
            }))
        });
        let text = answer.map_err(horizon_error)?;
        match text {
            None => Ok(py.None().into_bound(py)),
            Some(text) => py.import("json")?.getattr("loads")?.call1((text,)),
        }
    }

    /// Values of many positions at once: `positions` is a list of
    /// `Position`s or texts, or an integer array of shape `(n, 5)` with rows
    /// `[white, black, to_move, white_hand, black_hand]` (see
    /// `Position.to_array`). Returns `(value, dtc)`, two arrays of length
    /// `n`: `value` int8 (1 win, 0 draw, -1 loss for the side to move),
    /// `dtc` int16 (plies to conversion, -1 when unknown: draws, placement
    /// positions). Moving-phase positions are probed in parallel without the
    /// GIL; placement positions go through the placement search one by one.
    /// Raises on the first bad position, naming its index.
    fn probe_many<'py>(
        &self,
        py: Python<'py>,
        positions: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let positions = batch::positions(py, positions)?;
        let (values, dtcs) = batch::probe(py, self, &positions)?;
        let values = PyArray1::from_vec(py, values);
        let dtcs = PyArray1::from_vec(py, dtcs);
        PyTuple::new(py, [values.into_any(), dtcs.into_any()])
    }

    fn __repr__(&self) -> String {
        format!(
            "Tablebases('{}', flying={}, memory='{}')",
            self.dir.display(),
            if self.flying { "True" } else { "False" },
            self.memory
        )
    }
}

/// Rows `[white, black, to_move, white_hand, black_hand]` of many
/// positions (a list of `Position`s or texts), as a `uint32` array of shape
/// `(n, 5)` for `Tablebases.probe_many`.
#[pyfunction]
fn encode_positions<'py>(
    py: Python<'py>,
    positions: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyArray2<u32>>> {
    let positions = batch::positions(py, positions)?;
    let rows: Vec<Vec<u32>> = positions
        .iter()
        .map(|p| batch::encode(p).to_vec())
        .collect();
    if rows.is_empty() {
        return Ok(numpy::PyArray2::zeros(py, [0, 5], false));
    }
    PyArray2::from_vec2(py, &rows).map_err(|e| SolverError::new_err(e.to_string()))
}

/// The positions of an array of rows `[white, black, to_move, white_hand,
/// black_hand]` (the inverse of `encode_positions`).
#[pyfunction]
fn decode_positions(py: Python<'_>, array: &Bound<'_, PyAny>) -> PyResult<Vec<PyPosition>> {
    Ok(batch::positions(py, array)?
        .into_iter()
        .map(PyPosition)
        .collect())
}

/// Add the Nine Men's Morris classes and functions to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyPosition>()?;
    m.add_class::<PyMove>()?;
    m.add_class::<PyMoveValue>()?;
    m.add_class::<PyAnalysis>()?;
    m.add_class::<PyTablebases>()?;
    m.add_function(wrap_pyfunction!(encode_positions, m)?)?;
    m.add_function(wrap_pyfunction!(decode_positions, m)?)?;
    Ok(())
}
