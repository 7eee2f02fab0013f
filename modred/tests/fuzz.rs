//! Differential fuzzing on the stable toolchain (issue 16): a seeded, time-boxed random search.
//! Each case is decoded from random bytes (so a coverage-guided fuzzer could feed the same
//! [`run_case`]): text for the parser (valid decimal and hex with separators and whitespace,
//! and garbage), then a modulus of a random size and shape, operands, and every reducer of
//! [`modred::REDUCERS`] and every exponentiation method, each compared with num-bigint. A
//! refusal must be one of the documented ones (a restriction, an even modulus for Montgomery,
//! a modulus a special form does not fit, the table methods' range); anything else, a wrong
//! answer or a panic fails with the case's seed.
//!
//! ```text
//! cargo test --release -p modred --test fuzz -- --nocapture                       # 5 s
//! MODRED_FUZZ_SECONDS=3600 cargo test --release -p modred --test fuzz -- --nocapture
//! MODRED_FUZZ_SEED=1234 MODRED_FUZZ_SECONDS=1 cargo test ... # replay a failing case first
//! ```

use modred::exp::{self, Method, PowOptions, METHODS};
use modred::reduce::auto;
use modred::{Error, Modulus, Natural, ReducerKind, REDUCERS};
use num_bigint::BigUint;
use std::time::{Duration, Instant};

/// Reads choices off a byte string (zeros when it runs out).
struct Bytes<'a> {
    data: &'a [u8],
    pos: usize,
}

impl Bytes<'_> {
    fn u8(&mut self) -> u8 {
        let b = self.data.get(self.pos).copied().unwrap_or(0);
        self.pos += 1;
        b
    }
    fn u64(&mut self) -> u64 {
        (0..8).fold(0, |acc, _| acc << 8 | u64::from(self.u8()))
    }
    fn below(&mut self, n: usize) -> usize {
        (self.u64() % n as u64) as usize
    }
    /// A number of `limbs` limbs in one of the shapes the kernels' edge cases come from.
    fn natural(&mut self, limbs: usize) -> Natural {
        let mut v: Vec<u64> = match self.below(6) {
            0 => vec![u64::MAX; limbs],
            1 => (0..limbs).map(|i| u64::from(i + 1 == limbs)).collect(),
            2 => (0..limbs)
                .map(|_| if self.u8() & 1 == 0 { 0 } else { u64::MAX })
                .collect(),
            _ => (0..limbs).map(|_| self.u64()).collect(),
        };
        if let Some(top) = v.last_mut() {
            match self.below(4) {
                0 => *top = 1,
                1 => *top >>= self.below(64),
                _ => {}
            }
        }
        Natural::from_limbs(v)
    }
}

fn big(x: &Natural) -> BigUint {
    x.to_biguint()
}

/// The number as text the parser must accept: decimal or hex, with `_` separators and
/// surrounding whitespace.
fn spell(x: &Natural, b: &mut Bytes) -> String {
    let digits = if b.u8() & 1 == 0 {
        x.to_decimal().unwrap()
    } else {
        let h = x.to_hex();
        if b.u8() & 1 == 0 {
            h.to_uppercase().replacen("0X", "0x", 1)
        } else {
            h
        }
    };
    let mut s = String::new();
    for (i, c) in digits.chars().enumerate() {
        s.push(c);
        if i > 2 && i + 1 < digits.len() && b.below(16) == 0 {
            s.push('_');
        }
    }
    [" ", "", "\t"][b.below(3)].to_string() + &s + ["", " ", "\n"][b.below(3)]
}

/// Whether `e` is a documented refusal of reducer `name` for modulus `m`.
fn documented(e: &Error, name: &str, m: &Natural) -> bool {
    match e {
        Error::EvenModulus { .. } => !m.is_odd(),
        Error::UnsupportedModulus { .. } => {
            name == "diminished-radix"
                || (name.starts_with("table-") && m.bits() > modred::tuning::TABLE_MAX_BITS)
        }
        Error::ArgumentTooLarge { .. } => true, // checked against the restriction below
        _ => false,
    }
}

