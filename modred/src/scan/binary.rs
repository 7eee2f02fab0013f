//! The left-to-right square-and-multiply scan (Koç, Acar, Kaliski, *Analyzing and Comparing
//! Montgomery Multiplication Algorithms*, IEEE Micro 1996, §2, ModExp): one squaring per
//! exponent bit below the top one and one multiplication per further set bit. Variable time.

use super::{ExpArith, CANCEL_CHECK_STEPS};
use crate::arith;
use crate::cancel;
use crate::limb::Limb;

/// g^exp left to right; `None` for exp = 0. Invariant: acc = g^(exp >> i).
/// Leaks: variable time: the exponent's bit length (the number of squarings) and each bit (a
/// multiplication per set bit), plus the arithmetic's own.
#[inline(always)]
pub(crate) fn scan<A: ExpArith>(a: &mut A, g: A::Elem, exp: &[Limb]) -> Option<A::Elem> {
    let bits = arith::bit_len(exp);
    if bits == 0 {
        return None;
    }
    let mut acc = g.clone();
    for i in (0..bits - 1).rev() {
        if i % CANCEL_CHECK_STEPS == 0 && cancel::requested() {
            break; // the result is discarded
        }
        a.sqr_in_place(&mut acc);
        if arith::bit(exp, i) {
            a.mul_in_place(&mut acc, &g);
        }
    }
    Some(acc)
}
