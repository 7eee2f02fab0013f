//! Large-product thresholds: at each operand size (limbs), one level of Toom-3, one level of
//! Toom-4 and the three-prime NTT, for multiplication and squaring (the pieces below go through
//! the library's dispatch, as they do in `arith::mul_n`), and `arith::mul_n` / `arith::sqr`
//! themselves against GMP's `mpz_mul` (rug), and the tier's NTT against the portable one (the
//! AVX2 + FMA kernels on the adx tier). Interleaved rounds, medians of the per-round ratios. The thresholds `TOOM4_THRESHOLD`, `TOOM4_SQR_THRESHOLD` and the NTT's come from here.
//!
//! `cargo run --release -p modred --features internals --example mulsweep [limbs...]` (default 200 .. 4000); set
//! `MODRED_CPU=adx` or `portable` for the tiers without IFMA.

use modred::arith::{mul_n, ntt, sqr, toom, toom4};
use rand::{rngs::StdRng, Rng, SeedableRng};
use std::hint::black_box;
use std::time::Duration;

#[path = "support/timing.rs"]
mod timing;
use timing::{median, time};

const ROUNDS: usize = 7;

fn main() {
    let mut sizes: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    if sizes.is_empty() {
        sizes = vec![
            200, 256, 320, 384, 448, 512, 640, 768, 1024, 1536, 2000, 2500, 3000, 4000,
        ];
    }
    println!("tier {}", modred::cpu::tier());
    println!(
        "limbs  toom4/toom3 mul  sqr   ntt/toom4 mul  sqr   modred/gmp mul  sqr   ntt/portable-ntt"
    );
    let mut rng = StdRng::seed_from_u64(9);
    let min = Duration::from_millis(60);
    for n in sizes.into_iter().filter(|&n| toom4::splits(n)) {
        let a: Vec<u64> = (0..n).map(|_| rng.gen()).collect();
        let b: Vec<u64> = (0..n).map(|_| rng.gen()).collect();
        let (ga, gb) = (
            rug::Integer::from_digits(&a, rug::integer::Order::Lsf),
            rug::Integer::from_digits(&b, rug::integer::Order::Lsf),
        );
        let mut r = vec![0u64; 2 * n];
        let mut ratios = vec![Vec::new(); 7];
        for _ in 0..ROUNDS {
            let t3 = time(min, || toom::mul_toom3(black_box(&mut r), &a, &b));
            let t4 = time(min, || toom4::mul_toom4(black_box(&mut r), &a, &b));
            let tn = time(min, || ntt::mul_ntt(black_box(&mut r), &a, &b));
            let tp = time(min, || ntt::mul_ntt_portable(black_box(&mut r), &a, &b));
            let s3 = time(min, || toom::sqr_toom3(black_box(&mut r), &a));
            let s4 = time(min, || toom4::sqr_toom4(black_box(&mut r), &a));
            let sn = time(min, || ntt::sqr_ntt(black_box(&mut r), &a));
            let tm = time(min, || mul_n(black_box(&mut r), &a, &b));
            let tg = time(min, || {
                black_box(rug::Integer::from(&ga * &gb));
            });
            let sm = time(min, || sqr(black_box(&mut r), &a));
            let sg = time(min, || {
                black_box(rug::Integer::from(ga.square_ref()));
            });
            for (v, x) in ratios.iter_mut().zip([
                t4 / t3,
                s4 / s3,
                tn / t4,
                sn / s4,
                tm / tg,
                sm / sg,
                tn / tp,
            ]) {
                v.push(x);
            }
        }
        let m: Vec<f64> = ratios.iter_mut().map(|v| median(v)).collect();
        println!(
            "{n:5}  {:15.2} {:5.2}   {:13.2} {:5.2}   {:14.2} {:5.2}   {:16.2}",
            m[0], m[1], m[2], m[3], m[4], m[5], m[6]
        );
    }
}
