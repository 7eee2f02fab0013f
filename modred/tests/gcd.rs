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

/// The 128-bit Euclid step of the Lehmer matrices against the built-in u128 division: every
/// path (q = 1, a dividend of one limb, the estimate from the leading 64 bits and its
/// correction, the 128-bit division), with the dividend's width known or not. The hard cases
/// for the estimate: divisors whose bits below the leading 64 are all ones or all zeros,
/// remainders 0 and y - 1, quotients at the 2^32 switch, dividends up to 2^128 - 1.
#[test]
fn euclid_div_matches_u128_division() {
    use modred::arith::gcd_lehmer::euclid_div;
    let check = |x: u128, y: u128| {
        let want = (x / y, x % y);
        assert_eq!(euclid_div(x, y, false), want, "{x} / {y}");
        if x >> 64 != 0 {
            assert_eq!(euclid_div(x, y, true), want, "{x} / {y}, wide");
        }
    };
    let mut rng = StdRng::seed_from_u64(128);
    let below = |rng: &mut StdRng, bits: u32| -> u128 {
        match bits {
            0 => 0,
            128 => rng.gen(),
            _ => rng.gen::<u128>() >> (128 - bits),
        }
    };
    for _ in 0..200_000 {
        // A divisor of random length and a random or extreme low part.
        let ly = rng.gen_range(1..=127u32);
        let mut y = below(&mut rng, ly) | 1 << (ly - 1);
        match rng.gen_range(0..3) {
            0 => y |= (1u128 << ly.saturating_sub(64)) - 1,
            1 => y &= !((1u128 << ly.saturating_sub(64)) - 1) | 1 << (ly - 1),
            _ => {}
        }
        // A quotient of up to 40 bits (or the largest that fits) and a remainder.
        let qbits = rng.gen_range(0..=40u32).min(128 - ly);
        let q = (below(&mut rng, qbits) | 1 << qbits.saturating_sub(1)).max(1);
        let r = match rng.gen_range(0..4) {
            0 => 0,
            1 => y - 1,
            _ => below(&mut rng, ly) % y,
        };
        if let Some(x) = q.checked_mul(y).and_then(|p| p.checked_add(r)) {
            check(x, y);
        }
        // Plain random operands.
        let (la, lb) = (rng.gen_range(1..=128), rng.gen_range(1..=128));
        let (a, b) = (below(&mut rng, la), below(&mut rng, lb));
        let (x, y) = (a.max(b).max(1), a.min(b).max(1));
        check(x, y);
    }
    for y in [
        1,
        2,
        3,
        u64::MAX as u128,
        1 << 64,
        (1 << 64) + 1,
        u128::MAX >> 1,
        u128::MAX,
    ] {
        let twice = y.checked_mul(2);
        let xs = [Some(y), y.checked_add(1), twice.map(|t| t - 1), twice];
        for x in xs.into_iter().flatten().chain([u128::MAX - 1, u128::MAX]) {
            if x >= y {
                check(x, y);
            }
        }
    }
    // Quotients about 2^30 and 2^31 (the estimate's largest and the first 128-bit divisions),
    // divisors with all-ones or zero bits below their leading 64, remainders 0 and y - 1.
    for y in [
        (1u128 << 80) - 1,
        1 << 80,
        (1 << 95) + 12345,
        (1 << 96) - 1,
        u128::MAX >> 33,
    ] {
        for q in [
            1u128 << 29,
            (1 << 30) - 1,
            1 << 30,
            (1 << 31) - 1,
            1 << 31,
            (1 << 32) + 1,
        ] {
            for r in [0, 1, y - 1] {
                if let Some(x) = q.checked_mul(y).and_then(|p| p.checked_add(r)) {
                    check(x, y);
                }
            }
        }
    }
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
