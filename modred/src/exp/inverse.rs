//! Greatest common divisor and modular inverse: the half-GCD for long operands and Lehmer's
//! double-digit steps below (`arith::gcd`; Möller, "On Schönhage's algorithm and subquadratic
//! integer GCD computation", *Math. Comp.* 77, 2008), subquadratic. Variable time. Both poll
//! [`crate::cancel`] at every Lehmer step (microseconds even at 2^22 bits) and every half-GCD
//! call.

use crate::alloc::{ensure_work, Work};
use crate::arith;
use crate::cancel;
use crate::error::{Error, Result};
use crate::natural::Natural;

/// gcd(a, b) (gcd(0, 0) = 0); once cancelled, a meaningless value.
/// Leaks: variable time: the number of reduction steps and their quotients.
pub fn gcd_vartime(a: &Natural, b: &Natural) -> Natural {
    Natural::from_limbs(arith::gcd::gcd_vartime(a.limbs(), b.limbs()))
}

/// `a^{-1} mod m`: the `x < m` with `a x = 1 (mod m)`. Errors: `m = 0` ([`Error::ZeroModulus`]),
/// gcd(a, m) != 1 ([`Error::NotInvertible`]), cancelled ([`Error::Cancelled`]), working memory
/// that cannot be reserved ([`Error::TooLarge`]). For m = 1 the answer is 0 (as Python's
/// `pow(a, -1, 1)`). `a` may be larger than `m`.
/// Leaks: variable time: the number of reduction steps and their quotients.
pub fn inverse_vartime(a: &Natural, m: &Natural) -> Result<Natural> {
    if m.is_zero() {
        return Err(Error::ZeroModulus);
    }
    if m.is_one() {
        return Ok(Natural::zero());
    }
    ensure_work(Work::Inverse, m.len().max(a.len()), 0)?;
    let a = if a < m { a.clone() } else { a % m };
    let (g, u) = arith::gcd::gcd_cofactor_vartime(m.limbs(), a.limbs());
    if cancel::requested() {
        return Err(Error::Cancelled);
    }
    if g != [1] {
        return Err(Error::NotInvertible);
    }
    Ok(Natural::from_limbs(u))
}
