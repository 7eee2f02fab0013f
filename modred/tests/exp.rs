//! Differential tests of modular exponentiation: every method x every reducer that accepts the
//! modulus, against num-bigint `modpow` and GMP (`rug`) `pow_mod`.

use modred::exp::{self, ct::CtEvent, Method, Modulus, PowOptions, METHODS};
use modred::{Error, Natural, ReducerKind, REDUCERS};
use num_bigint::{BigUint, RandBigInt};
use num_traits::{One, Zero};
use proptest::prelude::*;
use rand::{rngs::StdRng, Rng, SeedableRng};
use rug::Integer;

fn nat(x: &BigUint) -> Natural {
    Natural::from(x)
}

fn rug_of(x: &BigUint) -> Integer {
    Integer::from_str_radix(&x.to_str_radix(16), 16).unwrap()
}

/// Both oracles, checked against each other.
fn oracle(b: &BigUint, e: &BigUint, m: &BigUint) -> BigUint {
    let want = b.modpow(e, m);
    let g = rug_of(b).pow_mod(&rug_of(e), &rug_of(m)).unwrap();
    assert_eq!(g, rug_of(&want), "oracles disagree");
    want
}

/// Options with the reducer called `reducer` (which must exist).
fn opts(method: Method, reducer: &str) -> PowOptions {
    PowOptions {
        method,
        reducer: reducer.parse().expect("a listed reducer"),
        ..PowOptions::default()
    }
}

/// Reducers that can serve m (every entry of the table whose constructor accepts it, skipping
/// the very slow bit-serial one above 8 limbs), with whether `ct` accepts it ("auto" switches
/// to CIOS for `ct`).
fn reducers_for(m: &BigUint) -> Vec<(&'static str, bool)> {
    let limbs = m.bits().div_ceil(64);
    REDUCERS
        .iter()
        .filter(|r| !(r.name == "montgomery-bitserial" && limbs > 8))
        .filter_map(|r| {
            let built = modred::reduce::build(r.kind, &nat(m)).ok()?;
            Some((r.name, r.name == "auto" || exp::is_constant_time(&*built)))
        })
        .collect()
}

fn check_all(b: &BigUint, e: &BigUint, m: &BigUint, full: bool) {
    let want = oracle(b, e, m);
    let reducers = reducers_for(m);
    for (ri, &(reducer, reducer_ct)) in reducers.iter().enumerate() {
        for info in METHODS {
            // Long exponents: every method on two reducers, every reducer with two methods.
            if !full
                && ri > 1
                && !matches!(info.method, Method::Auto | Method::Sliding | Method::Ct)
            {
                continue;
            }
            let o = opts(info.method, reducer);
            let got = exp::pow_vartime(&nat(b), &nat(e), &nat(m), &o);
            let ct_refused = info.method == Method::Ct && (!reducer_ct || !m.bit(0)) && !m.is_one();
            if ct_refused {
                assert!(
                    matches!(got, Err(Error::InvalidParameter(_))),
                    "ct must refuse reducer {reducer} / even m, got {got:?}"
                );
                continue;
            }
            let got = got.unwrap_or_else(|err| panic!("{} {reducer}: {err}", info.name));
            assert_eq!(
                got.to_biguint(),
                want,
                "method {} reducer {reducer}: {b:x}^{e:x} mod {m:x}",
                info.name
            );
        }
    }
}

fn special_moduli(limbs: usize, rng: &mut StdRng) -> Vec<BigUint> {
    let b_k = BigUint::one() << (64 * limbs);
    let mut v = vec![
        &b_k - 1u32,                                   // b^k - 1 (all ones)
        &b_k + 1u32,                                   // b^k + 1 (top limb 1)
        (BigUint::one() << (64 * (limbs - 1))) + 3u32, // top limb 1 (k = limbs)
    ];
    let mut r = rng.gen_biguint(64 * limbs as u64) | (BigUint::one() << (64 * limbs - 1));
    v.push(&r | BigUint::one()); // random odd, top bit set
    r = (r >> 1u32 << 1u32) | BigUint::from(2u8);
    v.push(r.clone()); // random even (2 * odd-ish)
    v.push(r << 70u32 | BigUint::from(1u8) << 69u32); // even with t = 69 > 64
    v
}

#[test]
fn small_moduli_exhaustive_exponents() {
    for m in 1u32..=40 {
        let m = BigUint::from(m);
        for b in 0u32..=45 {
            for e in [0u32, 1, 2, 3, 5, 7, 8, 16, 31, 64, 100] {
                let (b, e) = (BigUint::from(b), BigUint::from(e));
                let want = b.modpow(&e, &m);
                for info in METHODS {
                    let o = opts(info.method, "auto");
                    let got = exp::pow_vartime(&nat(&b), &nat(&e), &nat(&m), &o);
                    if info.method == Method::Ct && !m.bit(0) && !m.is_one() {
                        assert!(matches!(got, Err(Error::InvalidParameter(_))));
                        continue;
                    }
                    assert_eq!(
                        got.unwrap().to_biguint(),
                        want,
                        "{} {b}^{e} mod {m}",
                        info.name
                    );
                }
            }
        }
    }
}

#[test]
fn every_method_every_reducer() {
    let mut rng = StdRng::seed_from_u64(0xe1);
    for limbs in [1usize, 2, 3, 4, 5, 8, 9, 16, 17, 32, 33, 48, 64, 65] {
        let mut moduli = special_moduli(limbs, &mut rng);
        if limbs == 1 {
            moduli.extend([3u64, 5, u64::MAX, (1u64 << 63) + 1].map(BigUint::from));
        }
        if limbs > 9 {
            // Few cases at large sizes: one odd and one even modulus.
            moduli = vec![moduli[3].clone(), moduli[5].clone()];
        }
        for m in &moduli {
            let mbits = m.bits();
            let exps = [
                BigUint::zero(),
                BigUint::one(),
                BigUint::from(2u8),
                rng.gen_biguint(64) | (BigUint::one() << 63),
                rng.gen_biguint(65) | (BigUint::one() << 64),
                rng.gen_biguint(mbits) | (BigUint::one() << (mbits - 1)),
            ];
            let bases = [
                BigUint::zero(),
                BigUint::one(),
                m - 1u32,
                m + 5u32,
                m * m + rng.gen_biguint(64), // far above m
                rng.gen_biguint_below(m),
            ];
            for (ei, e) in exps.iter().enumerate() {
                let full_exp = ei == exps.len() - 1;
                for (bi, b) in bases.iter().enumerate() {
                    // At large sizes the full-length exponent runs with one base only.
                    if full_exp && limbs > 4 && bi != bases.len() - 1 {
                        continue;
                    }
                    if limbs > 9 && !full_exp && bi % 2 == 1 {
                        continue;
                    }
                    check_all(b, e, m, !full_exp || limbs <= 9);
                }
            }
        }
    }
}

