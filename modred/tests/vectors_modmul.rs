//! The public ModMul and ModSqr vectors of OpenSSL's `bnmod.txt` (`tests/vectors/`), run
//! through every reducer that accepts each modulus. Negative A or B are first mapped to their non-negative residue mod M.
//! A missing vector file fails the test.

mod common;

use common::bnmod::{self, residue, Stanza};
use common::{assert_rem, nat, reducers_for, vector_path};
use modred::Modulus;
use num_bigint::BigUint;
use num_integer::Integer;

fn stanzas(kind: &str) -> Vec<Stanza> {
    bnmod::load(&vector_path("openssl-bnmod.txt"))
        .into_iter()
        .filter(|s| s.kind() == kind)
        .collect()
}

/// Run `f` with a context of every reducer accepting `m` and the reducer's name; returns how
/// many ran.
fn for_each_reducer(m: &BigUint, mut f: impl FnMut(&Modulus, &str)) -> usize {
    let k = m.to_u64_digits().len();
    let mut ran = 0;
    for info in reducers_for(k) {
        if info.needs_odd && m.is_even() {
            continue;
        }
        let ctx = match Modulus::new(&nat(m), info.kind) {
            Ok(ctx) => ctx,
            // Special-form methods (diminished-radix) serve only moduli of their form.
            Err(modred::Error::UnsupportedModulus { .. }) => continue,
            Err(e) => panic!("{}: modulus rejected: {e}", info.name),
        };
        f(&ctx, info.name);
        ran += 1;
    }
    ran
}

#[test]
fn openssl_modmul_vectors() {
    let v = stanzas("ModMul");
    assert_eq!(v.len(), 400, "expected the 400 ModMul stanzas of bnmod.txt");
    let mut negatives = 0;
    for s in &v {
        let m = s.get_nat("M");
        let (a, b) = (residue(s.get("A"), &m), residue(s.get("B"), &m));
        negatives += usize::from(s.get("A").sign() == num_bigint::Sign::Minus);
        let want = s.get_nat("ModMul");
        assert_eq!(
            (&a * &b) % &m,
            want,
            "line {}: vector disagrees with num-bigint",
            s.line
        );
        let ran = for_each_reducer(&m, |ctx, name| {
            let got = ctx.mul_vartime(&nat(&a), &nat(&b)).unwrap();
            assert_eq!(got, nat(&want), "line {}: {name} mulmod", s.line);
            // The same product through reduce, where the method's bound allows it.
            let x = &a * &b;
            if let Ok(r) = ctx.try_reduce_vartime(&nat(&x)) {
                assert_rem(r.limbs(), &x, &m, &|| {
                    format!("line {}: {name} reduce", s.line)
                });
            }
        });
        assert!(ran >= 3, "line {}: only {ran} reducers ran", s.line);
    }
    assert!(negatives > 0, "the negative-operand stanzas were not seen");
}

#[test]
fn openssl_modsqr_vectors() {
    let v = stanzas("ModSqr");
    assert!(!v.is_empty(), "no ModSqr stanza in bnmod.txt");
    for s in &v {
        let m = s.get_nat("M");
        let a = residue(s.get("A"), &m);
        let want = s.get_nat("ModSqr");
        for_each_reducer(&m, |ctx, name| {
            assert_eq!(
                ctx.sqr_vartime(&nat(&a)).unwrap(),
                nat(&want),
                "line {}: {name} sqrmod",
                s.line
            );
            assert_eq!(
                ctx.mul_vartime(&nat(&a), &nat(&a)).unwrap(),
                nat(&want),
                "line {}: {name}",
                s.line
            );
        });
    }
}
