//! Kernel tests against num-bigint (and GMP via rug for division): schoolbook vs Karatsuba vs
//! the oracle at sizes around the thresholds, squaring vs multiplication, Knuth D including its
//! rare add-back step, shifts, and the carry/borrow limbs of mul_1 / addmul_1 / submul_1.

use super::*;
use crate::tuning::{
    KARATSUBA_SQR_THRESHOLD, KARATSUBA_SQR_THRESHOLD_PORTABLE, KARATSUBA_THRESHOLD,
    KARATSUBA_THRESHOLD_PORTABLE,
};
use num_bigint::BigUint;
use rand::{rngs::StdRng, Rng, SeedableRng};

fn big(x: &[Limb]) -> BigUint {
    BigUint::from_slice(
        &x.iter()
            .flat_map(|&l| [l as u32, (l >> 32) as u32])
            .collect::<Vec<_>>(),
    )
}

fn gmp(x: &[Limb]) -> rug::Integer {
    rug::Integer::from_digits(x, rug::integer::Order::Lsf)
}

/// Random limbs with a mix of patterns that stress carries: random, all ones, zeros, top bit.
fn operand(rng: &mut StdRng, n: usize, pattern: u32) -> Vec<Limb> {
    (0..n)
        .map(|i| match pattern % 5 {
            0 => rng.gen(),
            1 => Limb::MAX,
            2 if i % 3 == 0 => 0,
            2 => rng.gen(),
            3 => {
                if i + 1 == n {
                    1
                } else {
                    Limb::MAX
                }
            }
            _ => 1 << 63,
        })
        .collect()
}

/// The prime sets this CPU can run (the IFMA one only with AVX-512 IFMA, the FMA one only with
/// AVX2 and FMA).
fn ntt_sets() -> Vec<&'static ntt::PrimeSet> {
    #[allow(unused_mut)]
    let mut sets = vec![&ntt::PORTABLE];
    #[cfg(all(target_arch = "x86_64", not(feature = "count")))]
    {
        if crate::cpu::detected() >= crate::cpu::Tier::Ifma {
            sets.push(&ntt::IFMA);
        }
        if ntt::fma_available() {
            sets.push(&ntt::FMA);
        }
    }
    sets
}

/// Each threshold of the large-operand methods, one limb either side.
fn large_sizes() -> Vec<usize> {
    use crate::tuning::*;
    let mut s = vec![5, 6, 7, 8, 9, 10, 11, 12, 13, 17, 31, 130, 300];
    for t in [
        TOOM3_THRESHOLD,
        TOOM3_SQR_THRESHOLD,
        TOOM3_THRESHOLD_PORTABLE,
        TOOM3_SQR_THRESHOLD_PORTABLE,
        TOOM4_THRESHOLD,
        TOOM4_SQR_THRESHOLD,
        NTT_THRESHOLD_IFMA,
        NTT_SQR_THRESHOLD_IFMA,
        NTT_THRESHOLD_ADX,
        NTT_THRESHOLD_FMA,
        NTT_THRESHOLD_PORTABLE,
        ntt::threshold(false),
        ntt::threshold(true),
    ] {
        s.extend([t - 1, t, t + 1]);
    }
    // The ends of the tier's dense-transform window below the threshold (if any).
    let window = ntt::dense_window().map_or(0..0, |(min, _)| min..ntt::threshold(false));
    for n in window {
        for squaring in [false, true] {
            if ntt::pays(n, squaring) != ntt::pays(n - 1, squaring) {
                s.extend([n - 2, n - 1, n, n + 1]);
            }
        }
    }
    s.sort();
    s.dedup();
    s
}

fn sizes() -> Vec<usize> {
    let mut s: Vec<usize> = (1..=20).collect();
    for t in [
        KARATSUBA_THRESHOLD,
        KARATSUBA_SQR_THRESHOLD,
        KARATSUBA_THRESHOLD_PORTABLE,
        KARATSUBA_SQR_THRESHOLD_PORTABLE,
    ] {
        for d in 0..=4 {
            s.push(t + d);
            s.push(t.saturating_sub(d).max(1));
            s.push(2 * t + d);
            s.push((2 * t).saturating_sub(d).max(1));
        }
    }
    s.extend([63, 64, 65, 96, 97, 127, 128, 129, 200, 255, 256]);
    s.sort();
    s.dedup();
    s
}

#[test]
fn karatsuba_and_schoolbook_agree_with_num_bigint() {
    let mut rng = StdRng::seed_from_u64(11);
    for n in sizes() {
        for pattern in 0..5 {
            let a = operand(&mut rng, n, pattern);
            let b = operand(&mut rng, n, pattern + (n as u32 % 3));
            let want = big(&a) * big(&b);
            let mut r1 = vec![0; 2 * n];
            mul_basecase(&mut r1, &a, &b);
            assert_eq!(big(&r1), want, "mul_basecase n={n} p={pattern}");
            let mut r2 = vec![Limb::MAX; 2 * n];
            let mut scratch = vec![Limb::MAX; karatsuba_scratch_len(n)];
            mul_karatsuba(&mut r2, &a, &b, &mut scratch);
            assert_eq!(r2, r1, "mul_karatsuba n={n} p={pattern}");
            let mut r3 = vec![0; 2 * n];
            mul(&mut r3, &a, &b);
            assert_eq!(r3, r1, "mul n={n} p={pattern}");
        }
    }
}

#[test]
fn unbalanced_multiplication() {
    let mut rng = StdRng::seed_from_u64(12);
    for (na, nb) in [
        (2, 1),
        (5, 3),
        (40, 33),
        (100, 32),
        (129, 64),
        (300, 47),
        (65, 64),
    ] {
        let a = operand(&mut rng, na, 0);
        let b = operand(&mut rng, nb, 1);
        let mut r = vec![0; na + nb];
        mul(&mut r, &a, &b);
        assert_eq!(big(&r), big(&a) * big(&b), "mul {na}x{nb}");
        let mut r2 = vec![0; na + nb];
        mul(&mut r2, &b, &a);
        assert_eq!(r2, r, "mul is symmetric {na}x{nb}");
        if na > nb {
            let mut r3 = vec![Limb::MAX; na + nb];
            mul_unbalanced(&mut r3, &a, &b);
            assert_eq!(r3, r, "mul_unbalanced {na}x{nb}");
        }
    }
}

