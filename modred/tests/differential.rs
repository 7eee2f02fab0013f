//! The differential suite: every entry of `modred::REDUCERS` (so reducers added later are covered
//! automatically) against two independent oracles, num-bigint and GMP (rug).
//!
//! Covers: random moduli of 1..=64 limbs plus 65, 100 and 128 limbs, odd and even; structured
//! moduli (b^k +- 1, top limb 1, exactly 64k and 64k + 1 bits, 1, 3, 2^64 - 1); arguments 0,
//! m - 1, (m - 1)^2, all-ones limbs and the values just below / at each method's bound;
//! exhaustive checks for every m <= 40; the checked `Modulus` API and the raw `Reducer`
//! trait (representation round trips, mul, sqr, reduce_wide with its `wide_result`); the
//! error cases (zero modulus, even modulus for Montgomery, arguments beyond a restriction);
//! and proptest properties with committed regressions. The raw trait of the Montgomery family
//! runs on every kernel tier this CPU has (`modred::cpu::available`).
//!
//! The bit-serial reference (`montgomery-bitserial`, 64x slower) runs only up to 8 limbs.

mod common;

use common::*;
use modred::reduce::{self, Reducer, ReducerInfo, ReducerKind, WideResult};
use modred::{Error, Modulus, Natural, REDUCERS};
use num_bigint::{BigUint, RandBigInt};
use num_integer::Integer as _;
use num_traits::{One, Zero};
use rand::{rngs::StdRng, Rng, SeedableRng};

/// The restriction on `reduce`'s argument that a built method documents, by its name; `None`
/// for a method this suite does not know (then only "x < m^2 is accepted" is required and the
/// method's own `check_wide` decides the rest).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Bound {
    Unbounded,
    /// x < b^(2k)
    Wide,
    /// x < m R, R = b^k
    MontR,
}

fn known_bound(built_name: &str) -> Option<Bound> {
    match built_name {
        "classical" => Some(Bound::Unbounded),
        "barrett" => Some(Bound::Wide),
        n if n.starts_with("montgomery-") => Some(Bound::MontR),
        _ => None,
    }
}

fn within(bound: Bound, x: &BigUint, m: &BigUint) -> bool {
    let k = limbs_of(m);
    match bound {
        Bound::Unbounded => true,
        Bound::Wide => *x < b_pow(2 * k),
        Bound::MontR => *x < m * b_pow(k),
    }
}

/// Assert `err` is the even-modulus error for `name` and that its message says which reducers
/// accept even moduli.
fn assert_even_error(err: &Error, name: &str) {
    match err {
        Error::EvenModulus { reducer, accepting } => {
            assert_eq!(*reducer, name);
            let msg = err.to_string();
            assert!(msg.contains("odd"), "message does not say 'odd': {msg}");
            for r in REDUCERS.iter().filter(|r| !r.needs_odd) {
                assert!(
                    accepting.contains(r.name) && msg.contains(r.name),
                    "even-modulus message for {name} does not name {}: {msg}",
                    r.name
                );
            }
            for r in REDUCERS.iter().filter(|r| r.needs_odd) {
                assert!(
                    !accepting.split(", ").any(|a| a == r.name),
                    "message lists {} as accepting even moduli",
                    r.name
                );
            }
        }
        other => panic!("{name}: expected EvenModulus, got {other:?}"),
    }
}

/// A `Modulus` built for one reducer, and the name of the reducer doing its work (`auto`'s
/// choice for `auto`).
struct Ctx {
    md: Modulus,
    name: &'static str,
}

/// Build a context for `info` and `m`, checking the modulus errors. `None` when the modulus is
/// (correctly) rejected.
/// The raw reducer for a modulus `context` accepted: `None` only for m = 1, which `Modulus`
/// answers with 0 without a reducer (a special-form reducer refuses m = 1 itself).
fn raw_reducer(info: &ReducerInfo, m: &BigUint) -> Option<Box<dyn Reducer>> {
    match reduce::build(info.kind, &nat(m)) {
        Ok(r) => Some(r),
        Err(_) if m.is_one() => None,
        Err(e) => panic!("{}: {e}", info.name),
    }
}

