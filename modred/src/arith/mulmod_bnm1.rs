//! Products mod B^n - 1 (beyond the source papers; GMP's `mpn_mulmod_bnm1`): the cyclic
//! product the REDC over products needs for the high half of q m
//! (`reduce::montgomery::redc_n`), without the transforms that serve it from the NTT threshold.
//!
//! For even n = 2h, B^n - 1 = (B^h - 1)(B^h + 1) with coprime factors: the product mod B^h - 1
//! (recursively) and mod B^h + 1 (one full product of h limbs, its high half subtracted from
//! its low half) are combined by the Chinese remainder theorem. Since B^h + 1 = 2 mod B^h - 1,
//! x = x2 + (B^h + 1) ((x1 - x2) / 2 mod B^h - 1), where halving mod the odd 2^(64h) - 1 is a
//! one-bit rotation. A level costs one product of h limbs plus the level below instead of one
//! of 2h limbs (about 2/3 of a Karatsuba product and 1/2 of a schoolbook one). Odd n and n below
//! [`MULMOD_BNM1_THRESHOLD`] take the full product and fold it (B^n = 1).
//!
//! Variable time: the recursion branches on operand values (zero and B^h residues) and the
//! carries stop early.

use super::{add_1_in_place, add_mod_bnm1, add_n, mul, mul_n, shr_in_place, wrap_carry_bnm1};
use super::{sub_1_in_place, sub_in_place, sub_n, sub_n_in_place, trim};
use crate::limb::Limb;
use crate::tuning::MULMOD_BNM1_THRESHOLD;

/// `r = a b mod (B^n - 1)` for `n = r.len() >= 1` and `a.len(), b.len() <= n`. Output: a
/// residue in [0, B^n - 1] (all ones is the other representation of 0). Allocates one scratch
/// buffer for the whole recursion.
/// Leaks: variable time (see the module documentation).
pub fn mulmod_bnm1(r: &mut [Limb], a: &[Limb], b: &[Limb]) {
    let mut scratch = vec![0; scratch_len(r.len())];
    mulmod_bnm1_with(r, a, b, &mut scratch);
}

/// The scratch [`mulmod_bnm1_with`] needs for a residue of n limbs.
pub(crate) fn scratch_len(n: usize) -> usize {
    if n % 2 == 1 || n < MULMOD_BNM1_THRESHOLD {
        2 * n
    } else {
        let h = n / 2;
        8 * h + 3 + scratch_len(h)
    }
}

/// [`mulmod_bnm1`] on `scratch` of at least [`scratch_len`]`(r.len())` limbs (its contents
/// are overwritten).
/// Leaks: as [`mulmod_bnm1`].
pub(crate) fn mulmod_bnm1_with(r: &mut [Limb], a: &[Limb], b: &[Limb], scratch: &mut [Limb]) {
    let n = r.len();
    debug_assert!(n >= 1 && a.len() <= n && b.len() <= n && scratch.len() >= scratch_len(n));
    let (a, b) = (trim(a), trim(b));
    if a.is_empty() || b.is_empty() {
        return r.fill(0);
    }
    if n % 2 == 1 || n < MULMOD_BNM1_THRESHOLD {
        let t = &mut scratch[..a.len() + b.len()];
        mul(t, a, b);
        r.fill(0);
        return add_mod_bnm1(r, t);
    }
    let h = n / 2;
    // [ap, bp, x2: h + 1 each][am, bm: h each][t: 2h][x1: h][the level below].
    let (ap, rest) = scratch.split_at_mut(h + 1);
    let (bp, rest) = rest.split_at_mut(h + 1);
    let (x2, rest) = rest.split_at_mut(h + 1);
    let (am, rest) = rest.split_at_mut(h);
    let (bm, rest) = rest.split_at_mut(h);
    let (t, rest) = rest.split_at_mut(2 * h);
    let (x1, below) = rest.split_at_mut(h);
    residues(ap, am, a);
    residues(bp, bm, b);
    mulmod_bnp1(x2, ap, bp, h, t);
    mulmod_bnm1_with(x1, am, bm, below);
    crt(r, x1, x2);
}

/// The size (limbs) from `k` up that [`mulmod_bnm1`] serves best for operands of k limbs: k
/// rounded up to a multiple of 2^d, with d (at most 3) halvings that stay at or above
/// [`MULMOD_BNM1_THRESHOLD`] (as GMP's `mpn_mulmod_bnm1_next_size`).
pub fn mulmod_bnm1_size(k: usize) -> usize {
    let mut d = 0;
    while d < 3 && k.div_ceil(2 << d) >= MULMOD_BNM1_THRESHOLD {
        d += 1;
    }
    k.next_multiple_of(1 << d)
}

