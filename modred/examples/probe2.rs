use modred::rsa::PrivateKey;
use openssl::rsa::{Padding, Rsa};
use std::time::Instant;
fn med(mut f: impl FnMut(), n: usize) -> f64 {
    let mut ts = vec![];
    for _ in 0..11 { let t = Instant::now(); for _ in 0..n { f(); } ts.push(t.elapsed().as_secs_f64() / n as f64 * 1e6); }
    ts.sort_by(|a, b| a.partial_cmp(b).unwrap()); ts[5]
}
fn main() {
    for bits in [2048, 3072, 4096] {
        let pem = std::fs::read(format!("modred/tests/vectors/rsa/rsa{bits}-pkcs1.pem")).unwrap();
        let key = PrivateKey::from_pem_or_der(&pem).unwrap();
        let ossl = Rsa::private_key_from_pem(&pem).unwrap();
        let k = key.public_key().size();
        let mut c = vec![0x5au8; k]; c[0] = 0x12;
        let mut out = vec![0u8; k];
        let ours = key.private_op_bytes(&c).unwrap();
        ossl.private_decrypt(&c, &mut out, Padding::NONE).unwrap();
        assert_eq!(ours, out);
        let n = if bits == 2048 { 200 } else { 30 };
        let mut r = vec![];
        for _ in 0..3 {
            let a = med(|| { std::hint::black_box(key.private_op_bytes(&c).unwrap()); }, n);
            let b = med(|| { ossl.private_decrypt(&c, &mut out, Padding::NONE).unwrap(); }, n);
            r.push((a, b));
        }
        for (a, b) in &r { println!("RSA-{bits} private: modred {a:.1} us, openssl {b:.1} us, ratio {:.3}", a / b); }
        let pubk = key.public_key();
        let mut outp = vec![0u8; k];
        let a = med(|| { std::hint::black_box(pubk.public_op_bytes(&c).unwrap()); }, n * 10);
        let b = med(|| { ossl.public_encrypt(&c, &mut outp, Padding::NONE).unwrap(); }, n * 10);
        println!("RSA-{bits} public: modred {a:.1} us, openssl {b:.1} us, ratio {:.3}", a / b);
    }
}
