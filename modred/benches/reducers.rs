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
//! Run: `cargo bench -p modred --bench reducers -- --warm-up-time 1 --measurement-time 2`
//! (append a filter such as `reducers/2048` to run one size).

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion};
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
            let r = reduce::build(info.name, &mn).expect("odd modulus accepted");
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

criterion_group!(benches, bench);
criterion_main!(benches);