fn context(info: &ReducerInfo, m: &BigUint) -> Option<Ctx> {
    let res = Modulus::new(&nat(m), info.kind).map(|md| Ctx {
        name: md.reducer().map_or(info.name, |r| r.name()),
        md,
    });
    if m.is_zero() {
        assert_eq!(res.err(), Some(Error::ZeroModulus), "{}", info.name);
        return None;
    }
    if info.needs_odd && m.is_even() {
        assert_even_error(&res.err().expect("even modulus accepted"), info.name);
        return None;
    }
    match res {
        Ok(ctx) => Some(ctx),
        Err(Error::UnsupportedModulus { .. }) if !known_names().contains(&info.name) => None,
        Err(e) => panic!("{}: modulus {m:#x} rejected: {e}", info.name),
    }
}

fn known_names() -> [&'static str; 10] {
    [
        "auto",
        "classical",
        "barrett",
        "montgomery-redc",
        "montgomery-sos",
        "montgomery-cios",
        "montgomery-fios",
        "montgomery-fips",
        "montgomery-cihs",
        "montgomery-bitserial",
    ]
}

/// `ctx.try_reduce_vartime(x)`: the right residue when `x` is within the method's bound, else
/// `ArgumentTooLarge` naming the method.
fn check_reduce(ctx: &Ctx, x: &BigUint, m: &BigUint, label: &str) {
    let built = ctx.name;
    let res = ctx.md.try_reduce_vartime(&nat(x));
    let what = || format!("{label}: {built} reduce x={x:#x} m={m:#x}");
    let accept = match known_bound(built) {
        // m = 1 builds no reducer: every x gives 0.
        _ if m.is_one() => true,
        Some(b) => within(b, x, m),
        None => {
            // Unknown method: products of residues must always be accepted.
            if *x < m * m {
                assert!(res.is_ok(), "{} rejected x < m^2", what());
            }
            res.is_ok()
        }
    };
    match res {
        Ok(r) if accept => assert_rem(r.limbs(), x, m, &what),
        Ok(r) => panic!("{}: accepted beyond its bound, returned {r:#x}", what()),
        Err(Error::ArgumentTooLarge { reducer, .. }) if !accept => assert_eq!(reducer, built),
        Err(e) => panic!("{}: unexpected error {e}", what()),
    }
}

fn check_mulmod(ctx: &Ctx, a: &BigUint, b: &BigUint, m: &BigUint, label: &str) {
    let name = ctx.name;
    let what = || format!("{label}: {name} mulmod a={a:#x} b={b:#x} m={m:#x}");
    let r = ctx.md.mul_vartime(&nat(a), &nat(b)).unwrap();
    assert_rem(r.limbs(), &(a * b), m, &what);
    let what = || format!("{label}: {name} sqrmod a={a:#x} m={m:#x}");
    let r = ctx.md.sqr_vartime(&nat(a)).unwrap();
    assert_rem(r.limbs(), &(a * a), m, &what);
    let what = || format!("{label}: {name} reduce (any x) x={a:#x} m={m:#x}");
    let r = ctx.md.reduce_vartime(&nat(&(a * b))).unwrap();
    assert_rem(r.limbs(), &(a * b), m, &what);
}

fn pad(x: &BigUint, len: usize) -> Vec<u64> {
    let mut v = x.to_u64_digits();
    assert!(v.len() <= len);
    v.resize(len, 0);
    v
}

fn from_limbs(x: &[u64]) -> BigUint {
    big(&Natural::from_slice(x))
}

