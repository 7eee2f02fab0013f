//! `modred::rsa` and the paired constant-time exponentiation (`exp::CtPair`): the public RSA
//! vectors made for this project (`tests/vectors/rsa/`), keys made here from random primes
//! (checked against num-bigint's `modpow` with d, no CRT, and against GMP), bad keys and
//! inputs, and the pair kernel against two single constant-time passes on every tier.

mod common;

use common::{big, nat, to_rug};
use modred::cpu;
use modred::exp::{CtPair, Modulus};
use modred::rsa::{PrivateKey, PublicKey};
use modred::{Error, Natural, ReducerKind};
use num_bigint::{BigUint, RandBigInt};
use num_integer::Integer;
use num_traits::{One, Zero};
use rand::rngs::StdRng;
use rand::SeedableRng;

fn hex(s: &str) -> BigUint {
    BigUint::parse_bytes(s.as_bytes(), 16).expect("hex")
}

fn vector(name: &str) -> Vec<u8> {
    std::fs::read(common::vector_path(&format!("rsa/{name}"))).expect(name)
}

/// One key of `rsa-raw.json`: its components (e is a JSON number there, the others hex
/// strings) and its (input, private, public) cases.
struct VectorKey {
    file: String,
    n: BigUint,
    e: BigUint,
    d: BigUint,
    p: BigUint,
    q: BigUint,
    cases: Vec<[BigUint; 3]>,
}

fn vector_keys() -> Vec<VectorKey> {
    let json: serde_json::Value =
        serde_json::from_slice(&vector("rsa-raw.json")).expect("rsa-raw.json parses");
    let keys = json["keys"].as_array().expect("keys");
    keys.iter()
        .map(|k| {
            let s = |f: &str| k[f].as_str().expect(f).to_string();
            VectorKey {
                file: s("key"),
                n: hex(&s("n")),
                e: BigUint::from(k["e"].as_u64().expect("e is a JSON number")),
                d: hex(&s("d")),
                p: hex(&s("p")),
                q: hex(&s("q")),
                cases: k["cases"]
                    .as_array()
                    .expect("cases")
                    .iter()
                    .map(|c| ["input", "private", "public"].map(|f| hex(c[f].as_str().expect(f))))
                    .collect(),
            }
        })
        .collect()
}

/// Every case of the key: the private and public results as naturals and as I2OSP bytes, and
/// the round trip.
fn check_key(key: &PrivateKey, v: &VectorKey, what: &str) {
    let public = key.public_key();
    assert_eq!(big(public.n()), v.n, "{what}: n");
    assert_eq!(big(public.e()), v.e, "{what}: e");
    let size = public.size();
    assert_eq!(size, v.n.bits().div_ceil(8) as usize);
    for [x, private, public_want] in &v.cases {
        let s = key.private_op(&nat(x)).expect("x < n");
        assert_eq!(big(&s), *private, "{what}: private");
        let y = public.public_op(&nat(x)).expect("x < n");
        assert_eq!(big(&y), *public_want, "{what}: public");
        let bytes = key.private_op_bytes(&x.to_bytes_be()).expect("x < n");
        assert_eq!(bytes.len(), size, "{what}: I2OSP length");
        assert_eq!(BigUint::from_bytes_be(&bytes), *private);
        let pb = public.public_op_bytes(&x.to_bytes_be()).expect("x < n");
        assert_eq!(pb.len(), size);
        assert_eq!(BigUint::from_bytes_be(&pb), *public_want);
        assert_eq!(
            big(&key.private_op(&y).expect("y < n")),
            *x,
            "{what}: round trip"
        );
    }
}

#[test]
fn vendored_rsa_vectors_match_the_shared_copies() {
    let sums = String::from_utf8(vector("SHA256SUMS")).expect("utf-8");
    let shared = std::path::PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../shared/vectors/rsa"
    ));
    let mut files = 0;
    for line in sums.lines() {
        let (sum, file) = line.split_once("  ").expect("sha256sum format");
        let data = vector(file);
        let got: String = openssl::sha::sha256(&data)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        assert_eq!(got, sum, "{file}: SHA-256");
        if shared.is_dir() {
            assert!(
                std::fs::read(shared.join(file)).expect(file) == data,
                "{file} differs"
            );
        }
        files += 1;
    }
    assert_eq!(files, 10);
}

