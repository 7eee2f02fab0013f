//! Reducer kernels per method at 256..4096 bits, next to GMP (rug) and our own multiplication.
//!
//! For each size, one criterion group `reducers/<bits>` holds:
//! - `<reducer>/reduce_wide`: reduction of a 2k-limb argument (a product of two residues, so
//!   every method accepts it; the 2k-limb copy into the destroyed buffer is included, ~1% at
//!   256 bits and less above);
//! - `<reducer>/mul`, `<reducer>/sqr`: the modular product / square in the method's
//!   representation, through the `Reducer` trait with preallocated scratch (kernels only);
//! - `gmp/mpz_mul`: k x k multiplication; `gmp/mpz_mul+mpz_mod`: the same plus `mpz_tdiv_r`
//!   (the target: our fastest 2048-bit `mul` <= 1.0x this);
//! - `modred/mul_karatsuba`: our k x k product (the target: Montgomery REDC of a 2k-limb
//!   argument within 1.2x of it).
//!
//! The bit-serial reference is benchmarked only up to 512 bits.
//! Before the criterion groups, the two targets are also measured interleaved at 2048 bits
//! (round-robin batches, median of per-round ratios), which is robust on a loaded machine.
//! Run: `cargo bench -p modred --bench reducers -- --warm-up-time 1 --measurement-time 2`
//! (append a filter such as `reducers/2048` to run one size).

use criterion::{black_box, criterion_group, BenchmarkId, Criterion};
use modred::arith::{karatsuba_scratch_len, mul_karatsuba};
use modred::{reduce, Natural, REDUCERS};
use rand::{rngs::StdRng, Rng, SeedableRng};
use rug::{Assign, Integer};

const BITS: [usize; 5] = [256, 512, 1024, 2048, 4096];

fn limbs_rug(x: &[u64]) -> Integer {
    Integer::from_digits(x, rug::integer::Order::Lsf)
}

fn bench(c: &mut Criterion) {
    let mut rng = StdRng::seed_from_u64(2048);
    for bits in BITS {
        let k = bits / 64;
        let mut m: Vec<u64> = (0..k).map(|_| rng.gen()).collect();
        m[0] |= 1;
        m[k - 1] |= 1 << 63;
        let below = |rng: &mut StdRng| {
            let mut v: Vec<u64> = (0..k).map(|_| rng.gen()).collect();
            v[k - 1] >>= 1; // < 2^(64k-1) <= m
            v
        };
        let a = below(&mut rng);
        let b = below(&mut rng);
        let mut prod = vec![0; 2 * k];
        let mut ks = vec![0; karatsuba_scratch_len(k)];
        mul_karatsuba(&mut prod, &a, &b, &mut ks);
        let mn = Natural::from_slice(&m);

        let mut g = c.benchmark_group(format!("reducers/{bits}"));
        for info in REDUCERS {
            if info.name == "montgomery-bitserial" && bits > 512 {
                continue;
            }
            // Special-form methods (diminished-radix) serve only moduli of their form.
            let Ok(r) = reduce::build(info.kind, &mn) else {
                continue;
            };
            let mut scratch = vec![0; r.scratch_len()];
            let mut ar = vec![0; k];
            let mut br = vec![0; k];
            r.to_repr(&mut ar, &a, &mut scratch);
            r.to_repr(&mut br, &b, &mut scratch);
            let mut out = vec![0; k];
            let mut x = prod.clone();
            g.bench_function(BenchmarkId::new(info.name, "reduce_wide"), |bch| {
                bch.iter(|| {
                    x.copy_from_slice(&prod);
                    r.reduce_wide(&mut out, black_box(&mut x), &mut scratch);
                })
            });
            g.bench_function(BenchmarkId::new(info.name, "mul"), |bch| {
                bch.iter(|| r.mul(&mut out, black_box(&ar), black_box(&br), &mut scratch))
            });
            g.bench_function(BenchmarkId::new(info.name, "sqr"), |bch| {
                bch.iter(|| r.sqr(&mut out, black_box(&ar), &mut scratch))
            });
        }
        let (ga, gb, gm) = (limbs_rug(&a), limbs_rug(&b), limbs_rug(&m));
        let mut gr = Integer::with_capacity(2 * bits);
        g.bench_function(BenchmarkId::new("gmp", "mpz_mul"), |bch| {
            bch.iter(|| gr.assign(black_box(&ga) * black_box(&gb)))
        });
        g.bench_function(BenchmarkId::new("gmp", "mpz_mul+mpz_mod"), |bch| {
            bch.iter(|| {
                gr.assign(black_box(&ga) * black_box(&gb));
                gr %= black_box(&gm);
            })
        });
        let mut p = vec![0; 2 * k];
        g.bench_function(BenchmarkId::new("modred", "mul_karatsuba"), |bch| {
            bch.iter(|| mul_karatsuba(&mut p, black_box(&a), black_box(&b), &mut ks))
        });
        g.finish();
    }
}

