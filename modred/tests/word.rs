//! Differential tests of `modred::word` (single-word modular arithmetic) against u128
//! arithmetic, num-bigint and GMP (rug); every method on every edge modulus and operand;
//! primality against a sieve, known pseudoprimes, Carmichael and Mersenne numbers.

use modred::word::{
    self, barrett64::Barrett64, divq, montgomery64, prime, shoup64, Monty64, Shoup64,
};
use modred::Error;
use num_bigint::BigUint;
use proptest::prelude::*;
use rand::{rngs::StdRng, Rng, SeedableRng};
use rug::Integer;

// ---------------------------------------------------------------- oracles

fn mul_u128(a: u64, b: u64, m: u64) -> u64 {
    (a as u128 * b as u128 % m as u128) as u64
}

fn pow_big(b: u64, e: u64, m: u64) -> u64 {
    let r = BigUint::from(b).modpow(&BigUint::from(e), &BigUint::from(m));
    r.try_into().unwrap()
}

fn pow_rug(b: u64, e: u64, m: u64) -> u64 {
    Integer::from(b)
        .pow_mod(&Integer::from(e), &Integer::from(m))
        .unwrap()
        .to_u64()
        .unwrap()
}

/// `t 2^{-64} mod m` for the 128-bit t (rug).
fn redc_rug(t: u128, m: u64) -> u64 {
    let r_inv = Integer::from(Integer::u_pow_u(2, 64))
        .invert(&Integer::from(m))
        .unwrap();
    (Integer::from(t) * r_inv % Integer::from(m))
        .to_u64()
        .unwrap()
}

/// `t 2^{-64} mod m` (num-bigint).
fn redc_big(t: u128, m: u64) -> u64 {
    let mb = BigUint::from(m);
    let r_inv = (BigUint::from(1u8) << 64u32).modinv(&mb).unwrap();
    (BigUint::from(t) * r_inv % mb).try_into().unwrap()
}

fn is_prime_rug(n: u64) -> bool {
    Integer::from(n).is_probably_prime(40) != rug::integer::IsPrime::No
}

// ---------------------------------------------------------------- edge sets

const ODD_EDGES: &[u64] = &[
    1,
    3,
    5,
    (1 << 32) - 1,
    (1 << 32) + 1,
    (1 << 61) - 1,
    (1 << 63) - 25,
    (1 << 63) - 1,
    (1 << 63) + 1,
    (1 << 63) + 3,
    u64::MAX - 58,
    u64::MAX - 2,
    u64::MAX,
];

const EVEN_EDGES: &[u64] = &[
    2,
    4,
    6,
    10,
    1 << 32,
    (1 << 32) + 2,
    (1 << 63) - 2,
    1 << 63,
    (1 << 63) + 2,
    u64::MAX - 1,
];

fn all_edges() -> Vec<u64> {
    ODD_EDGES.iter().chain(EVEN_EDGES).copied().collect()
}

/// Operands for modulus m: 0, 1, 2, m-1, m-2, m/2, m+1, 2^32, 2^64-1, and a few random ones.
fn operands(m: u64, rng: &mut StdRng) -> Vec<u64> {
    let mut v = vec![
        0,
        1,
        2,
        m - 1,
        m.saturating_sub(2),
        m / 2,
        m.wrapping_add(1),
        1 << 32,
        u64::MAX,
    ];
    for _ in 0..4 {
        v.push(rng.gen_range(0..m));
    }
    v
}

fn random_moduli(rng: &mut StdRng, n: usize) -> Vec<u64> {
    (0..n)
        .map(|i| {
            let bits = 1 + (i % 64) as u32;
            let m = rng.gen::<u64>() >> (64 - bits);
            m.max(1)
        })
        .collect()
}

const EXPONENTS: &[u64] = &[0, 1, 2, 3, 65537, u64::MAX, 1 << 63, 0xdead_beef_cafe_f00d];

// ---------------------------------------------------------------- divq

