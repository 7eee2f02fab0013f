//! The library on a target the main suite cannot test (aarch64 under qemu-user, from
//! scripts/test.sh): every entry of `modred::REDUCERS` and every method of `exp::METHODS`,
//! enumerated from the library so later ones are covered, and the single-word kernels, against
//! num-bigint and native u128 arithmetic. Moduli of 1..=40 limbs, random odd and even, and the
//! edges (1, 3, 2^64 - 1, b^k +- 1, top limb 1, powers of two); operands 0, 1, m - 1, all-ones
//! and random, from a fixed-seed generator.
#![cfg(test)]

use modred::exp::{self, Method, PowOptions, METHODS};
use modred::reduce::{self, ReducerInfo, WideResult};
use modred::word;
use modred::{Error, Modulus, Natural, REDUCERS};
use num_bigint::BigUint;

/// SplitMix64 (Steele, Lea, Flood 2014): fixed seeds, so a failure reproduces.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A random natural of `k` limbs (any top limb).
    fn limbs(&mut self, k: usize) -> BigUint {
        big(&(0..k).map(|_| self.next()).collect::<Vec<_>>())
    }

    fn below(&mut self, m: &BigUint) -> BigUint {
        self.limbs(limbs_of(m) + 1) % m
    }
}

/// Limbs -> num-bigint, independently of modred's conversions.
fn big(limbs: &[u64]) -> BigUint {
    let digits: Vec<u32> = limbs
        .iter()
        .flat_map(|&l| [l as u32, (l >> 32) as u32])
        .collect();
    BigUint::from_slice(&digits)
}

fn nat(x: &BigUint) -> Natural {
    Natural::from_slice(&x.to_u64_digits())
}

fn b_pow(k: usize) -> BigUint {
    BigUint::from(1u8) << (64 * k)
}

fn limbs_of(x: &BigUint) -> usize {
    x.to_u64_digits().len()
}

/// k limbs, zero-padded.
fn pad(x: &BigUint, k: usize) -> Vec<u64> {
    let mut v = x.to_u64_digits();
    assert!(v.len() <= k, "{x:#x} has more than {k} limbs");
    v.resize(k, 0);
    v
}

fn check(got: &[u64], want: &BigUint, what: &dyn Fn() -> String) {
    assert_eq!(big(got), *want, "{}", what());
}

/// Reducers for any modulus; the others (tables, special forms) may refuse one as unsupported.
fn is_general(name: &str) -> bool {
    matches!(name, "auto" | "classical" | "barrett") || name.starts_with("montgomery-")
}

/// The radix-2 reference is 64x slower: only up to 8 limbs, as in the main suite.
fn reducers_for(k: usize) -> impl Iterator<Item = &'static ReducerInfo> {
    REDUCERS
        .iter()
        .filter(move |r| !(r.name == "montgomery-bitserial" && k > 8))
}

/// `Modulus::new` for `info`, checking its refusals: `None` when m is (rightly) refused.
fn context(info: &ReducerInfo, m: &BigUint) -> Option<Modulus> {
    match Modulus::new(&nat(m), info.kind) {
        Err(Error::EvenModulus { reducer, .. }) if info.needs_odd && !m.bit(0) => {
            assert_eq!(reducer, info.name);
            None
        }
        Err(Error::UnsupportedModulus { .. }) if !is_general(info.name) => None,
        Err(e) => panic!("{}: modulus {m:#x} refused: {e}", info.name),
        Ok(_) if info.needs_odd && !m.bit(0) => panic!("{}: even {m:#x} accepted", info.name),
        Ok(md) => Some(md),
    }
}

/// Moduli of `k` limbs: random odd with the top bit set, random even, and at the listed sizes
/// the edges b^k - 1 (also a diminished-radix modulus), b^k + 1, top limb 1, b^k - 2 and
/// 2^(64k - 1).
fn moduli(k: usize, rng: &mut Rng) -> Vec<BigUint> {
    let top = b_pow(k - 1) << 63u32;
    let odd = (rng.limbs(k) | &top) | BigUint::from(1u8);
    let even = rng.limbs(k) >> 1u32 << 1u32 | BigUint::from(2u8);
    let mut v = vec![odd, even];
    if [1, 2, 3, 4, 5, 8, 9, 16, 17, 31, 32, 33, 40].contains(&k) {
        let bk = b_pow(k);
        v.extend([
            &bk - 1u32,
            &bk + 1u32,
            b_pow(k - 1) + 3u32,
            &bk - 2u32,
            top.clone(),
        ]);
    }
    if k == 1 {
        v.extend([1u64, 2, 3, 5].map(BigUint::from));
    }
    v
}

