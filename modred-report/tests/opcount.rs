//! Operation counts against the papers' formulas (run with `--features count`).
//!
//! - Koç, Acar, Kaliski, *Analyzing and Comparing Montgomery Multiplication Algorithms*, IEEE
//!   Micro 1996, Table 1: every Montgomery product (SOS, CIOS, FIOS, FIPS, CIHS) takes exactly
//!   2s^2 + s single-precision multiplications and no division;
//! - Bosselaers, Govaerts, Vandewalle, *Comparison of three modular reduction functions*,
//!   CRYPTO '93, Table 1, for a 2k-digit argument: Montgomery reduction k(k+1) multiplications
//!   exactly; Barrett at most k(k+4); classical "about k(k+2.5)" multiplications and k
//!   divisions.
#![cfg(feature = "count")]

use modred::count::{self, measure, OpCounts};
use modred::reduce::{self, Reducer};
use modred::Natural;
use rand::{rngs::StdRng, Rng, SeedableRng};

const SIZES: [usize; 10] = [1, 2, 3, 4, 8, 16, 17, 32, 48, 64];

fn random_modulus(rng: &mut StdRng, k: usize, odd: bool, top_bit: bool) -> Natural {
    let mut m: Vec<u64> = (0..k).map(|_| rng.gen()).collect();
    if top_bit {
        m[k - 1] |= 1 << 63;
    } else {
        m[k - 1] = (m[k - 1] >> 8).max(1);
    }
    if odd {
        m[0] |= 1;
    }
    Natural::from_limbs(m)
}

fn random_below(rng: &mut StdRng, m: &[u64]) -> Vec<u64> {
    let k = m.len();
    let mut x: Vec<u64> = (0..k).map(|_| rng.gen()).collect();
    x[k - 1] %= m[k - 1].max(1);
    x
}

fn build(name: &str, m: &Natural) -> (Box<dyn Reducer>, Vec<u64>) {
    let r = reduce::build(name.parse().unwrap(), m).unwrap();
    let scratch = vec![0; r.scratch_len()];
    (r, scratch)
}

#[test]
fn counting_is_enabled() {
    const { assert!(count::ENABLED) };
    let (_, c) = measure(|| modred::limb::mul_wide(3, 4));
    assert_eq!(c, OpCounts { muls: 1, divs: 0 });
}

/// Koç–Acar–Kaliski 1996 Table 1: 2s^2 + s multiplications for each of the five products, exactly.
#[test]
fn seed002_montgomery_products_2s2_plus_s() {
    let mut rng = StdRng::seed_from_u64(1);
    for name in [
        "montgomery-sos",
        "montgomery-cios",
        "montgomery-fios",
        "montgomery-fips",
        "montgomery-cihs",
    ] {
        for s in SIZES {
            let m = random_modulus(&mut rng, s, true, s % 2 == 0);
            let (r, mut scratch) = build(name, &m);
            let a = random_below(&mut rng, m.limbs());
            let b = random_below(&mut rng, m.limbs());
            let mut out = vec![0; s];
            let ((), c) = measure(|| r.mul(&mut out, &a, &b, &mut scratch));
            let s64 = s as u64;
            assert_eq!(c.muls, 2 * s64 * s64 + s64, "{name} s={s}: multiplications");
            assert_eq!(c.divs, 0, "{name} s={s}: divisions");
        }
    }
}

/// SOS squaring (Koç–Acar–Kaliski 1996 §4): the product takes s(s+1)/2 multiplications instead of
/// s^2, the reduction s^2 + s.
#[test]
fn seed002_sos_squaring() {
    let mut rng = StdRng::seed_from_u64(2);
    for s in SIZES {
        let m = random_modulus(&mut rng, s, true, true);
        let (r, mut scratch) = build("montgomery-sos", &m);
        let a = random_below(&mut rng, m.limbs());
        let mut out = vec![0; s];
        let ((), c) = measure(|| r.sqr(&mut out, &a, &mut scratch));
        let s64 = s as u64;
        assert_eq!(c.muls, s64 * (s64 + 1) / 2 + s64 * s64 + s64, "s={s}");
    }
}