#[test]
fn divq_all_edges() {
    let mut rng = StdRng::seed_from_u64(1);
    let mut moduli = all_edges();
    moduli.extend(random_moduli(&mut rng, 200));
    for &m in &moduli {
        for &a in &operands(m, &mut rng) {
            for &b in &operands(m, &mut rng) {
                let want = mul_u128(a, b, m);
                assert_eq!(
                    divq::mul_divq_u128_vartime(a, b, m),
                    want,
                    "u128 {a} {b} {m}"
                );
                assert_eq!(divq::mul_divq_vartime(a, b, m), want, "divq {a} {b} {m}");
                #[cfg(target_arch = "x86_64")]
                assert_eq!(divq::mul_divq_asm_vartime(a, b, m), want, "asm {a} {b} {m}");
            }
        }
        for &e in EXPONENTS {
            let b = rng.gen::<u64>();
            let want = pow_rug(b, e, m);
            assert_eq!(want, pow_big(b, e, m));
            assert_eq!(divq::pow_divq_vartime(b, e, m), want);
            assert_eq!(divq::pow_divq_u128_vartime(b, e, m), want);
        }
    }
}

// ---------------------------------------------------------------- Montgomery (general)

#[test]
fn monty64_rejects_zero_and_even() {
    assert_eq!(Monty64::new(0), Err(Error::ZeroModulus));
    for &m in EVEN_EDGES {
        assert!(matches!(Monty64::new(m), Err(Error::EvenModulus { .. })));
    }
}

#[test]
fn monty64_all_edges() {
    let mut rng = StdRng::seed_from_u64(2);
    let mut moduli: Vec<u64> = ODD_EDGES.to_vec();
    moduli.extend(random_moduli(&mut rng, 200).into_iter().map(|m| m | 1));
    for &m in &moduli {
        let ctx = Monty64::new(m).unwrap();
        assert_eq!(ctx.modulus(), m);
        assert_eq!(m.wrapping_mul(ctx.k()), u64::MAX, "k = -m^-1");
        let r = (1u128 << 64) % m as u128;
        assert_eq!(ctx.r() as u128, r);
        assert_eq!(ctx.r2() as u128, r * r % m as u128);
        assert_eq!(ctx.r_inv(), redc_rug(1, m));
        for &a in &operands(m, &mut rng) {
            let am = ctx.to_monty(a);
            assert_eq!(am as u128, a as u128 * r % m as u128, "to_monty");
            assert_eq!(ctx.from_monty(am), a % m, "round trip");
            assert_eq!(
                ctx.from_monty(a),
                redc_rug(a as u128, m),
                "from_monty any x"
            );
            for &b in &operands(m, &mut rng) {
                let want = mul_u128(a, b, m);
                assert_eq!(ctx.mul_mod(a, b), want, "mul_mod {a} {b} {m}");
                let bm = ctx.to_monty(b);
                let p = ctx.mul(am, bm);
                assert!(p < m);
                assert_eq!(ctx.from_monty(p), want);
                // mul with one operand reduced, the other arbitrary: a' b R^-1.
                let t = am as u128 * b as u128;
                let want_redc = redc_rug(t, m);
                assert_eq!(want_redc, redc_big(t, m));
                assert_eq!(ctx.mul(am, b), want_redc);
                assert_eq!(ctx.redc((t >> 64) as u64, t as u64), want_redc);
                assert_eq!(ctx.redc_sub((t >> 64) as u64, t as u64), want_redc);
            }
            assert_eq!(ctx.from_monty(ctx.sqr(am)), mul_u128(a, a, m));
        }
        for &e in EXPONENTS {
            for b in [0, 1, m - 1, rng.gen()] {
                let want = pow_rug(b, e, m);
                assert_eq!(want, pow_big(b, e, m));
                assert_eq!(ctx.pow_vartime(b, e), want, "pow {b}^{e} mod {m}");
                let x = ctx.to_monty(b);
                assert_eq!(ctx.from_monty(ctx.pow_monty_ct(x, e)), want, "pow_monty_ct");
                assert_eq!(ctx.pow_seed_vartime(b, e), want, "pow_seed {b}^{e} mod {m}");
            }
        }
    }
}

