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
use crate::arith::{
    self, addmul_1_portable, addmul_2_portable, karatsuba_scratch_len, sub_mod_final,
};
use crate::limb::{adc, mul_lo, Limb};
use crate::tuning::MONT_SCHOOLBOOK_BELOW;

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
    if adx_rows(p) {
        // SAFETY: the context's tier (at most the detected one) has BMI2 and ADX; x has 2k
        // limbs.
        let top = unsafe { crate::arith::x86_64::redc_rows_adx(x, m, n0) };
        return sub_mod_final(out, &x[k..], top, m);
    }
    let mut top: Limb = 0;
    for i in 0..k {
        top = redc_row(x, i, m, n0, top);
    }
    // x/b^k + top b^k < 2m since x < mR and sum t_j m b^j < mR.
    sub_mod_final(out, &x[k..], top, m);
}

/// [`redc`] two rows at a time, for `montgomery-fast` (as GMP's `mpn_redc_2`): each pair of
/// rows i, i + 1 takes the two-limb quotient q = -(x_i + x_(i+1) b) m^{-1} mod b^2, which
/// zeroes both digits, and adds q m b^i in one pass (`arith::addmul_2_portable`: each x limb
/// loaded and stored once for two products, the two rows' carries independent); an odd k ends
/// with one single row. Invariant before the pair at i: value(x) + top b^(i+k) = x_original +
/// the rows so far, x[0..i] = 0, top <= 1. On the [`crate::cpu::Tier::Adx`] tier and above
/// (k >= 4) the MULX/ADX rows of [`redc`] run instead. Output `< m`; x (2k limbs, `< m R`)
/// is destroyed. About k^2 + 1.5k multiplications (`montgomery-redc` keeps the k(k+1) of
/// Bosselaers et al.).
/// Leaks: nothing but the lengths (constant time).
pub(crate) fn redc_two_rows(p: &MontParams, out: &mut [Limb], x: &mut [Limb]) {
    let (m, n0) = (p.m.as_slice(), p.n0);
    let k = m.len();
    debug_assert!(x.len() == 2 * k && out.len() == k);
    #[cfg(target_arch = "x86_64")]
    if adx_rows(p) {
        return redc(p, out, x);
    }
    let n2 = p.n0_2limbs;
    let mut top: Limb = 0;
    let mut i = 0;
    while i + 2 <= k {
        let q = (u128::from(x[i]) | u128::from(x[i + 1]) << 64).wrapping_mul(n2);
        let old = x[i + k];
        // x[i..=i+k] becomes x[i..i+k] + q m, its top limb written fresh (`old` added below).
        let h = addmul_2_portable(&mut x[i..=i + k], m, q as Limb, (q >> 64) as Limb, 0);
        debug_assert!(x[i] == 0 && x[i + 1] == 0);
        // Position i + k: that limb + old + top < 2b (one carry); position i + k + 1:
        // x + h + carry < 2b (one carry, the new top at i + k + 2).
        let (s, c1) = x[i + k].overflowing_add(old);
        let (s, c2) = s.overflowing_add(top);
        x[i + k] = s;
        let (s, d1) = x[i + k + 1].overflowing_add(h);
        let (s, d2) = s.overflowing_add(Limb::from(c1 | c2));
        x[i + k + 1] = s;
        top = Limb::from(d1 | d2);
        i += 2;
    }
    if i < k {
        top = redc_row(x, i, m, n0, top);
    }
    sub_mod_final(out, &x[k..], top, m);
}

/// The 2k-limb product `t = a b` (`b = None`: `a^2`) of k-limb operands for `montgomery-redc`
/// and the rows of `montgomery-fast`: schoolbook below [`MONT_SCHOOLBOOK_BELOW`] limbs on every tier
/// (so both reducers are constant time there whatever the tier), from it Karatsuba with the
/// tier's own thresholds inside (`arith::karatsuba_threshold`: the portable tier splits down
/// to 24-limb products and 48-limb squares, the MULX/ADX rows to 32 and 64).
/// Leaks: nothing but the lengths below [`MONT_SCHOOLBOOK_BELOW`] limbs; variable time from it
/// (Karatsuba's sign branches and early-exit carries).
pub(super) fn product(
    p: &MontParams,
    t: &mut [Limb],
    a: &[Limb],
    b: Option<&[Limb]>,
    scratch: &mut [Limb],
) {
    let tier = p.tier();
    match (b, a.len() < MONT_SCHOOLBOOK_BELOW) {
        (Some(b), true) => arith::mul_basecase_on(tier, t, a, b),
        (Some(b), false) => arith::mul_karatsuba_on(tier, t, a, b, scratch),
        (None, true) => arith::sqr_basecase_on(tier, t, a),
        (None, false) => arith::sqr_karatsuba_on(tier, t, a, scratch),
    }
}

/// Whether [`redc`] runs the MULX/ADX rows: k >= 4 on the [`crate::cpu::Tier::Adx`] tier or
/// above.
#[cfg(target_arch = "x86_64")]
fn adx_rows(p: &MontParams) -> bool {
    p.k() >= 4 && p.tier() >= crate::cpu::Tier::Adx
}

