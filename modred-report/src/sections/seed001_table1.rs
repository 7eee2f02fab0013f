//! Table 1 of Lim, Hwang, Lee, *Fast Modular Reduction With Precomputation*, JW-ISC '97:
//! multiplication and squaring of |n|-bit numbers, schoolbook against
//! Karatsuba at the best recursion depth.
//!
//! modred's `arith::mul_karatsuba` recurses while the operand is at least
//! `tuning::KARATSUBA_THRESHOLD` limbs, a compile-time constant, so its depth is fixed per
//! size. To find the *best depth* as the paper does, this file has a small depth-limited
//! Karatsuba driver ([`mul_depth`]): `depth` levels of the same subtractive Karatsuba step, then
//! `arith::mul_basecase` on the pieces. Depths 0..=3 are timed; the best is reported.

use super::common::{gmp_mul, gmp_sqr};
use crate::data::{limbs_for, Rng};
use crate::harness::{measure_row, Competitor};
use crate::table::{Cell, Row, Table};
use crate::Ctx;
use modred::arith::{self, add_in_place, cmp, mul_basecase, sub_in_place};
use modred::tuning::{KARATSUBA_SQR_THRESHOLD, KARATSUBA_THRESHOLD};
use modred::{Limb, Natural};
use std::hint::black_box;

const MAX_DEPTH: u32 = 3;

/// Scratch limbs for [`mul_depth`] on n-limb operands.
pub fn depth_scratch_len(n: usize, depth: u32) -> usize {
    if depth == 0 || n < 4 {
        0
    } else {
        let hh = n - n / 2;
        6 * hh + 1 + depth_scratch_len(hh, depth - 1)
    }
}

/// `out = |x - y|` with `x.len() == out.len() >= y.len()`; true if x < y.
fn abs_diff(out: &mut [Limb], x: &[Limb], y: &[Limb]) -> bool {
    if cmp(x, y).is_lt() {
        out[..y.len()].copy_from_slice(y);
        out[y.len()..].fill(0);
        sub_in_place(out, x);
        true
    } else {
        out.copy_from_slice(x);
        sub_in_place(out, y);
        false
    }
}

/// `r = a * b` (equal lengths n, `r.len() == 2n`) by `depth` levels of subtractive Karatsuba
/// (Lim–Hwang–Lee 1997 §1) over `arith::mul_basecase`. Variable time.
pub fn mul_depth(r: &mut [Limb], a: &[Limb], b: &[Limb], depth: u32, scratch: &mut [Limb]) {
    let n = a.len();
    if depth == 0 || n < 4 {
        return mul_basecase(r, a, b);
    }
    let (h, hh) = (n / 2, n - n / 2);
    let (al, ah) = a.split_at(h);
    let (bl, bh) = b.split_at(h);
    let (da, rest) = scratch.split_at_mut(hh);
    let (db, rest) = rest.split_at_mut(hh);
    let (wm, rest) = rest.split_at_mut(2 * hh);
    let (mid, rest) = rest.split_at_mut(2 * hh + 1);
    let neg = abs_diff(da, ah, al) != abs_diff(db, bh, bl);
    mul_depth(wm, da, db, depth - 1, rest);
    {
        let (lo, hi) = r.split_at_mut(2 * h);
        mul_depth(lo, al, bl, depth - 1, rest);
        mul_depth(hi, ah, bh, depth - 1, rest);
    }
    // mid = w_H + w_L - (a_H - a_L)(b_H - b_L) = a_H b_L + a_L b_H >= 0.
    mid[..2 * hh].copy_from_slice(&r[2 * h..]);
    mid[2 * hh] = 0;
    add_in_place(mid, &r[..2 * h]);
    if neg {
        add_in_place(mid, wm);
    } else {
        sub_in_place(mid, wm);
    }
    let len = arith::normalized_len(mid).max(1);
    let c = add_in_place(&mut r[h..], &mid[..len]);
    debug_assert_eq!(c, 0);
}

/// Depth `mul_karatsuba` reaches on n limbs with the library threshold.
fn library_depth(mut n: usize, threshold: usize) -> u32 {
    let mut d = 0;
    while n >= threshold.max(2) {
        n -= n / 2;
        d += 1;
    }
    d
}

fn depth_competitor<'a>(a: &Natural, b: &Natural, k: usize, depth: u32) -> Competitor<'a> {
    let pad = |x: &Natural| x.to_padded(k).expect("operands of k limbs");
    let (a, b) = (pad(a), pad(b));
    let mut r: Vec<Limb> = vec![0; 2 * k];
    let mut scratch: Vec<Limb> = vec![0; depth_scratch_len(k, depth)];
    Competitor::new(format!("multiply depth {depth}"), move |check| {
        mul_depth(&mut r, &a, &b, depth, &mut scratch);
        black_box(&r);
        check.then(|| Natural::from_slice(&r))
    })
}

