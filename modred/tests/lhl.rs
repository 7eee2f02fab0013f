//! Lim–Hwang–Lee precomputation reducers (Lim, Hwang, Lee, *Fast Modular Reduction With
//! Precomputation*, JW-ISC '97, §2.4, §3.1, §3.2): carry paths, edge
//! moduli, the diminished-radix special primes and the window exponentiation, against two
//! oracles (num-bigint and GMP via rug).

use modred::exp::table_window;
use modred::reduce::diminished_radix::{self, DiminishedRadix, DrMode};
use modred::reduce::lhl_l1::{fold_top_vartime, LhlL1};
use modred::reduce::lhl_l2::LhlL2;
use modred::reduce::table_constant::FixedMultiplier;
use modred::reduce::{self, auto, Reducer};
use modred::{Error, Limb, Modulus, Natural};
use num_bigint::{BigUint, RandBigInt};
use proptest::prelude::*;
use rand::{rngs::StdRng, Rng, SeedableRng};
use rug::integer::Order;
use rug::Integer;

/// Every general-modulus method of this issue.
const GENERAL: &[&str] = &[
    "table-residue",
    "table-constant",
    "lhl-l1",
    "lhl-l2",
    "table-add-16x16",
    "table-add-8x256",
    "table-add-6x2048",
];

/// The reducer called `name` for `m`.
fn build(name: &str, m: &Natural) -> modred::Result<Box<dyn Reducer>> {
    reduce::build(name.parse()?, m)
}

/// `table_window::pow_window_vartime` with the method called `name`.
fn pow_window(
    name: &str,
    g: &Natural,
    e: &Natural,
    m: &Natural,
    w: usize,
) -> modred::Result<Natural> {
    table_window::pow_window_vartime(name.parse()?, g, e, m, w)
}

fn to_rug(x: &BigUint) -> Integer {
    Integer::from_digits(&x.to_u64_digits(), Order::Lsf)
}

fn rug_to_big(x: &Integer) -> BigUint {
    BigUint::parse_bytes(format!("{x:x}").as_bytes(), 16).unwrap()
}

/// x mod m by both oracles, asserting they agree.
fn oracle_rem(x: &BigUint, m: &BigUint) -> BigUint {
    let a = x % m;
    let b = rug_to_big(&(to_rug(x) % to_rug(m)));
    assert_eq!(a, b, "oracles disagree");
    a
}

fn pow2(e: u64) -> BigUint {
    BigUint::from(1u8) << e
}

fn limbs_of(x: &BigUint, k: usize) -> Vec<Limb> {
    let mut v = x.to_u64_digits();
    v.resize(k, 0);
    v
}

/// Interesting moduli of `k` limbs (plus the random ones).
fn moduli(rng: &mut StdRng, k: usize) -> Vec<BigUint> {
    let bits = 64 * k as u64;
    let mut v = vec![
        pow2(bits) - 1u8,                             // b^k - 1 (all ones)
        pow2(bits - 64) + 1u8,                        // top limb 1, just above b^(k-1)
        pow2(bits - 64) + rng.gen_biguint(20),        // just above b^(k-1)
        pow2(bits) - 1u8 - rng.gen_biguint(30),       // just below b^k
        pow2(bits - 1) + rng.gen_biguint(bits - 1),   // top bit set
        rng.gen_biguint(bits - 13) | pow2(bits - 64), // short top limb
    ];
    if k >= 2 {
        v.push(pow2(bits - 64) + 1u8 + (pow2(bits - 64) - 1u8)); // 2 b^(k-1)
        v.push(pow2(bits - 64) - 1u8 + pow2(bits - 64)); // b^(k-1) + b^(k-1) - 1
    }
    let r = rng.gen_biguint(bits) | pow2(bits - 64);
    v.push(&r | BigUint::from(1u8)); // odd
    v.push((&r >> 1u32) << 1u32); // even
    v.retain(|m| m.bits() > 64 * (k as u64 - 1) && m.bits() <= bits);
    v
}

