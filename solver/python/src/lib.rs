//! The Python module `mill_solver._native` (feature `python`, built by
//! maturin from `solver/pyproject.toml`): Nine Men's Morris positions, moves
//! and tablebase probes ([`nine`]), batch probes over lists and NumPy arrays
//! ([`batch`]), every mill game through one `Game` class ([`boards`]),
//! Three Men's Morris and the Toguz Kumalak search ([`games`]),
//! strict checks of Python arguments ([`args`]).
//! The pure-Python part (the OpenSpiel bot, the value codes, type stubs) is
//! in `solver/python/mill_solver/`; `docs/python.md` documents the whole.
//!
//! Errors of the library become exceptions carrying the messages the
//! command line prints: [`SolverError`] and its subclasses. A bad position
//! or move is also a bad argument value, so [`position_error`] and
//! [`move_error`] raise classes that derive from both `SolverError` and
//! `ValueError`.

use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::GILOnceCell;
use pyo3::types::{PyDict, PyTuple, PyType};

mod args;
mod batch;
mod boards;
mod games;
mod nine;

create_exception!(
    mill_solver,
    SolverError,
    PyException,
    "Base class of the errors raised by mill_solver."
);
create_exception!(
    mill_solver,
    TablebaseError,
    SolverError,
    "A tablebase directory or file that is missing, damaged or of another rule set."
);

create_exception!(
    mill_solver,
    BudgetError,
    SolverError,
    "A search under the turn limit expanded its budget of positions without an answer (no value is guessed)."
);

const POSITION_ERROR_DOC: &str = "A position text that cannot be parsed, or an illegal position \
     (also a ValueError).";
const MOVE_ERROR_DOC: &str =
    "A move that is not legal in its position (the message says why; also a ValueError).";

static POSITION_ERROR: GILOnceCell<Py<PyType>> = GILOnceCell::new();
static MOVE_ERROR: GILOnceCell<Py<PyType>> = GILOnceCell::new();

/// An exception class `mill_solver.<name>` deriving from `SolverError` and
/// `ValueError` (made as a class statement would: `type(name, bases, dict)`).
fn value_error_class(py: Python<'_>, name: &str, doc: &str) -> PyResult<Py<PyType>> {
    let dict = PyDict::new(py);
    dict.set_item("__module__", "mill_solver")?;
    dict.set_item("__doc__", doc)?;
    let bases = PyTuple::new(
        py,
        [py.get_type::<SolverError>(), py.get_type::<PyValueError>()],
    )?;
    Ok(py
        .get_type::<PyType>()
        .call1((name, bases, dict))?
        .downcast_into::<PyType>()?
        .unbind())
}

/// `mill_solver.PositionError`.
fn position_error_type(py: Python<'_>) -> PyResult<&Py<PyType>> {
    POSITION_ERROR.get_or_try_init(py, || {
        value_error_class(py, "PositionError", POSITION_ERROR_DOC)
    })
}

/// `mill_solver.MoveError`.
fn move_error_type(py: Python<'_>) -> PyResult<&Py<PyType>> {
    MOVE_ERROR.get_or_try_init(py, || value_error_class(py, "MoveError", MOVE_ERROR_DOC))
}

/// A `PositionError` (a bad or illegal position) with `message`.
pub(crate) fn position_error(message: impl Into<String>) -> PyErr {
    let message = message.into();
    Python::with_gil(|py| match position_error_type(py) {
        Ok(t) => PyErr::from_type(t.bind(py).clone(), message),
        Err(e) => e,
    })
}

/// A `MoveError` (an illegal move) with `message`.
pub(crate) fn move_error(message: impl Into<String>) -> PyErr {
    let message = message.into();
    Python::with_gil(|py| match move_error_type(py) {
        Ok(t) => PyErr::from_type(t.bind(py).clone(), message),
        Err(e) => e,
    })
}

/// The extension module.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("SolverError", py.get_type::<SolverError>())?;
    m.add("PositionError", position_error_type(py)?.bind(py))?;
    m.add("MoveError", move_error_type(py)?.bind(py))?;
    m.add("TablebaseError", py.get_type::<TablebaseError>())?;
    m.add("BudgetError", py.get_type::<BudgetError>())?;
    nine::register(m)?;
    boards::register(m)?;
    games::register(m)?;
    Ok(())
}
