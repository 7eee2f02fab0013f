//! Squaring using the symmetry of the product matrix (Lim, Hwang, Lee, *Fast Modular Reduction
//! With Precomputation*, JW-ISC '97, §1; Koç, Acar, Kaliski, *Analyzing and Comparing Montgomery
//! Multiplication Algorithms*, IEEE Micro 1996, §4):
//! x^2 = sum x_i^2 b^2i + 2 sum_{i<j} x_i x_j b^(i+j), about k(k+1)/2 multiplications.

use super::{abs_diff_for_sqr, addmul_1_portable, addmul_2_portable, mul_1_portable};
use crate::cpu::{self, Tier};
use crate::limb::{adc, mac, mul_wide, Limb};
use crate::tuning::TOOM4_SQR_THRESHOLD;

/// `r = a^2` by the symmetric schoolbook method: the off-diagonal products a_i a_j (i < j) are
/// accumulated once, then doubled and the diagonal squares a_i^2 added in one pass
/// (the "add first, then double" order Koç–Acar–Kaliski 1996 §4 suggests so no 2*a_i*a_j term
/// needs a third word). k(k-1)/2 + k = k(k+1)/2 multiplications. `r.len() == 2 * a.len()`.
/// Runs on the tier in use ([`cpu::tier`]).
/// Leaks: nothing but the lengths (constant time).
pub fn sqr_basecase(r: &mut [Limb], a: &[Limb]) {
    sqr_basecase_on(cpu::tier(), r, a)
}

/// [`sqr_basecase`] on the kernels of `tier` (from [`Tier::Adx`] on,
/// [`super::x86_64::sqr_basecase_adx`]). `tier` must come from [`cpu::tier`] or
/// [`cpu::cap`].
/// Leaks: nothing but the lengths and the tier (constant time).
pub(crate) fn sqr_basecase_on(tier: Tier, r: &mut [Limb], a: &[Limb]) {
    let n = a.len();
    debug_assert_eq!(r.len(), 2 * n);
    debug_assert!(tier <= cpu::detected());
    if n == 0 {
        return;
    }
    if cfg!(target_arch = "x86_64") && tier >= Tier::Adx {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the tier (at most the detected one) has BMI2 and ADX.
        unsafe {
            super::x86_64::sqr_basecase_adx(r, a)
        };
        return;
    }
    r.fill(0);
    // Off-diagonal triangle: row i adds a_i * a[i+1..] at position 2i+1.
    if n > 1 {
        r[n] = mul_1_portable(&mut r[1..n], &a[1..], a[0]);
        // Rows i and i + 1 together: a_i a_(i+1) at 2i + 1 alone, then a_i and a_(i+1) times
        // a[i+2..] at 2i + 2 by `addmul_2_portable` (the product's high limb as row a_i's carry
        // in); positions from n + i on are still zero, as that function's fresh top expects.
        let mut i = 1;
        while i + 2 < n {
            let (lo, hi) = mac(a[i], a[i + 1], r[2 * i + 1], 0);
            r[2 * i + 1] = lo;
            r[n + i + 1] =
                addmul_2_portable(&mut r[2 * i + 2..=n + i], &a[i + 2..], a[i], a[i + 1], hi);
            i += 2;
        }
        if i + 1 < n {
            r[n + i] = addmul_1_portable(&mut r[2 * i + 1..n + i], &a[i + 1..], a[i]);
        }
    }
    // Double the triangle and add the diagonal squares in one pass over the limb pairs
    // (2i, 2i + 1): `spill` is the bit the doubling moves out of the pair below, `c` the
    // addition's carry. The triangle is < b^(2n-1) * b / 2, so the doubling loses no bit, and
    // the sum is a^2 < b^(2n): both end at zero.
    let (mut spill, mut c) = (0, 0);
    for (pair, &ai) in r.chunks_exact_mut(2).zip(a) {
        let (lo, hi) = mul_wide(ai, ai);
        let (t0, t1) = (pair[0], pair[1]);
        (pair[0], c) = adc(t0 << 1 | spill, lo, c);
        (pair[1], c) = adc(t1 << 1 | t0 >> 63, hi, c);
        spill = t1 >> 63;
    }
    debug_assert!(spill == 0 && c == 0);
}

