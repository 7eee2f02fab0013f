//! Single-word reduction by a precomputed reciprocal of the normalized modulus: the 2/1
//! division of N. Möller and T. Granlund, "Improved division by invariant integers", IEEE
//! Trans. Computers 60(2), 2011, Algorithm 4 (with the reciprocal of their section 3,
//! v = floor((2^128 - 1) / d) - 2^64 for the normalized divisor d = m 2^s, 2^63 <= d < 2^64).
//! FLINT's `n_mulmod_preinv` follows the same idea; the issue calls it "barrett64".
//!
//! Works for every modulus 1 <= m < 2^64, odd or even. The quotient estimate costs one
//! 64x64->128 multiplication plus one low multiplication; two corrections, done with masks, make
//! the remainder exact. All kernels are branch-free (constant-time in the operands; the
//! modulus and its shift are public); [`Barrett64::pow_vartime`] is variable time only in the bit
//! length of the exponent.

use crate::error::{Error, Result};
use crate::limb::{adc, div_wide, mul_lo, mul_wide, Choice, Limb};

/// A precomputed-reciprocal context for one modulus `1 <= m < 2^64`.
/// Leaks: nothing in its products and reductions (constant time, the corrections are masks);
/// the exponent's bit length in [`Self::pow_vartime`]; the constructor divides (variable time in m).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Barrett64 {
    m: Limb,
    /// d = m << s, normalized: top bit set.
    d: Limb,
    /// s = number of leading zeros of m (0..=63).
    s: u32,
    /// v = floor((2^128 - 1) / d) - 2^64.
    v: Limb,
}

impl Barrett64 {
    /// Context for `m >= 1`; `Err(ZeroModulus)` for 0.
    pub fn new(m: Limb) -> Result<Self> {
        if m == 0 {
            return Err(Error::ZeroModulus);
        }
        let s = m.leading_zeros();
        let d = m << s;
        // (2^128 - 1 - d 2^64) / d = floor((2^128 - 1) / d) - 2^64; the high word !d < d since
        // d >= 2^63, so the quotient fits a limb.
        let v = div_wide(!d, !0, d).0;
        Ok(Barrett64 { m, d, s, v })
    }

    /// The modulus m.
    pub fn modulus(&self) -> Limb {
        self.m
    }
    /// The normalization shift s (m << s has its top bit set).
    pub fn shift(&self) -> u32 {
        self.s
    }
    /// The reciprocal v = floor((2^128 - 1) / (m << s)) - 2^64.
    pub fn reciprocal(&self) -> Limb {
        self.v
    }

    /// Remainder of the two-word `u1 2^64 + u0` by the normalized d (MG Algorithm 4, quotient
    /// discarded). Precondition `u1 < d`. Output `< d`.
    /// Leaks: nothing (constant time: both corrections are masks).
    #[inline(always)]
    fn rem_norm(&self, u1: Limb, u0: Limb) -> Limb {
        debug_assert!(u1 < self.d);
        let d = self.d;
        // (q1, q0) = v u1 + (u1, u0): the candidate quotient q1 + 1 is correct or one too
        // large; q0 is the fraction used to detect which (MG Theorem 2).
        let (q0, q1) = mul_wide(self.v, u1);
        let (q0, c) = adc(q0, u0, 0);
        let q1 = q1.wrapping_add(u1).wrapping_add(c).wrapping_add(1);
        // Candidate remainder, mod 2^64 (the true one lies in (-d, 2d) before corrections).
        let r = u0.wrapping_sub(mul_lo(q1, d));
        // First correction: r > q0 means the quotient was one too large.
        let r = r.wrapping_add(d & Choice::gt(r, q0).mask());
        // Second correction (rare): r still >= d means the quotient was one too small.
        let r = r.wrapping_sub(d & Choice::ge(r, d).mask());
        debug_assert!(r < d);
        r
    }

