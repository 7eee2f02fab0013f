//! RSA without padding: modred's `PrivateKey::private_op_bytes` and `PublicKey::public_op_bytes`
//! against OpenSSL's `RSA_private_decrypt` / `RSA_public_encrypt` with `RSA_NO_PADDING`, on the
//! same 2048-, 3072- and 4096-bit keys (the test vectors' `openssl genrsa` keys, e = 65537),
//! as ratios to OpenSSL. The notes name modred's kernel tier and whether OpenSSL's AVX-512 IFMA
//! code is capped (`OPENSSL_ia32cap`).

use super::common::{oracle_powm, short_reason};
use crate::data::Rng;
use crate::harness::{measure_row, Competitor};
use crate::table::{Cell, Row, Table};
use crate::Ctx;
use modred::cpu::Tier;
use modred::rsa::PrivateKey;
use modred::Natural;
use openssl::bn::BigNumRef;
use openssl::pkey::Private;
use openssl::rsa::{Padding, Rsa};
use std::hint::black_box;

const MODRED_PRIV: &str = "modred private_op_bytes";
const OSSL_PRIV: &str = "OpenSSL RSA_private_decrypt (NO_PADDING)";
const MODRED_PUB: &str = "modred public_op_bytes";
const OSSL_PUB: &str = "OpenSSL RSA_public_encrypt (NO_PADDING)";

/// The test vectors' keys (`modred/tests/vectors/rsa`, PKCS#1 PEM from `openssl genrsa`).
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

/// CPUID leaf 7 EBX bits in the second word of `OPENSSL_ia32cap`: AVX512F (16) and
/// AVX512IFMA (21), both required by OpenSSL's IFMA RSA code.
const OSSL_AVX512F: u64 = 1 << 16;
const OSSL_IFMA: u64 = 1 << 21;

/// A number as OpenSSL's `ossl_strtouint64` reads it: `0x` hex, leading-0 octal, or decimal.
fn parse_ossl_u64(s: &str) -> Option<u64> {
    let s = s.trim();
    if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        u64::from_str_radix(h, 16).ok()
    } else if s.len() > 1 && s.starts_with('0') {
        u64::from_str_radix(&s[1..], 8).ok()
    } else {
        s.parse().ok()
    }
}

/// Whether `OPENSSL_ia32cap` (`[~]word0[:[~]word1]`) turns OpenSSL's IFMA code off: its second
/// word clears (`~mask`) or leaves out (a plain value replaces the capability word) AVX512F or
/// AVX512IFMA. `None` when the value cannot be read.
fn ossl_ifma_capped(v: &str) -> Option<bool> {
    let Some((_, w1)) = v.split_once(':') else {
        return Some(false);
    };
    let w1 = w1.trim();
    let need = OSSL_AVX512F | OSSL_IFMA;
    match w1.strip_prefix('~') {
        Some(mask) => parse_ossl_u64(mask).map(|m| m & need != 0),
        None => parse_ossl_u64(w1).map(|m| m & need != need),
    }
}

