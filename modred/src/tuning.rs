//! Every threshold and tuning constant of modred, in one place, with how it was chosen.
//! Re-measure with `cargo bench -p modred --bench tuning` after changing a kernel.

/// Operand size (limbs) from which multiplication uses Karatsuba instead of schoolbook
/// (seed 001 section 1: the best depth grows with the size). Measured on AMD EPYC (Zen 3).
pub const KARATSUBA_THRESHOLD: usize = 32;

/// Operand size (limbs) from which squaring uses Karatsuba instead of the symmetric schoolbook.
pub const KARATSUBA_SQR_THRESHOLD: usize = 48;

/// Modulus size (limbs) from which `auto` prefers product-then-REDC (Karatsuba product) over the
/// integrated CIOS product for repeated Montgomery multiplications.
pub const MONT_KARATSUBA_LIMBS: usize = 48;
