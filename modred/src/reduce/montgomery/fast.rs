//! `montgomery-fast`: modred's default Montgomery arithmetic (beyond the seeds), choosing the
//! kernel by size with thresholds from [`crate::tuning`]:
//! - k <= [`FIXED_CIOS_MAX_LIMBS`]: CIOS (seed 002 section 5) specialised at compile time for
//!   each k (const generics), so every loop is unrolled and t lives in registers;
//! - larger k: separated product and REDC (seed 000 Alg. 3) on the MULX/ADX row kernels, with
//!   Karatsuba multiplication and squaring from their thresholds.
//!
//! Constant time in both regimes (the final subtraction is masked; Karatsuba's sign branches only
//! occur above [`crate::tuning::KARATSUBA_THRESHOLD`] limbs and depend on operand values, so
//! for secrets above that size use `montgomery-cios` — see `is_constant_time`).

use super::{redc::redc, MontKernel, MontParams, Montgomery};
use crate::arith::{self, karatsuba_scratch_len, mul_basecase, sqr_basecase};
use crate::limb::{adc, mac, mask_if, mul_lo, sbb, Limb};
use crate::tuning::{FIXED_CIOS_MAX_LIMBS, KARATSUBA_SQR_THRESHOLD, KARATSUBA_THRESHOLD};

/// CIOS Montgomery product for a compile-time size N: `a b R^{-1} mod m` for `a, b < m`,
/// result `< m`. Same arithmetic as [`super::cios::cios`]; t[0..N] plus two top words kept in
/// locals. Invariant at the top of iteration i: t < 2m (so the second top word is 0).
/// Constant time. Reference: seed 002 section 5.
#[inline(always)]
pub fn cios_fixed<const N: usize>(
    a: &[Limb; N],
    b: &[Limb; N],
    m: &[Limb; N],
    n0: Limb,
) -> [Limb; N] {
    let mut t = [0 as Limb; N];
    let mut t_top: Limb = 0; // t[N]; t < 2m keeps it <= 1 between iterations
    for i in 0..N {
        let bi = b[i];
        let mut c = 0;
        for j in 0..N {
            (t[j], c) = mac(a[j], bi, t[j], c);
        }
        let (tn, tn1) = adc(t_top, c, 0);
        let mi = mul_lo(t[0], n0);
        let (_, mut c) = mac(mi, m[0], t[0], 0);
        for j in 1..N {
            (t[j - 1], c) = mac(mi, m[j], t[j], c);
        }
        let (s, c2) = adc(tn, c, 0);
        t[N - 1] = s;
        t_top = tn1 + c2;
        debug_assert!(t_top <= 1);
    }
    // Constant-time final subtraction: keep t if t < m (borrow out of t_top).
    let mut d = [0 as Limb; N];
    let mut borrow = 0;
    for j in 0..N {
        (d[j], borrow) = sbb(t[j], m[j], borrow);
    }
    let (_, keep_t) = sbb(t_top, borrow, 0);
    let mask = mask_if(keep_t);
    for j in 0..N {
        d[j] = (t[j] & mask) | (d[j] & !mask);
    }
    d
}

#[inline(always)]
fn fixed<const N: usize>(p: &MontParams, out: &mut [Limb], a: &[Limb], b: &[Limb]) {
    let a: &[Limb; N] = a.try_into().expect("operand length is k");
    let b: &[Limb; N] = b.try_into().expect("operand length is k");
    let m: &[Limb; N] = p.m.as_slice().try_into().expect("modulus length is k");
    out.copy_from_slice(&cios_fixed::<N>(a, b, m, p.n0));
}

/// Dispatch to the const-generic CIOS for k <= 16; returns false if k is larger.
/// Kept out of line so the large-k path does not carry the unrolled kernels' stack frame.
#[inline(never)]
fn mul_fixed(p: &MontParams, out: &mut [Limb], a: &[Limb], b: &[Limb]) -> bool {
    match p.k() {
        1 => fixed::<1>(p, out, a, b),
        2 => fixed::<2>(p, out, a, b),
        3 => fixed::<3>(p, out, a, b),
        4 => fixed::<4>(p, out, a, b),
        5 => fixed::<5>(p, out, a, b),
        6 => fixed::<6>(p, out, a, b),
        7 => fixed::<7>(p, out, a, b),
        8 => fixed::<8>(p, out, a, b),
        9 => fixed::<9>(p, out, a, b),
        10 => fixed::<10>(p, out, a, b),
        11 => fixed::<11>(p, out, a, b),
        12 => fixed::<12>(p, out, a, b),
        13 => fixed::<13>(p, out, a, b),
        14 => fixed::<14>(p, out, a, b),
        15 => fixed::<15>(p, out, a, b),
        16 => fixed::<16>(p, out, a, b),
        _ => return false,
    }
    true
}

/// Kernel of `montgomery-fast`.
pub struct Fast;

impl MontKernel for Fast {
    const NAME: &'static str = "montgomery-fast";
    const SUMMARY: &'static str =
        "default: unrolled const-size CIOS for small k, MULX/ADX product + REDC above (beyond the seeds)";
    fn scratch_len(k: usize) -> usize {
        2 * k + karatsuba_scratch_len(k)
    }
    fn is_constant_time(k: usize) -> bool {
        // Karatsuba (from its thresholds) branches on the signs of operand differences.
        k <= FIXED_CIOS_MAX_LIMBS || k < KARATSUBA_THRESHOLD.min(KARATSUBA_SQR_THRESHOLD)
    }
    #[inline]
    fn mul(p: &MontParams, out: &mut [Limb], a: &[Limb], b: &[Limb], scratch: &mut [Limb]) {
        let k = p.k();
        if k <= FIXED_CIOS_MAX_LIMBS && mul_fixed(p, out, a, b) {
            return;
        }
        let (t, rest) = scratch.split_at_mut(2 * k);
        if k < KARATSUBA_THRESHOLD {
            mul_basecase(t, a, b);
        } else {
            arith::mul_karatsuba(t, a, b, rest);
        }
        redc(out, t, &p.m, p.n0);
    }
    #[inline]
    fn sqr(p: &MontParams, out: &mut [Limb], a: &[Limb], scratch: &mut [Limb]) {
        let k = p.k();
        if k <= FIXED_CIOS_MAX_LIMBS && mul_fixed(p, out, a, a) {
            return;
        }
        let (t, rest) = scratch.split_at_mut(2 * k);
        if k < KARATSUBA_SQR_THRESHOLD {
            sqr_basecase(t, a);
        } else {
            arith::sqr_karatsuba(t, a, rest);
        }
        redc(out, t, &p.m, p.n0);
    }
}

/// The `montgomery-fast` reducer.
pub type MontgomeryFast = Montgomery<Fast>;
/// Its listing.
pub const INFO: crate::reduce::ReducerInfo = MontgomeryFast::INFO;