/// The raw `Reducer` interface: scratch of exactly `scratch_len()` limbs filled with garbage,
/// garbage output buffers, representation round trips, mul/sqr in representation, and
/// `reduce_wide` with the semantics `wide_result` announces.
fn check_trait(r: &dyn Reducer, m: &BigUint, operands: &[BigUint], wides: &[BigUint], label: &str) {
    let k = r.len();
    let name = r.name();
    assert_eq!(k, limbs_of(m), "{name}: len");
    assert_eq!(from_limbs(r.modulus()), *m, "{name}: modulus");
    let mut scratch = vec![u64::MAX; r.scratch_len()];
    let rr = b_pow(k) % m; // R mod m
    let mont = known_bound(name) == Some(Bound::MontR);
    let mut out = vec![0xdead_beef_u64; k];

    // one() is the representation of 1 mod m.
    assert!(
        from_limbs(r.one()) < *m || *m == BigUint::one(),
        "{name}: one() >= m"
    );
    r.from_repr(&mut out, r.one(), &mut scratch);
    assert_rem(&out, &BigUint::one(), m, &|| {
        format!("{label}: {name} from_repr(one)")
    });

    let mut reprs = Vec::new();
    for a in operands {
        let av = pad(a, k);
        let mut ar = vec![u64::MAX; k];
        scratch.fill(u64::MAX);
        r.to_repr(&mut ar, &av, &mut scratch);
        let arb = from_limbs(&ar);
        assert!(arb < *m || m.is_one(), "{label}: {name} repr >= m");
        if mont {
            assert_eq!(
                arb,
                (a * &rr) % m,
                "{label}: {name} Montgomery form of {a:#x}"
            );
        } else if matches!(name, "classical" | "barrett") {
            assert_eq!(arb, *a, "{label}: {name} plain representation");
        }
        scratch.fill(u64::MAX);
        r.from_repr(&mut out, &ar, &mut scratch);
        assert_rem(&out, a, m, &|| format!("{label}: {name} round trip {a:#x}"));
        reprs.push(ar);
    }
    for (i, a) in operands.iter().enumerate() {
        for (j, b) in operands.iter().enumerate().skip(i) {
            let mut p = vec![u64::MAX; k];
            scratch.fill(u64::MAX);
            r.mul(&mut p, &reprs[i], &reprs[j], &mut scratch);
            assert!(
                from_limbs(&p) < *m || m.is_one(),
                "{label}: {name} mul >= m"
            );
            scratch.fill(u64::MAX);
            r.from_repr(&mut out, &p, &mut scratch);
            assert_rem(&out, &(a * b), m, &|| {
                format!("{label}: {name} trait mul {a:#x} * {b:#x}")
            });
        }
        let mut s = vec![u64::MAX; k];
        scratch.fill(u64::MAX);
        r.sqr(&mut s, &reprs[i], &mut scratch);
        assert!(
            from_limbs(&s) < *m || m.is_one(),
            "{label}: {name} sqr >= m"
        );
        r.from_repr(&mut out, &s, &mut scratch);
        assert_rem(&out, &(a * a), m, &|| {
            format!("{label}: {name} trait sqr {a:#x}")
        });
    }
    for x in wides {
        let xv = x.to_u64_digits();
        if xv.len() > 2 * k || r.check_wide(&xv).is_err() {
            continue;
        }
        let mut xw = pad(x, 2 * k);
        out.fill(u64::MAX);
        scratch.fill(u64::MAX);
        r.reduce_wide(&mut out, &mut xw, &mut scratch);
        let got = from_limbs(&out);
        assert!(got < *m || m.is_one(), "{label}: {name} reduce_wide >= m");
        match r.wide_result() {
            WideResult::Residue => assert_rem(&out, x, m, &|| {
                format!("{label}: {name} reduce_wide {x:#x}")
            }),
            WideResult::MontgomeryReduced => {
                // got = x R^-1 mod m  <=>  got R = x (mod m), checked by both oracles.
                let lhs = (&got * &rr) % m;
                assert_eq!(lhs, x % m, "{label}: {name} reduce_wide x R^-1 of {x:#x}");
                let g = rug::Integer::from(&to_rug(&got) * &to_rug(&rr)) % to_rug(m);
                assert_eq!(g, to_rug(x) % to_rug(m), "{label}: {name} GMP reduce_wide");
            }
        }
    }
}