#[test]
fn squaring_matches_multiplication() {
    let mut rng = StdRng::seed_from_u64(13);
    for n in sizes() {
        for pattern in 0..5 {
            let a = operand(&mut rng, n, pattern);
            let mut want = vec![0; 2 * n];
            mul_basecase(&mut want, &a, &a);
            assert_eq!(big(&want), big(&a) * big(&a));
            let mut s1 = vec![Limb::MAX; 2 * n];
            sqr_basecase(&mut s1, &a);
            assert_eq!(s1, want, "sqr_basecase n={n} p={pattern}");
            let mut s2 = vec![Limb::MAX; 2 * n];
            let mut scratch = vec![Limb::MAX; karatsuba_scratch_len(n)];
            sqr_karatsuba(&mut s2, &a, &mut scratch);
            assert_eq!(s2, want, "sqr_karatsuba n={n} p={pattern}");
            let mut s3 = vec![0; 2 * n];
            sqr(&mut s3, &a);
            assert_eq!(s3, want, "sqr n={n} p={pattern}");
        }
    }
}

fn check_div(u: &[Limb], v: &[Limb], what: &str) {
    let (q, r) = div_rem(u, v);
    let (bq, br) = (big(u) / big(v), big(u) % big(v));
    assert_eq!(big(&q), bq, "quotient {what}");
    assert_eq!(big(&r), br, "remainder {what}");
    assert_eq!(gmp(&r), gmp(u) % gmp(v), "GMP remainder {what}");
    assert_eq!(rem_vartime(u, v), r, "rem_vartime {what}");
    assert!(
        q.last() != Some(&0) && r.last() != Some(&0),
        "not trimmed {what}"
    );
}

#[test]
fn division_matches_num_bigint_and_gmp() {
    let mut rng = StdRng::seed_from_u64(14);
    for nv in [1usize, 2, 3, 4, 5, 8, 17, 32, 33, 64] {
        for nu in [
            nv.saturating_sub(1),
            nv,
            nv + 1,
            2 * nv,
            2 * nv + 1,
            3 * nv + 2,
        ] {
            for pattern in 0..5 {
                let u = operand(&mut rng, nu, pattern);
                let mut v = operand(&mut rng, nv, pattern + 1);
                if v.iter().all(|&x| x == 0) {
                    v[0] = 1;
                }
                check_div(&u, &v, &format!("{nu}/{nv} p={pattern}"));
                // Small top limbs force a large normalization shift.
                if let Some(t) = v.last_mut() {
                    *t = (*t >> 60).max(1);
                }
                check_div(&u, &v, &format!("{nu}/{nv} p={pattern} small top"));
            }
        }
    }
    check_div(&[5], &[7], "u < v");
    check_div(&[], &[7], "zero dividend");
    check_div(&[0, 0, 1], &[0, 1], "exact power");
}

/// Knuth's add-back step (D6) fires when the refined qhat is still one too large. These
/// operands (radix 2^64 analogues of the classic radix-2^16 / 2^32 test cases of Hacker's
/// Delight's divmnu tests) trigger it; the test counts that it fired by re-deriving qhat.
#[test]
fn division_add_back_case() {
    let mut rng = StdRng::seed_from_u64(15);
    let mut fired = 0;
    let cases: Vec<(Vec<Limb>, Vec<Limb>)> = vec![
        // Hacker's Delight divmnu64 "add back" cases scaled to 64-bit digits.
        (
            vec![0, 0, 0x8000_0000_0000_0000, 0x7fff_ffff_ffff_ffff],
            vec![1, 0, 0x8000_0000_0000_0000],
        ),
        (
            vec![0, 0xffff_ffff_ffff_fffe, 0, 0x8000_0000_0000_0000],
            vec![0xffff_ffff_ffff_ffff, 0, 0x8000_0000_0000_0000],
        ),
        (
            vec![3, 0, 0x8000_0000_0000_0000],
            vec![1, 0, 0x2000_0000_0000_0000],
        ),
        (
            vec![0, 0, 0x8000_0000_0000_0000, 0x7fff_ffff_ffff_ffff],
            vec![1, 0xffff_ffff_ffff_ffff, 0x8000_0000_0000_0000],
        ),
    ];
    let mut all = cases;
    // Random search: v with v[n-2] large and u's window close to q v + v, where add-back is
    // likely (probability ~2/b per digit otherwise, so build it).
    for _ in 0..2000 {
        let n = rng.gen_range(3..6);
        let mut v: Vec<Limb> = (0..n).map(|_| rng.gen()).collect();
        v[n - 1] |= 1 << 63;
        v[n - 2] = Limb::MAX - rng.gen_range(0..4);
        let q: Limb = rng.gen();
        // u = q * v - small, so the estimate from the top digits overshoots by one.
        let mut u = vec![0; n + 1];
        u[n] = mul_1(&mut u[..n], &v, q);
        let s = rng.gen_range(1..1000u64);
        sub_1_in_place(&mut u, s);
        all.push((u, v));
    }
    for (u, v) in &all {
        if add_back_fires(u, v) {
            fired += 1;
        }
        check_div(u, v, &format!("add-back candidate {u:x?} / {v:x?}"));
    }
    assert!(fired > 0, "no operand exercised the add-back step");
}

/// Re-derive, independently of `divrem_normalized`, whether some step of Algorithm D on
/// (u, v) needs the add-back: the refined qhat (from the top three digits of the window and
/// the top two of v) exceeds the true quotient digit.
fn add_back_fires(u: &[Limb], v: &[Limb]) -> bool {
    let (u, v) = (big(trim(u)), big(trim(v)));
    let n = v.to_u64_digits().len();
    if n < 2 || u < v {
        return false;
    }
    let s = v.to_u64_digits()[n - 1].leading_zeros();
    let (un, vn) = (&u << s, &v << s);
    let vd = vn.to_u64_digits();
    let b = BigUint::from(1u8) << 64;
    let mut rem = un.clone();
    let steps = un.to_u64_digits().len() + 1 - n;
    for j in (0..steps).rev() {
        let window = &rem >> (64 * j);
        let top3: BigUint = &window >> (64 * (n - 2));
        let top2: BigUint = &top3 >> 64;
        let bmax: BigUint = &b - 1u32;
        let mut qhat: BigUint = top2 / BigUint::from(vd[n - 1]);
        if qhat > bmax {
            qhat = bmax;
        }
        while &qhat * (BigUint::from(vd[n - 1]) * &b + vd[n - 2]) > top3 {
            qhat -= 1u32;
        }
        let q = &window / &vn;
        if qhat > q {
            return true;
        }
        rem -= (&q * &vn) << (64 * j);
    }
    false
}

