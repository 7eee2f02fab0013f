//! Python `int` <-> [`Natural`] conversions.
//!
//! Both directions copy the magnitude as little-endian bytes straight into (out of) a limb
//! buffer, one C call each on the full C API (`_PyLong_AsByteArray` / `PyLong_AsNativeBytes` and
//! `_PyLong_FromByteArray`), or `int.to_bytes` / `int.from_bytes` under the limited API (abi3).
//! No intermediate big-integer type is built: at 2048 bits a conversion costs well under a
//! microsecond, against milliseconds for an exponentiation.

use modred::{Limb, Natural};
use pyo3::exceptions::PyTypeError;
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::PyInt;

const LIMB_BYTES: usize = core::mem::size_of::<Limb>();

/// A Python integer split into sign and magnitude.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Int {
    /// True for values below zero (never for zero).
    pub negative: bool,
    /// The absolute value.
    pub mag: Natural,
}

impl Int {
    /// Whether the value is zero.
    pub fn is_zero(&self) -> bool {
        self.mag.is_zero()
    }
}

/// `ob` as an `int`: `int` itself (and `bool`) directly, any other type with `__index__`
/// through `operator.index` (e.g. NumPy or gmpy2 integers), whose own exception (a
/// RuntimeError, KeyboardInterrupt, MemoryError raised by `__index__`) propagates unchanged.
/// A type without `__index__` (floats, strings and the like) raises `TypeError` naming the
/// function and argument.
pub fn as_pyint<'py>(ob: &Bound<'py, PyAny>, func: &str, arg: &str) -> PyResult<Bound<'py, PyInt>> {
    if let Ok(i) = ob.downcast::<PyInt>() {
        return Ok(i.clone());
    }
    // SAFETY: `ob` is a valid object; PyIndex_Check only reads its type's slots.
    if unsafe { ffi::PyIndex_Check(ob.as_ptr()) } == 0 {
        return Err(PyTypeError::new_err(format!(
            "{func}() argument '{arg}' must be an int, not {}",
            type_name(ob)
        )));
    }
    // SAFETY: `ob` is a valid object; PyNumber_Index returns a new reference or NULL with an
    // exception set (which from_owned_ptr_or_err takes as is).
    let idx = unsafe { Bound::from_owned_ptr_or_err(ob.py(), ffi::PyNumber_Index(ob.as_ptr())) }?;
    Ok(idx.downcast_into::<PyInt>()?)
}

fn type_name(ob: &Bound<'_, PyAny>) -> String {
    ob.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "?".to_string())
}

/// Extract any integer (see [`as_pyint`]) as sign and magnitude.
pub fn to_int(ob: &Bound<'_, PyAny>, func: &str, arg: &str) -> PyResult<Int> {
    let i = as_pyint(ob, func, arg)?;
    int_from_pylong(&i)
}

/// Extract a non-negative integer; negative values raise `ValueError` naming the argument.
pub fn to_natural(ob: &Bound<'_, PyAny>, func: &str, arg: &str) -> PyResult<Natural> {
    let i = to_int(ob, func, arg)?;
    if i.negative {
        return Err(pyo3::exceptions::PyValueError::new_err(format!(
            "{func}() argument '{arg}' must be non-negative"
        )));
    }
    Ok(i.mag)
}

/// `n` zero limbs for an argument's conversion, or `MemoryError` when the process cannot
/// have them (an address-space limit): never an abort.
fn zeroed_limbs(n: usize) -> PyResult<Vec<Limb>> {
    let mut limbs: Vec<Limb> = Vec::new();
    limbs.try_reserve_exact(n).map_err(|_| {
        pyo3::exceptions::PyMemoryError::new_err(format!(
            "cannot allocate {} bytes to convert an integer argument",
            n.saturating_mul(LIMB_BYTES)
        ))
    })?;
    limbs.resize(n, 0);
    Ok(limbs)
}

/// Two's complement little-endian limbs -> (negative, magnitude limbs).
fn from_twos_complement(mut limbs: Vec<Limb>) -> Int {
    let negative = limbs
        .last()
        .is_some_and(|&top| top >> (Limb::BITS - 1) != 0);
    if negative {
        // -x = !x + 1, limb by limb with carry.
        let mut carry = true;
        for l in limbs.iter_mut() {
            let (v, c) = (!*l).overflowing_add(carry as Limb);
            *l = v;
            carry = c;
        }
    }
    Int {
        negative,
        mag: Natural::from_limbs(limbs),
    }
}

/// Limbs filled as little-endian bytes -> native limbs (a no-op on little-endian hosts).
#[cfg(not(Py_LIMITED_API))]
fn fix_endianness(limbs: &mut [Limb]) {
    if cfg!(target_endian = "big") {
        for l in limbs.iter_mut() {
            *l = Limb::from_le(*l);
        }
    }
}