/// Every vector key from PKCS#1 and PKCS#8 PEM and DER and from its components (with and
/// without p and q), every case.
#[test]
fn vector_keys_give_the_raw_results() {
    let keys = vector_keys();
    assert_eq!(keys.len(), 6);
    for v in &keys {
        let mut loaded = Vec::new();
        if v.file.ends_with(".pem") {
            let pkcs1 = vector(&v.file);
            loaded.push((
                format!("{} PEM", v.file),
                PrivateKey::from_pem_or_der(&pkcs1),
            ));
            let der = openssl::rsa::Rsa::private_key_from_pem(&pkcs1)
                .expect("openssl reads it")
                .private_key_to_der()
                .expect("DER");
            loaded.push((format!("{} DER", v.file), PrivateKey::from_pem_or_der(&der)));
            let pkcs8 = v.file.replace("pkcs1", "pkcs8");
            if common::vector_path(&format!("rsa/{pkcs8}")).exists() {
                let pem = vector(&pkcs8);
                loaded.push((format!("{pkcs8} PEM"), PrivateKey::from_pem_or_der(&pem)));
                let der = openssl::pkey::PKey::private_key_from_pem(&pem)
                    .expect("openssl reads it")
                    .private_key_to_pkcs8()
                    .expect("PKCS#8 DER");
                loaded.push((format!("{pkcs8} DER"), PrivateKey::from_pem_or_der(&der)));
            }
        }
        let (n, e, d, p, q) = (nat(&v.n), nat(&v.e), nat(&v.d), nat(&v.p), nat(&v.q));
        loaded.push((
            format!("{} components", v.file),
            PrivateKey::from_components(&n, &e, &d, Some(&p), Some(&q)),
        ));
        loaded.push((
            format!("{} without p, q", v.file),
            PrivateKey::from_components(&n, &e, &d, None, None),
        ));
        for (what, key) in loaded {
            let key = key.unwrap_or_else(|err| panic!("{what}: {err}"));
            let mut primes = [big(key.primes()[0]), big(key.primes()[1])];
            primes.sort();
            let mut want = [v.p.clone(), v.q.clone()];
            want.sort();
            assert_eq!(primes, want, "{what}: primes");
            assert_eq!(big(key.d()), v.d, "{what}: d");
            check_key(&key, v, &what);
        }
    }
}

#[test]
fn public_keys_load_from_every_encoding() {
    for bits in [1024, 2048, 3072, 4096] {
        let pem = vector(&format!("rsa{bits}-pkcs1.pem"));
        let ossl = openssl::rsa::Rsa::private_key_from_pem(&pem).expect("openssl");
        let n = BigUint::from_bytes_be(&ossl.n().to_vec());
        let encodings: Vec<(&str, Vec<u8>)> = vec![
            ("private PEM", pem.clone()),
            (
                "PKCS#1 public PEM",
                ossl.public_key_to_pem_pkcs1().expect("pem"),
            ),
            (
                "PKCS#1 public DER",
                ossl.public_key_to_der_pkcs1().expect("der"),
            ),
            ("SPKI PEM", ossl.public_key_to_pem().expect("pem")),
            ("SPKI DER", ossl.public_key_to_der().expect("der")),
        ];
        for (what, data) in encodings {
            let key = PublicKey::from_pem_or_der(&data).unwrap_or_else(|e| panic!("{what}: {e}"));
            assert_eq!(big(key.n()), n, "{bits} {what}");
            assert_eq!(key.bits(), bits);
        }
    }
}

