//! Multiplication: schoolbook (operand scanning) and Karatsuba (Lim, Hwang, Lee, *Fast Modular
//! Reduction With Precomputation*, JW-ISC '97, §1).

use super::ntt;
use super::{
    add_1_in_place, add_in_place, add_n, add_n_in_place, addmul_1_portable, addmul_2_portable,
    cmp_n, mul_1_portable, sub_1_in_place, sub_in_place, sub_n,
};
use crate::cpu::{self, Tier};
use crate::limb::Limb;
use crate::tuning::{
    KARATSUBA_SQR_THRESHOLD, KARATSUBA_SQR_THRESHOLD_PORTABLE, KARATSUBA_THRESHOLD,
    KARATSUBA_THRESHOLD_PORTABLE, SCRATCH_KEPT_MAX_LIMBS, TOOM3_SQR_THRESHOLD,
    TOOM3_SQR_THRESHOLD_PORTABLE, TOOM3_THRESHOLD, TOOM3_THRESHOLD_PORTABLE, TOOM4_THRESHOLD,
};
use core::cmp::Ordering;

/// `r = a * b` by schoolbook multiplication: `a.len() * b.len()` single-precision
/// multiplications. `r.len() == a.len() + b.len()`, `b` non-empty. Runs on the tier in use
/// ([`cpu::tier`]).
/// Leaks: nothing but the lengths (constant time).
pub fn mul_basecase(r: &mut [Limb], a: &[Limb], b: &[Limb]) {
    mul_basecase_on(cpu::tier(), r, a, b)
}

/// [`mul_basecase`] on the kernels of `tier` (the MULX/ADX rows from [`Tier::Adx`] when `a`
/// has at least 4 limbs). `tier` must come from [`cpu::tier`] or [`cpu::cap`].
/// Leaks: nothing but the lengths and the tier (constant time).
pub(crate) fn mul_basecase_on(tier: Tier, r: &mut [Limb], a: &[Limb], b: &[Limb]) {
    debug_assert_eq!(r.len(), a.len() + b.len());
    debug_assert!(tier <= cpu::detected());
    let n = a.len();
    if n == 0 {
        r.fill(0);
        return;
    }
    #[cfg(target_arch = "x86_64")]
    if n >= 4 && tier >= Tier::Adx {
        // SAFETY: the tier (at most the detected one) has BMI2 and ADX.
        return unsafe { super::x86_64::mul_basecase_adx(r, a, b) };
    }
    // Row b_0, then pairs of rows (`addmul_2_portable`), then a last single row.
    r[n] = mul_1_portable(&mut r[..n], a, b[0]);
    let mut j = 1;
    while j + 1 < b.len() {
        r[n + j + 1] = addmul_2_portable(&mut r[j..=j + n], a, b[j], b[j + 1], 0);
        j += 2;
    }
    if j < b.len() {
        r[n + j] = addmul_1_portable(&mut r[j..j + n], a, b[j]);
    }
}

/// The operand size (limbs) from which products (`square` false) or squares on `tier`'s
/// kernels use Karatsuba: the portable tier's schoolbook rows cost more per limb product than
/// the MULX/ADX ones, so its thresholds are its own.
pub(crate) fn karatsuba_threshold(tier: Tier, square: bool) -> usize {
    match (tier, square) {
        (Tier::Portable, false) => KARATSUBA_THRESHOLD_PORTABLE,
        (Tier::Portable, true) => KARATSUBA_SQR_THRESHOLD_PORTABLE,
        (_, false) => KARATSUBA_THRESHOLD,
        (_, true) => KARATSUBA_SQR_THRESHOLD,
    }
}

/// The operand size (limbs) from which products (`square` false) or squares on `tier` use
/// Toom-3 (or the transform) instead of Karatsuba: later on the portable tier, whose Karatsuba
/// recursion goes deeper.
pub(crate) fn toom3_threshold(tier: Tier, square: bool) -> usize {
    match (tier, square) {
        (Tier::Portable, false) => TOOM3_THRESHOLD_PORTABLE,
        (Tier::Portable, true) => TOOM3_SQR_THRESHOLD_PORTABLE,
        (_, false) => TOOM3_THRESHOLD,
        (_, true) => TOOM3_SQR_THRESHOLD,
    }
}

