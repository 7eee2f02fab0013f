//! `a*b mod m` by one 128-by-64 division: the baseline `mul_asm` (`mulq` then `divq`) of
//! Bloemen, *Montgomery multiplication*, 2014.
//!
//! Reference: Bloemen 2014, the `divq` row of its timing table and the `mul_asm` used by
//! `mod_to_monty` / `monty_to_mod`.
//!
//! The x86_64 `div r64` instruction divides rdx:rax by its operand and faults (#DE) unless
//! rdx < m. Both kernels here establish that precondition themselves: the product's high word
//! `hi` is reduced modulo m first whenever `hi >= m` (never happens when `a < m` or `b < m`, since
//! then `hi < min(a, b) < m`). So every `a, b < 2^64` and `m >= 1` are accepted.
//!
//! Leaks: variable time in every kernel here: the hardware division's latency depends on the
//! operands on most CPUs (x86 `div`; the u128 remainder calls `__udivti3`, whose time depends
//! on the operands too), and the high-word reduction is a branch on `hi >= m`.

#[cfg(target_arch = "x86_64")]
use crate::limb::div_wide_asm;
use crate::limb::{div_wide, mul_wide, Limb};

/// `a * b mod m` through the portable u128 remainder (`div_wide`). Output `< m`.
/// Panics if `m == 0`.
/// Leaks: variable time (see the module docs).
#[inline]
pub fn mul_divq_u128_vartime(a: Limb, b: Limb, m: Limb) -> Limb {
    assert!(m != 0, "mul_divq_u128: zero modulus");
    let (lo, hi) = mul_wide(a, b);
    let hi = if hi >= m { div_wide(0, hi, m).1 } else { hi };
    div_wide(hi, lo, m).1
}

/// `a * b mod m` with the x86_64 `div` instruction in inline assembly, as Bloemen's
/// `mul_asm`. Output `< m`. Panics if `m == 0`.
/// Leaks: variable time (see the module docs).
#[cfg(target_arch = "x86_64")]
#[inline]
pub fn mul_divq_asm_vartime(a: Limb, b: Limb, m: Limb) -> Limb {
    assert!(m != 0, "mul_divq_asm: zero modulus");
    let (lo, hi) = mul_wide(a, b);
    // hi < m now guaranteed: reduce the high word with a first division (0:hi) if needed.
    let hi = if hi >= m {
        div_wide_asm(0, hi, m).1
    } else {
        hi
    };
    div_wide_asm(hi, lo, m).1
}

/// `a * b mod m` by hardware division: [`mul_divq_asm_vartime`] on x86_64, [`mul_divq_u128_vartime`]
/// elsewhere. Output `< m`. Panics if `m == 0`.
/// Leaks: variable time (see the module docs).
#[inline]
pub fn mul_divq_vartime(a: Limb, b: Limb, m: Limb) -> Limb {
    #[cfg(target_arch = "x86_64")]
    {
        mul_divq_asm_vartime(a, b, m)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        mul_divq_u128_vartime(a, b, m)
    }
}

/// `b^e mod m` by binary exponentiation over [`mul_divq_u128_vartime`]. Output `< m` (0 for m = 1).
/// Panics if `m == 0`.
/// Leaks: variable time: the divisions, and a branch on each bit of `e`.
pub fn pow_divq_u128_vartime(b: Limb, e: u64, m: Limb) -> Limb {
    assert!(m != 0, "pow_divq_u128: zero modulus");
    let base = b % m;
    super::pow_binary(|x, y| mul_divq_u128_vartime(x, y, m), 1 % m, base, e)
}

/// `b^e mod m` by binary exponentiation over [`mul_divq_vartime`] (the `div` instruction on x86_64).
/// Output `< m` (0 for m = 1). Panics if `m == 0`.
/// Leaks: variable time: the divisions, and a branch on each bit of `e`.
pub fn pow_divq_vartime(b: Limb, e: u64, m: Limb) -> Limb {
    assert!(m != 0, "pow_divq: zero modulus");
    let base = b % m;
    super::pow_binary(|x, y| mul_divq_vartime(x, y, m), 1 % m, base, e)
}