/// Bosselaers et al. 1993 Table 1, Montgomery: k(k+1) multiplications, no division, for a
/// 2k-digit argument, for every Montgomery-family reducer whose reduction is word-by-word REDC.
#[test]
fn seed000_montgomery_reduction_k_k_plus_1() {
    let mut rng = StdRng::seed_from_u64(3);
    for name in [
        "montgomery-redc",
        "montgomery-sos",
        "montgomery-cios",
        "montgomery-fios",
        "montgomery-fips",
        "montgomery-cihs",
    ] {
        for k in SIZES {
            let m = random_modulus(&mut rng, k, true, k % 3 != 0);
            let (r, mut scratch) = build(name, &m);
            // x < m R: top k digits below m.
            let mut x: Vec<u64> = (0..2 * k).map(|_| rng.gen()).collect();
            x[2 * k - 1] %= m.limbs()[k - 1];
            let mut out = vec![0; k];
            let ((), c) = measure(|| r.reduce_wide(&mut out, &mut x, &mut scratch));
            let k64 = k as u64;
            assert_eq!(c.muls, k64 * (k64 + 1), "{name} k={k}");
            assert_eq!(c.divs, 0, "{name} k={k}");
        }
    }
}

/// Bosselaers et al. 1993 Table 1, Barrett: at most k(k+4) multiplications and no division.
#[test]
fn seed000_barrett_at_most_k_k_plus_4() {
    let mut rng = StdRng::seed_from_u64(4);
    let mut failures = Vec::new();
    for k in SIZES {
        let k64 = k as u64;
        for (odd, top) in [(true, true), (false, true), (true, false)] {
            let m = random_modulus(&mut rng, k, odd, top);
            let (r, mut scratch) = build("barrett", &m);
            // The paper's argument: a product of two residues (x < m^2), so the quotient estimate
            // has k digits ("q and n are k-digit numbers"); an arbitrary x < b^2k can need a
            // (k+1)-th quotient digit and one more multiplication.
            let residue = |rng: &mut StdRng| -> Vec<u64> {
                let mut a: Vec<u64> = (0..k).map(|_| rng.gen()).collect();
                a[k - 1] %= m.limbs()[k - 1];
                a
            };
            let (a, b) = (residue(&mut rng), residue(&mut rng));
            let mut x = vec![0u64; 2 * k];
            modred::arith::mul_basecase(&mut x, &a, &b);
            let mut out = vec![0; k];
            let ((), c) = measure(|| r.reduce_wide(&mut out, &mut x, &mut scratch));
            eprintln!(
                "barrett k={k}: {} multiplications, k(k+4) = {}",
                c.muls,
                k64 * (k64 + 4)
            );
            if c.muls > k64 * (k64 + 4) {
                failures.push(format!("k={k}: {} > k(k+4) = {}", c.muls, k64 * (k64 + 4)));
            }
            assert!(c.muls >= k64 * k64, "barrett k={k}: {} < k^2", c.muls);
            assert_eq!(c.divs, 0, "barrett k={k}");
        }
    }
    assert!(failures.is_empty(), "barrett multiplications: {failures:?}");
}

/// Bosselaers et al. 1993 Table 1, classical: "about k(k+2.5)" multiplications and k divisions
/// for a 2k-digit argument and a normalized modulus.
///
/// Each quotient digit costs k multiply-subtract products plus 1 to 3 products qhat*v[n-2] in
/// the refinement test (one u128 comparison per test), typically 1. With k quotient digits
/// that is about k(k+1) + a little; the stated tolerance is [k(k+1), k(k+2.5)] for the mean
/// over random arguments. A division is skipped only when the window's top digit equals the
/// divisor's (qhat = b - 1 shortcut, see the next test), so typical arguments take exactly k.
#[test]
fn seed000_classical_multiplications_and_divisions() {
    let mut rng = StdRng::seed_from_u64(5);
    let mut failures = Vec::new();
    for k in SIZES.into_iter().filter(|&k| k >= 2) {
        let odd: bool = rng.gen();
        let m = random_modulus(&mut rng, k, odd, true);
        let (r, mut scratch) = build("classical", &m);
        let kf = k as f64;
        let (mut total, mut divs) = (0, Vec::new());
        const REPS: u64 = 20;
        for _ in 0..REPS {
            let mut x: Vec<u64> = (0..2 * k).map(|_| rng.gen()).collect();
            let mut out = vec![0; k];
            let ((), c) = measure(|| r.reduce_wide(&mut out, &mut x, &mut scratch));
            total += c.muls;
            divs.push(c.divs);
        }
        let mean = total as f64 / REPS as f64;
        eprintln!(
            "classical k={k}: mean {mean} multiplications (k(k+1) = {}, k(k+2) = {}, k(k+2.5) = {}), divisions {:?}",
            kf * (kf + 1.0),
            kf * (kf + 2.0),
            kf * (kf + 2.5),
            divs
        );
        if !(mean >= kf * (kf + 1.0) && mean <= kf * (kf + 2.5)) {
            failures.push(format!(
                "k={k}: mean {mean} multiplications outside [k(k+1), k(k+2.5)]"
            ));
        }
        if !divs.iter().all(|&d| d == k as u64) {
            failures.push(format!(
                "k={k}: divisions {divs:?}, Bosselaers et al. 1993 Table 1 says k"
            ));
        }
    }
    assert!(failures.is_empty(), "classical: {failures:#?}");
}