#[test]
fn semantics_and_errors() {
    let m = Natural::from(1_000_003u64);
    let d = PowOptions::default();
    assert_eq!(
        exp::pow_vartime(
            &Natural::from(5u64),
            &Natural::from(3u64),
            &Natural::zero(),
            &d
        ),
        Err(Error::ZeroModulus)
    );
    assert!(
        exp::pow_vartime(&Natural::from(5u64), &Natural::zero(), &Natural::one(), &d)
            .unwrap()
            .is_zero()
    );
    assert!(exp::pow_vartime(&Natural::zero(), &Natural::zero(), &m, &d)
        .unwrap()
        .is_one());
    assert!(
        exp::pow_vartime(&Natural::zero(), &Natural::from(7u64), &m, &d)
            .unwrap()
            .is_zero()
    );
    // A Montgomery reducer with an even modulus: its own error; "auto" handles it.
    let even = Natural::from(1_000_002u64);
    let got = exp::pow_vartime(
        &Natural::from(3u64),
        &Natural::from(5u64),
        &even,
        &opts(Method::Sliding, "montgomery-cios"),
    );
    assert!(matches!(got, Err(Error::EvenModulus { .. })), "{got:?}");
    assert_eq!(
        exp::pow_vartime(&Natural::from(3u64), &Natural::from(5u64), &even, &d).unwrap(),
        Natural::from(243u64)
    );
    for bad in [
        PowOptions {
            window: Some(0),
            ..d.clone()
        },
        PowOptions {
            window: Some(17),
            ..d.clone()
        },
        PowOptions {
            threads: Some(0),
            ..d.clone()
        },
        PowOptions {
            threads: Some(exp::MAX_THREADS + 1),
            ..d.clone()
        },
        // `modred methods` documents at most 8 comb teeth (2^8-entry tables).
        PowOptions {
            method: Method::Comb,
            window: Some(9),
            ..d.clone()
        },
    ] {
        let got = exp::pow_vartime(&Natural::one(), &Natural::one(), &m, &bad);
        assert!(
            matches!(got, Err(Error::InvalidParameter(_))),
            "{bad:?}: {got:?}"
        );
    }
    assert!(exp::check_threads(exp::MAX_THREADS).is_ok());
    assert!(matches!(
        "nope".parse::<ReducerKind>(),
        Err(Error::UnknownName { .. })
    ));
    match Method::from_name("slidingg") {
        Err(Error::UnknownName { known, .. }) => {
            assert!(known.contains("comb") && known.contains("binary-rl"))
        }
        other => panic!("{other:?}"),
    }
    for info in METHODS {
        assert_eq!(Method::from_name(info.name).unwrap(), info.method);
        assert_eq!(info.method.name(), info.name);
    }
    // ct refuses variable-time reducers by name, and "auto" switches to a constant-time one
    // even where its general choice (REDC with Karatsuba) is not.
    // montgomery-redc is constant time below the Karatsuba thresholds (schoolbook product), so
    // it is accepted for this small modulus; FIOS and the division-based methods never are.
    for vartime in ["montgomery-fios", "classical", "barrett"] {
        let got = exp::pow_vartime(
            &Natural::from(3u64),
            &Natural::from(5u64),
            &m,
            &opts(Method::Ct, vartime),
        );
        assert!(
            matches!(got, Err(Error::InvalidParameter(_))),
            "{vartime}: {got:?}"
        );
    }
    let big = (BigUint::one() << (64 * 50 - 1)) + 12345u32;
    let md = Modulus::new(&nat(&big), ReducerKind::Auto).unwrap();
    let e = BigUint::from(0xdead_beefu64) << 1000u32;
    assert_eq!(
        md.pow_ct(&Natural::from(7u64), &nat(&e))
            .unwrap()
            .to_biguint(),
        oracle(&BigUint::from(7u8), &e, &big)
    );
    // Selectable windows give the same answers.
    let mut rng = StdRng::seed_from_u64(7);
    let mb = rng.gen_biguint(300) | BigUint::one() | (BigUint::one() << 299);
    let (b, e) = (rng.gen_biguint(300), rng.gen_biguint(300));
    let want = oracle(&b, &e, &mb);
    for method in [Method::Window, Method::Sliding, Method::Ct, Method::Comb] {
        let most = if method == Method::Comb { 8 } else { 9 };
        for w in 1..=most {
            let o = PowOptions {
                method,
                window: Some(w),
                ..d.clone()
            };
            assert_eq!(
                exp::pow_vartime(&nat(&b), &nat(&e), &nat(&mb), &o)
                    .unwrap()
                    .to_biguint(),
                want,
                "{method:?} w={w}"
            );
        }
    }
    for t in 1..=4 {
        let o = PowOptions {
            method: Method::FixedBase,
            threads: Some(t),
            ..d.clone()
        };
        assert_eq!(
            exp::pow_vartime(&nat(&b), &nat(&e), &nat(&mb), &o)
                .unwrap()
                .to_biguint(),
            want
        );
    }
}

/// m = 1 gives 0 for every reducer (special-form ones too) and method, `ct` over a
/// variable-time reducer included: only the options' ranges are checked first.
#[test]
fn modulus_one_gives_zero_everywhere() {
    let one = Natural::one();
    let (b, e) = (Natural::from(5u64), Natural::from(6u64));
    for r in REDUCERS {
        let md = Modulus::new(&one, r.kind).unwrap_or_else(|err| panic!("{}: {err}", r.name));
        assert!(
            md.reduce_vartime(&b).unwrap().is_zero() && md.mul_vartime(&b, &e).unwrap().is_zero()
        );
        for info in METHODS {
            let o = opts(info.method, r.name);
            for got in [
                exp::pow_vartime(&b, &e, &one, &o),
                exp::pow_signed_exp_vartime(&b, &e, true, &one, &o),
                md.pow_vartime(&b, &e, &o),
            ] {
                assert_eq!(got, Ok(Natural::zero()), "{} {}", r.name, info.name);
            }
        }
        let bad = PowOptions {
            window: Some(17),
            ..opts(Method::Window, r.name)
        };
        assert!(matches!(
            exp::pow_vartime(&b, &e, &one, &bad),
            Err(Error::InvalidParameter(_))
        ));
    }
}

