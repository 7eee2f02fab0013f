//! The comparison of Lim, Hwang, Lee, *Fast Modular Reduction With Precomputation*, JW-ISC '97:
//! reduction of a 2k-limb argument (Tables 2-5) and window exponentiation including
//! precomputation (Tables 6-9) at 512, 768, 1024, 2048 bits for the precomputation methods
//! next to classical / Barrett / Montgomery-CIOS; and the
//! diminished-radix reducer against Montgomery-CIOS on special primes.
//!
//! `cargo bench -p modred --bench lhl -- --warm-up-time 1 --measurement-time 2 [filter]`
//! (filters: `reduce/`, `exp/`, `dr/`).

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion};
use modred::exp::table_window::pow_window_vartime;
use modred::reduce;
use modred::{Limb, Natural};
use rand::{rngs::StdRng, Rng, SeedableRng};

const REDUCE_METHODS: &[&str] = &[
    "montgomery-cios",
    "classical",
    "barrett",
    "table-residue",
    "table-constant",
    "lhl-l1",
    "lhl-l2",
    "table-add-16x16",
    "table-add-8x256",
    "table-add-6x2048",
];

const EXP_METHODS: &[&str] = &[
    "montgomery-cios",
    "classical",
    "barrett",
    "table",
    "lhl-l1",
    "lhl-l2",
    "table-add-16x16",
    "table-add-8x256",
    "table-add-6x2048",
];

fn random_limbs(rng: &mut StdRng, n: usize) -> Vec<Limb> {
    (0..n).map(|_| rng.gen()).collect()
}

fn random_modulus(rng: &mut StdRng, k: usize) -> Natural {
    let mut m = random_limbs(rng, k);
    m[0] |= 1;
    m[k - 1] |= 1 << 63;
    Natural::from_limbs(m)
}

fn bench_reduce(c: &mut Criterion) {
    let mut rng = StdRng::seed_from_u64(2024);
    for bits in [512usize, 768, 1024, 2048] {
        let k = bits / 64;
        let m = random_modulus(&mut rng, k);
        let x = random_limbs(&mut rng, 2 * k);
        let mut group = c.benchmark_group(format!("reduce/{bits}"));
        for &name in REDUCE_METHODS {
            let r = reduce::build(name.parse().unwrap(), &m).unwrap();
            let mut scratch = vec![0; r.scratch_len()];
            let mut wide = x.clone();
            let mut out = vec![0; k];
            group.bench_function(BenchmarkId::from_parameter(name), |b| {
                b.iter(|| {
                    wide.copy_from_slice(&x);
                    r.reduce_wide(&mut out, black_box(&mut wide), &mut scratch);
                    black_box(&out);
                })
            });
        }
        group.finish();
    }
}

fn bench_exp(c: &mut Criterion) {
    let mut rng = StdRng::seed_from_u64(2025);
    for bits in [512usize, 768, 1024, 2048] {
        let k = bits / 64;
        let m = random_modulus(&mut rng, k);
        let g = Natural::from_limbs(random_limbs(&mut rng, k));
        let e = Natural::from_limbs(random_limbs(&mut rng, k));
        let w = if bits <= 768 { 5 } else { 6 };
        let mut group = c.benchmark_group(format!("exp/{bits}"));
        group.sample_size(10);
        for &name in EXP_METHODS {
            let method = name.parse().unwrap();
            group.bench_function(BenchmarkId::from_parameter(name), |b| {
                b.iter(|| black_box(pow_window_vartime(method, &g, &e, &m, w).unwrap()))
            });
        }
        group.finish();
    }
}

fn bench_dr(c: &mut Criterion) {
    let mut rng = StdRng::seed_from_u64(2026);
    let p25519 = Natural::power_of_two(255)
        .checked_sub_vartime(&Natural::from(19u64))
        .unwrap();
    let secp = Natural::power_of_two(256)
        .checked_sub_vartime(&(&Natural::power_of_two(32) + &Natural::from(977u64)))
        .unwrap();
    let p521 = Natural::power_of_two(521)
        .checked_sub_vartime(&Natural::from(1u64))
        .unwrap();
    for (label, p) in [("p25519", p25519), ("secp256k1", secp), ("p521", p521)] {
        let k = p.limbs().len();
        let x = random_limbs(&mut rng, 2 * k);
        let a = Natural::from_limbs(random_limbs(&mut rng, k));
        let a = a.div_rem_vartime(&p).unwrap().1.to_padded(k).unwrap();
        let bb = Natural::from_limbs(random_limbs(&mut rng, k));
        let bb = bb.div_rem_vartime(&p).unwrap().1.to_padded(k).unwrap();
        let mut group = c.benchmark_group(format!("dr/{label}"));
        for name in ["diminished-radix", "montgomery-cios", "barrett", "lhl-l1"] {
            let r = reduce::build(name.parse().unwrap(), &p).unwrap();
            let mut scratch = vec![0; r.scratch_len()];
            let mut wide = x.clone();
            let mut out = vec![0; k];
            group.bench_function(BenchmarkId::new("reduce", name), |b| {
                b.iter(|| {
                    wide.copy_from_slice(&x);
                    r.reduce_wide(&mut out, black_box(&mut wide), &mut scratch);
                    black_box(&out);
                })
            });
            group.bench_function(BenchmarkId::new("mul", name), |b| {
                b.iter(|| {
                    r.mul(&mut out, black_box(&a), black_box(&bb), &mut scratch);
                    black_box(&out);
                })
            });
        }
        group.finish();
    }
}

criterion_group!(benches, bench_reduce, bench_exp, bench_dr);
criterion_main!(benches);