/// Arguments below b^2k that stress the carry paths.
fn arguments(rng: &mut StdRng, m: &BigUint, k: usize) -> Vec<BigUint> {
    let b2k = pow2(128 * k as u64);
    let m1 = m - 1u8;
    let mut pattern = BigUint::from(0u8);
    for i in 0..2 * k {
        // alternating all-ones / random digits
        let d: u64 = if i % 3 != 2 { u64::MAX } else { rng.gen() };
        pattern |= BigUint::from(d) << (64 * i);
    }
    vec![
        BigUint::from(0u8),
        BigUint::from(1u8),
        m1.clone(),
        m.clone(),
        &m1 * &m1,
        &b2k - 1u8,                       // all-ones digits
        &b2k - 1u8 - rng.gen_biguint(40), // just below b^2k
        &b2k - m,
        pattern,
        rng.gen_biguint(128 * k as u64),
        rng.gen_biguint(64 * k as u64 + 5),
    ]
}

fn check_reducer(r: &dyn Reducer, m: &BigUint, xs: &[BigUint], rng: &mut StdRng) {
    let k = r.len();
    let mut scratch = vec![0; r.scratch_len()];
    let mut out = vec![0; k];
    for x in xs {
        if x.bits() > 128 * k as u64 {
            continue;
        }
        let mut wide = limbs_of(x, 2 * k);
        r.reduce_wide(&mut out, &mut wide, &mut scratch);
        assert_eq!(
            BigUint::from_slice(&to_u32(&out)),
            oracle_rem(x, m),
            "{} reduce_wide m={m:x} x={x:x}",
            r.name()
        );
    }
    // mul / sqr through the representation, directly.
    for _ in 0..3 {
        let a = rng.gen_biguint_below(m);
        let b = if rng.gen_bool(0.3) {
            m - 1u8
        } else {
            rng.gen_biguint_below(m)
        };
        let (mut ar, mut br, mut pr, mut res) = (vec![0; k], vec![0; k], vec![0; k], vec![0; k]);
        r.to_repr(&mut ar, &limbs_of(&a, k), &mut scratch);
        r.to_repr(&mut br, &limbs_of(&b, k), &mut scratch);
        r.mul(&mut pr, &ar, &br, &mut scratch);
        r.from_repr(&mut res, &pr, &mut scratch);
        assert_eq!(to_big(&res), oracle_rem(&(&a * &b), m), "{} mul", r.name());
        r.sqr(&mut pr, &ar, &mut scratch);
        r.from_repr(&mut res, &pr, &mut scratch);
        assert_eq!(to_big(&res), oracle_rem(&(&a * &a), m), "{} sqr", r.name());
        r.from_repr(&mut res, r.one(), &mut scratch);
        assert_eq!(
            to_big(&res),
            oracle_rem(&BigUint::from(1u8), m),
            "{} one",
            r.name()
        );
    }
}

fn to_u32(x: &[Limb]) -> Vec<u32> {
    x.iter()
        .flat_map(|&l| [l as u32, (l >> 32) as u32])
        .collect()
}

fn to_big(x: &[Limb]) -> BigUint {
    BigUint::from_slice(&to_u32(x))
}

#[test]
fn general_methods_edge_moduli_and_carry_arguments() {
    let mut rng = StdRng::seed_from_u64(3);
    for k in [1usize, 2, 3, 4, 5, 7, 8, 9, 16, 17, 31, 32, 33, 48, 64, 65] {
        for m in moduli(&mut rng, k) {
            let xs = arguments(&mut rng, &m, k);
            let mn = Natural::from(&m);
            for name in GENERAL {
                if name.starts_with("table-add") && k > 33 && !m.bit(0) {
                    continue; // large tables: odd moduli suffice at these sizes
                }
                let r = build(name, &mn).unwrap();
                check_reducer(&*r, &m, &xs, &mut rng);
                // And through Modulus.
                let ctx = Modulus::new(&mn, name.parse().unwrap()).unwrap();
                let x = &xs[4];
                assert_eq!(
                    ctx.try_reduce_vartime(&Natural::from(x))
                        .unwrap()
                        .to_biguint(),
                    x % &m
                );
                let (a, b) = (&xs[2], &xs[9] % &m);
                assert_eq!(
                    ctx.mul_vartime(&Natural::from(a), &Natural::from(&b))
                        .unwrap()
                        .to_biguint(),
                    oracle_rem(&(a * &b), &m)
                );
                assert_eq!(
                    ctx.sqr_vartime(&Natural::from(&b)).unwrap().to_biguint(),
                    oracle_rem(&(&b * &b), &m)
                );
            }
        }
    }
}

