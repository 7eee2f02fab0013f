//! Competitors shared by the sections: modred reducers through the `Reducer` trait (scratch
//! preallocated, nothing allocated on the timed path), GMP through `rug`, OpenSSL through the
//! `openssl` crate.

use crate::data::{from_bn, from_rug, to_bn, to_rug};
use crate::harness::Competitor;
use modred::reduce::{self, Reducer, WideResult};
use modred::{Limb, Natural};
use openssl::bn::{BigNum, BigNumContext};
use rug::{Assign, Integer};
use std::hint::black_box;

/// Build reducer `name` for `m`, or the reason it cannot serve it (or that there is no such
/// reducer).
pub fn build(name: &str, m: &Natural) -> Result<Box<dyn Reducer>, String> {
    name.parse()
        .and_then(|kind| reduce::build(kind, m))
        .map_err(|e| short_reason(&e.to_string()))
}

/// Error messages shortened for a table cell.
pub fn short_reason(s: &str) -> String {
    let first = s.split(';').next().unwrap_or(s);
    if first.chars().count() > 80 {
        format!("{}…", first.chars().take(77).collect::<String>())
    } else {
        first.to_string()
    }
}

/// `Reducer::reduce_wide` of `x` by reducer `name`. `x` is zero-padded to 2k limbs, as the
/// trait specifies, unless `own_length` (only for methods whose `reduce_wide` takes any
/// length, i.e. `classical`). The timed call includes copying `x` into the destroyed buffer.
/// The cross-check converts a Montgomery-reduced result back (x R^-1 -> x) outside timing.
pub fn reducer_reduce<'a>(
    name: &str,
    label: &str,
    m: &Natural,
    x: &Natural,
    own_length: bool,
) -> Competitor<'a> {
    let r = match build(name, m) {
        Ok(r) => r,
        Err(e) => return Competitor::na(label, e),
    };
    if let Err(why) = r.check_wide(x.limbs()) {
        return Competitor::na(label, why);
    }
    let k = r.len();
    let len = if own_length {
        x.len().clamp(1, 2 * k)
    } else {
        2 * k
    };
    let Some(src) = x.to_padded(len) else {
        return Competitor::na(label, "x has more than 2k limbs");
    };
    let mut buf = src.clone();
    let mut out: Vec<Limb> = vec![0; k];
    let mut scratch: Vec<Limb> = vec![0; r.scratch_len().max(len + 1)];
    Competitor::new(label, move |check| {
        buf.copy_from_slice(&src);
        r.reduce_wide(&mut out, &mut buf, &mut scratch);
        if !check {
            black_box(&out);
            return None;
        }
        let mut res = out.clone();
        if r.wide_result() == WideResult::MontgomeryReduced {
            r.to_repr(&mut res, &out, &mut scratch);
        }
        Some(Natural::from_limbs(res))
    })
}

/// `Reducer::mul(a, b)` on k-limb values in representation (a Montgomery product a b R^-1 for
/// the Montgomery family); the result is compared as is.
pub fn reducer_mul<'a>(
    name: &str,
    label: &str,
    m: &Natural,
    a: &Natural,
    b: &Natural,
) -> Competitor<'a> {
    let r = match build(name, m) {
        Ok(r) => r,
        Err(e) => return Competitor::na(label, e),
    };
    let k = r.len();
    let (Some(a), Some(b)) = (a.to_padded(k), b.to_padded(k)) else {
        return Competitor::na(label, "operands longer than m");
    };
    let mut out: Vec<Limb> = vec![0; k];
    let mut scratch: Vec<Limb> = vec![0; r.scratch_len()];
    Competitor::new(label, move |check| {
        r.mul(&mut out, &a, &b, &mut scratch);
        black_box(&out);
        check.then(|| Natural::from_slice(&out))
    })
}

/// Columns of the reduction figures of Bosselaers, Govaerts, Vandewalle, *Comparison of three
/// modular reduction functions*, CRYPTO '93: its three methods, then GMP and OpenSSL.
pub const SEED000_REDUCTION_COLUMNS: [&str; 5] = [
    "classical",
    "barrett",
    "montgomery-redc",
    "GMP mpz_mod",
    "OpenSSL BN_nnmod",
];

/// The competitors of [`SEED000_REDUCTION_COLUMNS`] reducing `x` mod `m` (classical gets `x`
/// at its own length, the others the 2k-limb argument their reduction takes).
pub fn seed000_reduction_competitors<'a>(m: &Natural, x: &Natural) -> Vec<Competitor<'a>> {
    vec![
        reducer_reduce("classical", "classical", m, x, true),
        reducer_reduce("barrett", "barrett", m, x, false),
        reducer_reduce("montgomery-redc", "montgomery-redc", m, x, false),
        gmp_mod("GMP mpz_mod", x, m),
        ossl_nnmod("OpenSSL BN_nnmod", x, m),
    ]
}

/// GMP `mpz_mod` (rug `modulo`).
pub fn gmp_mod<'a>(label: &str, x: &Natural, m: &Natural) -> Competitor<'a> {
    let (x, m) = (to_rug(x), to_rug(m));
    let mut r = Integer::with_capacity(m.significant_bits() as usize + 64);
    Competitor::new(label, move |check| {
        r.assign(x.modulo_ref(&m));
        black_box(&r);
        check.then(|| from_rug(&r))
    })
}