/// The smallest Karatsuba threshold of any tier, products or squares: below it every product
/// and square is schoolbook (constant time).
const KARATSUBA_THRESHOLD_MIN: usize = super::least(&[
    KARATSUBA_THRESHOLD,
    KARATSUBA_SQR_THRESHOLD,
    KARATSUBA_THRESHOLD_PORTABLE,
    KARATSUBA_SQR_THRESHOLD_PORTABLE,
]);

/// Scratch limbs [`mul_karatsuba`] needs for n-limb operands (on any tier).
pub fn karatsuba_scratch_len(n: usize) -> usize {
    if n < KARATSUBA_THRESHOLD_MIN.max(2) {
        0
    } else {
        let hh = n - n / 2;
        4 * hh + 2 + karatsuba_scratch_len(hh)
    }
}

/// `|x - y|` into `r` for `x.len() == r.len() >= y.len()`; returns whether x < y.
/// Leaks: variable time: the comparison stops at the first differing limb, the sign chooses a
/// branch, and the borrow propagation stops early.
pub(crate) fn abs_diff(r: &mut [Limb], x: &[Limb], y: &[Limb]) -> bool {
    let (hi_x, lo_x) = (x.len(), y.len());
    debug_assert!(hi_x >= lo_x && r.len() == hi_x);
    if hi_x == lo_x {
        // Equal lengths (every split of an even n): one comparison from the top, one pass.
        let x_less = cmp_n(x, y) == Ordering::Less;
        let (big, small) = if x_less { (y, x) } else { (x, y) };
        sub_n(r, big, small);
        return x_less;
    }
    // Compare x against y zero-extended.
    let x_less = x[lo_x..].iter().all(|&v| v == 0) && cmp_n(&x[..lo_x], y) == Ordering::Less;
    if x_less {
        r[lo_x..].fill(0);
        sub_n(&mut r[..lo_x], y, &x[..lo_x]);
    } else {
        // One pass: the low limbs by `sub_n`, its borrow out of the (at most one limb longer)
        // top of x, which x >= y absorbs.
        let borrow = sub_n(&mut r[..lo_x], &x[..lo_x], y);
        r[lo_x..].copy_from_slice(&x[lo_x..]);
        let out = sub_1_in_place(&mut r[lo_x..], borrow);
        debug_assert_eq!(out, 0);
    }
    x_less
}

/// `r = a * b` for equal lengths n by Karatsuba's subtractive method (Lim–Hwang–Lee 1997 §1):
/// with a = a_H B^h + a_L, w_H = a_H b_H, w_L = a_L b_L, w_M = (a_H - a_L)(b_H - b_L),
/// `a b = w_H B^2h + (w_H + w_L - w_M) B^h + w_L`, recursing while n >= the threshold.
/// `scratch.len() >= karatsuba_scratch_len(n)`. From the tier's Toom-3 threshold
/// ([`toom3_threshold`]) on it hands over to [`mul_n`]. Runs on the tier in use ([`cpu::tier`]).
/// Leaks: variable time: the signs of the differences choose a branch, and the carry and
/// borrow propagations stop early.
pub fn mul_karatsuba(r: &mut [Limb], a: &[Limb], b: &[Limb], scratch: &mut [Limb]) {
    mul_karatsuba_on(cpu::tier(), r, a, b, scratch)
}

/// [`mul_karatsuba`] with its schoolbook products on the kernels of `tier` (see
/// [`mul_basecase_on`]).
/// Leaks: variable time, as [`mul_karatsuba`].
pub(crate) fn mul_karatsuba_on(
    tier: Tier,
    r: &mut [Limb],
    a: &[Limb],
    b: &[Limb],
    scratch: &mut [Limb],
) {
    let n = a.len();
    debug_assert!(b.len() == n && r.len() == 2 * n);
    if n < karatsuba_threshold(tier, false).max(2) {
        return mul_basecase_on(tier, r, a, b);
    }
    if n >= toom3_threshold(tier, false) {
        return mul_n(r, a, b);
    }
    let h = n / 2; // low half
    let hh = n - h; // high half, hh >= h
    let (a_lo, a_hi) = a.split_at(h);
    let (b_lo, b_hi) = b.split_at(h);
    let (diffs, rest) = scratch.split_at_mut(2 * hh);
    let (wm, rest) = rest.split_at_mut(2 * hh);
    let rest = &mut rest[2..];

    // |a_H - a_L|, |b_H - b_L| and w_M = their product; the true w_M is negative iff the
    // differences have opposite signs.
    let (da, db) = diffs.split_at_mut(hh);
    let neg_a = abs_diff(da, a_hi, a_lo);
    let neg_b = abs_diff(db, b_hi, b_lo);
    mul_karatsuba_on(tier, wm, da, db, rest);
    {
        let (r_lo, r_hi) = r.split_at_mut(2 * h);
        mul_karatsuba_on(tier, r_lo, a_lo, b_lo, rest); // w_L
        mul_karatsuba_on(tier, r_hi, a_hi, b_hi, rest); // w_H
    }

    karatsuba_combine(r, h, wm, neg_a == neg_b);
}