#[test]
fn tiny_moduli() {
    let mut rng = StdRng::seed_from_u64(4);
    for m in [
        1u64,
        2,
        3,
        4,
        5,
        7,
        255,
        1 << 32,
        u64::MAX - 58,
        u64::MAX - 1,
        u64::MAX,
    ] {
        let mb = BigUint::from(m);
        let xs = arguments(&mut rng, &mb, 1);
        for name in GENERAL {
            let r = build(name, &Natural::from(m)).unwrap();
            if m == 1 {
                // mul/sqr of values < 1 are trivially 0; reduce_wide still checked.
                let mut s = vec![0; r.scratch_len()];
                for x in &xs {
                    let mut w = limbs_of(x, 2);
                    let mut out = [7];
                    r.reduce_wide(&mut out, &mut w, &mut s);
                    assert_eq!(out[0], 0, "{name} m=1");
                }
                continue;
            }
            check_reducer(&*r, &mb, &xs, &mut rng);
        }
    }
}

/// Fig. 4's final-carry fix-up: all-ones digits make the window overflow.
#[test]
fn l1_final_carry_path_is_taken_and_correct() {
    let mut rng = StdRng::seed_from_u64(5);
    let mut total = 0;
    for k in [1usize, 2, 3, 4, 8, 16, 33] {
        for delta in [1usize, 2, 3, 4] {
            for _ in 0..4 {
                let m =
                    rng.gen_biguint(64 * k as u64) | pow2(64 * k as u64 - 1) | BigUint::from(1u8);
                let l1 = LhlL1::with_delta(&limbs_of(&m, k), delta).unwrap();
                let mut s = vec![0; l1.scratch_len()];
                for x in [pow2(128 * k as u64) - 1u8, pow2(128 * k as u64) - 2u8] {
                    let mut z = limbs_of(&x, 2 * k);
                    let mut out = vec![0; k];
                    total += l1.reduce_into_vartime(&mut out, &mut z, &mut s);
                    assert_eq!(to_big(&out), oracle_rem(&x, &m), "k={k} delta={delta}");
                }
            }
        }
    }
    assert!(total > 0, "the final-carry fix-up was never exercised");
    // fold_top directly: after folding, z has k + delta limbs and the same residue.
    let m = pow2(255) + 12345u32;
    let np_big = pow2(64 * 6) % &m;
    let np = limbs_of(&np_big, 4);
    let x = pow2(512) - 1u8;
    let mut z = limbs_of(&x, 8);
    let fixups = fold_top_vartime(&mut z, &np, 2);
    assert!(fixups > 0);
    assert!(z[6..].iter().all(|&l| l == 0));
    assert_eq!(to_big(&z) % &m, oracle_rem(&x, &m));
    // delta = 0 is refused with a pointer to diminished-radix.
    match LhlL1::with_delta(&[12345], 0) {
        Err(Error::InvalidParameter(msg)) => assert!(msg.contains("diminished-radix")),
        other => panic!("{other:?}"),
    }
    // ... and by fold_top itself, which would otherwise drop carries (as with an empty n').
    for (np, delta) in [(&np[..], 0), (&[][..], 2)] {
        let mut z = limbs_of(&x, 8);
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            fold_top_vartime(&mut z, np, delta)
        }));
        let msg = r.expect_err("fold_top accepted it");
        assert!(msg.downcast_ref::<&str>().unwrap().starts_with("fold_top"));
    }
}

/// `table-add` with a shape of one's own: shapes whose fields do not fit a digit are
/// `InvalidParameter`, one with tables too large to reserve `TooLarge`, and a valid one reduces
/// like the oracle.
#[test]
fn table_add_custom_shapes() {
    use modred::reduce::table_add::{Shape, TableAdd};
    let m = [0x1234_5678_9abc_def1u64, 0x0fed_cba9];
    for (bits, fields) in [(0, 4), (4, 1), (4, 17), (64, 2), (32, 3), (13, 6), (1, 66)] {
        let shape = Shape { bits, fields };
        match TableAdd::new("custom", shape, &m) {
            Err(Error::InvalidParameter(msg)) => assert!(msg.contains("fields"), "{msg}"),
            other => panic!("{bits}x{fields}: {other:?}"),
        }
    }
    let huge = Shape { bits: 1, fields: 2 };
    assert_eq!(huge.top_bits(), 63);
    assert_eq!(huge.rows(), usize::MAX);
    assert!(matches!(
        TableAdd::new("custom", huge, &m),
        Err(Error::TooLarge { .. })
    ));
    let shape = Shape {
        bits: 13,
        fields: 5,
    };
    assert_eq!(shape.rows(), 4 * 8192 + 6 * 4096 + 6);
    let r = TableAdd::new("custom", shape, &m).unwrap();
    let mut rng = StdRng::seed_from_u64(0x7ab1e);
    let mb = to_big(&m);
    for _ in 0..200 {
        let x: Vec<Limb> = (0..4).map(|_| rng.gen()).collect();
        let mut wide = x.clone();
        let mut out = vec![0; 2];
        let mut scratch = vec![0; r.scratch_len()];
        r.reduce_wide(&mut out, &mut wide, &mut scratch);
        assert_eq!(to_big(&out), oracle_rem(&to_big(&x), &mb));
    }
}

