//! Public vectors for modular exponentiation: OpenSSL's bnmod.txt ModExp stanzas, the
//! go-ethereum MODEXP precompile files, and RSA key pairs made at test time by the `openssl`
//! command.

mod common;

use common::bnmod::{self, Stanza};
use common::nat;
use modred::exp::{self, Method, MethodInfo, Modulus, PowOptions, METHODS};
use modred::{Error, Natural, ReducerKind};
use num_bigint::BigUint;
use rand::{rngs::StdRng, RngCore, SeedableRng};
use std::process::Command;

fn read_vector(name: &str) -> String {
    let p = common::vector_path(name);
    std::fs::read_to_string(&p)
        .unwrap_or_else(|e| panic!("missing vector file {}: {e}", p.display()))
}

/// The methods to run on (e, m): `ct` only for odd m; fixed-base and comb (which precompute
/// once per call) only for exponents up to `max_table_exp_bits`, to keep the run short (they are
/// covered at every size in tests/exp.rs).
fn applicable_methods<'a>(
    e: &'a Natural,
    m: &'a Natural,
    max_table_exp_bits: usize,
) -> impl Iterator<Item = &'static MethodInfo> + 'a {
    METHODS.iter().filter(move |info| match info.method {
        Method::Ct => m.is_odd(),
        Method::FixedBase | Method::Comb => e.bits() <= max_table_exp_bits,
        _ => true,
    })
}

/// Every method with the default reducer; `ct` only where it applies (odd m). Then the same
/// through a `Modulus` on every kernel tier this CPU has.
fn all_methods(b: &Natural, e: &Natural, m: &Natural, want: &Natural, what: &str) {
    for info in applicable_methods(e, m, 4096) {
        let o = PowOptions {
            method: info.method,
            ..PowOptions::default()
        };
        let got = exp::pow_vartime(b, e, m, &o)
            .unwrap_or_else(|err| panic!("{what} {}: {err}", info.name));
        assert_eq!(&got, want, "{what} method {}", info.name);
    }
    on_every_tier(b, e, m, 4096, |how, got| {
        let got = got.unwrap_or_else(|err| panic!("{what} {how}: {err}"));
        assert_eq!(&got, want, "{what} {how}");
    });
}

/// `check(how, b^e mod m)` for every applicable method (see `applicable_methods`) on a
/// `Modulus` ("auto") built for each kernel tier this CPU has, all in this process.
fn on_every_tier(
    b: &Natural,
    e: &Natural,
    m: &Natural,
    max_table_exp_bits: usize,
    mut check: impl FnMut(&str, Result<Natural, Error>),
) {
    for tier in modred::cpu::available() {
        let md = Modulus::with_tier(m, ReducerKind::Auto, tier);
        for info in applicable_methods(e, m, max_table_exp_bits) {
            let o = PowOptions {
                method: info.method,
                ..PowOptions::default()
            };
            let got = md.clone().and_then(|md| md.pow_vartime(b, e, &o));
            check(&format!("tier {tier} method {}", info.name), got);
        }
    }
}

#[test]
fn openssl_bnmod_modexp() {
    let stanzas: Vec<Stanza> = bnmod::load(&common::vector_path("openssl-bnmod.txt"))
        .into_iter()
        .filter(|s| s.kind() == "ModExp")
        .collect();
    for s in &stanzas {
        let (a, e, m, want) = (
            s.get_nat("A"),
            s.get_nat("E"),
            s.get_nat("M"),
            s.get_nat("ModExp"),
        );
        // The oracle agrees (catches parsing mistakes).
        assert_eq!(a.modpow(&e, &m), want, "stanza at line {}", s.line);
        all_methods(
            &nat(&a),
            &nat(&e),
            &nat(&m),
            &nat(&want),
            &format!("bnmod stanza at line {}", s.line),
        );
    }
    assert_eq!(stanzas.len(), 101, "ModExp stanzas found");
}