/// Every reducer on m through `Modulus` (mul, sqr, reduce) and the raw `Reducer` trait
/// (representation round trips, mul, sqr, reduce_wide as `wide_result` says) on every kernel
/// tier this CPU has.
fn check_reducers(m: &BigUint, rng: &mut Rng) {
    let k = limbs_of(m);
    let one = BigUint::from(1u8);
    let mut ops = vec![
        BigUint::ZERO,
        &one % m,
        m - &one,
        (b_pow(k) - &one) % m,
        rng.below(m),
        rng.below(m),
    ];
    ops.dedup();
    let wides = [
        BigUint::ZERO,
        m - &one,
        (m - &one) * (m - &one),
        b_pow(2 * k) - &one,
        rng.below(&(m * m)),
        rng.below(&(m * b_pow(k))),
    ];
    let r_mod_m = b_pow(k) % m;
    for info in reducers_for(k) {
        let Some(md) = context(info, m) else {
            continue;
        };
        let name = info.name;
        for (i, a) in ops.iter().enumerate() {
            let b = &ops[(i + 1) % ops.len()];
            let what = || format!("{name} m={m:#x} a={a:#x} b={b:#x}");
            check(
                md.mul_vartime(&nat(a), &nat(b)).unwrap().limbs(),
                &(a * b % m),
                &what,
            );
            check(
                md.sqr_vartime(&nat(a)).unwrap().limbs(),
                &(a * a % m),
                &what,
            );
        }
        for x in &wides {
            let what = || format!("{name} reduce x={x:#x} m={m:#x}");
            check(md.reduce_vartime(&nat(x)).unwrap().limbs(), &(x % m), &what);
        }
        if *m == one {
            continue; // Modulus answers 0 for m = 1 without a reducer
        }
        for tier in modred::cpu::available() {
            let r = reduce::build_with_tier(info.kind, &nat(m), tier).unwrap();
            let name = format!("{} ({tier})", r.name());
            assert_eq!(big(r.modulus()), *m, "{name}");
            let mut s = vec![u64::MAX; r.scratch_len()];
            let mut out = vec![0u64; k];
            let reprs: Vec<Vec<u64>> = ops
                .iter()
                .map(|a| {
                    let mut ar = vec![u64::MAX; k];
                    r.to_repr(&mut ar, &pad(a, k), &mut s);
                    r.from_repr(&mut out, &ar, &mut s);
                    check(&out, a, &|| format!("{name} round trip {a:#x} m={m:#x}"));
                    ar
                })
                .collect();
            for (i, a) in ops.iter().enumerate() {
                let j = (i + 2) % ops.len();
                let mut p = vec![u64::MAX; k];
                r.mul(&mut p, &reprs[i], &reprs[j], &mut s);
                r.from_repr(&mut out, &p, &mut s);
                let want = a * &ops[j] % m;
                check(&out, &want, &|| format!("{name} mul {a:#x} m={m:#x}"));
                r.sqr(&mut p, &reprs[i], &mut s);
                r.from_repr(&mut out, &p, &mut s);
                check(&out, &(a * a % m), &|| {
                    format!("{name} sqr {a:#x} m={m:#x}")
                });
            }
            for x in &wides {
                if r.check_wide(&x.to_u64_digits()).is_err() {
                    continue;
                }
                r.reduce_wide(&mut out, &mut pad(x, 2 * k), &mut s);
                let got = big(&out);
                assert!(
                    got < *m,
                    "{name} reduce_wide {x:#x} m={m:#x}: {got:#x} >= m"
                );
                // The Montgomery family returns x R^-1 mod m: got R = x (mod m).
                let got = match r.wide_result() {
                    WideResult::Residue => got,
                    WideResult::MontgomeryReduced => got * &r_mod_m % m,
                };
                assert_eq!(got, x % m, "{name} reduce_wide {x:#x} m={m:#x}");
            }
        }
    }
}

