//! The primes of an RSA modulus from (n, e, d): the probabilistic prime-factor recovery of
//! NIST SP 800-56B rev. 2 (2019), Appendix C.1. With k = e d - 1 = 2^t r (r odd), a base g with
//! g^(2^j r) = 1 but g^(2^(j-1) r) = y != +-1 gives a non-trivial square root of 1, and
//! gcd(y - 1, n) is a prime factor. Each base succeeds with probability at least 1/2; the
//! bases tried here are 2, 3, 4, ... (100 of them, as the standard's bound on attempts).

use crate::error::{Error, Result};
use crate::exp::{self, Modulus, PowOptions};
use crate::natural::Natural;
use crate::reduce::ReducerKind;

/// Bases tried before giving up (SP 800-56B rev. 2, Appendix C.1, step 3).
const ATTEMPTS: u64 = 100;

/// (p, q) with p q = n, p > q, from n, e and d. Errors ([`Error::InvalidKey`]): e d - 1 odd or
/// zero, or no factor found (d does not belong to e and n).
/// Leaks: variable time (it runs once, when a key is loaded).
pub(crate) fn primes(n: &Natural, e: &Natural, d: &Natural) -> Result<(Natural, Natural)> {
    let fail = || {
        Error::InvalidKey(
            "cannot recover p and q from n, e and d (d does not match n and e)".into(),
        )
    };
    let one = Natural::one();
    let k = (e * d).checked_sub_vartime(&one).ok_or_else(fail)?;
    let t = k.trailing_zeros_vartime().ok_or_else(fail)?;
    if t == 0 {
        return Err(fail());
    }
    let r = &k >> t;
    let modulus = Modulus::new(n, ReducerKind::Auto)?;
    let n_minus_1 = n.checked_sub_vartime(&one).ok_or_else(fail)?;
    let opts = PowOptions::default();
    for g in 2..2 + ATTEMPTS {
        let mut y = modulus.pow_vartime(&Natural::from(g), &r, &opts)?;
        if y == one || y == n_minus_1 {
            continue;
        }
        for _ in 1..=t {
            let x = modulus.sqr_vartime(&y)?;
            if x == one {
                // y is a square root of 1 other than +-1.
                let y_minus_1 = y.checked_sub_vartime(&one).ok_or_else(fail)?;
                let p = exp::gcd_vartime(&y_minus_1, n);
                let (q, rem) = n.div_rem_vartime(&p).ok_or_else(fail)?;
                if !rem.is_zero() || p == one || q == one {
                    return Err(fail());
                }
                return Ok(if p > q { (p, q) } else { (q, p) });
            }
            if x == n_minus_1 {
                break;
            }
            y = x;
        }
    }
    Err(fail())
}
