//! The RSA private operation at 2048, 3072 and 4096 bits on the same keys (the test vectors of
//! `modred/tests/vectors/rsa`): modred, OpenSSL, RustCrypto `rsa` 0.9 and 0.10 (raw, blinded),
//! and ring and aws-lc-rs, which only sign (PKCS#1 v1.5 with SHA-256, next to OpenSSL doing
//! the same). Every result is checked against OpenSSL's before timing. Protocol: calibrate each
//! row to samples of at least `--sample-ms`, then `--rounds` interleaved rounds (A B C ... A B
//! C ...), median and min-max per call on the thread's CPU clock. See README.md.

use openssl::hash::MessageDigest;
use openssl::pkey::{PKey, Private};
use openssl::rsa::{Padding, Rsa};
use openssl::sign::Signer;
use std::hint::black_box;

const KEYS: [(usize, &str); 3] = [
    (
        2048,
        include_str!("../../../modred/tests/vectors/rsa/rsa2048-pkcs1.pem"),
    ),
    (
        3072,
        include_str!("../../../modred/tests/vectors/rsa/rsa3072-pkcs1.pem"),
    ),
    (
        4096,
        include_str!("../../../modred/tests/vectors/rsa/rsa4096-pkcs1.pem"),
    ),
];

/// The message the signing rows sign (hashed by each library).
const MESSAGE: &[u8] = b"modred compare/rsa: PKCS#1 v1.5 SHA-256 signing of this message";

type Op<'a> = Box<dyn FnMut() -> Vec<u8> + 'a>;

/// Which OpenSSL row a row's result is checked against and its ratio taken to.
#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Raw,
    Sign,
}

struct Row<'a> {
    name: &'static str,
    kind: Kind,
    op: Result<Op<'a>, String>,
}

impl<'a> Row<'a> {
    fn new(name: &'static str, kind: Kind, op: Result<Op<'a>, String>) -> Self {
        Self { name, kind, op }
    }
}

/// The calling thread's CPU time in seconds (time slices of other processes do not count).
fn cpu_seconds() -> f64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec; the clock id is a constant.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    assert_eq!(rc, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID)");
    ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
}

/// Seconds per call over `iters` calls.
fn sample(f: &mut Op<'_>, iters: u64) -> f64 {
    let t0 = cpu_seconds();
    for _ in 0..iters {
        black_box(f());
    }
    (cpu_seconds() - t0) / iters as f64
}

/// Calls per sample so one sample lasts at least `target` seconds (also the warm-up).
fn calibrate(f: &mut Op<'_>, target: f64) -> u64 {
    let mut iters = 1u64;
    loop {
        let per_call = sample(f, iters).max(1e-9);
        if per_call * iters as f64 >= target {
            return ((target * 1.2 / per_call).ceil() as u64).max(iters);
        }
        iters = ((target * 1.2 / per_call).ceil() as u64).clamp(iters * 2, iters * 1000);
    }
}

/// `x` as exactly `len` big-endian bytes (left-padded with zeros).
fn padded(x: &[u8], len: usize) -> Vec<u8> {
    let x = &x[x.iter().position(|&b| b != 0).unwrap_or(x.len())..];
    let mut v = vec![0u8; len.saturating_sub(x.len())];
    v.extend_from_slice(x);
    v
}

fn err(e: impl std::fmt::Display) -> String {
    e.to_string()
}

fn modred_raw<'a>(pem: &str, c: &'a [u8]) -> Result<Op<'a>, String> {
    let key = modred::rsa::PrivateKey::from_pem_or_der(pem.as_bytes()).map_err(err)?;
    Ok(Box::new(move || {
        key.private_op_bytes(c).expect("modred private_op_bytes")
    }))
}

fn openssl_raw<'a>(rsa: &'a Rsa<Private>, c: &'a [u8]) -> Result<Op<'a>, String> {
    let mut out = vec![0u8; rsa.size() as usize];
    Ok(Box::new(move || {
        let len = rsa
            .private_decrypt(c, &mut out, Padding::NONE)
            .expect("RSA_private_decrypt");
        out[..len].to_vec()
    }))
}

