//! Differential fuzzing on the stable toolchain (issue 16): a seeded, time-boxed random search.
//! Each case is decoded from random bytes (so a coverage-guided fuzzer could feed the same
//! [`run_case`]): text for the parser (valid decimal and hex with separators and whitespace,
//! and garbage), then a modulus of a random size and shape, operands, and every reducer of
//! [`modred::REDUCERS`] and every exponentiation method, each compared with num-bigint. A
//! refusal must be one of the documented ones (a restriction, an even modulus for Montgomery,
//! a modulus a special form does not fit, the table methods' range); anything else, a wrong
//! answer or a panic fails with the case's seed. Two cheaper targets take their own slices
//! of the case's bytes: the modular inverse (against gcd from num-integer) and the MODEXP
//! precompile's decoder ([`modred::evm`]: random and malformed inputs against a decoding
//! written here and num-bigint's `modpow`).
//!
//! ```text
//! cargo test --release -p modred --features internals --test fuzz -- --nocapture    # 5 s
//! MODRED_FUZZ_SECONDS=3600 cargo test --release -p modred --features internals --test fuzz -- --nocapture
//! MODRED_FUZZ_SEED=1234 MODRED_FUZZ_SECONDS=1 MODRED_FUZZ_THREADS=1 cargo test ... # replay a case
//! ```

use modred::evm::{self, EvmError, Fork};
use modred::exp::{self, Method, PowOptions, METHODS};
use modred::reduce::auto;
use modred::{Error, Modulus, Natural, ReducerKind, REDUCERS};
use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::{One, ToPrimitive, Zero};
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

/// Bytes of each target's slice of a case: the EVM input, the inverse, then the rest for the
/// arithmetic.
const EVM_BYTES: usize = 512;
const INVERSE_BYTES: usize = 512;

/// One case; panics (with a message) on any disagreement.
fn run_case(data: &[u8]) {
    let (evm_data, rest) = data.split_at(EVM_BYTES.min(data.len()));
    let (inverse_data, rest) = rest.split_at(INVERSE_BYTES.min(rest.len()));
    evm_case(evm_data);
    inverse_case(inverse_data);
    arithmetic_case(rest);
}

/// The modular inverse: b a = 1 mod m exactly when gcd(a, m) = 1, `NotInvertible` otherwise,
/// `ZeroModulus` for m = 0; the context's and a -1 exponent's answers agree.
fn inverse_case(data: &[u8]) {
    let mut b = Bytes { data, pos: 0 };
    let k = [1 + b.below(20), 1 + b.below(130)][usize::from(b.below(8) == 0)];
    let mut m = b.natural(k);
    let n = 1 + b.below(k + 2);
    let mut a = b.natural(n);
    if b.below(3) == 0 {
        // A common factor: no inverse.
        let f = Natural::from(2 + b.below(1000) as u64);
        (m, a) = (&m * &f, &a * &f);
    }
    let got = exp::inverse_vartime(&a, &m);
    if m.is_zero() {
        assert_eq!(got, Err(Error::ZeroModulus), "inverse of {a} mod 0");
        return;
    }
    let (ba, bm) = (big(&a), big(&m));
    if ba.gcd(&bm).is_one() {
        let inv = got
            .clone()
            .unwrap_or_else(|e| panic!("inverse of {a} mod {m}: {e}"));
        let inv = big(&inv);
        assert!(inv < bm, "inverse of {a} mod {m}: {inv} not reduced");
        assert_eq!(
            &inv * &ba % &bm,
            BigUint::one() % &bm,
            "inverse of {a} mod {m}"
        );
    } else {
        assert_eq!(got, Err(Error::NotInvertible), "{a} mod {m} has no inverse");
    }
    let md = Modulus::new(&m, ReducerKind::Auto).expect("m > 0");
    assert_eq!(
        md.inverse_vartime(&a),
        got,
        "context inverse of {a} mod {m}"
    );
    let minus_one =
        exp::pow_signed_exp_vartime(&a, &Natural::one(), true, &m, &PowOptions::default());
    assert_eq!(minus_one, got, "{a}^-1 mod {m}");
}