#[test]
fn single_limb_division() {
    let mut rng = StdRng::seed_from_u64(16);
    for n in [1, 2, 5, 33] {
        for d in [1, 2, 3, 7, 1 << 63, Limb::MAX, rng.gen::<Limb>() | 1] {
            let u = operand(&mut rng, n, n as u32);
            let mut q = vec![0; n];
            let r = div_rem_1(Some(&mut q), &u, d);
            assert_eq!(big(&q), big(&u) / d);
            assert_eq!(BigUint::from(r), big(&u) % d);
        }
    }
}

#[test]
fn shifts_match_num_bigint() {
    let mut rng = StdRng::seed_from_u64(17);
    for n in [1, 2, 7, 40] {
        let a = operand(&mut rng, n, 0);
        for s in [0u32, 1, 13, 32, 63] {
            let mut r = vec![0; n];
            let out = shl(&mut r, &a, s);
            let mut full = r.clone();
            full.push(out);
            assert_eq!(big(&full), big(&a) << s, "shl {s}");
            let mut b = a.clone();
            let out2 = shl_in_place(&mut b, s);
            assert_eq!((b.clone(), out2), (r, out), "shl_in_place {s}");
            let mut c = a.clone();
            let lost = shr_in_place(&mut c, s);
            assert_eq!(big(&c), big(&a) >> s, "shr {s}");
            let low_bits = if s == 0 { 0 } else { a[0] << (64 - s) };
            assert_eq!(lost, low_bits, "shr out {s}");
        }
    }
}

#[test]
fn mul_1_addmul_1_submul_1_carries() {
    let mut rng = StdRng::seed_from_u64(18);
    for n in [1, 2, 3, 9, 31] {
        for pattern in 0..5 {
            let a = operand(&mut rng, n, pattern);
            for b in [0, 1, 2, Limb::MAX, Limb::MAX - 1, rng.gen()] {
                let r0 = operand(&mut rng, n, pattern + 2);
                // mul_1
                let mut r = vec![0; n];
                let hi = mul_1(&mut r, &a, b);
                let mut full = r.clone();
                full.push(hi);
                assert_eq!(big(&full), big(&a) * b);
                let mut ai = a.clone();
                assert_eq!(mul_1_in_place(&mut ai, b), hi);
                assert_eq!(ai, r);
                // addmul_1: r0 + a*b = (r, carry)
                let mut r = r0.clone();
                let c = addmul_1(&mut r, &a, b);
                let mut full = r.clone();
                full.push(c);
                assert_eq!(big(&full), big(&r0) + big(&a) * b, "addmul_1");
                // submul_1: r0 - a*b = r - borrow * b^n
                let mut r = r0.clone();
                let borrow = submul_1(&mut r, &a, b);
                let bn = BigUint::from(1u8) << (64 * n);
                assert_eq!(
                    big(&r) + big(&a) * b,
                    big(&r0) + BigUint::from(borrow) * &bn,
                    "submul_1 n={n} b={b:#x}"
                );
            }
        }
    }
    // Worst case borrows: r = 0, a = all ones, b = MAX.
    let mut r = vec![0; 4];
    let borrow = submul_1(&mut r, &[Limb::MAX; 4], Limb::MAX);
    let bn = BigUint::from(1u8) << 256;
    assert_eq!(
        big(&r) + big(&[Limb::MAX; 4]) * Limb::MAX,
        BigUint::from(borrow) * bn
    );
}

/// `addmul_2_portable`: r0 + a (b0 + b1 B) + c0 = (r, top) at the carry extremes (all-ones
/// operands, b0 = b1 = c0 = MAX), with r's top limb written, not added.
#[test]
fn addmul_2_carries() {
    let mut rng = StdRng::seed_from_u64(19);
    for n in [1, 2, 3, 4, 5, 8, 9, 31] {
        for pattern in 0..5 {
            let a = operand(&mut rng, n, pattern);
            for (b0, b1, c0) in [
                (Limb::MAX, Limb::MAX, Limb::MAX),
                (0, Limb::MAX, 0),
                (Limb::MAX, 0, 1),
                (rng.gen(), rng.gen(), rng.gen()),
            ] {
                let mut r = operand(&mut rng, n, pattern + 1);
                let r0 = big(&r);
                r.push(rng.gen()); // overwritten
                let top = addmul_2_portable(&mut r, &a, b0, b1, c0);
                r.push(top);
                let b = BigUint::from(b0) + (BigUint::from(b1) << 64);
                assert_eq!(big(&r), r0 + big(&a) * b + c0, "n={n} p={pattern}");
            }
        }
    }
}

#[test]
fn add_sub_compare_and_modular_helpers() {
    let mut rng = StdRng::seed_from_u64(19);
    for n in [1, 2, 5, 16] {
        let a = operand(&mut rng, n, 1);
        let b = operand(&mut rng, n, 0);
        let mut r = vec![0; n];
        let c = add_n(&mut r, &a, &b);
        let mut full = r.clone();
        full.push(c);
        assert_eq!(big(&full), big(&a) + big(&b));
        let mut d = vec![0; n];
        let br = sub_n(&mut d, &a, &b);
        assert_eq!(
            big(&d) + big(&b),
            big(&a) + BigUint::from(br) * (BigUint::from(1u8) << (64 * n))
        );
        assert_eq!(cmp(&a, &b), big(&a).cmp(&big(&b)));
        assert_eq!(cmp_n(&a, &b), big(&a).cmp(&big(&b)));
        let mut padded = a.clone();
        padded.extend([0, 0]);
        assert_eq!(cmp(&padded, &a), core::cmp::Ordering::Equal);
        // add_mod / sub_mod / sub_mod_final for a, b < m.
        let mut m = operand(&mut rng, n, 0);
        m[n - 1] |= 1 << 63;
        let x: Vec<Limb> = big_to(&(big(&a) % big(&m)), n);
        let y: Vec<Limb> = big_to(&(big(&b) % big(&m)), n);
        let mut tmp = vec![0; n];
        let mut s = vec![0; n];
        add_mod(&mut s, &x, &y, &m, &mut tmp);
        assert_eq!(big(&s), (big(&x) + big(&y)) % big(&m));
        sub_mod(&mut s, &x, &y, &m);
        assert_eq!(big(&s), (big(&x) + big(&m) - big(&y)) % big(&m));
        let mut hi_case = x.clone();
        let hi = add_n_in_place(&mut hi_case, &m);
        sub_mod_final(&mut s, &hi_case, hi, &m);
        assert_eq!(big(&s), big(&x));
        assert_eq!(bit_len(&m), 64 * n);
        assert!(bit(&m, 64 * n - 1) && !bit(&m, 64 * n + 5));
    }
}

