//! Probable-prime tests and prime search on [`Natural`]s: the Baillie–PSW test
//! ([`is_probable_prime_vartime`]), Miller–Rabin with random bases ([`miller_rabin_vartime`]),
//! the least prime above a number ([`next_prime_vartime`]) and a batch test over the cores
//! ([`is_probable_prime_many_vartime`]).
//!
//! Baillie–PSW (Baillie–Wagstaff 1980 §5, Pomerance–Selfridge–Wagstaff 1980): trial division
//! by the odd primes below `crate::tuning::PRIME_TRIAL_LIMIT` (one multi-limb division per
//! word-sized product of primes, then word remainders), a strong probable-prime test to base 2
//! (Miller–Rabin), then a strong Lucas probable-prime test with Selfridge's method A
//! parameters: D the first of 5, -7, 9, -11, ... with Jacobi(D/n) = -1, P = 1,
//! Q = (1 - D)/4 (a perfect square is recognised first, for which no such D exists). No
//! composite passing it is known; numbers below 2^64 take the deterministic word test
//! ([`crate::word::is_prime_vartime`]).
//!
//! The exponentiation to base 2 runs on [`Modulus`] (the fused Montgomery kernels of the tier
//! in use); the Lucas chain and the squarings after the exponentiation run on the same
//! reducer's products on k-limb slices ([`Reducer::mul`], [`Reducer::sqr`]) with buffers
//! allocated once per test.
//!
//! Leaks: every function here is variable time in its input (trial division stops at a
//! factor, the tests stop at the first witness, the chains follow the bits of n).
//!
//! References:
//!
//! | Cited as | Reference |
//! | --- | --- |
//! | Baillie–Wagstaff 1980 | R. Baillie, S. S. Wagstaff Jr., "Lucas pseudoprimes", *Mathematics of Computation* 35 (152), 1980, pp. 1391–1417 (strong Lucas test, §5 the combined test) |
//! | Pomerance–Selfridge–Wagstaff 1980 | C. Pomerance, J. L. Selfridge, S. S. Wagstaff Jr., "The pseudoprimes to 25·10^9", *Mathematics of Computation* 35 (151), 1980, pp. 1003–1026 (method A for D) |
//! | FIPS 186-5 | NIST, *Digital Signature Standard (DSS)*, FIPS 186-5, 2023: Appendix B.3.1 (Miller–Rabin), B.3.3 (strong Lucas), Table B.1 (rounds) |
//! | Crandall–Pomerance | R. Crandall, C. Pomerance, *Prime Numbers: A Computational Perspective*, 2nd ed., Springer, 2005, §3.6.1 (Lucas chains: V_{2j} = V_j^2 - 2Q^j, V_{2j+1} = V_j V_{j+1} - P Q^j) |

mod lucas;
mod sieve;

use crate::alloc::{ensure_work, Work};
use crate::arith;
use crate::cancel::{self, Token};
use crate::error::{Error, Result};
use crate::exp::{batch::on_pool, Modulus, PowOptions};
use crate::limb::Limb;
use crate::natural::Natural;
use crate::reduce::{Reducer, ReducerKind};
use rayon::prelude::*;

pub use sieve::small_primes;

/// Whether `n` is a probable prime by the Baillie–PSW test (see the module docs): exact for
/// n < 2^64; above, no composite passing it is known. 0 and 1 are not prime.
/// Errors: [`Error::TooLarge`] when the working memory cannot be reserved, [`Error::Cancelled`]
/// when cancelled ([`crate::cancel`]).
/// Leaks: variable time (see the module docs).
pub fn is_probable_prime_vartime(n: &Natural) -> Result<bool> {
    match screen(n)? {
        Some(decided) => Ok(decided),
        None => bpsw_after_trial(n),
    }
}

/// Baillie–PSW for odd `n >= 2^64` with no prime factor below the trial limit.
fn bpsw_after_trial(n: &Natural) -> Result<bool> {
    let t = Tester::new(n)?;
    Ok(t.strong_probable_prime(&Natural::from(2u64))? && lucas::strong_lucas(&t)?)
}

