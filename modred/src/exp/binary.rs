//! `binary`: left-to-right square-and-multiply (seed 002, "ModExp").
//!
//! Computes `base^exp mod m` with one squaring per exponent bit below the top one and one
//! multiplication per further set bit. Variable time: the multiplications follow the set bits of
//! the exponent. Works in the representation of any [`Reducer`].

use super::Ops;
use crate::arith;
use crate::limb::Limb;
use crate::reduce::Reducer;

/// `base^exp mod m` for `base < m` (k limbs) and any `exp` (little-endian limbs, may be untrimmed);
/// returns k limbs `< m`. Variable time.
pub fn pow<R: Reducer + ?Sized>(r: &R, base: &[Limb], exp: &[Limb]) -> Vec<Limb> {
    let mut ops = Ops::new(r);
    let bits = arith::bit_len(exp);
    if bits == 0 {
        return ops.one_plain();
    }
    let g = ops.enter(base);
    let mut acc = g.clone();
    // Invariant: acc = g^(exp >> i) in representation.
    for i in (0..bits - 1).rev() {
        ops.sqr_in_place(&mut acc);
        if arith::bit(exp, i) {
            ops.mul_in_place(&mut acc, &g);
        }
    }
    ops.leave(&acc)
}
