//! `binary`: left-to-right square-and-multiply (seed 002, "ModExp").
//!
//! Computes `base^exp mod m` with one squaring per exponent bit below the top one and one
//! multiplication per further set bit. Variable time: the multiplications follow the set bits of
//! the exponent. Works in the representation of any [`Reducer`].

use super::{ExpArith, FusedPow};
use crate::arith;
use crate::limb::Limb;
use crate::reduce::Reducer;

/// g^exp left to right; `None` for exp = 0. Invariant: acc = g^(exp >> i). Variable time.
#[inline(always)]
pub(crate) fn scan<A: ExpArith>(a: &mut A, g: A::Elem, exp: &[Limb]) -> Option<A::Elem> {
    let bits = arith::bit_len(exp);
    if bits == 0 {
        return None;
    }
    let mut acc = g.clone();
    for i in (0..bits - 1).rev() {
        a.sqr_in_place(&mut acc);
        if arith::bit(exp, i) {
            a.mul_in_place(&mut acc, &g);
        }
    }
    Some(acc)
}

/// `base^exp mod m` for `base < m` (k limbs) and any `exp` (little-endian limbs, may be untrimmed);
/// returns k limbs `< m`. Uses the reducer's fused path ([`Reducer::pow_fused`], same
/// algorithm) when it has one. Variable time.
pub fn pow<R: Reducer + ?Sized>(r: &R, base: &[Limb], exp: &[Limb]) -> Vec<Limb> {
    super::pow_scan(r, base, exp, FusedPow::Binary)
}