#[test]
fn l1_l2_delta_variants() {
    let mut rng = StdRng::seed_from_u64(6);
    for k in [1usize, 2, 3, 5, 6, 11, 32, 33] {
        for delta in [1usize, 2, 3, 4, 7] {
            let m = rng.gen_biguint(64 * k as u64) | pow2(64 * (k as u64 - 1));
            let xs = arguments(&mut rng, &m, k);
            let ml = limbs_of(&m, k);
            check_reducer(&LhlL1::with_delta(&ml, delta).unwrap(), &m, &xs, &mut rng);
            check_reducer(&LhlL2::with_delta(&ml, delta).unwrap(), &m, &xs, &mut rng);
        }
    }
}

#[test]
fn fixed_multiplier_matches_oracles() {
    let mut rng = StdRng::seed_from_u64(7);
    for k in [1usize, 2, 3, 8, 17, 40] {
        for m in moduli(&mut rng, k) {
            let c = rng.gen_biguint(64 * k as u64 + 30); // reduced by the constructor
            let fm = FixedMultiplier::new(&c.to_u64_digits(), &limbs_of(&m, k)).unwrap();
            assert_eq!(fm.table_limbs(), k * k);
            for x in [
                BigUint::from(0u8),
                pow2(64 * k as u64) - 1u8, // x need not be < m
                &m - 1u8,
                rng.gen_biguint(64 * k as u64),
            ] {
                let got = to_big(&fm.mul_vartime(&limbs_of(&x, k)));
                assert_eq!(got, oracle_rem(&(&c * &x), &m));
            }
            // Longer than m: reduced first, not cut to k limbs.
            let x = rng.gen_biguint(64 * 2 * k as u64) | pow2(64 * 2 * k as u64 - 1);
            let got = to_big(&fm.mul_vartime(&limbs_of(&x, 2 * k + 1)));
            assert_eq!(got, oracle_rem(&(&c * &x), &m), "k={k}: x of 2k limbs");
        }
    }
    assert!(matches!(
        FixedMultiplier::new(&[3], &[0]),
        Err(Error::ZeroModulus)
    ));
}

fn special_primes() -> Vec<(&'static str, BigUint)> {
    let modp = |hex: &str| BigUint::parse_bytes(hex.as_bytes(), 16).unwrap();
    // RFC 3526 groups 5 (1536-bit) and 14 (2048-bit): 2^n - 2^(n-64) - 1 + 2^64 floor(...).
    let modp1536 = modp(concat!(
        "FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B139B22514A0879",
        "8E3404DDEF9519B3CD3A431B302B0A6DF25F14374FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B",
        "0BFF5CB6F406B7EDEE386BFB5A899FA5AE9F24117C4B1FE649286651ECE45B3DC2007CB8A163BF0598DA4836",
        "1C55D39A69163FA8FD24CF5F83655D23DCA3AD961C62F356208552BB9ED529077096966D670C354E4ABC9804",
        "F1746C08CA237327FFFFFFFFFFFFFFFF"
    ));
    let modp2048 = modp(concat!(
        "FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B139B22514A0879",
        "8E3404DDEF9519B3CD3A431B302B0A6DF25F14374FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B",
        "0BFF5CB6F406B7EDEE386BFB5A899FA5AE9F24117C4B1FE649286651ECE45B3DC2007CB8A163BF0598DA4836",
        "1C55D39A69163FA8FD24CF5F83655D23DCA3AD961C62F356208552BB9ED529077096966D670C354E4ABC9804",
        "F1746C08CA18217C32905E462E36CE3BE39E772C180E86039B2783A2EC07A28FB5C55DF06F4C52C9DE2BCBF6",
        "955817183995497CEA956AE515D2261898FA051015728E5A8AACAA68FFFFFFFFFFFFFFFF"
    ));
    vec![
        ("2^255-19", pow2(255) - 19u8),
        ("secp256k1", pow2(256) - pow2(32) - 977u32),
        ("2^521-1", pow2(521) - 1u8),
        ("2^607-1", pow2(607) - 1u8),
        ("2^1279-1", pow2(1279) - 1u8),
        ("MODP-1536", modp1536),
        ("MODP-2048", modp2048),
    ]
}