#[test]
fn negative_exponents_inverse_gcd() {
    let mut rng = StdRng::seed_from_u64(11);
    let d = PowOptions::default();
    for bits in [8u64, 64, 65, 200, 1000] {
        for _ in 0..10 {
            let m = rng.gen_biguint(bits) + 2u32;
            let a = rng.gen_biguint(bits + 3);
            let g = num_integer::Integer::gcd(&a, &m);
            assert_eq!(exp::gcd_vartime(&nat(&a), &nat(&m)).to_biguint(), g);
            let inv = exp::inverse_vartime(&nat(&a), &nat(&m));
            let gm = rug_of(&a).invert(&rug_of(&m));
            match gm {
                Ok(x) => {
                    let inv = inv.unwrap().to_biguint();
                    assert_eq!(rug_of(&inv), x);
                    assert!(((&a * &inv) % &m).is_one());
                    let e = rng.gen_biguint(70);
                    let got = exp::pow_signed_exp_vartime(&nat(&a), &nat(&e), true, &nat(&m), &d)
                        .unwrap();
                    assert_eq!(got.to_biguint(), oracle(&inv, &e, &m));
                }
                Err(_) => {
                    assert_eq!(inv, Err(Error::NotInvertible));
                    assert_eq!(
                        exp::pow_signed_exp_vartime(
                            &nat(&a),
                            &Natural::from(3u64),
                            true,
                            &nat(&m),
                            &d
                        ),
                        Err(Error::NotInvertible)
                    );
                }
            }
        }
    }
    // m = 1: everything is 0; exponent -0 is 0.
    assert!(exp::inverse_vartime(&Natural::from(4u64), &Natural::one())
        .unwrap()
        .is_zero());
    assert!(exp::pow_signed_exp_vartime(
        &Natural::from(4u64),
        &Natural::zero(),
        true,
        &Natural::from(6u64),
        &d
    )
    .unwrap()
    .is_one());
    assert_eq!(
        exp::inverse_vartime(&Natural::one(), &Natural::zero()),
        Err(Error::ZeroModulus)
    );
}

fn assert_send_sync_clone<T: Send + Sync + Clone>() {}

#[test]
fn modulus_context_fixed_base_and_batches() {
    assert_send_sync_clone::<Modulus>();
    assert_send_sync_clone::<exp::FixedBase>();
    let mut rng = StdRng::seed_from_u64(5);
    for (bits, odd) in [
        (64u64, true),
        (130, false),
        (521, true),
        (1024, true),
        (1100, false),
    ] {
        let mut m = rng.gen_biguint(bits) | (BigUint::one() << (bits - 1));
        m = if odd {
            m | BigUint::one()
        } else {
            m >> 3u32 << 3u32
        };
        let md = Modulus::new(&nat(&m), ReducerKind::Auto).unwrap();
        assert_eq!(md.modulus().to_biguint(), m);
        let (a, b) = (rng.gen_biguint(bits + 10), rng.gen_biguint(bits));
        assert_eq!(md.reduce_vartime(&nat(&a)).unwrap().to_biguint(), &a % &m);
        assert_eq!(
            md.mul_vartime(&nat(&a), &nat(&b)).unwrap().to_biguint(),
            (&a * &b) % &m
        );
        assert_eq!(
            md.sqr_vartime(&nat(&a)).unwrap().to_biguint(),
            (&a * &a) % &m
        );
        if odd {
            let e = rng.gen_biguint(bits);
            assert_eq!(
                md.pow_ct(&nat(&a), &nat(&e)).unwrap().to_biguint(),
                oracle(&a, &e, &m)
            );
        } else {
            assert!(matches!(
                md.pow_ct(&nat(&a), &nat(&b)),
                Err(Error::InvalidParameter(_))
            ));
        }
        let pairs: Vec<(BigUint, BigUint)> = (0..6)
            .map(|i| {
                (
                    rng.gen_biguint(bits + i),
                    rng.gen_biguint(bits * (i % 3) + 1),
                )
            })
            .collect();
        let natpairs: Vec<(Natural, Natural)> =
            pairs.iter().map(|(b, e)| (nat(b), nat(e))).collect();
        for (got, (b, e)) in md
            .pow_many_vartime(&natpairs)
            .unwrap()
            .into_iter()
            .zip(&pairs)
        {
            assert_eq!(got.unwrap().to_biguint(), oracle(b, e, &m));
        }
        let triples: Vec<(Natural, Natural, Natural)> = natpairs
            .iter()
            .map(|(b, e)| (b.clone(), e.clone(), nat(&m)))
            .collect();
        for (got, (b, e)) in exp::pow_batch_vartime(&triples)
            .unwrap()
            .into_iter()
            .zip(&pairs)
        {
            assert_eq!(got.unwrap().to_biguint(), oracle(b, e, &m));
        }
        // Fixed base: comb and the threaded method of Prots'ko, Gryshchuk, *The implementation
        // of Montgomery modular reduction to speed up of modular exponentiation*, CMIS-2024,
        // including exponents beyond the tables (fallback).
        let g = rng.gen_biguint(bits + 5);
        let fb = md.fixed_base(&nat(&g)).unwrap();
        for ebits in [0u64, 1, 2, 64, bits - 1, bits, bits + 70] {
            for _ in 0..2 {
                let e = rng.gen_biguint(ebits);
                let want = oracle(&g, &e, &m);
                assert_eq!(
                    fb.pow_vartime(&nat(&e)).unwrap().to_biguint(),
                    want,
                    "comb {bits} {ebits}"
                );
                for t in [1, 2, 3] {
                    assert_eq!(
                        fb.pow_threads_vartime(&nat(&e), t).unwrap().to_biguint(),
                        want
                    );
                }
            }
        }
        assert!(matches!(
            fb.pow_threads_vartime(&Natural::one(), 0),
            Err(Error::InvalidParameter(_))
        ));
        assert!(matches!(
            fb.pow_threads_vartime(&Natural::one(), exp::MAX_THREADS + 1),
            Err(Error::InvalidParameter(_))
        ));
    }
    // Explicit reducers for the context.
    let m = Natural::from((1u128 << 100) + 277);
    for r in REDUCERS.iter().filter(|r| r.name != "montgomery-bitserial") {
        let md = match Modulus::new(&m, r.kind) {
            Ok(md) => md,
            // Special-form methods (diminished-radix) refuse other moduli.
            Err(Error::UnsupportedModulus { .. }) => continue,
            Err(e) => panic!("{}: {e}", r.name),
        };
        let got = md
            .pow_vartime(
                &Natural::from(3u64),
                &Natural::from(1u64 << 40),
                &PowOptions::default(),
            )
            .unwrap();
        assert_eq!(
            got.to_biguint(),
            oracle(
                &BigUint::from(3u8),
                &BigUint::from(1u64 << 40),
                &m.to_biguint()
            )
        );
    }
    assert_eq!(
        Modulus::new(&Natural::zero(), ReducerKind::Auto).err(),
        Some(Error::ZeroModulus)
    );
    let one = Modulus::new(&Natural::one(), ReducerKind::Auto).unwrap();
    assert!(one
        .fixed_base(&Natural::from(9u64))
        .unwrap()
        .pow_vartime(&Natural::from(3u64))
        .unwrap()
        .is_zero());
}

