//! `montgomery-fips`: Finely Integrated Product Scanning (Koç, Acar, Kaliski, *Analyzing and
//! Comparing Montgomery Multiplication Algorithms*, IEEE Micro 1996, §7; Kaliski's Z80180
//! method).
//!
//! Both a b and m n are formed column by column into a three-word accumulator (t0, t1, t2); the
//! i-th word of m is fixed when column i is complete, and the result words are written into the
//! same s-word array m in the second loop. 2s^2 + s multiplications, s + 3 words of space.

use super::{MontKernel, MontParams, Montgomery};
use crate::arith::sub_mod_final;
use crate::limb::{adc, mul_lo, mul_wide, Limb};

/// The three-word column accumulator (t0, t1, t2) of Koç–Acar–Kaliski 1996 §7.
struct Acc3(Limb, Limb, Limb);

impl Acc3 {
    /// acc += x * y: `(C,S) := t[0] + x*y; ADD(t[1], C)` with the ADD bounded to t1, t2.
    #[inline(always)]
    fn add_product(&mut self, x: Limb, y: Limb) {
        let (lo, hi) = mul_wide(x, y);
        let (t0, c) = adc(self.0, lo, 0);
        let (t1, c) = adc(self.1, hi, c);
        self.0 = t0;
        self.1 = t1;
        self.2 += c;
    }
    /// Shift one word right: t[0] := t[1]; t[1] := t[2]; t[2] := 0.
    #[inline(always)]
    fn shift(&mut self) {
        *self = Acc3(self.1, self.2, 0);
    }
}

/// FIPS Montgomery product `out = a b R^{-1} mod m` for `a, b < m`; `mw` has s limbs (the
/// paper's array m, holding first the reduction digits, then the result).
/// A column holds at most 2s products, so t2 < 2s and three words suffice for s < 2^63.
/// Output `< m`.
/// Leaks: nothing but the lengths (constant time). Reference: Koç–Acar–Kaliski 1996 §7.
pub(crate) fn fips(
    out: &mut [Limb],
    a: &[Limb],
    b: &[Limb],
    n: &[Limb],
    n0: Limb,
    mw: &mut [Limb],
) {
    let s = n.len();
    debug_assert!(a.len() == s && b.len() == s && mw.len() >= s);
    let mw = &mut mw[..s];
    let mut acc = Acc3(0, 0, 0);
    for i in 0..s {
        for j in 0..i {
            acc.add_product(a[j], b[i - j]);
            acc.add_product(mw[j], n[i - j]);
        }
        acc.add_product(a[i], b[0]);
        mw[i] = mul_lo(acc.0, n0);
        acc.add_product(mw[i], n[0]);
        debug_assert_eq!(acc.0, 0);
        acc.shift();
    }
    for i in s..2 * s {
        for j in i - s + 1..s {
            acc.add_product(a[j], b[i - j]);
            acc.add_product(mw[j], n[i - j]);
        }
        mw[i - s] = acc.0;
        acc.shift();
    }
    // The most significant bit is in t0; t1 and t2 are zero.
    debug_assert!(acc.0 <= 1 && acc.1 == 0 && acc.2 == 0);
    sub_mod_final(out, mw, acc.0, n);
}

/// Kernel: `fips`.
/// Leaks: nothing but the lengths (constant time).
pub struct Fips;

impl MontKernel for Fips {
    const NAME: &'static str = "montgomery-fips";
    const KIND: crate::reduce::ReducerKind = crate::reduce::ReducerKind::MontgomeryFips;
    const SUMMARY: &'static str = "Finely Integrated Product Scanning; Koç–Acar–Kaliski 1996 §7";
    fn scratch_len(k: usize) -> usize {
        k
    }
    fn mul(p: &MontParams, out: &mut [Limb], a: &[Limb], b: &[Limb], scratch: &mut [Limb]) {
        fips(out, a, b, &p.m, p.n0, scratch)
    }
}

/// The `montgomery-fips` reducer.
pub type MontgomeryFips = Montgomery<Fips>;
/// Its listing.
pub const INFO: crate::reduce::ReducerInfo = MontgomeryFips::INFO;
