//! `modred.RsaKey`: raw RSA private- and public-key operations ([`modred::rsa`]), no padding.
//!
//! A frozen pyclass around modred's `Clone + Send + Sync` keys: one object serves many Python
//! threads at once (each private operation takes its own blinding factor inside modred).

use crate::conv::{to_natural, to_py};
use crate::errors::to_pyerr;
use crate::signals::{self, compute};
use modred::rsa::{PrivateKey, PublicKey};
use modred::{Error, Natural};
use pyo3::exceptions::{PyOSError, PyRuntimeError, PyTypeError, PyValueError};
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedBytes;
use pyo3::types::{PyByteArray, PyBytes, PyList, PyString, PyTuple};

/// The message of `private_op` on a public-only key.
const NO_PRIVATE: &str =
    "this key has no private part (it was loaded from a public key): only public_op is available";

/// A key: private (both operations) or public-only.
enum Key {
    Private(Box<PrivateKey>),
    Public(PublicKey),
}

/// modred's errors as `to_pyerr` maps them, except the two only RSA raises that are not about
/// an argument: a failed result check is `RuntimeError`, a failing OS random source `OSError`.
fn rsa_err(e: Error) -> PyErr {
    match e {
        e @ Error::FaultDetected => PyRuntimeError::new_err(e.to_string()),
        e @ Error::Randomness(_) => PyOSError::new_err(e.to_string()),
        other => to_pyerr(other),
    }
}

fn type_name(ob: &Bound<'_, PyAny>) -> String {
    ob.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "?".to_string())
}

/// `ob` as bytes: `bytes`, `bytearray`, or (when `text` is true) `str` as UTF-8.
fn bytes_arg(ob: &Bound<'_, PyAny>, func: &str, text: bool) -> PyResult<Vec<u8>> {
    if text {
        if let Ok(s) = ob.downcast::<PyString>() {
            return Ok(s.to_str()?.as_bytes().to_vec());
        }
    }
    if ob.is_instance_of::<PyBytes>() || ob.is_instance_of::<PyByteArray>() {
        let b: PyBackedBytes = ob.extract()?;
        return Ok(b.to_vec());
    }
    let want = if text { "bytes or str" } else { "bytes" };
    Err(PyTypeError::new_err(format!(
        "{func}() argument 'data' must be {want}, not {}",
        type_name(ob)
    )))
}

/// Whether `data` is encoded as a private key (so that a private key failing validation is
/// reported as such, not loaded as its public half): a PEM labelled "RSA PRIVATE KEY" or
/// "PRIVATE KEY", or DER whose outer SEQUENCE starts with a one-byte INTEGER version (0 or 1),
/// as PKCS#1 `RSAPrivateKey` and PKCS#8 do; an `RSAPublicKey` starts with n, a
/// `SubjectPublicKeyInfo` with a SEQUENCE.
fn looks_private(data: &[u8]) -> bool {
    const BEGIN: &[u8] = b"-----BEGIN ";
    if let Some(start) = data.windows(BEGIN.len()).position(|w| w == BEGIN) {
        let label = &data[start + BEGIN.len()..];
        return label.starts_with(b"RSA PRIVATE KEY-----")
            || label.starts_with(b"PRIVATE KEY-----");
    }
    let header = match (data.first(), data.get(1)) {
        (Some(0x30), Some(&l)) if l < 0x80 => 2,
        (Some(0x30), Some(&l)) if (0x81..=0x84).contains(&l) => 2 + (l & 0x7f) as usize,
        _ => return false,
    };
    matches!(data.get(header..header + 3), Some([0x02, 0x01, 0 | 1]))
}

/// The key in `data`: private if it is one, else public; a private key failing validation
/// keeps its own error.
fn load(data: &[u8]) -> modred::Result<Key> {
    match PrivateKey::from_pem_or_der(data) {
        Ok(k) => Ok(Key::Private(Box::new(k))),
        Err(e) if looks_private(data) => Err(e),
        Err(_) => PublicKey::from_pem_or_der(data).map(Key::Public),
    }
}

/// An optional int argument (None: absent).
fn opt_natural(ob: Option<&Bound<'_, PyAny>>, arg: &str) -> PyResult<Option<Natural>> {
    match ob {
        Some(ob) if !ob.is_none() => to_natural(ob, "from_components", arg).map(Some),
        _ => Ok(None),
    }
}

/// An operation's input: an int (result an int) or big-endian bytes (result `size` bytes).
enum Input {
    Int(Natural),
    Bytes(Vec<u8>),
}