/// A probable prime test on num-bigint (Miller-Rabin, 32 random bases, after trial division),
/// independent of the library.
fn is_probable_prime(n: &BigUint, rng: &mut StdRng) -> bool {
    for p in [2u32, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47] {
        if n == &BigUint::from(p) {
            return true;
        }
        if (n % p).is_zero() {
            return false;
        }
    }
    let n1 = n - 1u32;
    let s = n1.trailing_zeros().expect("n > 1");
    let d = &n1 >> s;
    'bases: for _ in 0..32 {
        let a = rng.gen_biguint_range(&BigUint::from(2u32), &n1);
        let mut x = a.modpow(&d, n);
        if x.is_one() || x == n1 {
            continue;
        }
        for _ in 1..s {
            x = &x * &x % n;
            if x == n1 {
                continue 'bases;
            }
        }
        return false;
    }
    true
}

fn random_prime(bits: u64, rng: &mut StdRng) -> BigUint {
    loop {
        let mut c = rng.gen_biguint(bits);
        c.set_bit(bits - 1, true);
        c.set_bit(bits - 2, true);
        c.set_bit(0, true);
        if is_probable_prime(&c, rng) {
            return c;
        }
    }
}

/// (n, e, d, p, q) with primes of the given sizes, d = e^{-1} mod lcm(p - 1, q - 1).
fn random_key(
    bits: [u64; 2],
    e: u32,
    rng: &mut StdRng,
) -> (BigUint, BigUint, BigUint, BigUint, BigUint) {
    loop {
        let (p, q) = (random_prime(bits[0], rng), random_prime(bits[1], rng));
        let lambda = (&p - 1u32).lcm(&(&q - 1u32));
        let e = BigUint::from(e);
        let Some(d) = e.modinv(&lambda) else { continue };
        if p != q {
            return (&p * &q, e, d, p, q);
        }
    }
}

/// Keys made here (balanced and unbalanced primes, e = 65537 and e = 3) against num-bigint's
/// modpow with d and GMP's, for 0, 1, n - 1 and random inputs, on every tier this CPU has
/// (the key's contexts follow `MODRED_CPU`, so the CI tier runs cover the others).
#[test]
fn random_keys_match_modpow_with_d() {
    let mut rng = StdRng::seed_from_u64(0x5151_7777);
    let mut checked = 0;
    for (bits, e) in [
        ([256, 256], 65537),
        ([384, 384], 65537),
        ([512, 512], 65537),
        ([512, 512], 3),
        ([320, 448], 65537),
        ([768, 256], 65537),
        ([1024, 1024], 65537),
    ] {
        let (n, e, d, p, q) = random_key(bits, e, &mut rng);
        let key = PrivateKey::from_components(
            &nat(&n),
            &nat(&e),
            &nat(&d),
            Some(&nat(&p)),
            Some(&nat(&q)),
        )
        .unwrap_or_else(|err| panic!("{bits:?}: {err}"));
        let mut inputs = vec![BigUint::zero(), BigUint::one(), &n - 1u32, &n - 2u32];
        inputs.extend((0..6).map(|_| rng.gen_biguint_below(&n)));
        for x in inputs {
            let s = big(&key.private_op(&nat(&x)).expect("x < n"));
            assert_eq!(s, x.modpow(&d, &n), "{bits:?} e={e}: num-bigint");
            let gmp = to_rug(&x).pow_mod(&to_rug(&d), &to_rug(&n)).expect("n > 0");
            assert_eq!(to_rug(&s), gmp, "{bits:?} e={e}: GMP");
            assert_eq!(
                big(&key.public_key().public_op(&nat(&s)).expect("s < n")),
                x
            );
            checked += 1;
        }
    }
    assert_eq!(checked, 7 * 10);
}

/// One key used by many threads at once (and more than `BLINDING_USES` times, so blinding
/// factors are renewed under contention).
#[test]
fn one_key_shared_by_threads() {
    let key = PrivateKey::from_pem_or_der(&vector("rsa1024-pkcs1.pem")).expect("key");
    let v = &vector_keys()[0];
    std::thread::scope(|s| {
        for t in 0..4 {
            // Two threads share the key itself, two use clones (own blinding factors).
            let owned = (t % 2 == 1).then(|| key.clone());
            let key = &key;
            s.spawn(move || {
                let key = owned.as_ref().unwrap_or(key);
                for i in 0..3 * modred::rsa::BLINDING_USES as usize {
                    let [x, want, _] = &v.cases[(i + t) % v.cases.len()];
                    assert_eq!(big(&key.private_op(&nat(x)).expect("ok")), *want);
                }
            });
        }
    });
}

