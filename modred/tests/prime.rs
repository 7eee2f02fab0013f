//! `modred::prime`: Baillie–PSW, Miller–Rabin, the strong tests alone, next_prime and the
//! batch test, against a sieve, the published pseudoprime lists, num-bigint (a deterministic
//! Miller–Rabin to the first 12 prime bases, exact below 3.18e23) and GMP (rug's
//! `is_probably_prime(25)`, `next_prime`).

mod common;

use common::{big, nat, to_rug};
use modred::prime::{
    is_probable_prime_many_vartime, is_probable_prime_vartime, miller_rabin_vartime,
    next_prime_vartime, strong_lucas_probable_prime_vartime, strong_probable_prime_vartime,
};
use modred::Natural;
use num_bigint::{BigUint, RandBigInt};
use num_traits::One;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use rug::integer::IsPrime;
use rug::Integer;

fn sieve(limit: usize) -> Vec<bool> {
    let mut p = vec![true; limit];
    p[0] = false;
    p[1] = false;
    let mut i = 2;
    while i * i < limit {
        if p[i] {
            (i * i..limit).step_by(i).for_each(|j| p[j] = false);
        }
        i += 1;
    }
    p
}

fn n(x: u64) -> Natural {
    Natural::from(x)
}

fn dec(s: &str) -> Natural {
    Natural::parse(s).expect("decimal")
}

fn rug_of(x: &Natural) -> Integer {
    to_rug(&big(x))
}

fn nat_of(x: &Integer) -> Natural {
    dec(&x.to_string())
}

fn gmp_prime(x: &Natural) -> bool {
    rug_of(x).is_probably_prime(25) != IsPrime::No
}

/// num-bigint oracle: strong probable prime to each of the first 12 primes (exact below
/// 3.18e23, Sorenson–Webster 2017).
fn bigint_mr12(x: &BigUint) -> bool {
    let one = BigUint::one();
    let two = BigUint::from(2u32);
    if *x < two {
        return false;
    }
    let small = [2u32, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37];
    for p in small {
        if *x == BigUint::from(p) {
            return true;
        }
        if (x % p) == BigUint::from(0u32) {
            return false;
        }
    }
    let xm1 = x - &one;
    let s = xm1.trailing_zeros().expect("x > 1");
    let d = &xm1 >> s;
    'bases: for a in small {
        let mut y = BigUint::from(a).modpow(&d, x);
        if y == one || y == xm1 {
            continue;
        }
        for _ in 1..s {
            y = &y * &y % x;
            if y == xm1 {
                continue 'bases;
            }
        }
        return false;
    }
    true
}

/// Every n below 10^5 against a sieve; the strong tests alone on every odd n in 3..10^5: the
/// composites passing base 2 are exactly OEIS A001262's, those passing the strong Lucas test
/// exactly A217255's.
#[test]
fn below_100000_match_the_sieve_and_the_pseudoprime_lists() {
    const LIMIT: usize = 100_000;
    let is_p = sieve(LIMIT);
    for (i, &want) in is_p.iter().enumerate() {
        assert_eq!(is_probable_prime_vartime(&n(i as u64)), Ok(want), "{i}");
    }
    let sprp2: Vec<u64> = vec![
        2047, 3277, 4033, 4681, 8321, 15841, 29341, 42799, 49141, 52633, 65281, 74665, 80581,
        85489, 88357, 90751,
    ];
    let slprp: Vec<u64> = vec![
        5459, 5777, 10877, 16109, 18971, 22499, 24569, 25199, 40309, 58519, 75077, 97439,
    ];
    let (mut got2, mut got_lucas) = (vec![], vec![]);
    for i in (3..LIMIT as u64).step_by(2) {
        let x = n(i);
        let b2 = strong_probable_prime_vartime(&x, &n(2)).unwrap();
        let l = strong_lucas_probable_prime_vartime(&x).unwrap();
        if is_p[i as usize] {
            assert!(b2 && l, "prime {i} failed: base 2 {b2}, Lucas {l}");
        } else {
            if b2 {
                got2.push(i);
            }
            if l {
                got_lucas.push(i);
            }
        }
    }
    assert_eq!(got2, sprp2);
    assert_eq!(got_lucas, slprp);
    for x in [0u64, 1, 2, 4, 100] {
        assert_eq!(strong_lucas_probable_prime_vartime(&n(x)), Ok(false));
        assert_eq!(strong_probable_prime_vartime(&n(x), &n(2)), Ok(false));
    }
}

/// Every odd n in [2^64, 2^64 + 2 10^4) (the Baillie–PSW path) against num-bigint's
/// 12-base test and GMP.
#[test]
fn just_above_2_64_match_both_oracles() {
    let base = BigUint::from(1u8) << 64;
    let mut primes = 0;
    for i in (1..20_000u32).step_by(2) {
        let x = &base + i;
        let want = bigint_mr12(&x);
        let got = is_probable_prime_vartime(&nat(&x)).unwrap();
        assert_eq!(got, want, "2^64 + {i}");
        assert_eq!(got, gmp_prime(&nat(&x)), "GMP: 2^64 + {i}");
        primes += got as usize;
    }
    assert!(primes > 400, "{primes} primes");
}