/// A context built for each kernel tier this CPU has keeps that tier (the `ct` reducer too,
/// and a tier above the CPU's gives the CPU's), and every method, the contexts' products and
/// the comb agree with both oracles: the unrolled sizes, the IFMA sizes, an even modulus
/// (CRT), IFMA sizes past 64 limbs and past the Karatsuba threshold (where `pow_ct` takes the
/// IFMA kernel before `montgomery-sos`), and a size above IFMA's.
#[test]
fn every_kernel_tier_in_one_process() {
    use modred::cpu::{self, Tier};
    let mut rng = StdRng::seed_from_u64(0x7133);
    for limbs in [1usize, 4, 6, 8, 9, 16, 32, 65, 100, 129, 130] {
        for odd in [true, false] {
            let mut m = rng.gen_biguint(64 * limbs as u64) | (BigUint::one() << (64 * limbs - 1));
            m.set_bit(0, odd);
            let b = rng.gen_biguint_below(&m);
            let e = rng.gen_biguint(64 * limbs.min(16) as u64);
            let want = oracle(&b, &e, &m);
            for tier in cpu::available() {
                let md = Modulus::with_tier(&nat(&m), ReducerKind::Auto, tier).unwrap();
                if odd {
                    assert_eq!(md.reducer().unwrap().tier(), tier, "{limbs} limbs");
                    assert_eq!(md.pow_ct(&nat(&b), &nat(&e)).unwrap(), nat(&want));
                }
                for info in METHODS.iter().filter(|i| odd || i.method != Method::Ct) {
                    let got = md.pow_vartime(&nat(&b), &nat(&e), &opts(info.method, "auto"));
                    assert_eq!(
                        got.unwrap(),
                        nat(&want),
                        "{limbs} limbs {tier} {}",
                        info.name
                    );
                }
                let a = rng.gen_biguint_below(&m);
                assert_eq!(
                    md.mul_vartime(&nat(&a), &nat(&b)).unwrap(),
                    nat(&(&a * &b % &m))
                );
                let fb = md.fixed_base(&nat(&b)).unwrap();
                assert_eq!(
                    fb.pow_vartime(&nat(&e)).unwrap(),
                    nat(&want),
                    "{limbs} {tier} comb"
                );
            }
        }
    }
    let md = Modulus::with_tier(
        &nat(&BigUint::from(101u32)),
        ReducerKind::MontgomeryFast,
        Tier::Ifma,
    );
    assert_eq!(md.unwrap().reducer().unwrap().tier(), cpu::detected());
}

#[test]
fn fixed_base_period_detection() {
    // Small moduli: A^(2^i) repeats quickly; exponents far longer than the stored residues must
    // be served through the period.
    let mut rng = StdRng::seed_from_u64(99);
    // Moduli whose sequences repeat within 3000 squarings (periods 1 .. 504, checked in Python).
    for m in [
        1_000_001u128,
        1_000_005,
        1_000_011,
        (1 << 61) - 1,
        (1 << 89) - 1,
        65_537,
        1 << 20,
        96,
        85_085,
    ] {
        let mb = BigUint::from(m);
        let md = Modulus::new(&Natural::from(m), ReducerKind::Auto).unwrap();
        for g in [2u64, 3, 10, 12345] {
            let fb = md.fixed_base_bits(&Natural::from(g), 3000).unwrap();
            let (u, t) = fb.period().expect("period within 3000 squarings");
            assert!(t >= 1);
            // Check the period against the oracle: g^(2^u) = g^(2^(u+T')).
            let two = BigUint::from(2u8);
            let x = BigUint::from(g).modpow(&two.pow(u as u32), &mb);
            let y = BigUint::from(g).modpow(&two.pow((u + t) as u32), &mb);
            assert_eq!(x, y);
            for ebits in [10u64, 3000, 5000] {
                let e = rng.gen_biguint(ebits);
                let want = oracle(&BigUint::from(g), &e, &mb);
                for th in [1, 2] {
                    assert_eq!(
                        fb.pow_threads_vartime(&nat(&e), th).unwrap().to_biguint(),
                        want
                    );
                }
            }
        }
    }
}

/// The ct schedule (operations and table indices) must not depend on the exponent or base.
#[test]
fn ct_trace_independent_of_exponent() {
    let mut rng = StdRng::seed_from_u64(3);
    for (bits, w) in [(256u64, 4usize), (1024, 5), (2048, 6)] {
        let m = rng.gen_biguint(bits) | BigUint::one() | (BigUint::one() << (bits - 1));
        let r = modred::reduce::build(ReducerKind::MontgomeryCios, &nat(&m)).unwrap();
        let k = r.len();
        let mut traces = Vec::new();
        let exps = [
            BigUint::zero(),
            BigUint::one(),
            (BigUint::one() << bits) - 1u32,
            rng.gen_biguint(bits),
            rng.gen_biguint(bits),
            BigUint::one() << (bits - 1),
        ];
        for e in &exps {
            for b in [BigUint::zero(), BigUint::one(), rng.gen_biguint_below(&m)] {
                let mut trace: Vec<CtEvent> = Vec::new();
                let got = exp::ct::pow_traced(
                    &*r,
                    &nat(&b).to_padded(k).unwrap(),
                    &nat(e).to_padded(k).unwrap(),
                    bits as usize,
                    w,
                    &mut trace,
                )
                .unwrap();
                assert_eq!(Natural::from_limbs(got).to_biguint(), oracle(&b, e, &m));
                traces.push(trace);
            }
        }
        let scans = traces[0]
            .iter()
            .filter(|e| matches!(e, CtEvent::Scan(_)))
            .count();
        assert_eq!(
            scans,
            (bits as usize).div_ceil(w) << w,
            "every digit scans the whole table"
        );
        for t in &traces[1..] {
            assert_eq!(t, &traces[0], "ct schedule depends on the exponent or base");
        }
    }
}

