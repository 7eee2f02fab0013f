//! `modred.Modulus` and `modred.FixedBase`: contexts built once and reused.
//!
//! Both wrap modred's `Clone + Send + Sync` contexts immutably (`frozen` pyclasses: no `&mut`
//! anywhere), so one object can be used from many Python threads at once; each call allocates
//! its own scratch inside modred.

use crate::conv::{to_int, to_natural, to_py, Int};
use crate::errors::{item_error, to_pyerr};
use crate::residue;
use crate::signals::{self, compute};
use modred::exp::{self, Method, PowOptions};
use modred::{Natural, ReducerKind};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyList, PyTuple};

/// Release the GIL for `reduce`/`mul`/`sqr` from this many limbs of m on (1024 bits): below it
/// the operation takes about as long as releasing and re-acquiring the GIL.
const GIL_RELEASE_LIMBS: usize = 16;

/// `threads` checked by modred's rule (1..=`exp::MAX_THREADS`), as the CLI's `--threads`.
fn opt_threads(ob: Option<&Bound<'_, PyAny>>, func: &str) -> PyResult<Option<usize>> {
    let t = opt_usize(ob, func, "threads")?;
    if let Some(t) = t {
        exp::check_threads(t)
            .map_err(|e| PyValueError::new_err(format!("{func}() argument 'threads': {e}")))?;
    }
    Ok(t)
}

/// An optional non-negative machine-size parameter (window, threads) or `ValueError`.
fn opt_usize(ob: Option<&Bound<'_, PyAny>>, func: &str, arg: &str) -> PyResult<Option<usize>> {
    let Some(ob) = ob else { return Ok(None) };
    if ob.is_none() {
        return Ok(None);
    }
    let v = to_int(ob, func, arg)?;
    let too_big = v.mag.len() > 1 || v.mag.limbs().first().is_some_and(|&l| l > u32::MAX as u64);
    if v.negative || too_big {
        return Err(PyValueError::new_err(format!(
            "{func}() argument '{arg}' must be a positive int of reasonable size"
        )));
    }
    Ok(Some(v.mag.limbs().first().copied().unwrap_or(0) as usize))
}

/// Items of an iterable as ints.
fn int_list(ob: &Bound<'_, PyAny>, func: &str, arg: &str) -> PyResult<Vec<Int>> {
    let it = ob.try_iter().map_err(|_| {
        PyTypeError::new_err(format!(
            "{func}() argument '{arg}' must be an iterable of ints, not {}",
            ob.get_type()
                .name()
                .map(|n| n.to_string())
                .unwrap_or_default()
        ))
    })?;
    it.map(|x| to_int(&x?, func, arg)).collect()
}

/// A modulus context: built once for ``m`` (the reducer's precomputation), then used for many
/// reductions, products and powers. ``m`` must be a positive int; ``reducer`` is one of
/// ``modred.methods()["reducers"]`` ("auto" picks the fastest for the size and handles even
/// moduli by CRT; the Montgomery reducers need an odd ``m`` and raise ``ValueError`` naming the
/// reducers that accept even moduli otherwise).
///
/// Arguments of every method may be any ints (negative ones are taken modulo ``m`` as Python's
/// ``%`` does). Results are ints in ``[0, m)``. A Modulus is immutable, hashable, safe to share
/// between threads, and pickles as ``(Modulus, (m, reducer))`` so it travels to
/// multiprocessing, Dask or Ray workers. Long operations release the GIL.
#[pyclass(module = "modred", name = "Modulus", frozen)]
pub struct PyModulus {
    inner: exp::Modulus,
    /// The reducer as given (its name is what pickling and equality use).
    reducer: ReducerKind,
}

impl PyModulus {
    fn m(&self) -> &Natural {
        self.inner.modulus()
    }

    fn big(&self) -> bool {
        self.m().len() >= GIL_RELEASE_LIMBS
    }

    /// Whether `b^exp` is long enough to run interruptibly ([`signals::compute`]).
    fn long(&self, exp: &Natural) -> bool {
        signals::work(self.m(), exp.bits()) >= signals::LONG_WORK
    }

    /// Run `f` with the GIL released if the modulus is large enough to be worth it.
    fn maybe_release<T: Send>(&self, py: Python<'_>, f: impl FnOnce() -> T + Send) -> T {
        if self.big() {
            py.allow_threads(f)
        } else {
            f()
        }
    }

