//! Batch probes for Python: many positions in, two NumPy arrays out, with
//! no Python code run per position. Positions come as a list or any other
//! iterable (of `Position`s, texts or rows of five ints) or as an integer
//! array of rows `[white, black, to_move, white_hand, black_hand]` (bit `i`
//! of a colour's mask is point `i` in reading order). Inputs are strict:
//! integer dtypes only, every value range-checked, never rounded or wrapped. Moving-phase positions are probed in
//! parallel straight through [`Tablebases`] (which is `Sync`) with the GIL
//! released; placement positions go through the [`Analyst`]'s search.
//!
//! [`Tablebases`]: mill::probe::nine::Tablebases
//! [`Analyst`]: mill::probe::analysis::Analyst

use super::args::{integer, is_sequence, type_name, IntProblem};
use super::nine::{
    analysis_error, parse_position, probe_error, reading_points, PyPosition, PyTablebases,
};
use super::position_error;
use mill::rules::board::Nine;
use mill::rules::ending;
use mill::rules::position::{Color, Position, PositionError as Illegal};
use mill::rules::variant::RuleSet;
use numpy::{
    Element, PyArrayDescrMethods, PyReadonlyArray2, PyUntypedArray, PyUntypedArrayMethods,
};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};
use rayon::prelude::*;
use tablebase::{Outcome, Value};

/// The row of `pos`: `[white, black, to_move, white_hand, black_hand]`.
pub(crate) fn encode(pos: &Position) -> [u32; 5] {
    let mask = |bits: u32| {
        reading_points()
            .iter()
            .enumerate()
            .filter(|&(_, &p)| bits >> p & 1 == 1)
            .fold(0u32, |acc, (i, _)| acc | 1 << i)
    };
    [
        mask(pos.stones[0]),
        mask(pos.stones[1]),
        pos.to_move.index() as u32,
        u32::from(pos.hand[0]),
        u32::from(pos.hand[1]),
    ]
}

/// The columns of a row, for messages, and the largest value of each.
const COLUMNS: [(&str, i128); 5] = [
    ("white", (1 << 24) - 1),
    ("black", (1 << 24) - 1),
    ("to_move", 1),
    ("white_hand", 9),
    ("black_hand", 9),
];

/// The message for a value of column `c` outside its range (`shown` is the
/// value as Python writes it).
fn out_of_range(c: usize, shown: &str) -> String {
    let (name, max) = COLUMNS[c];
    match c {
        0 | 1 => format!("{name} must be a 24-bit mask 0..{max}, found {shown}"),
        2 => format!("to_move must be 0 (White) or 1 (Black), found {shown}"),
        _ => format!("{name} (stones in hand) must be 0..{max}, found {shown}"),
    }
}

/// The legal position of row `i`, its values already integers: an
/// out-of-range value or an illegal position raises `PositionError` (also
/// a `ValueError`) naming the index.
fn decode_row(i: usize, row: [i128; 5]) -> PyResult<Position> {
    let mut values = [0u32; 5];
    for (c, (&v, slot)) in row.iter().zip(values.iter_mut()).enumerate() {
        if !(0..=COLUMNS[c].1).contains(&v) {
            return Err(position_error(format!(
                "position {i}: {}",
                out_of_range(c, &v.to_string())
            )));
        }
        *slot = v as u32;
    }
    decode(values).map_err(|e| position_error(format!("position {i}: {e}")))
}

/// The legal position of a row whose values are in range, or the message
/// why there is none.
fn decode(row: [u32; 5]) -> Result<Position, String> {
    let illegal = |e: Illegal| format!("illegal position: {e}");
    let bits = |mask: u32| -> Result<u32, String> {
        if mask >> 24 != 0 {
            return Err(illegal(Illegal::OffBoard(24)));
        }
        Ok(reading_points()
            .iter()
            .enumerate()
            .filter(|&(i, _)| mask >> i & 1 == 1)
            .fold(0u32, |acc, (_, &p)| acc | 1 << p))
    };
    let to_move = match row[2] {
        0 => Color::White,
        1 => Color::Black,
        x => return Err(out_of_range(2, &x.to_string())),
    };
    let hand = |c: usize| u8::try_from(row[c]).map_err(|_| out_of_range(c, &row[c].to_string()));
    let pos = Position {
        stones: [bits(row[0])?, bits(row[1])?],
        hand: [hand(3)?, hand(4)?],
        to_move,
    };
    pos.validate::<Nine>(RuleSet::nine(true)).map_err(illegal)?;
    Ok(pos)
}