pub fn run(ctx: &mut Ctx) -> Vec<Table> {
    let sizes = ctx.sizes(&[512, 1024, 2048], &[512, 768, 1024, 2048, 4096]);
    let mut t = Table::new(
        "seed001-table1",
        "multiplication and squaring: schoolbook vs Karatsuba (best depth)",
        "Lim–Hwang–Lee 1997 Table 1",
        "µs per operation",
        "|n| bits",
    );
    let mut cols = vec![
        "square schoolbook".to_string(),
        "square modred (library threshold)".into(),
        "GMP square".into(),
    ];
    cols.extend((0..=MAX_DEPTH).map(|d| format!("multiply depth {d}")));
    cols.extend([
        "multiply modred (library threshold)".to_string(),
        "GMP mpz_mul".into(),
        "best multiply depth".into(),
        "library multiply depth".into(),
        "library square depth".into(),
    ]);
    t.columns = cols;
    t.reference = Some("GMP mpz_mul".into());
    for &bits in &sizes {
        ctx.step(format!("seed001-table1 {bits} bits"));
        let k = limbs_for(bits);
        let mut rng = Rng::new(0x1001_0000 + bits as u64);
        let (a, b) = (rng.exact(bits), rng.exact(bits));
        let pad = |x: &Natural| x.to_padded(k).expect("operands of k limbs");
        let (ak, bk) = (pad(&a), pad(&b));
        let prod = &a * &b;
        let sq = &a * &a;
        let mut comps: Vec<Competitor> = Vec::new();
        {
            let mut r: Vec<Limb> = vec![0; 2 * k];
            let ak = ak.clone();
            comps.push(
                Competitor::new("square schoolbook", move |check| {
                    arith::sqr_basecase(&mut r, &ak);
                    black_box(&r);
                    check.then(|| Natural::from_slice(&r))
                })
                .expecting(sq.clone()),
            );
        }
        {
            let mut r: Vec<Limb> = vec![0; 2 * k];
            let mut s: Vec<Limb> = vec![0; arith::karatsuba_scratch_len(k)];
            let ak = ak.clone();
            comps.push(
                Competitor::new("square modred (library threshold)", move |check| {
                    arith::sqr_karatsuba(&mut r, &ak, &mut s);
                    black_box(&r);
                    check.then(|| Natural::from_slice(&r))
                })
                .expecting(sq.clone()),
            );
        }
        comps.push(gmp_sqr("GMP square", &a).expecting(sq.clone()));
        for d in 0..=MAX_DEPTH {
            comps.push(depth_competitor(&a, &b, k, d));
        }
        {
            let mut r: Vec<Limb> = vec![0; 2 * k];
            let mut s: Vec<Limb> = vec![0; arith::karatsuba_scratch_len(k)];
            comps.push(Competitor::new(
                "multiply modred (library threshold)",
                move |check| {
                    arith::mul_karatsuba(&mut r, &ak, &bk, &mut s);
                    black_box(&r);
                    check.then(|| Natural::from_slice(&r))
                },
            ));
        }
        comps.push(gmp_mul("GMP mpz_mul", &a, &b));
        let mut cells = measure_row(&ctx.proto, &prod, &mut comps, &t);
        // Best depth among the timed depth columns.
        let best = (0..=MAX_DEPTH as usize)
            .filter_map(|d| cells[3 + d].value().map(|v| (d, v)))
            .min_by(|x, y| x.1.total_cmp(&y.1));
        cells.push(match best {
            Some((d, _)) => Cell::number(d as f64),
            None => Cell::na("no depth column was timed"),
        });
        cells.push(Cell::number(library_depth(k, KARATSUBA_THRESHOLD) as f64));
        cells.push(Cell::number(
            library_depth(k, KARATSUBA_SQR_THRESHOLD) as f64
        ));
        t.rows.push(Row {
            label: bits.to_string(),
            x: Some(bits as f64),
            cells,
        });
    }
    t.note(format!("`multiply depth d`: d levels of subtractive Karatsuba (the report's depth-limited driver over `arith::mul_basecase`, same algorithm as `arith::mul_karatsuba`) then schoolbook; `best multiply depth` is the fastest of them, as the paper's parenthesised depths. `modred (library threshold)` are `arith::mul_karatsuba` / `arith::sqr_karatsuba` whose depth is fixed by `tuning.rs` (KARATSUBA_THRESHOLD = {KARATSUBA_THRESHOLD}, KARATSUBA_SQR_THRESHOLD = {KARATSUBA_SQR_THRESHOLD} limbs; the last two columns)."));
    t.note("Squaring: `arith::sqr_basecase` (symmetric schoolbook, k(k+1)/2 multiplications) and the library's Karatsuba squaring; no separate depth sweep for squaring.");
    vec![t]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depth_driver_matches_gmp() {
        let mut rng = Rng::new(3);
        for k in [1, 3, 4, 5, 8, 13, 16, 33] {
            let (a, b) = (rng.exact(64 * k), rng.exact(64 * k - 5));
            let want = crate::data::from_rug(&(crate::data::to_rug(&a) * crate::data::to_rug(&b)));
            for d in 0..=MAX_DEPTH {
                let mut c = depth_competitor(&a, &b, k, d);
                assert_eq!((c.op.as_mut().unwrap())(true).unwrap(), want, "k={k} d={d}");
            }
            // all-ones operands exercise the carries
            let ones = Natural::from_limbs(vec![u64::MAX; k]);
            let want = &ones * &ones;
            let mut c = depth_competitor(&ones, &ones, k, MAX_DEPTH);
            assert_eq!((c.op.as_mut().unwrap())(true).unwrap(), want);
        }
        assert_eq!(library_depth(16, 32), 0);
        assert_eq!(library_depth(32, 32), 1);
        assert_eq!(library_depth(64, 32), 2);
    }
}