fn rsa09_raw<'a>(pem: &str, c: &'a [u8]) -> Result<Op<'a>, String> {
    use rsa09::pkcs1::DecodeRsaPrivateKey;
    use rsa09::traits::PublicKeyParts;
    let key = rsa09::RsaPrivateKey::from_pkcs1_pem(pem).map_err(err)?;
    let c = rsa09::BigUint::from_bytes_be(c);
    let size = key.size();
    let mut rng = rand08::thread_rng();
    Ok(Box::new(move || {
        let m = rsa09::hazmat::rsa_decrypt_and_check(&key, Some(&mut rng), &c)
            .expect("rsa 0.9 rsa_decrypt_and_check");
        padded(&m.to_bytes_be(), size)
    }))
}

fn rsa010_raw<'a>(pem: &str, c: &'a [u8]) -> Result<Op<'a>, String> {
    use rsa010::pkcs1::DecodeRsaPrivateKey;
    use rsa010::traits::PublicKeyParts;
    let key = rsa010::PrivateKey::from_pkcs1_pem(pem).map_err(err)?;
    let c = rsa010::BoxedUint::from_be_slice(c, key.n_bits_precision()).map_err(err)?;
    let size = key.size();
    let mut rng = rand010::rng();
    Ok(Box::new(move || {
        let m = rsa010::hazmat::rsa_decrypt_and_check(&key, Some(&mut rng), &c)
            .expect("rsa 0.10 rsa_decrypt_and_check");
        padded(&m.to_be_bytes(), size)
    }))
}

fn openssl_sign<'a>(pkey: &'a PKey<Private>) -> Result<Op<'a>, String> {
    Ok(Box::new(move || {
        let mut s = Signer::new(MessageDigest::sha256(), pkey).expect("EVP_DigestSignInit");
        s.set_rsa_padding(Padding::PKCS1).expect("PKCS#1 v1.5");
        s.sign_oneshot_to_vec(MESSAGE).expect("EVP_DigestSign")
    }))
}

fn ring_sign<'a>(der: &[u8]) -> Result<Op<'a>, String> {
    use ring::signature::{RsaKeyPair, RSA_PKCS1_SHA256};
    let key = RsaKeyPair::from_der(der).map_err(err)?;
    let rng = ring::rand::SystemRandom::new();
    let mut sig = vec![0u8; key.public().modulus_len()];
    Ok(Box::new(move || {
        key.sign(&RSA_PKCS1_SHA256, &rng, MESSAGE, &mut sig)
            .expect("ring sign");
        sig.clone()
    }))
}

fn aws_lc_sign<'a>(der: &[u8]) -> Result<Op<'a>, String> {
    use aws_lc_rs::signature::{RsaKeyPair, RSA_PKCS1_SHA256};
    let key = RsaKeyPair::from_der(der).map_err(err)?;
    let rng = aws_lc_rs::rand::SystemRandom::new();
    let mut sig = vec![0u8; key.public_modulus_len()];
    Ok(Box::new(move || {
        key.sign(&RSA_PKCS1_SHA256, &rng, MESSAGE, &mut sig)
            .expect("aws-lc-rs sign");
        sig.clone()
    }))
}

fn fmt_us(s: f64) -> String {
    let us = s * 1e6;
    if us >= 100.0 {
        format!("{us:.0}")
    } else {
        format!("{us:.1}")
    }
}

fn arg(name: &str, default: f64) -> Result<f64, String> {
    let args: Vec<String> = std::env::args().collect();
    match args.iter().position(|a| a == name) {
        None => Ok(default),
        Some(i) => args
            .get(i + 1)
            .and_then(|v| v.parse().ok())
            .ok_or_else(|| format!("{name} takes a number")),
    }
}