/// Whether odd `n >= 3` is a strong probable prime to `base` (FIPS 186-5 B.3.1 for one
/// base: with n - 1 = d 2^s, d odd, `base^d = ±1` or `base^(d 2^r) = -1 mod n` for some
/// 0 < r < s). `false` for even n or n < 3. A base that is 0 or ±1 mod n makes every odd n
/// pass or fail trivially (0 fails, ±1 passes); choose bases in 2..=n-2.
/// Errors: [`Error::TooLarge`], [`Error::Cancelled`].
/// Leaks: variable time.
pub fn strong_probable_prime_vartime(n: &Natural, base: &Natural) -> Result<bool> {
    if !n.is_odd() || n.is_one() {
        return Ok(false);
    }
    Tester::new(n)?.strong_probable_prime(base)
}

/// Whether odd `n >= 3` is a strong Lucas probable prime with Selfridge's method A
/// parameters (the second half of Baillie–PSW; Baillie–Wagstaff 1980 §5, FIPS 186-5 B.3.3).
/// `false` for even n, n < 3, and perfect squares. Every odd prime passes; the smallest
/// composites that pass are 5459, 5777, 10877 (OEIS A217255).
/// Errors: [`Error::TooLarge`], [`Error::Cancelled`].
/// Leaks: variable time.
pub fn strong_lucas_probable_prime_vartime(n: &Natural) -> Result<bool> {
    if !n.is_odd() || n.is_one() {
        return Ok(false);
    }
    lucas::strong_lucas(&Tester::new(n)?)
}

/// Whether `n` passes `rounds` Miller–Rabin tests (FIPS 186-5 B.3.1) with bases drawn
/// uniformly from 2..=n-2 by the operating system's random number generator. A prime always
/// passes; a composite passes one round with probability at most 1/4. For n < 2^64 the
/// answer is the exact one of [`crate::word::is_prime_vartime`] (no randomness needed).
/// Errors: [`Error::Randomness`] if the generator fails, [`Error::TooLarge`],
/// [`Error::Cancelled`].
/// Leaks: variable time (the bases are not secret once drawn; the exponentiations are
/// variable time).
pub fn miller_rabin_vartime(n: &Natural, rounds: usize) -> Result<bool> {
    if let Some(w) = n.to_u64() {
        return Ok(crate::word::is_prime_vartime(w));
    }
    if !n.is_odd() {
        return Ok(false);
    }
    let t = Tester::new(n)?;
    let n_minus_3 = n
        .checked_sub_vartime(&Natural::from(3u64))
        .expect("n >= 2^64");
    for _ in 0..rounds {
        // a = 2 + uniform(0..=n-4) in 2..=n-2.
        let a = &random_below(&n_minus_3)? + &Natural::from(2u64);
        if !t.strong_probable_prime(&a)? {
            return Ok(false);
        }
    }
    Ok(true)
}

/// The probable-prime test of FIPS 186-5 B.3 for generated primes: trial division by the
/// odd primes below `trial_limit` (at most `crate::tuning::SIEVE_PRIMES_MAX`), `rounds`
/// Miller–Rabin tests with random bases (B.3.1; Table B.1 gives the rounds), then the strong
/// Lucas test (B.3.3). Numbers below 2^64 get the exact word test.
/// Errors: [`Error::Randomness`], [`Error::TooLarge`], [`Error::Cancelled`].
/// Leaks: variable time (the candidate is secret when generating keys, but a rejected
/// candidate is discarded, and the accepted one's tests are not: a timing side channel on
/// key generation, as in most libraries' prime generation; see [`crate::rsa`]).
pub fn is_probable_prime_fips_vartime(
    n: &Natural,
    rounds: usize,
    trial_limit: usize,
) -> Result<bool> {
    if let Some(w) = n.to_u64() {
        return Ok(crate::word::is_prime_vartime(w));
    }
    if !n.is_odd() || sieve::has_small_factor(n, trial_limit)? {
        return Ok(false);
    }
    Ok(miller_rabin_vartime(n, rounds)? && lucas::strong_lucas(&Tester::new(n)?)?)
}

/// A uniform random natural below `bound > 0`, by rejection on `bits(bound)` random bits (an
/// expected two draws at most) from the operating system.
/// Errors: [`Error::Randomness`].
/// Leaks: variable time: the number of draws.
pub fn random_below(bound: &Natural) -> Result<Natural> {
    let bits = bound.bits();
    loop {
        let x = random_bits(bits)?;
        if &x < bound {
            return Ok(x);
        }
    }
}