fn invalid_key(r: Result<PrivateKey, Error>, what: &str) {
    match r {
        Err(Error::InvalidKey(msg)) => assert!(!msg.is_empty(), "{what}"),
        Err(other) => panic!("{what}: expected InvalidKey, got {other:?}"),
        Ok(_) => panic!("{what}: accepted"),
    }
}

/// Bad keys are errors naming the problem, never a panic or a key.
#[test]
fn bad_keys_are_errors() {
    let v = &vector_keys()[1];
    let (n, e, d, p, q) = (nat(&v.n), nat(&v.e), nat(&v.d), nat(&v.p), nat(&v.q));
    let one = Natural::one();
    let comps =
        |n: &Natural, e: &Natural, d: &Natural, p: Option<&Natural>, q: Option<&Natural>| {
            PrivateKey::from_components(n, e, d, p, q)
        };
    let p2 = &p + &Natural::from(2u64);
    invalid_key(comps(&n, &e, &d, Some(&p2), Some(&q)), "p q != n");
    invalid_key(
        comps(&n, &e, &(&d + &Natural::from(2u64)), Some(&p), Some(&q)),
        "wrong d",
    );
    invalid_key(
        comps(&n, &e, &(&d + &Natural::from(2u64)), None, None),
        "wrong d, no primes",
    );
    invalid_key(comps(&n, &e, &d, Some(&p), None), "one prime");
    let even_n = &n + &one;
    invalid_key(comps(&even_n, &e, &d, None, None), "even modulus");
    invalid_key(
        comps(&n, &Natural::from(4u64), &d, Some(&p), Some(&q)),
        "even e",
    );
    invalid_key(
        comps(&n, &Natural::from(1u64), &d, Some(&p), Some(&q)),
        "e = 1",
    );
    invalid_key(comps(&n, &e, &n, Some(&p), Some(&q)), "d = n");
    invalid_key(comps(&n, &e, &Natural::zero(), Some(&p), Some(&q)), "d = 0");
    let square = &p * &p;
    invalid_key(comps(&square, &e, &d, Some(&p), Some(&p)), "p = q");
    let small = Natural::from(3u64 * 5);
    invalid_key(
        comps(
            &small,
            &Natural::from(3u64),
            &Natural::from(3u64),
            None,
            None,
        ),
        "tiny n",
    );
    let huge = &Natural::power_of_two(16385) + &one;
    invalid_key(comps(&huge, &e, &d, None, None), "n above 16384 bits");
    // Encodings.
    let pem = vector("rsa2048-pkcs1.pem");
    let der = openssl::rsa::Rsa::private_key_from_pem(&pem)
        .expect("openssl")
        .private_key_to_der()
        .expect("der");
    for cut in [0, 1, 10, der.len() / 2, der.len() - 1] {
        invalid_key(PrivateKey::from_pem_or_der(&der[..cut]), "truncated DER");
    }
    let mut flipped = der.clone();
    let at = flipped.len() - 40;
    flipped[at] ^= 0x10; // inside qinv: parses, fails the check
    invalid_key(PrivateKey::from_pem_or_der(&flipped), "qinv corrupted");
    let text = String::from_utf8(pem.clone()).expect("utf-8");
    let garbage = text.replace('A', "*");
    invalid_key(
        PrivateKey::from_pem_or_der(garbage.as_bytes()),
        "garbage PEM",
    );
    invalid_key(PrivateKey::from_pem_or_der(b"hello"), "not a key");
    invalid_key(PrivateKey::from_pem_or_der(b""), "empty");
    let public_pem = openssl::rsa::Rsa::private_key_from_pem(&pem)
        .expect("openssl")
        .public_key_to_pem()
        .expect("pem");
    invalid_key(
        PrivateKey::from_pem_or_der(&public_pem),
        "public key as private",
    );
    let ossl = openssl::rsa::Rsa::private_key_from_pem(&pem).expect("openssl");
    let cipher = openssl::symm::Cipher::aes_128_cbc();
    let traditional = ossl
        .private_key_to_pem_passphrase(cipher, b"secret")
        .expect("pem");
    invalid_key(
        PrivateKey::from_pem_or_der(&traditional),
        "encrypted PKCS#1 PEM",
    );
    let pkey = openssl::pkey::PKey::from_rsa(ossl).expect("pkey");
    let pkcs8 = pkey
        .private_key_to_pem_pkcs8_passphrase(cipher, b"secret")
        .expect("pem");
    invalid_key(PrivateKey::from_pem_or_der(&pkcs8), "encrypted PKCS#8 PEM");
    let ec = openssl::ec::EcKey::generate(
        &openssl::ec::EcGroup::from_curve_name(openssl::nid::Nid::X9_62_PRIME256V1).expect("curve"),
    )
    .expect("ec key");
    let ec_pem = openssl::pkey::PKey::from_ec_key(ec)
        .expect("pkey")
        .private_key_to_pem_pkcs8()
        .expect("pem");
    invalid_key(PrivateKey::from_pem_or_der(&ec_pem), "EC key");
    match PublicKey::from_pem_or_der(
        b"-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n",
    ) {
        Err(Error::InvalidKey(_)) => {}
        other => panic!("certificate label: {other:?}"),
    }
}