/// `base^exp mod m` by every method over every reducer that serves m, with the default and an
/// explicit window; `ct` must refuse even moduli and reducers that are not constant time.
fn check_methods(m: &BigUint, exps: &[BigUint], rng: &mut Rng) {
    let k = limbs_of(m);
    let bases = [BigUint::ZERO, m - 1u32, m * m + rng.limbs(1), rng.below(m)];
    for info in reducers_for(k) {
        let Ok(r) = reduce::build(info.kind, &nat(m)) else {
            continue;
        };
        let ct_ok = (info.name == "auto" || r.is_constant_time()) && m.bit(0);
        for (i, e) in exps.iter().enumerate() {
            let b = &bases[i % bases.len()];
            let want = b.modpow(e, m);
            for method in METHODS.iter().map(|i| i.method) {
                let windows = match method {
                    Method::Window | Method::Sliding | Method::Ct | Method::Comb => {
                        vec![None, Some(1 + i % 6)]
                    }
                    _ => vec![None],
                };
                for window in windows {
                    let opts = PowOptions {
                        method,
                        reducer: info.kind,
                        window,
                        ..PowOptions::default()
                    };
                    let what = || format!("{opts:?}: {b:#x}^{e:#x} mod {m:#x}");
                    let got = exp::pow_vartime(&nat(b), &nat(e), &nat(m), &opts);
                    if method == Method::Ct && !ct_ok && *m != BigUint::from(1u8) {
                        let refused = matches!(got, Err(Error::InvalidParameter(_)));
                        assert!(refused, "{}: ct not refused", what());
                        continue;
                    }
                    let got = got.unwrap_or_else(|err| panic!("{}: {err}", what()));
                    check(got.limbs(), &want, &what);
                }
            }
        }
    }
    // The rest of the `Modulus` API, on the default reducer.
    let md = Modulus::new(&nat(m), Default::default()).unwrap();
    let (b, e) = (&bases[3], &exps[exps.len() - 1]);
    let want = b.modpow(e, m);
    let what = || format!("{b:#x}^{e:#x} mod {m:#x}");
    let fb = md.fixed_base(&nat(b)).unwrap();
    check(fb.pow_vartime(&nat(e)).unwrap().limbs(), &want, &what);
    let pairs = vec![(nat(b), nat(e)), (nat(&bases[1]), nat(e))];
    let many = md.pow_many_vartime(&pairs).unwrap();
    check(many[0].as_ref().unwrap().limbs(), &want, &what);
    check(
        many[1].as_ref().unwrap().limbs(),
        &bases[1].modpow(e, m),
        &what,
    );
    if m.bit(0) {
        check(md.pow_ct(&nat(b), &nat(e)).unwrap().limbs(), &want, &what);
        let [x, y] = md
            .pow_ct_pair(&nat(b), &nat(e), &md, &nat(&bases[1]), &nat(e))
            .unwrap();
        check(x.limbs(), &want, &what);
        check(y.limbs(), &bases[1].modpow(e, m), &what);
        // m - 1 is its own inverse.
        if *m > BigUint::from(1u8) {
            let inv = md.inverse_vartime(&nat(&bases[1])).unwrap();
            check(inv.limbs(), &(m - 1u32), &what);
        }
    }
}

#[test]
fn every_reducer_1_to_40_limbs_and_edges() {
    let mut rng = Rng(0x5eed_0a64_0001);
    for k in 1..=40 {
        for m in moduli(k, &mut rng) {
            check_reducers(&m, &mut rng);
        }
    }
}

/// Odd and even lengths are two tests, so that the test harness runs the halves (about a
/// minute each under qemu) on two threads.
#[test]
fn every_method_every_reducer_odd_lengths() {
    every_method_every_reducer((1..=40).step_by(2), 0x5eed_0a64_0002);
}

#[test]
fn every_method_every_reducer_even_lengths() {
    every_method_every_reducer((2..=40).step_by(2), 0x5eed_0a64_0004);
}

fn every_method_every_reducer(lengths: impl Iterator<Item = usize>, seed: u64) {
    let mut rng = Rng(seed);
    for k in lengths {
        for (i, m) in moduli(k, &mut rng).into_iter().enumerate() {
            let bits = m.bits();
            let mut exps = vec![
                BigUint::ZERO,
                BigUint::from(1u8),
                rng.limbs(1) | BigUint::from(1u8) << 63u32,
            ];
            // Full-length exponents up to 8 limbs, and above on one random modulus of two sizes
            // (their cost grows as k^3: qemu's time).
            if k <= 8 || (k == 17 && i == 0) || (k == 32 && i == 0) {
                exps.push(rng.limbs(k) | BigUint::from(1u8) << (bits - 1));
            }
            check_methods(&m, &exps, &mut rng);
        }
    }
}