/// Karatsuba's recombination in place: `r` holds w_L (2h limbs) then w_H (2hh limbs, hh = h
/// or h + 1) and becomes w_L + (w_L + w_H -+ w_M) B^h + w_H B^2h, w_M (2hh limbs) subtracted
/// when `subtract`. With w_L = L0 + L1 B^h and w_H = H0 + H1 B^h (L0, L1, H0 of h limbs), the
/// middle terms are (L0 + L1 + H0) B^h + (L1 + H0 + H1) B^2h: T = L1 + H0 once, then T + L0
/// and T + H1, three additions of h limbs and w_M's pass (GMP's `mpn_toom22_mul` shares T the
/// same way) instead of four passes over 2h limbs. Every step is mod B^(2n) (carries and
/// borrows out of the top dropped): the true result is < B^(2n), so wrap-arounds in between
/// cancel.
/// On the adx tier [`combine_halves_adx`] (three passes) serves, elsewhere
/// [`karatsuba_combine_portable`].
/// Leaks: variable time: the carry and borrow propagations stop early.
pub(crate) fn karatsuba_combine(r: &mut [Limb], h: usize, wm: &[Limb], subtract: bool) {
    #[cfg(target_arch = "x86_64")]
    if super::adx_row(h) {
        // SAFETY: the tier in use has BMI2 and ADX; the lengths are the caller's (h >= 4).
        return unsafe { combine_halves_adx(r, h, wm, subtract) };
    }
    karatsuba_combine_portable(r, h, wm, subtract)
}

/// [`karatsuba_combine`] on any tier and any halves: the three additions of h limbs, then w_M's
/// pass.
/// Leaks: variable time: the carry and borrow propagations stop early.
pub(crate) fn karatsuba_combine_portable(r: &mut [Limb], h: usize, wm: &[Limb], subtract: bool) {
    let hh = r.len() / 2 - h;
    debug_assert!((hh == h || hh == h + 1) && wm.len() == 2 * hh && h >= 1);
    {
        let (w_lo, w_hi) = r.split_at_mut(2 * h);
        let (l0, l1) = w_lo.split_at_mut(h);
        let (h0, h1) = w_hi.split_at_mut(h);
        let c_t = add_n_in_place(h0, l1); // T = L1 + H0, in H0's place; c_t lands at 2h and 3h
        let c_lo = add_n(l1, h0, l0); // position h: T + L0
        let c_hi = add_n_in_place(h0, &h1[..h]); // position 2h: T + H1's low h limbs
        if hh > h {
            // H1 has h + 2 limbs: its top two belong at position 3h, where H1 itself starts.
            let top = [h1[h], h1[h + 1]];
            add_in_place(h1, &top); // a carry out of the top is a mod B^(2n) wrap
        }
        add_1_in_place(h1, c_t + c_hi);
        add_1_in_place(w_hi, c_t + c_lo);
    }
    if subtract {
        sub_in_place(&mut r[h..], wm);
    } else {
        add_in_place(&mut r[h..], wm);
    }
}

