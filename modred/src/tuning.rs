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

/// δ of the Lim–Hwang–Lee L1/L2 reducers (seed 001 section 3.1): n' = b^(k+δ) mod m. The paper
/// uses δ = 2 ("in most cases it suffices to choose δ = 2 ~ 4"); with 64-bit limbs a final
/// carry then has probability about 2^-64 per digit.
pub const LHL_DELTA: usize = 2;

/// `auto` picks `diminished-radix` for moduli 2^e - c whose normalized c' = c 2^(64k-e) has at
/// most this many limbs (the in-place one-limb fold). Measured with
/// `cargo bench -p modred --bench lhl -- --warm-up-time 1 --measurement-time 2 dr/` on AMD EPYC
/// (Zen 3, shared and loaded machine): 2k-limb reduction diminished-radix / montgomery-cios time
/// ratio 0.63 on 2^255-19, 0.50 on secp256k1, 0.23 on 2^521-1; multi-limb c' (block folds
/// through general slice kernels, or digit folding for the RFC 3526 MODP primes) was not
/// measured faster than Montgomery, so auto keeps Montgomery there.
pub const DR_AUTO_MAX_C_LIMBS: usize = 1;