/// Whether this CPU has AVX-512F and IFMA (whatever modred's tier is capped to).
fn cpu_has_ifma() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512ifma")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// The notes on modred's tier (first) and on OpenSSL's IFMA use in the private operation.
fn tier_notes() -> Vec<String> {
    let tier = modred::cpu::tier();
    let tiers: Vec<String> = modred::cpu::available()
        .iter()
        .map(ToString::to_string)
        .collect();
    let mut notes = vec![format!(
        "modred kernel tier: {tier} (this CPU has {}; `MODRED_CPU=adx|portable` caps it).",
        tiers.join(", ")
    )];
    let how = "to cap it too, set `OPENSSL_ia32cap=\":~0x200000\"` (clears AVX512IFMA) in the \
               environment before starting `modred` (libcrypto reads it when it loads)";
    let modred_capped = tier < Tier::Ifma;
    let ossl = std::env::var("OPENSSL_ia32cap").ok();
    let note = match (cpu_has_ifma(), ossl.as_deref()) {
        (false, v) => format!(
            "OpenSSL ({}): this CPU has no AVX-512 IFMA, so neither library uses it \
             (OPENSSL_ia32cap {}).",
            openssl::version::version(),
            v.map_or("not set".into(), |v| format!("= \"{v}\""))
        ),
        (true, None) if modred_capped => format!(
            "OpenSSL: OPENSSL_ia32cap is not set, so OpenSSL still uses its AVX-512 IFMA RSA \
             code while modred is capped to {tier}: {how}."
        ),
        (true, None) => "OpenSSL: OPENSSL_ia32cap is not set: OpenSSL uses its AVX-512 IFMA RSA \
                         code where it has one, as modred does."
            .into(),
        (true, Some(v)) => match ossl_ifma_capped(v) {
            Some(true) => format!(
                "OpenSSL: OPENSSL_ia32cap=\"{v}\" caps OpenSSL below AVX-512 IFMA{}.",
                if modred_capped {
                    ""
                } else {
                    " (modred still runs ifma)"
                }
            ),
            Some(false) if modred_capped => format!(
                "OpenSSL: OPENSSL_ia32cap=\"{v}\" leaves AVX-512 IFMA on, so OpenSSL still uses \
                 it while modred is capped to {tier}: {how}."
            ),
            Some(false) => format!(
                "OpenSSL: OPENSSL_ia32cap=\"{v}\" leaves AVX-512 IFMA on: OpenSSL uses its IFMA \
                 RSA code where it has one, as modred does."
            ),
            None => format!(
                "OpenSSL: OPENSSL_ia32cap=\"{v}\" could not be read here; whether OpenSSL uses \
                 AVX-512 IFMA is unknown."
            ),
        },
    };
    notes.push(note);
    let version = openssl::version::version();
    if cpu_has_ifma() && version.starts_with("OpenSSL 3.0.") {
        notes.push(format!(
            "{version} has AVX-512 IFMA RSA code for 2048-bit keys only (two 1024-bit primes): \
             its 3072- and 4096-bit rows run the scalar code whatever OPENSSL_ia32cap says."
        ));
    }
    notes
}

/// `len` random bytes with the first one 0 (so below any modulus of `8 len` bits).
fn input_below_n(rng: &mut Rng, len: usize) -> Vec<u8> {
    let mut v: Vec<u8> = (0..len).map(|_| rng.next_u64() as u8).collect();
    v[0] = 0;
    v
}

/// modred's private (`public: false`) or public operation on `x`.
fn modred_op<'a>(label: &str, key: &'a PrivateKey, x: &[u8], public: bool) -> Competitor<'a> {
    let run = move |x: &[u8]| {
        if public {
            key.public_key().public_op_bytes(x)
        } else {
            key.private_op_bytes(x)
        }
    };
    if let Err(e) = run(x) {
        return Competitor::na(label, short_reason(&e.to_string()));
    }
    let x = x.to_vec();
    Competitor::new(label, move |check| {
        let y = run(&x).expect("succeeded once");
        black_box(&y);
        check.then(|| Natural::from_be_bytes(&y))
    })
}

/// OpenSSL's `RSA_private_decrypt` (`public: false`) or `RSA_public_encrypt` on `x`, without
/// padding.
fn ossl_op<'a>(label: &str, rsa: &'a Rsa<Private>, x: &[u8], public: bool) -> Competitor<'a> {
    let run = move |x: &[u8], out: &mut [u8]| {
        if public {
            rsa.public_encrypt(x, out, Padding::NONE)
        } else {
            rsa.private_decrypt(x, out, Padding::NONE)
        }
    };
    let mut out = vec![0u8; rsa.size() as usize];
    if let Err(e) = run(x, &mut out) {
        return Competitor::na(label, short_reason(&e.to_string()));
    }
    let x = x.to_vec();
    Competitor::new(label, move |check| {
        let len = run(&x, &mut out).expect("succeeded once");
        black_box(&out);
        check.then(|| Natural::from_be_bytes(&out[..len]))
    })
}

fn table(id: &str, title: &str, columns: [&str; 2]) -> Table {
    let mut t = Table::new(id, title, "rsa", "µs per operation", "key bits");
    t.columns = columns.map(String::from).to_vec();
    t.reference = Some(columns[1].into());
    t
}

