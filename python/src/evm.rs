//! `modred.evm_modexp` and `modred.evm_gas`: the Ethereum MODEXP precompile (address 0x05).

use crate::signals;
use modred::evm::{self, Fork};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedBytes;
use pyo3::types::PyBytes;

fn fork_of(name: &str) -> PyResult<Fork> {
    Fork::from_name(name).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// The work of MODEXP call data (limbs of the modulus squared times the exponent's bits, as
/// [`signals::work`]), from its three 32-byte big-endian lengths (missing bytes are zeros),
/// saturating.
fn work_of(data: &[u8]) -> u128 {
    let length = |i: usize| -> u128 {
        let field = data.get(32 * i..).unwrap_or_default();
        let field = &field[..field.len().min(32)];
        // Bytes beyond the input are zeros: `field` holds the high end of the 32-byte number.
        let mut be = [0u8; 32];
        be[..field.len()].copy_from_slice(field);
        if be[..16].iter().any(|&x| x != 0) {
            u128::MAX
        } else {
            u128::from_be_bytes(be[16..].try_into().expect("16 bytes"))
        }
    };
    let limbs = length(2).div_ceil(8).max(1);
    limbs
        .saturating_mul(limbs)
        .saturating_mul(length(1).saturating_mul(8).max(1))
}

/// Run the MODEXP precompile on the call data ``data`` (``bytes`` or ``bytearray``) under
/// ``fork``'s rules: ``"osaka"`` (EIP-7883 gas, EIP-7823's 1024-byte cap on each length),
/// ``"berlin"`` (EIP-2565) or ``"byzantium"`` (EIP-198). Returns ``(output, gas)``: the
/// output is exactly ``mod_len`` bytes (empty when ``mod_len`` is 0), the gas as the
/// precompile charges it (saturated at 2**64 - 1).
///
/// Raises ``ValueError`` for an unknown fork or an input the fork rejects (a length over
/// 1024 bytes under osaka: the call fails and consumes all gas; under the older forks, an
/// input costing over 2**32 gas, which no block can pay for). The GIL is released while
/// computing, and a long call stops at Ctrl-C (``KeyboardInterrupt``).
#[pyfunction]
#[pyo3(signature = (data, fork = "osaka"))]
pub fn evm_modexp<'py>(
    py: Python<'py>,
    data: PyBackedBytes,
    fork: &str,
) -> PyResult<(Bound<'py, PyBytes>, u64)> {
    let fork = fork_of(fork)?;
    let long = work_of(&data) >= signals::LONG_WORK;
    let (out, gas) = signals::compute(py, long, || evm::run(&data, fork))?
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok((PyBytes::new(py, &out), gas))
}

/// The gas of the MODEXP call data ``data`` under ``fork`` (see ``evm_modexp``), from the
/// lengths and the exponent's first 32 bytes alone. ``ValueError`` for an unknown fork or a
/// length over 1024 bytes under osaka.
#[pyfunction]
#[pyo3(signature = (data, fork = "osaka"))]
pub fn evm_gas(data: PyBackedBytes, fork: &str) -> PyResult<u64> {
    evm::gas(&data, fork_of(fork)?).map_err(|e| PyValueError::new_err(e.to_string()))
}
