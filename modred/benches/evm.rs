//! The MODEXP precompile against the libraries Ethereum clients use, in one interleaved run:
//! `modred::evm::modexp` (the whole precompile: header decoding, exponentiation, padded
//! output), GMP `mpz_powm` via rug, `aurora-engine-modexp` (revm's) and malachite (ethrex's),
//! each given the three numbers' bytes and returning the `mod_len`-byte output.
//!
//! Cases: every named case of go-ethereum's three vector files (47 distinct inputs) and the
//! worst cases EIP-7883 was written for: 32-byte modulus with a 32-byte exponent, 1024-byte
//! modulus with long exponents, and even moduli (one factor of two, half a power of two, a
//! power of two) next to odd ones of the same size.
//!
//! Times are the thread's CPU time (`CLOCK_THREAD_CPUTIME_ID`), not wall time. Each round
//! runs every competitor's batch once (the order rotating between rounds), batches
//! sized to about [`BATCH_SECONDS`]; the table gives the median time per call over the rounds,
//! the gas per second under the Osaka schedule (EIP-7883), and per-round paired ratios
//! (median). Run: `cargo bench -p modred --bench evm` (append substrings of case names to
//! run only the cases containing one; `MODRED_EVM_ROUNDS=N` sets the rounds, default 9).

use malachite_base::num::arithmetic::traits::ModPow;
use malachite_base::num::conversion::traits::PowerOf2Digits;
use malachite_nz::natural::Natural as MNatural;
use modred::evm::{self, Fork};
use rug::integer::Order;
use rug::Integer;
use std::hint::black_box;
use std::time::Instant;

/// CPU time of the calling thread in seconds (wall time where the platform has none): on a
/// shared, loaded machine it leaves out the time the thread was not running.
fn now() -> f64 {
    #[cfg(unix)]
    {
        let mut ts = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `ts` is a valid, writable timespec; the clock id is a constant.
        if unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) } == 0 {
            return ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9;
        }
    }
    thread_local!(static T0: Instant = Instant::now());
    T0.with(|t0| t0.elapsed().as_secs_f64())
}

/// Target duration of one competitor's batch in a round.
const BATCH_SECONDS: f64 = 0.004;

/// One benchmark input.
struct Case {
    name: String,
    input: Vec<u8>,
    base: Vec<u8>,
    exp: Vec<u8>,
    modulus: Vec<u8>,
}

/// `bytes` left-padded with zeros to `len` (what the precompile returns).
fn pad(bytes: Vec<u8>, len: usize) -> Vec<u8> {
    if bytes.len() >= len {
        return bytes[bytes.len() - len..].to_vec();
    }
    let mut out = vec![0; len - bytes.len()];
    out.extend(bytes);
    out
}

fn gmp(c: &Case) -> Vec<u8> {
    let m = Integer::from_digits(&c.modulus, Order::Msf);
    if m == 0 {
        return vec![0; c.modulus.len()];
    }
    let b = Integer::from_digits(&c.base, Order::Msf);
    let e = Integer::from_digits(&c.exp, Order::Msf);
    let r = Integer::from(b.pow_mod_ref(&e, &m).expect("non-negative exponent"));
    // Zero-padded to mod_len at the front (r < m < 256^mod_len).
    let mut out = vec![0u8; c.modulus.len()];
    r.write_digits(&mut out, Order::Msf);
    out
}

fn aurora(c: &Case) -> Vec<u8> {
    pad(
        aurora_engine_modexp::modexp(&c.base, &c.exp, &c.modulus),
        c.modulus.len(),
    )
}

/// As ethrex calls it: reduce the base, then `mod_pow` (which needs a reduced base).
fn malachite(c: &Case) -> Vec<u8> {
    let nat = |b: &[u8]| MNatural::from_power_of_2_digits_desc(8, b.iter().copied()).unwrap();
    let m = nat(&c.modulus);
    if m == 0u32 {
        return vec![0; c.modulus.len()];
    }
    let b = nat(&c.base) % &m;
    let r = b.mod_pow(nat(&c.exp), &m);
    let digits: Vec<u8> = r.to_power_of_2_digits_desc(8);
    pad(digits, c.modulus.len())
}

fn modred(c: &Case) -> Vec<u8> {
    evm::modexp(&c.input, Fork::Osaka).expect("within EIP-7823")
}

type Impl = fn(&Case) -> Vec<u8>;
const COMPETITORS: [(&str, Impl); 4] = [
    ("modred", modred),
    ("gmp", gmp),
    ("aurora", aurora),
    ("malachite", malachite),
];

fn hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

/// The three numbers of an input as the precompile reads them (zero-padded).
fn case(name: String, input: Vec<u8>) -> Case {
    let word = |i: usize| {
        let mut w = [0u8; 8];
        w.copy_from_slice(&input[32 * i + 24..32 * i + 32]);
        u64::from_be_bytes(w) as usize
    };
    let (bl, el, ml) = (word(0), word(1), word(2));
    let read = |at: usize, len: usize| -> Vec<u8> {
        (at..at + len)
            .map(|i| input.get(i).copied().unwrap_or(0))
            .collect()
    };
    Case {
        name,
        base: read(96, bl),
        exp: read(96 + bl, el),
        modulus: read(96 + bl + el, ml),
        input,
    }
}