/// [`karatsuba_combine`] in three passes instead of five, for any halves (hh = h or h + 1):
/// T = L1 + H0 and U = T + L0 in one ([`super::x86_64::karatsuba_sums_adx`]), V = T + H1's low
/// h limbs and V -+ M1 in another ([`super::x86_64::karatsuba_high_adx`]), each on the
/// assembly for the blocks of four and a loop for the last h mod 4 limbs, and U -+ M0 in the
/// third; then the carries: T's and U's and M0's at limb 2h, T's, V's and M1's at limb 3h,
/// where also H1's and w_M's top two limbs go when hh = h + 1 (each step mod B^(2n), as in
/// [`karatsuba_combine`]).
/// Leaks: variable time: the carry and borrow propagations stop early.
///
/// # Safety
/// BMI2 and ADX available; `r.len() == 2 (h + hh)`, `wm.len() == 2 hh`, hh = h or h + 1, h >= 4.
#[cfg(target_arch = "x86_64")]
pub(crate) unsafe fn combine_halves_adx(r: &mut [Limb], h: usize, wm: &[Limb], subtract: bool) {
    use crate::limb::{adc, sbb};
    let hh = r.len() / 2 - h;
    debug_assert!((hh == h || hh == h + 1) && wm.len() == 2 * hh && h >= 4);
    let tail = h / 4 * 4..h;
    // SAFETY: r holds L0, L1 and H0 (3h limbs) at its start; h >= 4.
    let (mut c_t, mut c_u) = unsafe { super::x86_64::karatsuba_sums_adx(r.as_mut_ptr(), h) };
    for i in tail.clone() {
        // Loop invariant: c_t and c_u are T's and U's carries into limb i.
        let t;
        (t, c_t) = adc(r[h + i], r[2 * h + i], c_t);
        r[2 * h + i] = t;
        (r[h + i], c_u) = adc(t, r[i], c_u);
    }
    // SAFETY: r[2h..] holds T and H1's low h limbs (2h limbs), wm[h..] h limbs, disjoint from
    // r; h >= 4.
    let (mut c_v, mut c_m1) = unsafe {
        let t = r[2 * h..].as_mut_ptr();
        super::x86_64::karatsuba_high_adx(t, wm[h..].as_ptr(), h, subtract)
    };
    for i in tail {
        // Loop invariant: c_v and c_m1 are V's and M1's carries (borrow) into limb i.
        let v;
        (v, c_v) = adc(r[2 * h + i], r[3 * h + i], c_v);
        (r[2 * h + i], c_m1) = if subtract {
            sbb(v, wm[h + i], c_m1)
        } else {
            adc(v, wm[h + i], c_m1)
        };
    }
    // hh = h + 1: H1's top two limbs and w_M's belong at limb 3h too; read before the carries
    // into limb 3h can reach them.
    let h1_top = [r[2 * h + 2 * hh - 2], r[2 * h + 2 * hh - 1]];
    let (mid, top) = r.split_at_mut(3 * h);
    let u = &mut mid[h..2 * h];
    if subtract {
        let b_m0 = super::sub_n_in_place(u, &wm[..h]);
        add_1_in_place(top, c_t + c_v);
        sub_1_in_place(top, c_m1);
        if hh > h {
            add_in_place(top, &h1_top);
            sub_in_place(top, &wm[2 * h..]);
        }
        add_1_in_place(&mut r[2 * h..], c_t + c_u);
        sub_1_in_place(&mut r[2 * h..], b_m0);
    } else {
        let c_m0 = add_n_in_place(u, &wm[..h]);
        add_1_in_place(top, c_t + c_v + c_m1);
        if hh > h {
            add_in_place(top, &h1_top);
            add_in_place(top, &wm[2 * h..]);
        }
        add_1_in_place(&mut r[2 * h..], c_t + c_u + c_m0);
    }
}

std::thread_local! {
    /// The thread's product scratch, kept between calls (see [`with_scratch`]).
    static SCRATCH: core::cell::RefCell<Vec<Limb>> =
        const { core::cell::RefCell::new(Vec::new()) };
}

/// Runs `f` on `len` limbs of scratch, whatever their contents: the thread's buffer, kept
/// between calls, or a fresh one when that is in use further up the stack or `len` is above
/// [`SCRATCH_KEPT_MAX_LIMBS`] (so the kept buffer stays within 128 KiB). Its users: the
/// top-level Karatsuba products, Toom-3 and Toom-4 (a 2047-limb Toom-4 product takes about
/// 13,300 limbs). A fresh zeroed allocation per product cost 2-3% of a 64-192-limb Karatsuba
/// product and about 1% of a 272-288-limb Toom-3 one; its zeroing alone took 1% of the samples
/// of a 256-limb Toom-4 one.
pub(crate) fn with_scratch<R>(len: usize, f: impl FnOnce(&mut [Limb]) -> R) -> R {
    if len > SCRATCH_KEPT_MAX_LIMBS {
        return f(&mut vec![0; len]);
    }
    SCRATCH.with(|cell| match cell.try_borrow_mut() {
        Ok(mut buf) => {
            if buf.len() < len {
                buf.resize(len, 0);
            }
            f(&mut buf[..len])
        }
        Err(_) => f(&mut vec![0; len]),
    })
}

