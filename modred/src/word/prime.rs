//! Deterministic Miller–Rabin primality test for every u64, on [`Monty64`].
//!
//! Witness set: Jim Sinclair's seven bases {2, 325, 9375, 28178, 450775, 9780504, 1795265022},
//! found in 2011 and verified against the complete list of base-2 strong pseudoprimes below
//! 2^64 (Feitsma–Galway); published at miller-rabin.appspot.com. A base that is 0 mod n is
//! skipped (it says nothing; this only happens for n dividing the base: the tests check every
//! divisor of every base against a factorization). The first twelve primes 2..=37
//! (Sorenson and Webster, "Strong pseudoprimes to twelve prime bases", Math. Comp. 86, 2017:
//! correct below 3.18e23) are exported as a second, independent set for cross-checking.

use super::montgomery64::Monty64;
use crate::limb::Limb;

/// Jim Sinclair's deterministic witness set for n < 2^64.
pub const SINCLAIR_BASES: [Limb; 7] = [2, 325, 9375, 28178, 450775, 9780504, 1795265022];

/// The first twelve primes: deterministic witnesses for n < 3.18e23 (Sorenson–Webster).
pub const FIRST_12_PRIMES: [Limb; 12] = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37];

/// Whether odd `n > 2` is a strong probable prime to every base in `bases` (bases are reduced
/// mod n; a base that is 0 mod n is skipped). Returns `false` for even or `n < 3`.
/// Leaks: variable time: it stops at the first base that decides, the squaring loop exits
/// early, and the bases are reduced by hardware division.
pub fn miller_rabin_vartime(n: Limb, bases: &[Limb]) -> bool {
    if n < 3 || n & 1 == 0 {
        return false;
    }
    let Ok(ctx) = Monty64::new(n) else {
        return false;
    };
    // n - 1 = d 2^s with d odd.
    let s = (n - 1).trailing_zeros();
    let d = (n - 1) >> s;
    let one = ctx.one();
    let minus_one = n - one; // Montgomery form of n - 1 (one = R mod n is non-zero for n > 1)
    'bases: for &a in bases {
        let a = a % n;
        if a == 0 {
            continue;
        }
        let mut x = ctx.pow_monty_vartime(ctx.to_monty(a), d);
        if x == one || x == minus_one {
            continue;
        }
        for _ in 1..s {
            x = ctx.mul_unchecked(x, x); // x < m
            if x == minus_one {
                continue 'bases;
            }
            if x == one {
                return false;
            }
        }
        return false;
    }
    true
}

/// Whether `n` is prime, deterministically for every u64: trial division by the primes up to
/// 37, then [`miller_rabin_vartime`] with [`SINCLAIR_BASES`].
/// Leaks: variable time: the trial divisions stop at the first factor, then
/// [`miller_rabin_vartime`]'s.
pub fn is_prime_vartime(n: Limb) -> bool {
    if n < 2 {
        return false;
    }
    for p in FIRST_12_PRIMES {
        if n == p {
            return true;
        }
        if n.is_multiple_of(p) {
            return false;
        }
    }
    // No prime factor <= 37, so n < 41^2 is prime.
    if n < 41 * 41 {
        return true;
    }
    miller_rabin_vartime(n, &SINCLAIR_BASES)
}