/// Parameters a caller can get wrong are errors, not panics: the window of `ct::pow_traced`
/// and `pow_with`, the padded exponent length, a base that is not a residue below m.
#[test]
fn out_of_range_parameters_are_errors() {
    let m = Natural::from(1_000_003u64);
    let r = modred::reduce::build(ReducerKind::MontgomeryCios, &m).unwrap();
    let e = [0xffff_u64];
    let mut trace: Vec<CtEvent> = Vec::new();
    let mut traced = |base: &[u64], bits: usize, w: usize| {
        exp::ct::pow_traced(&*r, base, &e, bits, w, &mut trace)
    };
    assert_eq!(
        traced(&[5], 64, 4).unwrap(),
        [oracle(&5u32.into(), &0xffffu32.into(), &1_000_003u32.into()).to_u64_digits()[0]]
    );
    for (base, bits, w) in [
        (&[5u64][..], 64, 0),
        (&[5], 64, 17),
        (&[5], 8, 4),
        (&[1_000_003], 64, 4),
        (&[5, 0], 64, 4),
    ] {
        assert!(
            matches!(
                traced(base, bits, w),
                Err(modred::Error::InvalidParameter(_))
            ),
            "base {base:?} bits {bits} w {w}"
        );
    }
    for method in [Method::Sliding, Method::Window, Method::Ct, Method::Comb] {
        for window in [Some(0), Some(17)] {
            let opts = PowOptions {
                method,
                window,
                ..PowOptions::default()
            };
            assert!(exp::pow_with(&*r, method, &[5], &e, &opts).is_err());
        }
        // The method argument decides (comb: at most 8 teeth), not `opts.method`.
        let opts = PowOptions {
            window: Some(9),
            ..PowOptions::default()
        };
        let got = exp::pow_with(&*r, method, &[5], &e, &opts);
        assert_eq!(got.is_err(), method == Method::Comb, "{method:?}: {got:?}");
        let opts = PowOptions::default();
        assert!(exp::pow_with(&*r, method, &[1_000_004], &e, &opts).is_err());
        assert!(exp::pow_with(&*r, method, &[5], &e, &opts).is_ok());
    }
}

/// A computation cancelled while the fixed-base or comb tables are built (their residues then
/// stop short of the exponent) ends in `Error::Cancelled`, not a panic: the Python package
/// cancels on Ctrl-C.
#[test]
fn cancelled_table_methods_are_errors() {
    use std::sync::atomic::AtomicBool;
    let mut rng = StdRng::seed_from_u64(0xca9c);
    for limbs in [1usize, 4, 9, 16] {
        let m = rng.gen_biguint(64 * limbs as u64) | BigUint::one() | (BigUint::one() << 3);
        let (b, e) = (nat(&rng.gen_biguint_below(&m)), nat(&rng.gen_biguint(256)));
        let md = Modulus::new(&nat(&m), ReducerKind::Auto).unwrap();
        let cancelled = AtomicBool::new(true);
        for method in [Method::FixedBase, Method::Comb] {
            for threads in [None, Some(2)] {
                let o = PowOptions {
                    method,
                    threads,
                    ..PowOptions::default()
                };
                let r = modred::cancel::with_flag(&cancelled, || md.pow_vartime(&b, &e, &o));
                assert_eq!(r, Err(Error::Cancelled), "{limbs} limbs {method:?}");
                let r = modred::cancel::with_flag(&cancelled, || {
                    exp::pow_vartime(&b, &e, &nat(&m), &o)
                });
                assert_eq!(r, Err(Error::Cancelled), "{limbs} limbs {method:?}");
            }
        }
        let r =
            modred::cancel::with_flag(&cancelled, || md.fixed_base(&b).map(|f| f.pow_vartime(&e)));
        assert!(
            matches!(r, Err(Error::Cancelled)),
            "{limbs} limbs fixed_base"
        );
        // Not cancelled, the same calls succeed.
        let want = nat(&oracle(&b.to_biguint(), &e.to_biguint(), &m));
        assert_eq!(
            md.pow_vartime(&b, &e, &opts(Method::Comb, "auto")).unwrap(),
            want
        );
        assert_eq!(md.fixed_base(&b).unwrap().pow_vartime(&e).unwrap(), want);
    }
}

/// `Reducer::pow_fused` is public: scan parameters out of range panic with a message on every
/// kernel tier instead of computing a wrong power (`FusedPow::Ct` with `exp_bits` below the
/// exponent's length would scan only its low bits).
#[test]
fn fused_pow_parameters_are_checked() {
    use modred::cpu::available;
    use modred::scan::FusedPow;
    let mut rng = StdRng::seed_from_u64(0xf05e);
    for limbs in [1usize, 4, 6, 9, 16, 64] {
        let m = rng.gen_biguint(64 * limbs as u64)
            | BigUint::one()
            | (BigUint::one() << (64 * limbs - 1));
        let base = nat(&rng.gen_biguint_below(&m)).to_padded(limbs).unwrap();
        let e = [u64::MAX, 5];
        for tier in available() {
            let r = modred::reduce::build_with_tier(ReducerKind::MontgomeryFast, &nat(&m), tier)
                .unwrap();
            for alg in [
                FusedPow::Sliding { w: 0 },
                FusedPow::Sliding { w: 17 },
                FusedPow::Window { w: 0 },
                FusedPow::Window { w: 64 },
                FusedPow::Ct {
                    exp_bits: 128,
                    w: 0,
                },
                FusedPow::Ct { exp_bits: 0, w: 4 },
                FusedPow::Ct { exp_bits: 66, w: 4 },
            ] {
                let got = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    r.pow_fused(&base, &e, alg)
                }));
                let msg = got.expect_err(&format!("{limbs} limbs {tier} {alg:?}"));
                let msg = msg.downcast::<String>().map(|s| *s).unwrap_or_default();
                assert!(msg.starts_with("FusedPow"), "{limbs} {tier} {alg:?}: {msg}");
            }
            let big = |x: &[u64]| Natural::from_slice(x).to_biguint();
            let want = nat(&oracle(&big(&base), &big(&e), &m));
            for alg in [
                FusedPow::Sliding { w: 16 },
                FusedPow::Ct { exp_bits: 67, w: 1 },
            ] {
                if let Some(x) = r.pow_fused(&base, &e, alg) {
                    assert_eq!(Natural::from_limbs(x), want, "{limbs} {tier} {alg:?}");
                }
            }
        }
    }
}