/// [`with_scratch`] with [`karatsuba_scratch_len`]`(n)` limbs.
pub(crate) fn with_karatsuba_scratch<R>(n: usize, f: impl FnOnce(&mut [Limb]) -> R) -> R {
    with_scratch(karatsuba_scratch_len(n), f)
}

/// [`mul_n`] with Karatsuba's scratch supplied (`scratch.len() >=`
/// [`karatsuba_scratch_len`]`(n)`): the Karatsuba range runs in it without allocating (the
/// Toom pieces'); other sizes go through [`mul_n`].
/// Leaks: as [`mul_n`].
pub(crate) fn mul_n_in(r: &mut [Limb], a: &[Limb], b: &[Limb], scratch: &mut [Limb]) {
    let (n, tier) = (a.len(), cpu::tier());
    if n >= karatsuba_threshold(tier, false) && n < toom3_threshold(tier, false) {
        mul_karatsuba(r, a, b, scratch)
    } else {
        mul_n(r, a, b)
    }
}

/// `r = a * b` for equal lengths n >= 1, `r.len() == 2n`, by the method the size calls for:
/// schoolbook below the tier's Karatsuba threshold ([`karatsuba_threshold`]), Karatsuba below
/// the tier's Toom-3 threshold ([`toom3_threshold`]), then the three-prime NTT from the NTT
/// threshold of this CPU on ([`ntt::pays`]), and below it Toom-3 up to [`TOOM4_THRESHOLD`] and
/// Toom-4 from there. Allocates its scratch.
/// Leaks: nothing but the lengths below the Karatsuba threshold and at NTT sizes; variable time
/// between them (the Karatsuba and Toom sign branches and early-exit carries).
pub fn mul_n(r: &mut [Limb], a: &[Limb], b: &[Limb]) {
    let n = a.len();
    debug_assert!(b.len() == n && r.len() == 2 * n);
    let tier = cpu::tier();
    if n < karatsuba_threshold(tier, false) {
        mul_basecase(r, a, b)
    } else if n < toom3_threshold(tier, false) {
        with_karatsuba_scratch(n, |scratch| mul_karatsuba(r, a, b, scratch))
    } else if ntt::pays(n, false) {
        ntt::mul_ntt(r, a, b)
    } else if n < TOOM4_THRESHOLD {
        super::toom::mul_toom3(r, a, b)
    } else {
        super::toom4::mul_toom4(r, a, b)
    }
}

/// `r = a * b` for `a.len(), b.len() >= 1`, `r.len() == a.len() + b.len()`: [`mul_n`] for equal
/// lengths, schoolbook when the shorter operand is below the Karatsuba threshold, one NTT when
/// it reaches the NTT threshold, else [`mul_unbalanced`]. Allocates its scratch.
/// Leaks: as [`mul_n`] (nothing but the lengths when the shorter operand is below the
/// Karatsuba threshold or one NTT serves; variable time otherwise).
pub fn mul(r: &mut [Limb], a: &[Limb], b: &[Limb]) {
    let (a, b) = if a.len() >= b.len() { (a, b) } else { (b, a) };
    if b.len() < karatsuba_threshold(cpu::tier(), false) {
        return mul_basecase(r, a, b);
    }
    if a.len() == b.len() {
        return mul_n(r, a, b);
    }
    if b.len() >= ntt::threshold(false) && ntt::ntt_fits(a.len(), b.len()) {
        return ntt::mul_ntt(r, a, b);
    }
    mul_unbalanced(r, a, b)
}

/// `r = a * b` for `a.len() > b.len()`: multiply `b` by `b.len()`-limb chunks of `a` with
/// [`mul_n`] and accumulate; a shorter last chunk goes through [`mul`] (which cuts `b` by it in
/// turn).
/// Leaks: variable time: the accumulation's carry propagation stops early, plus [`mul_n`]'s.
pub fn mul_unbalanced(r: &mut [Limb], a: &[Limb], b: &[Limb]) {
    let (na, nb) = (a.len(), b.len());
    debug_assert!(na >= nb && r.len() == na + nb);
    r.fill(0);
    let mut prod = vec![0; 2 * nb];
    let mut i = 0;
    while i < na {
        let len = nb.min(na - i);
        let chunk = &a[i..i + len];
        let p = &mut prod[..len + nb];
        if len == nb {
            mul_n(p, chunk, b);
        } else {
            mul(p, b, chunk);
        }
        add_in_place(&mut r[i..], p);
        i += len;
    }
}