/// `xp` (h + 1 limbs) = a mod (B^h + 1), in [0, B^h], and `xm` (h limbs) = a mod (B^h - 1), in
/// [0, B^h - 1], for `a.len() <= 2h`: a_lo - a_hi (plus B^h + 1 when that borrows: B^h = -1)
/// and a_lo + a_hi (its carry wrapped to limb 0: B^h = 1). An operand of 2h limbs (the common
/// case) takes one pass for each; shorter ones are zero-extended first.
/// Leaks: variable time.
fn residues(xp: &mut [Limb], xm: &mut [Limb], a: &[Limb]) {
    let h = xm.len();
    debug_assert!(xp.len() == h + 1 && a.len() <= 2 * h);
    let (lo, hi) = a.split_at(a.len().min(h));
    let borrow = if hi.len() == h {
        let carry = add_n(xm, lo, hi);
        wrap_carry_bnm1(xm, carry);
        sub_n(&mut xp[..h], lo, hi)
    } else {
        xm.fill(0);
        add_mod_bnm1(xm, a);
        xp[lo.len()..].fill(0);
        xp[..lo.len()].copy_from_slice(lo);
        sub_in_place(&mut xp[..h], hi)
    };
    // xp[..h] holds a_lo - a_hi + B^h after a borrow; + 1 more is the residue, at most B^h.
    xp[h] = 0;
    if borrow != 0 {
        xp[h] = add_1_in_place(&mut xp[..h], 1);
    }
}

/// `z` (h + 1 limbs) = x y mod (B^h + 1) for x, y in [0, B^h] (h + 1 limbs each), in [0, B^h]:
/// B^h = -1 is handled apart (a negation); else the 2h-limb product (into `t`, 2h limbs) and
/// its low half minus its high half, plus B^h + 1 when that borrows.
/// Leaks: variable time.
fn mulmod_bnp1(z: &mut [Limb], x: &[Limb], y: &[Limb], h: usize, t: &mut [Limb]) {
    debug_assert!(z.len() == h + 1 && t.len() == 2 * h);
    z[h] = 0;
    match (x[h] != 0, y[h] != 0) {
        (true, true) => {
            z.fill(0);
            z[0] = 1;
        }
        (true, false) => negate_bnp1(z, &y[..h]),
        (false, true) => negate_bnp1(z, &x[..h]),
        (false, false) => {
            mul_n(t, &x[..h], &y[..h]);
            let (t_lo, t_hi) = t.split_at(h);
            if sub_n(&mut z[..h], t_lo, t_hi) != 0 {
                z[h] = add_1_in_place(&mut z[..h], 1);
            }
        }
    }
    debug_assert!(z[h] <= 1 && (z[h] == 0 || z[..h].iter().all(|&l| l == 0)));
}

/// z (h + 1 limbs) = -v mod (B^h + 1) = B^h + 1 - v for v in [0, B^h) (h limbs), 0 for v = 0.
fn negate_bnp1(z: &mut [Limb], v: &[Limb]) {
    if v.iter().all(|&l| l == 0) {
        return z.fill(0);
    }
    z.fill(0);
    z[0] = 1;
    z[v.len()] = 1;
    let borrow = sub_in_place(z, v);
    debug_assert_eq!(borrow, 0);
}

/// `r` (2h limbs) = the residue mod B^(2h) - 1 that is x1 mod B^h - 1 (h limbs, destroyed) and
/// x2 mod B^h + 1 (h + 1 limbs, value <= B^h): x2 + (B^h + 1) t with t = (x1 - x2) / 2 mod
/// B^h - 1. Output in [0, B^(2h) - 1].
fn crt(r: &mut [Limb], x1: &mut [Limb], x2: &[Limb]) {
    let h = x1.len();
    debug_assert!(r.len() == 2 * h && x2.len() == h + 1);
    // d = x1 - x2 mod B^h - 1, with x2 = x2_lo + x2[h] mod B^h - 1 (below B^h - 1, as x2[h] = 1
    // only with x2_lo zero, so at most one of the two subtractions borrows): a borrow means
    // d + B^h is held, so 1 less is d + (B^h - 1); the held value is then >= 1
    // (x1 - x2 >= -(B^h - 1)), so no second borrow.
    let borrow = sub_n_in_place(x1, &x2[..h]) + sub_1_in_place(x1, x2[h]);
    if borrow != 0 {
        let borrow = sub_1_in_place(x1, 1);
        debug_assert_eq!(borrow, 0);
    }
    // t = d / 2 mod 2^(64h) - 1: rotate right by one bit.
    let low_bit = x1[0] & 1;
    shr_in_place(x1, 1);
    x1[h - 1] |= low_bit << (Limb::BITS - 1);
    // r = t (B^h + 1) + x2 <= (B^h - 1)(B^h + 1) + B^h: t + x2_lo at the bottom, t plus that
    // carry and x2[h] at the top (x2[h] = 1 only with x2_lo zero: one of the two at most), and
    // a carry out of the top wrapped to limb 0 (B^(2h) = 1), where it stops.
    let (r_lo, r_hi) = r.split_at_mut(h);
    r_hi.copy_from_slice(x1);
    let carry = add_n(r_lo, x1, &x2[..h]) + x2[h];
    let carry = add_1_in_place(r_hi, carry);
    wrap_carry_bnm1(r, carry);
}