pub fn run(ctx: &mut Ctx) -> Vec<Table> {
    let mut private = table(
        "rsa-private",
        "RSA private operation (CRT, blinding, fault check): modred vs OpenSSL",
        [MODRED_PRIV, OSSL_PRIV],
    );
    let mut public = table(
        "rsa-public",
        "RSA public operation (e = 65537): modred vs OpenSSL",
        [MODRED_PUB, OSSL_PUB],
    );
    for (bits, pem) in KEYS {
        ctx.step(format!("rsa {bits} bits"));
        let label = bits.to_string();
        let mk = PrivateKey::from_pem_or_der(pem.as_bytes()).map_err(|e| e.to_string());
        let ok = Rsa::private_key_from_pem(pem.as_bytes()).map_err(|e| e.to_string());
        // The oracle's key components, from whichever library read the key.
        let parts = match (&mk, &ok) {
            (Ok(k), _) => Some((
                k.public_key().n().clone(),
                k.public_key().e().clone(),
                k.d().clone(),
            )),
            (_, Ok(r)) => {
                let nat = |b: &BigNumRef| Natural::from_be_bytes(&b.to_vec());
                Some((nat(r.n()), nat(r.e()), nat(r.d())))
            }
            _ => None,
        };
        let Some((n, e, d)) = parts else {
            let why = short_reason(mk.as_ref().err().map_or("", String::as_str));
            for t in [&mut private, &mut public] {
                t.rows.push(Row {
                    label: label.clone(),
                    x: Some(bits as f64),
                    cells: vec![Cell::na(format!("key not read: {why}")); 2],
                });
            }
            continue;
        };
        let mut rng = Rng::new(0x45a0_0000 + bits as u64);
        let len = n.bits().div_ceil(8);
        for (t, public_op) in [(&mut private, false), (&mut public, true)] {
            let x = input_below_n(&mut rng, len);
            let exp = if public_op { &e } else { &d };
            let want = oracle_powm(&Natural::from_be_bytes(&x), exp, &n);
            let mut comps = vec![
                match &mk {
                    Ok(k) => modred_op(&t.columns[0], k, &x, public_op),
                    Err(why) => Competitor::na(&t.columns[0], short_reason(why)),
                },
                match &ok {
                    Ok(r) => ossl_op(&t.columns[1], r, &x, public_op),
                    Err(why) => Competitor::na(&t.columns[1], short_reason(why)),
                },
            ];
            let cells = measure_row(&ctx.proto, &want, &mut comps, t);
            t.rows.push(Row {
                label: label.clone(),
                x: Some(bits as f64),
                cells,
            });
        }
    }
    private.note(format!("Raw RSA (no padding) on the test vectors' keys (`modred/tests/vectors/rsa/rsa{{2048,3072,4096}}-pkcs1.pem`, `openssl genrsa`, e = 65537), each loaded into both libraries; input: random bytes of n's length with the first byte 0 (so below n). Both results are checked against GMP's c^d mod n before timing (a mismatch is WRONG and never timed), so modred's and OpenSSL's outputs are equal. modred: `PrivateKey::private_op_bytes` (CRT, blinding factor renewed by squaring and drawn afresh every {} uses, s^e check); OpenSSL (`{}`): `RSA_private_decrypt(RSA_NO_PADDING)` (CRT, blinding on as by default, the same s^e check in `rsa_ossl_mod_exp`). Byte conversions included on both sides.", modred::rsa::BLINDING_USES, openssl::version::version()));
    public.note("Same keys; input: random bytes of n's length with the first byte 0, checked against GMP's x^e mod n. modred: `PublicKey::public_op_bytes` (variable time); OpenSSL: `RSA_public_encrypt(RSA_NO_PADDING)` (`BN_mod_exp_mont` with the key's cached Montgomery context).");
    let mut notes = tier_notes();
    public.note(notes[0].clone());
    public.note("OpenSSL's public operation (`BN_mod_exp_mont`) has no AVX-512 IFMA path: OPENSSL_ia32cap does not change its column.");
    private.notes.append(&mut notes);
    vec![private, public]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn openssl_ia32cap_is_read_like_openssl() {
        assert_eq!(ossl_ifma_capped(":~0x200000"), Some(true));
        assert_eq!(ossl_ifma_capped("~0x0:~0x10000"), Some(true));
        assert_eq!(ossl_ifma_capped(":~0x8"), Some(false));
        assert_eq!(ossl_ifma_capped("0x4000"), Some(false));
        assert_eq!(ossl_ifma_capped(":0"), Some(true));
        assert_eq!(ossl_ifma_capped(":0x210000"), Some(false));
        assert_eq!(ossl_ifma_capped(":~2097152"), Some(true));
        assert_eq!(ossl_ifma_capped(":~010000000"), Some(true));
        assert_eq!(ossl_ifma_capped(":~zz"), None);
    }

    #[test]
    fn keys_have_their_sizes() {
        for (bits, pem) in KEYS {
            let k = PrivateKey::from_pem_or_der(pem.as_bytes()).expect("vector key");
            assert_eq!(k.public_key().bits(), bits);
        }
    }
}
