//! `exp::gcd_vartime` and `exp::inverse_vartime` (half-GCD above the thresholds, Lehmer
//! below) against num-bigint and GMP (rug): at each threshold and one limb either side,
//! consecutive Fibonacci numbers (the longest quotient sequences), common factors, operands of
//! very different lengths, the edge cases of the inverse, and a few random sizes.

use modred::exp::{gcd_vartime, inverse_vartime};
use modred::tuning::{GCD_HGCD_THRESHOLD, HGCD_THRESHOLD};
use modred::{Error, Natural};
use num_bigint::BigUint;
use num_integer::Integer as _;
use proptest::prelude::*;
use rand::{rngs::StdRng, Rng, SeedableRng};

fn nat(x: &BigUint) -> Natural {
    Natural::from_limbs(x.to_u64_digits())
}

fn big(x: &Natural) -> BigUint {
    BigUint::from_slice(
        &x.limbs()
            .iter()
            .flat_map(|&l| [l as u32, (l >> 32) as u32])
            .collect::<Vec<_>>(),
    )
}

fn gmp(x: &BigUint) -> rug::Integer {
    rug::Integer::from_digits(&x.to_u64_digits(), rug::integer::Order::Lsf)
}

fn from_gmp(x: &rug::Integer) -> BigUint {
    BigUint::parse_bytes(format!("{x:x}").as_bytes(), 16).expect("hex")
}

/// A random number of exactly `bits` bits (top bit set), or 0 for 0 bits.
fn random(rng: &mut StdRng, bits: usize) -> BigUint {
    if bits == 0 {
        return BigUint::default();
    }
    let limbs: Vec<u64> = (0..bits.div_ceil(64)).map(|_| rng.gen()).collect();
    let mut x = BigUint::from_slice(
        &limbs
            .iter()
            .flat_map(|&l| [l as u32, (l >> 32) as u32])
            .collect::<Vec<_>>(),
    );
    x &= (BigUint::from(1u8) << bits) - 1u8;
    x | (BigUint::from(1u8) << (bits - 1))
}

/// gcd(a, m) and, with m > 0, the inverse (or NotInvertible) against both oracles.
fn check(a: &BigUint, m: &BigUint, what: &str) {
    let g = gcd_vartime(&nat(a), &nat(m));
    let want = a.gcd(m);
    assert_eq!(big(&g), want, "gcd vs num-bigint: {what}");
    assert_eq!(gmp(&big(&g)), gmp(a).gcd(&gmp(m)), "gcd vs GMP: {what}");
    assert_eq!(
        big(&gcd_vartime(&nat(m), &nat(a))),
        want,
        "gcd(m, a): {what}"
    );
    if m == &BigUint::default() {
        return;
    }
    let inv = inverse_vartime(&nat(a), &nat(m));
    let by_gmp = gmp(a).invert(&gmp(m));
    match (inv, a.modinv(m)) {
        (Ok(x), Some(want)) => {
            let x = big(&x);
            assert_eq!(x, want, "inverse vs num-bigint: {what}");
            assert_eq!(
                x,
                from_gmp(&by_gmp.expect("GMP agrees")),
                "inverse vs GMP: {what}"
            );
        }
        (Ok(x), None) => {
            // Only m = 1 (x = 0, as Python's pow(a, -1, 1)) has an answer num-bigint refuses.
            assert!(
                m == &BigUint::from(1u8) && big(&x) == BigUint::default(),
                "{what}"
            );
        }
        (Err(e), want) => {
            assert_eq!(e, Error::NotInvertible, "{what}");
            assert!(want.is_none() && by_gmp.is_err(), "inverse exists: {what}");
            assert!(want_gcd_not_one(a, m), "{what}");
        }
    }
}

fn want_gcd_not_one(a: &BigUint, m: &BigUint) -> bool {
    a.gcd(m) != BigUint::from(1u8)
}

/// Sizes (limbs) at each threshold and one limb either side, and some small ones.
fn threshold_sizes() -> Vec<usize> {
    let mut v = vec![1, 2, 3, 5];
    for t in [HGCD_THRESHOLD, GCD_HGCD_THRESHOLD, 2 * HGCD_THRESHOLD] {
        v.extend([t - 1, t, t + 1]);
    }
    v.sort_unstable();
    v.dedup();
    v
}

