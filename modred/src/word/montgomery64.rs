//! Single-word Montgomery multiplication, after Bloemen, *Montgomery multiplication*, 2014.
//!
//! With R = 2^64 and an odd modulus m, the Montgomery form of x is x' = x R mod m and the
//! product of two forms is REDC(a' b') = a' b' R^{-1} mod m, computed with multiplications and
//! a shift instead of a division: for t = a' b', u = t k mod R with k = -m^{-1} mod R makes
//! t + u m divisible by R (Bloemen 2014, "The great Montgomery trick").
//!
//! Two versions live here:
//! - Bloemen's own routines, kept faithful for the benchmark: [`mul_monty_seed_vartime`],
//!   [`mod_to_monty_seed_vartime`], [`monty_to_mod_seed_vartime`], [`Monty64::pow_seed_vartime`];
//! - [`Monty64`], the general REDC with one final conditional subtraction for every odd modulus
//!   1 <= m < 2^64, whose values are always fully reduced (< m).

use super::divq::mul_divq_vartime;
use crate::error::{Error, Result};
use crate::limb::{adc, mul_lo, mul_wide, neg_inv_newton, sbb, Choice, Limb};

/// Bloemen's `mul_monty`, line for line: with `th 2^64 + tl = a b`, returns `th` if `tl == 0`,
/// else `p = vh + th + 1` (vh = high word of `u m`, u = tl k mod 2^64), plus `r` when that sum
/// wrapped (`p < th`).
///
/// Parameters: `r` = 2^64 mod m (Bloemen's `R`), `k` = -m^{-1} mod 2^64, `m` odd.
///
/// What it returns (proved in the comments below and tested in `tests/word.rs`):
/// - for any odd m and any `a, b < 2^64`: a value `< 2^64` congruent to `a b 2^{-64}` mod m
///   (Bloemen's doc comment says "mod 2^64", a typo for "mod m");
/// - the output is NOT fully reduced: it can lie in `[m, 2^64)`. For m > 2^63 (Bloemen's
///   setting) that means `< 2m`, so one conditional subtraction ([`monty_to_mod_seed_vartime`]'s
///   `if a >= m { a -= m }`) reduces it; for `a, b < m` the output is `< 2m` for every odd m.
///
/// The `tl == 0` shortcut is exact, and needed: if tl = 0 then t = th 2^64 is already divisible
/// by 2^64 and u = 0; otherwise (tl != 0) u m = -tl mod 2^64, so tl + vl = 2^64 exactly and the
/// low-word carry is 1, which is the `+ 1`; without the shortcut tl = 0 would add a spurious 1.
///
/// The overflow test `p < th` is exact: vh <= m - 1 <= 2^64 - 2, so th + vh + 1 wraps iff the
/// wrapped sum is below th. When it wraps the true value T = th + vh + 1 is in
/// `[2^64, 2^64 + m)`, and `p + r = T - 2^64 + (2^64 mod m)` is congruent to T and `< 2^64`
/// (for m > 2^63, r = 2^64 - m and p + r = T - m; for m < 2^63, p + r < 2m < 2^64).
///
/// Leaks: variable time: two branches on the data (tl == 0 and the wrap).
#[inline]
pub fn mul_monty_seed_vartime(a: Limb, b: Limb, r: Limb, k: Limb, m: Limb) -> Limb {
    debug_assert!(m & 1 == 1);
    let (tl, th) = mul_wide(a, b);
    if tl == 0 {
        return th;
    }
    let u = mul_lo(tl, k);
    let (_vl, vh) = mul_wide(u, m);
    let p = vh.wrapping_add(th).wrapping_add(1);
    if p < th {
        p.wrapping_add(r)
    } else {
        p
    }
}

