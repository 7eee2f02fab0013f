//! Helpers shared by the integration tests: the two oracles (num-bigint and GMP via rug),
//! conversions, and generators of moduli and arguments. Each test file uses part of it.
#![allow(dead_code)]

pub mod bnmod;

use modred::reduce::ReducerInfo;
use modred::Natural;
use num_bigint::{BigUint, RandBigInt};
use num_traits::{One, Zero};
use rand::Rng;
use rug::integer::Order;
use rug::Integer;
use std::path::PathBuf;

/// A public test-vector file, vendored in `modred/tests/vectors/` (provenance, checksums and
/// licenses in its README.md and SOURCE.md; checked by `tests/vectors_provenance.rs`).
pub fn vector_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/vectors")
        .join(name)
}

/// num-bigint -> Natural.
pub fn nat(x: &BigUint) -> Natural {
    Natural::from(x)
}

/// Natural -> num-bigint.
pub fn big(x: &Natural) -> BigUint {
    x.to_biguint()
}

/// num-bigint -> rug, through the limbs (not through our code).
pub fn to_rug(x: &BigUint) -> Integer {
    Integer::from_digits(&x.to_u64_digits(), Order::Lsf)
}

/// Limbs -> rug.
pub fn limbs_rug(x: &[u64]) -> Integer {
    Integer::from_digits(x, Order::Lsf)
}

/// b^k = 2^(64k).
pub fn b_pow(k: usize) -> BigUint {
    BigUint::one() << (64 * k)
}

/// Number of limbs of x (0 for zero).
pub fn limbs_of(x: &BigUint) -> usize {
    x.to_u64_digits().len()
}

/// Assert that `got` (limbs, any padding) equals `x mod m` by both oracles.
pub fn assert_rem(got: &[u64], x: &BigUint, m: &BigUint, what: &dyn Fn() -> String) {
    let got_big = BigUint::from_slice(
        &got.iter()
            .flat_map(|&l| [l as u32, (l >> 32) as u32])
            .collect::<Vec<_>>(),
    );
    let want_num = x % m;
    assert_eq!(got_big, want_num, "num-bigint oracle: {}", what());
    let want_gmp = Integer::from(&to_rug(x) % &to_rug(m));
    assert_eq!(limbs_rug(got), want_gmp, "GMP oracle: {}", what());
}

/// Whether the reducer is the 64x-slower radix-2 reference, skipped for large moduli.
pub fn is_slow(info: &ReducerInfo) -> bool {
    info.name == "montgomery-bitserial"
}

/// Reducers to run for a modulus of `k` limbs (the bit-serial reference only up to 8 limbs).
pub fn reducers_for(k: usize) -> impl Iterator<Item = &'static ReducerInfo> {
    modred::REDUCERS
        .iter()
        .filter(move |r| !(is_slow(r) && k > 8))
}

/// A random natural of exactly `limbs` limbs with a uniformly random top limb (non-zero).
pub fn random_limbs<R: Rng>(rng: &mut R, limbs: usize) -> BigUint {
    let mut v: Vec<u64> = (0..limbs).map(|_| rng.gen()).collect();
    if let Some(top) = v.last_mut() {
        if *top == 0 {
            *top = 1;
        }
    }
    BigUint::from_slice(
        &v.iter()
            .flat_map(|&l| [l as u32, (l >> 32) as u32])
            .collect::<Vec<_>>(),
    )
}

/// Random moduli of `k` limbs of several shapes: full top bit (exactly 64k bits), random top
/// limb, top limb 1, few bits in the top limb; each returned odd and even.
pub fn random_moduli<R: Rng>(rng: &mut R, k: usize) -> Vec<BigUint> {
    let low = if k > 1 {
        rng.gen_biguint(64 * (k as u64 - 1))
    } else {
        BigUint::zero()
    };
    let top_shapes: [u64; 4] = [
        rng.gen::<u64>() | (1 << 63),
        rng.gen::<u64>().max(2),
        1,
        rng.gen_range(2..16),
    ];
    let mut out = Vec::new();
    for top in top_shapes {
        let m = (BigUint::from(top) << (64 * (k - 1))) + &low;
        let odd = &m | BigUint::one();
        let even = &m - (&m & BigUint::one());
        out.push(odd);
        if !even.is_zero() {
            out.push(even);
        }
    }
    out
}

/// Structured moduli of `k` limbs: b^k - 1, b^k + 1 (k + 1 limbs), b^k - 2, b^(k-1) (even),
/// b^(k-1) + 1 (top limb 1), 2^(64k-1) + 1 (exactly 64k bits), all-ones limbs except an even
/// bottom.
pub fn structured_moduli(k: usize) -> Vec<BigUint> {
    let bk = b_pow(k);
    let mut v = vec![
        &bk - 1u32,
        &bk + 1u32,
        &bk - 2u32,
        b_pow(k - 1),
        b_pow(k - 1) + 1u32,
        (BigUint::one() << (64 * k - 1)) + 1u32,
        (BigUint::one() << (64 * k - 1)) | BigUint::from(u64::MAX - 1),
    ];
    v.retain(|m| !m.is_zero());
    v.sort();
    v.dedup();
    v
}