/// The carry chains of `add_n` / `sub_n` (blocks of four in assembly on the ADX tier and
/// above, the head and every limb on the portable tier) against num-bigint at every length
/// up to 40, with carries that ripple through every limb, in place and out of place; the
/// loops of `carry_chain` (the target's and the portable form) and the x86-64 block kernels
/// directly, the latter with a carry in.
#[test]
fn carry_chains_match_num_bigint() {
    let mut rng = StdRng::seed_from_u64(23);
    for n in 0..=40 {
        for pattern in [0, 1, 3] {
            let a = operand(&mut rng, n, pattern);
            let mut b = operand(&mut rng, n, pattern + 1);
            if pattern == 1 && n > 0 {
                b.fill(0);
                b[0] = 1; // all-ones + 1: the carry runs through every limb
            }
            let base = BigUint::from(1u8) << (64 * n);
            let (ba, bb) = (big(&a), big(&b));
            let mut r = vec![0; n];
            let c = add_n(&mut r, &a, &b);
            assert_eq!(big(&r) + BigUint::from(c) * &base, &ba + &bb, "add_n {n}");
            let mut x = a.clone();
            assert_eq!(add_n_in_place(&mut x, &b), c);
            assert_eq!(x, r, "add_n_in_place {n}");
            let br = sub_n(&mut r, &a, &b);
            assert_eq!(&ba + BigUint::from(br) * &base, big(&r) + &bb, "sub_n {n}");
            let mut x = a.clone();
            assert_eq!(sub_n_in_place(&mut x, &b), br);
            assert_eq!(x, r, "sub_n_in_place {n}");
            // The loops beneath, whatever the tier: the target's form and the portable one.
            let mut y = vec![0; n];
            assert_eq!(carry_chain::add(&mut y, &a, &b), c, "carry_chain::add {n}");
            assert_eq!(
                big(&y) + BigUint::from(c) * &base,
                &ba + &bb,
                "carry_chain::add {n}"
            );
            assert_eq!(carry_chain::add_portable(&mut r, &a, &b), c);
            assert_eq!(r, y, "add_portable {n}");
            let mut x = a.clone();
            assert_eq!(carry_chain::add_in_place(&mut x, &b), c);
            assert_eq!(x, y, "carry_chain::add_in_place {n}");
            assert_eq!(carry_chain::sub(&mut y, &a, &b), br, "carry_chain::sub {n}");
            assert_eq!(
                &ba + BigUint::from(br) * &base,
                big(&y) + &bb,
                "carry_chain::sub {n}"
            );
            assert_eq!(carry_chain::sub_portable(&mut r, &a, &b), br);
            assert_eq!(r, y, "sub_portable {n}");
            let mut x = a.clone();
            assert_eq!(carry_chain::sub_in_place(&mut x, &b), br);
            assert_eq!(x, y, "carry_chain::sub_in_place {n}");
            #[cfg(target_arch = "x86_64")]
            if n > 0 && n % 4 == 0 {
                // SAFETY: n limbs (n / 4 blocks) behind each pointer, distinct buffers.
                let c =
                    unsafe { x86_64::add_blocks(r.as_mut_ptr(), a.as_ptr(), b.as_ptr(), n / 4, 1) };
                assert_eq!(
                    big(&r) + BigUint::from(c) * &base,
                    &ba + &bb + 1u8,
                    "add_blocks {n}"
                );
                // SAFETY: as above.
                let br =
                    unsafe { x86_64::sub_blocks(r.as_mut_ptr(), a.as_ptr(), b.as_ptr(), n / 4, 1) };
                assert_eq!(
                    &ba + BigUint::from(br) * &base,
                    big(&r) + &bb + 1u8,
                    "sub_blocks {n}"
                );
            }
        }
    }
}

fn big_to(x: &BigUint, n: usize) -> Vec<Limb> {
    let mut v = x.to_u64_digits();
    v.resize(n, 0);
    v
}