    /// `base^exp mod m` with Python's semantics for a negative exponent.
    fn pow_signed(&self, b: &Int, e: &Int, opts: &PowOptions) -> modred::Result<Natural> {
        self.inner
            .pow_signed_vartime(&residue(b, self.m())?, &e.mag, e.negative, opts)
    }

    /// Prepare `(base, exp)` pairs (negative exponents inverted), run them in parallel
    /// (`pow_ct` for each when `ct`: the caller has refused negative exponents), and convert;
    /// the first failure names its index.
    fn pow_pairs<'py>(
        &self,
        py: Python<'py>,
        func: &str,
        pairs: Vec<(Int, Int)>,
        ct: bool,
    ) -> PyResult<Bound<'py, PyList>> {
        let total: u128 = pairs
            .iter()
            .map(|(_, e)| signals::work(self.m(), e.mag.bits()))
            .sum();
        let long = total >= signals::LONG_WORK;
        let results = compute(
            py,
            long,
            || -> Result<Vec<Natural>, (Option<usize>, modred::Error)> {
                let m = self.m();
                if m.is_one() {
                    return Ok(vec![Natural::zero(); pairs.len()]);
                }
                let mut work = Vec::with_capacity(pairs.len());
                for (i, (b, e)) in pairs.iter().enumerate() {
                    let b = residue(b, m).map_err(|err| (Some(i), err))?;
                    let b = if e.negative {
                        self.inner.inverse_vartime(&b).map_err(|err| (Some(i), err))?
                    } else {
                        b
                    };
                    work.push((b, e.mag.clone()));
                }
                let done = match (crate::parallel::pool_usable(), ct) {
                    (true, false) => self.inner.pow_many_vartime(&work).map_err(|err| (None, err))?,
                    (true, true) => self.inner.pow_many_ct(&work).map_err(|err| (None, err))?,
                    (false, false) => {
                        let opts = PowOptions::default();
                        work.iter()
                            .map(|(b, e)| self.inner.pow_vartime(b, e, &opts))
                            .collect()
                    }
                    (false, true) => work.iter().map(|(b, e)| self.inner.pow_ct(b, e)).collect(),
                };
                done.into_iter()
                    .enumerate()
                    .map(|(i, r)| r.map_err(|err| (Some(i), err)))
                    .collect()
            },
        )?;
        let results = results.map_err(|(i, err)| item_error(func, i, err))?;
        let list = PyList::empty(py);
        for r in &results {
            list.append(to_py(py, r)?)?;
        }
        Ok(list)
    }
}

/// The `(base, exp)` pairs of `pow_many(bases, exps)`: `exps` is one exponent for every base (an
/// int, or any non-iterable with `__index__`: NumPy, gmpy2) or a list as long as `bases`.
fn zip_pairs(bases: &Bound<'_, PyAny>, exps: &Bound<'_, PyAny>, func: &str) -> PyResult<Vec<(Int, Int)>> {
    let bases = int_list(bases, func, "bases")?;
    if exps.is_instance_of::<pyo3::types::PyInt>() || exps.try_iter().is_err() {
        let e = to_int(exps, func, "exps")?;
        return Ok(bases.into_iter().map(|b| (b, e.clone())).collect());
    }
    let exps = int_list(exps, func, "exps")?;
    if exps.len() != bases.len() {
        return Err(PyValueError::new_err(format!(
            "{func}(): {} bases but {} exponents",
            bases.len(),
            exps.len()
        )));
    }
    Ok(bases.into_iter().zip(exps).collect())
}

#[pymethods]
impl PyModulus {
    #[new]
    #[pyo3(signature = (m, reducer = "auto"))]
    fn new(py: Python<'_>, m: &Bound<'_, PyAny>, reducer: &str) -> PyResult<Self> {
        let mi = to_int(m, "Modulus", "m")?;
        if mi.negative || mi.is_zero() {
            return Err(PyValueError::new_err(format!(
                "modulus must be positive (got {})",
                m.str()?
            )));
        }
        let kind: ReducerKind = reducer.parse().map_err(to_pyerr)?;
        let inner = py
            .allow_threads(|| exp::Modulus::new(&mi.mag, kind))
            .map_err(to_pyerr)?;
        Ok(Self {
            inner,
            reducer: kind,
        })
    }

