//! Toom-Cook k-way multiplication and squaring for k = 6 and 8 (Toom 1963, Cook 1966) with the
//! integer evaluation points 0, ∞, ±1, ..., ±(k - 2) and k - 1, and an interpolation that
//! solves the even and the odd part of the product polynomial separately, each by Newton's
//! divided differences (Knuth, TAOCP vol. 2, 4.6.4, "Interpolation").
//!
//! An n-limb operand is cut into k pieces of s = ceil(n/k) limbs (the top one t = n - (k-1)s
//! limbs): a(x) = sum a_i x^i at x = B^s. The product c(x) = a(x) b(x) has 2k - 1 coefficients,
//! found from 2k - 1 products of about s limbs: 11 products of n/6 limbs (cost growing like
//! n^1.338) or 15 of n/8 (n^1.302), against Toom-4's 7 of n/4 (n^1.404).
//!
//! Interpolation. With y = x^2, c(x) = E(y) + x O(y), E(y) = c0 + c2 y + ... + c_(2k-2) y^(k-1)
//! and O(y) = c1 + c3 y + ... + c_(2k-3) y^(k-2). A pair ±x gives E(x^2) and O(x^2); c0 = c(0)
//! and c_(2k-2) = c(∞) are products of their own, so the k - 2 pairs give the k - 2 middle even
//! coefficients (a polynomial of degree k - 3 in y, (E(y) - c0 - c_(2k-2) y^(k-1)) / y, known
//! at k - 2 points). The odd part, of degree k - 2, takes one point more: c(k - 1) less the now
//! known E((k - 1)^2). Both are solved the same way ([`newton`]): divided differences, then the
//! Newton form multiplied out. Every point y is positive and every coefficient non-negative, so
//! with the points in increasing order every divided difference, and every coefficient of each
//! partial product of the Newton form, is a non-negative integer: no step borrows, every
//! division is exact.
//!
//! Not in `mul_n`'s dispatch yet: on the portable tier (Intel Xeon, family 6 model 167, a
//! throwaway example at opt-level 2, medians of 7 interleaved rounds) Toom-6 / Toom-4 measured
//! 1.06, 1.00, 0.97, 1.00, 0.98 for products of 600, 800, 1000, 1400 and 1600 limbs (squares
//! 1.10, 1.06, 1.01, 0.98, 1.05), Toom-8 / Toom-4 1.11, 1.05, 1.01, 0.99, 0.98 (squares 1.23,
//! 1.12, 1.06, 0.93, 1.07): the interpolation's subtractions and exact divisions (`perf` of a
//! 1600-limb comparison run: 11% of all samples, Toom-4 and GMP included) cost what the
//! smaller products save.

use super::toom::{add_exact, divexact_by, recompose, sub_exact};
use super::toom4::{even_odd, plus_minus, submul_exact};
use super::{mul_1_in_place, mul_n, shr_in_place, sqr as sqr_n};
use crate::limb::Limb;

/// Whether an n-limb operand splits k ways with a non-empty top piece: n > (k - 1) ceil(n/k)
/// (every n > (k - 1)^2 does).
pub fn splits(n: usize, k: usize) -> bool {
    n >= k && n > (k - 1) * n.div_ceil(k)
}

/// `x /= d` in place for an `x` divisible by `d >= 1`: a shift for d's power of two, then
/// [`divexact_by`] for odd parts dividing B - 1, else a Hensel division (Jebelean, "An
/// algorithm for exact division", J. Symbolic Comput. 1993): q_i = (x_i - borrow) d^-1 mod B.
/// Loop invariant: the limbs of q below i times d equal x's below i, less borrow B^i.
/// Leaks: nothing but the length and d (constant time).
fn divexact(x: &mut [Limb], d: Limb) {
    debug_assert!(d > 0);
    let z = d.trailing_zeros();
    if z > 0 {
        let out = shr_in_place(x, z);
        debug_assert_eq!(out, 0, "toom_k: inexact division");
    }
    let odd = d >> z;
    if odd == 1 {
        return;
    }
    if Limb::MAX % odd == 0 {
        return divexact_by(x, odd);
    }
    let inv = crate::limb::neg_inv_newton(odd).wrapping_neg();
    let mut borrow = 0;
    for xi in x.iter_mut() {
        let (t, under) = xi.overflowing_sub(borrow);
        let q = t.wrapping_mul(inv);
        *xi = q;
        borrow = crate::limb::mac(q, odd, 0, 0).1 + under as Limb;
    }
    debug_assert_eq!(borrow, 0, "toom_k: inexact division");
}

/// `p *= y` for a product known to fit.
/// Leaks: nothing but the length (constant time).
fn scale(p: &mut [Limb], y: Limb) {
    let out = mul_1_in_place(p, y);
    debug_assert_eq!(out, 0, "toom_k: intermediate overflow");
}

