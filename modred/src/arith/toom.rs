//! Toom-Cook 3-way multiplication and squaring (Toom 1963, Cook 1966), with the evaluation
//! points 0, 1, -1, 2, ∞ and the interpolation sequence of Bodrato and Zanoni, "Integer and
//! polynomial multiplication: towards optimal Toom-Cook matrices" (ISSAC 2007), section 4.
//!
//! An n-limb operand is cut into three pieces of s = ceil(n/3) limbs (the top one t = n - 2s
//! limbs): a(x) = a2 x^2 + a1 x + a0 at x = B^s. The product c(x) = a(x) b(x) has five
//! coefficients, found from five products of about s limbs: 5 products of n/3 limbs against
//! Karatsuba's 9, so the cost grows like n^1.465.

use super::mul::abs_diff;
use super::{add_1_in_place, add_n, sub_in_place, trim, with_scratch};
use super::{add_in_place, addmul_1, karatsuba_scratch_len, mul_n_in, sqr_in};
use crate::limb::Limb;

/// `x /= d` in place, for an `x` divisible by `d`, a divisor of B - 1 = 2^64 - 1 (3 and 5
/// here): with d' = (B - 1)/d, x/d = x d' / (B - 1), and q = x d' / (B - 1) satisfies
/// q = q B - x d', which gives q's limbs low to high by subtraction alone. Per limb,
/// (hi, lo) = x_i d', q_i = h - lo and h = q_i - hi - borrow: one borrow chain (SUB, SBB), the
/// multiplication off it (GMP's `mpn_bdiv_dbm1c` form; a Hensel division would chain two
/// multiplications per limb). Loop invariant: with X and Q the limbs of x and q below i + 1,
/// X d' - Q (B - 1) = -h B^(i+1) (mod B^(i+2)); at the end h = 0 exactly when d divides x.
/// Leaks: nothing but the length (constant time).
pub(super) fn divexact_by(x: &mut [Limb], d: Limb) {
    debug_assert!(d > 1 && Limb::MAX % d == 0);
    let dd = Limb::MAX / d;
    let mut h: Limb = 0;
    for xi in x.iter_mut() {
        let (lo, hi) = crate::limb::mac(*xi, dd, 0, 0);
        let (q, borrow) = h.overflowing_sub(lo);
        *xi = q;
        h = q.wrapping_sub(hi).wrapping_sub(borrow as Limb);
    }
    debug_assert!(h == 0, "divexact_by: not divisible");
}

/// `x >>= 1` in place for an even `x`.
/// Leaks: nothing but the length (constant time).
pub(super) fn half(x: &mut [Limb]) {
    let out = super::shr_in_place(x, 1);
    debug_assert_eq!(out, 0, "half: odd value");
}

/// `r -= y` for a result known to be non-negative (`y` trimmed, no longer than `r`'s value).
/// Leaks: variable time: `y`'s leading zero limbs, and the borrow propagation stops early.
pub(super) fn sub_exact(r: &mut [Limb], y: &[Limb]) {
    let y = trim(y);
    let borrow = sub_in_place(r, y);
    debug_assert_eq!(borrow, 0, "toom: negative intermediate");
}

/// `r += y` where the sum fits `r`.
/// Leaks: variable time: `y`'s leading zero limbs, and the carry propagation stops early.
pub(super) fn add_exact(r: &mut [Limb], y: &[Limb]) {
    let y = trim(y);
    let carry = add_in_place(r, y);
    debug_assert_eq!(carry, 0, "toom: intermediate overflow");
}

