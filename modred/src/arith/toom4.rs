//! Toom-Cook 4-way multiplication and squaring (Toom 1963, Cook 1966) with the evaluation
//! points 0, 1, -1, 2, -2, 1/2 and ∞ (the set Bodrato and Zanoni, "Integer and polynomial
//! multiplication: towards optimal Toom-Cook matrices", ISSAC 2007, give for Toom-4), and an
//! interpolation through the even and odd parts of the product polynomial.
//!
//! An n-limb operand is cut into four pieces of s = ceil(n/4) limbs (the top one t = n - 3s
//! limbs): a(x) = a3 x^3 + a2 x^2 + a1 x + a0 at x = B^s. The product c(x) = a(x) b(x) has
//! seven coefficients, found from seven products of about s limbs: 7 products of n/4 limbs
//! against Toom-3's 5 of n/3, so the cost grows like n^1.404 (Toom-3: n^1.465).
//!
//! Interpolation. With E = c0 + c2 + c4 + c6 and O = c1 + c3 + c5, c(±1) = E ± O; likewise
//! c(±2) gives c0 + 4c2 + 16c4 + 64c6 and c1 + 4c3 + 16c5, and 64 c(1/2) = 64c0 + 32c1 + 16c2 +
//! 8c3 + 4c4 + 2c5 + c6. With c0 and c6 known, the even coefficients follow from two equations
//! (c2 + c4, 4c2 + 16c4) and the odd ones from three (c1 + c3 + c5, c1 + 4c3 + 16c5,
//! 16c1 + 4c3 + c5), by exact divisions by 2, 3 and 5 ([`interpolate`]).

use super::toom::{
    add_exact, divexact_by, half, halve_reversed_difference, halve_sum, mul_evaluations, recompose,
    shl_add, sqr_evaluation, sub_exact,
};
use super::{add_n, cmp_n, karatsuba_scratch_len, mul_n_in, shr_in_place, sqr_in, with_scratch};
use super::{sub_1_in_place, sub_n, submul_1, trim};
use crate::limb::Limb;

/// Whether an n-limb operand splits four ways with a non-empty top piece, t = n - 3 ceil(n/4)
/// at least 1: every n >= 10, and below it 4, 7 and 8 (not 5, 6 and 9).
pub fn splits(n: usize) -> bool {
    n >= 4 && n > 3 * n.div_ceil(4)
}

/// `(x + y, |x - y|)` into `sum` and `diff` (all of one length, the sum fits); returns whether
/// x < y.
/// Leaks: variable time (the comparison chooses a branch).
pub(super) fn plus_minus(sum: &mut [Limb], diff: &mut [Limb], x: &[Limb], y: &[Limb]) -> bool {
    let neg = cmp_n(x, y).is_lt();
    if neg {
        sub_n(diff, y, x);
    } else {
        sub_n(diff, x, y);
    }
    let carry = add_n(sum, x, y);
    debug_assert_eq!(carry, 0, "toom4: evaluation overflow");
    neg
}

/// The evaluations of a = a3 x^3 + a2 x^2 + a1 x + a0 at 1, -1, 2, -2 and 8 a(1/2) =
/// 8a0 + 4a1 + 2a2 + a3, each `s + 1` limbs, into the five consecutive pieces of `out`;
/// `tmp` holds 2 (s + 1) limbs. Returns whether a(-1) and a(-2) are negative (their absolute
/// values are stored). Bounds: a(1) < 4 B^s, a(2) and 8 a(1/2) < 15 B^s, so s + 1 limbs hold
/// every value.
/// Leaks: variable time: comparisons choose branches, and [`add_exact`]'s early exits.
fn evaluate(a: &[Limb], s: usize, out: &mut [Limb], tmp: &mut [Limb]) -> (bool, bool) {
    let (a0, rest) = a.split_at(s);
    let (a1, rest) = rest.split_at(s);
    let (a2, a3) = rest.split_at(s);
    let (x, y) = tmp.split_at_mut(s + 1);
    let (at1, rest) = out.split_at_mut(s + 1);
    let (atm1, rest) = rest.split_at_mut(s + 1);
    let (at2, rest) = rest.split_at_mut(s + 1);
    let (atm2, ath) = rest.split_at_mut(s + 1);
    // Even part a0 + a2 and odd part a1 + a3 at x = 1.
    x[s] = shl_add::<0, 0>(&mut x[..s], a0, a2);
    y[s] = shl_add::<0, 0>(&mut y[..s], a1, a3);
    let neg1 = plus_minus(at1, atm1, x, y);
    // At x = 2: a0 + 4a2 (< 5 B^s) and 2a1 + 8a3 (< 10 B^s).
    x[s] = shl_add::<0, 2>(&mut x[..s], a0, a2);
    y[s] = shl_add::<1, 3>(&mut y[..s], a1, a3);
    let neg2 = plus_minus(at2, atm2, x, y);
    // 8 a(1/2) = (8a0 + 2a2) + (4a1 + a3).
    ath[s] = shl_add::<3, 1>(&mut ath[..s], a0, a2);
    y[s] = shl_add::<2, 0>(&mut y[..s], a1, a3);
    add_exact(ath, y);
    (neg1, neg2)
}