/// One portable REDC row: t = x_i n0 mod b, x[i..i+k] += t m (which zeroes x_i), the row's
/// carry and `top` (the carry the previous row left at position i + k) added at i + k; returns
/// the carry out of position i + k (0 or 1), which the next row adds one limb higher.
/// Leaks: nothing but the lengths (constant time).
fn redc_row(x: &mut [Limb], i: usize, m: &[Limb], n0: Limb, top: Limb) -> Limb {
    let k = m.len();
    let t = mul_lo(x[i], n0);
    let c = addmul_1_portable(&mut x[i..i + k], m, t);
    debug_assert_eq!(x[i], 0);
    let (s, carry) = adc(x[i + k], c, top);
    x[i + k] = s;
    carry
}

/// -m^{-1} mod b^2 from n0 = -m^{-1} mod b: one Newton step on the inverse doubles its
/// precision (inv (2 - m inv)).
pub(super) fn neg_inv_2limbs(m: &[Limb], n0: Limb) -> u128 {
    let m2 = u128::from(m[0]) | m.get(1).map_or(0, |&h| u128::from(h) << 64);
    let inv = u128::from(n0.wrapping_neg());
    let inv2 = inv.wrapping_mul(2u128.wrapping_sub(m2.wrapping_mul(inv)));
    debug_assert_eq!(m2.wrapping_mul(inv2), 1);
    inv2.wrapping_neg()
}

/// Kernel: full product by `arith::mul_karatsuba` / squaring, then `redc`.
/// Leaks: nothing but the lengths (constant time) below `crate::tuning::MONT_SCHOOLBOOK_BELOW`
/// limbs on every tier (see `product`); from it variable time: the Karatsuba and Toom-3
/// products branch on the signs of operand differences and stop their carry propagation when
/// the carry dies (the NTT products of the largest sizes branch on sizes only, but the kernel
/// does not claim constant time).
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
        k < MONT_SCHOOLBOOK_BELOW
    }
    fn mul(p: &MontParams, out: &mut [Limb], a: &[Limb], b: &[Limb], scratch: &mut [Limb]) {
        let k = p.k();
        let (t, rest) = scratch.split_at_mut(2 * k);
        product(p, t, a, Some(b), rest);
        redc(p, out, t);
    }
    fn sqr(p: &MontParams, out: &mut [Limb], a: &[Limb], scratch: &mut [Limb]) {
        let k = p.k();
        let (t, rest) = scratch.split_at_mut(2 * k);
        product(p, t, a, None, rest);
        redc(p, out, t);
    }
}

/// The `montgomery-redc` reducer.
pub type MontgomeryRedc = Montgomery<Redc>;
/// Its listing.
pub const INFO: crate::reduce::ReducerInfo = MontgomeryRedc::INFO;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cpu::{self, Tier};
    use crate::limb::xorshift64;
    use crate::reduce::montgomery::test_util::big;

    /// `redc_two_rows` against num-bigint on every tier the CPU has (the portable pairs below
    /// Adx, `redc`'s MULX/ADX rows from it), odd and even k around the row-length splits, with
    /// random, all-ones, top-limb-1, b^k + 1-shaped and 2-limb-inverse-stressing moduli, and
    /// x = 0, x < R, x = (m - 1) r, x = m R - 1 (the largest argument).
    #[test]
    fn redc_two_rows_matches_num_bigint() {
        let mut s = 0x5eed_2a0f_77c1_0b3d;
        let tiers = [Tier::Portable, Tier::Adx, Tier::Ifma];
        for tier in tiers.into_iter().filter(|&t| t <= cpu::detected()) {
            for k in [
                1, 2, 3, 4, 5, 6, 7, 8, 9, 16, 17, 63, 64, 65, 66, 67, 127, 128, 129, 130,
            ] {
                for case in 0..5 {
                    let mut m: Vec<Limb> = (0..k).map(|_| xorshift64(&mut s)).collect();
                    match case {
                        1 => m.fill(Limb::MAX),
                        2 => m[k - 1] = 1,
                        3 => {
                            m.fill(0);
                            m[0] = 1;
                            m[k - 1] |= 1;
                        }
                        4 => m[0] = Limb::MAX - 2,
                        _ => {}
                    }
                    m[0] |= 1;
                    if arith::trim(&m).len() < k {
                        continue;
                    }
                    let p = MontParams::with_tier(&m, tier);
                    let r: Vec<Limb> = (0..k).map(|_| xorshift64(&mut s)).collect();
                    let mut mm1 = m.clone();
                    arith::sub_1_in_place(&mut mm1, 1);
                    let mut largest = vec![0; 2 * k];
                    largest[k..].copy_from_slice(&m);
                    arith::sub_1_in_place(&mut largest, 1);
                    let mut product = vec![0; 2 * k];
                    arith::mul(&mut product, &mm1, &r);
                    let mut below_r = vec![0; 2 * k];
                    below_r[..k].copy_from_slice(&r);
                    for x in [vec![0; 2 * k], below_r, product, largest] {
                        let mut work = x.clone();
                        let mut out = vec![Limb::MAX; k];
                        redc_two_rows(&p, &mut out, &mut work);
                        let (got, mb) = (big(&out), big(&m));
                        assert!(got < mb, "{tier} k={k} case={case}: not reduced");
                        assert_eq!(
                            (got << (64 * k)) % &mb,
                            big(&x) % &mb,
                            "{tier} k={k} case={case}"
                        );
                    }
                }
            }
        }
    }
}
