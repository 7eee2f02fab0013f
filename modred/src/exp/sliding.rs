//! `sliding`: sliding-window exponentiation over odd powers (HAC Algorithm 14.85; the method of
//! GMP's `mpz_powm` and OpenSSL's `BN_mod_exp_mont`).
//!
//! Precomputes g, g^3, ..., g^(2^w - 1) (2^(w-1) entries, one squaring and 2^(w-1) - 1
//! multiplications), then scans the exponent from the top: a zero bit costs a squaring; a set bit
//! opens a window of at most `w` bits ending in a set bit, which costs its length in squarings and
//! one multiplication by the odd power. The window size is chosen from the exponent length by
//! [`crate::tuning::sliding_window_bits`]. Variable time.

use super::{ExpArith, FusedPow};
use crate::arith;
use crate::limb::Limb;
use crate::reduce::Reducer;

/// The odd powers g, g^3, ..., g^(2^w - 1) (`odd[i] = g^(2i + 1)`): one squaring and
/// 2^(w-1) - 1 multiplications.
#[inline(always)]
pub(crate) fn odd_powers<A: ExpArith>(a: &mut A, g: A::Elem, w: usize) -> Vec<A::Elem> {
    let mut g2 = g.clone();
    if w > 1 {
        a.sqr_in_place(&mut g2);
    }
    let mut odd = Vec::with_capacity(1 << (w - 1));
    odd.push(g);
    for i in 1..1usize << (w - 1) {
        let mut t = odd[i - 1].clone();
        a.mul_in_place(&mut t, &g2);
        odd.push(t);
    }
    odd
}

/// g^exp from `odd` = [`odd_powers`] of g with windows of at most `w` bits; `None` for
/// exp = 0. Scans from the top: a zero bit costs a squaring, a window [j, i] ending in a set
/// bit its length in squarings and one multiplication. Variable time.
#[inline(always)]
pub(crate) fn scan<A: ExpArith>(
    a: &mut A,
    odd: &[A::Elem],
    exp: &[Limb],
    w: usize,
) -> Option<A::Elem> {
    debug_assert!(odd.len() >= 1 << (w - 1));
    // The window [j, i] at most w bits long that ends at the set bit i and starts at a set bit:
    // its start and value.
    let window = |i: usize| {
        let mut j = (i + 1).saturating_sub(w);
        while !arith::bit(exp, j) {
            j += 1;
        }
        (j, super::window::digit(exp, j, i - j + 1))
    };
    let top = arith::bit_len(exp).checked_sub(1)?;
    let (j, value) = window(top);
    debug_assert!(value & 1 == 1);
    // The top window seeds the accumulator, so the loop needs no "still 1" case.
    let mut acc = odd[value >> 1].clone();
    // Invariant: acc = g^(exp >> j), bits below j still to scan.
    let mut j = j;
    while j > 0 {
        let i = j - 1;
        if !arith::bit(exp, i) {
            a.sqr_in_place(&mut acc);
            j = i;
            continue;
        }
        let (start, value) = window(i);
        debug_assert!(value & 1 == 1);
        for _ in start..=i {
            a.sqr_in_place(&mut acc);
        }
        a.mul_in_place(&mut acc, &odd[value >> 1]);
        j = start;
    }
    Some(acc)
}

/// `base^exp mod m` with windows of at most `w` bits (1 <= w <= 16), `base < m` (k limbs);
/// returns k limbs `< m`. Uses the reducer's fused fixed-size path
/// ([`Reducer::pow_fused`], same algorithm) when it has one. Variable time.
pub fn pow<R: Reducer + ?Sized>(r: &R, base: &[Limb], exp: &[Limb], w: usize) -> Vec<Limb> {
    assert!((1..=16).contains(&w), "window size must be 1..=16");
    let w = w.min(arith::bit_len(exp).max(1));
    super::pow_scan(r, base, exp, FusedPow::Sliding { w })
}