/// Bloemen's `mod_to_monty`: `a 2^64 mod m` as the divq product `a r mod m`, `r` = 2^64 mod m.
/// Output `< m`, any `a`.
/// Leaks: variable time (hardware division, see `mul_divq_vartime`).
#[inline]
pub fn mod_to_monty_seed_vartime(a: Limb, r: Limb, m: Limb) -> Limb {
    mul_divq_vartime(a, r, m)
}

/// Bloemen's `monty_to_mod`: `a 2^{-64} mod m` as `if a >= m { a -= m }` then the divq product
/// with `r_inv` = 2^{-64} mod m. Output `< m` for every odd m and every `a < 2^64`: Bloemen
/// requires m > 2^63 so that one subtraction brings [`mul_monty_seed_vartime`]'s output below m, but the
/// divq product reduces fully anyway (its high word is `< r_inv < m`), so the subtraction is
/// not needed for correctness.
/// Leaks: variable time: the branch on `a >= m` and the hardware division.
#[inline]
pub fn monty_to_mod_seed_vartime(a: Limb, r_inv: Limb, m: Limb) -> Limb {
    let a = if a >= m { a - m } else { a };
    mul_divq_vartime(a, r_inv, m)
}

/// A single-word Montgomery context for an odd modulus `1 <= m < 2^64`: R = 2^64, k = -m^{-1}
/// mod R (Newton, `neg_inv_newton`), R mod m, R^2 mod m, R^{-1} mod m.
///
/// All values "in Montgomery form" are fully reduced (`< m`). [`Self::redc`] is the textbook
/// (t + u m) / R with one final conditional subtraction; [`Self::mul`] uses the equivalent,
/// shorter [`Self::redc_sub`] (measured faster in `benches/word.rs`).
/// Leaks: nothing in [`Self::redc`], [`Self::mul`], [`Self::sqr`], [`Self::to_monty`],
/// [`Self::from_monty`] and [`Self::pow_monty_ct`] (constant time: branch-free, the final subtraction
/// a mask select); the exponent's bit length in [`Self::pow_monty_vartime`]; variable time in
/// [`Self::pow_seed_vartime`]; the constructor divides (hardware division: variable time in m, which is
/// public).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Monty64 {
    m: Limb,
    k: Limb,
    /// m^{-1} mod 2^64 = -k, for [`Self::redc_sub`].
    m_inv: Limb,
    r: Limb,
    r2: Limb,
    r_inv: Limb,
}

impl Monty64 {
    /// Context for odd `m`. `Err(ZeroModulus)` for 0, `Err(EvenModulus)` for even m.
    pub fn new(m: Limb) -> Result<Self> {
        if m == 0 {
            return Err(Error::ZeroModulus);
        }
        if m & 1 == 0 {
            return Err(Error::EvenModulus {
                reducer: "montgomery64",
                accepting: "barrett64, divq (word::pow_mod_vartime picks barrett64 itself)".into(),
            });
        }
        let k = neg_inv_newton(m);
        // 2^64 mod m = (2^64 - m) mod m; for m = 1 this is 0.
        let r = m.wrapping_neg() % m;
        let r2 = crate::limb::div_wide(r, 0, m).1;
        let mut ctx = Monty64 {
            m,
            k,
            m_inv: k.wrapping_neg(),
            r,
            r2,
            r_inv: 0,
        };
        ctx.r_inv = ctx.from_monty(1);
        Ok(ctx)
    }

    /// The modulus m.
    pub fn modulus(&self) -> Limb {
        self.m
    }
    /// k = -m^{-1} mod 2^64.
    pub fn k(&self) -> Limb {
        self.k
    }
    /// R mod m = 2^64 mod m, the Montgomery form of 1 (Bloemen's `R`).
    pub fn r(&self) -> Limb {
        self.r
    }
    /// R^2 mod m.
    pub fn r2(&self) -> Limb {
        self.r2
    }
    /// R^{-1} mod m = 2^{-64} mod m (Bloemen's `r`).
    pub fn r_inv(&self) -> Limb {
        self.r_inv
    }
    /// The Montgomery form of 1.
    pub fn one(&self) -> Limb {
        self.r
    }

