//! `binary-rl`: right-to-left square-and-multiply.
//!
//! Scans the exponent from its least significant bit, keeping `p = base^(2^i)` and multiplying
//! it into the accumulator for every set bit (the same recurrence seed 004 precomputes for a
//! fixed base). Variable time.

use super::{ExpArith, FusedPow};
use crate::arith;
use crate::limb::Limb;
use crate::reduce::Reducer;

/// g^exp right to left; `None` for exp = 0. Invariant at step i: p = g^(2^i) and
/// acc = g^(exp mod 2^i) (None while that is 1). The multiplication into acc and the next
/// squaring of p are independent, so a latency-bound kernel overlaps them: only the squarings
/// form the dependency chain. Variable time.
#[inline(always)]
pub(crate) fn scan<A: ExpArith>(a: &mut A, g: A::Elem, exp: &[Limb]) -> Option<A::Elem> {
    let bits = arith::bit_len(exp);
    let mut p = g;
    let mut acc: Option<A::Elem> = None;
    for i in 0..bits {
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

/// `base^exp mod m` for `base < m` (k limbs) and any `exp`; returns k limbs `< m`. Uses the
/// reducer's fused fixed-size path ([`Reducer::pow_fused`], same algorithm) when it has one.
/// Variable time.
pub fn pow<R: Reducer + ?Sized>(r: &R, base: &[Limb], exp: &[Limb]) -> Vec<Limb> {
    super::pow_scan(r, base, exp, FusedPow::RightToLeft)
}