/// `r = a^2` by Karatsuba squaring: with w_M = (a_H - a_L)^2 >= 0,
/// `a^2 = w_H B^2h + (w_H + w_L - w_M) B^h + w_L`. `scratch.len() >=
/// karatsuba_scratch_len(n)`; from the tier's Toom-3 threshold ([`super::toom3_threshold`]) on,
/// and where the transform pays, it hands over to [`sqr`].
/// Runs on the tier in use ([`cpu::tier`]).
/// Leaks: variable time: the sign of a_H - a_L chooses a branch, and the carry and borrow
/// propagations stop early.
pub fn sqr_karatsuba(r: &mut [Limb], a: &[Limb], scratch: &mut [Limb]) {
    sqr_karatsuba_on(cpu::tier(), r, a, scratch)
}

/// [`sqr_karatsuba`] with its schoolbook squares on the kernels of `tier` (see
/// [`sqr_basecase_on`]).
/// Leaks: variable time, as [`sqr_karatsuba`].
pub(crate) fn sqr_karatsuba_on(tier: Tier, r: &mut [Limb], a: &[Limb], scratch: &mut [Limb]) {
    let n = a.len();
    debug_assert_eq!(r.len(), 2 * n);
    if n < super::karatsuba_threshold(tier, true).max(2) {
        return sqr_basecase_on(tier, r, a);
    }
    if n >= super::toom3_threshold(tier, true) || super::ntt::pays(n, true) {
        return sqr(r, a);
    }
    let h = n / 2;
    let hh = n - h;
    let (a_lo, a_hi) = a.split_at(h);
    // |a_H - a_L| (hh limbs) and w_M; the recombination needs no other scratch.
    let (da, rest) = scratch.split_at_mut(hh);
    let (wm, rest) = rest.split_at_mut(2 * hh);
    let rest = &mut rest[2..];
    abs_diff_for_sqr(da, a_hi, a_lo);
    sqr_karatsuba_on(tier, wm, da, rest);
    {
        let (r_lo, r_hi) = r.split_at_mut(2 * h);
        sqr_karatsuba_on(tier, r_lo, a_lo, rest);
        sqr_karatsuba_on(tier, r_hi, a_hi, rest);
    }
    super::mul::karatsuba_combine(r, h, wm, true);
}

/// [`sqr`] with Karatsuba's scratch supplied (`scratch.len() >=`
/// [`super::karatsuba_scratch_len`]`(n)`): the Karatsuba range runs in it without allocating
/// (the Toom pieces'); other sizes go through [`sqr`].
/// Leaks: as [`sqr`].
pub(crate) fn sqr_in(r: &mut [Limb], a: &[Limb], scratch: &mut [Limb]) {
    let (n, tier) = (a.len(), cpu::tier());
    if n >= super::karatsuba_threshold(tier, true)
        && n < super::toom3_threshold(tier, true)
        && !super::ntt::pays(n, true)
    {
        sqr_karatsuba(r, a, scratch)
    } else {
        sqr(r, a)
    }
}

/// `r = a^2` (`r.len() == 2 * a.len()`) by the method the size calls for: symmetric
/// schoolbook below the tier's Karatsuba squaring threshold ([`super::karatsuba_threshold`]);
/// above it the three-prime NTT where it pays on this CPU ([`super::ntt::pays`]: its dense
/// window can start below the Toom-3 threshold), else Karatsuba below the tier's Toom-3
/// threshold ([`super::toom3_threshold`]), Toom-3 up to [`TOOM4_SQR_THRESHOLD`] and Toom-4
/// from there. Allocates scratch.
/// Leaks: nothing but the length below that threshold and at NTT sizes; variable time between
/// them (the Karatsuba and Toom sign branches and early-exit carries).
pub fn sqr(r: &mut [Limb], a: &[Limb]) {
    let n = a.len();
    let tier = cpu::tier();
    if n < super::karatsuba_threshold(tier, true) {
        sqr_basecase(r, a)
    } else if super::ntt::pays(n, true) {
        super::ntt::sqr_ntt(r, a)
    } else if n < super::toom3_threshold(tier, true) {
        super::mul::with_karatsuba_scratch(n, |scratch| sqr_karatsuba(r, a, scratch))
    } else if n < TOOM4_SQR_THRESHOLD {
        super::toom::sqr_toom3(r, a)
    } else {
        super::toom4::sqr_toom4(r, a)
    }
}
