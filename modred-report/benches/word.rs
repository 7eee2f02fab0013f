//! The table of Bloemen, *Montgomery multiplication*, 2014 (empty loop / divq / Montgomery)
//! plus Barrett64 and num-modular's Montgomery, and single u64 exponentiations per method, all
//! in one run.
//!
//! `cargo bench -p modred --bench word -- --warm-up-time 1 --measurement-time 3`

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion};
use modred::word::{Barrett64, Monty64};
use modred_report::word_loops as loops;
use num_modular::{Montgomery, Reducer};

/// Exponentiations per loop iteration.
const N: usize = 200;
const SEED: u64 = 0x003;

/// Bloemen's loop with num-modular's Montgomery doing the exponentiation (same cases and the
/// same common Monty64 setup as `modred_report::word_loops`).
fn num_modular_loop(n: usize, seed: u64) -> u64 {
    loops::cases(n, seed).fold(0u64, |acc, c| {
        let ctx = Monty64::new(c.m).unwrap();
        let fold = ctx.r2() ^ ctx.r_inv();
        let nm = Montgomery::<u64>::new(c.m);
        let p = nm.residue(nm.pow(nm.transform(c.b), &c.e));
        acc.wrapping_add(fold).wrapping_add(p)
    })
}

fn seed003_table(c: &mut Criterion) {
    let want = loops::divq_loop(N, SEED);
    assert_eq!(num_modular_loop(N, SEED), want);
    assert_eq!(loops::montgomery_loop(N, SEED), want);
    assert_eq!(loops::barrett_loop(N, SEED), want);
    let mut g = c.benchmark_group("word/seed003_loop");
    type Loop = fn(usize, u64) -> u64;
    let table: [(&str, Loop); 8] = [
        ("empty", loops::empty_loop),
        ("divq_asm", loops::divq_loop),
        ("divq_u128", loops::divq_u128_loop),
        ("montgomery_seed", loops::montgomery_seed_loop),
        ("montgomery", loops::montgomery_loop),
        ("barrett64", loops::barrett_loop),
        ("num_modular_montgomery", num_modular_loop),
        ("divq_asm_again", loops::divq_loop),
    ];
    for (name, f) in table {
        g.bench_function(BenchmarkId::new(name, N), |b| {
            b.iter(|| f(black_box(N), black_box(SEED)))
        });
    }
    g.finish();
}

/// One exponentiation with a prebuilt context (odd moduli > 2^63, 64-bit exponents).
fn pow_u64(c: &mut Criterion) {
    let cases: Vec<_> = loops::cases(64, 0x0bad).collect();
    let monty: Vec<_> = cases.iter().map(|c| Monty64::new(c.m).unwrap()).collect();
    let barrett: Vec<_> = cases.iter().map(|c| Barrett64::new(c.m).unwrap()).collect();
    let nm: Vec<_> = cases.iter().map(|c| Montgomery::<u64>::new(c.m)).collect();
    let mut g = c.benchmark_group("word/pow_u64_x64");
    g.bench_function("monty64", |b| {
        b.iter(|| {
            cases
                .iter()
                .zip(&monty)
                .fold(0u64, |s, (c, x)| s ^ x.pow_vartime(black_box(c.b), c.e))
        })
    });
    g.bench_function("monty64_ct", |b| {
        b.iter(|| {
            cases.iter().zip(&monty).fold(0u64, |s, (c, x)| {
                s ^ x.from_monty(x.pow_monty_ct(x.to_monty(black_box(c.b)), c.e))
            })
        })
    });
    g.bench_function("barrett64", |b| {
        b.iter(|| {
            cases
                .iter()
                .zip(&barrett)
                .fold(0u64, |s, (c, x)| s ^ x.pow_vartime(black_box(c.b), c.e))
        })
    });
    g.bench_function("num_modular_montgomery", |b| {
        b.iter(|| {
            cases.iter().zip(&nm).fold(0u64, |s, (c, x)| {
                s ^ x.residue(x.pow(x.transform(black_box(c.b)), &c.e))
            })
        })
    });
    g.bench_function("word_pow_mod_with_setup", |b| {
        b.iter(|| {
            cases.iter().fold(0u64, |s, c| {
                s ^ modred::word::pow_mod_vartime(black_box(c.b), c.e, c.m).unwrap()
            })
        })
    });
    g.finish();
}

criterion_group!(benches, seed003_table, pow_u64);
criterion_main!(benches);