// ------------------------- Montgomery (Bloemen, *Montgomery multiplication*, 2014)

/// Bloemen's routine on odd m and arbitrary u64 inputs returns a value congruent to
/// a b 2^-64 mod m; with m > 2^63 it is < 2^64 < 2m; with a, b < m it is < 2m for every m.
fn check_seed(a: u64, b: u64, m: u64, ctx: &Monty64, stats: &mut [u32; 2]) {
    let p = montgomery64::mul_monty_seed_vartime(a, b, ctx.r(), ctx.k(), m);
    let want = redc_rug(a as u128 * b as u128, m);
    assert_eq!(p % m, want, "mul_monty_seed congruence {a} {b} {m}");
    if a < m && b < m {
        assert!((p as u128) < 2 * m as u128, "mul_monty_seed < 2m");
    }
    stats[(p >= m) as usize] += 1;
}

#[test]
fn mul_monty_seed_all_moduli_above_2_63() {
    let mut rng = StdRng::seed_from_u64(3);
    let mut moduli: Vec<u64> = ODD_EDGES.iter().copied().filter(|&m| m > 1 << 63).collect();
    moduli.extend((0..300).map(|_| rng.gen::<u64>() | (1 << 63) | 1));
    let mut stats = [0u32; 2];
    for &m in &moduli {
        let ctx = Monty64::new(m).unwrap();
        for &a in &operands(m, &mut rng) {
            for &b in &operands(m, &mut rng) {
                check_seed(a, b, m, &ctx, &mut stats);
            }
        }
        for _ in 0..200 {
            check_seed(rng.gen(), rng.gen(), m, &ctx, &mut stats);
        }
        // Products with a zero low word: the tl == 0 shortcut returns th exactly.
        for (a, b) in [
            (1u64 << 32, 1u64 << 32),
            (1 << 40, 3 << 24),
            (1 << 63, 2),
            (0, 5),
        ] {
            let t = a as u128 * b as u128;
            let (tl, th) = (t as u64, (t >> 64) as u64);
            assert_eq!(tl, 0);
            assert_eq!(
                montgomery64::mul_monty_seed_vartime(a, b, ctx.r(), ctx.k(), m),
                th
            );
            check_seed(a, b, m, &ctx, &mut stats);
        }
        // The conversions: mod_to_monty = a R mod m, monty_to_mod of any u64 fully reduces.
        for &a in &operands(m, &mut rng) {
            let am = montgomery64::mod_to_monty_seed_vartime(a, ctx.r(), m);
            assert_eq!(am, ctx.to_monty(a));
            assert_eq!(
                montgomery64::monty_to_mod_seed_vartime(am, ctx.r_inv(), m),
                a % m
            );
            assert_eq!(
                montgomery64::monty_to_mod_seed_vartime(a, ctx.r_inv(), m),
                redc_big(a as u128, m)
            );
        }
    }
    // The output is not fully reduced: both p < m and p >= m occur (m = 2^63 + 1 makes
    // [m, 2^64) about half of the range).
    assert!(stats[0] > 0 && stats[1] > 0, "{stats:?}");
}

#[test]
fn mul_monty_seed_also_congruent_below_2_63() {
    let mut rng = StdRng::seed_from_u64(4);
    let mut moduli: Vec<u64> = ODD_EDGES.iter().copied().filter(|&m| m < 1 << 63).collect();
    moduli.extend(
        random_moduli(&mut rng, 200)
            .into_iter()
            .map(|m| (m >> 1) | 1),
    );
    let mut stats = [0u32; 2];
    for &m in &moduli {
        let ctx = Monty64::new(m).unwrap();
        for _ in 0..100 {
            check_seed(rng.gen(), rng.gen(), m, &ctx, &mut stats);
            let (a, b) = (rng.gen_range(0..m), rng.gen_range(0..m));
            check_seed(a, b, m, &ctx, &mut stats);
        }
    }
}