#[test]
fn diminished_radix_special_primes() {
    let mut rng = StdRng::seed_from_u64(8);
    for (label, p) in special_primes() {
        let k = p.to_u64_digits().len();
        let pl = limbs_of(&p, k);
        let form = diminished_radix::detect(&pl).unwrap_or_else(|| panic!("{label} not detected"));
        assert_eq!(pow2(form.bits as u64) - to_big(&form.c), p, "{label} form");
        let expected_mode = if label.starts_with("MODP") {
            DrMode::Digit
        } else {
            DrMode::Block
        };
        assert_eq!(form.mode, expected_mode, "{label}");
        let dr = DiminishedRadix::new(&pl).unwrap();
        let xs = arguments(&mut rng, &p, k);
        check_reducer(&dr, &p, &xs, &mut rng);
        for _ in 0..20 {
            let x = rng.gen_biguint(128 * k as u64);
            check_reducer(&dr, &p, &[x], &mut rng);
        }
    }
    // auto: pseudo-Mersenne moduli with a one-limb c go to diminished-radix above the sizes
    // where montgomery-fast's unrolled CIOS is faster (tuning::FIXED_CIOS_MAX_LIMBS).
    for (label, p) in special_primes() {
        let pl = p.to_u64_digits();
        let chosen = auto::choose(&pl, auto::Workload::Repeated).name;
        if label.starts_with("MODP") || pl.len() <= modred::tuning::FIXED_CIOS_MAX_LIMBS {
            assert_ne!(chosen, "diminished-radix", "{label}");
        } else {
            assert_eq!(chosen, "diminished-radix", "{label}");
        }
    }
}

#[test]
fn diminished_radix_random_moduli_and_refusals() {
    let mut rng = StdRng::seed_from_u64(9);
    for k in [1usize, 2, 3, 4, 6, 9, 16, 24, 32, 64] {
        for c_bits in [
            1u64,
            5,
            32,
            63,
            64,
            100,
            64 * (k as u64 / 2),
            64 * (k as u64) - 64,
        ] {
            for sh in [0u64, 1, 17, 63] {
                let e = 64 * k as u64 - sh;
                if c_bits == 0 || (k == 1 && c_bits + 32 > e) || (k > 1 && c_bits + 64 > e) {
                    continue;
                }
                let c = rng.gen_biguint(c_bits) | pow2(c_bits - 1);
                if c >= pow2(e) {
                    continue;
                }
                let m = pow2(e) - &c;
                let ml = m.to_u64_digits();
                let dr = DiminishedRadix::new(&ml)
                    .unwrap_or_else(|err| panic!("k={k} e={e} c_bits={c_bits}: {err}"));
                assert_eq!(to_big(&dr.form().c), c);
                let xs = arguments(&mut rng, &m, ml.len());
                check_reducer(&dr, &m, &xs, &mut rng);
            }
        }
    }
    // Not of the form: clear error.
    for m in [
        BigUint::from(1u8),
        BigUint::from(3u8),
        pow2(255) + 19u8,
        pow2(256) - pow2(200),
        pow2(1000) + 1u8,
    ] {
        match build("diminished-radix", &Natural::from(&m)) {
            Err(Error::UnsupportedModulus { reducer, reason }) => {
                assert_eq!(reducer, "diminished-radix");
                assert!(reason.contains("2^e - c"), "{reason}");
            }
            other => panic!("{m:x}: {other:?}"),
        }
        assert!(diminished_radix::detect(&m.to_u64_digits()).is_none());
    }
}

