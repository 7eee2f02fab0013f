//! modred's [`Error`] as Python exceptions.

use modred::Error;
use pyo3::exceptions::PyValueError;
use pyo3::PyErr;

/// CPython's own message for `pow(b, -e, m)` with gcd(b, m) != 1.
pub const NOT_INVERTIBLE: &str = "base is not invertible for the given modulus";

/// Every modred error is a bad argument: `ValueError` (like `pow(b, e, 0)` in Python). The
/// messages are modred's own, which name the offending value or restriction; a non-invertible
/// base gets CPython's wording so `pow` and `modred.powmod` fail alike.
pub fn to_pyerr(e: Error) -> PyErr {
    match e {
        Error::NotInvertible => PyValueError::new_err(NOT_INVERTIBLE),
        other => PyValueError::new_err(other.to_string()),
    }
}
