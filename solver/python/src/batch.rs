//! Batch probes for Python: many positions in, two NumPy arrays out, with
//! no Python code run per position. Positions come as a list (of
//! `Position`s or texts) or as an integer array of rows
//! `[white, black, to_move, white_hand, black_hand]` (bit `i` of a colour's
//! mask is point `i` in reading order). Moving-phase positions are probed in
//! parallel straight through [`Tablebases`] (which is `Sync`) with the GIL
//! released; placement positions go through the [`Analyst`]'s search.
//!
//! [`Tablebases`]: mill::probe::Tablebases
//! [`Analyst`]: mill::analysis::Analyst

use super::nine::{analysis_error, probe_error, reading_points, PositionArg, PyTablebases};
use super::PositionError;
use mill::movegen::game_over;
use mill::position::{Color, Position, PositionError as Illegal};
use numpy::{PyReadonlyArray2, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyString;
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

/// The legal position of a row, or the message why there is none.
fn decode(row: [u32; 5]) -> Result<Position, String> {
    let illegal = |e: Illegal| format!("illegal position: {e}");
    let bits = |mask: u32| -> Result<u32, String> {
        if mask >> 24 != 0 {
            return Err(illegal(Illegal::OffBoard));
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
        x => return Err(format!("to_move must be 0 (White) or 1 (Black), found {x}")),
    };
    let hand = |x: u32, who: &str| {
        u8::try_from(x).map_err(|_| format!("{who}'s stones in hand must be 0..9, found {x}"))
    };
    let pos = Position {
        stones: [bits(row[0])?, bits(row[1])?],
        hand: [hand(row[3], "White")?, hand(row[4], "Black")?],
        to_move,
    };
    pos.validate().map_err(illegal)?;
    Ok(pos)
}

/// The positions of a list or an array (see the module comment); the
/// first bad one is an error naming its index.
pub(crate) fn positions(py: Python<'_>, obj: &Bound<'_, PyAny>) -> PyResult<Vec<Position>> {
    if obj.is_instance_of::<PyString>() {
        return Err(PyTypeError::new_err(
            "expected a list of positions or an array of shape (n, 5), found a string",
        ));
    }
    if obj.downcast::<PyUntypedArray>().is_ok() {
        let array = match obj.extract::<PyReadonlyArray2<u32>>() {
            Ok(a) => a,
            Err(_) => py
                .import("numpy")?
                .call_method1("asarray", (obj, "uint32"))?
                .extract::<PyReadonlyArray2<u32>>()
                .map_err(|_| PyTypeError::new_err("expected an integer array of shape (n, 5)"))?,
        };
        let shape = array.shape();
        if shape[1] != 5 {
            return Err(PyTypeError::new_err(format!(
                "expected an array of shape (n, 5), found ({}, {})",
                shape[0], shape[1]
            )));
        }
        let view = array.as_array();
        return view
            .rows()
            .into_iter()
            .enumerate()
            .map(|(i, r)| {
                decode([r[0], r[1], r[2], r[3], r[4]])
                    .map_err(|e| PositionError::new_err(format!("position {i}: {e}")))
            })
            .collect();
    }
    let list: Vec<PositionArg> = obj.extract().map_err(|_| {
        PyTypeError::new_err(
            "expected a list of positions (Position or text) or an array of shape (n, 5)",
        )
    })?;
    list.into_iter()
        .enumerate()
        .map(|(i, p)| {
            p.position()
                .map_err(|e| PositionError::new_err(format!("position {i}: {}", e.value(py))))
        })
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
    let placing = |p: &Position| p.placing() && game_over(p, rules).is_none();
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