/// One case; panics (with a message) on any disagreement.
fn run_case(data: &[u8]) {
    let mut b = Bytes { data, pos: 0 };
    // The parser: garbage never panics, valid text round-trips.
    let garbage: String = (0..b.below(12))
        .map(|_| ['1', 'x', '_', '-', ' ', 'g', '0', 'é', '\0'][b.below(9)])
        .collect();
    let _ = Natural::parse(&garbage);
    let k = match b.below(10) {
        0 => 1 + b.below(130),
        _ => 1 + b.below(20),
    };
    let m = b.natural(k);
    if m.is_zero() {
        assert!(Modulus::new(&m, ReducerKind::Classical).is_err());
        return;
    }
    let text = spell(&m, &mut b);
    let parsed = Natural::parse(&text).unwrap_or_else(|e| panic!("parse {text:?}: {e}"));
    assert_eq!(parsed, m, "parse {text:?}");
    let (bm, kk) = (big(&m), m.len());
    let n = 1 + b.below(2 * kk + 1);
    let x = b.natural(n);
    let n = 1 + b.below(kk + 2);
    let a1 = b.natural(n);
    let n = 1 + b.below(kk);
    let a2 = b.natural(n);

    for info in REDUCERS {
        if info.kind == ReducerKind::MontgomeryBitserial && kk > 8 {
            continue; // the radix-2 reference: orders of magnitude slower
        }
        let ctx = match Modulus::new(&m, info.kind) {
            Ok(c) => c,
            Err(e) => {
                assert!(
                    documented(&e, info.name, &m),
                    "{}: {e} for m={m}",
                    info.name
                );
                continue;
            }
        };
        match ctx.try_reduce_vartime(&x) {
            Ok(r) => assert_eq!(big(&r), big(&x) % &bm, "{} reduce {x} mod {m}", info.name),
            Err(e) => {
                // Beyond the restriction: x >= b^2k (every method), or x >= m R (Montgomery,
                // also when "auto" picks it: its restriction is the chosen method's).
                let chosen = match info.kind {
                    ReducerKind::Auto => auto::choose(m.limbs(), auto::Workload::Repeated),
                    _ => info,
                };
                let beyond_2k = x.len() > 2 * kk;
                let beyond_mr = chosen.needs_odd && big(&x) >= &bm << (64 * kk);
                assert!(
                    matches!(e, Error::ArgumentTooLarge { .. }) && (beyond_2k || beyond_mr),
                    "{} refused reduce {x} mod {m}: {e}",
                    info.name
                );
            }
        }
        let want = big(&a1) * big(&a2) % &bm;
        assert_eq!(
            big(&ctx.mul_vartime(&a1, &a2).unwrap()),
            want,
            "{} mulmod mod {m}",
            info.name
        );
    }

    // Exponentiation: every method over "auto", and a named reducer.
    let n = b.below(kk + 2);
    let e = b.natural(n);
    let n = 1 + b.below(kk + 1);
    let base = b.natural(n);
    let want = big(&base).modpow(&big(&e), &bm);
    let reducer = [
        ReducerKind::Auto,
        ReducerKind::MontgomeryCios,
        ReducerKind::Barrett,
        ReducerKind::Classical,
    ][b.below(4)];
    for mi in METHODS {
        if mi.method == Method::FixedBase && e.bits() > 4096 {
            continue;
        }
        let opts = PowOptions {
            method: mi.method,
            reducer,
            window: [None, Some(1 + b.below(8))][b.below(2)],
            threads: [None, Some(1 + b.below(3))][b.below(2)],
        };
        match exp::pow_vartime(&base, &e, &m, &opts) {
            Ok(r) => assert_eq!(
                big(&r),
                want,
                "{} over {reducer}: {base}^{e} mod {m}",
                mi.name
            ),
            Err(err) => {
                let ok = match (&err, mi.method) {
                    // ct: odd moduli and constant-time reducers only.
                    (Error::InvalidParameter(_), Method::Ct) => true,
                    (Error::EvenModulus { .. }, _) => {
                        reducer.name().starts_with("montgomery") && !m.is_odd()
                    }
                    _ => false,
                };
                assert!(ok, "{} over {reducer}: {base}^{e} mod {m}: {err}", mi.name);
            }
        }
    }
    if m.is_odd() {
        let md = Modulus::new(&m, ReducerKind::Auto).expect("odd modulus");
        let r = md.pow_ct(&base, &e).expect("auto serves ct for odd m");
        assert_eq!(big(&r), want, "pow_ct {base}^{e} mod {m}");
    }
}

/// xorshift64*.
fn next(s: &mut u64) -> u64 {
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    s.wrapping_mul(0x2545_f491_4f6c_dd1d)
}

#[test]
fn differential_fuzz() {
    let env = |name: &str| std::env::var(name).ok().and_then(|v| v.parse::<u64>().ok());
    let seconds = env("MODRED_FUZZ_SECONDS").unwrap_or(5);
    let first_seed = env("MODRED_FUZZ_SEED").unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(1)
    });
    let until = Instant::now() + Duration::from_secs(seconds);
    let mut cases = 0u64;
    let mut seed = first_seed;
    loop {
        let case_seed = seed;
        let mut s = case_seed | 1;
        let data: Vec<u8> = (0..512).flat_map(|_| next(&mut s).to_le_bytes()).collect();
        let r = std::panic::catch_unwind(|| run_case(&data));
        if let Err(p) = r {
            let msg = p
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            panic!("case seed {case_seed} (replay: MODRED_FUZZ_SEED={case_seed}) failed: {msg}");
        }
        cases += 1;
        seed = next(&mut seed);
        if Instant::now() >= until {
            break;
        }
    }
    println!("fuzz: {cases} cases in {seconds} s from seed {first_seed}");
}