/// `acc` = sum c_i y^i by Horner's rule, the coefficients c_i given from the highest down
/// (`from_top`); the value fits `acc`.
/// Leaks: variable time: [`add_exact`]'s early exits.
fn horner<'a>(acc: &mut [Limb], from_top: impl IntoIterator<Item = &'a [Limb]>, y: Limb) {
    let mut coeffs = from_top.into_iter();
    acc.fill(0);
    if let Some(c) = coeffs.next() {
        acc[..c.len()].copy_from_slice(c);
    }
    for c in coeffs {
        scale(acc, y);
        add_exact(acc, c);
    }
}

/// The polynomial with values `vals[i]` at the increasing positive points `ys[i]`, in place:
/// on return `vals[j]` holds the coefficient of y^j. Divided differences first (level l:
/// vals[i] = (vals[i] - vals[i-1]) / (ys[i] - ys[i-l]) for i from the top down), then the
/// Newton form d0 + (y - y0)(d1 + (y - y1)(d2 + ...)) multiplied out from the inside:
/// Q_i = d_i + (y - y_i) Q_(i+1), each Q_i the quotient of Q_(i-1) by y - y_(i-1), so (for a
/// polynomial with non-negative coefficients) with non-negative coefficients itself.
/// Leaks: variable time: [`sub_exact`] and [`submul_exact`]'s early exits.
fn newton(vals: &mut [&mut [Limb]], ys: &[Limb]) {
    let m = vals.len();
    debug_assert!(ys.len() == m && ys.windows(2).all(|w| w[0] < w[1]));
    for l in 1..m {
        for i in (l..m).rev() {
            let (lo, hi) = vals.split_at_mut(i);
            sub_exact(hi[0], lo[i - 1]);
            divexact(hi[0], ys[i] - ys[i - l]);
        }
    }
    for i in (0..m - 1).rev() {
        for j in i..m - 1 {
            let (lo, hi) = vals.split_at_mut(j + 1);
            submul_exact(lo[j], hi[0], ys[i]);
        }
    }
}

/// The evaluations of a (k pieces of s limbs) at 1, -1, 2, -2, ..., k - 2, -(k - 2) and k - 1,
/// `s + 1` limbs each, into the consecutive pieces of `out`; `tmp` holds 2 (s + 1) limbs.
/// Returns whether each a(-x) is negative (its absolute value is stored). Bound: a(x) <
/// x^k / (x - 1) B^s <= 2^21 B^s for x <= 7, so s + 1 limbs hold every value.
/// Leaks: variable time: comparisons choose branches, and [`add_exact`]'s early exits.
fn evaluate(a: &[Limb], k: usize, s: usize, out: &mut [Limb], tmp: &mut [Limb]) -> Vec<bool> {
    // The pieces a_0 .. a_(k-1) (s limbs each, the top one shorter).
    let p: Vec<&[Limb]> = a.chunks(s).collect();
    debug_assert_eq!(p.len(), k);
    let (even, odd) = tmp.split_at_mut(s + 1);
    let mut out = out.chunks_exact_mut(s + 1);
    let mut negs = Vec::with_capacity(k - 2);
    for x in 1..k as Limb - 1 {
        // The even and odd parts, in y = x^2: a(±x) = A_e(y) ± x A_o(y).
        horner(even, (0..k).step_by(2).rev().map(|i| p[i]), x * x);
        horner(odd, (1..k).step_by(2).rev().map(|i| p[i]), x * x);
        scale(odd, x);
        let (at, at_neg) = (out.next(), out.next());
        let (Some(at), Some(at_neg)) = (at, at_neg) else {
            unreachable!("toom_k: evaluation buffer too short")
        };
        negs.push(plus_minus(at, at_neg, even, odd));
    }
    // The single point k - 1, over all pieces.
    let Some(last) = out.next() else {
        unreachable!("toom_k: evaluation buffer too short")
    };
    horner(last, p.iter().rev().copied(), k as Limb - 1);
    negs
}

/// `r = a * b` for equal lengths n that [`splits`] k ways, k = 6 or 8, by Toom-k (module docs),
/// the 2k - 1 products by [`mul_n`]; `r.len() == 2n`. Allocates its scratch.
/// Leaks: variable time: the signs of the a(-x) b(-x) choose branches, the evaluation and
/// interpolation's early-exit carries, and the products' own.
pub fn mul_toom_k(r: &mut [Limb], a: &[Limb], b: &[Limb], k: usize) {
    toom_k(r, a, Some(b), k)
}

/// `r = a^2` by Toom-k squaring (2k - 1 squares of about n/k limbs by [`super::sqr()`]); n
/// [`splits`] k ways, k = 6 or 8, `r.len() == 2n`. Allocates its scratch.
/// Leaks: variable time, as [`mul_toom_k`].
pub fn sqr_toom_k(r: &mut [Limb], a: &[Limb], k: usize) {
    toom_k(r, a, None, k)
}

