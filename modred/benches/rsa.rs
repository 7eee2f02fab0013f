//! Raw RSA (no padding): modred's `PrivateKey::private_op_bytes` and
//! `PublicKey::public_op_bytes` against OpenSSL's `RSA_private_decrypt` / `RSA_public_encrypt`
//! with `RSA_NO_PADDING` (blinding on, OpenSSL's default), on the test vectors' 2048-, 3072- and
//! 4096-bit keys (`openssl genrsa`, e = 65537). Inputs: random bytes of n's length with the
//! first byte 0; both libraries' outputs are checked equal first.
//! Run: `cargo bench -p modred --bench rsa` (filter with e.g. `rsa/2048`). `MODRED_CPU=adx`
//! caps modred below AVX-512 IFMA; `OPENSSL_ia32cap=":~0x200000"` does the same for OpenSSL.
//!
//! `MODRED_RSA_BATCH=1 cargo bench -p modred --bench rsa -- batch` instead times batches of
//! 16 private operations on one core: `private_op_many` against `private_op` one by one and
//! against OpenSSL one by one (paired, interleaved ratios).

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use modred::rsa::PrivateKey;
use modred::Natural;
use openssl::rsa::{Padding, Rsa};
use rand::{rngs::StdRng, RngCore, SeedableRng};
use std::time::Duration;

#[path = "common/paired.rs"]
mod paired;
use paired::paired;

const KEYS: [(usize, &str); 3] = [
    (2048, include_str!("../tests/vectors/rsa/rsa2048-pkcs1.pem")),
    (3072, include_str!("../tests/vectors/rsa/rsa3072-pkcs1.pem")),
    (4096, include_str!("../tests/vectors/rsa/rsa4096-pkcs1.pem")),
];

fn rsa(c: &mut Criterion) {
    for (bits, pem) in KEYS {
        let key = PrivateKey::from_pem_or_der(pem.as_bytes()).unwrap();
        let ossl = Rsa::private_key_from_pem(pem.as_bytes()).unwrap();
        let size = key.public_key().size();
        assert_eq!(size, ossl.size() as usize);
        let mut x = vec![0u8; size];
        StdRng::seed_from_u64(bits as u64).fill_bytes(&mut x);
        x[0] = 0;
        let mut out = vec![0u8; size];

        let mut g = c.benchmark_group(format!("rsa/{bits}"));
        g.sample_size(20)
            .warm_up_time(Duration::from_millis(300))
            .measurement_time(Duration::from_secs(2));
        let m = key.private_op_bytes(&x).unwrap();
        assert_eq!(
            ossl.private_decrypt(&x, &mut out, Padding::NONE).unwrap(),
            size
        );
        assert_eq!(m, out, "private op: modred != OpenSSL");
        g.bench_function("private/modred", |b| {
            b.iter(|| key.private_op_bytes(black_box(&x)).unwrap())
        });
        g.bench_function("private/openssl", |b| {
            b.iter(|| {
                ossl.private_decrypt(black_box(&x), &mut out, Padding::NONE)
                    .unwrap()
            })
        });
        let pk = key.public_key();
        let y = pk.public_op_bytes(&x).unwrap();
        assert_eq!(
            ossl.public_encrypt(&x, &mut out, Padding::NONE).unwrap(),
            size
        );
        assert_eq!(y, out, "public op: modred != OpenSSL");
        g.bench_function("public/modred", |b| {
            b.iter(|| pk.public_op_bytes(black_box(&x)).unwrap())
        });
        g.bench_function("public/openssl", |b| {
            b.iter(|| {
                ossl.public_encrypt(black_box(&x), &mut out, Padding::NONE)
                    .unwrap()
            })
        });
        g.finish();
    }
}

/// Batches of 16 private operations on a one-thread pool (see the module docs).
fn batch(_: &mut Criterion) {
    if std::env::var_os("MODRED_RSA_BATCH").is_none() {
        return;
    }
    println!("kernel tier: {}", modred::cpu::tier());
    let pool1 = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    const ITEMS: usize = 16;
    for (bits, pem) in KEYS {
        let key = PrivateKey::from_pem_or_der(pem.as_bytes()).unwrap();
        let ossl = Rsa::private_key_from_pem(pem.as_bytes()).unwrap();
        let size = key.public_key().size();
        let mut rng = StdRng::seed_from_u64(bits as u64 + 1);
        let inputs: Vec<Vec<u8>> = (0..ITEMS)
            .map(|_| {
                let mut x = vec![0u8; size];
                rng.fill_bytes(&mut x);
                x[0] = 0;
                x
            })
            .collect();
        let naturals: Vec<Natural> = inputs.iter().map(|x| Natural::from_be_bytes(x)).collect();
        let got = pool1.install(|| key.private_op_many(&naturals)).unwrap();
        for (x, r) in naturals.iter().zip(&got) {
            assert_eq!(r.as_ref().unwrap(), &key.private_op(x).unwrap());
        }
        let many = || {
            black_box(pool1.install(|| key.private_op_many(&naturals)).unwrap());
        };
        let one_by_one = || {
            for x in &naturals {
                black_box(key.private_op(x).unwrap());
            }
        };
        let mut out = vec![0u8; size];
        let openssl = move || {
            for x in &inputs {
                ossl.private_decrypt(x, &mut out, Padding::NONE).unwrap();
            }
        };
        let t = std::time::Instant::now();
        many();
        println!(
            "RSA-{bits}: batch of {ITEMS} on one core, {:.0} private operations/s",
            ITEMS as f64 / t.elapsed().as_secs_f64()
        );
        paired(
            &format!("rsa-{bits} many / one by one"),
            9,
            Box::new(many),
            Box::new(one_by_one),
        );
        paired(
            &format!("rsa-{bits} many / openssl"),
            9,
            Box::new(many),
            Box::new(openssl),
        );
    }
}

criterion_group!(benches, rsa, batch);
criterion_main!(benches);