/// `r = (a << J) + (b << K)` for `r.len() == a.len() >= b.len()` and shifts below 64, in one
/// pass; returns the limb above `r`: the bits shifted out and the carry, below
/// 2^(max(J, K) + 1). Loop invariant: `a_out` and `b_out` hold the bits shifted out of the limb
/// before.
/// Leaks: for J = K = 0 variable time (the carry through a's limbs above b's stops early),
/// else nothing but the lengths.
pub(super) fn shl_add<const J: u32, const K: u32>(r: &mut [Limb], a: &[Limb], b: &[Limb]) -> Limb {
    const { assert!(J < 64 && K < 64) };
    assert!(r.len() == a.len() && b.len() <= a.len());
    let (j, k) = (J, K);
    // x >> (64 - j) for j in 0..64 without the undefined shift by 64.
    let spill = |x: Limb, j: u32| (x >> 1) >> (63 - j);
    let (mut a_out, mut b_out, mut carry) = (0, 0, false);
    let (r_low, r_high) = r.split_at_mut(b.len());
    let (a_low, a_high) = a.split_at(b.len());
    if J == 0 && K == 0 {
        // A plain sum: the block kernel, then the carry through a's top limbs.
        let carry = add_n(r_low, a_low, b);
        r_high.copy_from_slice(a_high);
        return add_1_in_place(r_high, carry);
    }
    for ((ri, &ai), &bi) in r_low.iter_mut().zip(a_low).zip(b) {
        let (x, y) = ((ai << j) | a_out, (bi << k) | b_out);
        (a_out, b_out) = (spill(ai, j), spill(bi, k));
        let (sum, c1) = x.overflowing_add(y);
        let (sum, c2) = sum.overflowing_add(carry as Limb);
        (*ri, carry) = (sum, c1 | c2);
    }
    for (ri, &ai) in r_high.iter_mut().zip(a_high) {
        let x = (ai << j) | a_out;
        a_out = spill(ai, j);
        let (sum, c1) = x.overflowing_add(b_out);
        let (sum, c2) = sum.overflowing_add(carry as Limb);
        (*ri, carry, b_out) = (sum, c1 | c2, 0);
    }
    a_out + b_out + carry as Limb
}

/// `x = (x + y) / 2` in one pass (equal lengths, an even sum; a carry out of the top limb is
/// shifted in).
/// Leaks: nothing but the lengths (constant time).
pub(super) fn halve_sum(x: &mut [Limb], y: &[Limb]) {
    halve_combined::<HALVE_SUM>(x, y)
}

/// `x = (x - y) / 2` in one pass (equal lengths, `x >= y`, an even difference).
/// Leaks: nothing but the lengths (constant time).
pub(super) fn halve_difference(x: &mut [Limb], y: &[Limb]) {
    halve_combined::<HALVE_DIFFERENCE>(x, y)
}

/// `x = (y - x) / 2` in one pass (equal lengths, `y >= x`, an even difference).
/// Leaks: nothing but the lengths (constant time).
pub(super) fn halve_reversed_difference(x: &mut [Limb], y: &[Limb]) {
    halve_combined::<HALVE_REVERSED_DIFFERENCE>(x, y)
}

const HALVE_SUM: u8 = 0;
const HALVE_DIFFERENCE: u8 = 1;
const HALVE_REVERSED_DIFFERENCE: u8 = 2;

/// The three halvings above: each limb of the sum or difference is shifted as soon as the
/// next one is known. Loop invariant: before limb i, `x[..i - 1]` holds the result, `low` the
/// unshifted limb i - 1 of the sum (difference) and `carry` the carry (borrow) out of it. On
/// the adx tier and above the blocks of four from limb 1 run on the assembly of
/// [`super::x86_64::halve_sum_blocks`] (and its two differences), which keeps the same
/// invariant.
fn halve_combined<const OP: u8>(x: &mut [Limb], y: &[Limb]) {
    let n = x.len();
    assert!(n >= 1 && y.len() == n);
    let step = |i: usize, xi: Limb, carry: bool| {
        let (d, c1) = match OP {
            HALVE_SUM => xi.overflowing_add(y[i]),
            HALVE_DIFFERENCE => xi.overflowing_sub(y[i]),
            _ => y[i].overflowing_sub(xi),
        };
        let (d, c2) = match OP {
            HALVE_SUM => d.overflowing_add(carry as Limb),
            _ => d.overflowing_sub(carry as Limb),
        };
        (d, c1 | c2)
    };
    let (mut low, mut carry) = step(0, x[0], false);
    debug_assert!(low & 1 == 0, "toom: odd value halved");
    let mut i = 1;
    #[cfg(target_arch = "x86_64")]
    if n > 4 && crate::cpu::tier() >= crate::cpu::Tier::Adx {
        use super::x86_64::{
            halve_difference_blocks, halve_reversed_difference_blocks, halve_sum_blocks,
        };
        let blocks = (n - 1) / 4;
        let kernel = match OP {
            HALVE_SUM => halve_sum_blocks,
            HALVE_DIFFERENCE => halve_difference_blocks,
            _ => halve_reversed_difference_blocks,
        };
        let (xp, yp) = (x[1..].as_mut_ptr(), y[1..].as_ptr());
        let c;
        // SAFETY: the tier has BMI2; limbs 1 .. 4 blocks + 1 <= n of x and y, and limb 0 of x
        // before them; x and y are distinct slices.
        (low, c) = unsafe { kernel(xp, yp, blocks, low, carry as Limb) };
        carry = c != 0;
        i += 4 * blocks;
    }
    while i < n {
        let d;
        (d, carry) = step(i, x[i], carry);
        x[i - 1] = (low >> 1) | (d << 63);
        low = d;
        i += 1;
    }
    debug_assert!(OP == HALVE_SUM || !carry, "toom: negative intermediate");
    x[n - 1] = (low >> 1) | ((carry as Limb) << 63);
}

