//! The fixed m-ary scan (Bosselaers, Govaerts, Vandewalle, *Comparison of three modular
//! reduction functions*, CRYPTO '93, §5): `w`-bit digits from the top, each costing `w`
//! squarings and one multiplication by the table entry `g^digit` (skipped for zero digits).
//! Variable time.

use super::{ExpArith, CANCEL_CHECK_STEPS};
use crate::arith;
use crate::cancel;
use crate::limb::Limb;

/// The `w`-bit digit of `exp` starting at bit `pos` (bits beyond the top read as 0).
/// Leaks: `pos` and `w` (the limbs read, a branch on them); nothing of the exponent's bits.
#[inline]
pub(crate) fn digit(exp: &[Limb], pos: usize, w: usize) -> usize {
    debug_assert!((1..=16).contains(&w));
    let limb = pos / 64;
    let shift = pos % 64;
    let lo = exp.get(limb).copied().unwrap_or(0) >> shift;
    let hi = if shift + w > 64 {
        exp.get(limb + 1).copied().unwrap_or(0) << (64 - shift)
    } else {
        0
    };
    ((lo | hi) & ((1u64 << w) - 1)) as usize
}

/// g^exp with `w`-bit digits from the top, `one` the representation of 1 (table entry 0, never
/// multiplied in); `None` for exp = 0. Table of the 2^w powers (fewer for short exponents).
/// Invariant: acc = g^(exp >> (j w)) after digit j.
/// Leaks: variable time: the exponent's bit length (the number of digits), each digit (a table
/// index, and zero digits skip their multiplication), plus the arithmetic's own.
#[inline(always)]
pub(crate) fn scan<A: ExpArith>(
    a: &mut A,
    one: A::Elem,
    g: A::Elem,
    exp: &[Limb],
    w: usize,
) -> Option<A::Elem> {
    let bits = arith::bit_len(exp);
    if bits == 0 {
        return None;
    }
    // Only the powers up to the largest possible digit are needed for short exponents.
    let entries = 1usize << w.min(bits);
    let mut table = Vec::with_capacity(entries);
    table.push(one);
    table.push(g);
    for i in 2..entries {
        let mut t = table[i - 1].clone();
        a.mul_in_place(&mut t, &table[1]);
        table.push(t);
    }
    let digits = bits.div_ceil(w);
    let mut acc = table[digit(exp, (digits - 1) * w, w)].clone();
    for j in (0..digits - 1).rev() {
        if j % CANCEL_CHECK_STEPS == 0 && cancel::requested() {
            break; // the result is discarded
        }
        for _ in 0..w {
            a.sqr_in_place(&mut acc);
        }
        let d = digit(exp, j * w, w);
        if d != 0 {
            a.mul_in_place(&mut acc, &table[d]);
        }
    }
    Some(acc)
}
