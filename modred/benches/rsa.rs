//! Raw RSA (no padding): modred's `PrivateKey::private_op_bytes` and
//! `PublicKey::public_op_bytes` against OpenSSL's `RSA_private_decrypt` / `RSA_public_encrypt`
//! with `RSA_NO_PADDING` (blinding on, OpenSSL's default), on the test vectors' 2048-, 3072- and
//! 4096-bit keys (`openssl genrsa`, e = 65537). Inputs: random bytes of n's length with the
//! first byte 0; both libraries' outputs are checked equal first.
//! Run: `cargo bench -p modred --bench rsa` (filter with e.g. `rsa/2048`). `MODRED_CPU=adx`
//! caps modred below AVX-512 IFMA; `OPENSSL_ia32cap=":~0x200000"` does the same for OpenSSL.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use modred::rsa::PrivateKey;
use openssl::rsa::{Padding, Rsa};
use rand::{rngs::StdRng, RngCore, SeedableRng};
use std::time::Duration;

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

criterion_group!(benches, rsa);
criterion_main!(benches);
