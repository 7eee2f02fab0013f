//! The small odd primes, trial division by them, and the sieved search of
//! [`super::next_prime_vartime`].

use super::Tester;
use crate::alloc::{ensure_work, zeroed, Work};
use crate::arith;
use crate::cancel;
use crate::error::{Error, Result};
use crate::natural::Natural;
use crate::tuning::{next_prime_sieve_limit, SIEVE_PRIMES_MAX};
use std::sync::OnceLock;

/// The odd primes below [`SIEVE_PRIMES_MAX`], and the products of runs of consecutive ones
/// that fit a word (each with the range of the run), computed once.
struct Table {
    primes: Vec<u32>,
    /// (product, first index, end index) of each run, in increasing order of the primes.
    groups: Vec<(u64, usize, usize)>,
}

/// The table's peak while it is built: the sieve (one byte per odd number below
/// `SIEVE_PRIMES_MAX`), the primes and the runs, each with the copy a growing `Vec` makes
/// (about 2.2 MB for 2^20), rounded up.
const TABLE_BUILD_BYTES: u128 = 4 << 20;

/// The table, built on first use after one trial reservation of its peak
/// ([`crate::alloc::ensure_available`]): [`Error::TooLarge`] if that memory cannot be had.
fn table() -> Result<&'static Table> {
    static TABLE: OnceLock<Table> = OnceLock::new();
    if let Some(t) = TABLE.get() {
        return Ok(t);
    }
    crate::alloc::ensure_available("the small-prime table", TABLE_BUILD_BYTES)?;
    Ok(TABLE.get_or_init(|| {
        // Sieve of Eratosthenes on the odd numbers: entry i stands for 2i + 1.
        let half = SIEVE_PRIMES_MAX / 2;
        let mut composite = vec![false; half];
        let mut i = 1;
        while (2 * i + 1) * (2 * i + 1) < SIEVE_PRIMES_MAX {
            if !composite[i] {
                let p = 2 * i + 1;
                let mut j = p * p / 2;
                while j < half {
                    composite[j] = true;
                    j += p;
                }
            }
            i += 1;
        }
        let primes: Vec<u32> = (1..half)
            .filter(|&i| !composite[i])
            .map(|i| (2 * i + 1) as u32)
            .collect();
        let mut groups = vec![];
        let mut start = 0;
        while start < primes.len() {
            let (mut product, mut end) = (1u64, start);
            while end < primes.len() {
                match product.checked_mul(primes[end] as u64) {
                    Some(p) => product = p,
                    None => break,
                }
                end += 1;
            }
            groups.push((product, start, end));
            start = end;
        }
        Table { primes, groups }
    }))
}

/// The odd primes below `SIEVE_PRIMES_MAX` (3, 5, 7, ...), in increasing order, or
/// [`Error::TooLarge`] when the table (built on first use) cannot have its memory.
pub fn small_primes() -> Result<&'static [u32]> {
    Ok(&table()?.primes)
}

/// Whether `n` (above 2^64, so above every small prime) has an odd prime factor below
/// `limit` (at most [`SIEVE_PRIMES_MAX`]; [`crate::tuning::PRIME_TRIAL_LIMIT`] for the Baillie–PSW test): `n mod` each product of a run of primes by one pass of word
/// divisions, then a word remainder per prime; stops at the first factor. Errors:
/// [`Error::TooLarge`] when the table cannot be built.
/// Leaks: variable time: the first factor found, and `div` latencies.
pub(crate) fn has_small_factor(n: &Natural, limit: usize) -> Result<bool> {
    debug_assert!(n.len() >= 2);
    let t = table()?;
    for &(product, start, end) in &t.groups {
        if t.primes[start] as usize >= limit {
            break;
        }
        let r = arith::div_rem_1(None, n.limbs(), product);
        if t.primes[start..end]
            .iter()
            .any(|&p| (p as usize) < limit && r.is_multiple_of(p as u64))
        {
            return Ok(true);
        }
    }
    Ok(false)
}

/// The least probable prime (Baillie–PSW) `>= start`, for `start >= 2^64`: the odd numbers
/// `start' + 2i` (start' = start rounded up to odd) are sieved in windows of
/// `max(2 bits, 256)` entries by the odd primes below [`next_prime_sieve_limit`] — for each
/// prime p the first index it strikes, `i = (-start') 2^{-1} mod p`, from `start' mod p`
/// (one multi-limb division per word-sized product of primes), then every p-th entry — and
/// the unstruck entries are tested in order by the base-2 strong test and the strong Lucas
/// test. Errors: [`Error::TooLarge`], [`Error::Cancelled`] (checked before each candidate).
/// Leaks: variable time (the gap, the tests).
pub(crate) fn next_prime_big(start: &Natural) -> Result<Natural> {
    debug_assert!(start.len() >= 2);
    ensure_work(Work::Power, start.len() + 1, 0)?;
    let start = if start.is_odd() {
        start.clone()
    } else {
        start + &Natural::one()
    };
    let t = table()?;
    let limit = next_prime_sieve_limit(start.bits()).min(SIEVE_PRIMES_MAX);
    let count = t.primes.partition_point(|&p| (p as usize) < limit);
    let width = (2 * start.bits()).max(256);
    // next[j]: the next index (from the search's start) that primes[j] strikes.
    let mut next = Vec::new();
    next.try_reserve_exact(count).map_err(|_| Error::TooLarge {
        what: "the sieve's offsets".into(),
        bytes: (count * 8) as u128,
    })?;
    for &(product, a, b) in &t.groups {
        if a >= count {
            break;
        }
        // One pass of word divisions per product: poll between them (a huge start).
        if cancel::requested() {
            return Err(Error::Cancelled);
        }
        let r = arith::div_rem_1(None, start.limbs(), product);
        for &p in &t.primes[a..b.min(count)] {
            let p = p as u64;
            // start + 2i = 0 mod p  <=>  i = (p - r) (p + 1)/2 mod p.
            let i = ((p - r % p) % p) * p.div_ceil(2) % p;
            next.push(i);
        }
    }
    debug_assert_eq!(next.len(), count);
    let mut struck = zeroed("the sieve's window", width)?;
    let mut base = 0u64;
    loop {
        struck.fill(0);
        // Invariant: next[j] is the least index >= base that primes[j] strikes.
        for (j, &p) in t.primes[..count].iter().enumerate() {
            let p = p as u64;
            let mut i = next[j];
            debug_assert!(i >= base && i < base + p);
            while i < base + width as u64 {
                struck[(i - base) as usize] = 1;
                i += p;
            }
            next[j] = i;
        }
        for (i, &s) in struck.iter().enumerate() {
            if s != 0 {
                continue;
            }
            if cancel::requested() {
                return Err(Error::Cancelled);
            }
            let offset = Natural::from(2 * (base + i as u64));
            let candidate = &start + &offset;
            let t = Tester::new(&candidate)?;
            if t.strong_probable_prime(&Natural::from(2u64))? && super::lucas::strong_lucas(&t)? {
                return Ok(candidate);
            }
        }
        base += width as u64;
    }
}