/// The two targets at 2048 bits, measured interleaved (round-robin batches, so load
/// drift on a shared machine hits every competitor alike) and reported as the median of the
/// per-round ratios: fastest `mul` vs GMP `mpz_mul` + `mpz_mod`, and Montgomery REDC of a
/// 2k-limb argument vs our k x k `mul_karatsuba`.
fn interleaved_targets() {
    use std::time::Instant;
    const BITS: usize = 2048;
    const ROUNDS: usize = 41;
    const BATCH: usize = 200;
    let k = BITS / 64;
    let mut rng = StdRng::seed_from_u64(7);
    let mut m: Vec<u64> = (0..k).map(|_| rng.gen()).collect();
    m[0] |= 1;
    m[k - 1] |= 1 << 63;
    let a: Vec<u64> = (0..k)
        .map(|i| rng.gen::<u64>() >> (if i == k - 1 { 1 } else { 0 }))
        .collect();
    let b: Vec<u64> = (0..k)
        .map(|i| rng.gen::<u64>() >> (if i == k - 1 { 1 } else { 0 }))
        .collect();
    let mn = Natural::from_slice(&m);
    let mut prod = vec![0; 2 * k];
    let mut ks = vec![0; karatsuba_scratch_len(k)];
    mul_karatsuba(&mut prod, &a, &b, &mut ks);

    let mut names: Vec<String> = Vec::new();
    let mut jobs: Vec<Box<dyn FnMut()>> = Vec::new();
    for info in REDUCERS.iter().filter(|r| r.name != "montgomery-bitserial") {
        let Ok(r) = reduce::build(info.kind, &mn) else {
            continue; // special-form methods refuse a random modulus
        };
        let mut s = vec![0; r.scratch_len()];
        let (mut ar, mut br, mut out) = (vec![0; k], vec![0; k], vec![0; k]);
        r.to_repr(&mut ar, &a, &mut s);
        r.to_repr(&mut br, &b, &mut s);
        names.push(format!("{}/mul", info.name));
        jobs.push(Box::new(move || {
            r.mul(&mut out, black_box(&ar), black_box(&br), &mut s)
        }));
    }
    let redc = reduce::build(modred::ReducerKind::MontgomeryRedc, &mn).unwrap();
    let mut rs = vec![0; redc.scratch_len()];
    let (mut x, mut out, p2) = (prod.clone(), vec![0; k], prod.clone());
    names.push("montgomery-redc/reduce_wide".into());
    jobs.push(Box::new(move || {
        x.copy_from_slice(&p2);
        redc.reduce_wide(&mut out, black_box(&mut x), &mut rs)
    }));
    let (aa, bb) = (a.clone(), b.clone());
    let mut p = vec![0; 2 * k];
    names.push("modred/mul_karatsuba".into());
    jobs.push(Box::new(move || {
        mul_karatsuba(&mut p, black_box(&aa), black_box(&bb), &mut ks)
    }));
    let (ga, gb, gm) = (limbs_rug(&a), limbs_rug(&b), limbs_rug(&m));
    let mut gr = Integer::with_capacity(2 * BITS);
    names.push("gmp/mpz_mul+mpz_mod".into());
    jobs.push(Box::new(move || {
        gr.assign(black_box(&ga) * black_box(&gb));
        gr %= black_box(&gm);
    }));

    let mut times = vec![Vec::with_capacity(ROUNDS); jobs.len()];
    for round in 0..=ROUNDS {
        for (j, job) in jobs.iter_mut().enumerate() {
            let t = Instant::now();
            for _ in 0..BATCH {
                job();
            }
            if round > 0 {
                // round 0 warms up
                times[j].push(t.elapsed().as_secs_f64() / BATCH as f64);
            }
        }
    }
    let median = |mut v: Vec<f64>| {
        v.sort_by(|x, y| x.partial_cmp(y).unwrap());
        v[v.len() / 2]
    };
    let idx = |n: &str| names.iter().position(|x| x == n).unwrap();
    let ratio =
        |i: usize, j: usize| median((0..ROUNDS).map(|r| times[i][r] / times[j][r]).collect());
    let gmp = idx("gmp/mpz_mul+mpz_mod");
    let kar = idx("modred/mul_karatsuba");
    println!("interleaved {BITS}-bit medians ({ROUNDS} rounds x {BATCH}):");
    for (i, n) in names.iter().enumerate() {
        println!(
            "  {n:<32} {:>8.3} us   vs gmp mul+mod {:.3}x   vs mul_karatsuba {:.3}x",
            median(times[i].clone()) * 1e6,
            ratio(i, gmp),
            ratio(i, kar)
        );
    }
    let best = (0..names.len())
        .filter(|&i| names[i].ends_with("/mul"))
        .min_by(|&i, &j| ratio(i, gmp).partial_cmp(&ratio(j, gmp)).unwrap())
        .unwrap();
    println!(
        "  target 1: fastest mul ({}) / gmp mpz_mul+mpz_mod = {:.3} (want <= 1.0)",
        names[best],
        ratio(best, gmp)
    );
    println!(
        "  target 2: montgomery-redc reduce_wide / mul_karatsuba = {:.3} (want <= 1.2)",
        ratio(idx("montgomery-redc/reduce_wide"), kar)
    );
}

criterion_group!(benches, bench);

fn main() {
    // Only when benchmarking (not under `cargo test --benches`, which passes no --bench).
    if std::env::args().any(|a| a == "--bench") {
        interleaved_targets();
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
