//! The Python module `mill_solver._native` (feature `python`, built by
//! maturin from `solver/pyproject.toml`): Nine Men's Morris positions, moves
//! and tablebase probes ([`nine`]), batch probes over lists and NumPy arrays
//! ([`batch`]), Three Men's Morris and the Toguz Kumalak search ([`games`]).
//! The pure-Python part (the OpenSpiel bot, type stubs) is in
//! `solver/python/mill_solver/`; `docs/python.md` documents the whole.
//!
//! Errors of the library become exceptions carrying the messages the
//! command line prints: [`SolverError`] and its subclasses.

use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;

mod batch;
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
    PositionError,
    SolverError,
    "A position text that cannot be parsed, or an illegal position."
);
create_exception!(
    mill_solver,
    MoveError,
    SolverError,
    "A move that is not legal in its position (the message says why)."
);
create_exception!(
    mill_solver,
    TablebaseError,
    SolverError,
    "A tablebase directory or file that is missing, damaged or of another rule set."
);

/// The extension module.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("SolverError", py.get_type::<SolverError>())?;
    m.add("PositionError", py.get_type::<PositionError>())?;
    m.add("MoveError", py.get_type::<MoveError>())?;
    m.add("TablebaseError", py.get_type::<TablebaseError>())?;
    nine::register(m)?;
    games::register(m)?;
    Ok(())
}