/// `ct_select` (SSE2 up to its limb threshold, the integer loop above) picks exactly entry d,
/// for every d, entry lengths 1..=12 (odd ones exercise the SSE2 tail limb) and table sizes
/// 1, 2, 16 and 33; the SSE2 version is also checked directly at every length.
#[test]
fn ct_select_picks_entry_d() {
    let mut rng = StdRng::seed_from_u64(7);
    let mut checked = 0;
    for k in (1..=21usize).chain([32, 33, 36, 64]) {
        for entries in [1usize, 2, 16, 33] {
            let table: Vec<Vec<Limb>> = (0..entries)
                .map(|_| (0..k).map(|_| rng.gen()).collect())
                .collect();
            for d in 0..entries {
                let mut sel = vec![Limb::MAX; k];
                ct_select(&mut sel, &table, d);
                assert_eq!(sel, table[d], "k={k} entries={entries} d={d}");
                let mut sel = vec![Limb::MAX; k];
                ct_select_portable(&mut sel, &table, d);
                assert_eq!(sel, table[d]);
                #[cfg(target_arch = "x86_64")]
                {
                    let mut sel = vec![Limb::MAX; k];
                    // SAFETY: SSE2 is part of the x86-64 baseline.
                    unsafe { x86_64::ct_select_sse2(&mut sel, &table, d) };
                    assert_eq!(sel, table[d]);
                    if std::arch::is_x86_feature_detected!("avx2") {
                        let mut sel = vec![Limb::MAX; k];
                        // SAFETY: AVX2 was detected.
                        unsafe { x86_64::ct_select_avx2(&mut sel, &table, d) };
                        assert_eq!(sel, table[d]);
                    }
                }
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 25 * (1 + 2 + 16 + 33));
}

/// Toom-3, Toom-4, the NTT with each prime set, and the dispatching `mul` / `sqr`, against num-bigint
/// at every large-operand threshold (one limb either side) and small sizes, with random,
/// all-ones and sparse operands.
#[test]
fn toom_and_ntt_agree_with_num_bigint() {
    let mut rng = StdRng::seed_from_u64(17);
    for n in large_sizes() {
        for pattern in [0, 1, 3] {
            let a = operand(&mut rng, n, pattern);
            let b = operand(&mut rng, n, pattern + 2);
            let want = big(&a) * big(&b);
            let want_sq = big(&a) * big(&a);
            let mut r = vec![Limb::MAX; 2 * n];
            mul(&mut r, &a, &b);
            assert_eq!(big(&r), want, "mul n={n} p={pattern}");
            sqr(&mut r, &a);
            assert_eq!(big(&r), want_sq, "sqr n={n} p={pattern}");
            toom::mul_toom3(&mut r, &a, &b);
            assert_eq!(big(&r), want, "mul_toom3 n={n} p={pattern}");
            toom::sqr_toom3(&mut r, &a);
            assert_eq!(big(&r), want_sq, "sqr_toom3 n={n} p={pattern}");
            if toom4::splits(n) {
                toom4::mul_toom4(&mut r, &a, &b);
                assert_eq!(big(&r), want, "mul_toom4 n={n} p={pattern}");
                toom4::sqr_toom4(&mut r, &a);
                assert_eq!(big(&r), want_sq, "sqr_toom4 n={n} p={pattern}");
            }
            for set in ntt_sets() {
                ntt::convolve(set, &mut r, &a, Some(&b));
                assert_eq!(big(&r), want, "ntt n={n} p={pattern} {:?}", set.kernels);
                ntt::convolve(set, &mut r, &a, None);
                assert_eq!(big(&r), want_sq, "ntt sqr n={n} {:?}", set.kernels);
            }
        }
    }
}

/// The Toom pieces' products of (s + 1)-limb evaluations (s-limb product plus the top limbs'
/// rows, the Karatsuba range in the caller's scratch) against num-bigint, for s on both sides of
/// each tier's Karatsuba thresholds and above its Toom-3 ones, top limbs from 0 to 2^32 - 1, and
/// all-ones and random low limbs.
#[test]
fn toom_evaluation_products_match_num_bigint() {
    let mut rng = StdRng::seed_from_u64(23);
    for s in [
        1, 2, 23, 24, 25, 31, 32, 33, 47, 48, 63, 64, 65, 130, 199, 200, 330,
    ] {
        let mut k = vec![Limb::MAX; karatsuba_scratch_len(s)];
        for (cx, cy) in [
            (0, 0),
            (0, 6),
            (2, 1),
            (6, 6),
            (14, 13),
            (u32::MAX as Limb, 7),
        ] {
            for pattern in [0, 1] {
                let mut x = operand(&mut rng, s + 1, pattern);
                let mut y = operand(&mut rng, s + 1, pattern + 2);
                (x[s], y[s]) = (cx, cy);
                let mut v = vec![Limb::MAX; 2 * s + 2];
                toom::mul_evaluations(&mut v, &x, &y, &mut k);
                assert_eq!(big(&v), big(&x) * big(&y), "mul s={s} tops {cx} {cy}");
                toom::sqr_evaluation(&mut v, &x, &mut k);
                assert_eq!(big(&v), big(&x) * big(&x), "sqr s={s} top {cx}");
            }
        }
    }
}

/// [`toom4::splits`] as its doc says: below 10 only 4, 7 and 8, from 10 on every length.
#[test]
fn toom4_splits_every_length_from_10() {
    let small: Vec<usize> = (0..10).filter(|&n| toom4::splits(n)).collect();
    assert_eq!(small, [4, 7, 8]);
    assert!((10..=1 << 16).all(toom4::splits));
}

/// Toom-3 and Toom-4 at every small length that splits three (four) ways, with each piece
/// zero, all-ones or random (so a(-1) and a(-2) take both signs, in one operand or both),
/// against GMP: every sign combination of the interpolation and the shortest top pieces.
#[test]
fn toom3_and_toom4_piece_patterns_match_gmp() {
    let mut rng = StdRng::seed_from_u64(21);
    let mut checked = 0;
    for (k, lengths) in [
        (3, (toom::TOOM3_MIN_LEN..=40).collect::<Vec<_>>()),
        (4, (4..=40).filter(|&n| toom4::splits(n)).collect()),
    ] {
        let codes = 3usize.pow(k);
        for &n in &lengths {
            let s = n.div_ceil(k as usize);
            let pieces = |rng: &mut StdRng, code: usize| -> Vec<Limb> {
                (0..n)
                    .map(|i| match code / 3usize.pow((i / s) as u32) % 3 {
                        0 => 0,
                        1 => Limb::MAX,
                        _ => rng.gen(),
                    })
                    .collect()
            };
            for code in 0..codes {
                let a = pieces(&mut rng, code);
                let b = pieces(&mut rng, (code * 7 + n) % codes);
                let mut r = vec![Limb::MAX; 2 * n];
                if k == 3 {
                    toom::mul_toom3(&mut r, &a, &b);
                } else {
                    toom4::mul_toom4(&mut r, &a, &b);
                }
                assert_eq!(gmp(&r), gmp(&a) * gmp(&b), "toom{k} mul n={n} code={code}");
                if k == 3 {
                    toom::sqr_toom3(&mut r, &a);
                } else {
                    toom4::sqr_toom4(&mut r, &a);
                }
                assert_eq!(gmp(&r), gmp(&a) * gmp(&a), "toom{k} sqr n={n} code={code}");
                checked += 1;
            }
        }
    }
    let toom4_lengths = (4..=40).filter(|&n| toom4::splits(n)).count();
    assert_eq!(
        checked,
        27 * (41 - toom::TOOM3_MIN_LEN) + 81 * toom4_lengths
    );
}

/// The Toom evaluations' and interpolations' one-pass helpers against num-bigint: shifted sums
/// for every shift pair they are used with and a shorter second operand, and the three
/// halvings (a sum carrying out of its top limb included), at lengths that leave every tail
/// past the halvings' blocks of four (from limb 1) on the adx tier.
#[test]
fn toom_linear_helpers_match_num_bigint() {
    let mut rng = StdRng::seed_from_u64(31);
    for n in (1..=13).chain([32, 33, 34, 35, 36]) {
        for pattern in 0..5 {
            let a = operand(&mut rng, n, pattern);
            for m in [1, n / 2 + 1, n] {
                let b = operand(&mut rng, m, pattern + 1);
                let mut r = vec![0; n];
                type ShlAdd = fn(&mut [Limb], &[Limb], &[Limb]) -> Limb;
                let cases: [(ShlAdd, u32, u32); 7] = [
                    (toom::shl_add::<0, 0>, 0, 0),
                    (toom::shl_add::<0, 2>, 0, 2),
                    (toom::shl_add::<1, 2>, 1, 2),
                    (toom::shl_add::<1, 3>, 1, 3),
                    (toom::shl_add::<2, 0>, 2, 0),
                    (toom::shl_add::<3, 1>, 3, 1),
                    (toom::shl_add::<63, 62>, 63, 62),
                ];
                for (shl_add, j, k) in cases {
                    let out = shl_add(&mut r, &a, &b);
                    let got = big(&r) + (BigUint::from(out) << (64 * n));
                    let want = (big(&a) << j) + (big(&b) << k);
                    assert_eq!(got, want, "shl_add<{j}, {k}> n={n} m={m}");
                }
            }
            // Make a and y of one parity, so their sum and difference are even.
            let mut y = operand(&mut rng, n, pattern + 2);
            y[0] = (y[0] & !1) | (a[0] & 1);
            let (lo, hi) = if big(&a) <= big(&y) {
                (&a, &y)
            } else {
                (&y, &a)
            };
            let mut x = a.clone();
            toom::halve_sum(&mut x, &y);
            assert_eq!(big(&x), (big(&a) + big(&y)) >> 1, "halve_sum n={n}");
            let mut x = hi.clone();
            toom::halve_difference(&mut x, lo);
            assert_eq!(big(&x), (big(hi) - big(lo)) >> 1, "halve_difference n={n}");
            let mut x = lo.clone();
            toom::halve_reversed_difference(&mut x, hi);
            assert_eq!(
                big(&x),
                (big(hi) - big(lo)) >> 1,
                "halve_reversed_difference n={n}"
            );
        }
    }
}

/// Toom-6 and Toom-8 at every small length that splits, with each piece zero, all-ones or
/// random (so every a(-x) takes both signs, in one operand or both, and the interpolation's
/// intermediates reach their bounds with all-ones pieces), and at larger lengths with random
/// and all-ones operands, against GMP and num-bigint.
#[test]
fn toom_k_matches_gmp_and_num_bigint() {
    let mut rng = StdRng::seed_from_u64(23);
    let mut checked = 0;
    for k in [6, 8] {
        for n in (k..=5 * k + 3).filter(|&n| toom_k::splits(n, k)) {
            let s = n.div_ceil(k);
            let pieces = |rng: &mut StdRng, code: usize| -> Vec<Limb> {
                (0..n)
                    .map(|i| match (code >> (2 * (i / s))) % 4 {
                        0 => 0,
                        1 => Limb::MAX,
                        _ => rng.gen(),
                    })
                    .collect()
            };
            for code in (0..1usize << (2 * k)).step_by(37) {
                let a = pieces(&mut rng, code);
                let b = pieces(&mut rng, (code * 7 + n) % (1 << (2 * k)));
                let mut r = vec![Limb::MAX; 2 * n];
                toom_k::mul_toom_k(&mut r, &a, &b, k);
                assert_eq!(gmp(&r), gmp(&a) * gmp(&b), "toom-{k} n={n} code={code}");
                toom_k::sqr_toom_k(&mut r, &a, k);
                assert_eq!(gmp(&r), gmp(&a) * gmp(&a), "toom-{k} sqr n={n} code={code}");
                checked += 1;
            }
        }
        for n in [97, 300, 401, 1000] {
            for pattern in [0, 1, 3] {
                let a = operand(&mut rng, n, pattern);
                let b = operand(&mut rng, n, pattern + 2);
                let mut r = vec![Limb::MAX; 2 * n];
                toom_k::mul_toom_k(&mut r, &a, &b, k);
                assert_eq!(big(&r), big(&a) * big(&b), "toom-{k} n={n} p={pattern}");
                toom_k::sqr_toom_k(&mut r, &a, k);
                assert_eq!(big(&r), big(&a) * big(&a), "toom-{k} sqr n={n} p={pattern}");
            }
        }
    }
    assert!(checked > 500, "{checked}");
}

/// Unbalanced products around the thresholds (chunked Karatsuba/Toom, one NTT), against GMP.
#[test]
fn unbalanced_large_products_match_gmp() {
    let mut rng = StdRng::seed_from_u64(18);
    let t = ntt::threshold(false);
    for (na, nb) in [
        (1000, 199),
        (1000, 201),
        (3 * t + 7, t - 1),
        (3 * t + 7, t),
        (5 * t, t + 1),
        (4001, 1),
        (2 * t - 1, 2 * t - 2),
    ] {
        for pattern in [0, 1] {
            let a = operand(&mut rng, na, pattern);
            let b = operand(&mut rng, nb, pattern);
            let mut r = vec![0; na + nb];
            mul(&mut r, &a, &b);
            assert_eq!(gmp(&r), gmp(&a) * gmp(&b), "mul {na}x{nb}");
            mul(&mut r, &b, &a);
            assert_eq!(gmp(&r), gmp(&a) * gmp(&b), "mul {nb}x{na}");
            for set in ntt_sets() {
                ntt::convolve(set, &mut r, &a, Some(&b));
                assert_eq!(
                    gmp(&r),
                    gmp(&a) * gmp(&b),
                    "ntt {na}x{nb} {:?}",
                    set.kernels
                );
            }
        }
    }
}

/// Division by large divisors (Newton reciprocal, Barrett blocks) against num-bigint and GMP,
/// one limb either side of the reciprocal's base case and of the division threshold, with
/// dividends of one to several blocks, all-ones operands and divisors with a short top limb.
#[test]
fn newton_division_matches_num_bigint_and_gmp() {
    use crate::tuning::RECIPROCAL_BASECASE;
    let mut rng = StdRng::seed_from_u64(19);
    let t = div_newton::division_threshold();
    let r = RECIPROCAL_BASECASE;
    for (nu, nv) in [
        (2 * r - 1, r - 1),
        (2 * r, r),
        (2 * r + 2, r + 1),
        (t + t / 2 - 1, t - 1),
        (2 * t, t),
        (2 * t + 3, t + 1),
        (5 * t + 17, t + 1),
        (t + 1, t),
        (3 * t, 2 * t - 1),
    ] {
        for pattern in [0, 1, 3] {
            let u = operand(&mut rng, nu, pattern);
            let mut v = operand(&mut rng, nv, pattern + 2);
            if pattern == 3 {
                v[nv - 1] = 1; // a normalization shift of 63 bits
            }
            let (q, rem) = div_newton::div_rem_newton(&u, &v);
            let (bq, br) = (big(&u) / big(&v), big(&u) % big(&v));
            assert_eq!(
                (big(&q), big(&rem)),
                (bq, br),
                "newton {nu}/{nv} p={pattern}"
            );
            let (q2, r2) = div_rem(&u, &v);
            let (gq, gr) = gmp(&u).div_rem(gmp(&v));
            assert_eq!(
                (gmp(&q2), gmp(&r2)),
                (gq, gr),
                "div_rem {nu}/{nv} p={pattern}"
            );
        }
    }
}

/// Products with a transformed operand: full, truncated to the low limbs (the Montgomery
/// quotient), and mod B^N - 1 (the high half of q m), against GMP, with each prime set.
#[test]
fn transformed_products_match_gmp() {
    let mut rng = StdRng::seed_from_u64(20);
    for (nx, na) in [(16, 16), (200, 200), (256, 256), (300, 257), (513, 100)] {
        for (pattern, set) in [0, 1]
            .into_iter()
            .flat_map(|p| ntt_sets().into_iter().map(move |s| (p, s)))
        {
            let x = operand(&mut rng, nx, pattern);
            let a = operand(&mut rng, na, pattern + 1);
            let want = gmp(&x) * gmp(&a);
            let t = ntt::Transformed::new_in(set, &x, na).expect("fits");
            let mut r = vec![0; nx + na];
            t.mul(&mut r, &a);
            assert_eq!(gmp(&r), want, "full {nx}x{na} {:?}", set.kernels);
            let mut lo = vec![0; nx.min(na)];
            t.mul(&mut lo, &a);
            assert_eq!(lo[..], r[..lo.len()], "low half {nx}x{na}");
            let len = nx.max(na).next_power_of_two();
            let c = ntt::Transformed::new_cyclic_in(set, &x, len).expect("fits");
            let n = c.points();
            let mut y = vec![0; n];
            c.mul_cyclic(&mut y, &a);
            let modulus = (rug::Integer::from(1) << (64 * n as u32)) - 1u32;
            assert_eq!(gmp(&y), want % modulus, "cyclic {nx}x{na} mod B^{n} - 1");
        }
    }
}

/// The portable and FMA transforms of 3 2^k points (a radix-3 step over power-of-two
/// blocks): products and squares at sizes whose plan takes them (several coefficient widths),
/// and products mod B^N - 1 for N = 3 2^k, random and all-ones, against GMP.
#[test]
fn radix3_transforms_match_gmp() {
    for set in ntt_sets().into_iter().filter(|s| s.kernels.radix3()) {
        radix3_transforms_match_gmp_on(set);
    }
}

fn radix3_transforms_match_gmp_on(set: &'static ntt::PrimeSet) {
    let mut rng = StdRng::seed_from_u64(22);
    let mut radix3 = 0;
    for n in [
        6, 12, 23, 24, 45, 70, 96, 130, 190, 383, 384, 700, 768, 1100, 1536,
    ] {
        let (points, _) = ntt::plan(set, 64 * n, 64 * n).expect("fits");
        radix3 += usize::from(!points.is_power_of_two());
        for pattern in [0, 1] {
            let a = operand(&mut rng, n, pattern);
            let b = operand(&mut rng, n - n / 3, pattern);
            let mut r = vec![0; 2 * n];
            ntt::convolve(set, &mut r, &a, Some(&a));
            assert_eq!(gmp(&r), gmp(&a) * gmp(&a), "{n} limbs, {points} points");
            ntt::convolve(set, &mut r, &a, None);
            assert_eq!(
                gmp(&r),
                gmp(&a) * gmp(&a),
                "square {n} limbs, {points} points"
            );
            let mut r = vec![0; a.len() + b.len()];
            ntt::convolve(set, &mut r, &a, Some(&b));
            assert_eq!(gmp(&r), gmp(&a) * gmp(&b), "{n}x{} limbs", b.len());
        }
    }
    assert!(
        radix3 >= 8,
        "{radix3} sizes on 3 2^k points, {:?}",
        set.kernels
    );
    for len in [48, 96, 192, 768, 1536] {
        for pattern in [0, 1] {
            let x = operand(&mut rng, len, pattern);
            let a = operand(&mut rng, len - pattern as usize, pattern);
            let c = ntt::Transformed::new_cyclic_in(set, &x, len).expect("fits");
            assert_eq!(c.points(), len);
            let mut y = vec![0; len];
            c.mul_cyclic(&mut y, &a);
            let modulus = (rug::Integer::from(1) << (64 * len as u32)) - 1u32;
            assert_eq!(gmp(&y), gmp(&x) * gmp(&a) % modulus, "mod B^{len} - 1");
            let full = ntt::Transformed::new_in(set, &x, a.len()).expect("fits");
            let mut r = vec![0; len + a.len()];
            full.mul(&mut r, &a);
            assert_eq!(gmp(&r), gmp(&x) * gmp(&a), "transformed {len} limbs");
        }
    }
}

/// The coefficient bound at its limit: for each prime set, the shortest balanced product whose
/// plan fills the bound exactly (2b + log2(terms) = `coeff_bits`, with a power-of-two number
/// of terms), with all-ones operands (every coefficient the largest sum, (2^b - 1)^2 times
/// the terms), and squares; against GMP.
#[test]
fn ntt_coefficient_bound_holds_at_its_limit() {
    for set in ntt_sets() {
        let at_limit: Vec<usize> = (16..1500)
            .filter(|&n| {
                let (_, b) = ntt::plan(set, 64 * n, 64 * n).unwrap();
                let terms = (64 * n).div_ceil(b as usize);
                terms.is_power_of_two() && 2 * b + terms.trailing_zeros() == set.coeff_bits
            })
            .collect();
        assert!(at_limit.len() >= 2, "{:?}: {at_limit:?}", set.kernels);
        for n in at_limit {
            let a = vec![Limb::MAX; n];
            let want = gmp(&a) * gmp(&a);
            let mut r = vec![0; 2 * n];
            ntt::convolve(set, &mut r, &a, Some(&a));
            assert_eq!(gmp(&r), want, "all ones {n} limbs {:?}", set.kernels);
            ntt::convolve(set, &mut r, &a, None);
            assert_eq!(
                gmp(&r),
                want,
                "all ones squared {n} limbs {:?}",
                set.kernels
            );
        }
    }
}

#[test]
fn constant_time_less_than_matches_num_bigint() {
    let mut rng = StdRng::seed_from_u64(0x17);
    for n in 1..=9 {
        for pattern in 0..25 {
            let a = operand(&mut rng, n, pattern);
            let mut b = operand(&mut rng, n, pattern / 5);
            let want = big(&a) < big(&b);
            assert_eq!(
                lt_n_ct(&a, &b).to_bool_vartime(),
                want,
                "n={n} pattern={pattern}"
            );
            // Equal, and differing only in the lowest limb.
            assert!(!lt_n_ct(&a, &a).to_bool_vartime());
            b.copy_from_slice(&a);
            b[0] = b[0].wrapping_add(1);
            assert_eq!(
                lt_n_ct(&a, &b).to_bool_vartime(),
                big(&a) < big(&b),
                "n={n} low limb"
            );
        }
    }
}

/// Sizes around the short and cyclic products' thresholds (one limb either side, their
/// doubles, the sizes the REDC over products gives them) and a few small ones.
fn short_and_cyclic_sizes() -> Vec<usize> {
    use crate::tuning::{
        MULLO_DC_THRESHOLD, MULLO_DC_THRESHOLD_PORTABLE, MULMOD_BNM1_THRESHOLD, REDC_N_THRESHOLD,
        REDC_N_THRESHOLD_PORTABLE,
    };
    let mut s: Vec<usize> = (1..=9).collect();
    for t in [
        MULLO_DC_THRESHOLD,
        MULLO_DC_THRESHOLD_PORTABLE,
        MULMOD_BNM1_THRESHOLD,
        REDC_N_THRESHOLD,
        REDC_N_THRESHOLD_PORTABLE,
    ] {
        s.extend([t - 1, t, t + 1, 2 * t - 1, 2 * t, 2 * t + 1, 4 * t]);
    }
    s.extend([100, 127, 128, 129, 255, 256, 399]);
    s.sort();
    s.dedup();
    s
}

/// `mullo::mullo_n` against num-bigint and GMP's full products mod B^n, random and carry-heavy
/// operands (all ones, top limb 1, sparse, top bits); its scratch filled with garbage.
#[test]
fn short_products_match_num_bigint_and_gmp() {
    let mut rng = StdRng::seed_from_u64(21);
    for n in short_and_cyclic_sizes() {
        for pattern in 0..5 {
            let a = operand(&mut rng, n, pattern);
            let b = operand(&mut rng, n, pattern + 1 + (n as u32 % 4));
            let mut r = vec![Limb::MAX; n];
            let mut scratch = vec![Limb::MAX; mullo::scratch_len(n)];
            mullo::mullo_n_with(&mut r, &a, &b, &mut scratch);
            let want = (big(&a) * big(&b)) % (BigUint::from(1u8) << (64 * n));
            assert_eq!(big(&r), want, "mullo n={n} p={pattern}");
            let want_gmp = (gmp(&a) * gmp(&b)).keep_bits(64 * n as u32);
            assert_eq!(gmp(&r), want_gmp, "mullo vs GMP n={n} p={pattern}");
        }
    }
}

/// `mulmod_bnm1::mulmod_bnm1` against num-bigint and GMP mod B^n - 1: operands of n limbs and
/// shorter (down to one limb), zero, all ones (= 0 mod B^n - 1), B^h + 1 patterns that hit
/// the residue -1 mod B^h + 1 on the split, and the sizes `mulmod_bnm1_size` gives; its
/// scratch filled with garbage.
#[test]
fn cyclic_products_match_num_bigint_and_gmp() {
    let mut rng = StdRng::seed_from_u64(22);
    let mut sizes = short_and_cyclic_sizes();
    sizes.extend(
        sizes
            .clone()
            .iter()
            .map(|&k| mulmod_bnm1::mulmod_bnm1_size(k)),
    );
    sizes.sort();
    sizes.dedup();
    for n in sizes {
        let modulus = (BigUint::from(1u8) << (64 * n)) - 1u8;
        let modulus_gmp = (rug::Integer::from(1) << (64 * n as u32)) - 1;
        let h = n / 2;
        // B^h (a residue -1 mod B^h + 1) and B^h - 1 + B^(2h-1)-ish mixes, when n splits.
        let mut minus_one_half = vec![0; n];
        if h > 0 && h < n {
            minus_one_half[h] = 1;
        }
        for pattern in 0..8 {
            let (a, b) = match pattern {
                5 => (minus_one_half.clone(), operand(&mut rng, n, 0)),
                6 => (minus_one_half.clone(), minus_one_half.clone()),
                7 => (vec![0; n], operand(&mut rng, n, 0)),
                p => (
                    operand(&mut rng, n, p),
                    operand(&mut rng, n.saturating_sub(p as usize % 3).max(1), p + 1),
                ),
            };
            let mut r = vec![Limb::MAX; n];
            let mut scratch = vec![Limb::MAX; mulmod_bnm1::scratch_len(n)];
            mulmod_bnm1::mulmod_bnm1_with(&mut r, &a, &b, &mut scratch);
            let got = big(&r) % &modulus;
            assert_eq!(
                got,
                big(&a) * big(&b) % &modulus,
                "mulmod_bnm1 n={n} p={pattern}"
            );
            let got_gmp = gmp(&r) % &modulus_gmp;
            let want_gmp = gmp(&a) * gmp(&b) % &modulus_gmp;
            assert_eq!(got_gmp, want_gmp, "mulmod_bnm1 vs GMP n={n} p={pattern}");
        }
    }
}
