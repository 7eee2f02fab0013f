//! Short products: the low n limbs of an n-by-n product, `a b mod B^n` (beyond the source
//! papers; GMP's `mpn_mullo_n`). Montgomery's quotient q = (x mod R) m' mod R is one
//! (`reduce::montgomery::redc_n`).
//!
//! Below [`dc_threshold`] limbs the schoolbook rows stop at limb n (a triangle: about
//! n^2 / 2 limb products). From it, divide and conquer (T. Mulders, "On short multiplications
//! and divisions", AAECC 11, 2000, §2; GMP's `mpn_mullo_n` takes the same splits): with
//! a = a0 + a1 B^l, b = b0 + b1 B^l and h = n - l limbs in the high parts,
//! a b mod B^n = a0 b0 + B^l (a1 b0 + a0 b1 mod B^h) mod B^n: one full product of l limbs
//! ([`super::mul_n`]) and two short products of h limbs. Splitting at half would cost a whole
//! product once the full one is Karatsuba (M(n/2) = M(n)/3 and the recursion sums to M(n));
//! Mulders' split keeps the full product at about beta n with beta the optimum for the product
//! algorithm it runs on ([`high_len`]): 0.694 for Karatsuba (the short product then costs
//! about 0.81 M(n)), 0.775 for Toom-3, 0.821 for Toom-4, 0.9 for the transform.

use super::{add_n_in_place, addmul_1, karatsuba_threshold, mul_1, mul_n, ntt, toom3_threshold};
use crate::cpu::{self, Tier};
use crate::limb::Limb;
use crate::tuning::{
    KARATSUBA_THRESHOLD, KARATSUBA_THRESHOLD_PORTABLE, MULLO_DC_THRESHOLD,
    MULLO_DC_THRESHOLD_PORTABLE, TOOM4_THRESHOLD,
};

/// `r = a b mod B^n` for `n = r.len() = a.len() = b.len() >= 1`. Allocates the scratch of
/// [`mullo_n_with`] (none below [`dc_threshold`]).
/// Leaks: nothing but n below [`dc_threshold`] (schoolbook rows); from it the full
/// products' variable time (Karatsuba's sign branches, see [`super::mul_n`]).
pub fn mullo_n(r: &mut [Limb], a: &[Limb], b: &[Limb]) {
    mullo_n_with(r, a, b, &mut vec![0; scratch_len(r.len())]);
}

/// The scratch [`mullo_n_with`] needs for n limbs: the full product of each level (2l limbs)
/// and the level below, which runs in its first h limbs' place.
pub(crate) fn scratch_len(n: usize) -> usize {
    if n < dc_threshold() {
        0
    } else {
        let h = high_len(n);
        2 * (n - h) + scratch_len(h)
    }
}

/// [`mullo_n`] on `scratch` of at least [`scratch_len`]`(n)` limbs (its contents are
/// overwritten).
/// Leaks: as [`mullo_n`].
pub(crate) fn mullo_n_with(r: &mut [Limb], a: &[Limb], b: &[Limb], scratch: &mut [Limb]) {
    let n = r.len();
    debug_assert!(n >= 1 && a.len() == n && b.len() == n && scratch.len() >= scratch_len(n));
    if n < dc_threshold() {
        return mullo_basecase(r, a, b);
    }
    let h = high_len(n);
    let l = n - h;
    debug_assert!(1 <= h && h <= l);
    let (full, below) = scratch.split_at_mut(2 * l);
    mul_n(full, &a[..l], &b[..l]);
    r.copy_from_slice(&full[..n]);
    // The cross terms land on limbs l..n: two short products of h <= l limbs each; their
    // carries out of limb n are dropped (mod B^n).
    let cross = &mut full[..h];
    mullo_n_with(cross, &a[l..], &b[..h], below);
    add_n_in_place(&mut r[l..], cross);
    mullo_n_with(cross, &a[..h], &b[l..], below);
    add_n_in_place(&mut r[l..], cross);
}

/// The size (limbs) from which [`mullo_n`] splits on the tier in use: [`MULLO_DC_THRESHOLD`], or
/// [`MULLO_DC_THRESHOLD_PORTABLE`] on the portable tier.
pub(crate) fn dc_threshold() -> usize {
    match cpu::tier() {
        Tier::Portable => MULLO_DC_THRESHOLD_PORTABLE,
        _ => MULLO_DC_THRESHOLD,
    }
}

/// The length h of the high parts [`mullo_n`] splits n limbs into (Mulders' split: the full
/// product is of l = n - h limbs), by the algorithm [`mul_n`] runs the full product with on the
/// tier in use: half while it is schoolbook (quadratic: no split beats the triangle), else
/// h = (1 - beta) n with beta the optimum Mulders gives for that algorithm's exponent (GMP's
/// `mpn_mullo_n` uses the same fractions: 11/36, 9/40, 7/39, 1/10); for Karatsuba the full
/// product's length is rounded down to a multiple of 8 (at 128 limbs 88, not 89).
fn high_len(n: usize) -> usize {
    // The rounding below keeps l >= n / 2 for l >= 24 only.
    const _: () = assert!(KARATSUBA_THRESHOLD >= 24 && KARATSUBA_THRESHOLD_PORTABLE >= 24);
    let tier = cpu::tier();
    let full_len = |num: usize, den: usize| n - n * num / den;
    if full_len(11, 36) < karatsuba_threshold(tier, false) {
        n / 2
    } else if full_len(11, 36) < toom3_threshold(tier, false) {
        // The Karatsuba product's length rounded down to a multiple of 8, so that its halves
        // are equal and of a multiple of 4 limbs (the adx tier's three-pass recombination, and
        // no odd split on any tier). From 24 limbs (every tier's Karatsuba threshold) it stays
        // at least n / 2, as the recursion needs.
        let rounded = full_len(11, 36) / 8 * 8;
        debug_assert!(2 * rounded >= n);
        n - rounded
    } else if ntt::pays(full_len(1, 10), false) {
        n / 10
    } else if full_len(9, 40) < TOOM4_THRESHOLD {
        n * 9 / 40
    } else {
        n * 7 / 39
    }
}

/// [`mullo_n`] by schoolbook rows: row i adds a[..n-i] b_i at limb i, each row's carry out
/// of limb n dropped. n (n + 1) / 2 limb products.
/// Leaks: nothing but n (constant time).
fn mullo_basecase(r: &mut [Limb], a: &[Limb], b: &[Limb]) {
    let n = r.len();
    #[cfg(target_arch = "x86_64")]
    if super::adx_row(n) {
        // SAFETY: the tier in use has BMI2 and ADX.
        return unsafe { super::x86_64::mullo_basecase_adx(r, a, b) };
    }
    mul_1(r, a, b[0]);
    for i in 1..n {
        addmul_1(&mut r[i..], &a[..n - i], b[i]);
    }
}
