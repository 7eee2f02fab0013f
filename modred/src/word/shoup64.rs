//! Multiplication by a fixed multiplier with a precomputed quotient (V. Shoup's trick, as used
//! in NTT butterflies, e.g. D. Harvey, "Faster arithmetic for number-theoretic transforms",
//! J. Symb. Comp. 60, 2014, section 2): for `w < m` precompute `w' = floor(w 2^64 / m)`; then
//! for any `a < 2^64`, `q = floor(a w' / 2^64)` is the quotient of `a w / m` or one less, so
//! `r = a w - q m` (computed mod 2^64) lies in `[0, 2m)`.
//!
//! Supported moduli: `1 <= m <= 2^63` (so that `2m <= 2^64` and r is exact mod 2^64); larger
//! moduli are rejected with an error. Every multiplication is branch-free (constant-time).

use crate::error::{Error, Result};
use crate::limb::{div_wide, mul_lo, mul_wide, Choice, Limb};

/// The largest modulus [`Shoup64`] accepts: 2^63.
pub const SHOUP64_MAX_MODULUS: Limb = 1 << 63;

/// `w' = floor(w 2^64 / m)` for `w < m` (one 128/64 division).
/// Leaks: variable time (the division, `__udivti3`, depends on `w` and m).
#[inline]
pub(crate) fn shoup_precompute_vartime(w: Limb, m: Limb) -> Limb {
    debug_assert!(w < m);
    div_wide(w, 0, m).0
}

/// `a w mod m` up to one multiple of m: output `< 2m`, congruent to `a w`. Preconditions:
/// `m <= 2^63`, `w < m`, `wp = shoup_precompute(w, m)`; any `a < 2^64`.
/// Leaks: nothing (constant time).
#[inline(always)]
pub(crate) fn mul_shoup_lazy(a: Limb, w: Limb, wp: Limb, m: Limb) -> Limb {
    debug_assert!(m <= SHOUP64_MAX_MODULUS && w < m);
    let (_, q) = mul_wide(a, wp);
    // a w - q m in [0, 2m): q <= a w / m < q + 2 (Shoup); 2m <= 2^64 so the mod-2^64 value is
    // the true one.
    let r = mul_lo(a, w).wrapping_sub(mul_lo(q, m));
    debug_assert!((r as u128) < 2 * m as u128);
    r
}

/// `a w mod m`, output `< m`: [`mul_shoup_lazy`] plus one masked subtraction. Same
/// preconditions.
/// Leaks: nothing (constant time: the subtraction is masked).
#[inline(always)]
pub(crate) fn mul_shoup(a: Limb, w: Limb, wp: Limb, m: Limb) -> Limb {
    let r = mul_shoup_lazy(a, w, wp, m);
    r.wrapping_sub(m & Choice::ge(r, m).mask())
}

/// A fixed multiplier `w` modulo `m` with its precomputed quotient.
/// Leaks: nothing in its products (constant time); the constructor divides (variable time in
/// `w` and m).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shoup64 {
    m: Limb,
    w: Limb,
    wp: Limb,
}

impl Shoup64 {
    /// Precompute for the multiplier `w mod m` (any `w`). `Err(ZeroModulus)` for m = 0,
    /// `Err(ArgumentTooLarge)` for m > 2^63.
    pub fn new(w: Limb, m: Limb) -> Result<Self> {
        if m == 0 {
            return Err(Error::ZeroModulus);
        }
        if m > SHOUP64_MAX_MODULUS {
            return Err(Error::ArgumentTooLarge {
                reducer: "shoup64",
                restriction: "modulus must be at most 2^63 (the lazy result < 2m must fit 64 bits)",
            });
        }
        let w = w % m;
        Ok(Shoup64 {
            m,
            w,
            wp: shoup_precompute_vartime(w, m),
        })
    }

    /// The modulus.
    pub fn modulus(&self) -> Limb {
        self.m
    }
    /// The multiplier, reduced (< m).
    pub fn multiplier(&self) -> Limb {
        self.w
    }
    /// The precomputed quotient floor(w 2^64 / m).
    pub fn quotient(&self) -> Limb {
        self.wp
    }

    /// `a w mod m` for any `a < 2^64`, output `< m`.
    /// Leaks: nothing (constant time).
    #[inline(always)]
    pub fn mul(&self, a: Limb) -> Limb {
        mul_shoup(a, self.w, self.wp, self.m)
    }

    /// `a w mod m` up to one m: output `< 2m`, for any `a < 2^64`.
    /// Leaks: nothing (constant time).
    #[inline(always)]
    pub fn mul_lazy(&self, a: Limb) -> Limb {
        mul_shoup_lazy(a, self.w, self.wp, self.m)
    }
}
