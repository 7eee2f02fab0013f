//! `modred.evm_modexp` and `modred.evm_gas`: the Ethereum MODEXP precompile (address 0x05).

use modred::evm::{self, Fork};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedBytes;
use pyo3::types::PyBytes;

fn fork_of(name: &str) -> PyResult<Fork> {
    Fork::from_name(name).map_err(|e| PyValueError::new_err(e.to_string()))
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
/// computing.
#[pyfunction]
#[pyo3(signature = (data, fork = "osaka"))]
pub fn evm_modexp<'py>(
    py: Python<'py>,
    data: PyBackedBytes,
    fork: &str,
) -> PyResult<(Bound<'py, PyBytes>, u64)> {
    let fork = fork_of(fork)?;
    let (out, gas) = py
        .allow_threads(|| evm::run(&data, fork))
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
