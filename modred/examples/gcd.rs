//! Modular inverse (and GCD) against GMP: `exp::inverse_vartime` vs rug's `Integer::invert`
//! (GMP's mpz_invert, half-GCD), random odd m and random a < m (a pool of distinct pairs per
//! size, about 2^21 bits in all), interleaved A B A B; prints the median time per call of each
//! and the median of the per-round ratios.
//!
//! `cargo run --release -p modred --example gcd [bits...] [--gcd]` (default 2^10 .. 2^22).

use modred::exp::{gcd_vartime, inverse_vartime};
use modred::Natural;
use rand::{rngs::StdRng, Rng, SeedableRng};
use std::time::Duration;

#[path = "support/timing.rs"]
mod timing;
use timing::{median, time};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let gcd = args.iter().any(|a| a == "--gcd");
    let mut sizes: Vec<usize> = args.iter().filter_map(|a| a.parse().ok()).collect();
    if sizes.is_empty() {
        sizes = (10..=22).step_by(2).map(|e| 1 << e).collect();
    }
    let mut rng = StdRng::seed_from_u64(7);
    println!(
        "bits      modred        GMP           modred/GMP ({})",
        if gcd { "gcd" } else { "inverse" }
    );
    for bits in sizes {
        // Distinct operands per call (about 2^21 bits in all): one pair repeated lets the branch
        // predictors learn its quotient sequence, which flatters both sides below 2^14 bits.
        let limbs = bits.div_ceil(64);
        let pool = ((1usize << 21) / bits).max(1);
        let (mut ours, mut gmp) = (Vec::with_capacity(pool), Vec::with_capacity(pool));
        for _ in 0..pool {
            let mut m: Vec<u64> = (0..limbs).map(|_| rng.gen()).collect();
            m[0] |= 1;
            m[limbs - 1] |= 1 << 63;
            let mut a: Vec<u64> = (0..limbs).map(|_| rng.gen()).collect();
            a[limbs - 1] >>= 1;
            let order = rug::integer::Order::Lsf;
            gmp.push((
                rug::Integer::from_digits(&a, order),
                rug::Integer::from_digits(&m, order),
            ));
            ours.push((Natural::from_limbs(a), Natural::from_limbs(m)));
        }
        let rounds = if bits >= 1 << 20 {
            3
        } else if bits >= 1 << 16 {
            5
        } else {
            9
        };
        let min = Duration::from_millis(if bits >= 1 << 20 { 0 } else { 200 });
        let (mut tm, mut tg, mut ratio) = (vec![], vec![], vec![]);
        for _ in 0..rounds {
            let x = time(min, || {
                for (an, mn) in &ours {
                    if gcd {
                        std::hint::black_box(gcd_vartime(an, mn));
                    } else {
                        std::hint::black_box(inverse_vartime(an, mn).ok());
                    }
                }
            }) / pool as f64;
            let y = time(min, || {
                for (ag, mg) in &gmp {
                    if gcd {
                        std::hint::black_box(ag.clone().gcd(mg));
                    } else {
                        std::hint::black_box(ag.clone().invert(mg).ok());
                    }
                }
            }) / pool as f64;
            tm.push(x);
            tg.push(y);
            ratio.push(x / y);
        }
        println!(
            "2^{:<6} {:>10.3} ms {:>10.3} ms   {:.2}",
            bits.trailing_zeros(),
            median(&mut tm) * 1e3,
            median(&mut tg) * 1e3,
            median(&mut ratio)
        );
    }
}