/// Inputs not below n are errors; byte inputs may carry leading zeros.
#[test]
fn inputs_not_below_n_are_errors() {
    let key = PrivateKey::from_pem_or_der(&vector("rsa1024-pkcs1.pem")).expect("key");
    let public = key.public_key();
    let n = public.n().clone();
    for x in [n.clone(), &n + &Natural::one(), Natural::power_of_two(2000)] {
        assert!(matches!(key.private_op(&x), Err(Error::InputOutOfRange(_))));
        assert!(matches!(
            public.public_op(&x),
            Err(Error::InputOutOfRange(_))
        ));
        assert!(matches!(
            key.private_op_bytes(&x.to_be_bytes()),
            Err(Error::InputOutOfRange(_))
        ));
    }
    let mut padded = vec![0u8; 300];
    padded[299] = 5;
    let s = key
        .private_op_bytes(&padded)
        .expect("leading zeros are fine");
    assert_eq!(s, key.private_op_bytes(&[5]).expect("5 < n"));
    assert_eq!(
        key.private_op_bytes(&[]).expect("empty is 0"),
        vec![0u8; public.size()]
    );
}

/// The paired kernel against two single constant-time passes, on every tier this CPU has, for
/// every size it serves (2 to 32 limbs, equal and unequal lengths) and edge operands.
#[test]
fn ct_pair_matches_two_single_passes() {
    let mut rng = StdRng::seed_from_u64(99);
    let mut one_pass = 0;
    let mut checked = 0;
    for tier in cpu::available() {
        for (ka, kb) in [
            (2, 2),
            (4, 5),
            (8, 9),
            (12, 12),
            (16, 16),
            (16, 15),
            (17, 19),
            (24, 24),
            (31, 32),
            (32, 32),
            (33, 33),
        ] {
            let modulus = |k: usize, rng: &mut StdRng| {
                let mut m = rng.gen_biguint(64 * k as u64);
                m.set_bit(64 * k as u64 - 1, true);
                m.set_bit(0, true);
                m
            };
            let (ma, mb) = (modulus(ka, &mut rng), modulus(kb, &mut rng));
            let a = Modulus::with_tier(&nat(&ma), ReducerKind::Auto, tier).expect("odd");
            let b = Modulus::with_tier(&nat(&mb), ReducerKind::Auto, tier).expect("odd");
            let pair = CtPair::new(&a, &b).expect("odd moduli");
            one_pass += usize::from(pair.is_one_pass());
            let kmax = ka.max(kb) as u64;
            let operands = |m: &BigUint, rng: &mut StdRng| {
                vec![
                    BigUint::zero(),
                    BigUint::one(),
                    m - 1u32,
                    rng.gen_biguint_below(m),
                ]
            };
            let exps = |rng: &mut StdRng| {
                vec![
                    BigUint::zero(),
                    BigUint::one(),
                    (BigUint::one() << (64 * kmax)) - 1u32,
                    rng.gen_biguint(64 * kmax - 3),
                ]
            };
            let (xa, xb, ea, eb) = (
                operands(&ma, &mut rng),
                operands(&mb, &mut rng),
                exps(&mut rng),
                exps(&mut rng),
            );
            for i in 0..4 {
                let (x, y, e, f) = (&xa[i], &xb[(i + 1) % 4], &ea[(i + 2) % 4], &eb[i]);
                let got = pair
                    .pow([&nat(x), &nat(y)], [&nat(e), &nat(f)])
                    .expect("ct");
                assert_eq!(
                    got[0],
                    a.pow_ct(&nat(x), &nat(e)).expect("ct"),
                    "{tier} {ka}/{kb}"
                );
                assert_eq!(
                    got[1],
                    b.pow_ct(&nat(y), &nat(f)).expect("ct"),
                    "{tier} {ka}/{kb}"
                );
                assert_eq!(big(&got[0]), x.modpow(e, &ma));
                let via = a
                    .pow_ct_pair(&nat(x), &nat(e), &b, &nat(y), &nat(f))
                    .expect("ct");
                assert_eq!(via, got);
                checked += 1;
            }
        }
    }
    assert_eq!(checked, cpu::available().len() * 11 * 4);
    if cpu::available().contains(&cpu::Tier::Ifma) {
        assert!(
            one_pass >= 8,
            "the IFMA pair kernel served {one_pass} pairs"
        );
    }
}

