//! `modred._modred`: the native module behind the Python package `modred`.
//!
//! - [`powmod`]: Python's `pow(b, e, m)` for ints, computed by modred;
//! - [`modulus::PyModulus`] (`modred.Modulus`): a modulus context built once, shared between
//!   threads, picklable; [`modulus::PyFixedBase`] (`modred.FixedBase`): precomputed tables for
//!   one base;
//! - [`pow_batch`]: many independent `(b, e, m)` triples over all cores; [`pow_batch_ct`] in
//!   constant time;
//! - [`methods`]: the reducer and method names (the CLI's);
//! - [`evm::evm_modexp`], [`evm::evm_gas`]: the Ethereum MODEXP precompile;
//! - [`rsa::PyRsaKey`] (`modred.RsaKey`): raw RSA private- and public-key operations;
//! - [`prime::is_prime`], [`prime::next_prime`], [`prime::is_prime_many`]: Baillie–PSW.
//!
//! Every computation runs with the GIL released ([`Python::allow_threads`]) except the
//! conversions of Python ints, which need it.

mod conv;
mod errors;
mod evm;
mod modulus;
mod parallel;
mod prime;
mod rsa;
mod signals;

use conv::{to_int, to_py_signed, Int};
use errors::{item_error, to_pyerr};
use modred::exp::{self, PowOptions};
use modred::{Modulus, Natural, ReducerKind};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

/// `x mod m` in [0, m) for a signed `x` (Python's `x % m` for m > 0); `TooLarge` when the
/// division's memory cannot be reserved.
pub(crate) fn residue(x: &Int, m: &Natural) -> modred::Result<Natural> {
    let r = x.mag.rem_vartime(m)?;
    Ok(if x.negative && !r.is_zero() {
        m.checked_sub_vartime(&r).expect("r < m")
    } else {
        r
    })
}

/// The operands of one `pow(b, e, m)` reduced to naturals: `(b', e', |m|)` with b' < |m| and
/// b' already inverted for a negative exponent, so that `b'^e' mod |m|` is the result's residue.
/// `Ok(None)` when |m| = 1 (the result is 0 whatever b and e are, as in CPython).
fn prepare(b: &Int, e: &Int, m: &Natural) -> modred::Result<Option<(Natural, Natural)>> {
    if m.is_one() {
        return Ok(None);
    }
    let b = residue(b, m)?;
    let b = if e.negative {
        exp::inverse_vartime(&b, m)?
    } else {
        b
    };
    Ok(Some((b, e.mag.clone())))
}

/// The residue `r` of a result as Python returns it for modulus `m_negative ? -m : m`: in
/// (m, 0] for a negative modulus.
fn finish<'py>(
    py: Python<'py>,
    r: &Natural,
    m: &Natural,
    m_negative: bool,
) -> PyResult<Bound<'py, PyAny>> {
    if m_negative && !r.is_zero() {
        to_py_signed(py, true, &m.checked_sub_vartime(r).expect("r < m"))
    } else {
        conv::to_py(py, r)
    }
}

fn check_nonzero_modulus(m: &Int, func: &str) -> PyResult<()> {
    if m.is_zero() {
        return Err(PyValueError::new_err(format!(
            "{func}() 3rd argument cannot be 0"
        )));
    }
    Ok(())
}