/// A uniform random natural of at most `bits` bits from the operating system.
/// Errors: [`Error::Randomness`].
/// Leaks: nothing but `bits`.
pub(crate) fn random_bits(bits: usize) -> Result<Natural> {
    let mut bytes = vec![0u8; bits.div_ceil(8)];
    getrandom::fill(&mut bytes).map_err(|e| Error::Randomness(e.to_string()))?;
    if !bits.is_multiple_of(8) {
        bytes[0] &= (1u8 << (bits % 8)) - 1;
    }
    Ok(Natural::from_be_bytes(&bytes))
}

/// The least prime above `n` (Baillie–PSW probable prime above 2^64): odd numbers from n + 1
/// on are sieved in windows by the small odd primes (one multi-limb division per word-sized
/// product of primes per window start, then word arithmetic), and the survivors tested in
/// order. Errors: [`Error::TooLarge`], [`Error::Cancelled`] (the search polls between
/// candidates, so a long gap can be interrupted).
/// Leaks: variable time (the gap and the tests).
pub fn next_prime_vartime(n: &Natural) -> Result<Natural> {
    if let Some(w) = n.to_u64().filter(|&w| w < u64::MAX - 58) {
        if w < 2 {
            return Ok(Natural::from(2u64));
        }
        // The largest prime below 2^64 is 2^64 - 59: above it, the search leaves the word.
        let mut x = (w + 1) | 1;
        while x <= u64::MAX - 58 {
            if crate::word::is_prime_vartime(x) {
                return Ok(Natural::from(x));
            }
            x += 2;
        }
        return sieve::next_prime_big(&Natural::power_of_two(64));
    }
    if n.len() == 1 {
        return sieve::next_prime_big(&Natural::power_of_two(64));
    }
    sieve::next_prime_big(&(n + &Natural::one()))
}

/// [`is_probable_prime_vartime`] of every number, in parallel on modred's rayon pool (or the
/// caller's, see [`crate::exp::batch`]): the word test and trial division first, then the
/// exponentiations of the strong test to base 2 as one batch
/// ([`crate::exp::batch::pow_batch_vartime`]: eight at a time in the lanes of AVX-512 IFMA
/// where they serve), then the squarings after them and the Lucas tests.
/// Errors: the first error of any item (the whole batch fails: [`Error::Cancelled`],
/// [`Error::TooLarge`]), or [`Error::Threads`] if no worker could be started.
/// Leaks: variable time, as [`is_probable_prime_vartime`].
pub fn is_probable_prime_many_vartime(ns: &[Natural]) -> Result<Vec<bool>> {
    let token = Token::current();
    let each = |n: &Natural, f: &(dyn Fn(&Natural) -> Result<Option<bool>> + Sync)| {
        token.install(|| {
            if cancel::requested() {
                Err(Error::Cancelled)
            } else {
                f(n)
            }
        })
    };
    on_pool(|| {
        // `None`: odd, above 2^64 and without a small factor, so the strong test decides.
        let screened: Vec<Option<bool>> = ns
            .par_iter()
            .map(|n| each(n, &screen))
            .collect::<Result<_>>()?;
        let open: Vec<usize> = (0..ns.len()).filter(|&i| screened[i].is_none()).collect();
        let triples: Vec<(Natural, Natural, Natural)> = open
            .iter()
            .map(|&i| {
                let n = &ns[i];
                let n_minus_1 = n.checked_sub_vartime(&Natural::one()).expect("n > 2^64");
                let s = n_minus_1.trailing_zeros_vartime().expect("n - 1 > 0");
                (Natural::from(2u64), &n_minus_1 >> s, n.clone())
            })
            .collect();
        let powers = token.install(|| crate::exp::batch::pow_batch_vartime(&triples))?;
        let decided: Vec<bool> = open
            .par_iter()
            .zip(powers)
            .map(|(&i, x)| {
                let x = x?;
                each(&ns[i], &|n| {
                    let t = Tester::new(n)?;
                    Ok(Some(t.strong_from_power(&x) && lucas::strong_lucas(&t)?))
                })
                .map(|r| r == Some(true))
            })
            .collect::<Result<_>>()?;
        let mut decided = decided.into_iter();
        Ok(screened
            .into_iter()
            .map(|r| r.unwrap_or_else(|| decided.next().expect("one decision per open item")))
            .collect())
    })?
}

