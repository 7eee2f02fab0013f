//! modred's [`Error`] as Python exceptions.

use modred::Error;
use pyo3::exceptions::{PyKeyboardInterrupt, PyMemoryError, PyValueError};
use pyo3::PyErr;

/// CPython's own message for `pow(b, -e, m)` with gcd(b, m) != 1.
pub const NOT_INVERTIBLE: &str = "base is not invertible for the given modulus";

/// A modred error as Python raises it, with `prefix` before the message: a table too large
/// for memory, or worker threads that cannot start, is `MemoryError` (as for a huge
/// `bytearray`); every other error is a bad
/// argument, `ValueError` (like `pow(b, e, 0)`). The messages are modred's own, which name the
/// offending value or restriction; a non-invertible base gets CPython's wording so `pow` and
/// `modred.powmod` fail alike.
pub fn to_pyerr_prefixed(prefix: &str, e: Error) -> PyErr {
    match e {
        Error::NotInvertible => PyValueError::new_err(format!("{prefix}{NOT_INVERTIBLE}")),
        e @ (Error::TooLarge { .. } | Error::Threads(_)) => {
            PyMemoryError::new_err(format!("{prefix}{e}"))
        }
        // Only a signal cancels (signals.rs returns the handler's own exception first).
        Error::Cancelled => PyKeyboardInterrupt::new_err(()),
        other => PyValueError::new_err(format!("{prefix}{other}")),
    }
}

/// [`to_pyerr_prefixed`] without a prefix.
pub fn to_pyerr(e: Error) -> PyErr {
    to_pyerr_prefixed("", e)
}

/// The error of item `i` of a batch call `func` (`None`: of the whole call, as worker
/// threads that cannot start): its exception type, the message naming the item.
pub fn item_error(func: &str, i: Option<usize>, e: Error) -> PyErr {
    match i {
        Some(i) => to_pyerr_prefixed(&format!("{func}(): item {i}: "), e),
        None => to_pyerr_prefixed(&format!("{func}(): "), e),
    }
}