/// A length word: mostly a small true-ish length, sometimes one at or past EIP-7823's cap or
/// far beyond any input (never in between: a long nonzero modulus makes a slow reference).
fn length_word(b: &mut Bytes) -> [u8; 32] {
    let mut w = [0u8; 32];
    let small = |v: u64, w: &mut [u8; 32]| w[24..].copy_from_slice(&v.to_be_bytes());
    match b.below(16) {
        0 => small(1024 + b.below(2) as u64, &mut w),
        1 => small(1 << (32 + b.below(32)), &mut w),
        2 => w[b.below(28)] = 1 + b.u8() % 255, // at least 2^32
        3 => w = [0xff; 32],
        4 => w.iter_mut().for_each(|x| *x = b.u8()),
        5 | 6 => small(41 + b.below(160) as u64, &mut w),
        _ => small(b.below(41) as u64, &mut w),
    }
    w
}

/// `n` bytes biased towards 0x00 and 0xff.
fn some_bytes(b: &mut Bytes, n: usize) -> Vec<u8> {
    (0..n)
        .map(|_| match b.below(4) {
            0 => 0,
            1 => 0xff,
            _ => b.u8(),
        })
        .collect()
}

/// MODEXP's output for `input` decoded independently of modred: three 32-byte big-endian
/// lengths, then the numbers, the input read as if zero-padded forever; `None` when the
/// declared lengths cannot be materialised here (they are then over every fork's limits).
fn evm_reference(input: &[u8]) -> Option<Vec<u8>> {
    let word = |i: usize| {
        let mut w = [0u8; 32];
        for (j, x) in w.iter_mut().enumerate() {
            *x = input.get(32 * i + j).copied().unwrap_or(0);
        }
        BigUint::from_bytes_be(&w)
    };
    let (bl, el, ml) = (word(0), word(1), word(2));
    let mod_len = ml.to_usize().filter(|&l| l <= 1 << 21)?;
    // The bytes of input[off..off + len] that exist, as a number (the rest are zeros).
    let number = |off: &BigUint, len: usize| -> BigUint {
        let start = off.to_usize().unwrap_or(usize::MAX).min(input.len());
        let end = start.saturating_add(len).min(input.len());
        BigUint::from_bytes_be(&input[start..end]) << (8 * (len - (end - start)))
    };
    let header = BigUint::from(96u8);
    let m = number(&(&header + &bl + &el), mod_len);
    if m.is_zero() {
        return Some(vec![0; mod_len]);
    }
    // m > 0 starts inside the input, so the base and exponent lie wholly in it.
    let (bl, el) = (bl.to_usize()?, el.to_usize()?);
    let base = number(&header, bl);
    let e = number(&(&header + bl), el);
    let r = base.modpow(&e, &m).to_bytes_be();
    let mut out = vec![0; mod_len];
    if !r.iter().all(|&x| x == 0) {
        out[mod_len - r.len()..].copy_from_slice(&r);
    }
    Some(out)
}

