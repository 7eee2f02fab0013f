//! A dudect-style timing test of `ct` exponentiation (Reparaz, Balasch, Verbauwhede, "Dude, is
//! my code constant time?", DATE 2017): time many exponentiations whose base and exponent are
//! either one fixed pair (class 0: exponent 0 and base 1, the most lopsided inputs) or fresh
//! random ones (class 1), the classes interleaved at random, and compare the two timing
//! distributions with Welch's t-test, on all samples and on those below a few percentiles
//! (dudect's cropping of the slow tail that interrupts cause). |t| above about 4.5 says the
//! timing depends on the inputs.
//!
//! ```text
//! cargo run --release -p modred --example dudect -- [BITS [SAMPLES]]
//! ```
//!
//! `montgomery-fast` on the tier in use (`MODRED_CPU` caps it). Defaults: 1024 bits, 20,000
//! samples. `dudect -- rsa [BITS [SAMPLES]]` times `rsa::PrivateKey::private_op_bytes` instead
//! (input 1 against random inputs; default 2048 bits): the input, blinded, then both CRT
//! halves in one pass on the IFMA tier.

use modred::exp::ct;
use modred::reduce::{self, ReducerKind};
use modred::{Limb, Natural};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::time::Instant;

/// Welch's t statistic of two samples.
fn welch_t(a: &[f64], b: &[f64]) -> f64 {
    let stats = |x: &[f64]| {
        let n = x.len() as f64;
        let mean = x.iter().sum::<f64>() / n;
        let var = x.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0);
        (mean, var, n)
    };
    let ((ma, va, na), (mb, vb, nb)) = (stats(a), stats(b));
    (ma - mb) / (va / na + vb / nb).sqrt()
}

/// Times `run(class, input)` over `inputs` (classes interleaved, the first tenth a warm-up) and
/// prints Welch's t over all samples and the cropped ones.
fn measure<I>(label: &str, inputs: &[(usize, I)], mut run: impl FnMut(&I)) {
    let warm_up = inputs.len() / 11;
    let mut times: [Vec<f64>; 2] = [Vec::new(), Vec::new()];
    for (i, (class, input)) in inputs.iter().enumerate() {
        let t = Instant::now();
        run(input);
        let ns = t.elapsed().as_nanos() as f64;
        if i >= warm_up {
            times[*class].push(ns);
        }
    }
    let mut all: Vec<f64> = times.iter().flatten().copied().collect();
    all.sort_by(f64::total_cmp);
    println!(
        "dudect: {label}, tier {}, {} fixed / {} random samples, median {:.1} us",
        modred::cpu::tier(),
        times[0].len(),
        times[1].len(),
        all[all.len() / 2] / 1e3
    );
    for pct in [100, 90, 50] {
        let cut = all[(all.len() * pct / 100).min(all.len() - 1)];
        let crop = |x: &[f64]| x.iter().copied().filter(|&v| v <= cut).collect::<Vec<_>>();
        let t = welch_t(&crop(&times[0]), &crop(&times[1]));
        println!("  samples <= p{pct:<3}: t = {t:+.2}");
    }
}

/// `rsa::PrivateKey::private_op_bytes` on a `bits`-bit key (OpenSSL's generator): input 1
/// (class 0) against random inputs below n (class 1).
fn rsa(bits: usize, samples: usize, rng: &mut StdRng) {
    let ossl = openssl::rsa::Rsa::generate(bits as u32).expect("openssl keygen");
    let key = modred::rsa::PrivateKey::from_pem_or_der(&ossl.private_key_to_pem().expect("pem"))
        .expect("key");
    let size = key.public_key().size();
    let mut one = vec![0u8; size];
    one[size - 1] = 1;
    let inputs: Vec<(usize, Vec<u8>)> = (0..samples + samples / 10)
        .map(|_| match rng.gen::<bool>() {
            false => (0, one.clone()),
            true => {
                let mut x: Vec<u8> = (0..size).map(|_| rng.gen::<u8>()).collect();
                x[0] = 0; // below n
                (1, x)
            }
        })
        .collect();
    measure(&format!("RSA-{bits} private_op"), &inputs, |x| {
        std::hint::black_box(key.private_op_bytes(x).expect("private_op"));
    });
}

fn main() {
    let mut args = std::env::args().skip(1).peekable();
    let mut rng = StdRng::seed_from_u64(0x243f_6a88_85a3_08d3);
    let is_rsa = args.peek().is_some_and(|a| a == "rsa");
    if is_rsa {
        args.next();
    }
    let bits: usize = args.next().map_or(if is_rsa { 2048 } else { 1024 }, |s| {
        s.parse().expect("BITS")
    });
    let samples: usize = args.next().map_or(20_000, |s| s.parse().expect("SAMPLES"));
    if is_rsa {
        return rsa(bits, samples, &mut rng);
    }
    let k = bits.div_ceil(64);
    let mut m: Vec<Limb> = (0..k).map(|_| rng.gen::<u64>()).collect();
    m[0] |= 1;
    m[k - 1] |= 1 << 63;
    let r =
        reduce::build(ReducerKind::MontgomeryFast, &Natural::from_slice(&m)).expect("odd modulus");
    let w = modred::tuning::ct_window_bits(64 * k);
    let random_below_m = |rng: &mut StdRng| -> Vec<Limb> {
        let mut x: Vec<Limb> = (0..k).map(|_| rng.gen::<u64>()).collect();
        x[k - 1] %= m[k - 1];
        x
    };
    let (fixed_base, fixed_exp) = (
        {
            let mut one = vec![0; k];
            one[0] = 1;
            one
        },
        vec![0; k],
    );
    // Every input is drawn before the timing starts (as dudect does), so drawing them does not
    // disturb the measured calls of one class only.
    type BaseExp = (Vec<Limb>, Vec<Limb>);
    let inputs: Vec<(usize, BaseExp)> = (0..samples + samples / 10)
        .map(|_| match rng.gen::<bool>() {
            false => (0, (fixed_base.clone(), fixed_exp.clone())),
            true => {
                let base = random_below_m(&mut rng);
                (1, (base, (0..k).map(|_| rng.gen::<u64>()).collect()))
            }
        })
        .collect();
    measure(
        &format!("ct {bits} bits (montgomery-fast)"),
        &inputs,
        |(base, exp)| {
            std::hint::black_box(ct::pow_unchecked(&*r, base, exp, 64 * k, w));
        },
    );
}
