//! `binary-rl`: right-to-left square-and-multiply.
//!
//! Scans the exponent from its least significant bit, keeping `p = base^(2^i)` and multiplying
//! it into the accumulator for every set bit (the same recurrence seed 004 precomputes for a
//! fixed base). Variable time.

use super::Ops;
use crate::arith;
use crate::limb::Limb;
use crate::reduce::Reducer;

/// `base^exp mod m` for `base < m` (k limbs) and any `exp`; returns k limbs `< m`. Variable time.
pub fn pow<R: Reducer + ?Sized>(r: &R, base: &[Limb], exp: &[Limb]) -> Vec<Limb> {
    let mut ops = Ops::new(r);
    let bits = arith::bit_len(exp);
    if bits == 0 {
        return ops.one_plain();
    }
    let mut p = ops.enter(base);
    let mut acc: Option<Vec<Limb>> = None;
    // Invariant at step i: p = g^(2^i), acc = g^(exp mod 2^i) (None while that is 1).
    for i in 0..bits {
        if arith::bit(exp, i) {
            match acc.as_mut() {
                Some(a) => ops.mul_in_place(a, &p),
                None => acc = Some(p.clone()),
            }
        }
        if i + 1 < bits {
            ops.sqr_in_place(&mut p);
        }
    }
    ops.leave(&acc.expect("top bit is set"))
}