/// Arguments for `reduce` with a k-limb modulus: the edges of every method's range.
fn wide_args(m: &BigUint, rng: &mut StdRng) -> Vec<BigUint> {
    let k = limbs_of(m);
    let one = BigUint::one();
    let mr = m * b_pow(k);
    let mut v = vec![
        BigUint::zero(),
        one.clone(),
        m - &one,
        m.clone(),
        m + &one,
        (m - &one) * (m - &one),
        &b_pow(k) - &one,         // all-ones, k limbs
        &b_pow(2 * k - 1) - &one, // all-ones, 2k - 1 limbs
        &b_pow(2 * k) - &one,     // all-ones, 2k limbs: just below Barrett's bound
        b_pow(2 * k),             // Barrett's bound
        &mr - &one,               // just below Montgomery's bound
        mr.clone(),               // Montgomery's bound
        &mr + &one,
        b_pow(3 * k) + 5u32, // beyond both, classical only
        rng.gen_biguint_below(&(m * m).max(one.clone())),
        random_limbs(rng, 2 * k),
    ];
    v.sort();
    v.dedup();
    v
}

/// Operands below m: 0, 1, m - 1, the all-ones pattern reduced, and random values.
fn operands(m: &BigUint, rng: &mut StdRng) -> Vec<BigUint> {
    let k = limbs_of(m);
    let one = BigUint::one();
    let mut v = vec![
        BigUint::zero(),
        one.clone() % m,
        m - &one,
        (&b_pow(k) - &one) % m,
        rng.gen_biguint_below(m),
        rng.gen_biguint_below(m),
    ];
    v.sort();
    v.dedup();
    v
}

/// Run every applicable reducer on modulus `m` through `Modulus` and the raw trait.
fn check_modulus(m: &BigUint, rng: &mut StdRng, label: &str) {
    let k = limbs_of(m);
    let xs = wide_args(m, rng);
    let ops = operands(m, rng);
    let big_a = b_pow(2 * k) + rng.gen_biguint(64); // operands >= m are reduced first
    let big_b = m + 7u32;
    for info in reducers_for(k) {
        let Some(ctx) = context(info, m) else {
            continue;
        };
        for x in &xs {
            check_reduce(&ctx, x, m, label);
        }
        for (i, a) in ops.iter().enumerate() {
            check_mulmod(&ctx, a, &ops[(i + 2) % ops.len()], m, label);
        }
        check_mulmod(&ctx, &big_a, &big_b, m, label);
        check_mulmod(&ctx, &big_b, &(m - 1u32), m, label);
        let Some(r) = raw_reducer(info, m) else {
            continue;
        };
        check_trait(&*r, m, &ops, &xs, label);
        // The Montgomery family keeps a kernel tier per context: the other tiers this CPU has,
        // in this process.
        if info.needs_odd {
            for tier in modred::cpu::available()
                .into_iter()
                .filter(|&t| t != r.tier())
            {
                let r = reduce::build_with_tier(info.kind, &nat(m), tier).unwrap();
                assert_eq!(r.tier(), tier, "{}", info.name);
                check_trait(&*r, m, &ops, &xs, &format!("{label} tier {tier}"));
            }
        }
    }
}

#[test]
fn random_moduli_1_to_64_limbs_and_larger() {
    let mut rng = StdRng::seed_from_u64(0x5eed_0001);
    for k in (1..=64).chain([65, 100, 128]) {
        let moduli = random_moduli(&mut rng, k);
        // Above 64 limbs, one odd and one even shape keep the run short.
        let moduli = if k > 64 { moduli[..2].to_vec() } else { moduli };
        for m in &moduli {
            check_modulus(m, &mut rng, &format!("random k={k}"));
        }
    }
}

