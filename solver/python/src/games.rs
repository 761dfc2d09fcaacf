//! Three Men's Morris probes and the Toguz Kumalak search for Python; both
//! answer with the object the command line prints with `--json`.

use super::args::{int_in, type_name};
use super::{move_error, position_error, SolverError};
use mill::games::three::report::probe_json;
use mill::games::three::solve::Solution;
use mill::games::three::{parse_move, Position};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use std::sync::OnceLock;
use std::time::Duration;
use toguz::search::{Config, Engine, Limits};
use toguz::Board;

/// A JSON value as the Python object `json.loads` makes of it.
fn to_python<'py>(py: Python<'py>, value: &serde_json::Value) -> PyResult<Bound<'py, PyAny>> {
    py.import("json")?
        .call_method1("loads", (value.to_string(),))
}

/// The Three Men's Morris solution, solved at the first call (milliseconds).
fn solution() -> PyResult<&'static Solution> {
    static SOLUTION: OnceLock<Solution> = OnceLock::new();
    if let Some(s) = SOLUTION.get() {
        return Ok(s);
    }
    let s = Solution::solve().map_err(|e| SolverError::new_err(format!("solving failed: {e}")))?;
    Ok(SOLUTION.get_or_init(|| s))
}

/// Three Men's Morris: the value of `position` (its text, the start
/// position `......... w 3 3` when omitted) after `moves` ("b2 a1 …"), and
/// every legal move's value — the object of `solver three probe --json`:
/// `position`, `to_move`, `value`, `dtc` and `plies` (both the distance to
/// the end of the game under perfect play), `source`, `finished`, `moves`
/// (each `move`, `value`, `dtc`, `plies`).
#[pyfunction]
#[pyo3(signature = (position = None, moves = ""))]
fn three_probe<'py>(
    py: Python<'py>,
    position: Option<&str>,
    moves: &str,
) -> PyResult<Bound<'py, PyAny>> {
    let mut pos = match position {
        None => Position::start(),
        Some(text) => text
            .parse::<Position>()
            .map_err(|e| position_error(format!("bad position: {e}")))?,
    };
    for (i, text) in moves.split_whitespace().enumerate() {
        let m = parse_move(&pos, text)
            .map_err(|e| move_error(format!("move {} ({text}): {e}", i + 1)))?;
        pos = pos.play(m);
    }
    to_python(py, &probe_json(solution()?, &pos))
}

/// Toguz Kumalak: search `position` (its text, the start position when
/// omitted) with the engine of `solver toguz search`, for `time` seconds,
/// to `depth` plies and/or `nodes` nodes (at least one limit), on `threads`
/// threads (1 is deterministic) with a `hash_mib` transposition table. The
/// GIL is released while it searches. Returns the object of
/// `solver toguz search --json`: `position`, `threads`, `best` (hole 1..9),
/// `score` (centi-stones for the side to move; beyond ±29000 a won game),
/// `pv`, `depth`, `nodes`, `seconds`, `nps`, `iterations`, `exact`.
/// Limits are checked first: `TypeError` for a wrong type (a float depth,
/// a bool), `ValueError` for a value out of range.
#[pyfunction]
#[pyo3(
    signature = (position = None, *, time = None, depth = None, nodes = None, threads = None, hash_mib = None),
    text_signature = "(position=None, *, time=None, depth=None, nodes=None, threads=1, hash_mib=64)"
)]
#[allow(clippy::too_many_arguments)]
fn toguz_search<'py>(
    py: Python<'py>,
    position: Option<&str>,
    time: Option<&Bound<'py, PyAny>>,
    depth: Option<&Bound<'py, PyAny>>,
    nodes: Option<&Bound<'py, PyAny>>,
    threads: Option<&Bound<'py, PyAny>>,
    hash_mib: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let time = time
        .map(|t| {
            if t.is_instance_of::<pyo3::types::PyBool>() {
                return Err(PyTypeError::new_err(
                    "time must be a number of seconds, found bool",
                ));
            }
            let t: f64 = t.extract().map_err(|_| {
                PyTypeError::new_err(format!(
                    "time must be a number of seconds, found {}",
                    type_name(t)
                ))
            })?;
            if t.is_finite() && t > 0.0 {
                Ok(t)
            } else {
                Err(PyValueError::new_err(format!(
                    "time must be a positive number of seconds (got {t})"
                )))
            }
        })
        .transpose()?;
    let depth = depth
        .map(|d| int_in(d, "depth", 1, 100).map(|d| d as i32))
        .transpose()?;
    let nodes = nodes
        .map(|n| int_in(n, "nodes", 1, u64::MAX.into()).map(|n| n as u64))
        .transpose()?;
    let threads = threads
        .map(|t| int_in(t, "threads", 1, 256).map(|t| t as usize))
        .transpose()?
        .unwrap_or(1);
    let hash_mib = hash_mib
        .map(|h| int_in(h, "hash_mib", 1, 65536).map(|h| h as usize))
        .transpose()?
        .unwrap_or(64);
    if time.is_none() && depth.is_none() && nodes.is_none() {
        return Err(PyValueError::new_err("give time, depth or nodes"));
    }
    let board = position
        .unwrap_or("start")
        .parse::<Board>()
        .map_err(|e| position_error(format!("position: {e}")))?;
    if let Some(o) = board.outcome() {
        return Err(position_error(format!("the game is over ({o:?})")));
    }
    let limits = Limits {
        depth,
        time: time.map(Duration::from_secs_f64),
        nodes,
        threads,
    };
    let result = py.allow_threads(|| {
        let mut engine = Engine::new(Config {
            tt_mb: hash_mib,
            ..Config::default()
        });
        engine.search(&board, &limits, &mut |_| {})
    });
    let mut out = serde_json::to_value(&result).map_err(|e| SolverError::new_err(e.to_string()))?;
    out["position"] = board.to_string().into();
    out["threads"] = threads.into();
    to_python(py, &out)
}

/// Add the Three Men's Morris and Toguz Kumalak functions to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(three_probe, m)?)?;
    m.add_function(wrap_pyfunction!(toguz_search, m)?)?;
    Ok(())
}