/// Writes the product c(x) = c0 + c1 x + ... + c_d x^d at x = B^s into `r` (`r.len()` limbs):
/// on entry c0 is in `r[..2s]` and c_d in `r[d s..]`; `middle` holds c1 .. c_(d-1), non-negative,
/// of at most 2s + 2 limbs (their tops may be zero), d >= 2 even. The even coefficients' low 2s
/// limbs tile `r[2s..d s]` and are copied; their top limbs and the odd coefficients are added.
/// Leaks: variable time: [`add_exact`]'s.
pub(super) fn recompose(r: &mut [Limb], s: usize, middle: &[&[Limb]]) {
    let d = middle.len() + 1;
    debug_assert!(d >= 2 && d.is_multiple_of(2) && r.len() >= d * s);
    for (i, c) in middle.iter().enumerate().skip(1).step_by(2) {
        let at = (i + 1) * s;
        let low = c.len().min(2 * s);
        r[at..at + low].copy_from_slice(&c[..low]);
        r[at + low..at + 2 * s].fill(0);
    }
    for (i, c) in middle.iter().enumerate().skip(1).step_by(2) {
        if c.len() > 2 * s {
            add_exact(&mut r[(i + 3) * s..], &c[2 * s..]);
        }
    }
    for (i, c) in middle.iter().enumerate().step_by(2) {
        add_exact(&mut r[(i + 1) * s..], c);
    }
}

/// The evaluations of a = a2 x^2 + a1 x + a0 at 1, -1 and 2, each `s + 1` limbs: returns
/// whether a(-1) is negative (its absolute value is stored).
/// Leaks: variable time: a comparison and the sign of a(-1) choose branches, and
/// [`add_exact`] / [`sub_exact`]'s.
fn evaluate(a: &[Limb], s: usize, at1: &mut [Limb], atm1: &mut [Limb], at2: &mut [Limb]) -> bool {
    let (a0, rest) = a.split_at(s);
    let (a1, a2) = rest.split_at(s);
    // a0 + a2 into at1 (s + 1 limbs), then a(1) = that + a1 and |a(-1)| = |that - a1|.
    at1[s] = shl_add::<0, 0>(&mut at1[..s], a0, a2);
    let neg = abs_diff(atm1, at1, a1);
    add_exact(at1, a1);
    // a(2) = (2 a1 + 4 a2) + a0 < 7 B^s: top limb at most 6.
    at2[s] = shl_add::<1, 2>(&mut at2[..s], a1, a2);
    add_exact(at2, a0);
    neg
}

/// `v = x y` for two (s + 1)-limb Toom evaluations, whose top limbs are small: the product of
/// the low s limbs by [`mul_n_in`] (in `scratch`) and the top limbs' rows,
/// x y = xl yl + (cx yl + cy xl) B^s + cx cy B^2s, so the recursive product has s limbs, not
/// s + 1 (which costs a limb more at every level below). `v.len() == 2s + 2`; cx, cy < 2^32
/// (the sum into the top two limbs, below 2 B + 2^64, fits them).
/// Leaks: variable time: a zero top limb skips its row, and [`mul_n_in`]'s.
pub(super) fn mul_evaluations(v: &mut [Limb], x: &[Limb], y: &[Limb], scratch: &mut [Limb]) {
    let s = x.len() - 1;
    debug_assert!(y.len() == s + 1 && v.len() == 2 * s + 2);
    let (xl, cx, yl, cy) = (&x[..s], x[s], &y[..s], y[s]);
    debug_assert!(cx < 1 << 32 && cy < 1 << 32);
    mul_n_in(&mut v[..2 * s], xl, yl, scratch);
    let mut top = (cx * cy) as u128;
    for (row, c) in [(yl, cx), (xl, cy)] {
        if c != 0 {
            top += addmul_1(&mut v[s..2 * s], row, c) as u128;
        }
    }
    (v[2 * s], v[2 * s + 1]) = (top as Limb, (top >> 64) as Limb);
}