#[test]
fn random_pairs_at_thresholds() {
    let mut rng = StdRng::seed_from_u64(1);
    for n in threshold_sizes() {
        for bits in [64 * n, 64 * n - 13] {
            let m = random(&mut rng, bits) | BigUint::from(1u8);
            let a = random(&mut rng, bits - 3);
            check(&a, &m, &format!("{bits} bits, odd m"));
            let m_even = random(&mut rng, bits) << 1u8;
            check(&a, &m_even, &format!("{bits} bits, even m"));
            // Equal lengths, close values.
            let close = &m - random(&mut rng, bits / 2 + 1);
            check(&close, &m, &format!("{bits} bits, a close to m"));
        }
    }
}

#[test]
fn common_factors() {
    let mut rng = StdRng::seed_from_u64(2);
    for (gbits, xbits) in [
        (1, 64),
        (64, 64 * 120),
        (300, 64 * 110),
        (64 * 90, 64 * 130),
        (64 * 200, 64 * 50),
        (5, 64 * 400),
    ] {
        let g = random(&mut rng, gbits);
        let (x, y) = (random(&mut rng, xbits), random(&mut rng, xbits - 7));
        check(
            &(&g * &x),
            &(&g * &y),
            &format!("g {gbits} bits, cofactors {xbits}"),
        );
        check(&(&g * &x * 2u8), &(&g * &y * 6u8), "common factor 2g");
    }
}

/// F_0..F_k.
fn fibonacci(k: usize) -> Vec<BigUint> {
    let mut f = vec![BigUint::default(), BigUint::from(1u8)];
    while f.len() <= k {
        let next = &f[f.len() - 1] + &f[f.len() - 2];
        f.push(next);
    }
    f
}

#[test]
fn consecutive_fibonacci() {
    // F_k has about 0.694 k bits: k = 1000 (11 limbs), 18600 (~202, above both thresholds),
    // 60000 (651 limbs: recursion two levels deep).
    let f = fibonacci(60001);
    for k in [90, 91, 1000, 9300, 18600, 60000] {
        check(&f[k], &f[k + 1], &format!("F_{k}, F_{}", k + 1));
        check(&f[k + 1], &f[k], &format!("F_{}, F_{k}", k + 1));
        // Multiplied by a common factor: the sequence runs to the factor, not to 1.
        let g = BigUint::from(0xfedc_ba98_7654_3211u64);
        check(&(&f[k] * &g), &(&f[k + 1] * &g), &format!("g F_{k}"));
    }
}

#[test]
fn very_different_lengths() {
    let mut rng = StdRng::seed_from_u64(3);
    for (abits, mbits) in [
        (1, 64 * 300),
        (64, 64 * 300),
        (64 * 20, 64 * 500),
        (64 * 150, 64 * 450),
        (64 * 500, 64 * 3),
        (64 * 450, 64 * 210),
    ] {
        let a = random(&mut rng, abits);
        let m = random(&mut rng, mbits) | BigUint::from(1u8);
        check(&a, &m, &format!("a {abits} bits, m {mbits} bits"));
    }
}

#[test]
fn inverse_edge_cases() {
    let mut rng = StdRng::seed_from_u64(4);
    let one = BigUint::from(1u8);
    for n in [1, 2, HGCD_THRESHOLD, GCD_HGCD_THRESHOLD + 1] {
        let m = random(&mut rng, 64 * n) | &one;
        for a in [
            BigUint::default(),
            one.clone(),
            &m - 1u8,
            m.clone(),
            &m + 1u8,
            &m * 3u8 + 2u8,
        ] {
            check(&a, &m, &format!("{n} limbs, edge a"));
        }
        check(&random(&mut rng, 64 * n), &one, "m = 1");
        check(
            &random(&mut rng, 64 * n),
            &(BigUint::from(1u8) << (64 * n)),
            "m = 2^k",
        );
    }
    let z = Natural::zero();
    assert_eq!(
        inverse_vartime(&Natural::from(3u64), &z),
        Err(Error::ZeroModulus)
    );
    assert_eq!(inverse_vartime(&z, &Natural::from(1u64)), Ok(z.clone()));
    assert_eq!(gcd_vartime(&z, &z), z);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]
    #[test]
    fn random_sizes(seed in any::<u64>(), abits in 1usize..40_000, mbits in 2usize..40_000) {
        let mut rng = StdRng::seed_from_u64(seed);
        let a = random(&mut rng, abits);
        let m = random(&mut rng, mbits);
        check(&a, &m, &format!("{abits}/{mbits} bits, seed {seed}"));
        check(&a, &(&m | BigUint::from(1u8)), "odd m");
    }
}