// ---------------------------------------------------------------- Barrett64 (Möller–Granlund)

#[test]
fn barrett64_all_edges() {
    let mut rng = StdRng::seed_from_u64(5);
    assert_eq!(Barrett64::new(0), Err(Error::ZeroModulus));
    let mut moduli = all_edges();
    moduli.extend(random_moduli(&mut rng, 300));
    for &m in &moduli {
        let ctx = Barrett64::new(m).unwrap();
        assert_eq!(ctx.modulus(), m);
        let d = (m << ctx.shift()) as u128;
        assert!(d >> 63 == 1);
        assert_eq!(ctx.reciprocal() as u128, u128::MAX / d - (1 << 64));
        for &a in &operands(m, &mut rng) {
            assert_eq!(ctx.reduce(a), a % m);
            for &b in &operands(m, &mut rng) {
                let want = mul_u128(a, b, m);
                assert_eq!(ctx.mul_mod(a, b), want, "mul_mod {a} {b} {m}");
                assert_eq!(
                    ctx.reduce_wide(a, b),
                    (((a as u128) << 64 | b as u128) % m as u128) as u64
                );
                if a < m || b < m {
                    assert_eq!(ctx.mul(a, b), want, "mul {a} {b} {m}");
                }
            }
            if a < m {
                assert_eq!(ctx.sqr(a), mul_u128(a, a, m));
            }
        }
        for &e in EXPONENTS {
            for b in [0, 1, m - 1, u64::MAX, rng.gen()] {
                let want = pow_rug(b, e, m);
                assert_eq!(want, pow_big(b, e, m));
                assert_eq!(ctx.pow_vartime(b, e), want, "pow {b}^{e} mod {m}");
            }
        }
    }
}

// ---------------------------------------------------------------- Shoup64

#[test]
fn shoup64_all_edges() {
    let mut rng = StdRng::seed_from_u64(6);
    assert_eq!(Shoup64::new(1, 0), Err(Error::ZeroModulus));
    for m in [(1 << 63) + 1, u64::MAX - 58, u64::MAX] {
        assert!(matches!(
            Shoup64::new(1, m),
            Err(Error::ArgumentTooLarge { .. })
        ));
    }
    let mut moduli: Vec<u64> = all_edges()
        .into_iter()
        .filter(|&m| m <= shoup64::SHOUP64_MAX_MODULUS)
        .collect();
    moduli.extend(
        random_moduli(&mut rng, 300)
            .into_iter()
            .map(|m| m.min(1 << 63)),
    );
    for &m in &moduli {
        for &w in &operands(m, &mut rng) {
            let ctx = Shoup64::new(w, m).unwrap();
            assert_eq!(ctx.multiplier(), w % m);
            assert_eq!(
                ctx.quotient() as u128,
                (((w % m) as u128) << 64) / m as u128
            );
            let mut a_values = operands(m, &mut rng);
            a_values.extend((0..20).map(|_| rng.gen::<u64>()));
            for &a in &a_values {
                let want = mul_u128(a, w, m);
                assert_eq!(ctx.mul(a), want, "shoup {a} {w} {m}");
                let lazy = ctx.mul_lazy(a);
                assert!((lazy as u128) < 2 * m as u128);
                assert_eq!(lazy % m, want);
            }
        }
    }
}

// ---------------------------------------------------------------- user-facing functions