/// [`mul_toom_k`] (`b` given) or [`sqr_toom_k`].
fn toom_k(r: &mut [Limb], a: &[Limb], b: Option<&[Limb]>, k: usize) {
    let n = a.len();
    debug_assert!(matches!(k, 6 | 8) && splits(n, k) && r.len() == 2 * n);
    debug_assert!(b.is_none_or(|b| b.len() == n));
    let s = n.div_ceil(k);
    let points = 2 * k - 3;
    let (e, w) = (points * (s + 1), 2 * s + 2);
    let mut ev = vec![0; 2 * e + 2 * (s + 1)];
    let mut v = vec![0; points * w];
    let (ea, rest) = ev.split_at_mut(e);
    let (eb, tmp) = rest.split_at_mut(e);
    let neg_a = evaluate(a, k, s, ea, tmp);
    let negs: Vec<bool> = match b {
        Some(b) => {
            let neg_b = evaluate(b, k, s, eb, tmp);
            neg_a.iter().zip(&neg_b).map(|(x, y)| x != y).collect()
        }
        None => vec![false; k - 2],
    };
    let top = (k - 1) * s;
    for (i, vi) in v.chunks_exact_mut(w).enumerate() {
        let at = i * (s + 1)..(i + 1) * (s + 1);
        match b {
            Some(_) => mul_n(vi, &ea[at.clone()], &eb[at]),
            None => sqr_n(vi, &ea[at]),
        }
    }
    let (r_lo, r_hi) = r.split_at_mut(2 * top);
    match b {
        Some(b) => {
            mul_n(&mut r_lo[..2 * s], &a[..s], &b[..s]);
            mul_n(r_hi, &a[top..], &b[top..]);
        }
        None => {
            sqr_n(&mut r_lo[..2 * s], &a[..s]);
            sqr_n(r_hi, &a[top..]);
        }
    }
    interpolate(r, k, s, &mut v, &negs);
}

/// Interpolation and recomposition. On entry `r[..2s]` = c0 = c(0), `r[2(k-1)s..]` =
/// c_(2k-2) = c(∞), and `v` holds c(1), |c(-1)|, ..., c(k-2), |c(-(k-2))| and c(k-1), 2s + 2
/// limbs each (`negs`: the signs of the c(-x)). Bounds: c_i < k B^(2s), and the largest value,
/// c(k - 1) or E((k - 1)^2), is below 2^43 B^(2s) for k = 8, so 2s + 1 limbs hold each.
/// Leaks: variable time: the signs choose branches, and the carries' early exits.
fn interpolate(r: &mut [Limb], k: usize, s: usize, v: &mut [Limb], negs: &[bool]) {
    let w = 2 * s + 2;
    let top = 2 * (k - 1) * s;
    let mut chunks: Vec<&mut [Limb]> = v.chunks_exact_mut(w).collect();
    let Some(single) = chunks.pop() else {
        unreachable!("toom_k: no products")
    };
    // evens[x-1] = E(x^2) and odds[x-1] = O(x^2) for the pairs ±x.
    let mut evens = Vec::with_capacity(k - 1);
    let mut odds = Vec::with_capacity(k - 1);
    let mut pairs = chunks.into_iter();
    while let (Some(vp), Some(vm)) = (pairs.next(), pairs.next()) {
        let x = evens.len() as Limb + 1;
        even_odd(vp, vm, negs[evens.len()]);
        divexact(vm, x);
        evens.push(vp);
        odds.push(vm);
    }
    let ys: Vec<Limb> = (1..k as Limb).map(|x| x * x).collect();
    let (c0, rest) = r.split_at_mut(2 * s);
    let c_inf = &rest[top - 2 * s..];
    // (E(y) - c0 - c_(2k-2) y^(k-1)) / y = c2 + c4 y + ... + c_(2k-4) y^(k-3).
    for (e, &y) in evens.iter_mut().zip(&ys) {
        sub_exact(e, c0);
        submul_exact(e, c_inf, y.pow(k as u32 - 1));
        divexact(e, y);
    }
    newton(&mut evens, &ys[..k - 2]);
    // O((k-1)^2) = (c(k-1) - E((k-1)^2)) / (k-1).
    let mut even_at = vec![0; w];
    let from_top = [c_inf]
        .into_iter()
        .chain(evens.iter().rev().map(|e| &**e))
        .chain([&*c0]);
    horner(&mut even_at, from_top, ys[k - 2]);
    sub_exact(single, &even_at);
    divexact(single, k as Limb - 1);
    odds.push(single);
    newton(&mut odds, &ys);
    // r = c0 + c1 x + ... + c_(2k-2) x^(2k-2), x = B^s.
    let middle: Vec<&[Limb]> = odds
        .iter()
        .zip(evens.iter().map(Some).chain([None]))
        .flat_map(|(o, e)| [Some(&**o), e.map(|e| &**e)])
        .flatten()
        .collect();
    recompose(r, s, &middle);
}