/// The qhat = b - 1 shortcut: for x = m b^k - 1 every quotient digit below the top one is
/// b - 1 and each window's top digit equals the normalized modulus' top digit, so those k
/// steps skip their division: exactly k divisions fewer than for a typical argument.
#[test]
fn seed000_classical_shortcut_saves_the_divisions() {
    let mut rng = StdRng::seed_from_u64(6);
    for k in [2usize, 4, 16, 33] {
        let m = random_modulus(&mut rng, k, true, true);
        let (r, mut scratch) = build("classical", &m);
        let mut out = vec![0; k];
        let mut typical: Vec<u64> = (0..2 * k).map(|_| rng.gen()).collect();
        let ((), c_typ) = measure(|| r.reduce_wide(&mut out, &mut typical, &mut scratch));
        // x = m b^k - 1: limbs [b-1; k] ++ (m - 1).
        let mut x = vec![u64::MAX; 2 * k];
        x[k..].copy_from_slice(m.limbs());
        x[k] -= 1; // m is odd, so no borrow
        let mut x2 = x.clone();
        let ((), c) = measure(|| r.reduce_wide(&mut out, &mut x2, &mut scratch));
        let mut m_minus_1 = m.limbs().to_vec();
        m_minus_1[0] -= 1;
        assert_eq!(out, m_minus_1, "k={k}: (m b^k - 1) mod m = m - 1");
        assert_eq!(c_typ.divs - c.divs, k as u64, "k={k}: shortcut steps");
    }
}

/// The `modred-count` binary (the report's counting child) answers each stdin line with the
/// counts of that operation, measured here directly through the kernels, and a bad line with
/// `error: ...` without stopping.
#[test]
fn modred_count_binary_replies_line_by_line() {
    use modred_report::opcount::Op;
    use std::io::Write;
    use std::process::{Command, Stdio};

    let mut rng = StdRng::seed_from_u64(7);
    let k = 4;
    let m = random_modulus(&mut rng, k, true, true);
    let (a, b) = (
        random_below(&mut rng, m.limbs()),
        random_below(&mut rng, m.limbs()),
    );
    let (r, mut scratch) = build("montgomery-cios", &m);
    let mut out = vec![0; k];
    let ((), mul) = measure(|| r.mul(&mut out, &a, &b, &mut scratch));
    let mut wide: Vec<u64> = (0..2 * k).map(|_| rng.gen()).collect();
    wide[2 * k - 1] >>= 1;
    let x = Natural::from_slice(&wide);
    let (r, mut scratch) = build("barrett", &m);
    let ((), red) = measure(|| r.reduce_wide(&mut out, &mut wide.clone(), &mut scratch));
    let mut prod = vec![0; 2 * k];
    let ((), school) = measure(|| modred::arith::mul_basecase(&mut prod, &a, &b));
    let requests = [
        Op::Product {
            name: "montgomery-cios".into(),
            m: m.clone(),
            a: Natural::from_slice(&a),
            b: Natural::from_slice(&b),
        }
        .to_line(),
        "reduce nope 7 1".into(),
        Op::Reduction {
            name: "barrett".into(),
            m: m.clone(),
            x,
        }
        .to_line(),
        Op::Schoolbook {
            limbs: k,
            a: Natural::from_slice(&a),
            b: Natural::from_slice(&b),
        }
        .to_line(),
    ];
    let mut child = Command::new(env!("CARGO_BIN_EXE_modred-count"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    for line in &requests {
        writeln!(stdin, "{line}").unwrap();
    }
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let replies: Vec<&str> = text.lines().collect();
    let fmt = |c: OpCounts| format!("{} {}", c.muls, c.divs);
    assert_eq!(replies.len(), 4, "{text}");
    assert_eq!(replies[0], fmt(mul));
    assert!(
        replies[1].starts_with("error: unknown reducer 'nope'"),
        "{}",
        replies[1]
    );
    assert_eq!(replies[2], fmt(red));
    assert_eq!(replies[3], fmt(school));
    assert_eq!(mul.muls, 2 * 16 + 4, "CIOS at s = 4: 2s^2 + s");
}