/// Return ``base ** exp % mod`` exactly like the built-in ``pow(base, exp, mod)`` for ints,
/// computed by modred (sliding window over the fastest reducer for the size; even moduli by
/// CRT).
///
/// - A negative ``exp`` uses the modular inverse of ``base``; ``ValueError`` ("base is not
///   invertible for the given modulus") when there is none.
/// - ``mod == 0`` raises ``ValueError``; a negative ``mod`` gives a result in ``(mod, 0]``.
/// - A negative ``base`` or one ``>= |mod|`` is reduced first.
/// - ``bool`` and objects with ``__index__`` are accepted; anything else raises ``TypeError``.
///
/// The GIL is released while computing; Ctrl-C interrupts a long call within a fraction of a
/// second (KeyboardInterrupt). A table too large for memory raises ``MemoryError``.
#[pyfunction]
#[pyo3(signature = (base, exp, mod_, /), text_signature = "(base, exp, mod, /)")]
fn powmod<'py>(
    py: Python<'py>,
    base: &Bound<'py, PyAny>,
    exp: &Bound<'py, PyAny>,
    mod_: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let b = to_int(base, "powmod", "base")?;
    let e = to_int(exp, "powmod", "exp")?;
    let m = to_int(mod_, "powmod", "mod")?;
    check_nonzero_modulus(&m, "pow")?;
    let mm = &m.mag;
    let inverse_bits = if e.negative { signals::INVERSE_BITS } else { 0 };
    let long = signals::work(mm, e.mag.bits() + inverse_bits) >= signals::LONG_WORK;
    let r = signals::compute(py, long, || -> modred::Result<Natural> {
        match prepare(&b, &e, mm)? {
            None => Ok(Natural::zero()),
            // The library's one-off dispatcher picks the path (single word, small exponent,
            // odd, even).
            Some((b, e)) => exp::pow_vartime(&b, &e, mm, &PowOptions::default()),
        }
    })?
    .map_err(to_pyerr)?;
    finish(py, &r, mm, m.negative)
}

/// Return ``[pow(b, e, m) for (b, e, m) in triples]``, computed in parallel over all cores with
/// the GIL released. Each triple follows ``powmod``'s semantics; the first failing triple
/// raises ``ValueError`` naming its index (nothing is returned then).
#[pyfunction]
#[pyo3(signature = (triples, /))]
fn pow_batch<'py>(py: Python<'py>, triples: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyList>> {
    batch_of_triples(py, "pow_batch", triples, false)
}

/// ``pow_batch`` in constant time for secret exponents: each triple as ``Modulus(m).pow_ct(b,
/// e)`` computes it (odd m, exponent >= 0; a negative base is reduced first, in variable time).
/// On CPUs with AVX-512 IFMA, eight triples whose moduli and exponents have the same lengths in
/// limbs run side by side in its lanes (the moduli may differ; from 2560 bits only where that
/// measures faster on the running CPU, once per size). What leaks: each modulus, the
/// sizes, and how the triples group by those sizes.
#[pyfunction]
#[pyo3(signature = (triples, /))]
fn pow_batch_ct<'py>(py: Python<'py>, triples: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyList>> {
    batch_of_triples(py, "pow_batch_ct", triples, true)
}