/// Every m <= 40, every base and a spread of exponents, every method (auto reducer).
#[test]
fn small_moduli_exhaustive() {
    for m in 1u64..=40 {
        for b in 0..m + 3 {
            for e in [0u64, 1, 2, 3, 7, 64, 1000] {
                for info in METHODS {
                    let opts = PowOptions {
                        method: info.method,
                        ..PowOptions::default()
                    };
                    let got = exp::pow_vartime(&b.into(), &e.into(), &m.into(), &opts);
                    if info.method == Method::Ct && m % 2 == 0 {
                        assert!(matches!(got, Err(Error::InvalidParameter(_))), "{m}");
                        continue;
                    }
                    let want = BigUint::from(b).modpow(&BigUint::from(e), &BigUint::from(m));
                    let what = || format!("{} {b}^{e} mod {m}", info.name);
                    check(got.unwrap().limbs(), &want, &what);
                }
            }
        }
    }
}

/// The single-word kernels (`modred::word`, with the portable division where x86-64 uses
/// `div`) against u128 arithmetic.
#[test]
fn word_kernels() {
    let mut rng = Rng(0x5eed_0a64_0003);
    let mut ms = vec![
        1u64,
        2,
        3,
        5,
        1 << 32,
        (1 << 63) + 1,
        1 << 63,
        u64::MAX,
        u64::MAX - 58,
    ];
    ms.extend(
        (0..40)
            .map(|_| rng.next() >> (rng.next() % 64))
            .filter(|&m| m > 0),
    );
    for m in ms {
        let monty = word::Monty64::new(m);
        assert_eq!(monty.is_ok(), m % 2 == 1, "Monty64::new({m})");
        let barrett = word::Barrett64::new(m).unwrap();
        let edges = [0, 1, m - 1, m, u64::MAX];
        for i in 0..60 {
            let (a, b) = if i < 25 {
                (edges[i % 5], edges[i / 5])
            } else {
                (rng.next(), rng.next())
            };
            let e = rng.next() >> (i % 64);
            let want = (a as u128 * b as u128 % m as u128) as u64;
            let want_pow: u64 = BigUint::from(a)
                .modpow(&BigUint::from(e), &BigUint::from(m))
                .try_into()
                .unwrap();
            let what = format!("a={a} b={b} e={e} m={m}");
            assert_eq!(word::mul_mod_vartime(a, b, m).unwrap(), want, "{what}");
            assert_eq!(word::divq::mul_divq_vartime(a, b, m), want, "{what}");
            assert_eq!(word::divq::mul_divq_u128_vartime(a, b, m), want, "{what}");
            assert_eq!(barrett.mul_mod(a, b), want, "Barrett64 {what}");
            assert_eq!(barrett.reduce(a), a % m, "Barrett64 {what}");
            assert_eq!(word::pow_mod_vartime(a, e, m).unwrap(), want_pow, "{what}");
            assert_eq!(word::divq::pow_divq_vartime(a, e, m), want_pow, "{what}");
            assert_eq!(barrett.pow_vartime(a, e), want_pow, "Barrett64 {what}");
            if let Ok(mo) = &monty {
                assert_eq!(mo.mul_mod(a, b), want, "Monty64 {what}");
                assert_eq!(mo.pow_vartime(a, e), want_pow, "Monty64 {what}");
                let x = mo.to_monty(a % m);
                assert_eq!(
                    mo.from_monty(mo.pow_monty_ct(x, e)),
                    want_pow,
                    "Monty64 ct {what}"
                );
            }
            if m <= 1 << 63 {
                let sh = word::Shoup64::new(b, m).unwrap();
                assert_eq!(sh.mul(a), want, "Shoup64 {what}");
            }
            let x = Natural::from_slice(&[a, b, e]);
            let want_res: u64 = (big(&[a, b, e]) % m).try_into().unwrap();
            assert_eq!(word::residue_vartime(&x, m).unwrap(), want_res, "{what}");
        }
    }
}