#[test]
fn pow_mul_inv_all_edges() {
    let mut rng = StdRng::seed_from_u64(7);
    assert_eq!(word::pow_mod_vartime(2, 3, 0), Err(Error::ZeroModulus));
    assert_eq!(word::mul_mod_vartime(2, 3, 0), Err(Error::ZeroModulus));
    assert_eq!(word::inv_mod_vartime(2, 0), Err(Error::ZeroModulus));
    assert_eq!(
        word::residue_vartime(&5u64.into(), 0),
        Err(Error::ZeroModulus)
    );
    assert_eq!(
        word::residue_vartime(&(u128::MAX - 4).into(), 7),
        Ok(((u128::MAX - 4) % 7) as u64)
    );
    assert_eq!(word::pow_mod_vartime(0, 0, 7), Ok(1));
    assert_eq!(word::pow_mod_vartime(5, 0, 1), Ok(0));
    let mut moduli = all_edges();
    moduli.extend(random_moduli(&mut rng, 300));
    for &m in &moduli {
        let mi = Integer::from(m);
        for &a in &operands(m, &mut rng) {
            for &e in EXPONENTS {
                let want = pow_rug(a, e, m);
                assert_eq!(want, pow_big(a, e, m));
                assert_eq!(
                    word::pow_mod_vartime(a, e, m),
                    Ok(want),
                    "pow_mod {a} {e} {m}"
                );
            }
            let b = rng.gen::<u64>();
            assert_eq!(word::mul_mod_vartime(a, b, m), Ok(mul_u128(a, b, m)));
            let inv = word::inv_mod_vartime(a, m);
            match Integer::from(a).invert(&mi) {
                Ok(x) => {
                    let x = x.to_u64().unwrap();
                    assert_eq!(inv, Ok(x), "inv {a} mod {m}");
                    assert_eq!(mul_u128(a, x, m), 1 % m);
                }
                Err(_) => assert_eq!(inv, Err(Error::NotInvertible), "inv {a} mod {m}"),
            }
            let big = BigUint::from(a).modinv(&BigUint::from(m));
            match (&inv, big) {
                (Ok(x), Some(y)) => assert_eq!(BigUint::from(*x), y),
                (Err(_), None) => {}
                // num-bigint returns None for m = 1 (rug and we return 0).
                (Ok(0), None) if m == 1 => {}
                (x, y) => panic!("inv {a} mod {m}: {x:?} vs num-bigint {y:?}"),
            }
        }
    }
}

/// The context kernels' preconditions (a factor below m, a REDC high word below m) are
/// checked: outside them they would return a wrong residue, not an error.
#[test]
fn context_kernels_check_their_preconditions() {
    let big = u64::MAX;
    let monty = Monty64::new(1001).unwrap();
    let barrett = Barrett64::new(1000).unwrap();
    let message = |f: &dyn Fn() -> u64| {
        let e = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).expect_err("no panic");
        e.downcast::<&str>()
            .map(|s| s.to_string())
            .unwrap_or_else(|e| *e.downcast::<String>().expect("a message"))
    };
    for (name, msg) in [
        ("Monty64::mul", message(&|| monty.mul(big, big))),
        ("Monty64::sqr", message(&|| monty.sqr(1001))),
        ("Monty64::redc:", message(&|| monty.redc(1001, 5))),
        ("Monty64::redc_sub", message(&|| monty.redc_sub(big, 5))),
        (
            "Monty64::pow_monty_vartime:",
            message(&|| monty.pow_monty_vartime(1001, 3)),
        ),
        (
            "Monty64::pow_monty_ct",
            message(&|| monty.pow_monty_ct(big, 3)),
        ),
        ("Barrett64::mul", message(&|| barrett.mul(big, 1000))),
        ("Barrett64::sqr", message(&|| barrett.sqr(1000))),
    ] {
        assert!(msg.starts_with(name), "{name}: {msg}");
    }
    // At the edges of the preconditions the kernels agree with the oracles.
    assert_eq!(monty.mul(1000, big), redc_rug(1000 * big as u128, 1001));
    assert_eq!(
        monty.redc(1000, big),
        redc_rug((1000 << 64) + big as u128, 1001)
    );
    assert_eq!(barrett.mul(999, big), mul_u128(999, big, 1000));
    let plain = monty.from_monty(1000);
    assert_eq!(
        monty.from_monty(monty.pow_monty_vartime(1000, 3)),
        pow_rug(plain, 3, 1001)
    );
}

