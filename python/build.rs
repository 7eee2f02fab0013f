fn main() {
    // Expose PyO3's `Py_3_13`, `Py_LIMITED_API`, ... cfgs to `src/conv.rs`.
    pyo3_build_config::use_pyo3_cfgs();
}