fn encode(base: &[u8], exp: &[u8], modulus: &[u8]) -> Vec<u8> {
    let mut v = vec![];
    for l in [base.len(), exp.len(), modulus.len()] {
        v.extend([0u8; 24]);
        v.extend((l as u64).to_be_bytes());
    }
    v.extend_from_slice(base);
    v.extend_from_slice(exp);
    v.extend_from_slice(modulus);
    v
}

/// The vector files' cases, each input once (modexp.json and modexp_eip2565.json share theirs).
fn vector_cases() -> Vec<Case> {
    let mut out: Vec<Case> = vec![];
    for file in [
        "go-ethereum-modexp.json",
        "go-ethereum-modexp_eip2565.json",
        "go-ethereum-modexp_eip7883.json",
    ] {
        let path = format!("{}/tests/vectors/{file}", env!("CARGO_MANIFEST_DIR"));
        let json: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        for c in json.as_array().unwrap() {
            let input = hex(c["Input"].as_str().unwrap());
            if out.iter().all(|o| o.input != input) {
                out.push(case(c["Name"].as_str().unwrap().to_string(), input));
            }
        }
    }
    out
}

/// Deterministic bytes (xorshift).
fn bytes(len: usize, seed: &mut u64) -> Vec<u8> {
    (0..len)
        .map(|_| {
            *seed ^= *seed << 13;
            *seed ^= *seed >> 7;
            *seed ^= *seed << 17;
            (*seed >> 32) as u8
        })
        .collect()
}

