//! Scaling: how cost grows with the operand size, modred against GMP from 4096 to 2^20 bits —
//! multiplication (`mpz_mul`), reduction of a 2k-limb argument (`mpz_mod`), and exponentiation
//! with a 256-bit exponent (`mpz_powm`) — with log-log plots. Above a few thousand bits modred
//! multiplies by Toom-3 and the three-prime NTT, divides by a Newton reciprocal, and reduces
//! Montgomery products over full products (`redc_n`), so the ratios should stay flat.

use super::common::{gmp_mod, gmp_mul, gmp_powm, oracle_mod, oracle_powm, reducer_reduce};
use crate::data::Rng;
use crate::harness::{measure_row, Competitor};
use crate::table::{PlotSpec, Row, Table};
use crate::Ctx;
use modred::Natural;
use std::hint::black_box;

const FULL: [usize; 9] = [
    4096, 8192, 16384, 32768, 65536, 131072, 262144, 524288, 1048576,
];
const QUICK: [usize; 4] = [4096, 65536, 262144, 1048576];
/// The quick report stops the exponentiation here (GMP takes about 1.5 s per call at 2^20 bits).
const QUICK_POW_MAX: usize = 262144;

/// Time `comps` on one row of `t` (x = `bits`), checked against `want`.
fn row(ctx: &Ctx, t: &mut Table, bits: usize, want: &Natural, mut comps: Vec<Competitor>) {
    let cells = measure_row(&ctx.proto, want, &mut comps, t);
    t.rows.push(Row {
        label: bits.to_string(),
        x: Some(bits as f64),
        cells,
    });
}

fn table(id: &str, title: &str, unit: &str, plot: &str) -> Table {
    let mut t = Table::new(id, title, "scaling", unit, "bits");
    t.plot = Some(PlotSpec {
        file: plot.into(),
        x_label: "operand bits".into(),
        y_label: unit.into(),
        log_x: true,
    });
    t
}

fn mul_table(ctx: &mut Ctx, sizes: &[usize]) -> Table {
    let mut t = table(
        "scaling-mul",
        "multiplication of two n-bit numbers",
        "µs per product",
        "scaling-mul.svg",
    );
    t.columns = vec!["modred mul".into(), "GMP mpz_mul".into()];
    t.reference = Some("GMP mpz_mul".into());
    for &bits in sizes {
        ctx.step(format!("scaling mul {bits} bits"));
        let mut rng = Rng::new(0x5ca1_0000 + bits as u64);
        let (a, b) = (rng.exact(bits), rng.exact(bits));
        let want = &a * &b;
        let (ma, mb) = (a.clone(), b.clone());
        let comps = vec![
            Competitor::new("modred mul", move |check| {
                let r = &ma * &mb;
                black_box(&r);
                check.then_some(r)
            }),
            gmp_mul("GMP mpz_mul", &a, &b),
        ];
        row(ctx, &mut t, bits, &want, comps);
    }
    t.note("Random full-length operands; modred's `Natural` product (schoolbook, Karatsuba, Toom-3 or the three-prime NTT by size, allocating its result like `mpz_mul` into a preallocated `mpz_t` does not).");
    t
}

fn reduce_table(ctx: &mut Ctx, sizes: &[usize]) -> Table {
    let mut t = table(
        "scaling-reduce",
        "reduction of a 2k-limb argument by a k-limb modulus",
        "µs per reduction",
        "scaling-reduce.svg",
    );
    t.columns = vec![
        "modred auto".into(),
        "modred classical".into(),
        "GMP mpz_mod".into(),
    ];
    t.reference = Some("GMP mpz_mod".into());
    for &bits in sizes {
        ctx.step(format!("scaling reduce {bits} bits"));
        let mut rng = Rng::new(0x5ca2_0000 + bits as u64);
        let m = rng.odd_modulus(bits);
        let x = rng.below(&(&m * &m));
        let want = oracle_mod(&x, &m);
        let comps = vec![
            reducer_reduce("auto", "modred auto", &m, &x, false),
            reducer_reduce("classical", "modred classical", &m, &x, true),
            gmp_mod("GMP mpz_mod", &x, &m),
        ];
        row(ctx, &mut t, bits, &want, comps);
    }
    t.note("x < m^2 random, m random odd with its top bit set. `modred auto` is the reducer `auto` builds for a repeated workload (`montgomery-fast`: word-by-word REDC, from `REDC_N_THRESHOLD` limbs REDC over two NTT products), whose `reduce_wide` returns x R^-1 mod m (converted back outside the timing for the cross-check); `modred classical` is the division (schoolbook; from the tier's `RECIPROCAL_REUSE_THRESHOLD_*` limbs Barrett blocks with the Newton reciprocal the context computed once, while `mpz_mod` divides from scratch on every call).");
    t
}

fn pow_table(ctx: &mut Ctx, sizes: &[usize]) -> Table {
    let mut t = table(
        "scaling-pow",
        "modular exponentiation with a 256-bit exponent",
        "µs per exponentiation",
        "scaling-pow.svg",
    );
    t.columns = vec!["modred pow (auto)".into(), "GMP mpz_powm".into()];
    t.reference = Some("GMP mpz_powm".into());
    let opts = modred::exp::PowOptions::default();
    for &bits in sizes {
        ctx.step(format!("scaling pow {bits} bits"));
        let mut rng = Rng::new(0x5ca3_0000 + bits as u64);
        let m = rng.odd_modulus(bits);
        let b = rng.below(&m);
        let e = rng.exact(256);
        let want = oracle_powm(&b, &e, &m);
        let (mb, me, mm, o) = (b.clone(), e.clone(), m.clone(), opts.clone());
        let comps = vec![
            Competitor::new("modred pow (auto)", move |check| {
                let r = modred::exp::pow_vartime(&mb, &me, &mm, &o).expect("valid options");
                black_box(&r);
                check.then_some(r)
            }),
            gmp_powm("GMP mpz_powm", &b, &e, &m, false),
        ];
        row(ctx, &mut t, bits, &want, comps);
    }
    t.note("Random base below m, random 256-bit exponent (top bit set), random odd modulus with its top bit set; each call includes the set-up (Montgomery constants and transforms of m for modred, as `mpz_powm` computes its own).");
    t
}

pub fn run(ctx: &mut Ctx) -> Vec<Table> {
    let sizes = ctx.sizes(&QUICK, &FULL);
    let pow_sizes: Vec<usize> = if ctx.quick {
        sizes
            .iter()
            .copied()
            .filter(|&b| b <= QUICK_POW_MAX)
            .collect()
    } else {
        sizes.clone()
    };
    vec![
        mul_table(ctx, &sizes),
        reduce_table(ctx, &sizes),
        pow_table(ctx, &pow_sizes),
    ]
}