    /// The modulus m (an int).
    #[getter]
    fn modulus<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, self.m())
    }

    /// The reducer name given to the constructor (e.g. "auto").
    #[getter]
    fn reducer(&self) -> &'static str {
        self.reducer.name()
    }

    /// The reducer actually in use ("auto" resolved for the size of m), or None for m = 1.
    /// For an even m with "auto", exponentiation splits m by CRT; this names the reducer used
    /// for ``mul``/``sqr``.
    #[getter]
    fn reducer_used(&self) -> Option<&'static str> {
        self.inner.reducer().map(|r| r.name())
    }

    /// The bit length of m.
    #[getter]
    fn bits(&self) -> usize {
        self.m().bits()
    }

    /// ``x % m`` for any int ``x``, by this modulus's reducer (Barrett, Montgomery REDC, ...)
    /// when ``|x|`` is within its range (below ``2**(128 k)`` for k 64-bit words of m; below
    /// ``m * 2**(64 k)`` for Montgomery), by plain division beyond.
    fn reduce<'py>(&self, py: Python<'py>, x: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let x = to_int(x, "reduce", "x")?;
        let r = self.maybe_release(py, || {
            let r = self.inner.reduce_vartime(&x.mag)?;
            Ok(if x.negative && !r.is_zero() {
                self.m().checked_sub_vartime(&r).expect("r < m")
            } else {
                r
            })
        });
        to_py(py, &r.map_err(to_pyerr)?)
    }

    /// ``a * b % m`` by this modulus's reducer.
    fn mul<'py>(
        &self,
        py: Python<'py>,
        a: &Bound<'py, PyAny>,
        b: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let a = to_int(a, "mul", "a")?;
        let b = to_int(b, "mul", "b")?;
        let r = self.maybe_release(py, || {
            let (a, b) = (residue(&a, self.m())?, residue(&b, self.m())?);
            self.inner.mul_vartime(&a, &b)
        });
        to_py(py, &r.map_err(to_pyerr)?)
    }

    /// ``a * a % m`` by this modulus's reducer.
    fn sqr<'py>(&self, py: Python<'py>, a: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let a = to_int(a, "sqr", "a")?;
        let r = self.maybe_release(py, || self.inner.sqr_vartime(&residue(&a, self.m())?));
        to_py(py, &r.map_err(to_pyerr)?)
    }

    /// ``pow(base, exp, m)`` with Python's semantics (a negative ``exp`` inverts ``base`` first,
    /// ``ValueError`` if it is not invertible). ``method`` is one of
    /// ``modred.methods()["methods"]``; ``window`` sets the window bits (window, sliding, ct) or
    /// comb teeth, ``threads`` the worker threads of "fixed-base". "ct" needs an odd m and a
    /// reducer modred lists as constant-time ("auto" picks one; the ``ValueError`` otherwise
    /// names them). The GIL is released while computing.
    #[pyo3(signature = (base, exp, method = "auto", window = None, threads = None))]
    fn pow<'py>(
        &self,
        py: Python<'py>,
        base: &Bound<'py, PyAny>,
        exp: &Bound<'py, PyAny>,
        method: &str,
        window: Option<&Bound<'py, PyAny>>,
        threads: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let b = to_int(base, "pow", "base")?;
        let e = to_int(exp, "pow", "exp")?;
        let opts = PowOptions {
            method: Method::from_name(method).map_err(to_pyerr)?,
            reducer: self.reducer,
            window: opt_usize(window, "pow", "window")?,
            threads: opt_threads(threads, "pow")?,
        };
        opts.validate().map_err(to_pyerr)?;
        let r =
            compute(py, self.long(&e.mag), || self.pow_signed(&b, &e, &opts))?.map_err(to_pyerr)?;
        to_py(py, &r)
    }

    /// ``pow(base, exp, m)`` in constant time for secret exponents (RSA private keys): no branch
    /// or memory index depends on the bits of ``base`` or ``exp``; only the sizes of m and exp
    /// may leak (reducing a ``base >= m`` first is variable time). Needs an odd m and a
    /// constant-time reducer ("auto" picks one; the ``ValueError`` otherwise names them); ``exp`` must be non-negative (inverting is not
    /// constant time).
    fn pow_ct<'py>(
        &self,
        py: Python<'py>,
        base: &Bound<'py, PyAny>,
        exp: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let b = to_int(base, "pow_ct", "base")?;
        let e = to_natural(exp, "pow_ct", "exp")?;
        let r = compute(py, self.long(&e), || {
            self.inner.pow_ct(&residue(&b, self.m())?, &e)
        })?
        .map_err(to_pyerr)?;
        to_py(py, &r)
    }

    /// The ``x`` in ``[0, m)`` with ``a * x % m == 1`` (``pow(a, -1, m)``); ``ValueError`` when
    /// gcd(a, m) != 1.
    fn inverse<'py>(&self, py: Python<'py>, a: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let a = to_int(a, "inverse", "a")?;
        if self.m().is_one() {
            return to_py(py, &Natural::zero());
        }
        let long = signals::work(self.m(), signals::INVERSE_BITS) >= signals::LONG_WORK;
        let r = compute(py, long, || self.inner.inverse_vartime(&residue(&a, self.m())?))?
            .map_err(to_pyerr)?;
        to_py(py, &r)
    }

    /// ``[pow(b, e, m) for b, e in zip(bases, exps)]`` in parallel over all cores, sharing this
    /// context, with the GIL released. ``exps`` may be a single int used for every base.
    /// ``ValueError`` if the lengths differ or an item fails (the message names its index).
    fn pow_many<'py>(
        &self,
        py: Python<'py>,
        bases: &Bound<'py, PyAny>,
        exps: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyList>> {
        let pairs = zip_pairs(bases, exps, "pow_many")?;
        self.pow_pairs(py, "pow_many", pairs, false)
    }

    /// ``pow_many`` in constant time for secret exponents, each pair as ``pow_ct`` computes it
    /// (odd m, a constant-time reducer, non-negative exponents); on CPUs with AVX-512 IFMA,
    /// eight pairs whose exponents have the same length in limbs run side by side in its lanes
    /// (from 2560 bits only where that measures faster on the running CPU, once per size).
    /// What leaks: the sizes of m and of each exponent, and how the pairs group by those lengths.
    fn pow_many_ct<'py>(
        &self,
        py: Python<'py>,
        bases: &Bound<'py, PyAny>,
        exps: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyList>> {
        let pairs = zip_pairs(bases, exps, "pow_many_ct")?;
        if let Some(i) = pairs.iter().position(|(_, e)| e.negative) {
            return Err(PyValueError::new_err(format!(
                "pow_many_ct(): exponent {i} is negative (inverting is not constant time; use pow_many)"
            )));
        }
        self.pow_pairs(py, "pow_many_ct", pairs, true)
    }

    /// ``[pow(b, e, m) for b, e in pairs]`` for an iterable of ``(base, exp)`` pairs, in
    /// parallel over all cores like ``pow_many``.
    fn pow_batch<'py>(
        &self,
        py: Python<'py>,
        pairs: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyList>> {
        let mut v = Vec::new();
        for (i, p) in pairs.try_iter()?.enumerate() {
            let (b, e): (Bound<PyAny>, Bound<PyAny>) = p?.extract().map_err(|_| {
                PyTypeError::new_err(format!("pow_batch(): item {i} must be a (base, exp) pair"))
            })?;
            v.push((
                to_int(&b, "pow_batch", "base")?,
                to_int(&e, "pow_batch", "exp")?,
            ));
        }
        self.pow_pairs(py, "pow_batch", v, false)
    }

    /// A ``FixedBase`` for ``base``: precomputes the residues ``base^(2^i) mod m`` of Prots'ko,
    /// Gryshchuk, *The implementation of Montgomery modular reduction to speed up of modular
    /// exponentiation*, CMIS-2024, and a Lim-Lee comb table once, so each later ``.pow(e)``
    /// costs far fewer multiplications.
    fn fixed_base(slf: &Bound<'_, Self>, base: &Bound<'_, PyAny>) -> PyResult<PyFixedBase> {
        PyFixedBase::new(slf.py(), slf.clone().unbind(), base)
    }

    fn __repr__(&self) -> String {
        let m = self.m();
        let shown = if m.bits() <= 64 {
            m.to_string()
        } else if m.bits() <= 256 {
            m.to_hex()
        } else {
            let h = m.to_hex();
            format!("<{}-bit {}...{}>", m.bits(), &h[..10], &h[h.len() - 8..])
        };
        format!("Modulus({shown}, reducer='{}')", self.reducer)
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> PyObject {
        let py = other.py();
        match other.downcast::<PyModulus>() {
            Ok(o) => {
                let o = o.get();
                let eq = o.m() == self.m() && o.reducer == self.reducer;
                PyBool::new(py, eq).to_owned().into_any().unbind()
            }
            Err(_) => py.NotImplemented(),
        }
    }

    fn __hash__(&self, py: Python<'_>) -> PyResult<isize> {
        PyTuple::new(
            py,
            [
                to_py(py, self.m())?,
                self.reducer.name().into_pyobject(py)?.into_any(),
            ],
        )?
        .hash()
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let me = slf.get();
        let args = PyTuple::new(
            py,
            [
                to_py(py, me.m())?,
                me.reducer.name().into_pyobject(py)?.into_any(),
            ],
        )?;
        PyTuple::new(py, [py.get_type::<PyModulus>().into_any(), args.into_any()])
    }
}