    /// REDC of the two-word `t = hi 2^64 + lo`: `t R^{-1} mod m`, output `< m`.
    /// Precondition `hi < m` (so t < m R; true for any product `a b` with `a < m` or `b < m`).
    /// Panics if `hi >= m`.
    /// Leaks: nothing (constant time).
    #[inline(always)]
    pub fn redc(&self, hi: Limb, lo: Limb) -> Limb {
        assert!(hi < self.m, "Monty64::redc: high word not below m");
        let u = mul_lo(lo, self.k);
        let (vl, vh) = mul_wide(u, self.m);
        // lo + vl = 0 mod 2^64 by the choice of k; c0 is its carry.
        let (_zero, c0) = adc(lo, vl, 0);
        debug_assert_eq!(_zero, 0);
        // s + c1 2^64 = (t + u m) / R < (m R + R m) / R = 2m: one subtraction at most.
        let (s, c1) = adc(hi, vh, c0);
        let (d, borrow) = sbb(s, self.m, 0);
        // Keep s iff the 65-bit value s + c1 2^64 is below m, i.e. c1 = 0 and the subtraction
        // borrowed (c1 = 1 forces borrow = 1 since the value is < 2m).
        let out = Choice::from_bit(borrow & (c1 ^ 1)).select(s, d);
        debug_assert!(out < self.m);
        out
    }

    /// REDC by subtraction, the same value as [`Self::redc`]: with u = lo m^{-1} mod R (= -lo k),
    /// t - u m is divisible by R exactly (no carry out of the low word), and
    /// (t - u m) / R = hi - high(u m) lies in (-m, m) since both terms are < m; add m back
    /// if the subtraction borrowed. One addition shorter than the t + u m form.
    /// Precondition `hi < m`. Output `< m`. Panics if `hi >= m`.
    /// Leaks: nothing (constant time).
    #[inline(always)]
    pub fn redc_sub(&self, hi: Limb, lo: Limb) -> Limb {
        assert!(hi < self.m, "Monty64::redc_sub: high word not below m");
        self.redc_sub_unchecked(hi, lo)
    }

    /// [`Self::redc_sub`] without the check, for the callers that guarantee `hi < m`.
    #[inline(always)]
    fn redc_sub_unchecked(&self, hi: Limb, lo: Limb) -> Limb {
        debug_assert!(hi < self.m);
        let u = mul_lo(lo, self.m_inv);
        let (_, vh) = mul_wide(u, self.m);
        let (d, borrow) = sbb(hi, vh, 0);
        let out = d.wrapping_add(self.m & Choice::from_bit(borrow).mask());
        debug_assert!(out < self.m);
        out
    }

    /// `a b R^{-1} mod m` (the Montgomery product), output `< m`. Precondition `a < m` or
    /// `b < m` (then the product's high word is below m). Panics if both are `>= m`.
    /// Leaks: nothing (constant time).
    #[inline(always)]
    pub fn mul(&self, a: Limb, b: Limb) -> Limb {
        assert!(
            a < self.m || b < self.m,
            "Monty64::mul: neither factor below m"
        );
        self.mul_unchecked(a, b)
    }

    /// [`Self::mul`] without the check, for the loops whose factors stay below m (the
    /// exponentiations here and in `crate::evm`).
    #[inline(always)]
    pub(crate) fn mul_unchecked(&self, a: Limb, b: Limb) -> Limb {
        debug_assert!(a < self.m || b < self.m);
        let (lo, hi) = mul_wide(a, b);
        self.redc_sub_unchecked(hi, lo)
    }

    /// `a^2 R^{-1} mod m`, output `< m`. Precondition `a < m`. Panics if `a >= m`.
    /// Leaks: nothing (constant time).
    #[inline(always)]
    pub fn sqr(&self, a: Limb) -> Limb {
        assert!(a < self.m, "Monty64::sqr: factor not below m");
        self.mul_unchecked(a, a)
    }

