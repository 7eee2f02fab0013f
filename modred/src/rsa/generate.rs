//! RSA key generation with probable primes, FIPS 186-5 Appendix A.1.3.

use super::{invalid, PrivateKey, MAX_BITS, MIN_BITS};
use crate::cancel;
use crate::error::{Error, Result};
use crate::exp;
use crate::natural::Natural;
use crate::prime::{self, random_bits};
use crate::tuning::KEYGEN_TRIAL_LIMIT;

/// The public exponent of generated keys.
pub const GENERATED_E: u64 = 65537;

/// Miller–Rabin rounds for a prime of `bits` bits (FIPS 186-5 Table B.1, probable primes
/// followed by the Lucas test, at the key size's security strength: 5 for 1024-bit primes
/// (nlen 2048), 4 for 1536 and 2048 (nlen 3072, 4096)). Below 1024 bits, outside the
/// standard's sizes (test keys), 8.
fn mr_rounds(bits: usize) -> usize {
    match bits {
        0..=1023 => 8,
        1024..=1535 => 5,
        _ => 4,
    }
}

impl PrivateKey {
    /// A new key with an n of `bits` bits and e = 65537, by FIPS 186-5 Appendix A.1.3 with
    /// probable primes: p and q are `bits/2`-bit random odd numbers from the operating
    /// system's generator, each redrawn until p >= sqrt(2) 2^(bits/2 - 1) (tested exactly as
    /// p^2 >= 2^(bits - 1)), gcd(e, p - 1) = 1 (p != 1 mod e, e being prime) and p passes
    /// [`prime::is_probable_prime_fips_vartime`] (trial division, the Miller–Rabin rounds of
    /// Table B.1, the strong Lucas test); q must also satisfy |p - q| > 2^(bits/2 - 100).
    /// d = e^{-1} mod lcm(p - 1, q - 1), and the pair is redrawn unless d > 2^(bits/2).
    /// `bits` must be even and within [`MIN_BITS`]..=[`MAX_BITS`] (FIPS 186-5 names 2048,
    /// 3072 and 4096; the smaller sizes are for tests).
    /// Errors: [`Error::InvalidParameter`] for `bits`, [`Error::Randomness`],
    /// [`Error::Cancelled`].
    /// Leaks: variable time in the secret primes (the candidates' tests, as in OpenSSL's and
    /// GMP-based generators; the rejected candidates are independent of the key), the
    /// inverse, and the key's construction (see [`Self::from_components`]).
    pub fn generate(bits: usize) -> Result<Self> {
        if !bits.is_multiple_of(2) || !(MIN_BITS..=MAX_BITS).contains(&bits) {
            return Err(Error::InvalidParameter(format!(
                "RSA key size {bits}: must be even and within {MIN_BITS}..={MAX_BITS} bits"
            )));
        }
        let half = bits / 2;
        let e = Natural::from(GENERATED_E);
        let min_gap = Natural::power_of_two(half - 100);
        let one = Natural::one();
        loop {
            let p = random_prime(half, bits)?;
            let q = loop {
                let q = random_prime(half, bits)?;
                let gap = p
                    .checked_sub_vartime(&q)
                    .or_else(|| q.checked_sub_vartime(&p));
                if gap.is_some_and(|g| g > min_gap) {
                    break q;
                }
            };
            let pm1 = p.checked_sub_vartime(&one).expect("p > 1");
            let qm1 = q.checked_sub_vartime(&one).expect("q > 1");
            let g = exp::gcd_vartime(&pm1, &qm1);
            let lambda = (&pm1 * &qm1).div_rem_vartime(&g).expect("g > 0").0;
            let d = exp::inverse_vartime(&e, &lambda)
                .map_err(|_| invalid("e is not invertible modulo lcm(p - 1, q - 1)"))?;
            // FIPS 186-5 A.1.1 step 3 (A.1.3 step 7): d > 2^(nlen/2), else redraw.
            if d.bits() <= half {
                continue;
            }
            let n = &p * &q;
            return Self::from_components(&n, &e, &d, Some(&p), Some(&q));
        }
    }
}

/// A random probable prime p of `half` bits for an n of `bits` bits (FIPS 186-5 A.1.3 step
/// 4): p odd, p >= sqrt(2) 2^(half - 1), p != 1 mod e, and the tests.
/// Leaks: variable time (see [`PrivateKey::generate`]).
fn random_prime(half: usize, bits: usize) -> Result<Natural> {
    let e = Natural::from(GENERATED_E);
    let odd_top = &Natural::power_of_two(half - 1) + &Natural::one();
    loop {
        if cancel::requested() {
            return Err(Error::Cancelled);
        }
        // Step 4.2-4.3: a random half-bit odd number (top bit set, as a half-bit string).
        let p = &random_bits(half - 1)? + &odd_top;
        let p = if p.is_odd() { p } else { &p + &Natural::one() };
        if p.bits() != half {
            continue;
        }
        // Step 4.4: p >= sqrt(2) 2^(half - 1) iff p^2 >= 2^(bits - 1) (p^2 < 2^bits).
        if (&p * &p).bits() < bits {
            continue;
        }
        // Step 4.5: gcd(p - 1, e) = 1, e prime.
        if (&p % &e).is_one() {
            continue;
        }
        if prime::is_probable_prime_fips_vartime(&p, mr_rounds(half), KEYGEN_TRIAL_LIMIT)? {
            return Ok(p);
        }
    }
}
