//! RSA keys from PEM and DER: PKCS#1 (`RSAPrivateKey`, `RSAPublicKey`, RFC 8017 Appendix A.1),
//! PKCS#8 (`PrivateKeyInfo`, RFC 5208) and X.509 `SubjectPublicKeyInfo` (RFC 5280), read with
//! RustCrypto's `pkcs1`, `pkcs8` and `spki` (over `der`); unencrypted keys only.

use crate::error::{Error, Result};
use crate::natural::Natural;
use pkcs1::der::{pem, Decode};
use pkcs1::{RsaPrivateKeyRef, RsaPublicKeyRef, UintRef};
use pkcs8::{PrivateKeyInfoRef, SubjectPublicKeyInfoRef};

/// The integers of a private key as stored (n, e, d, p, q, dp, dq, qinv).
pub(crate) struct PrivateParts {
    pub(crate) n: Natural,
    pub(crate) e: Natural,
    pub(crate) d: Natural,
    pub(crate) p: Natural,
    pub(crate) q: Natural,
    pub(crate) dp: Natural,
    pub(crate) dq: Natural,
    pub(crate) qinv: Natural,
}

fn bad(what: impl core::fmt::Display) -> Error {
    Error::InvalidKey(what.to_string())
}

fn natural(u: UintRef<'_>) -> Natural {
    Natural::from_be_bytes(u.as_bytes())
}

/// The PEM label and DER bytes of `data` when it is PEM text (after any text before the
/// `-----BEGIN` line, as `openssl` writes with `-text`); `None` when it is not PEM at all.
fn pem_document(data: &[u8]) -> Result<Option<(String, Vec<u8>)>> {
    const BEGIN: &[u8] = b"-----BEGIN ";
    let Some(start) = data.windows(BEGIN.len()).position(|w| w == BEGIN) else {
        return Ok(None);
    };
    let text = &data[start..];
    if text.windows(9).any(|w| w == b"ENCRYPTED") {
        return Err(bad(
            "the key is encrypted; decrypt it first (for example `openssl pkey -in KEY -out PLAIN`)",
        ));
    }
    let (label, der) = pem::decode_vec(text).map_err(|e| bad(format!("bad PEM: {e}")))?;
    Ok(Some((label.to_string(), der)))
}

fn pkcs1_private(der: &[u8]) -> Result<PrivateParts> {
    let k =
        RsaPrivateKeyRef::from_der(der).map_err(|e| bad(format!("bad PKCS#1 private key: {e}")))?;
    if k.other_prime_infos.is_some() {
        return Err(bad(
            "multi-prime keys (more than two primes) are not supported",
        ));
    }
    Ok(PrivateParts {
        n: natural(k.modulus),
        e: natural(k.public_exponent),
        d: natural(k.private_exponent),
        p: natural(k.prime1),
        q: natural(k.prime2),
        dp: natural(k.exponent1),
        dq: natural(k.exponent2),
        qinv: natural(k.coefficient),
    })
}

fn pkcs8_private(der: &[u8]) -> Result<PrivateParts> {
    let info = PrivateKeyInfoRef::from_der(der)
        .map_err(|e| bad(format!("bad PKCS#8 private key: {e}")))?;
    if info.algorithm.oid != pkcs1::ALGORITHM_OID {
        return Err(bad(format!(
            "the PKCS#8 key is not an RSA key (algorithm {})",
            info.algorithm.oid
        )));
    }
    pkcs1_private(info.private_key.as_bytes())
}

fn pkcs1_public(der: &[u8]) -> Result<(Natural, Natural)> {
    let k =
        RsaPublicKeyRef::from_der(der).map_err(|e| bad(format!("bad PKCS#1 public key: {e}")))?;
    Ok((natural(k.modulus), natural(k.public_exponent)))
}

fn spki_public(der: &[u8]) -> Result<(Natural, Natural)> {
    let info = SubjectPublicKeyInfoRef::from_der(der)
        .map_err(|e| bad(format!("bad SubjectPublicKeyInfo: {e}")))?;
    if info.algorithm.oid != pkcs1::ALGORITHM_OID {
        return Err(bad(format!(
            "the public key is not an RSA key (algorithm {})",
            info.algorithm.oid
        )));
    }
    let bits = info
        .subject_public_key
        .as_bytes()
        .ok_or_else(|| bad("the public key's bit string has unused bits"))?;
    pkcs1_public(bits)
}

/// A private key's integers from PEM ("RSA PRIVATE KEY" or "PRIVATE KEY") or DER (PKCS#1 or
/// PKCS#8, tried in that order).
pub(crate) fn private_parts(data: &[u8]) -> Result<PrivateParts> {
    match pem_document(data)? {
        Some((label, der)) => match label.as_str() {
            "RSA PRIVATE KEY" => pkcs1_private(&der),
            "PRIVATE KEY" => pkcs8_private(&der),
            other => Err(bad(format!(
                "PEM label '{other}' is not a private key (expected 'RSA PRIVATE KEY' or 'PRIVATE KEY')"
            ))),
        },
        None => pkcs1_private(data).or_else(|_| {
            pkcs8_private(data).map_err(|_| {
                bad("not a PEM or DER RSA private key (PKCS#1 RSAPrivateKey or PKCS#8 PrivateKeyInfo)")
            })
        }),
    }
}

/// A public key's (n, e) from PEM ("RSA PUBLIC KEY", "PUBLIC KEY", or a private key's labels)
/// or DER (PKCS#1 `RSAPublicKey`, `SubjectPublicKeyInfo`, or a private key).
pub(crate) fn public_parts(data: &[u8]) -> Result<(Natural, Natural)> {
    match pem_document(data)? {
        Some((label, der)) => match label.as_str() {
            "RSA PUBLIC KEY" => pkcs1_public(&der),
            "PUBLIC KEY" => spki_public(&der),
            "RSA PRIVATE KEY" => pkcs1_private(&der).map(|k| (k.n, k.e)),
            "PRIVATE KEY" => pkcs8_private(&der).map(|k| (k.n, k.e)),
            other => Err(bad(format!("PEM label '{other}' is not an RSA key"))),
        },
        None => pkcs1_public(data)
            .or_else(|_| spki_public(data))
            .or_else(|_| private_parts(data).map(|k| (k.n, k.e)))
            .map_err(|_| bad("not a PEM or DER RSA key (PKCS#1, SubjectPublicKeyInfo or PKCS#8)")),
    }
}