// ---------------------------------------------------------------- primality

#[test]
fn is_prime_matches_sieve_below_10_7() {
    const N: usize = 10_000_000;
    let mut composite = vec![false; N];
    composite[0] = true;
    composite[1] = true;
    let mut i = 2;
    while i * i < N {
        if !composite[i] {
            let mut j = i * i;
            while j < N {
                composite[j] = true;
                j += i;
            }
        }
        i += 1;
    }
    for (n, &c) in composite.iter().enumerate() {
        assert_eq!(word::is_prime_vartime(n as u64), !c, "{n}");
    }
}

#[test]
fn is_prime_known_numbers() {
    // Strong pseudoprimes to the first k prime bases (the smallest for each k, OEIS A014233).
    let spsp = [
        2047u64,
        1373653,
        25326001,
        3215031751,
        2152302898747,
        3474749660383,
        341550071728321,
        3825123056546413051,
    ];
    for (k, &n) in spsp.iter().enumerate() {
        assert!(!word::is_prime_vartime(n), "{n}");
        assert!(!is_prime_rug(n));
        // ... and they do fool Miller–Rabin with the first k+1 prime bases.
        let bases = &prime::FIRST_12_PRIMES[..k + 1];
        assert!(
            prime::miller_rabin_vartime(n, bases),
            "{n} is a spsp to {bases:?}"
        );
    }
    // Mersenne primes below 2^64 and the composite Mersenne numbers.
    let mersenne_exponents = [2u32, 3, 5, 7, 13, 17, 19, 31, 61];
    for p in 1..=64u32 {
        let n = if p == 64 { u64::MAX } else { (1u64 << p) - 1 };
        assert_eq!(
            word::is_prime_vartime(n),
            mersenne_exponents.contains(&p),
            "2^{p}-1"
        );
        assert_eq!(word::is_prime_vartime(n), is_prime_rug(n));
    }
    // Carmichael numbers (A002997) and a large Chernick one (6k+1)(12k+1)(18k+1) < 2^64 found
    // with GMP.
    let mut carmichael = vec![
        561u64,
        1105,
        1729,
        2465,
        2821,
        6601,
        8911,
        41041,
        825265,
        321197185,
        5394826801,
        232250619601,
        9746347772161,
    ];
    let k = (1..240_000u64)
        .rev()
        .find(|k| {
            [6 * k + 1, 12 * k + 1, 18 * k + 1]
                .iter()
                .all(|&f| is_prime_rug(f))
        })
        .unwrap();
    let big = (6 * k + 1) * (12 * k + 1) * (18 * k + 1);
    assert!(big > 1 << 60);
    carmichael.push(big);
    for &n in &carmichael {
        // They pass Fermat's test to base 2 (as Carmichael numbers must), yet are rejected.
        assert_eq!(pow_rug(2, n - 1, n), 1, "{n} passes Fermat base 2");
        assert!(!word::is_prime_vartime(n), "{n}");
    }
    // Primes and composites near 2^64 and 2^32, and squares of primes.
    for n in (u64::MAX - 2000..=u64::MAX).chain((1 << 32) - 500..(1 << 32) + 500) {
        assert_eq!(word::is_prime_vartime(n), is_prime_rug(n), "{n}");
    }
    assert!(word::is_prime_vartime(u64::MAX - 58));
    assert!(word::is_prime_vartime((1 << 63) - 25));
    assert!(word::is_prime_vartime((1 << 32) - 5) && word::is_prime_vartime((1 << 32) + 15));
    for p in [4294967291u64, 4294967279, 3037000493, 2147483647] {
        assert!(word::is_prime_vartime(p));
        assert!(!word::is_prime_vartime(p * p), "{p}^2");
    }
    assert!(!word::is_prime_vartime(4294967291 * 4294967279));
}