/// Arnault's 397-digit Carmichael number, a strong pseudoprime to every prime base below
/// 307 (Arnault, "Rabin-Miller primality test: composite numbers which pass it", Math. Comp.
/// 64, 1995): N = p (313 (p - 1) + 1) (353 (p - 1) + 1).
fn arnault() -> Natural {
    let p = Integer::from_str_radix(
        "29674495668685510550154174642905332730771991799853043350995075531276838753171770199594238596428121188033664754218345562493168782883",
        10,
    )
    .unwrap();
    let n: Integer = p.clone() * (313 * (p.clone() - 1) + 1) * (353 * (p - 1) + 1);
    let s = n.to_string();
    assert_eq!(s.len(), 397);
    assert!(s.starts_with("2887148238050771212671429597130393991977609459279"));
    nat_of(&n)
}

#[test]
fn strong_pseudoprimes_carmichael_and_lucas_pseudoprimes_are_composite() {
    // Strong pseudoprimes to base 2, and Jaeschke's psi_5..psi_9 (strong to the first 5..9
    // prime bases), all below 2^64; psi_12 and psi_13 (Sorenson–Webster 2017) above.
    let word = [
        2047u64,
        3215031751,
        2152302898747,
        3474749660383,
        341550071728321,
        3825123056546413051,
    ];
    for x in word {
        assert!(strong_probable_prime_vartime(&n(x), &n(2)).unwrap(), "{x}");
        assert_eq!(is_probable_prime_vartime(&n(x)), Ok(false), "{x}");
    }
    let first_primes = [2u64, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41];
    for (x, bases) in [
        ("318665857834031151167461", 12),
        ("3317044064679887385961981", 13),
    ] {
        let x = dec(x);
        for &a in &first_primes[..bases] {
            assert!(
                strong_probable_prime_vartime(&x, &n(a)).unwrap(),
                "{x} base {a}"
            );
        }
        assert!(!gmp_prime(&x));
        assert_eq!(is_probable_prime_vartime(&x), Ok(false), "{x}");
        assert_eq!(miller_rabin_vartime(&x, 20), Ok(false), "{x}");
    }
    let a = arnault();
    for p in [2u64, 3, 5, 101, 293] {
        assert!(
            strong_probable_prime_vartime(&a, &n(p)).unwrap(),
            "base {p}"
        );
    }
    assert!(!strong_probable_prime_vartime(&a, &n(307)).unwrap());
    assert_eq!(is_probable_prime_vartime(&a), Ok(false));
    assert_eq!(strong_lucas_probable_prime_vartime(&a), Ok(false));
    assert_eq!(miller_rabin_vartime(&a, 20), Ok(false));
    // Carmichael numbers (A002997), then one above 2^64 of Chernick's form
    // (6k + 1)(12k + 1)(18k + 1) with the three factors prime (found with GMP).
    for x in [
        561u64,
        1105,
        1729,
        41041,
        825265,
        321197185,
        5394826801,
        232250619601,
        9746347772161,
    ] {
        assert_eq!(is_probable_prime_vartime(&n(x)), Ok(false), "{x}");
    }
    let mut k = Integer::from(1u64 << 21);
    let chernick = loop {
        let f: [Integer; 3] = [6u32, 12, 18].map(|c| Integer::from(c * &k) + 1u32);
        if f.iter().all(|f| f.is_probably_prime(25) != IsPrime::No) {
            break nat_of(&(f[0].clone() * &f[1] * &f[2]));
        }
        k += 1;
    };
    assert!(chernick.bits() > 64);
    assert!(strong_lucas_probable_prime_vartime(&chernick).is_ok());
    assert_eq!(is_probable_prime_vartime(&chernick), Ok(false));
}

/// 2^p - 1 for every prime p up to 1300 and a few above to 4423: prime exactly for the
/// Mersenne exponents. Every one of them passes base 2 (2^p = 1), so the Lucas test decides.
#[test]
fn mersenne_numbers() {
    let mersenne = [
        2u32, 3, 5, 7, 13, 17, 19, 31, 61, 89, 107, 127, 521, 607, 1279, 2203, 2281, 3217, 4253,
        4423,
    ];
    let is_p = sieve(4424);
    let large = [2203u32, 2207, 2281, 3217, 3221, 4253, 4259, 4423];
    for p in (2..1300u32).filter(|&p| is_p[p as usize]).chain(large) {
        assert!(is_p[p as usize]);
        let m = Natural::power_of_two(p as usize)
            .checked_sub_vartime(&n(1))
            .unwrap();
        let want = mersenne.contains(&p);
        assert_eq!(is_probable_prime_vartime(&m), Ok(want), "2^{p} - 1");
        if p > 64 {
            assert!(strong_probable_prime_vartime(&m, &n(2)).unwrap());
        }
    }
}