#[test]
fn fermat_mersenne_and_carmichael() {
    let methods = [
        Method::Auto,
        Method::Sliding,
        Method::Window,
        Method::Ct,
        Method::Comb,
    ];
    for p in [521u32, 607, 1279] {
        let n = (BigUint::one() << p) - 1u32;
        let e = &n - 1u32;
        for a in [2u32, 3, 7, 65537] {
            for method in methods {
                let got = exp::pow_vartime(
                    &Natural::from(a as u64),
                    &nat(&e),
                    &nat(&n),
                    &opts(method, "auto"),
                )
                .unwrap();
                assert!(got.is_one(), "Fermat 2^{p}-1, base {a}, {method:?}");
            }
        }
        // A composite neighbour fails the test (base 3).
        let c = &n + 2u32; // 2^p + 1 is divisible by 3
        let got = exp::pow_vartime(
            &Natural::from(5u64),
            &nat(&(&c - 1u32)),
            &nat(&c),
            &PowOptions::default(),
        )
        .unwrap();
        assert_eq!(
            got.to_biguint(),
            oracle(&BigUint::from(5u8), &(&c - 1u32), &c)
        );
        assert!(!got.is_one());
    }
    // Carmichael numbers pass Fermat for every coprime base.
    let mut carmichael: Vec<BigUint> = [
        561u64, 1105, 1729, 2465, 2821, 6601, 8911, 10585, 15841, 29341, 41041, 62745,
    ]
    .iter()
    .map(|&x| BigUint::from(x))
    .collect();
    // A big one: (6k+1)(12k+1)(18k+1) with all three factors prime (Chernick), k near 2^120.
    let mut k = Integer::from(1) << 120;
    loop {
        let f: Vec<Integer> = [6u32, 12, 18]
            .iter()
            .map(|&c| Integer::from(&k * c) + 1)
            .collect();
        if f.iter()
            .all(|x| x.is_probably_prime(30) != rug::integer::IsPrime::No)
        {
            let n = Integer::from(&f[0] * &f[1]) * &f[2];
            carmichael.push(BigUint::parse_bytes(format!("{n:x}").as_bytes(), 16).unwrap());
            break;
        }
        k += 1;
    }
    for n in &carmichael {
        for a in [2u32, 5, 7, 11, 13, 17, 19, 23] {
            let a = BigUint::from(a);
            if !num_integer::Integer::gcd(&a, n).is_one() {
                continue;
            }
            for method in methods {
                let got =
                    exp::pow_vartime(&nat(&a), &nat(&(n - 1u32)), &nat(n), &opts(method, "auto"))
                        .unwrap();
                assert!(got.is_one(), "Carmichael {n} base {a} {method:?}");
            }
        }
    }
}

fn method_strategy() -> impl Strategy<Value = Method> {
    prop::sample::select(METHODS.iter().map(|i| i.method).collect::<Vec<_>>())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]
    #[test]
    fn prop_pow_matches_gmp(
        b in prop::collection::vec(any::<u64>(), 0..10),
        e in prop::collection::vec(any::<u64>(), 0..5),
        m in prop::collection::vec(any::<u64>(), 1..9),
        method in method_strategy(),
        ri in 0usize..64,
    ) {
        let m = Natural::from_limbs(m);
        prop_assume!(!m.is_zero());
        let (b, e) = (Natural::from_limbs(b), Natural::from_limbs(e));
        let mb = m.to_biguint();
        let names = reducers_for(&mb);
        let reducer = names[ri % names.len()].0;
        let got = exp::pow_vartime(&b, &e, &m, &opts(method, reducer));
        let want = oracle(&b.to_biguint(), &e.to_biguint(), &mb);
        match got {
            Ok(x) => prop_assert_eq!(x.to_biguint(), want),
            Err(Error::InvalidParameter(_)) => prop_assert!(method == Method::Ct),
            Err(err) => prop_assert!(false, "unexpected error {}", err),
        }
    }
}

#[test]
fn even_moduli_shapes() {
    // Powers of two, 2 * odd, large t, bases with various 2-adic valuations.
    let mut rng = StdRng::seed_from_u64(21);
    // t up to 11 limbs: the inverse of the odd part by Newton at doubling lengths (1, 2, 4, 8, 11).
    for t in [1usize, 2, 3, 63, 64, 65, 128, 200, 300, 700] {
        for oddbits in [0u64, 1, 64, 300] {
            let odd = if oddbits == 0 {
                BigUint::one()
            } else {
                rng.gen_biguint(oddbits) | BigUint::one()
            };
            let m = &odd << t;
            for b in [
                BigUint::zero(),
                BigUint::from(2u8),
                BigUint::from(4u8) * rng.gen_biguint(100),
                BigUint::one() << (t / 2),
                rng.gen_biguint(400) | BigUint::one(),
            ] {
                for e in [
                    BigUint::zero(),
                    BigUint::one(),
                    BigUint::from(t as u64),
                    BigUint::from(t as u64 + 1),
                    rng.gen_biguint(70),
                    rng.gen_biguint(500),
                ] {
                    let want = oracle(&b, &e, &m);
                    for method in [
                        Method::Auto,
                        Method::Binary,
                        Method::Comb,
                        Method::FixedBase,
                    ] {
                        let got =
                            exp::pow_vartime(&nat(&b), &nat(&e), &nat(&m), &opts(method, "auto"))
                                .unwrap();
                        assert_eq!(
                            got.to_biguint(),
                            want,
                            "t={t} odd={odd} b={b} e={e} {method:?}"
                        );
                    }
                }
            }
        }
    }
    let _ = rng.gen::<u8>();
}