/// `CtPair` refuses what `pow_ct` refuses (even moduli, m = 1) with an error.
#[test]
fn ct_pair_refuses_even_moduli() {
    let odd = Modulus::new(&Natural::from(101u64), ReducerKind::Auto).expect("odd");
    let even = Modulus::new(&Natural::from(100u64), ReducerKind::Auto).expect("even");
    let unit = Modulus::new(&Natural::one(), ReducerKind::Auto).expect("m = 1");
    assert!(matches!(
        CtPair::new(&odd, &even),
        Err(Error::InvalidParameter(_))
    ));
    assert!(matches!(
        CtPair::new(&unit, &odd),
        Err(Error::InvalidParameter(_))
    ));
    let r = odd
        .pow_ct_pair(
            &Natural::from(3u64),
            &Natural::from(5u64),
            &unit,
            &Natural::from(3u64),
            &Natural::from(5u64),
        )
        .expect("m = 1 gives 0");
    assert_eq!(r, [Natural::from(3u64.pow(5) % 101), Natural::zero()]);
}

/// `private_op_many` against the vectors' raw results (every key of `rsa-raw.json`, the
/// lanes serve their primes on the IFMA tier, other tiers run one by one) and against
/// num-bigint's modpow with d for an unbalanced key the lanes do not serve: batches of 0, 1, 2,
/// 5 and 11 inputs with 0, 1, n - 1 and invalid inputs (n, a power of two above n) in their places, and more
/// inputs than `BLINDING_USES` so blinding factors are renewed.
#[test]
fn private_op_many_matches_the_vectors_and_num_bigint() {
    let check = |key: &PrivateKey, n: &BigUint, d: &BigUint, cases: &[[BigUint; 3]], what: &str| {
        let mut inputs: Vec<(Natural, Option<BigUint>)> = cases
            .iter()
            .map(|[x, private, _]| (nat(x), Some(private.clone())))
            .collect();
        for x in [BigUint::zero(), BigUint::one(), n - 1u32] {
            let want = x.modpow(d, n);
            inputs.push((nat(&x), Some(want)));
        }
        inputs.insert(1, (nat(n), None));
        inputs.insert(4, (Natural::power_of_two(n.bits() as usize + 7), None));
        let batch_sizes = [0, 1, 2, 5, 11];
        for size in batch_sizes {
            let batch: Vec<_> = inputs.iter().cycle().take(size).collect();
            let xs: Vec<Natural> = batch.iter().map(|(x, _)| x.clone()).collect();
            let got = key.private_op_many(&xs).expect("threads start");
            assert_eq!(got.len(), size, "{what}");
            for (i, (r, (_, want))) in got.into_iter().zip(&batch).enumerate() {
                match want {
                    Some(want) => assert_eq!(&big(&r.expect("x < n")), want, "{what}: item {i}"),
                    None => assert!(
                        matches!(r, Err(Error::InputOutOfRange(_))),
                        "{what}: item {i}"
                    ),
                }
            }
        }
        // More inputs than one blinding factor serves.
        let many: Vec<Natural> = (0..2 * modred::rsa::BLINDING_USES as usize + 3)
            .map(|i| nat(&cases[i % cases.len()][0]))
            .collect();
        for (i, r) in key
            .private_op_many(&many)
            .expect("threads")
            .into_iter()
            .enumerate()
        {
            assert_eq!(
                big(&r.expect("x < n")),
                cases[i % cases.len()][1],
                "{what}: many {i}"
            );
        }
    };
    for v in vector_keys() {
        let (n, e, d, p, q) = (nat(&v.n), nat(&v.e), nat(&v.d), nat(&v.p), nat(&v.q));
        let key = PrivateKey::from_components(&n, &e, &d, Some(&p), Some(&q)).expect("key");
        check(&key, &v.n, &v.d, &v.cases, &v.file);
    }
    let mut rng = StdRng::seed_from_u64(0x1a2e5);
    let (n, e, d, p, q) = random_key([320, 448], 65537, &mut rng);
    let key =
        PrivateKey::from_components(&nat(&n), &nat(&e), &nat(&d), Some(&nat(&p)), Some(&nat(&q)))
            .expect("key");
    let cases: Vec<[BigUint; 3]> = (0..3)
        .map(|_| {
            let x = rng.gen_biguint_below(&n);
            let s = x.modpow(&d, &n);
            [x, s, BigUint::zero()]
        })
        .collect();
    check(&key, &n, &d, &cases, "320+448 bits");
}