/// The large-modulus paths — REDC over full products (`montgomery-fast`, `auto` for odd m) and
/// the Newton reciprocal with Barrett blocks (`classical`, `barrett`, `auto`'s even side) — one
/// limb either side of their thresholds, odd and even random moduli and b^k - 1; at the REDC's
/// thresholds also `montgomery-fast` on every tier the CPU has.
#[test]
fn large_modulus_paths_at_their_thresholds() {
    use modred::tuning::{REDC_N_THRESHOLD, REDC_N_THRESHOLD_PORTABLE};
    let mut rng = StdRng::seed_from_u64(0x5eed_0017);
    let names = ["auto", "classical", "barrett", "montgomery-fast"];
    for t in [
        REDC_N_THRESHOLD,
        REDC_N_THRESHOLD_PORTABLE,
        modred::arith::div_newton::reuse_threshold(),
    ] {
        for k in [t - 1, t, t + 1] {
            let mut moduli = random_moduli(&mut rng, k)[..2].to_vec();
            moduli.push(b_pow(k) - 1u32);
            for m in &moduli {
                let label = format!("large k={k}");
                let xs = wide_args(m, &mut rng);
                let ops = operands(m, &mut rng);
                let mut contexts: Vec<(Ctx, String)> = REDUCERS
                    .iter()
                    .filter(|r| names.contains(&r.name))
                    .filter_map(|info| context(info, m))
                    .map(|ctx| (ctx, label.clone()))
                    .collect();
                if (t == REDC_N_THRESHOLD || t == REDC_N_THRESHOLD_PORTABLE) && m.is_odd() {
                    for tier in modred::cpu::available() {
                        let md = Modulus::with_tier(&nat(m), ReducerKind::MontgomeryFast, tier)
                            .expect("odd modulus");
                        let ctx = Ctx {
                            md,
                            name: "montgomery-fast",
                        };
                        contexts.push((ctx, format!("{label} tier {tier}")));
                    }
                }
                for (ctx, label) in &contexts {
                    for x in &xs {
                        check_reduce(ctx, x, m, label);
                    }
                    for (i, a) in ops.iter().enumerate() {
                        check_mulmod(ctx, a, &ops[(i + 1) % ops.len()], m, label);
                    }
                }
            }
        }
    }
}

#[test]
fn structured_moduli_edge_cases() {
    let mut rng = StdRng::seed_from_u64(0x5eed_0002);
    let mut moduli: Vec<BigUint> = [1u64, 2, 3, 4, 5, 7, u64::MAX, u64::MAX - 1, 1 << 63]
        .iter()
        .map(|&v| BigUint::from(v))
        .collect();
    for k in [1, 2, 3, 4, 5, 7, 8, 9, 16, 31, 32, 33, 47, 48, 49, 64, 65] {
        moduli.extend(structured_moduli(k));
    }
    for m in &moduli {
        // Exactly 64k bits and 64k + 1 bits are among the structured shapes; say which.
        let label = format!("structured {} bits", m.bits());
        check_modulus(m, &mut rng, &label);
    }
}