/// Random odd numbers of 64 to 4096 bits, random primes (GMP's next_prime) and products of
/// two primes, against GMP; the batch against the single test.
#[test]
fn random_numbers_match_gmp() {
    let mut rng = StdRng::seed_from_u64(0x9e1e);
    let mut all = vec![];
    for bits in [64u64, 65, 100, 128, 200, 256, 512, 1024, 2048, 4096] {
        let count = if bits >= 2048 { 12 } else { 40 };
        for _ in 0..count {
            let x = rng.gen_biguint(bits) | BigUint::one();
            all.push(nat(&x));
        }
        let primes = if bits >= 2048 { 2 } else { 5 };
        for _ in 0..primes {
            let x = to_rug(&rng.gen_biguint(bits)).next_prime();
            let y = to_rug(&rng.gen_biguint(bits)).next_prime();
            all.push(nat_of(&x));
            if bits <= 1024 {
                all.push(nat_of(&(x * y)));
            }
        }
    }
    let mut primes = 0;
    for x in &all {
        let want = gmp_prime(x);
        assert_eq!(is_probable_prime_vartime(x), Ok(want), "{x}");
        primes += want as usize;
    }
    assert!(primes >= 40, "{primes}");
    let many = is_probable_prime_many_vartime(&all).unwrap();
    let single: Vec<bool> = all.iter().map(gmp_prime).collect();
    assert_eq!(many, single);
    // Miller–Rabin with random bases: primes pass, and so do none of these composites.
    for x in all.iter().filter(|x| x.bits() <= 1024) {
        assert_eq!(miller_rabin_vartime(x, 3), Ok(gmp_prime(x)), "{x}");
    }
}

/// next_prime: every n below 3000 against the sieve, the word boundary (the largest 64-bit
/// prime is 2^64 - 59, the next 2^64 + 13), and random numbers of 65 to 2048 bits against GMP.
#[test]
fn next_prime_matches_the_sieve_and_gmp() {
    let is_p = sieve(3100);
    for i in 0..3000usize {
        let want = (i + 1..).find(|&j| is_p[j]).unwrap();
        assert_eq!(next_prime_vartime(&n(i as u64)), Ok(n(want as u64)), "{i}");
    }
    let top = u64::MAX - 58;
    let above = &Natural::power_of_two(64) + &n(13);
    assert_eq!(next_prime_vartime(&n(top - 1)), Ok(n(top)));
    for x in [top, top + 1, u64::MAX] {
        assert_eq!(next_prime_vartime(&n(x)).as_ref(), Ok(&above), "{x}");
    }
    let mut rng = StdRng::seed_from_u64(0x7e47);
    for bits in [65u64, 80, 128, 300, 512, 1024, 2048] {
        for _ in 0..if bits >= 1024 { 2 } else { 6 } {
            let x = rng.gen_biguint(bits);
            let want = nat_of(&to_rug(&x).next_prime());
            assert_eq!(next_prime_vartime(&nat(&x)), Ok(want), "{x}");
        }
    }
    // A prime's successor is the next prime, not itself.
    let p = nat_of(&Integer::from(rng.gen_range(1u64 << 62..u64::MAX)).next_prime());
    let q = next_prime_vartime(&p).unwrap();
    assert!(q > p && gmp_prime(&q));
}

/// `rsa::PrivateKey::generate`: FIPS 186-5 A.1.3's conditions on the generated p, q and d
/// (checked with num-bigint and GMP), a private-key operation against num-bigint's modpow,
/// and bad sizes refused.
#[test]
fn rsa_generate_meets_fips_186_5() {
    use modred::rsa::PrivateKey;
    use num_integer::Integer as _;
    for bits in [512usize, 1024, 1030] {
        let key = PrivateKey::generate(bits).unwrap();
        let pk = key.public_key();
        assert_eq!(pk.bits(), bits);
        assert_eq!(pk.e(), &n(65537));
        let [p, q] = key.primes().map(big);
        let (d, nn, e) = (big(key.d()), big(pk.n()), BigUint::from(65537u32));
        assert_eq!(&p * &q, nn);
        let half = bits / 2;
        for x in [&p, &q] {
            assert!(to_rug(x).is_probably_prime(30) != IsPrime::No);
            assert_eq!(x.bits() as usize, half);
            // x >= sqrt(2) 2^(half - 1)  <=>  x^2 >= 2^(bits - 1).
            assert!(x * x >= BigUint::one() << (bits - 1));
            assert_eq!((x - 1u32).gcd(&e), BigUint::one());
        }
        let gap = if p > q { &p - &q } else { &q - &p };
        assert!(gap > BigUint::one() << (half - 100));
        let lambda = (&p - 1u32).lcm(&(&q - 1u32));
        assert_eq!(&d * &e % &lambda, BigUint::one());
        assert!(d > BigUint::one() << half);
        let c = BigUint::from(0x1234_5678_9abc_def0u64) % &nn;
        assert_eq!(big(&key.private_op(&nat(&c)).unwrap()), c.modpow(&d, &nn));
    }
    for bits in [0usize, 511, 513, 1025, 16386, usize::MAX] {
        assert!(
            matches!(
                PrivateKey::generate(bits),
                Err(modred::Error::InvalidParameter(_))
            ),
            "{bits}"
        );
    }
}
