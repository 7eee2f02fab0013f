//! Every threshold and tuning constant of modred, in one place, with how it was chosen.
//! Re-measure with `cargo bench -p modred --bench tuning` after changing a kernel.

/// Operand size (limbs) from which multiplication uses Karatsuba instead of schoolbook
/// (seed 001 section 1: the best depth grows with the size). Measured on AMD EPYC (Zen 3) with
/// the MULX/ADX rows: with the threshold at 32, Karatsuba/schoolbook time was 1.08 at 32 limbs,
/// 1.00 at 64, 0.95 at 80, 0.87 at 128, 0.72 at 256.
pub const KARATSUBA_THRESHOLD: usize = 64;

/// Operand size (limbs) from which squaring uses Karatsuba instead of the symmetric schoolbook.
/// Same measurement: Karatsuba squaring (threshold 48) was slower than the symmetric schoolbook
/// up to 192 limbs (1.21 at 48, 1.08 at 128, 1.08 at 192) and faster at 256 (0.91).
pub const KARATSUBA_SQR_THRESHOLD: usize = 200;

/// Largest modulus (limbs) for which `montgomery-fast` uses the compile-time-sized, fully
/// unrolled CIOS instead of product + REDC on the MULX/ADX rows (at most 16: the sizes the
/// const-generic kernel is instantiated for). Measured (ns per product, unrolled CIOS vs
/// SOS on ADX rows, interleaved): 4 limbs 33 vs 50; 8 limbs mul 119 vs 117, sqr 118 vs 130;
/// 16 limbs 459 vs 355.
pub const FIXED_CIOS_MAX_LIMBS: usize = 8;
