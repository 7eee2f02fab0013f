//! `modred.is_prime`, `modred.next_prime`, `modred.is_prime_many`: the Baillie–PSW
//! probable-prime test and the prime search of `modred::prime`, with gmpy2's conventions for
//! integers below 2 (not prime; the next prime is 2).

use crate::conv::{to_int, to_py, Int};
use crate::errors::{item_error, to_pyerr};
use crate::{parallel, signals};
use modred::prime;
use modred::Natural;
use pyo3::prelude::*;

/// Work (see [`signals::work`]) of one test of `n`: about three exponentiations' worth
/// (base 2, then the Lucas chain's two squares and a product per bit).
fn test_work(n: &Natural) -> u128 {
    signals::work(n, 3 * n.bits())
}

/// Return whether ``n`` is a probable prime by the Baillie–PSW test (trial division, a strong
/// test to base 2, a strong Lucas test with Selfridge's parameters): exact below 2^64, with
/// no known composite passing above; ``gmpy2.is_prime(n)`` answers the same (it adds random
/// Miller–Rabin rounds). Integers below 2 (negative ones too) are not prime, as in gmpy2.
/// ``bool`` and objects with ``__index__`` are accepted; anything else raises ``TypeError``.
/// The GIL is released; a long call is interruptible (KeyboardInterrupt).
#[pyfunction]
#[pyo3(signature = (n, /))]
pub fn is_prime(py: Python<'_>, n: &Bound<'_, PyAny>) -> PyResult<bool> {
    let n = to_int(n, "is_prime", "n")?;
    if n.negative {
        return Ok(false);
    }
    let long = test_work(&n.mag) >= signals::LONG_WORK;
    signals::compute(py, long, || prime::is_probable_prime_vartime(&n.mag))?.map_err(to_pyerr)
}

/// Return the least (probable) prime greater than ``n`` (2 for any ``n < 2``, negative ones
/// too, as ``gmpy2.next_prime``), by sieving and the Baillie–PSW test; an ``int``. The GIL
/// is released; the search is interruptible (KeyboardInterrupt) however long the gap.
#[pyfunction]
#[pyo3(signature = (n, /))]
pub fn next_prime<'py>(py: Python<'py>, n: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let n = to_int(n, "next_prime", "n")?;
    let start = if n.negative { Natural::zero() } else { n.mag };
    // A search tests tens of candidates: long from a few hundred bits on.
    let long = 16 * test_work(&start) >= signals::LONG_WORK;
    let p = signals::compute(py, long, || prime::next_prime_vartime(&start))?.map_err(to_pyerr)?;
    to_py(py, &p)
}

/// Return ``[is_prime(n) for n in ns]``, tested in parallel over all cores with the GIL
/// released (interruptible).
#[pyfunction]
#[pyo3(signature = (ns, /))]
pub fn is_prime_many(py: Python<'_>, ns: &Bound<'_, PyAny>) -> PyResult<Vec<bool>> {
    let mut items: Vec<Int> = Vec::new();
    for x in ns.try_iter()? {
        items.push(to_int(&x?, "is_prime_many", "item")?);
    }
    let total: u128 = items.iter().map(|x| test_work(&x.mag)).sum();
    let naturals: Vec<Natural> = items
        .iter()
        .map(|x| if x.negative { Natural::zero() } else { x.mag.clone() })
        .collect();
    signals::compute(py, total >= signals::LONG_WORK, || {
        if parallel::pool_usable() {
            prime::is_probable_prime_many_vartime(&naturals)
        } else {
            naturals.iter().map(prime::is_probable_prime_vartime).collect()
        }
    })?
    .map_err(|e| item_error("is_prime_many", None, e))
}
