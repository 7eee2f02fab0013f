//! Greatest common divisor and modular inverse by the extended Euclidean algorithm
//! (HAC Algorithm 2.107 / 14.61's integer form). Variable time. Both poll
//! [`crate::cancel`] once per division step (one step of a 2^20-bit inverse takes tens of
//! microseconds, and a whole inverse up to tens of seconds).

use crate::cancel;
use crate::error::{Error, Result};
use crate::natural::Natural;

/// gcd(a, b) by Euclid's algorithm (gcd(0, 0) = 0); once cancelled, a meaningless value.
/// Leaks: variable time: the number of division steps and each division's.
pub fn gcd_vartime(a: &Natural, b: &Natural) -> Natural {
    let (mut x, mut y) = (a.clone(), b.clone());
    while !y.is_zero() && !cancel::requested() {
        let r = &x % &y;
        x = core::mem::replace(&mut y, r);
    }
    x
}

/// `a^{-1} mod m`: the `x < m` with `a x = 1 (mod m)`. Errors: `m = 0` ([`Error::ZeroModulus`]),
/// gcd(a, m) != 1 ([`Error::NotInvertible`]), cancelled ([`Error::Cancelled`]). For m = 1
/// the answer is 0 (as Python's `pow(a, -1, 1)`).
/// Leaks: variable time: the number of division steps and each division's.
pub fn inverse_vartime(a: &Natural, m: &Natural) -> Result<Natural> {
    if m.is_zero() {
        return Err(Error::ZeroModulus);
    }
    if m.is_one() {
        return Ok(Natural::zero());
    }
    // Remainder sequence r_{i+1} = r_{i-1} - q_i r_i with cofactors s_i (r_i = s_i a mod m).
    // The s_i alternate in sign and grow in magnitude, so we keep |s_i| and the parity of i:
    // |s_{i+1}| = |s_{i-1}| + q_i |s_i|, and s_i >= 0 exactly for odd i (s_0 = 0, s_1 = 1, s_2 = -q_1, ...). |s_i| <= m throughout.
    let (mut r0, mut r1) = (m.clone(), a % m);
    let (mut s0, mut s1) = (Natural::zero(), Natural::one());
    let mut i = 1usize; // index of r1 / s1
    while !r1.is_zero() {
        if cancel::requested() {
            return Err(Error::Cancelled);
        }
        let (q, r) = r0.div_rem_vartime(&r1).expect("r1 != 0");
        let s = &s0 + &(&q * &s1);
        r0 = core::mem::replace(&mut r1, r);
        s0 = core::mem::replace(&mut s1, s);
        i += 1;
    }
    // Now r0 = gcd(a, m) = s0 a (mod m) with s0 the cofactor of index i - 1.
    if !r0.is_one() {
        return Err(Error::NotInvertible);
    }
    let s0 = &s0 % m;
    if (i - 1) % 2 == 1 || s0.is_zero() {
        Ok(s0)
    } else {
        Ok(m.checked_sub_vartime(&s0).expect("s0 < m"))
    }
}