/// The lanes-or-one-by-one choice: lanes for the sizes where they win on every CPU, a
/// measured answer that stays the same from 40 limbs, never outside the sizes the lanes serve
/// or below the IFMA tier.
#[test]
fn lanes_choice_per_size() {
    let ifma = modred::cpu::tier() >= modred::cpu::Tier::Ifma && cfg!(target_arch = "x86_64");
    for ct in [false, true] {
        for k in [1, 7, 65, 200] {
            assert!(!exp::lanes_pay(k, ct), "{k} limbs");
        }
        for k in [8, 16, 39] {
            assert_eq!(exp::lanes_pay(k, ct), ifma, "{k} limbs");
        }
        for k in [40, 64] {
            let first = exp::lanes_pay(k, ct);
            assert!(ifma || !first, "{k} limbs: lanes below the IFMA tier");
            assert_eq!(exp::lanes_pay(k, ct), first, "{k} limbs: measured once");
        }
    }
}

/// A mixed batch of 61 triples for the batch functions with the eight-lane IFMA kernel (on
/// CPUs with IFMA; the same batches run one by one elsewhere): moduli of 8, 9, 16, 33 and 64
/// limbs, each size's last group partial, different and equal moduli in one group, exponents
/// 0, 1, short, of m's length and longer in one size, bases 0, 1, m - 1, >= m of m's length
/// and longer than m, and an even and small moduli that never run in lanes.
fn mixed_triples(rng: &mut StdRng) -> Vec<(BigUint, BigUint, BigUint)> {
    let mut triples: Vec<(BigUint, BigUint, BigUint)> = Vec::new();
    for (limbs, count) in [(8u64, 13usize), (9, 8), (16, 11), (33, 4), (64, 9)] {
        let bits = 64 * limbs;
        let shared = rng.gen_biguint(bits) | BigUint::one() | (BigUint::one() << (bits - 1));
        for i in 0..count {
            let m = if i % 4 == 1 {
                shared.clone()
            } else {
                rng.gen_biguint(bits) | BigUint::one() | (BigUint::one() << (bits - 1))
            };
            let b = match i % 6 {
                0 => BigUint::zero(),
                1 => BigUint::one(),
                2 => &m - 1u32,
                3 => &m + rng.gen_biguint(bits / 2), // >= m, same length (almost surely)
                4 => rng.gen_biguint(bits + 64),     // longer than m: one by one
                _ => rng.gen_biguint(bits - 1),
            };
            let e = match i % 5 {
                0 => BigUint::zero(),
                1 => BigUint::one(),
                2 => rng.gen_biguint(17),
                3 => rng.gen_biguint(bits + 64), // longer than m
                _ => rng.gen_biguint(bits),
            };
            triples.push((b, e, m));
        }
    }
    // Moduli the lanes never take, mixed in.
    triples.push((
        BigUint::from(5u32),
        BigUint::from(77u32),
        BigUint::from(1u32) << 1000,
    ));
    triples.push((
        BigUint::from(7u32),
        rng.gen_biguint(300),
        rng.gen_biguint(300) | BigUint::one(),
    ));
    triples.push((
        BigUint::from(3u32),
        BigUint::from(9u32),
        BigUint::from(101u32),
    ));
    triples
}

fn naturals(triples: &[(BigUint, BigUint, BigUint)]) -> Vec<(Natural, Natural, Natural)> {
    triples
        .iter()
        .map(|(b, e, m)| (nat(b), nat(e), nat(m)))
        .collect()
}

/// `pow_batch_vartime` on [`mixed_triples`] and `pow_many_vartime` of one modulus for 19
/// pairs, against both oracles.
#[test]
fn batches_in_lanes_match_oracles() {
    let mut rng = StdRng::seed_from_u64(0x1a2e5);
    let triples = mixed_triples(&mut rng);
    let got = exp::pow_batch_vartime(&naturals(&triples)).unwrap();
    assert_eq!(got.len(), triples.len());
    for (i, (got, (b, e, m))) in got.into_iter().zip(&triples).enumerate() {
        assert_eq!(got.unwrap().to_biguint(), oracle(b, e, m), "triple {i}");
    }

    let m = rng.gen_biguint(2048) | BigUint::one();
    let md = Modulus::new(&nat(&m), ReducerKind::Auto).unwrap();
    let pairs: Vec<(BigUint, BigUint)> = (0..19u64)
        .map(|i| (rng.gen_biguint(2048 - i), rng.gen_biguint(64 * i + 1)))
        .collect();
    let natpairs: Vec<(Natural, Natural)> = pairs.iter().map(|(b, e)| (nat(b), nat(e))).collect();
    for (got, (b, e)) in md
        .pow_many_vartime(&natpairs)
        .unwrap()
        .into_iter()
        .zip(&pairs)
    {
        assert_eq!(got.unwrap().to_biguint(), oracle(b, e, &m));
    }
}

/// `pow_batch_ct` on [`mixed_triples`] (the moduli of a lanes group differing, exponents of
/// m's length and longer in separate groups) plus moduli 1 and 2^64 - 1 and m = 0, against
/// both oracles: an even modulus is `pow_ct`'s error, m = 0 `ZeroModulus`.
#[test]
fn pow_batch_ct_matches_oracles() {
    let mut rng = StdRng::seed_from_u64(0xc7_5eed);
    let mut triples = mixed_triples(&mut rng);
    triples.push((BigUint::from(9u32), BigUint::from(4u32), BigUint::one()));
    triples.push((
        rng.gen_biguint(64),
        rng.gen_biguint(64),
        BigUint::from(u64::MAX),
    ));
    triples.push((BigUint::from(2u32), BigUint::from(3u32), BigUint::zero()));
    let got = exp::pow_batch_ct(&naturals(&triples)).unwrap();
    assert_eq!(got.len(), triples.len());
    for (i, (got, (b, e, m))) in got.into_iter().zip(&triples).enumerate() {
        if m.is_zero() {
            assert!(matches!(got, Err(modred::Error::ZeroModulus)), "triple {i}");
        } else if (m % 2u32).is_zero() {
            assert!(
                matches!(got, Err(modred::Error::InvalidParameter(_))),
                "triple {i}"
            );
        } else {
            assert_eq!(got.unwrap().to_biguint(), oracle(b, e, m), "triple {i}");
        }
    }
}

