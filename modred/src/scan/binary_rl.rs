//! The right-to-left square-and-multiply scan: keeps `p = g^(2^i)` and multiplies it into the
//! accumulator for every set bit (the recurrence Prots'ko, Gryshchuk, *The implementation of
//! Montgomery modular reduction to speed up of modular exponentiation*, CMIS-2024, §5
//! precomputes for a fixed base).
//! Variable time.

use super::{ExpArith, CANCEL_CHECK_STEPS};
use crate::arith;
use crate::cancel;
use crate::limb::Limb;

/// g^exp right to left; `None` for exp = 0. Invariant at step i: p = g^(2^i) and
/// acc = g^(exp mod 2^i) (None while that is 1). The multiplication into acc and the next
/// squaring of p are independent, so a latency-bound kernel overlaps them: only the squarings
/// form the dependency chain.
/// Leaks: variable time: the exponent's bit length (the number of squarings) and each bit (a
/// multiplication per set bit), plus the arithmetic's own.
#[inline(always)]
pub(crate) fn scan<A: ExpArith>(a: &mut A, g: A::Elem, exp: &[Limb]) -> Option<A::Elem> {
    let bits = arith::bit_len(exp);
    let mut p = g;
    let mut acc: Option<A::Elem> = None;
    for i in 0..bits {
        if i % CANCEL_CHECK_STEPS == 0 && cancel::requested() {
            break; // the result is discarded
        }
        if arith::bit(exp, i) {
            match acc.as_mut() {
                Some(x) => a.mul_in_place(x, &p),
                None => acc = Some(p.clone()),
            }
        }
        if i + 1 < bits {
            a.sqr_in_place(&mut p);
        }
    }
    acc
}