/// `v = x^2` for an (s + 1)-limb Toom evaluation, as [`mul_evaluations`]: x^2 = xl^2 + 2 c xl
/// B^s + c^2 B^2s, the square of the low limbs by [`sqr_in`]. `v.len() == 2s + 2`; c < 2^32.
/// Leaks: variable time: a zero top limb skips its row, and [`sqr_in`]'s.
pub(super) fn sqr_evaluation(v: &mut [Limb], x: &[Limb], scratch: &mut [Limb]) {
    let s = x.len() - 1;
    debug_assert!(v.len() == 2 * s + 2);
    let (xl, c) = (&x[..s], x[s]);
    debug_assert!(c < 1 << 32);
    sqr_in(&mut v[..2 * s], xl, scratch);
    let mut top = (c * c) as u128;
    if c != 0 {
        top += addmul_1(&mut v[s..2 * s], xl, 2 * c) as u128;
    }
    (v[2 * s], v[2 * s + 1]) = (top as Limb, (top >> 64) as Limb);
}

/// Smallest operand length the 3-way split accepts (the top piece must be non-empty).
pub const TOOM3_MIN_LEN: usize = 5;

/// `r = a * b` for equal lengths n >= [`TOOM3_MIN_LEN`] by Toom-3 (module docs), the five
/// products by [`mul_n_in`] (so by whichever method their size calls for); `r.len() == 2n`.
/// Its scratch comes from [`with_scratch`].
/// Leaks: variable time: the sign of a(-1) b(-1) chooses a branch, the evaluation and
/// interpolation's early-exit carries, and the five products' own.
pub fn mul_toom3(r: &mut [Limb], a: &[Limb], b: &[Limb]) {
    let n = a.len();
    debug_assert!(n >= TOOM3_MIN_LEN && b.len() == n && r.len() == 2 * n);
    let s = n.div_ceil(3);
    with_scratch(scratch_len(s), |scratch| {
        let (e, v, k) = scratch_parts(scratch, s);
        let (ea, eb) = e.split_at_mut(3 * (s + 1));
        let neg_a = {
            let (a1, rest) = ea.split_at_mut(s + 1);
            let (am1, a2) = rest.split_at_mut(s + 1);
            evaluate(a, s, a1, am1, a2)
        };
        let neg_b = {
            let (b1, rest) = eb.split_at_mut(s + 1);
            let (bm1, b2) = rest.split_at_mut(s + 1);
            evaluate(b, s, b1, bm1, b2)
        };
        for (i, v) in v.chunks_exact_mut(2 * s + 2).enumerate() {
            let at = i * (s + 1)..(i + 1) * (s + 1);
            mul_evaluations(v, &ea[at.clone()], &eb[at], k);
        }
        let (r_lo, r_hi) = r.split_at_mut(4 * s);
        mul_n_in(&mut r_lo[..2 * s], &a[..s], &b[..s], k);
        mul_n_in(r_hi, &a[2 * s..], &b[2 * s..], k);
        interpolate(r, s, v, neg_a != neg_b);
    })
}

/// `r = a^2` by Toom-3 squaring (five squares of about n/3 limbs by [`sqr_in`]); `r.len() ==
/// 2n`, n >= [`TOOM3_MIN_LEN`]. Its scratch comes from [`with_scratch`].
/// Leaks: variable time, as [`mul_toom3`].
pub fn sqr_toom3(r: &mut [Limb], a: &[Limb]) {
    let n = a.len();
    debug_assert!(n >= TOOM3_MIN_LEN && r.len() == 2 * n);
    let s = n.div_ceil(3);
    with_scratch(scratch_len(s), |scratch| {
        let (e, v, k) = scratch_parts(scratch, s);
        let ea = &mut e[..3 * (s + 1)];
        {
            let (a1, rest) = ea.split_at_mut(s + 1);
            let (am1, a2) = rest.split_at_mut(s + 1);
            evaluate(a, s, a1, am1, a2);
        }
        for (i, v) in v.chunks_exact_mut(2 * s + 2).enumerate() {
            sqr_evaluation(v, &ea[i * (s + 1)..(i + 1) * (s + 1)], k);
        }
        let (r_lo, r_hi) = r.split_at_mut(4 * s);
        sqr_in(&mut r_lo[..2 * s], &a[..s], k);
        sqr_in(r_hi, &a[2 * s..], k);
        interpolate(r, s, v, false);
    })
}