/// `pow_many_ct` against GMP and num-bigint (`oracle`): odd moduli the lanes serve (8, 16, 33
/// and 64 limbs, one with all-ones limbs) with exponents of several limb lengths (each length
/// its own group: below m's size, and longer than m, zero and one among them) and bases 0, 1,
/// m - 1, >= m and longer than m, in batches whose last groups are partial; plus moduli the
/// lanes do not take (even, one limb, 1), whose items run `pow_ct` one by one (errors for even
/// moduli, as `pow_ct`).
#[test]
fn pow_many_ct_matches_oracles() {
    let mut rng = StdRng::seed_from_u64(0xc7_1a2e5);
    for (limbs, count) in [(8u64, 13usize), (16, 9), (33, 5), (64, 11)] {
        let bits = 64 * limbs;
        let m = if limbs == 16 {
            (BigUint::one() << bits) - 1u32
        } else {
            rng.gen_biguint(bits) | BigUint::one() | (BigUint::one() << (bits - 1))
        };
        let md = Modulus::new(&nat(&m), ReducerKind::Auto).unwrap();
        let pairs: Vec<(BigUint, BigUint)> = (0..count)
            .map(|i| {
                let b = match i % 5 {
                    0 => BigUint::zero(),
                    1 => BigUint::one(),
                    2 => &m - 1u32,
                    3 => &m + rng.gen_biguint(bits / 2),
                    _ => rng.gen_biguint(bits + 64),
                };
                let e = match i % 4 {
                    0 => BigUint::from((i % 2) as u32), // 0 or 1
                    1 => rng.gen_biguint(bits / 3),
                    2 => rng.gen_biguint(bits + 130), // longer than m: its own group
                    _ => rng.gen_biguint(bits),
                };
                (b, e)
            })
            .collect();
        let natpairs: Vec<(Natural, Natural)> =
            pairs.iter().map(|(b, e)| (nat(b), nat(e))).collect();
        let got = md.pow_many_ct(&natpairs).unwrap();
        assert_eq!(got.len(), pairs.len());
        for (i, (got, (b, e))) in got.into_iter().zip(&pairs).enumerate() {
            assert_eq!(
                got.unwrap().to_biguint(),
                oracle(b, e, &m),
                "{limbs} limbs, pair {i}"
            );
        }
    }
    let pairs: Vec<(Natural, Natural)> = (0..6u64)
        .map(|i| (Natural::from(i + 2), Natural::from(1000 + i)))
        .collect();
    for m in [BigUint::one(), BigUint::from(1_000_003u32)] {
        let md = Modulus::new(&nat(&m), ReducerKind::Auto).unwrap();
        for (got, (b, e)) in md.pow_many_ct(&pairs).unwrap().into_iter().zip(&pairs) {
            assert_eq!(
                got.unwrap().to_biguint(),
                oracle(&b.to_biguint(), &e.to_biguint(), &m)
            );
        }
    }
    let even = Modulus::new(&nat(&(BigUint::one() << 700)), ReducerKind::Auto).unwrap();
    for got in even.pow_many_ct(&pairs).unwrap() {
        assert!(matches!(got, Err(modred::Error::InvalidParameter(_))));
    }
}

/// Every constant-time entry point at 65, 100, 128, 129 and 130 limbs (around the Karatsuba
/// threshold, where an `Auto` context's `ct` moves to `montgomery-sos` unless the context's
/// fused IFMA kernel serves the size, and past IFMA's last size) on every tier this CPU has,
/// against both oracles: `Modulus::pow_ct`, `pow_vartime` with `Method::Ct` (the context's
/// and the one-off), `CtPair::pow`, `pow_ct_pair`, `pow_many_ct` and `pow_batch_ct`. (Which
/// kernel runs is checked by the unit test `every_ct_entry_takes_the_fused_kernel`.)
#[test]
fn ct_entries_past_64_limbs_match_oracles() {
    use modred::cpu;
    use modred::exp::CtPair;
    let mut rng = StdRng::seed_from_u64(0xc7_e47e);
    let ct = opts(Method::Ct, "auto");
    for limbs in [65u64, 100, 128, 129, 130] {
        let bits = 64 * limbs;
        let mut odd = || rng.gen_biguint(bits) | BigUint::one() | (BigUint::one() << (bits - 1));
        let (ma, mb) = (odd(), odd());
        let (x, y) = (rng.gen_biguint_below(&ma), &mb + rng.gen_biguint(bits / 2));
        let (e, f) = (rng.gen_biguint(bits), rng.gen_biguint(bits / 3));
        let (want_a, want_b) = (oracle(&x, &e, &ma), oracle(&y, &f, &mb));
        let want = [nat(&want_a), nat(&want_b)];
        for tier in cpu::available() {
            let what = |entry: &str| format!("{limbs} limbs {tier} {entry}");
            let a = Modulus::with_tier(&nat(&ma), ReducerKind::Auto, tier).unwrap();
            let b = Modulus::with_tier(&nat(&mb), ReducerKind::Auto, tier).unwrap();
            let got = a.pow_ct(&nat(&x), &nat(&e)).unwrap();
            assert_eq!(got, want[0], "{}", what("pow_ct"));
            let got = a.pow_vartime(&nat(&x), &nat(&e), &ct).unwrap();
            assert_eq!(got, want[0], "{}", what("pow_vartime ct"));
            let pair = CtPair::new(&a, &b).unwrap();
            let got = pair.pow([&nat(&x), &nat(&y)], [&nat(&e), &nat(&f)]);
            assert_eq!(got.unwrap(), want, "{}", what("CtPair"));
            let got = a.pow_ct_pair(&nat(&x), &nat(&e), &b, &nat(&y), &nat(&f));
            assert_eq!(got.unwrap(), want, "{}", what("pow_ct_pair"));
        }
        // The one-off and batch entries build their contexts on the tier in use (MODRED_CPU).
        let got = exp::pow_vartime(&nat(&x), &nat(&e), &nat(&ma), &ct).unwrap();
        assert_eq!(got, want[0], "{limbs} limbs one-off ct");
        let md = Modulus::new(&nat(&ma), ReducerKind::Auto).unwrap();
        let pairs = [(nat(&x), nat(&e)), (nat(&y), nat(&f))];
        let got: Vec<Natural> = md
            .pow_many_ct(&pairs)
            .unwrap()
            .into_iter()
            .map(Result::unwrap)
            .collect();
        assert_eq!(
            got,
            [want[0].clone(), nat(&oracle(&y, &f, &ma))],
            "{limbs} limbs pow_many_ct"
        );
        let triples = [(nat(&x), nat(&e), nat(&ma)), (nat(&y), nat(&f), nat(&mb))];
        let got: Vec<Natural> = exp::pow_batch_ct(&triples)
            .unwrap()
            .into_iter()
            .map(Result::unwrap)
            .collect();
        assert_eq!(got, want, "{limbs} limbs pow_batch_ct");
    }
}
