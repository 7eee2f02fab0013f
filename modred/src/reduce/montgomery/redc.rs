//! `montgomery-redc`: separated multiplication and word-by-word Montgomery reduction.
//!
//! The reduction is Algorithm 3 of Bosselaers, Govaerts, Vandewalle, *Comparison of three
//! modular reduction functions*, CRYPTO '93 / Fig. 3 of Lim, Hwang, Lee, *Fast Modular
//! Reduction With Precomputation*, JW-ISC '97 (Dusse-Kaliski): for i = 0..k,
//! t_i = x_i n'0 mod b and x += t_i m b^i, which zeroes digit i; then x / b^k < 2m and one
//! conditional subtraction finishes. k(k+1) multiplications (Bosselaers et al. 1993, Table 1).
//! The product uses the general multiplication (`crate::arith::mul`, Karatsuba from its
//! threshold) and squaring, so at large sizes this beats the integrated products of Koç, Acar,
//! Kaliski, *Analyzing and Comparing Montgomery Multiplication Algorithms*, IEEE Micro 1996.

use super::{MontKernel, MontParams, Montgomery};
use crate::arith::{self, addmul_1_portable, karatsuba_scratch_len, sub_mod_final};
use crate::limb::{adc, mul_lo, Limb};

/// Montgomery reduction: `out = x R^{-1} mod m` for `x < m R`, x of 2k limbs (destroyed), with
/// m, `n0 = -m^{-1} mod b` and the kernel tier from `p` (the MULX/ADX rows from
/// [`crate::cpu::Tier::Adx`] when k >= 4). Output `< m`.
///
/// Instead of a carry-propagating ADD (Koç–Acar–Kaliski 1996 §4; variable time), the carry out
/// of row i is kept in `top` and added at position i+k+1 by row i+1: invariant after row i,
/// value(x) + top * b^(i+k+1) = x_original + sum_{j<=i} t_j m b^j, and x[0..=i] = 0.
/// Leaks: nothing but the lengths (constant time). Reference: Bosselaers et al. 1993, Alg. 3.
pub(crate) fn redc(p: &MontParams, out: &mut [Limb], x: &mut [Limb]) {
    let (m, n0) = (p.m.as_slice(), p.n0);
    let k = m.len();
    debug_assert!(x.len() == 2 * k && out.len() == k);
    #[cfg(target_arch = "x86_64")]
    if k >= 4 && p.tier() >= crate::cpu::Tier::Adx {
        // SAFETY: the context's tier (at most the detected one) has BMI2 and ADX; x has 2k
        // limbs.
        let top = unsafe { crate::arith::x86_64::redc_rows_adx(x, m, n0) };
        return sub_mod_final(out, &x[k..], top, m);
    }
    let mut top: Limb = 0;
    for i in 0..k {
        let t = mul_lo(x[i], n0);
        let c = addmul_1_portable(&mut x[i..i + k], m, t);
        debug_assert_eq!(x[i], 0);
        (x[i + k], top) = adc(x[i + k], c, top);
    }
    // x/b^k + top b^k < 2m since x < mR and sum t_j m b^j < mR.
    sub_mod_final(out, &x[k..], top, m);
}

/// Kernel: full product by `arith::mul_karatsuba` / squaring, then `redc`.
/// Leaks: nothing but the lengths (constant time) below `crate::tuning::KARATSUBA_THRESHOLD`
/// limbs; from it variable time: the Karatsuba and Toom-3 products branch on the signs of
/// operand differences and stop their carry propagation when the carry dies (the NTT products
/// of the largest sizes branch on sizes only, but the kernel does not claim constant time).
pub struct Redc;

impl MontKernel for Redc {
    const NAME: &'static str = "montgomery-redc";
    const KIND: crate::reduce::ReducerKind = crate::reduce::ReducerKind::MontgomeryRedc;
    const SUMMARY: &'static str =
        "product (Karatsuba when large) then word-by-word REDC; Bosselaers et al. 1993 Alg. 3, Lim–Hwang–Lee 1997 Fig. 3";
    fn scratch_len(k: usize) -> usize {
        2 * k + karatsuba_scratch_len(k)
    }
    fn is_constant_time(k: usize) -> bool {
        // Karatsuba branches on the signs of operand differences.
        k < crate::tuning::KARATSUBA_THRESHOLD.min(crate::tuning::KARATSUBA_SQR_THRESHOLD)
    }
    fn mul(p: &MontParams, out: &mut [Limb], a: &[Limb], b: &[Limb], scratch: &mut [Limb]) {
        let k = p.k();
        let (t, rest) = scratch.split_at_mut(2 * k);
        arith::mul_karatsuba_on(p.tier(), t, a, b, rest);
        redc(p, out, t);
    }
    fn sqr(p: &MontParams, out: &mut [Limb], a: &[Limb], scratch: &mut [Limb]) {
        let k = p.k();
        let (t, rest) = scratch.split_at_mut(2 * k);
        arith::sqr_karatsuba_on(p.tier(), t, a, rest);
        redc(p, out, t);
    }
}

/// The `montgomery-redc` reducer.
pub type MontgomeryRedc = Montgomery<Redc>;
/// Its listing.
pub const INFO: crate::reduce::ReducerInfo = MontgomeryRedc::INFO;