/// `pow_batch` (`ct`: `pow_batch_ct`) under the name `func` for its messages.
fn batch_of_triples<'py>(
    py: Python<'py>,
    func: &str,
    triples: &Bound<'py, PyAny>,
    ct: bool,
) -> PyResult<Bound<'py, PyList>> {
    let mut items: Vec<(Int, Int, Int)> = Vec::new();
    for (i, t) in triples.try_iter()?.enumerate() {
        let t = t?;
        let (b, e, m): (Bound<PyAny>, Bound<PyAny>, Bound<PyAny>) = t.extract().map_err(|_| {
            pyo3::exceptions::PyTypeError::new_err(format!(
                "{func}(): item {i} must be a (base, exp, mod) triple"
            ))
        })?;
        let (b, e, m) = (
            to_int(&b, func, "base")?,
            to_int(&e, func, "exp")?,
            to_int(&m, func, "mod")?,
        );
        if m.is_zero() {
            return Err(PyValueError::new_err(format!(
                "{func}(): item {i}: 3rd argument cannot be 0"
            )));
        }
        if ct && e.negative {
            return Err(PyValueError::new_err(format!(
                "{func}(): item {i}: exponent is negative (inverting is not constant time; use pow_batch)"
            )));
        }
        items.push((b, e, m));
    }
    let total: u128 = items
        .iter()
        .map(|(_, e, m)| signals::work(&m.mag, e.mag.bits()))
        .sum();
    let results = signals::compute(
        py,
        total >= signals::LONG_WORK,
        || -> Result<Vec<Natural>, (Option<usize>, modred::Error)> {
            // Python's semantics first (|m| = 1, negative base and exponent), then the batch.
            let mut work = Vec::with_capacity(items.len());
            let mut slots = Vec::with_capacity(items.len());
            for (i, (b, e, m)) in items.iter().enumerate() {
                match prepare(b, e, &m.mag).map_err(|err| (Some(i), err))? {
                    None => slots.push(None),
                    Some((b, e)) => {
                        slots.push(Some(work.len()));
                        work.push((b, e, m.mag.clone()));
                    }
                }
            }
            let done = match (parallel::pool_usable(), ct) {
                (true, false) => exp::pow_batch_vartime(&work).map_err(|err| (None, err))?,
                (true, true) => exp::pow_batch_ct(&work).map_err(|err| (None, err))?,
                (false, false) => {
                    let opts = PowOptions::default();
                    work.iter()
                        .map(|(b, e, m)| exp::pow_vartime(b, e, m, &opts))
                        .collect()
                }
                (false, true) => work
                    .iter()
                    .map(|(b, e, m)| Modulus::new(m, ReducerKind::Auto)?.pow_ct(b, e))
                    .collect(),
            };
            let mut done = done.into_iter();
            let mut out = Vec::with_capacity(slots.len());
            for (i, s) in slots.into_iter().enumerate() {
                out.push(match s {
                    None => Natural::zero(),
                    Some(_) => done
                        .next()
                        .expect("one result per triple")
                        .map_err(|err| (Some(i), err))?,
                });
            }
            Ok(out)
        },
    )?;
    let results = results.map_err(|(i, err)| item_error(func, i, err))?;
    let list = PyList::empty(py);
    for (r, (_, _, m)) in results.iter().zip(&items) {
        list.append(finish(py, r, &m.mag, m.negative)?)?;
    }
    Ok(list)
}

/// The names modred accepts, as the CLI's ``modred methods`` lists them:
/// ``{"reducers": {name: summary, ...}, "methods": {name: summary, ...}}``. Reducer names go to
/// ``Modulus(m, reducer=...)``, method names to ``Modulus.pow(..., method=...)``.
#[pyfunction]
fn methods(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let reducers = PyDict::new(py);
    for r in modred::REDUCERS {
        reducers.set_item(r.name, r.summary)?;
    }
    let meths = PyDict::new(py);
    for m in exp::METHODS {
        meths.set_item(m.name, m.summary)?;
    }
    let d = PyDict::new(py);
    d.set_item("reducers", reducers)?;
    d.set_item("methods", meths)?;
    Ok(d)
}

/// Fast multi-precision modular reduction, multiplication and exponentiation (native module).
#[pymodule]
fn _modred(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(powmod, m)?)?;
    m.add_function(wrap_pyfunction!(pow_batch, m)?)?;
    m.add_function(wrap_pyfunction!(pow_batch_ct, m)?)?;
    m.add_function(wrap_pyfunction!(methods, m)?)?;
    m.add_function(wrap_pyfunction!(evm::evm_modexp, m)?)?;
    m.add_function(wrap_pyfunction!(evm::evm_gas, m)?)?;
    m.add_function(wrap_pyfunction!(prime::is_prime, m)?)?;
    m.add_function(wrap_pyfunction!(prime::next_prime, m)?)?;
    m.add_function(wrap_pyfunction!(prime::is_prime_many, m)?)?;
    m.add_class::<modulus::PyModulus>()?;
    m.add_class::<modulus::PyFixedBase>()?;
    m.add_class::<rsa::PyRsaKey>()?;
    Ok(())
}