fn main() -> Result<(), String> {
    let rounds = arg("--rounds", 15.0)?.max(1.0) as usize;
    let target = arg("--sample-ms", 5.0)? / 1e3;
    println!(
        "modred tier {} (this CPU: {}); {}; OPENSSL_ia32cap {}",
        modred::cpu::tier(),
        modred::cpu::available()
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(", "),
        openssl::version::version(),
        std::env::var("OPENSSL_ia32cap").map_or("not set".into(), |v| format!("= \"{v}\""))
    );
    println!(
        "{rounds} interleaved rounds, samples >= {:.1} ms, thread CPU time; µs per operation: \
         median [min-max]\n",
        target * 1e3
    );
    let mut failed = false;
    for (bits, pem) in KEYS {
        let rsa = Rsa::private_key_from_pem(pem.as_bytes()).map_err(err)?;
        let der = rsa.private_key_to_der().map_err(err)?;
        let pkey = PKey::from_rsa(rsa.clone()).map_err(err)?;
        // A fixed pseudo-random input below n (first byte 0).
        let mut c: Vec<u8> = (0..rsa.size() as u64)
            .map(|i| (i.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 56) as u8 ^ (bits as u8))
            .collect();
        c[0] = 0;
        let mut rows = [
            Row::new(
                "OpenSSL RSA_private_decrypt NO_PADDING",
                Kind::Raw,
                openssl_raw(&rsa, &c),
            ),
            Row::new("modred private_op_bytes", Kind::Raw, modred_raw(pem, &c)),
            Row::new(
                "rsa 0.9 hazmat::rsa_decrypt_and_check",
                Kind::Raw,
                rsa09_raw(pem, &c),
            ),
            Row::new(
                "rsa 0.10 hazmat::rsa_decrypt_and_check",
                Kind::Raw,
                rsa010_raw(pem, &c),
            ),
            Row::new(
                "OpenSSL sign PKCS#1 v1.5 SHA-256 (incl. hash)",
                Kind::Sign,
                openssl_sign(&pkey),
            ),
            Row::new(
                "ring sign PKCS#1 v1.5 SHA-256 (incl. hash)",
                Kind::Sign,
                ring_sign(&der),
            ),
            Row::new(
                "aws-lc-rs sign PKCS#1 v1.5 SHA-256 (incl. hash)",
                Kind::Sign,
                aws_lc_sign(&der),
            ),
        ];
        // Check every result against the first row of its kind (OpenSSL's: rows 0 and 4) before
        // timing.
        let mut expected: [Option<Vec<u8>>; 2] = [None, None];
        let mut status: Vec<Option<String>> = vec![None; rows.len()];
        for (i, r) in rows.iter_mut().enumerate() {
            match &mut r.op {
                Err(e) => status[i] = Some(format!("n/a ({e})")),
                Ok(f) => {
                    let got = f();
                    let want = &mut expected[r.kind as usize];
                    match want {
                        None => *want = Some(got),
                        Some(w) if *w == got => {}
                        Some(_) => {
                            status[i] = Some("MISMATCH with OpenSSL (not timed)".into());
                            failed = true;
                        }
                    }
                }
            }
        }
        let mut iters = vec![0u64; rows.len()];
        for (i, r) in rows.iter_mut().enumerate() {
            if let (None, Ok(f)) = (&status[i], &mut r.op) {
                iters[i] = calibrate(f, target);
            }
        }
        let mut samples = vec![Vec::with_capacity(rounds); rows.len()];
        for _ in 0..rounds {
            for (i, r) in rows.iter_mut().enumerate() {
                if let (None, Ok(f)) = (&status[i], &mut r.op) {
                    samples[i].push(sample(f, iters[i]));
                }
            }
        }
        let medians: Vec<Option<f64>> = samples
            .iter_mut()
            .map(|s| {
                s.sort_by(f64::total_cmp);
                (!s.is_empty()).then(|| s[s.len() / 2])
            })
            .collect();
        println!("RSA-{bits}\n");
        println!("| row | µs/op | × OpenSSL raw | × OpenSSL same op |");
        println!("|---|---|---|---|");
        for (i, r) in rows.iter().enumerate() {
            let reference = [medians[0], medians[4]];
            let (cell, raw, same) = match (&status[i], medians[i]) {
                (Some(s), _) => (s.clone(), String::new(), String::new()),
                (None, Some(m)) => {
                    let ratio =
                        |b: Option<f64>| b.map_or("n/a".into(), |b| format!("{:.2}", m / b));
                    let s = &samples[i];
                    (
                        format!(
                            "{} [{}–{}]",
                            fmt_us(m),
                            fmt_us(s[0]),
                            fmt_us(s[s.len() - 1])
                        ),
                        ratio(reference[0]),
                        ratio(reference[r.kind as usize]),
                    )
                }
                (None, None) => ("n/a".into(), String::new(), String::new()),
            };
            println!("| {} | {cell} | {raw} | {same} |", r.name);
        }
        println!();
    }
    if failed {
        return Err("some results differ from OpenSSL's".into());
    }
    Ok(())
}
