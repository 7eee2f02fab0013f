//! One-off modular product of huge operands, as `modred mulmod --hex A B M` computes it, against
//! GMP as gmpy2's `a * b % m` does (rug: `mpz_mul`, then `mpz_tdiv_r`), hex in and out on both
//! sides: parse the three operands, multiply and reduce once, print the result. Random odd m with
//! its top bit set, a, b < m; interleaved A B A B, median time of each and median of the
//! per-round ratios. The time of the modred side is also split into its stages.
//!
//! `cargo run --release -p modred --example oneoff [bits...]` (default 2^14 .. 2^20); set
//! `MODRED_CPU=adx` for the tier without IFMA. The cost of the reciprocal and of the Barrett
//! division, in products of the operands' size, goes to stderr.
//!
//! `DIVSWEEP=n1,n2,...` instead measures 2n-by-n division at those divisor sizes (limbs):
//! Newton with its one-off reciprocal / schoolbook, and with a reused reciprocal / schoolbook
//! (the thresholds `DIV_NEWTON_THRESHOLD_*` and `RECIPROCAL_REUSE_THRESHOLD_*`), and the
//! divide-and-conquer division / schoolbook and Newton / divide-and-conquer
//! (`DIV_DC_THRESHOLD`).

use modred::{Natural, Result};
use rand::{rngs::StdRng, Rng, SeedableRng};
use std::hint::black_box;
use std::time::Duration;

#[path = "support/timing.rs"]
mod timing;
use timing::{median, time};

/// What `modred mulmod --hex` does after reading its arguments.
fn modred_mulmod(a: &str, b: &str, m: &str) -> Result<String> {
    let (a, b, m) = (Natural::parse(a)?, Natural::parse(b)?, Natural::parse(m)?);
    Ok(modred::exp::mul_mod_vartime(&a, &b, &m)?.to_hex())
}

fn gmp_mulmod(a: &str, b: &str, m: &str) -> String {
    let parse = |s: &str| rug::Integer::from_str_radix(&s[2..], 16).expect("hex");
    let (a, b, m) = (parse(a), parse(b), parse(m));
    let mut p = a * b;
    p %= &m;
    format!("0x{p:x}")
}

fn main() -> Result<()> {
    let mut sizes: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    if sizes.is_empty() {
        sizes = (14..=20).map(|e| 1 << e).collect();
    }
    println!("tier {}", modred::cpu::tier());
    if let Ok(list) = std::env::var("DIVSWEEP") {
        let mut rng = StdRng::seed_from_u64(5);
        for n in list
            .split(',')
            .filter_map(|x| x.trim().parse::<usize>().ok())
        {
            let d: Vec<u64> = (0..n).map(|_| rng.gen::<u64>() | (1 << 63)).collect();
            let u: Vec<u64> = (0..2 * n).map(|_| rng.gen()).collect();
            let (mut r, mut rr, mut rd, mut rn) = (vec![], vec![], vec![], vec![]);
            for _ in 0..5 {
                let min = Duration::from_millis(100);
                let mut un = u.clone();
                un.push(0);
                let a = time(min, || {
                    let mut w = un.clone();
                    modred::arith::divrem_normalized(&mut w, &d, None);
                    black_box(w);
                });
                let b = time(min, || {
                    black_box(modred::arith::div_newton::div_rem_newton(&u, &d));
                });
                let dc = time(min, || {
                    let mut w = un.clone();
                    modred::arith::div_dc::divrem_dc(&mut w, &d, None);
                    black_box(w);
                });
                let inv = modred::arith::div_newton::Reciprocal::new(&d);
                let c = time(min, || {
                    black_box(inv.div_rem(&u, false));
                });
                r.push(b / a);
                rr.push(c / a);
                rd.push(dc / a);
                rn.push(b / dc);
            }
            println!(
                "n={n} newton/knuth {:.2} reused/knuth {:.2} dc/knuth {:.2} newton/dc {:.2}",
                median(&mut r),
                median(&mut rr),
                median(&mut rd),
                median(&mut rn)
            );
        }
        return Ok(());
    }
    println!(
        "bits     modred         GMP            modred/GMP   (modred: parse, a*b, mod, print)"
    );
    let mut rng = StdRng::seed_from_u64(11);
    for bits in sizes {
        let limbs = bits.div_ceil(64);
        let mut m: Vec<u64> = (0..limbs).map(|_| rng.gen()).collect();
        m[0] |= 1;
        m[limbs - 1] |= 1 << 63;
        let mut below = || {
            let mut a: Vec<u64> = (0..limbs).map(|_| rng.gen()).collect();
            a[limbs - 1] >>= 1;
            Natural::from_limbs(a).to_hex()
        };
        let (a, b) = (below(), below());
        let m = Natural::from_limbs(m).to_hex();
        let want = gmp_mulmod(&a, &b, &m);
        assert_eq!(modred_mulmod(&a, &b, &m)?, want, "{bits} bits");
        let rounds = if bits >= 1 << 19 { 5 } else { 9 };
        let min = Duration::from_millis(200);
        let (mut tm, mut tg, mut ratio) = (vec![], vec![], vec![]);
        for _ in 0..rounds {
            let x = time(min, || {
                black_box(modred_mulmod(&a, &b, &m).ok());
            });
            let y = time(min, || {
                black_box(gmp_mulmod(&a, &b, &m));
            });
            tm.push(x);
            tg.push(y);
            ratio.push(x / y);
        }
        // Stages of the modred side, once each (medians of short loops).
        let (pa, pb, pm) = (
            Natural::parse(&a)?,
            Natural::parse(&b)?,
            Natural::parse(&m)?,
        );
        let product = &pa * &pb;
        let r = product.rem_vartime(&pm)?;
        let stages = [
            time(min, || {
                black_box((Natural::parse(&a).ok(), Natural::parse(&b).ok()));
                black_box(Natural::parse(&m).ok());
            }),
            time(min, || {
                black_box(&pa * &pb);
            }),
            time(min, || {
                black_box(product.rem_vartime(&pm).ok());
            }),
            time(min, || {
                black_box(r.to_hex());
            }),
        ];
        let recip = modred::arith::div_newton::Reciprocal::new(pm.limbs());
        let tr = time(min, || {
            black_box(modred::arith::div_newton::Reciprocal::one_off(pm.limbs()));
        });
        let td = time(min, || {
            black_box(recip.div_rem(product.limbs(), false));
        });
        eprintln!(
            "   reciprocal {:.2} products, Barrett {:.2} products",
            tr / stages[1],
            td / stages[1]
        );
        let total: f64 = stages.iter().sum();
        println!(
            "2^{:<6} {:>10.3} ms  {:>10.3} ms   {:>6.2}       {}",
            bits.trailing_zeros(),
            median(&mut tm) * 1e3,
            median(&mut tg) * 1e3,
            median(&mut ratio),
            stages
                .iter()
                .map(|s| format!("{:.0}%", 100.0 * s / total))
                .collect::<Vec<_>>()
                .join(" ")
        );
    }
    Ok(())
}