    /// Montgomery form `a R mod m` of any `a < 2^64`, as REDC(a R^2). Output `< m`.
    /// Leaks: nothing (constant time).
    #[inline(always)]
    pub fn to_monty(&self, a: Limb) -> Limb {
        self.mul_unchecked(a, self.r2) // r2 < m
    }

    /// `x R^{-1} mod m` for any `x < 2^64`: back from Montgomery form when `x` is one.
    /// Output `< m`.
    /// Leaks: nothing (constant time).
    #[inline(always)]
    pub fn from_monty(&self, x: Limb) -> Limb {
        self.redc(0, x)
    }

    /// `x^e` in Montgomery form (`x < m` in Montgomery form, result `< m` in Montgomery form)
    /// by right-to-left binary exponentiation with masked products (no branch on the bits of
    /// `e`, so no mispredictions; the squaring and product chains overlap). Panics if `x >= m`.
    /// Leaks: the bit length of `e` (the loop length); nothing else.
    #[inline]
    pub fn pow_monty_vartime(&self, x: Limb, e: u64) -> Limb {
        assert!(x < self.m, "Monty64::pow_monty_vartime: base not below m");
        let bits = 64 - e.leading_zeros();
        super::pow_binary_masked(|a, b| self.mul_unchecked(a, b), self.r, x, e, bits)
    }

    /// Like [`Self::pow_monty_vartime`] but constant-time in `e` too: 64 squarings and 64 multiplications
    /// whatever `e` is, each product kept or dropped by mask. Panics if `x >= m`.
    /// Leaks: nothing (constant time).
    pub fn pow_monty_ct(&self, x: Limb, e: u64) -> Limb {
        assert!(x < self.m, "Monty64::pow_monty_ct: base not below m");
        super::pow_binary_masked(|a, b| self.mul_unchecked(a, b), self.r, x, e, 64)
    }

    /// `b^e mod m` for any `b < 2^64` (a plain residue, as [`super::Barrett64::pow_vartime`]
    /// takes): convert in, [`Self::pow_monty_vartime`], convert out. Output `< m`.
    /// Leaks: the bit length of `e` (the loop length); nothing else.
    #[inline]
    pub fn pow_vartime(&self, b: Limb, e: u64) -> Limb {
        self.from_monty(self.pow_monty_vartime(self.to_monty(b), e))
    }

    /// `a b mod m` for any `a, b < 2^64`, as REDC(REDC(a R^2) b) = REDC(a R mod m, b): the
    /// first product's high word is below R^2 mod m < m, the second's below a R mod m < m.
    /// Output `< m`.
    /// Leaks: nothing (constant time).
    #[inline]
    pub fn mul_mod(&self, a: Limb, b: Limb) -> Limb {
        self.mul_unchecked(self.to_monty(a), b)
    }

    /// `b^e mod m` the way Bloemen 2014 does it: [`mod_to_monty_seed_vartime`], binary exponentiation
    /// over [`mul_monty_seed_vartime`] (whose intermediate values may exceed m), [`monty_to_mod_seed_vartime`].
    /// Output `< m`. Correct for every odd m (tested), although Bloemen states m > 2^63.
    /// Leaks: variable time: the hardware divisions, [`mul_monty_seed_vartime`]'s branches and a branch
    /// on each bit of `e`.
    pub fn pow_seed_vartime(&self, b: Limb, e: u64) -> Limb {
        let (r, k, m) = (self.r, self.k, self.m);
        let x = mod_to_monty_seed_vartime(b, r, m);
        let acc = super::pow_binary(|a, c| mul_monty_seed_vartime(a, c, r, k, m), r, x, e);
        monty_to_mod_seed_vartime(acc, self.r_inv, m)
    }
}