fn input(x: &Bound<'_, PyAny>, func: &str) -> PyResult<Input> {
    if x.is_instance_of::<PyBytes>() || x.is_instance_of::<PyByteArray>() {
        let b: PyBackedBytes = x.extract()?;
        return Ok(Input::Bytes(b.to_vec()));
    }
    // SAFETY: `x` is a valid object; PyIndex_Check only reads its type's slots.
    if unsafe { ffi::PyIndex_Check(x.as_ptr()) } == 0 {
        return Err(PyTypeError::new_err(format!(
            "{func}() argument 'x' must be an int or bytes, not {}",
            type_name(x)
        )));
    }
    to_natural(x, func, "x").map(Input::Int)
}

/// An RSA key for the raw operations of RFC 8017 (RSADP/RSASP1 ``x**d % n`` and RSAEP/RSAVP1
/// ``x**e % n``, no padding), loaded once: ``RsaKey.from_pem``, ``RsaKey.from_der`` (PKCS#1 or
/// PKCS#8 private keys, PKCS#1 or SubjectPublicKeyInfo public keys, unencrypted) or
/// ``RsaKey.from_components``. A key loaded from a public key only has ``public_op``.
///
/// ``private_op`` runs by the CRT with blinding, in constant time in the input and the key's
/// secrets, and checks its result with e (``RuntimeError`` on a mismatch: nothing is returned).
/// Both operations take an int (result an int) or big-endian bytes (result exactly ``size``
/// bytes); the input must be below n (``ValueError``). The GIL is released while computing.
/// Immutable, thread-safe, picklable (a private key pickles its secrets: n, e, d, p, q).
#[pyclass(module = "modred", name = "RsaKey", frozen)]
pub struct PyRsaKey {
    key: Key,
}

impl PyRsaKey {
    fn public(&self) -> &PublicKey {
        match &self.key {
            Key::Private(k) => k.public_key(),
            Key::Public(k) => k,
        }
    }

    fn from_bytes(py: Python<'_>, data: &[u8]) -> PyResult<Self> {
        let key = py.allow_threads(|| load(data)).map_err(rsa_err)?;
        Ok(Self { key })
    }

    /// Runs `int_op` or `bytes_op` on `x` (see [`Input`]) through [`compute`].
    fn run<'py>(
        &self,
        py: Python<'py>,
        x: Input,
        long: bool,
        int_op: impl FnOnce(&Natural) -> modred::Result<Natural> + Send,
        bytes_op: impl FnOnce(&[u8]) -> modred::Result<Vec<u8>> + Send,
    ) -> PyResult<Bound<'py, PyAny>> {
        match x {
            Input::Int(x) => {
                let r = compute(py, long, || int_op(&x))?.map_err(rsa_err)?;
                to_py(py, &r)
            }
            Input::Bytes(x) => {
                let r = compute(py, long, || bytes_op(&x))?.map_err(rsa_err)?;
                Ok(PyBytes::new(py, &r).into_any())
            }
        }
    }
}

#[pymethods]
impl PyRsaKey {
    /// The key in PEM text (``bytes`` or ``str``): "RSA PRIVATE KEY" (PKCS#1), "PRIVATE KEY"
    /// (PKCS#8), "RSA PUBLIC KEY" or "PUBLIC KEY"; DER is accepted too. ``ValueError`` naming
    /// the problem for anything else (encrypted keys included: decrypt them first) or a key
    /// failing validation.
    #[staticmethod]
    fn from_pem(py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<Self> {
        let data = bytes_arg(data, "from_pem", true)?;
        Self::from_bytes(py, &data)
    }

    /// The key in DER (``bytes``): PKCS#1 ``RSAPrivateKey``, PKCS#8 ``PrivateKeyInfo``, PKCS#1
    /// ``RSAPublicKey`` or ``SubjectPublicKeyInfo``; errors as ``from_pem``.
    #[staticmethod]
    fn from_der(py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<Self> {
        let data = bytes_arg(data, "from_der", false)?;
        Self::from_bytes(py, &data)
    }

    /// The key (n, e, d) with its primes p and q when known (without them they are recovered
    /// from n, e and d); ``d=None`` makes a public-only key. ``ValueError`` for a key that fails
    /// validation (p q != n, p = q, d not matching e, ...).
    #[staticmethod]
    #[pyo3(signature = (n, e, d = None, p = None, q = None))]
    fn from_components(
        py: Python<'_>,
        n: &Bound<'_, PyAny>,
        e: &Bound<'_, PyAny>,
        d: Option<&Bound<'_, PyAny>>,
        p: Option<&Bound<'_, PyAny>>,
        q: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let n = to_natural(n, "from_components", "n")?;
        let e = to_natural(e, "from_components", "e")?;
        let d = opt_natural(d, "d")?;
        let p = opt_natural(p, "p")?;
        let q = opt_natural(q, "q")?;
        let Some(d) = d else {
            if p.is_some() || q.is_some() {
                return Err(PyValueError::new_err(
                    "from_components(): p and q need the private exponent d",
                ));
            }
            let key = py
                .allow_threads(|| PublicKey::new(&n, &e))
                .map_err(rsa_err)?;
            return Ok(Self {
                key: Key::Public(key),
            });
        };
        // Recovering p and q exponentiates modulo n (up to 100 bases): interruptible.
        let long = p.is_none() && signals::work(&n, n.bits()) >= signals::LONG_WORK;
        let key = compute(py, long, || {
            PrivateKey::from_components(&n, &e, &d, p.as_ref(), q.as_ref())
        })?
        .map_err(rsa_err)?;
        Ok(Self {
            key: Key::Private(Box::new(key)),
        })
    }

    /// The modulus n.
    #[getter]
    fn n<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, self.public().n())
    }