#[test]
fn window_exponentiation_every_method() {
    let mut rng = StdRng::seed_from_u64(10);
    let methods: Vec<String> = table_window::methods()
        .iter()
        .map(ToString::to_string)
        .collect();
    for k in [1usize, 2, 4, 8, 17] {
        for odd in [true, false] {
            let mut m = rng.gen_biguint(64 * k as u64) | pow2(64 * k as u64 - 3);
            if odd {
                m |= BigUint::from(1u8);
            } else {
                m = (m >> 1u32) << 1u32;
            }
            let g = rng.gen_biguint(64 * k as u64 + 7);
            let e = rng.gen_biguint(64 * k as u64);
            let want = g.modpow(&e, &m);
            let want_rug = rug_to_big(&to_rug(&g).pow_mod(&to_rug(&e), &to_rug(&m)).unwrap());
            assert_eq!(want, want_rug);
            for method in methods.iter().map(String::as_str) {
                if method == "montgomery-bitserial" && k > 4 {
                    continue;
                }
                for w in [1usize, 4, 5] {
                    let got = pow_window(
                        method,
                        &Natural::from(&g),
                        &Natural::from(&e),
                        &Natural::from(&m),
                        w,
                    );
                    match got {
                        Ok(r) => assert_eq!(r.to_biguint(), want, "{method} k={k} w={w}"),
                        Err(Error::EvenModulus { .. }) if !odd => {}
                        Err(Error::UnsupportedModulus { .. }) if method == "diminished-radix" => {}
                        Err(err) => panic!("{method}: {err}"),
                    }
                }
            }
        }
    }
    // Edge exponents and moduli.
    for method in ["table", "lhl-l1", "lhl-l2", "table-add-8x256", "barrett"] {
        for (g, e, m) in [
            (5u64, 0u64, 7u64),
            (5, 0, 1),
            (0, 0, 9),
            (0, 5, 9),
            (3, 1, 7),
            (9, 9, 1),
        ] {
            let got = pow_window(method, &g.into(), &e.into(), &m.into(), 3).unwrap();
            assert_eq!(
                got.to_biguint(),
                BigUint::from(g).modpow(&BigUint::from(e), &BigUint::from(m)),
                "{method} {g}^{e} mod {m}"
            );
        }
    }
    let p = pow2(255) - 19u8;
    let g = BigUint::from(2u8);
    let e = &p - 2u8;
    let got = pow_window(
        "diminished-radix",
        &(&g).into(),
        &(&e).into(),
        &(&p).into(),
        5,
    )
    .unwrap();
    assert_eq!(got.to_biguint(), g.modpow(&e, &p));
    assert!(matches!(
        pow_window("lhl-l1", &3u64.into(), &3u64.into(), &7u64.into(), 0),
        Err(Error::InvalidParameter(_))
    ));
    assert!(matches!(
        pow_window("nope", &3u64.into(), &3u64.into(), &7u64.into(), 2),
        Err(Error::UnknownName { .. })
    ));
    assert!(matches!(
        pow_window("table", &3u64.into(), &3u64.into(), &0u64.into(), 2),
        Err(Error::ZeroModulus)
    ));
}

fn arb_limbs(max: usize) -> impl Strategy<Value = Vec<u64>> {
    prop::collection::vec(
        prop_oneof![Just(u64::MAX), Just(0u64), Just(1u64), any::<u64>()],
        1..=max,
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn prop_reduce_wide_all_lhl_methods(m in arb_limbs(6), x in arb_limbs(12)) {
        let mb = to_big(&m);
        prop_assume!(mb > BigUint::from(0u8));
        let k = mb.to_u64_digits().len();
        let xb = to_big(&x) % pow2(128 * k as u64);
        let want = oracle_rem(&xb, &mb);
        let mut names: Vec<&str> = GENERAL.to_vec();
        if diminished_radix::detect(&mb.to_u64_digits()).is_some() {
            names.push("diminished-radix");
        }
        for name in names {
            let r = build(name, &Natural::from(&mb)).unwrap();
            let mut s = vec![0; r.scratch_len()];
            let mut w = limbs_of(&xb, 2 * k);
            let mut out = vec![0; k];
            r.reduce_wide(&mut out, &mut w, &mut s);
            prop_assert_eq!(to_big(&out), want.clone(), "{}", name);
        }
    }

    #[test]
    fn prop_diminished_radix(e in 128u64..700, c in 1u64..u64::MAX, x in arb_limbs(24)) {
        let m = pow2(e) - BigUint::from(c);
        let k = m.to_u64_digits().len();
        let xb = to_big(&x) % pow2(128 * k as u64);
        let r = build("diminished-radix", &Natural::from(&m)).unwrap();
        let mut s = vec![0; r.scratch_len()];
        let mut w = limbs_of(&xb, 2 * k);
        let mut out = vec![0; k];
        r.reduce_wide(&mut out, &mut w, &mut s);
        prop_assert_eq!(to_big(&out), oracle_rem(&xb, &m));
    }
}