/// What the word test and trial division decide of `n` (`None`: odd, at least 2^64, no
/// prime factor below the trial limit).
fn screen(n: &Natural) -> Result<Option<bool>> {
    if let Some(w) = n.to_u64() {
        return Ok(Some(crate::word::is_prime_vartime(w)));
    }
    if !n.is_odd() || sieve::has_small_factor(n, crate::tuning::PRIME_TRIAL_LIMIT)? {
        return Ok(Some(false));
    }
    Ok(None)
}

/// The context of the tests on one odd `n >= 3`: its [`Modulus`] (built once), n - 1 =
/// d 2^s with d odd, and the representations of 1 and -1.
pub(crate) struct Tester {
    n: Natural,
    modulus: Modulus,
    /// n - 1 = d 2^s, d odd.
    d: Natural,
    s: usize,
    /// Representations of 1 and n - 1 in the reducer's form.
    one: Vec<Limb>,
    minus_one: Vec<Limb>,
}

impl Tester {
    /// The context for odd `n >= 3`. Errors: [`Error::TooLarge`].
    pub(crate) fn new(n: &Natural) -> Result<Self> {
        debug_assert!(n.is_odd() && !n.is_one());
        ensure_work(Work::Power, n.len(), 0)?;
        let modulus = Modulus::new(n, ReducerKind::Auto)?;
        let r = modulus.reducer().expect("n > 1 has a reducer");
        let n_minus_1 = n.checked_sub_vartime(&Natural::one()).expect("n > 1");
        let s = n_minus_1.trailing_zeros_vartime().expect("n - 1 > 0");
        let d = &n_minus_1 >> s;
        let one = r.one().to_vec();
        // repr(-1) = n - repr(1) (repr(1) is non-zero for n > 1; representations are linear).
        let mut minus_one = n.limbs().to_vec();
        arith::sub_n_in_place(&mut minus_one, &one);
        Ok(Self {
            n: n.clone(),
            modulus,
            d,
            s,
            one,
            minus_one,
        })
    }

    pub(crate) fn reducer(&self) -> &dyn Reducer {
        self.modulus.reducer().expect("n > 1 has a reducer")
    }

    pub(crate) fn n(&self) -> &Natural {
        &self.n
    }

    /// Whether n is a strong probable prime to base `a` (FIPS 186-5 B.3.1 steps 4.1-4.7):
    /// `x = a^d mod n` on the modulus' fused kernels; n passes if x = ±1, or if one of the
    /// next s - 1 squarings (on the reducer's slices) gives -1. Errors: [`Error::Cancelled`] (the exponentiation's result is
    /// then meaningless).
    /// Leaks: variable time (the exponentiation and the early exits).
    pub(crate) fn strong_probable_prime(&self, a: &Natural) -> Result<bool> {
        let x = self
            .modulus
            .pow_vartime(a, &self.d, &PowOptions::default())?;
        if cancel::requested() {
            return Err(Error::Cancelled);
        }
        Ok(self.strong_from_power(&x))
    }

    /// The rest of the strong test once `x = a^d mod n` is known: n passes if x = ±1, or if
    /// one of the next s - 1 squarings (on the reducer's slices) gives -1.
    /// Leaks: variable time (the early exits).
    pub(crate) fn strong_from_power(&self, x: &Natural) -> bool {
        let r = self.reducer();
        let k = r.len();
        let mut scratch = vec![0; r.scratch_len()];
        let mut acc = vec![0; k];
        let mut tmp = vec![0; k];
        r.to_repr(&mut acc, &x.to_padded(k).expect("x < n"), &mut scratch);
        if acc == self.one || acc == self.minus_one {
            return true;
        }
        // Invariant: acc = repr(a^(d 2^i)) for i = 0, 1, ..., neither 1 nor -1 so far.
        for _ in 1..self.s {
            r.sqr(&mut tmp, &acc, &mut scratch);
            core::mem::swap(&mut acc, &mut tmp);
            debug_assert!(arith::cmp_n(&acc, self.n.limbs()).is_lt());
            if acc == self.minus_one {
                return true;
            }
            if acc == self.one {
                // A non-trivial square root of 1: composite.
                return false;
            }
        }
        false
    }
}
