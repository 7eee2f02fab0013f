//! Unit tests of the parts the public API cannot reach: the fault check (a bit flipped between
//! the CRT and the check) and the constant-time reduction.

use super::*;
use num_bigint::BigUint;

fn key_1024() -> PrivateKey {
    let pem = include_bytes!("../../tests/vectors/rsa/rsa1024-pkcs1.pem");
    PrivateKey::from_pem_or_der(pem).expect("the vector key loads")
}

fn big(x: &[Limb]) -> BigUint {
    Natural::from_slice(x).to_biguint()
}

/// A fault injected into the recombined value (any bit) is caught: `FaultDetected`, never a
/// wrong answer; without one the same path gives c^d mod n.
#[test]
fn fault_between_crt_and_check_is_detected() {
    let key = key_1024();
    let n = key.public.n.to_biguint();
    let d = key.d.to_biguint();
    let kn = key.public.n.len();
    let c: Vec<Limb> = (0..kn as u64)
        .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15))
        .collect();
    let c = (big(&c) % &n).to_u64_digits();
    let c = padded(&Natural::from_slice(&c), kn);
    let want = big(&c).modpow(&d, &n);
    for bit in [0usize, 1, 63, 64, 500, 64 * kn - 1] {
        let b = key.fresh_blinding().expect("randomness");
        let got = key.private_blinded(&c, b, &mut |s| s[bit / 64] ^= 1 << (bit % 64));
        assert!(
            matches!(got, Err(Error::FaultDetected)),
            "bit {bit}: {got:?}",
            got = got.as_ref().map(|r| big(&r.0))
        );
    }
    let b = key.fresh_blinding().expect("randomness");
    let (s, _) = key.private_blinded(&c, b, &mut |_| {}).expect("no fault");
    assert_eq!(big(&s), want);
}

/// `reduce_ct` against num-bigint for inputs shorter than, as long as and up to three times as
/// long as the modulus, including all-ones and m - 1 and moduli with a small top limb.
#[test]
fn reduce_ct_matches_num_bigint() {
    let mut s: u64 = 0x1234_5678_9abc_def1;
    let mut rnd = || crate::limb::xorshift64(&mut s);
    let mut checked = 0;
    for k in [1usize, 2, 5, 8, 16, 17] {
        for top in [u64::MAX, 1, 0x8000_0000_0000_0000] {
            let mut m: Vec<Limb> = (0..k).map(|_| rnd()).collect();
            m[0] |= 1;
            m[k - 1] = if top == u64::MAX {
                m[k - 1] | 1 << 63
            } else {
                top
            };
            m[0] |= if k == 1 { 3 } else { 1 }; // odd, and above 1
            let modulus = Modulus::new(&Natural::from_slice(&m), ReducerKind::Auto).expect("odd");
            let r = modulus.ct_reducer().expect("odd modulus");
            for len in [1, k, 2 * k, 2 * k + 1, 3 * k] {
                for case in 0..3 {
                    let x: Vec<Limb> = match case {
                        0 => vec![Limb::MAX; len],
                        1 => (0..len).map(|_| rnd()).collect(),
                        _ => padded(
                            &Natural::from_slice(&m)
                                .checked_sub_vartime(&Natural::one())
                                .expect("m >= 1"),
                            k,
                        ),
                    };
                    let got = reduce_ct(&x, &*r);
                    assert_eq!(got.len(), k);
                    assert_eq!(big(&got), big(&x) % big(&m), "k={k} len={len} case={case}");
                    checked += 1;
                }
            }
        }
    }
    assert_eq!(checked, 6 * 3 * 5 * 3);
}
