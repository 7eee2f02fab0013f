//! Generates the MULX/ADX Montgomery kernels (see `build/adx_mont.rs`) for x86-64 ELF targets.

#[path = "build/adx_mont.rs"]
mod adx_mont;

use std::env;
use std::fs;
use std::path::Path;

/// The sizes and thresholds of the generated kernels, documented with their measurements.
#[allow(dead_code)]
#[path = "src/tuning.rs"]
mod tuning;

fn main() {
    println!("cargo:rerun-if-changed=build/adx_mont.rs");
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=src/tuning.rs");
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
            tuning::ADX_MONT_MIN_LIMBS..=tuning::ADX_MONT_MAX_LIMBS,
            &adx_mont::Opts {
                prefix: "modred_adx_",
                karatsuba_min: tuning::ADX_SQR_KARATSUBA_MIN_LIMBS,
                unrolled_max: tuning::ADX_MONT_UNROLLED_MAX_LIMBS,
                tiled_min: tuning::ADX_MONT_TILED_MIN_LIMBS,
                karatsuba_nested_min: tuning::ADX_SQR_KARATSUBA_NESTED_MIN_LIMBS,
            },
        )
    } else {
        (String::new(), String::new())
    };
    fs::write(Path::new(&out).join("adx_mont.s"), asm).expect("write adx_mont.s");
    fs::write(Path::new(&out).join("adx_mont_decls.rs"), rs).expect("write adx_mont_decls.rs");
}