/// A key whose n is past the Karatsuba threshold (4672 bits, 73 limbs: n's constant-time
/// reducer is `montgomery-sos`, and the check's and the blinding factor's public-exponent powers
/// take n's context's fused kernel where it has one, AVX-512 IFMA), primes from GMP, against
/// num-bigint's modpow with d and GMP, one input at a time and in the lanes.
#[test]
fn key_past_the_karatsuba_threshold_matches_modpow() {
    let mut rng = StdRng::seed_from_u64(0x4672);
    let mut prime = || {
        let c = rng.gen_biguint(2336) | (BigUint::from(3u32) << 2334u32);
        let p = to_rug(&c).next_prime();
        BigUint::parse_bytes(format!("{p:x}").as_bytes(), 16).expect("hex")
    };
    let (p, q) = (prime(), prime());
    let e = BigUint::from(65537u32);
    let d = e
        .modinv(&(&p - 1u32).lcm(&(&q - 1u32)))
        .expect("e invertible (seeded primes)");
    let n = &p * &q;
    assert_eq!(n.bits().div_ceil(64), 73);
    let key =
        PrivateKey::from_components(&nat(&n), &nat(&e), &nat(&d), Some(&nat(&p)), Some(&nat(&q)))
            .expect("key");
    let mut inputs = vec![BigUint::zero(), BigUint::one(), &n - 1u32];
    inputs.extend((0..3).map(|_| rng.gen_biguint_below(&n)));
    let want: Vec<BigUint> = inputs
        .iter()
        .map(|x| {
            let s = x.modpow(&d, &n);
            let gmp = to_rug(x).pow_mod(&to_rug(&d), &to_rug(&n)).expect("n > 0");
            assert_eq!(to_rug(&s), gmp, "oracles disagree");
            s
        })
        .collect();
    for (x, want) in inputs.iter().zip(&want) {
        assert_eq!(&big(&key.private_op(&nat(x)).expect("x < n")), want);
    }
    let xs: Vec<Natural> = inputs.iter().map(nat).collect();
    for (got, want) in key
        .private_op_many(&xs)
        .expect("threads")
        .into_iter()
        .zip(&want)
    {
        assert_eq!(&big(&got.expect("x < n")), want);
    }
}