#[test]
fn is_prime_divisors_of_witnesses() {
    // A base that is 0 mod n is skipped; check every divisor of every base directly.
    for &a in &prime::SINCLAIR_BASES {
        let mut d = 1u64;
        while d * d <= a {
            if a % d == 0 {
                for n in [d, a / d] {
                    assert_eq!(
                        word::is_prime_vartime(n),
                        is_prime_rug(n),
                        "divisor {n} of {a}"
                    );
                }
            }
            d += 1;
        }
    }
}

#[test]
fn is_prime_random_against_gmp_and_twelve_bases() {
    let mut rng = StdRng::seed_from_u64(8);
    for i in 0..20_000 {
        let n = rng.gen::<u64>() >> (i % 40) | 1;
        let want = is_prime_rug(n);
        assert_eq!(word::is_prime_vartime(n), want, "{n}");
        if n > 37 {
            assert_eq!(
                prime::miller_rabin_vartime(n, &prime::FIRST_12_PRIMES),
                want,
                "{n}"
            );
        }
    }
    // Random primes (found by GMP) near the top of the range.
    for _ in 0..300 {
        let n = Integer::from(rng.gen::<u64>() | (1 << 63)).next_prime();
        if let Some(p) = n.to_u64() {
            assert!(word::is_prime_vartime(p), "{p}");
        }
    }
}

// ---------------------------------------------------------------- proptest

proptest! {
    #[test]
    fn prop_mul_all_methods(a: u64, b: u64, m in 1u64..) {
        let want = mul_u128(a, b, m);
        prop_assert_eq!(divq::mul_divq_vartime(a, b, m), want);
        prop_assert_eq!(divq::mul_divq_u128_vartime(a, b, m), want);
        prop_assert_eq!(Barrett64::new(m).unwrap().mul_mod(a, b), want);
        prop_assert_eq!(word::mul_mod_vartime(a, b, m), Ok(want));
        if m & 1 == 1 {
            let ctx = Monty64::new(m).unwrap();
            prop_assert_eq!(ctx.mul_mod(a, b), want);
            let p = montgomery64::mul_monty_seed_vartime(a, b, ctx.r(), ctx.k(), m);
            prop_assert_eq!(p % m, redc_big(a as u128 * b as u128, m));
        }
        if m <= shoup64::SHOUP64_MAX_MODULUS {
            prop_assert_eq!(Shoup64::new(b, m).unwrap().mul(a), want);
        }
    }

    #[test]
    fn prop_pow_all_methods(b: u64, e: u64, m in 1u64..) {
        let want = pow_big(b, e, m);
        prop_assert_eq!(word::pow_mod_vartime(b, e, m), Ok(want));
        prop_assert_eq!(Barrett64::new(m).unwrap().pow_vartime(b, e), want);
        prop_assert_eq!(divq::pow_divq_vartime(b, e, m), want);
        if m & 1 == 1 {
            let ctx = Monty64::new(m).unwrap();
            prop_assert_eq!(ctx.pow_vartime(b, e), want);
            prop_assert_eq!(ctx.pow_seed_vartime(b, e), want);
            prop_assert_eq!(ctx.from_monty(ctx.pow_monty_ct(ctx.to_monty(b), e)), want);
        }
    }

    #[test]
    fn prop_inv(a: u64, m in 1u64..) {
        match Integer::from(a).invert(&Integer::from(m)) {
            Ok(x) => prop_assert_eq!(word::inv_mod_vartime(a, m), Ok(x.to_u64().unwrap())),
            Err(_) => prop_assert_eq!(word::inv_mod_vartime(a, m), Err(Error::NotInvertible)),
        }
    }

    #[test]
    fn prop_is_prime(n: u64) {
        prop_assert_eq!(word::is_prime_vartime(n), is_prime_rug(n));
    }
}