/// EIP-7883's worst cases: full-length exponents with odd and even moduli.
fn worst_cases() -> Vec<Case> {
    let mut seed = 0x7883_u64;
    let mut out = vec![];
    for (mod_len, exp_len) in [
        (32, 32),
        (64, 32),
        (128, 32),
        (256, 32),
        (512, 32),
        (1024, 32),
        (1024, 128),
        (1024, 1024),
    ] {
        let mut m = bytes(mod_len, &mut seed);
        m[0] |= 0x80;
        let b = bytes(mod_len, &mut seed);
        let mut e = bytes(exp_len, &mut seed);
        e[0] |= 0x80;
        let mut shapes = vec![("odd", m.clone())];
        let mut even = m.clone();
        *even.last_mut().unwrap() &= 0xfe;
        shapes.push(("even", even));
        if exp_len == 32 && mod_len >= 256 || mod_len == 32 {
            // The odd part half the size, and no odd part at all.
            let mut half = m.clone();
            half[mod_len / 2..].iter_mut().for_each(|x| *x = 0);
            *half[..mod_len / 2].last_mut().unwrap() |= 1;
            shapes.push(("half2", half));
            let mut pow2 = vec![0u8; mod_len];
            pow2[0] = 0x80;
            shapes.push(("pow2", pow2));
        }
        for (shape, m) in shapes {
            out.push(case(
                format!("x-mod{mod_len}-exp{exp_len}-{shape}"),
                encode(&b, &e, &m),
            ));
        }
    }
    out
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

/// `MODRED_EVM_SWEEP=1`: the crossover of `tuning::CLASSICAL_POW_MAX_PRODUCTS`.
/// Exponent 2^p (p squarings) by binary exponentiation over the `classical` reducer (products
/// and Knuth's division, no precomputation) against a `Modulus` built for the call (Montgomery,
/// even moduli by CRT), both through the public API: classical / default time per call, median of
/// 7 interleaved pairs, per modulus size and parity.
fn sweep() {
    use modred::exp::{self, Method, PowOptions};
    use modred::reduce::classical::Classical;
    use modred::Natural;
    let mut seed = 99u64;
    let time = |f: &dyn Fn()| {
        f();
        let t = now();
        let mut n = 0;
        while now() - t < 0.002 {
            f();
            n += 1;
        }
        (now() - t) / f64::from(n)
    };
    for mod_len in [16usize, 32, 64, 128, 256, 512, 1024] {
        for parity in ["odd", "even"] {
            let mut line = format!("{mod_len:>5} bytes {parity:<4}");
            for p in [1usize, 2, 3, 4, 5, 6, 8] {
                let mut m = bytes(mod_len, &mut seed);
                m[0] |= 0x80;
                let last = m.last_mut().unwrap();
                *last = if parity == "odd" {
                    *last | 1
                } else {
                    *last & 0xfe
                };
                let nat = |b: &[u8]| Natural::from_be_bytes(b);
                let (m, b, e) = (
                    nat(&m),
                    nat(&bytes(mod_len, &mut seed)),
                    Natural::power_of_two(p),
                );
                let b = &b % &m;
                let classical = || {
                    let r = Classical::new(m.limbs()).unwrap();
                    let base = b.to_padded(m.len()).unwrap();
                    let opts = PowOptions {
                        method: Method::Binary,
                        ..PowOptions::default()
                    };
                    black_box(exp::pow_with(&r, Method::Binary, &base, e.limbs(), &opts).unwrap());
                };
                let default = || {
                    let md = modred::Modulus::new(&m, modred::ReducerKind::Auto).unwrap();
                    black_box(md.pow_vartime(&b, &e, &PowOptions::default()).unwrap());
                };
                let mut r: Vec<f64> = (0..7).map(|_| time(&classical) / time(&default)).collect();
                line += &format!(" p{p}:{:.2}", median(&mut r));
            }
            println!("{line}");
        }
    }
}

fn main() {
    if std::env::var_os("MODRED_EVM_SWEEP").is_some() {
        return sweep();
    }
    // `cargo test --benches` runs this without --bench: check the competitors agree, briefly.
    let benching = std::env::args().any(|a| a == "--bench");
    let filters: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let rounds: usize = std::env::var("MODRED_EVM_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(9)
        .max(1);
    let cases: Vec<Case> = vector_cases()
        .into_iter()
        .chain(worst_cases())
        .filter(|c| filters.is_empty() || filters.iter().any(|f| c.name.contains(f.as_str())))
        .collect();
    println!(
        "{:<28} {:>9} {:>10} {:>10} {:>10} {:>10} {:>7} {:>7} {:>7}   Mgas/s: {:>7} {:>7} {:>7} {:>7}",
        "case (time per call, us)",
        "gas",
        "modred",
        "gmp",
        "aurora",
        "malachite",
        "m/gmp",
        "aur/m",
        "mal/m",
        "modred",
        "gmp",
        "aurora",
        "malach."
    );
    // Lowest gas per second of each competitor, with its case.
    let mut slowest: [(f64, String); 4] = core::array::from_fn(|_| (f64::INFINITY, String::new()));
    let (mut worst_vs_gmp, mut worst_vs_aurora) =
        ((0.0f64, String::new()), (f64::INFINITY, String::new()));
    for c in &cases {
        let want = modred(c);
        for (name, f) in COMPETITORS {
            assert_eq!(f(c), want, "{name} disagrees on {}", c.name);
        }
        if !benching {
            continue;
        }
        let gas = evm::gas(&c.input, Fork::Osaka).unwrap();
        // Calls per batch: about BATCH_SECONDS each, from one timed call (after a warm-up).
        let reps: Vec<usize> = COMPETITORS
            .iter()
            .map(|(_, f)| {
                black_box(f(c));
                let t = now();
                black_box(f(c));
                ((BATCH_SECONDS / (now() - t).max(1e-9)) as usize).clamp(1, 100_000)
            })
            .collect();
        let mut per_call = vec![vec![]; COMPETITORS.len()];
        for round in 0..rounds {
            for j in 0..COMPETITORS.len() {
                let i = (j + round) % COMPETITORS.len();
                let f = COMPETITORS[i].1;
                let t = now();
                for _ in 0..reps[i] {
                    black_box(f(black_box(c)));
                }
                per_call[i].push((now() - t) / reps[i] as f64);
            }
        }
        let ratio = |a: usize, b: usize| {
            let mut r: Vec<f64> = per_call[a]
                .iter()
                .zip(&per_call[b])
                .map(|(x, y)| x / y)
                .collect();
            median(&mut r)
        };
        let (vs_gmp, aurora_vs, malachite_vs) = (ratio(0, 1), ratio(2, 0), ratio(3, 0));
        let t: Vec<f64> = per_call.iter_mut().map(|v| median(v)).collect();
        let mgas: Vec<f64> = t.iter().map(|s| gas as f64 / s / 1e6).collect();
        println!(
            "{:<28} {:>9} {:>10.2} {:>10.2} {:>10.2} {:>10.2} {:>7.3} {:>7.2} {:>7.2}           {:>7.0} {:>7.0} {:>7.0} {:>7.0}",
            c.name,
            gas,
            t[0] * 1e6,
            t[1] * 1e6,
            t[2] * 1e6,
            t[3] * 1e6,
            vs_gmp,
            aurora_vs,
            malachite_vs,
            mgas[0],
            mgas[1],
            mgas[2],
            mgas[3]
        );
        for (s, &g) in slowest.iter_mut().zip(&mgas) {
            if g < s.0 {
                *s = (g, c.name.clone());
            }
        }
        if vs_gmp > worst_vs_gmp.0 {
            worst_vs_gmp = (vs_gmp, c.name.clone());
        }
        if aurora_vs < worst_vs_aurora.0 {
            worst_vs_aurora = (aurora_vs, c.name.clone());
        }
    }
    if !benching {
        println!("{} cases agree across the four libraries", cases.len());
        return;
    }
    println!("\nslowest case per library (Osaka gas per second):");
    for ((name, _), (g, case)) in COMPETITORS.iter().zip(&slowest) {
        println!("  {name:<10} {g:>8.1} Mgas/s  ({case})");
    }
    println!(
        "worst modred/gmp {:.3} ({}); worst aurora/modred {:.2} ({}); {rounds} rounds",
        worst_vs_gmp.0, worst_vs_gmp.1, worst_vs_aurora.0, worst_vs_aurora.1
    );
}