/// All x < m^2 (reduce), all a, b < m (mulmod, and mul through the trait) for every m <= 40,
/// against native integer arithmetic.
#[test]
fn exhaustive_small_moduli() {
    for m in 1u64..=40 {
        let mb = BigUint::from(m);
        for info in REDUCERS {
            let Some(ctx) = context(info, &mb) else {
                continue;
            };
            for x in 0..m * m {
                let r = ctx.md.try_reduce_vartime(&Natural::from(x)).unwrap();
                assert_eq!(r, Natural::from(x % m), "{} {x} mod {m}", info.name);
            }
            let Some(r) = raw_reducer(info, &mb) else {
                continue;
            };
            let mut scratch = vec![0; r.scratch_len()];
            let repr = |v: u64, scratch: &mut [u64]| {
                let mut o = [0u64];
                r.to_repr(&mut o, &[v], scratch);
                o
            };
            for a in 0..m {
                let ar = repr(a, &mut scratch);
                let mut s = [0];
                let mut o = [0];
                r.sqr(&mut s, &ar, &mut scratch);
                r.from_repr(&mut o, &s, &mut scratch);
                assert_eq!(o[0], a * a % m, "{} sqr {a} mod {m}", info.name);
                for b in 0..m {
                    let got = ctx
                        .md
                        .mul_vartime(&Natural::from(a), &Natural::from(b))
                        .unwrap();
                    assert_eq!(
                        got,
                        Natural::from(a * b % m),
                        "{} {a}*{b} mod {m}",
                        info.name
                    );
                    let br = repr(b, &mut scratch);
                    let mut p = [0];
                    r.mul(&mut p, &ar, &br, &mut scratch);
                    r.from_repr(&mut o, &p, &mut scratch);
                    assert_eq!(o[0], a * b % m, "{} trait {a}*{b} mod {m}", info.name);
                }
            }
        }
    }
}

#[test]
fn zero_modulus_and_unknown_name() {
    for info in REDUCERS {
        assert_eq!(
            Modulus::new(&Natural::zero(), info.kind).err(),
            Some(Error::ZeroModulus),
            "{}",
            info.name
        );
        assert_eq!(
            reduce::build(info.kind, &Natural::zero()).err(),
            Some(Error::ZeroModulus)
        );
        assert_eq!(
            (info.build)(&[0, 0], modred::cpu::tier()).err(),
            Some(Error::ZeroModulus)
        );
    }
    let e = "no-such-method".parse::<ReducerKind>().err().unwrap();
    assert!(matches!(e, Error::UnknownName { .. }));
    let msg = e.to_string();
    for info in REDUCERS {
        assert!(
            msg.contains(info.name),
            "unknown-name message lacks {}",
            info.name
        );
    }
}

#[test]
fn even_moduli_rejected_by_montgomery_with_the_alternatives_named() {
    for m in [2u64, 4, 1 << 40, u64::MAX - 1] {
        for info in REDUCERS.iter().filter(|r| r.needs_odd) {
            let e = Modulus::new(&Natural::from(m), info.kind).err().unwrap();
            assert_even_error(&e, info.name);
        }
    }
    // Every listed method either needs odd moduli or handles even ones correctly.
    let m = BigUint::from(1u8) << 200u32;
    for info in REDUCERS.iter().filter(|r| !r.needs_odd) {
        // Special-form methods (diminished-radix) may refuse 2^200; `context` checks that.
        let Some(ctx) = context(info, &m) else {
            continue;
        };
        let x = BigUint::from(12345u32) << 190u32;
        assert_rem(
            ctx.md
                .try_reduce_vartime(&nat(&(&x * 3u32)))
                .unwrap()
                .limbs(),
            &(&x * 3u32),
            &m,
            &|| info.name.to_string(),
        );
    }
}

#[test]
fn restriction_errors_at_the_documented_bounds() {
    let m = (b_pow(4) - 1u32) / 3u32; // odd, 4 limbs, top limb 0x5555...
    let k = 4;
    let mr = &m * b_pow(k);
    let b2k = b_pow(2 * k);
    let too_large = |name: &str, x: &BigUint| {
        let ctx = Modulus::new(&nat(&m), name.parse().unwrap()).unwrap();
        match ctx.try_reduce_vartime(&nat(x)) {
            Err(e @ Error::ArgumentTooLarge { .. }) => {
                assert!(e.to_string().contains(name), "{e}");
                true
            }
            Err(e) => panic!("{name}: {e}"),
            Ok(r) => {
                assert_rem(r.limbs(), x, &m, &|| name.to_string());
                false
            }
        }
    };
    assert!(too_large("barrett", &b2k));
    assert!(!too_large("barrett", &(&b2k - 1u32)));
    for info in REDUCERS
        .iter()
        .filter(|r| r.name.starts_with("montgomery-"))
    {
        assert!(too_large(info.name, &mr), "{}", info.name);
        assert!(!too_large(info.name, &(&mr - 1u32)), "{}", info.name);
    }
    assert!(!too_large("classical", &(b_pow(9 * k) - 1u32)));
}