    /// `x mod m` of the two-word `x = hi 2^64 + lo`, any `hi, lo`. Two 2/1 steps on the shifted
    /// three-word x 2^s. Output `< m`.
    /// Leaks: nothing (constant time).
    #[inline]
    pub fn reduce_wide(&self, hi: Limb, lo: Limb) -> Limb {
        let x = ((hi as u128) << 64) | lo as u128;
        // x 2^s = w2 2^128 + w1 2^64 + w0 with w2 < 2^s <= 2^63 <= d.
        let w2 = (((hi as u128) << self.s) >> 64) as Limb;
        let w = x << self.s;
        let r1 = self.rem_norm(w2, (w >> 64) as Limb);
        self.rem_norm(r1, w as Limb) >> self.s
    }

    /// `x mod m` for any `x < 2^64`. Output `< m`.
    /// Leaks: nothing (constant time).
    #[inline]
    pub fn reduce(&self, x: Limb) -> Limb {
        // The high word of x 2^s is x >> (64 - s) < 2^s <= 2^63 <= d.
        let w = (x as u128) << self.s;
        self.rem_norm((w >> 64) as Limb, w as Limb) >> self.s
    }

    /// `a b mod m`, output `< m`. Precondition: `a < m` or `b < m` (then a b 2^s < d 2^64, one
    /// 2/1 step). Panics if both are `>= m` ([`Self::mul_mod`] takes any).
    /// Leaks: nothing (constant time).
    #[inline(always)]
    pub fn mul(&self, a: Limb, b: Limb) -> Limb {
        assert!(
            a < self.m || b < self.m,
            "Barrett64::mul: neither factor below m"
        );
        self.mul_unchecked(a, b)
    }

    /// [`Self::mul`] without the check, for the loops whose factors stay below m (`crate::evm`).
    #[inline(always)]
    pub(crate) fn mul_unchecked(&self, a: Limb, b: Limb) -> Limb {
        debug_assert!(a < self.m || b < self.m);
        let w = (a as u128 * b as u128) << self.s;
        self.rem_norm((w >> 64) as Limb, w as Limb) >> self.s
    }

    /// `a^2 mod m` for `a < m`, output `< m`. Panics if `a >= m`.
    /// Leaks: nothing (constant time).
    #[inline(always)]
    pub fn sqr(&self, a: Limb) -> Limb {
        assert!(a < self.m, "Barrett64::sqr: factor not below m");
        self.mul_unchecked(a, a)
    }

    /// `a b mod m` for any `a, b < 2^64`. Output `< m`.
    /// Leaks: nothing (constant time).
    #[inline]
    pub fn mul_mod(&self, a: Limb, b: Limb) -> Limb {
        let (lo, hi) = mul_wide(a, b);
        self.reduce_wide(hi, lo)
    }

    /// Product in the shifted representation x' = x 2^s (< d): `(x y mod m) 2^s` from `x'`,
    /// `y'`, as the remainder of `x' (y' >> s) = x y 2^s < m^2 2^s < d 2^64` by d. Saves the
    /// 128-bit shift of [`Self::mul`].
    /// Leaks: nothing (constant time).
    #[inline(always)]
    fn mul_shifted(&self, xs: Limb, ys: Limb) -> Limb {
        let (lo, hi) = mul_wide(xs, ys >> self.s);
        self.rem_norm(hi, lo)
    }

    /// `b^e mod m` for any `b < 2^64` by right-to-left binary exponentiation with masked
    /// products, in the shifted representation. Output `< m` (0 for m = 1).
    /// Leaks: the bit length of `e` (the loop length); nothing else.
    #[inline]
    pub fn pow_vartime(&self, b: Limb, e: u64) -> Limb {
        let base = self.reduce(b) << self.s;
        let one = (1 % self.m) << self.s;
        let bits = 64 - e.leading_zeros();
        super::pow_binary_masked(|x, y| self.mul_shifted(x, y), one, base, e, bits) >> self.s
    }
}