#[cfg(not(Py_LIMITED_API))]
fn int_from_pylong(i: &Bound<'_, PyInt>) -> PyResult<Int> {
    let py = i.py();
    // SAFETY: `i` is an int; _PyLong_NumBits returns the bit length of |i| or (size_t)-1 with
    // an exception set.
    let nbits = unsafe { ffi::_PyLong_NumBits(i.as_ptr()) };
    if nbits == usize::MAX {
        if let Some(e) = PyErr::take(py) {
            return Err(e);
        }
    }
    if nbits == 0 {
        return Ok(Int {
            negative: false,
            mag: Natural::zero(),
        });
    }
    // One extra bit for the sign of the two's complement form.
    let nlimbs = (nbits + 1).div_ceil(Limb::BITS as usize);
    let mut limbs = zeroed_limbs(nlimbs)?;
    let bytes = limbs.as_mut_ptr() as *mut u8;
    let len = nlimbs * LIMB_BYTES;
    #[cfg(not(Py_3_13))]
    // SAFETY: `bytes` points to `len` writable bytes (the limb buffer); little-endian, signed.
    let rc =
        unsafe { ffi::_PyLong_AsByteArray(i.as_ptr() as *mut ffi::PyLongObject, bytes, len, 1, 1) };
    #[cfg(Py_3_13)]
    // SAFETY: as above; returns the bytes needed (<= len by construction) or -1 with an exception.
    let rc = unsafe {
        let n = ffi::PyLong_AsNativeBytes(
            i.as_ptr(),
            bytes as *mut core::ffi::c_void,
            len as ffi::Py_ssize_t,
            ffi::Py_ASNATIVEBYTES_LITTLE_ENDIAN,
        );
        if n < 0 || n as usize > len {
            -1
        } else {
            0
        }
    };
    if rc != 0 {
        return Err(PyErr::take(py).unwrap_or_else(|| {
            pyo3::exceptions::PySystemError::new_err("integer conversion failed")
        }));
    }
    fix_endianness(&mut limbs);
    Ok(from_twos_complement(limbs))
}

#[cfg(Py_LIMITED_API)]
fn int_from_pylong(i: &Bound<'_, PyInt>) -> PyResult<Int> {
    use pyo3::intern;
    use pyo3::types::{PyBytes, PyDict};
    let py = i.py();
    let nbits: usize = i.call_method0(intern!(py, "bit_length"))?.extract()?;
    if nbits == 0 {
        return Ok(Int {
            negative: false,
            mag: Natural::zero(),
        });
    }
    let nlimbs = (nbits + 1).div_ceil(Limb::BITS as usize);
    let kwargs = PyDict::new(py);
    kwargs.set_item(intern!(py, "signed"), true)?;
    let b = i.call_method(
        intern!(py, "to_bytes"),
        (nlimbs * LIMB_BYTES, intern!(py, "little")),
        Some(&kwargs),
    )?;
    let b = b.downcast::<PyBytes>()?.as_bytes();
    let mut limbs = zeroed_limbs(nlimbs)?;
    for (l, c) in limbs.iter_mut().zip(b.chunks_exact(LIMB_BYTES)) {
        *l = Limb::from_le_bytes(c.try_into().expect("chunk of LIMB_BYTES"));
    }
    Ok(from_twos_complement(limbs))
}

/// `n` as a Python `int`.
pub fn to_py<'py>(py: Python<'py>, n: &Natural) -> PyResult<Bound<'py, PyAny>> {
    let limbs = n.limbs();
    #[cfg(not(Py_LIMITED_API))]
    {
        let mut tmp;
        let le: &[Limb] = if cfg!(target_endian = "big") {
            tmp = limbs.to_vec();
            for l in tmp.iter_mut() {
                *l = l.to_le();
            }
            &tmp
        } else {
            limbs
        };
        // SAFETY: `le` holds len * 8 readable bytes; the call returns a new reference or NULL
        // with an exception set.
        unsafe {
            Bound::from_owned_ptr_or_err(
                py,
                ffi::_PyLong_FromByteArray(le.as_ptr() as *const u8, le.len() * LIMB_BYTES, 1, 0),
            )
        }
    }
    #[cfg(Py_LIMITED_API)]
    {
        use pyo3::intern;
        use pyo3::types::PyBytes;
        let bytes: Vec<u8> = limbs.iter().flat_map(|l| l.to_le_bytes()).collect();
        py.get_type::<PyInt>().call_method1(
            intern!(py, "from_bytes"),
            (PyBytes::new(py, &bytes), intern!(py, "little")),
        )
    }
}

/// `-n` (or `n` when `negative` is false) as a Python `int`.
pub fn to_py_signed<'py>(
    py: Python<'py>,
    negative: bool,
    n: &Natural,
) -> PyResult<Bound<'py, PyAny>> {
    let v = to_py(py, n)?;
    if negative && !n.is_zero() {
        v.neg()
    } else {
        Ok(v)
    }
}