/// The MODEXP decoder on random and malformed inputs, under every fork: never a panic; osaka
/// refuses exactly the lengths over 1024 bytes (the first one named); the uncapped schedules
/// refuse only over-priced inputs (which need a length over 1024 bytes); every output is
/// [`evm_reference`]'s, and `gas` agrees with `run`.
fn evm_case(data: &[u8]) {
    let mut b = Bytes { data, pos: 0 };
    let mut input = Vec::new();
    let words = [
        length_word(&mut b),
        length_word(&mut b),
        length_word(&mut b),
    ];
    for w in &words {
        input.extend_from_slice(w);
    }
    for w in &words {
        // The numbers' bytes: the declared length when small, else a few.
        let declared = BigUint::from_bytes_be(w).to_usize().unwrap_or(usize::MAX);
        let n = if declared <= 200 {
            declared
        } else {
            b.below(40)
        };
        input.extend(some_bytes(&mut b, n));
    }
    match b.below(8) {
        0 => input.truncate(b.below(input.len() + 1)), // cut anywhere, in a length word too
        1 => {
            // Bytes after the numbers (ignored when the lengths are true).
            let n = 1 + b.below(40);
            input.extend(some_bytes(&mut b, n));
        }
        2 => {
            // In a number, or the top byte of a length (a mid-sized length with a nonzero
            // modulus is a slow reference, not a different path).
            let i = b.below(input.len());
            let i = if i < 96 { i - i % 32 } else { i };
            input[i] ^= 1 << b.below(8);
        }
        3 => {
            // Anything at all.
            let n = b.below(200);
            input = some_bytes(&mut b, n);
        }
        _ => {}
    }
    let lens: Vec<BigUint> = (0..3)
        .map(|i| {
            let mut w = [0u8; 32];
            for (j, x) in w.iter_mut().enumerate() {
                *x = input.get(32 * i + j).copied().unwrap_or(0);
            }
            BigUint::from_bytes_be(&w)
        })
        .collect();
    let over = lens.iter().position(|l| *l > BigUint::from(1024u32));
    let what = || {
        format!(
            "input 0x{}",
            input.iter().map(|x| format!("{x:02x}")).collect::<String>()
        )
    };
    for fork in Fork::ALL {
        match evm::run(&input, fork) {
            Ok((out, gas)) => {
                assert!(
                    fork != Fork::Osaka || over.is_none(),
                    "{fork} ran {}",
                    what()
                );
                assert_eq!(evm::gas(&input, fork), Ok(gas), "{fork} gas of {}", what());
                let want = evm_reference(&input).unwrap_or_else(|| panic!("{fork} ran {}", what()));
                assert_eq!(out, want, "{fork} output of {}", what());
            }
            Err(EvmError::LengthOverLimit { field, .. }) => {
                let i = ["base", "exponent", "modulus"]
                    .iter()
                    .position(|f| *f == field);
                assert!(
                    fork == Fork::Osaka && i == over,
                    "{fork} {field} refused: {}",
                    what()
                );
            }
            Err(EvmError::GasOverLimit { .. }) => {
                assert!(
                    fork != Fork::Osaka && over.is_some(),
                    "{fork} over-priced: {}",
                    what()
                );
            }
            Err(e) => panic!("{fork}: {e} for {}", what()),
        }
    }
}

/// The parser, every reducer's reduce and mulmod, and every method's pow against num-bigint.
fn arithmetic_case(data: &[u8]) {
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

/// Runs cases from `first_seed` on until `until`: the number of cases, or the failing case's
/// seed and message.
fn fuzz_stream(first_seed: u64, until: Instant) -> Result<u64, String> {
    let mut cases = 0u64;
    let mut seed = first_seed;
    loop {
        let case_seed = seed;
        let mut s = case_seed | 1;
        let data: Vec<u8> = (0..640).flat_map(|_| next(&mut s).to_le_bytes()).collect();
        if let Err(p) = std::panic::catch_unwind(|| run_case(&data)) {
            let msg = p
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            return Err(format!(
                "case seed {case_seed} (replay: MODRED_FUZZ_SEED={case_seed}) failed: {msg}"
            ));
        }
        cases += 1;
        seed = next(&mut seed);
        if Instant::now() >= until {
            return Ok(cases);
        }
    }
}

/// `MODRED_FUZZ_SECONDS` (default 5) on `MODRED_FUZZ_THREADS` threads (default: the CPUs
/// available), each on its own seed stream; thread 0's starts at `MODRED_FUZZ_SEED`.
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
    let threads = env("MODRED_FUZZ_THREADS").map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get() as u64),
        |n| n.max(1),
    );
    let until = Instant::now() + Duration::from_secs(seconds);
    let results: Vec<Result<u64, String>> = std::thread::scope(|scope| {
        let streams: Vec<_> = (0..threads)
            .map(|t| {
                // Stream t starts t xorshift steps past a scrambled copy of the first seed.
                let mut seed = first_seed;
                if t > 0 {
                    seed ^= t.wrapping_mul(0x9e37_79b9_7f4a_7c15);
                    seed = next(&mut seed);
                }
                scope.spawn(move || fuzz_stream(seed, until))
            })
            .collect();
        streams
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err("a fuzz thread panicked".into()))
            })
            .collect()
    });
    let mut cases = 0;
    for r in results {
        match r {
            Ok(n) => cases += n,
            Err(msg) => panic!("{msg}"),
        }
    }
    println!("fuzz: {cases} cases in {seconds} s on {threads} threads from seed {first_seed}");
}
