//! Strict conversion of Python arguments: integers must be `int`s (or
//! objects with `__index__`, such as NumPy integers) — never floats or
//! bools — and are range-checked without wrapping; messages name the Python
//! argument.

use numpy::{PyUntypedArray, PyUntypedArrayMethods};
use pyo3::exceptions::{PyOverflowError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyInt, PySequence, PyString};

/// Why a Python object is not an integer of a range.
pub(crate) enum IntProblem {
    /// Not an integer at all (a float, a bool, a string, …).
    NotInt,
    /// An integer beyond any range we accept (it does not fit in `i128`).
    Huge,
}

/// The Python type name of `obj` (`float`, `float64`, `str`, …).
pub(crate) fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "object".to_string())
}

/// The value of `obj` if it is an integer: a Python `int` or an object
/// with `__index__` (NumPy integers), not a `bool` (Python's or NumPy's).
pub(crate) fn integer(obj: &Bound<'_, PyAny>) -> Result<i128, IntProblem> {
    // Plain ints (the common case) skip the type-name check.
    if !obj.is_exact_instance_of::<PyInt>()
        && (obj.is_instance_of::<PyBool>() || matches!(type_name(obj).as_str(), "bool" | "bool_"))
    {
        return Err(IntProblem::NotInt);
    }
    obj.extract::<i128>().map_err(|e| {
        if e.is_instance_of::<PyOverflowError>(obj.py()) {
            IntProblem::Huge
        } else {
            IntProblem::NotInt
        }
    })
}

/// `obj` as an integer in `lo..=hi`: `TypeError` if it is not an integer,
/// `ValueError` if it is out of range; both messages name `what`.
pub(crate) fn int_in(obj: &Bound<'_, PyAny>, what: &str, lo: i128, hi: i128) -> PyResult<i128> {
    let out_of_range = || {
        let shown = obj
            .repr()
            .map(|r| r.to_string())
            .unwrap_or_else(|_| "?".to_string());
        PyValueError::new_err(format!("{what} must be {lo}..{hi}, found {shown}"))
    };
    match integer(obj) {
        Ok(v) if (lo..=hi).contains(&v) => Ok(v),
        Ok(_) | Err(IntProblem::Huge) => Err(out_of_range()),
        Err(IntProblem::NotInt) => Err(PyTypeError::new_err(format!(
            "{what} must be an int, found {}",
            type_name(obj)
        ))),
    }
}

/// Whether `obj` is a sequence of values to index: a list, a tuple, another
/// `collections.abc.Sequence` or a 1-D NumPy array — not a `str` or
/// `bytes`.
pub(crate) fn is_sequence(obj: &Bound<'_, PyAny>) -> bool {
    if obj.is_instance_of::<PyString>() || obj.is_instance_of::<PyBytes>() {
        return false;
    }
    obj.downcast::<PySequence>().is_ok()
        || obj
            .downcast::<PyUntypedArray>()
            .is_ok_and(|a| a.ndim() == 1)
}