/// The scratch of one Toom-4 call: evaluations for two operands (2 x 5 (s + 1) limbs, plus
/// 2 (s + 1) temporary), the five middle products (5 (2s + 2) limbs) and the Karatsuba scratch
/// of the seven products (of at most s limbs); every part is written before it is read.
fn scratch_len(s: usize) -> usize {
    12 * (s + 1) + 5 * (2 * s + 2) + karatsuba_scratch_len(s)
}

/// `r = a * b` for equal lengths n that [`splits`] (every n >= 10 does) by Toom-4 (module
/// docs), the seven products by [`mul_n_in`] (so by whichever method their size calls for);
/// `r.len() == 2n`. Its scratch comes from [`with_scratch`].
/// Leaks: variable time: the signs of a(-1) b(-1) and a(-2) b(-2) choose branches, the
/// evaluation and interpolation's early-exit carries, and the seven products' own.
pub fn mul_toom4(r: &mut [Limb], a: &[Limb], b: &[Limb]) {
    let n = a.len();
    debug_assert!(splits(n) && b.len() == n && r.len() == 2 * n);
    let s = n.div_ceil(4);
    with_scratch(scratch_len(s), |scratch| {
        let (e, rest) = scratch.split_at_mut(12 * (s + 1));
        let (v, k) = rest.split_at_mut(5 * (2 * s + 2));
        let (ea, rest) = e.split_at_mut(5 * (s + 1));
        let (eb, tmp) = rest.split_at_mut(5 * (s + 1));
        let (neg_a1, neg_a2) = evaluate(a, s, ea, tmp);
        let (neg_b1, neg_b2) = evaluate(b, s, eb, tmp);
        let w = 2 * s + 2;
        for (i, vi) in v.chunks_exact_mut(w).enumerate() {
            let at = i * (s + 1)..(i + 1) * (s + 1);
            mul_evaluations(vi, &ea[at.clone()], &eb[at], k);
        }
        let (r_lo, r_hi) = r.split_at_mut(6 * s);
        mul_n_in(&mut r_lo[..2 * s], &a[..s], &b[..s], k);
        mul_n_in(r_hi, &a[3 * s..], &b[3 * s..], k);
        interpolate(r, s, v, neg_a1 != neg_b1, neg_a2 != neg_b2);
    })
}

/// `r = a^2` by Toom-4 squaring (seven squares of about n/4 limbs by [`super::sqr()`]); n
/// [`splits`], `r.len() == 2n`. Its scratch comes from [`with_scratch`].
/// Leaks: variable time, as [`mul_toom4`].
pub fn sqr_toom4(r: &mut [Limb], a: &[Limb]) {
    let n = a.len();
    debug_assert!(splits(n) && r.len() == 2 * n);
    let s = n.div_ceil(4);
    with_scratch(scratch_len(s), |scratch| {
        let (e, rest) = scratch.split_at_mut(12 * (s + 1));
        let (v, k) = rest.split_at_mut(5 * (2 * s + 2));
        let (ea, rest) = e.split_at_mut(5 * (s + 1));
        evaluate(a, s, ea, &mut rest[5 * (s + 1)..]);
        let w = 2 * s + 2;
        for (i, vi) in v.chunks_exact_mut(w).enumerate() {
            sqr_evaluation(vi, &ea[i * (s + 1)..(i + 1) * (s + 1)], k);
        }
        let (r_lo, r_hi) = r.split_at_mut(6 * s);
        sqr_in(&mut r_lo[..2 * s], &a[..s], k);
        sqr_in(r_hi, &a[3 * s..], k);
        interpolate(r, s, v, false, false);
    })
}