/// The scratch of one Toom-3 call: the evaluation buffers (6 (s + 1) limbs), the three middle
/// products (3 (2s + 2) limbs) and the Karatsuba scratch of the five products (of at most s
/// limbs); every part is written before it is read.
fn scratch_len(s: usize) -> usize {
    6 * (s + 1) + 3 * (2 * s + 2) + karatsuba_scratch_len(s)
}

/// [`scratch_len`]'s parts: (evaluations, middle products, Karatsuba scratch).
fn scratch_parts(scratch: &mut [Limb], s: usize) -> (&mut [Limb], &mut [Limb], &mut [Limb]) {
    let (e, rest) = scratch.split_at_mut(6 * (s + 1));
    let (v, k) = rest.split_at_mut(3 * (2 * s + 2));
    (e, v, k)
}

/// Interpolation and recomposition. On entry `r[..2s]` = v0 = c(0), `r[4s..]` = vinf = c(∞),
/// and `v` holds c(1), |c(-1)| (negative iff `neg_m1`) and c(2), 2s + 2 limbs each. With
/// c(x) = c0 + c1 x + c2 x^2 + c3 x^3 + c4 x^4 (all c_i >= 0), Bodrato's sequence:
/// r3 = (c(2) - c(-1)) / 3 = c1 + c2 + 3c3 + 5c4; r1 = (c(1) - c(-1)) / 2 = c1 + c3;
/// r2 = c(1) - c0 = c1 + c2 + c3 + c4; r3 = (r3 - r2) / 2 = c3 + 2c4; r2 = r2 - r1 - c4 = c2;
/// r3 = r3 - 2c4 = c3; r1 = r1 - r3 = c1. Every intermediate is a non-negative combination of
/// the c_i, so no step borrows; the divisions are exact.
/// Leaks: variable time: `neg_m1` chooses a branch, and [`add_exact`] / [`sub_exact`]'s.
fn interpolate(r: &mut [Limb], s: usize, v: &mut [Limb], neg_m1: bool) {
    let w = 2 * s + 2;
    let (v1, rest) = v.split_at_mut(w);
    let (vm1, v2) = rest.split_at_mut(w);
    let v2 = &mut v2[..w];
    // r3 = (v2 - vm1) / 3 in v2.
    if neg_m1 {
        add_exact(v2, vm1);
    } else {
        sub_exact(v2, vm1);
    }
    divexact_by(v2, 3);
    // r1 = (v1 - vm1) / 2 in vm1 (|vm1| <= v1 since c(1) >= |c(-1)|).
    if neg_m1 {
        halve_sum(vm1, v1);
    } else {
        halve_reversed_difference(vm1, v1);
    }
    // r2 = v1 - v0 in v1.
    sub_exact(v1, &r[..2 * s]);
    // r3 = (r3 - r2) / 2.
    halve_difference(v2, v1);
    // r2 = r2 - r1 - vinf.
    sub_exact(v1, vm1);
    sub_exact(v1, &r[4 * s..]);
    // r3 = r3 - 2 vinf.
    sub_exact(v2, &r[4 * s..]);
    sub_exact(v2, &r[4 * s..]);
    // r1 = r1 - r3.
    sub_exact(vm1, v2);
    // r = v0 + r1 x + r2 x^2 + r3 x^3 + vinf x^4, x = B^s.
    recompose(r, s, &[vm1, v1, v2]);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_division_by_small_odd() {
        let mut s = 0x1234_5678_9abc_def1;
        for d in [3, 5, 17, 255] {
            for n in 1..12 {
                let mut x: Vec<Limb> = (0..n).map(|_| crate::limb::xorshift64(&mut s)).collect();
                if n % 3 == 0 {
                    x.fill(Limb::MAX);
                }
                // y = d x (one more limb), then y / d = x.
                let mut y = vec![0; n + 1];
                y[n] = super::super::mul_1(&mut y[..n], &x, d);
                divexact_by(&mut y, d);
                assert_eq!(trim(&y), trim(&x), "d={d} n={n}");
            }
        }
    }
}