/// The raw `Reducer` kernels check the lengths of their slices: a value of k + 1 or k - 1 limbs,
/// a `reduce_wide` argument of 2k +- 1 limbs (classical and lhl-l1 take any) or an output of
/// another length panics, on every kernel tier, instead of being read as another number.
#[test]
fn reducer_kernels_check_slice_lengths() {
    use std::panic::{catch_unwind, AssertUnwindSafe};
    let panics = |label: &str, f: &mut dyn FnMut()| {
        let msg = catch_unwind(AssertUnwindSafe(f)).expect_err(label);
        let msg = msg.downcast::<String>().map(|s| *s).unwrap_or_default();
        assert!(msg.starts_with("Reducer"), "{label}: {msg}");
    };
    let mut rng = StdRng::seed_from_u64(0x1e45);
    for k in [1usize, 3, 4, 8, 9, 17, 70] {
        let odd =
            rng.gen_biguint(64 * k as u64) | BigUint::one() | (BigUint::one() << (64 * k - 1));
        let dr = b_pow(k) - 189u32; // diminished radix: 2^(64k) - 189
        for info in REDUCERS {
            for tier in modred::cpu::available() {
                let m = if info.name == "diminished-radix" {
                    &dr
                } else {
                    &odd
                };
                let Ok(r) = reduce::build_with_tier(info.kind, &nat(m), tier) else {
                    continue;
                };
                let label = format!("{} k={k} {tier}", info.name);
                let (v, wide) = (vec![1u64; k], vec![1u64; 2 * k]);
                let mut s = vec![0u64; r.scratch_len()];
                let mut lens = vec![k + 1];
                lens.extend((k > 1).then_some(k - 1));
                for bad in lens {
                    let w = vec![1u64; bad];
                    let (mut out, mut o) = (vec![0u64; k], vec![0u64; bad]);
                    panics(&format!("{label} mul a"), &mut || {
                        r.mul(&mut out, &w, &v, &mut s)
                    });
                    panics(&format!("{label} mul b"), &mut || {
                        r.mul(&mut out, &v, &w, &mut s)
                    });
                    panics(&format!("{label} mul out"), &mut || {
                        r.mul(&mut o, &v, &v, &mut s)
                    });
                    panics(&format!("{label} sqr"), &mut || r.sqr(&mut out, &w, &mut s));
                    panics(&format!("{label} sqr out"), &mut || {
                        r.sqr(&mut o, &v, &mut s)
                    });
                    panics(&format!("{label} to_repr"), &mut || {
                        r.to_repr(&mut out, &w, &mut s)
                    });
                    panics(&format!("{label} from_repr"), &mut || {
                        r.from_repr(&mut out, &w, &mut s)
                    });
                    panics(&format!("{label} reduce_wide out"), &mut || {
                        r.reduce_wide(&mut o, &mut wide.clone(), &mut s)
                    });
                    if r.pow_fused(&v, &[5], modred::scan::FusedPow::Binary)
                        .is_some()
                    {
                        panics(&format!("{label} pow_fused base"), &mut || {
                            r.pow_fused(&w, &[5], modred::scan::FusedPow::Binary);
                        });
                    }
                }
                if !matches!(r.name(), "classical" | "lhl-l1") {
                    for len in [2 * k - 1, 2 * k + 1] {
                        let mut out = vec![0u64; k];
                        panics(&format!("{label} reduce_wide {len}"), &mut || {
                            r.reduce_wide(&mut out, &mut vec![1u64; len], &mut s)
                        });
                    }
                }
            }
        }
    }
}