/// `r -= c y` for a result known to be non-negative (`y` trimmed no longer than `r`).
/// Leaks: variable time: `y`'s leading zero limbs, and the borrow propagation stops early.
pub(super) fn submul_exact(r: &mut [Limb], y: &[Limb], c: Limb) {
    let y = trim(y);
    let (lo, hi) = r.split_at_mut(y.len());
    let borrow = submul_1(lo, y, c);
    let out = sub_1_in_place(hi, borrow);
    debug_assert_eq!(out, 0, "toom4: negative intermediate");
}

/// `(vp, vm) = (c(p), |c(-p)|)` (c(-p) negative iff `neg`) becomes `(c(p) + c(-p)) / 2` and
/// `(c(p) - c(-p)) / 2`: the even and the odd part of c at p.
/// Leaks: variable time: `neg` chooses a branch, and the carries' early exits.
pub(super) fn even_odd(vp: &mut [Limb], vm: &mut [Limb], neg: bool) {
    if neg {
        halve_sum(vm, vp);
    } else {
        halve_reversed_difference(vm, vp);
    }
    sub_exact(vp, vm);
}

/// Interpolation and recomposition. On entry `r[..2s]` = c0 = c(0), `r[6s..]` = c6 = c(∞),
/// and `v` holds c(1), |c(-1)|, c(2), |c(-2)| and 64 c(1/2), 2s + 2 limbs each (`neg1`,
/// `neg2`: the signs of c(-1), c(-2)). Every c_i is non-negative and every intermediate below
/// is a non-negative combination of them (noted in the comments), so no step borrows, and
/// the divisions are exact. Bounds: c_i < 4 B^(2s) and the largest intermediate, 64 c(1/2) or
/// 5 (c1 + c3 + c5), is below 2^8 B^(2s), so 2s + 2 limbs hold each.
/// Leaks: variable time: the signs choose branches, and the carries' early exits.
fn interpolate(r: &mut [Limb], s: usize, v: &mut [Limb], neg1: bool, neg2: bool) {
    let w = 2 * s + 2;
    let (v1, rest) = v.split_at_mut(w);
    let (vm1, rest) = rest.split_at_mut(w);
    let (v2, rest) = rest.split_at_mut(w);
    let (vm2, vh) = rest.split_at_mut(w);
    {
        let (c0, rest) = r.split_at(2 * s);
        let c6 = &rest[4 * s..];
        // v1 = c0 + c2 + c4 + c6, vm1 = c1 + c3 + c5.
        even_odd(v1, vm1, neg1);
        // v2 = c0 + 4c2 + 16c4 + 64c6, vm2 = 2c1 + 8c3 + 32c5, then c1 + 4c3 + 16c5.
        even_odd(v2, vm2, neg2);
        half(vm2);
        // v1 = c2 + c4.
        sub_exact(v1, c0);
        sub_exact(v1, c6);
        // v2 = 4c2 + 16c4, then (v2 - 4 v1) / 12 = c4.
        sub_exact(v2, c0);
        submul_exact(v2, c6, 64);
        submul_exact(v2, v1, 4);
        let out = shr_in_place(v2, 2);
        debug_assert_eq!(out, 0);
        divexact_by(v2, 3);
        // v1 = c2.
        sub_exact(v1, v2);
        // vh = 64 c(1/2) - 64c0 - 16c2 - 4c4 - c6 = 32c1 + 8c3 + 2c5, halved.
        submul_exact(vh, c0, 64);
        submul_exact(vh, v1, 16);
        submul_exact(vh, v2, 4);
        sub_exact(vh, c6);
        half(vh);
    }
    // vm2 = (c1 + 4c3 + 16c5 - (c1 + c3 + c5)) / 3 = c3 + 5c5.
    sub_exact(vm2, vm1);
    divexact_by(vm2, 3);
    // vh = (16c1 + 4c3 + c5 - (c1 + c3 + c5)) / 3 = 5c1 + c3.
    sub_exact(vh, vm1);
    divexact_by(vh, 3);
    // vm1 = (5 (c1 + c3 + c5) - (c3 + 5c5) - (5c1 + c3)) / 3 = c3.
    let c = super::mul_1_in_place(vm1, 5);
    debug_assert_eq!(c, 0);
    sub_exact(vm1, vm2);
    sub_exact(vm1, vh);
    divexact_by(vm1, 3);
    // vm2 = (c3 + 5c5 - c3) / 5 = c5; vh = (5c1 + c3 - c3) / 5 = c1.
    sub_exact(vm2, vm1);
    divexact_by(vm2, 5);
    sub_exact(vh, vm1);
    divexact_by(vh, 5);
    // r = c0 + c1 x + ... + c6 x^6, x = B^s.
    recompose(r, s, &[vh, v1, vm1, v2, vm2]);
}