/// Powers of one fixed ``base`` modulo ``modulus`` (a ``Modulus``), with precomputed tables:
/// the residues ``base^(2^i)`` of Prots'ko–Gryshchuk 2024 (with their detected period) and a
/// Lim-Lee comb built from them. ``Modulus.fixed_base(base)`` makes one. Immutable,
/// thread-safe, picklable (the tables are rebuilt on unpickling).
#[pyclass(module = "modred", name = "FixedBase", frozen)]
pub struct PyFixedBase {
    modulus: Py<PyModulus>,
    /// `base mod m`.
    base: Natural,
    inner: exp::FixedBase,
}

#[pymethods]
impl PyFixedBase {
    #[new]
    fn new(py: Python<'_>, modulus: Py<PyModulus>, base: &Bound<'_, PyAny>) -> PyResult<Self> {
        let b = to_int(base, "FixedBase", "base")?;
        let md = modulus.get();
        let base = residue(&b, md.m()).map_err(to_pyerr)?;
        // The tables take about two products per bit of m.
        let long = md.long(&Natural::power_of_two(2 * md.m().bits()));
        let inner = compute(py, long, || md.inner.fixed_base(&base))?.map_err(to_pyerr)?;
        Ok(Self {
            modulus,
            base,
            inner,
        })
    }

