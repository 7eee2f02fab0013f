//! Generates the MULX/ADX Montgomery kernels (see `build/adx_mont.rs`) for x86-64 ELF targets.

#[path = "build/adx_mont.rs"]
mod adx_mont;

use std::env;
use std::fs;
use std::path::Path;

/// Modulus sizes (limbs) with generated kernels; `src/tuning.rs` documents the choice.
const ADX_MONT_SIZES: std::ops::RangeInclusive<usize> = 9..=64;

/// Squares of at least this many limbs take one Karatsuba level (see `build/adx_mont.rs`).
/// Measured on AMD EPYC (Zen 4), Karatsuba / direct square time, paired medians of 3000
/// interleaved trials of each kernel: k = 16: 1.087, 20: 1.065, 24: 1.028, 28: 0.959,
/// 32: 1.026, 36: 0.979, 40: 0.888, 48: 0.857, 64: 0.875 (the direct triangle's code, ~30 KB
/// at 64 limbs, no longer fits the instruction cache).
const ADX_SQR_KARATSUBA_MIN: usize = 33;

fn main() {
    println!("cargo:rerun-if-changed=build/adx_mont.rs");
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo::rustc-check-cfg=cfg(modred_adx_mont)");
    let arch = env::var("CARGO_CFG_TARGET_ARCH").unwrap_or_default();
    let format = env::var("CARGO_CFG_TARGET_OBJECT_FORMAT").unwrap_or_default();
    let os = env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let elf =
        format == "elf" || (format.is_empty() && os != "macos" && os != "windows" && os != "ios");
    let out = env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    let (asm, rs) = if arch == "x86_64" && elf {
        println!("cargo:rustc-cfg=modred_adx_mont");
        adx_mont::generate(
            ADX_MONT_SIZES,
            &adx_mont::Opts {
                prefix: "modred_adx_",
                karatsuba_min: ADX_SQR_KARATSUBA_MIN,
            },
        )
    } else {
        (String::new(), String::new())
    };
    fs::write(Path::new(&out).join("adx_mont.s"), asm).expect("write adx_mont.s");
    fs::write(Path::new(&out).join("adx_mont_decls.rs"), rs).expect("write adx_mont_decls.rs");
}