#[test]
fn auto_builds_the_repeated_workload_choice() {
    use modred::reduce::auto::{choose, Workload};
    let mut rng = StdRng::seed_from_u64(3);
    for k in [1, 4, 16, 47, 48, 64] {
        for m in random_moduli(&mut rng, k) {
            let nm = nat(&m);
            let built = reduce::build(ReducerKind::Auto, &nm).unwrap();
            assert_eq!(built.name(), choose(nm.limbs(), Workload::Repeated).name);
            assert_eq!(choose(nm.limbs(), Workload::Single).name, "classical");
            if m.is_even() {
                assert!(!choose(nm.limbs(), Workload::Repeated).needs_odd);
            }
        }
    }
}

mod properties {
    use super::*;
    use proptest::prelude::*;
    use proptest::test_runner::FileFailurePersistence;

    /// Limbs biased towards the carry edges.
    fn limb() -> impl Strategy<Value = u64> {
        prop_oneof![
            1 => Just(0u64),
            1 => Just(1u64),
            2 => Just(u64::MAX),
            1 => Just(u64::MAX - 1),
            1 => Just(1u64 << 63),
            6 => any::<u64>(),
        ]
    }

    fn natural(max_limbs: usize) -> impl Strategy<Value = BigUint> {
        proptest::collection::vec(limb(), 1..=max_limbs).prop_map(|v| {
            BigUint::from_slice(
                &v.iter()
                    .flat_map(|&l| [l as u32, (l >> 32) as u32])
                    .collect::<Vec<_>>(),
            )
        })
    }

    /// (m, a, b): a non-zero modulus and two operands of up to twice its size.
    fn triple() -> impl Strategy<Value = (BigUint, BigUint, BigUint)> {
        (1usize..=24).prop_flat_map(|k| {
            (
                natural(k).prop_map(|m| if m.is_zero() { BigUint::one() } else { m }),
                natural(2 * k),
                natural(2 * k),
            )
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig {
            cases: 64,
            failure_persistence: Some(Box::new(FileFailurePersistence::Direct(
                concat!(env!("CARGO_MANIFEST_DIR"), "/tests/proptest-regressions/differential.txt"),
            ))),
            ..ProptestConfig::default()
        })]

        #[test]
        fn every_reducer_matches_both_oracles((m, a, b) in triple()) {
            let k = limbs_of(&m);
            for info in reducers_for(k) {
                let Some(ctx) = context(info, &m) else { continue };
                check_mulmod(&ctx, &a, &b, &m, "proptest");
                check_reduce(&ctx, &(&a * &b), &m, "proptest");
                check_reduce(&ctx, &a, &m, "proptest");
            }
        }

        #[test]
        fn trait_round_trip_and_products((m, a, b) in triple()) {
            let k = limbs_of(&m);
            let ops = [&a % &m, &b % &m];
            let wides = [(&a * &b) % (&m * b_pow(k)), &a * &b];
            for info in reducers_for(k) {
                if context(info, &m).is_none() { continue }
                let Some(r) = raw_reducer(info, &m) else {
                    continue;
                };
                check_trait(&*r, &m, &ops, &wides, "proptest");
            }
        }
    }
}

#[test]
fn random_generator_is_not_degenerate() {
    // Guard against a generator change silently shrinking coverage.
    let mut rng = StdRng::seed_from_u64(9);
    let ms = random_moduli(&mut rng, 3);
    assert!(ms.iter().any(|m| m.is_odd()) && ms.iter().any(|m| m.is_even()));
    assert!(ms.iter().all(|m| limbs_of(m) == 3));
    assert!(ms.iter().any(|m| m.bits() == 192));
    assert!(ms.iter().any(|m| m.bits() == 129));
    let _: u64 = rng.gen();
}