/// (base, exp, mod, mod_len) decoded from an EVM MODEXP input.
fn decode_modexp(input: &[u8]) -> (Natural, Natural, Natural, usize) {
    let len_at = |i: usize| -> usize {
        let mut w = [0u8; 32];
        for (j, b) in w.iter_mut().enumerate() {
            *b = input.get(32 * i + j).copied().unwrap_or(0);
        }
        assert!(w[..24].iter().all(|&b| b == 0), "absurd length");
        u64::from_be_bytes(w[24..].try_into().unwrap()) as usize
    };
    let (bl, el, ml) = (len_at(0), len_at(1), len_at(2));
    // Right-pad a short input with zeros; ignore bytes past the declared lengths.
    let field = |start: usize, len: usize| -> Vec<u8> {
        (start..start + len)
            .map(|i| input.get(i).copied().unwrap_or(0))
            .collect()
    };
    let b = field(96, bl);
    let e = field(96 + bl, el);
    let m = field(96 + bl + el, ml);
    (
        Natural::from_be_bytes(&b),
        Natural::from_be_bytes(&e),
        Natural::from_be_bytes(&m),
        ml,
    )
}

fn unhex(s: &str) -> Vec<u8> {
    let s = s.trim_start_matches("0x");
    (0..s.len() / 2)
        .map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).unwrap())
        .collect()
}

#[test]
fn go_ethereum_modexp() {
    let mut total = 0;
    for (file, expect) in [
        ("go-ethereum-modexp.json", 17),
        ("go-ethereum-modexp_eip2565.json", 17),
        ("go-ethereum-modexp_eip7883.json", 45),
    ] {
        let cases: serde_json::Value = serde_json::from_str(&read_vector(file)).unwrap();
        let cases = cases.as_array().unwrap();
        assert_eq!(cases.len(), expect, "{file}");
        for c in cases {
            let name = c["Name"].as_str().unwrap();
            let (b, e, m, ml) = decode_modexp(&unhex(c["Input"].as_str().unwrap()));
            let want = unhex(c["Expected"].as_str().unwrap());
            let got_bytes = |x: Result<Natural, Error>| -> Vec<u8> {
                match x {
                    Err(Error::ZeroModulus) => vec![0; ml],
                    Ok(x) => x
                        .to_be_bytes_padded(ml)
                        .expect("result fits the modulus length"),
                    Err(err) => panic!("{file} {name}: {err}"),
                }
            };
            for info in applicable_methods(&e, &m, 8192) {
                let o = PowOptions {
                    method: info.method,
                    ..PowOptions::default()
                };
                let got = got_bytes(exp::pow_vartime(&b, &e, &m, &o));
                assert_eq!(got, want, "{file} {name} method {}", info.name);
            }
            on_every_tier(&b, &e, &m, 8192, |how, got| {
                assert_eq!(got_bytes(got), want, "{file} {name} {how}");
            });
            total += 1;
        }
    }
    assert_eq!(total, 79);
}