    /// The public exponent e.
    #[getter]
    fn e<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, self.public().e())
    }

    /// The bit length of n.
    #[getter]
    fn bits(&self) -> usize {
        self.public().bits()
    }

    /// The length of n in bytes (of every bytes result).
    #[getter]
    fn size(&self) -> usize {
        self.public().size()
    }

    /// Whether the key has its private part (``private_op`` works).
    #[getter]
    fn has_private(&self) -> bool {
        matches!(self.key, Key::Private(_))
    }

    /// ``x**d % n`` (RSADP / RSASP1) for ``0 <= x < n``: an int gives an int, bytes (big-endian,
    /// any length) give exactly ``size`` bytes. ``ValueError`` for ``x`` out of range or a
    /// public-only key, ``RuntimeError`` if the result fails its check with e.
    fn private_op<'py>(
        &self,
        py: Python<'py>,
        x: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let x = input(x, "private_op")?;
        let Key::Private(k) = &self.key else {
            return Err(PyValueError::new_err(NO_PRIVATE));
        };
        // Two exponentiations modulo primes of half n's size with half-size exponents.
        let n = k.public_key().n();
        let long = signals::work(n, n.bits() / 4) >= signals::LONG_WORK;
        self.run(py, x, long, |x| k.private_op(x), |x| k.private_op_bytes(x))
    }

    /// ``[x**d % n for x in xs]`` for an iterable of ints ``0 <= x < n``, in parallel and, on
    /// CPUs with AVX-512 IFMA, four inputs at once in the vector lanes (each with its own
    /// blinding and check, as ``private_op``; for primes from 2560 bits only where that measures
    /// faster on the running CPU). ``ValueError`` naming the first input out of
    /// range; otherwise the errors of ``private_op``.
    fn private_op_many<'py>(
        &self,
        py: Python<'py>,
        xs: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyList>> {
        let Key::Private(k) = &self.key else {
            return Err(PyValueError::new_err(NO_PRIVATE));
        };
        let mut inputs = Vec::new();
        for x in xs.try_iter()? {
            inputs.push(to_natural(&x?, "private_op_many", "x")?);
        }
        let results = compute(py, true, || k.private_op_many(&inputs))?.map_err(rsa_err)?;
        let out = PyList::empty(py);
        for (i, r) in results.into_iter().enumerate() {
            let r = r.map_err(|err| match err {
                Error::InputOutOfRange(msg) => {
                    PyValueError::new_err(format!("private_op_many(): item {i}: {msg}"))
                }
                other => rsa_err(other),
            })?;
            out.append(to_py(py, &r)?)?;
        }
        Ok(out)
    }

    /// ``x**e % n`` (RSAEP / RSAVP1) for ``0 <= x < n``, typed as ``private_op``.
    fn public_op<'py>(
        &self,
        py: Python<'py>,
        x: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let x = input(x, "public_op")?;
        let k = self.public();
        let long = signals::work(k.n(), k.e().bits()) >= signals::LONG_WORK;
        self.run(py, x, long, |x| k.public_op(x), |x| k.public_op_bytes(x))
    }

    fn __repr__(&self) -> String {
        let k = self.public();
        let e = if k.e().bits() <= 64 {
            k.e().to_string()
        } else {
            format!("<{}-bit>", k.e().bits())
        };
        format!(
            "RsaKey(bits={}, e={e}, has_private={})",
            k.bits(),
            if self.has_private() { "True" } else { "False" }
        )
    }

    /// ``(RsaKey.from_components, (n, e, d, p, q))``, or ``(n, e)`` for a public-only key.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let me = slf.get();
        let k = me.public();
        let mut args = vec![to_py(py, k.n())?, to_py(py, k.e())?];
        if let Key::Private(k) = &me.key {
            let [p, q] = k.primes();
            for x in [k.d(), p, q] {
                args.push(to_py(py, x)?);
            }
        }
        let ctor = py
            .get_type::<PyRsaKey>()
            .getattr(pyo3::intern!(py, "from_components"))?;
        PyTuple::new(py, [ctor, PyTuple::new(py, args)?.into_any()])
    }
}