/// What `positions` accepts, for messages.
const EXPECTED: &str = "a list of positions (Position objects, position texts or rows of 5 \
     ints [white, black, to_move, white_hand, black_hand]) or an integer array of shape (n, 5)";

/// A shape as Python writes it: `(3, 4)`, `(5,)`.
fn shape_text(shape: &[usize]) -> String {
    match shape {
        [n] => format!("({n},)"),
        _ => format!(
            "({})",
            shape
                .iter()
                .map(|n| n.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// The positions of an integer array of shape `(n, 5)` with elements of
/// type `T`, or `None` if the array does not hold `T`s.
fn array_rows<T>(obj: &Bound<'_, PyAny>) -> Option<PyResult<Vec<Position>>>
where
    T: Element + Copy,
    i128: From<T>,
{
    let array = obj.extract::<PyReadonlyArray2<T>>().ok()?;
    let view = array.as_array();
    Some(
        view.rows()
            .into_iter()
            .enumerate()
            .map(|(i, r)| decode_row(i, [r[0], r[1], r[2], r[3], r[4]].map(|v: T| i128::from(v))))
            .collect(),
    )
}

/// The positions of a NumPy array: integers of any width and sign, shape
/// `(n, 5)`; anything else is a `TypeError` (dtype) or `ValueError` (shape).
fn array_positions(py: Python<'_>, array: &Bound<'_, PyUntypedArray>) -> PyResult<Vec<Position>> {
    let dtype = array.dtype();
    if !matches!(dtype.kind(), b'i' | b'u') {
        return Err(PyTypeError::new_err(format!(
            "expected {EXPECTED}, found an array of dtype {} (convert floats explicitly, e.g. \
             with .astype(np.int64), after checking they are whole)",
            dtype.str()?
        )));
    }
    let shape = array.shape();
    if shape.len() != 2 || shape[1] != 5 {
        return Err(PyValueError::new_err(format!(
            "expected an integer array of shape (n, 5) with rows [white, black, to_move, \
             white_hand, black_hand], found shape {}",
            shape_text(shape)
        )));
    }
    let obj = array.as_any();
    let native;
    let obj = if dtype.is_native_byteorder() == Some(false) {
        // Byte-swapped: the same values in the machine's byte order.
        let order = dtype.call_method1("newbyteorder", ("=",))?;
        native = py.import("numpy")?.call_method1("asarray", (obj, order))?;
        &native
    } else {
        obj
    };
    array_rows::<u8>(obj)
        .or_else(|| array_rows::<i8>(obj))
        .or_else(|| array_rows::<u16>(obj))
        .or_else(|| array_rows::<i16>(obj))
        .or_else(|| array_rows::<u32>(obj))
        .or_else(|| array_rows::<i32>(obj))
        .or_else(|| array_rows::<u64>(obj))
        .or_else(|| array_rows::<i64>(obj))
        .unwrap_or_else(|| {
            Err(PyTypeError::new_err(format!(
                "expected {EXPECTED}, found an array of dtype {}",
                dtype.str()?
            )))
        })
}

/// The position of item `i` of a list: a `Position`, a text or a row of
/// five integers.
fn item_position(py: Python<'_>, i: usize, item: &Bound<'_, PyAny>) -> PyResult<Position> {
    if let Ok(p) = item.downcast::<PyPosition>() {
        return Ok(p.get().0);
    }
    if let Ok(text) = item.downcast::<PyString>() {
        return parse_position(&text.to_cow()?)
            .map_err(|e| position_error(format!("position {i}: {}", e.value(py))));
    }
    if !is_sequence(item) {
        return Err(PyTypeError::new_err(format!(
            "position {i}: expected a Position, a position text or a row of 5 ints, found {}",
            type_name(item)
        )));
    }
    let row = item;
    let n = row.len()?;
    if n != 5 {
        return Err(PyValueError::new_err(format!(
            "position {i}: a row has 5 ints [white, black, to_move, white_hand, black_hand], \
             found {n} values"
        )));
    }
    let mut values = [0i128; 5];
    for (c, slot) in values.iter_mut().enumerate() {
        let v = row.get_item(c)?;
        *slot = match integer(&v) {
            Ok(x) => x,
            Err(IntProblem::NotInt) => {
                return Err(PyTypeError::new_err(format!(
                    "position {i}: {} must be an int, found {}",
                    COLUMNS[c].0,
                    type_name(&v)
                )))
            }
            Err(IntProblem::Huge) => {
                return Err(position_error(format!(
                    "position {i}: {}",
                    out_of_range(c, &v.repr()?.to_cow()?)
                )))
            }
        };
    }
    decode_row(i, values)
}

/// The positions of a list or an array (see the module comment); the
/// first bad one is an error naming its index. Arrays must hold integers
/// (any width and sign) in shape `(n, 5)`; any other iterable may hold
/// `Position`s, texts and rows of five ints. Floats and bools are a
/// `TypeError`, a wrong shape a `ValueError`, a value out of its column's
/// range or an illegal position a `PositionError` (a `ValueError` too):
/// nothing is rounded, wrapped or truncated.
pub(crate) fn positions(py: Python<'_>, obj: &Bound<'_, PyAny>) -> PyResult<Vec<Position>> {
    if let Ok(array) = obj.downcast::<PyUntypedArray>() {
        return array_positions(py, array);
    }
    if obj.is_instance_of::<PyString>() || obj.is_instance_of::<PyBytes>() {
        return Err(PyTypeError::new_err(format!(
            "expected {EXPECTED}, found a {} (for one position, pass a list of one)",
            type_name(obj)
        )));
    }
    let iter = obj.try_iter().map_err(|_| {
        PyTypeError::new_err(format!("expected {EXPECTED}, found {}", type_name(obj)))
    })?;
    iter.enumerate()
        .map(|(i, item)| item_position(py, i, &item?))
        .collect()
}

fn split(v: Value) -> (i8, i16) {
    let value = match v.outcome() {
        Outcome::Win => 1,
        Outcome::Draw => 0,
        Outcome::Loss => -1,
    };
    (value, v.distance().map_or(-1, |d| d as i16))
}

/// Values and distances of `positions` (see `Tablebases.probe_many`).
pub(crate) fn probe(
    py: Python<'_>,
    tbs: &PyTablebases,
    positions: &[Position],
) -> PyResult<(Vec<i8>, Vec<i16>)> {
    let tb = &*tbs.tb;
    let rules = tb.rules();
    let placing = |p: &Position| p.placing() && ending::<Nine>(p, rules).is_none();
    // Moving phase and finished games: in parallel, without the GIL.
    let mut results: Vec<(i8, i16)> = py
        .allow_threads(|| {
            positions
                .par_iter()
                .enumerate()
                .map(|(i, p)| {
                    if placing(p) {
                        return Ok((0, -1));
                    }
                    tb.probe(p).map(split).map_err(|e| (i, e))
                })
                .collect::<Result<Vec<_>, _>>()
        })
        .map_err(|(i, e)| {
            let err = probe_error(e);
            let message = format!("position {i}: {}", err.value(py));
            PyErr::from_type(err.get_type(py), message)
        })?;
    // Placement positions: the search, one at a time.
    for (i, p) in positions.iter().enumerate().filter(|(_, p)| placing(p)) {
        let a = tbs.with_analyst(py, |a| a.analyse(p)).map_err(|e| {
            let err = analysis_error(e);
            let message = format!("position {i}: {}", err.value(py));
            PyErr::from_type(err.get_type(py), message)
        })?;
        let value = match a.value {
            Outcome::Win => 1,
            Outcome::Draw => 0,
            Outcome::Loss => -1,
        };
        results[i] = (value, a.dtc.map_or(-1, |d| d as i16));
    }
    Ok(results.into_iter().unzip())
}