/// Run `openssl` with `args`, panicking with its stderr on failure.
fn openssl(args: &[&str]) -> String {
    let out = Command::new("openssl")
        .args(args)
        .output()
        .expect("the openssl command must be installed");
    assert!(
        out.status.success(),
        "openssl {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The hex block after `label` in `openssl pkey -text` output.
fn text_field(text: &str, label: &str) -> Natural {
    let mut lines = text.lines().skip_while(|l| !l.starts_with(label));
    let first = lines.next().unwrap_or_else(|| panic!("no {label}"));
    if let Some((_, rest)) = first.split_once(label) {
        let rest = rest.trim();
        if !rest.is_empty() {
            // "publicExponent: 65537 (0x10001)"
            let dec = rest.split_whitespace().next().unwrap();
            return Natural::parse(dec).unwrap();
        }
    }
    let digits: String = lines
        .take_while(|l| l.starts_with(' '))
        .flat_map(|l| l.trim().split(':').map(str::to_string).collect::<Vec<_>>())
        .collect();
    Natural::parse(&format!("0x{digits}")).unwrap()
}

#[test]
fn rsa_keys_from_openssl() {
    let dir = std::env::temp_dir().join(format!("modred-exp-rsa-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut rng = StdRng::seed_from_u64(2048);
    for bits in [1024usize, 2048, 3072] {
        let key = dir.join(format!("key{bits}.pem"));
        let key_s = key.to_str().unwrap();
        openssl(&[
            "genpkey",
            "-algorithm",
            "RSA",
            "-pkeyopt",
            &format!("rsa_keygen_bits:{bits}"),
            "-out",
            key_s,
        ]);
        let text = openssl(&["pkey", "-in", key_s, "-text", "-noout"]);
        let n = text_field(&text, "modulus:");
        let e = text_field(&text, "publicExponent:");
        let d = text_field(&text, "privateExponent:");
        assert_eq!(n.bits(), bits);
        assert_eq!(e, Natural::from(65537u64));
        let md = Modulus::new(&n, ReducerKind::Auto).unwrap();
        for round in 0..2 {
            // A message below n: leading zero byte, then random bytes.
            let mut msg = vec![0u8; bits / 8];
            rng.fill_bytes(&mut msg[1..]);
            let msg_path = dir.join(format!("msg{bits}-{round}.bin"));
            let sig_path = dir.join(format!("sig{bits}-{round}.bin"));
            std::fs::write(&msg_path, &msg).unwrap();
            // The raw private-key operation m^d mod n. OpenSSL 3's `pkeyutl -sign` refuses
            // inputs longer than a digest with padding "none", so the identical raw operation
            // is requested as `-decrypt` with padding none.
            openssl(&[
                "pkeyutl",
                "-decrypt",
                "-inkey",
                key_s,
                "-pkeyopt",
                "rsa_padding_mode:none",
                "-in",
                msg_path.to_str().unwrap(),
                "-out",
                sig_path.to_str().unwrap(),
            ]);
            let sig_openssl = Natural::from_be_bytes(&std::fs::read(&sig_path).unwrap());
            let m = Natural::from_be_bytes(&msg);
            // Private operation: constant time and every variable-time method.
            let s_ct = md.pow_ct(&m, &d).unwrap();
            assert_eq!(s_ct, sig_openssl, "ct signature {bits}");
            for info in METHODS {
                let o = PowOptions {
                    method: info.method,
                    ..PowOptions::default()
                };
                assert_eq!(
                    md.pow_vartime(&m, &d, &o).unwrap(),
                    sig_openssl,
                    "{bits} {}",
                    info.name
                );
            }
            // Public operation recovers the message: m^(e d) = m; and agrees with OpenSSL's
            // raw public operation.
            assert_eq!(
                md.pow_vartime(&s_ct, &e, &PowOptions::default()).unwrap(),
                m
            );
            let enc_path = dir.join(format!("enc{bits}-{round}.bin"));
            openssl(&[
                "pkeyutl",
                "-encrypt",
                "-inkey",
                key_s,
                "-pkeyopt",
                "rsa_padding_mode:none",
                "-in",
                msg_path.to_str().unwrap(),
                "-out",
                enc_path.to_str().unwrap(),
            ]);
            let enc = Natural::from_be_bytes(&std::fs::read(&enc_path).unwrap());
            assert_eq!(md.pow_vartime(&m, &e, &PowOptions::default()).unwrap(), enc);
            assert_eq!(md.pow_vartime(&enc, &d, &PowOptions::default()).unwrap(), m);
            // Same through the plain function and the oracle.
            let want = BigUint::from(&m).modpow(&BigUint::from(&d), &BigUint::from(&n));
            assert_eq!(BigUint::from(&sig_openssl), want);
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}