    /// The base (reduced modulo m).
    #[getter]
    fn base<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.base)
    }

    /// The ``Modulus``.
    #[getter]
    fn modulus(&self, py: Python<'_>) -> Py<PyModulus> {
        self.modulus.clone_ref(py)
    }

    /// The detected ``(offset, period)`` of the sequence ``base^(2^i) mod m``
    /// (Prots'ko–Gryshchuk 2024), or None if it did not repeat within the table.
    #[getter]
    fn period(&self) -> Option<(usize, usize)> {
        self.inner.period()
    }

    /// ``pow(base, exp, m)``. By default the comb table serves the exponent; with ``threads`` the
    /// method of Prots'ko–Gryshchuk 2024 (§5) runs instead, one multiplication per set bit of
    /// ``exp`` split among that many threads. Exponents longer than m fall back to ``Modulus.pow``;
    /// a negative ``exp`` inverts the base (``ValueError`` if impossible) and also falls back. The
    /// GIL is released while computing.
    #[pyo3(signature = (exp, threads = None))]
    fn pow<'py>(
        &self,
        py: Python<'py>,
        exp: &Bound<'py, PyAny>,
        threads: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let e = to_int(exp, "pow", "exp")?;
        let threads = opt_threads(threads, "pow")?;
        let md = self.modulus.get();
        let r = compute(py, md.long(&e.mag), || -> modred::Result<Natural> {
            if e.negative {
                let b = Int {
                    negative: false,
                    mag: self.base.clone(),
                };
                return md.pow_signed(&b, &e, &PowOptions::default());
            }
            match threads {
                Some(t) => self.inner.pow_threads_vartime(&e.mag, t),
                None => self.inner.pow_vartime(&e.mag),
            }
        })?
        .map_err(to_pyerr)?;
        to_py(py, &r)
    }

    fn __repr__(&self) -> String {
        let b = if self.base.bits() <= 64 {
            self.base.to_string()
        } else {
            format!("<{}-bit>", self.base.bits())
        };
        format!("FixedBase({}, {b})", self.modulus.get().__repr__())
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let args = PyTuple::new(
            py,
            [
                self.modulus.bind(py).clone().into_any(),
                to_py(py, &self.base)?,
            ],
        )?;
        PyTuple::new(
            py,
            [py.get_type::<PyFixedBase>().into_any(), args.into_any()],
        )
    }
}