/// GMP `mpz_mul`.
pub fn gmp_mul<'a>(label: &str, a: &Natural, b: &Natural) -> Competitor<'a> {
    let (a, b) = (to_rug(a), to_rug(b));
    let mut r = Integer::with_capacity((a.significant_bits() + b.significant_bits()) as usize);
    Competitor::new(label, move |check| {
        r.assign(&a * &b);
        black_box(&r);
        check.then(|| from_rug(&r))
    })
}

/// GMP `mpz_mul` by itself (mpz_mul with equal operands takes GMP's squaring path).
pub fn gmp_sqr<'a>(label: &str, a: &Natural) -> Competitor<'a> {
    let a = to_rug(a);
    let mut r = Integer::with_capacity(2 * a.significant_bits() as usize);
    Competitor::new(label, move |check| {
        r.assign(a.square_ref());
        black_box(&r);
        check.then(|| from_rug(&r))
    })
}

/// GMP `mpz_mul` then `mpz_mod`: a b mod m.
pub fn gmp_mulmod<'a>(label: &str, a: &Natural, b: &Natural, m: &Natural) -> Competitor<'a> {
    let (a, b, m) = (to_rug(a), to_rug(b), to_rug(m));
    let mut t = Integer::with_capacity(2 * m.significant_bits() as usize + 64);
    let mut r = Integer::with_capacity(m.significant_bits() as usize + 64);
    Competitor::new(label, move |check| {
        t.assign(&a * &b);
        r.assign(t.modulo_ref(&m));
        black_box(&r);
        check.then(|| from_rug(&r))
    })
}

/// GMP `mpz_powm` (`secure`: `mpz_powm_sec`).
pub fn gmp_powm<'a>(
    label: &str,
    b: &Natural,
    e: &Natural,
    m: &Natural,
    secure: bool,
) -> Competitor<'a> {
    if secure && !m.is_odd() {
        return Competitor::na(label, "mpz_powm_sec needs an odd modulus");
    }
    let (b, e, m) = (to_rug(b), to_rug(e), to_rug(m));
    let mut r = Integer::with_capacity(m.significant_bits() as usize + 64);
    Competitor::new(label, move |check| {
        if secure {
            r.assign(b.secure_pow_mod_ref(&e, &m));
        } else {
            r.assign(b.pow_mod_ref(&e, &m).expect("non-negative exponent"));
        }
        black_box(&r);
        check.then(|| from_rug(&r))
    })
}

/// OpenSSL `BN_nnmod`.
pub fn ossl_nnmod<'a>(label: &str, x: &Natural, m: &Natural) -> Competitor<'a> {
    let (x, m) = (to_bn(x), to_bn(m));
    let mut r = BigNum::new().expect("BN_new");
    let mut ctx = BigNumContext::new().expect("BN_CTX_new");
    Competitor::new(label, move |check| {
        r.nnmod(&x, &m, &mut ctx).expect("BN_nnmod");
        black_box(&r);
        check.then(|| from_bn(&r))
    })
}

/// OpenSSL `BN_mod_mul` (not Montgomery: the crate exposes no BN_MONT_CTX).
pub fn ossl_mod_mul<'a>(label: &str, a: &Natural, b: &Natural, m: &Natural) -> Competitor<'a> {
    let (a, b, m) = (to_bn(a), to_bn(b), to_bn(m));
    let mut r = BigNum::new().expect("BN_new");
    let mut ctx = BigNumContext::new().expect("BN_CTX_new");
    Competitor::new(label, move |check| {
        r.mod_mul(&a, &b, &m, &mut ctx).expect("BN_mod_mul");
        black_box(&r);
        check.then(|| from_bn(&r))
    })
}

/// OpenSSL `BN_mod_exp`: for an odd modulus that is `BN_mod_exp_mont`, and with
/// `consttime` (BN_FLG_CONSTTIME on the exponent) `BN_mod_exp_mont_consttime`. Both build
/// their Montgomery context inside every call, as `mpz_powm` does.
pub fn ossl_mod_exp<'a>(
    label: &str,
    b: &Natural,
    e: &Natural,
    m: &Natural,
    consttime: bool,
) -> Competitor<'a> {
    if consttime && !m.is_odd() {
        return Competitor::na(label, "BN_mod_exp_mont_consttime needs an odd modulus");
    }
    let (b, mut e, m) = (to_bn(b), to_bn(e), to_bn(m));
    if consttime {
        e.set_const_time();
    }
    let mut r = BigNum::new().expect("BN_new");
    let mut ctx = BigNumContext::new().expect("BN_CTX_new");
    Competitor::new(label, move |check| {
        r.mod_exp(&b, &e, &m, &mut ctx).expect("BN_mod_exp");
        black_box(&r);
        check.then(|| from_bn(&r))
    })
}

/// The oracle: `x mod m` by GMP.
pub fn oracle_mod(x: &Natural, m: &Natural) -> Natural {
    from_rug(&Integer::from(to_rug(x).modulo_ref(&to_rug(m))))
}

/// The oracle: `b^e mod m` by GMP.
pub fn oracle_powm(b: &Natural, e: &Natural, m: &Natural) -> Natural {
    from_rug(
        &to_rug(b)
            .pow_mod(&to_rug(e), &to_rug(m))
            .expect("non-negative exponent"),
    )
}
