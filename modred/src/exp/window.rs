//! `window`: fixed m-ary exponentiation (seed 000 section 5: with a table of the small powers
//! of the base, p = 16, i.e. 4-bit digits, cuts the mean number of multiplications).
//!
//! The exponent is cut into `w`-bit digits from the top; each digit costs `w` squarings and one
//! multiplication by the table entry `g^digit` (skipped for zero digits). Variable time.

use super::Ops;
use crate::arith;
use crate::limb::Limb;
use crate::reduce::Reducer;

/// The `w`-bit digit of `exp` starting at bit `pos` (bits beyond the top read as 0).
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

/// `base^exp mod m` with `w`-bit digits (1 <= w <= 16), `base < m` (k limbs); returns k limbs
/// `< m`. Table of 2^w entries. Variable time.
pub fn pow<R: Reducer + ?Sized>(r: &R, base: &[Limb], exp: &[Limb], w: usize) -> Vec<Limb> {
    assert!((1..=16).contains(&w), "window size must be 1..=16");
    let mut ops = Ops::new(r);
    let bits = arith::bit_len(exp);
    if bits == 0 {
        return ops.one_plain();
    }
    // Only the powers up to the largest possible digit are needed for short exponents.
    let entries = 1usize << w.min(bits);
    let g = ops.enter(base);
    let mut table = Vec::with_capacity(entries);
    table.push(r.one().to_vec());
    table.push(g.clone());
    for i in 2..entries {
        let mut t = vec![0; r.len()];
        ops.mul(&mut t, &table[i - 1], &g);
        table.push(t);
    }
    let digits = bits.div_ceil(w);
    let mut acc = table[digit(exp, (digits - 1) * w, w)].clone();
    // Invariant: acc = g^(exp >> (j w)) after processing digit j.
    for j in (0..digits - 1).rev() {
        for _ in 0..w {
            ops.sqr_in_place(&mut acc);
        }
        let d = digit(exp, j * w, w);
        if d != 0 {
            ops.mul_in_place(&mut acc, &table[d]);
        }
    }
    ops.leave(&acc)
}
