//! Threshold tuning: schoolbook vs one level of Karatsuba for multiplication and squaring at
//! 16..96 limbs, to justify `KARATSUBA_THRESHOLD` / `KARATSUBA_SQR_THRESHOLD` in tuning.rs.
//!
//! `karatsuba1` is one Karatsuba level over the schoolbook kernels, assembled here from the
//! library's public kernels (the library's own `mul_karatsuba` only recurses from its current
//! threshold on, so it cannot show the crossover below it); `library` is what `arith::mul` /
//! `arith::sqr` do today. The threshold is the smallest size from which `karatsuba1` wins.
//! Run: `cargo bench -p modred --bench tuning -- --warm-up-time 1 --measurement-time 2`

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion};
use modred::arith::{
    add_in_place, add_n, cmp_n, karatsuba_scratch_len, mul_basecase, mul_karatsuba, sqr_basecase,
    sqr_karatsuba, sub_in_place, sub_n,
};
use rand::{rngs::StdRng, Rng, SeedableRng};

const SIZES: [usize; 11] = [16, 24, 28, 32, 36, 40, 48, 56, 64, 80, 96];

/// |x - y| for equal lengths; returns whether x < y.
fn abs_diff(r: &mut [u64], x: &[u64], y: &[u64]) -> bool {
    if cmp_n(x, y).is_lt() {
        sub_n(r, y, x);
        true
    } else {
        sub_n(r, x, y);
        false
    }
}

/// r = a b by one Karatsuba level (even n) over `base` products; `t` has 4n limbs.
fn karatsuba1(
    r: &mut [u64],
    a: &[u64],
    b: Option<&[u64]>,
    t: &mut [u64],
    mul: fn(&mut [u64], &[u64], &[u64]),
    sqr: fn(&mut [u64], &[u64]),
) {
    let n = a.len();
    let h = n / 2;
    let (da, rest) = t.split_at_mut(h);
    let (db, rest) = rest.split_at_mut(h);
    let (wm, mid) = rest.split_at_mut(2 * h);
    let mid = &mut mid[..2 * h];
    let neg_a = abs_diff(da, &a[h..], &a[..h]);
    let sign_differs = match b {
        Some(b) => {
            let neg_b = abs_diff(db, &b[h..], &b[..h]);
            mul(wm, da, db);
            let (lo, hi) = r.split_at_mut(2 * h);
            mul(lo, &a[..h], &b[..h]);
            mul(hi, &a[h..], &b[h..]);
            neg_a != neg_b
        }
        None => {
            sqr(wm, da);
            let (lo, hi) = r.split_at_mut(2 * h);
            sqr(lo, &a[..h]);
            sqr(hi, &a[h..]);
            false
        }
    };
    let mut top = add_n(mid, &r[..2 * h], &r[2 * h..]);
    if sign_differs {
        top += add_in_place(mid, wm);
    } else {
        top -= sub_in_place(mid, wm);
    }
    add_in_place(&mut r[h..], mid);
    add_in_place(&mut r[3 * h..], &[top]);
}

fn sqr_base_adapter(r: &mut [u64], a: &[u64]) {
    sqr_basecase(r, a)
}

fn bench(c: &mut Criterion) {
    let mut rng = StdRng::seed_from_u64(96);
    let mut g = c.benchmark_group("tuning");
    for n in SIZES {
        let a: Vec<u64> = (0..n).map(|_| rng.gen()).collect();
        let b: Vec<u64> = (0..n).map(|_| rng.gen()).collect();
        let mut r = vec![0; 2 * n];
        let mut t = vec![0; 4 * n];
        let mut ks = vec![0; karatsuba_scratch_len(n).max(1)];
        // Check the assembled Karatsuba against schoolbook before timing it.
        let mut want = vec![0; 2 * n];
        mul_basecase(&mut want, &a, &b);
        karatsuba1(&mut r, &a, Some(&b), &mut t, mul_basecase, sqr_base_adapter);
        assert_eq!(r, want, "karatsuba1 mul n={n}");
        sqr_basecase(&mut want, &a);
        karatsuba1(&mut r, &a, None, &mut t, mul_basecase, sqr_base_adapter);
        assert_eq!(r, want, "karatsuba1 sqr n={n}");

        g.bench_function(BenchmarkId::new("mul/schoolbook", n), |bch| {
            bch.iter(|| mul_basecase(&mut r, black_box(&a), black_box(&b)))
        });
        g.bench_function(BenchmarkId::new("mul/karatsuba1", n), |bch| {
            bch.iter(|| {
                karatsuba1(
                    &mut r,
                    black_box(&a),
                    Some(black_box(&b)),
                    &mut t,
                    mul_basecase,
                    sqr_base_adapter,
                )
            })
        });
        g.bench_function(BenchmarkId::new("mul/library", n), |bch| {
            bch.iter(|| mul_karatsuba(&mut r, black_box(&a), black_box(&b), &mut ks))
        });
        g.bench_function(BenchmarkId::new("sqr/schoolbook", n), |bch| {
            bch.iter(|| sqr_basecase(&mut r, black_box(&a)))
        });
        g.bench_function(BenchmarkId::new("sqr/karatsuba1", n), |bch| {
            bch.iter(|| {
                karatsuba1(
                    &mut r,
                    black_box(&a),
                    None,
                    &mut t,
                    mul_basecase,
                    sqr_base_adapter,
                )
            })
        });
        g.bench_function(BenchmarkId::new("sqr/library", n), |bch| {
            bch.iter(|| sqr_karatsuba(&mut r, black_box(&a), &mut ks))
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
