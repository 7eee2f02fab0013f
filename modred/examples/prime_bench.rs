//! Timing of `modred::prime` against GMP (rug, the code gmpy2 calls): `is_probable_prime` on
//! primes of 1024, 2048 and 4096 bits against `is_probably_prime(25)`, `next_prime` of random
//! 2048-bit numbers against GMP's `next_prime`, `is_probable_prime_many` on one core (a batch of
//! 64 odd numbers without small factors, a quarter of them prime, at 1024 and 2048 bits) against
//! the single test and GMP in a loop, and `rsa::PrivateKey::generate(2048)`.
//! Runs interleave modred and GMP (A B A B ...) and print medians and their ratio.
//!
//! `cargo run --release -p modred --example prime_bench [rounds] [keys]` (defaults 15, 20);
//! `MODRED_CPU=adx` caps the kernel tier.
//!
//! `cargo run --release -p modred --example prime_bench is_prime [primes] [rounds]` (defaults
//! 16, 5) times only `is_probable_prime` on `primes` GMP primes of each of 1024, 2048, 3072 and
//! 4096 bits (`next_prime` of random numbers with the top bit set, never modred's): per prime,
//! `rounds` interleaved runs (modred, GMP(25), modred, ...) and the ratio of the medians; it
//! prints the median of the per-prime ratios, overall and split by Selfridge's D (D = 5, i.e.
//! Q = -1, when (5/p) = -1; another D otherwise).

use modred::prime::{
    is_probable_prime_many_vartime, is_probable_prime_vartime, next_prime_vartime,
};
use modred::rsa::PrivateKey;
use modred::Natural;
use rug::integer::IsPrime;
use rug::rand::RandState;
use rug::Integer;
use std::time::{Duration, Instant};

fn nat(x: &Integer) -> Natural {
    Natural::parse(&x.to_string()).unwrap()
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn time<T>(f: impl FnOnce() -> T) -> (Duration, T) {
    let t = Instant::now();
    let r = f();
    (t.elapsed(), r)
}

fn median_f(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    if v.is_empty() {
        f64::NAN
    } else {
        v[v.len() / 2]
    }
}

/// `rounds` interleaved runs of modred's `is_probable_prime` and GMP's `is_probably_prime(25)`
/// on the prime `p` (modred, GMP, modred, ...; both must say prime): the medians of each.
fn time_prime(p: &Integer, rounds: usize) -> (Duration, Duration) {
    let pn = nat(p);
    let (mut a, mut b) = (vec![], vec![]);
    for _ in 0..rounds {
        let (t, r) = time(|| is_probable_prime_vartime(&pn).unwrap());
        assert!(r);
        a.push(t);
        let (t, r) = time(|| p.is_probably_prime(25));
        assert!(r != IsPrime::No);
        b.push(t);
    }
    (median(a), median(b))
}

/// The multi-prime `is_probable_prime` comparison (see the module docs).
fn is_prime_many_primes(primes: usize, rounds: usize) {
    println!("tier: {:?}", modred::cpu::tier());
    let mut rng = RandState::new();
    rng.seed(&Integer::from(0x9e1f));
    for bits in [1024u32, 2048, 3072, 4096] {
        let (mut all, mut d5, mut other) = (vec![], vec![], vec![]);
        let (mut sum_a, mut sum_b) = (0.0, 0.0);
        for _ in 0..primes {
            let mut x = Integer::from(Integer::random_bits(bits, &mut rng));
            x.set_bit(bits - 1, true);
            let p = x.next_prime();
            let (ma, mb) = time_prime(&p, rounds);
            let (ma, mb) = (ma.as_secs_f64(), mb.as_secs_f64());
            sum_a += ma;
            sum_b += mb;
            let ratio = ma / mb;
            all.push(ratio);
            // Selfridge's D is 5 iff (5/p) = -1.
            if p.jacobi(&Integer::from(5)) == -1 {
                d5.push(ratio);
            } else {
                other.push(ratio);
            }
        }
        let (n5, no) = (d5.len(), other.len());
        println!(
            "is_prime {bits:>4} bits, {primes} primes: median ratio {:.3} (D = 5: {:.3} of {n5}; other D: {:.3} of {no}); mean times modred {:.1?} GMP(25) {:.1?}",
            median_f(all),
            median_f(d5),
            median_f(other),
            Duration::from_secs_f64(sum_a / primes as f64),
            Duration::from_secs_f64(sum_b / primes as f64),
        );
    }
}

fn main() {
    let mut raw: Vec<String> = std::env::args().skip(1).collect();
    if raw.first().map(String::as_str) == Some("is_prime") {
        raw.remove(0);
        let nums: Vec<usize> = raw.iter().map(|a| a.parse().unwrap()).collect();
        is_prime_many_primes(
            nums.first().copied().unwrap_or(16),
            nums.get(1).copied().unwrap_or(5),
        );
        return;
    }
    let args: Vec<usize> = raw.iter().map(|a| a.parse().unwrap()).collect();
    let rounds = args.first().copied().unwrap_or(15);
    let keys = args.get(1).copied().unwrap_or(20);
    println!("tier: {:?}", modred::cpu::tier());
    let mut rng = RandState::new();
    rng.seed(&Integer::from(0x5eed));
    for bits in [1024u32, 2048, 4096] {
        let p = Integer::from(Integer::random_bits(bits, &mut rng)).next_prime();
        let (ma, mb) = time_prime(&p, rounds);
        println!(
            "is_prime {bits:>4} bits (prime): modred {ma:>10.2?}  GMP(25) {mb:>10.2?}  ratio {:.3}",
            ma.as_secs_f64() / mb.as_secs_f64()
        );
    }
    let (mut a, mut b) = (vec![], vec![]);
    for _ in 0..rounds {
        let x = Integer::from(Integer::random_bits(2048, &mut rng));
        let xn = nat(&x);
        let (t, r) = time(|| next_prime_vartime(&xn).unwrap());
        a.push(t);
        let (t, g) = time(|| x.clone().next_prime());
        b.push(t);
        assert_eq!(r, nat(&g));
    }
    let (ma, mb) = (median(a), median(b));
    println!(
        "next_prime 2048 bits (random): modred {ma:>10.2?}  GMP {mb:>10.2?}  ratio {:.3}",
        ma.as_secs_f64() / mb.as_secs_f64()
    );
    let one_core = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    for bits in [1024u32, 2048] {
        // Odd numbers with no factor below 1000 (as trial division leaves them), 16 primes.
        let mut batch = vec![];
        while batch.len() < 48 {
            let x = Integer::from(Integer::random_bits(bits, &mut rng)) | 1u32;
            if (3..1000u32).step_by(2).all(|q| !x.is_divisible_u(q)) {
                batch.push(x);
            }
        }
        for _ in 0..16 {
            batch.push(Integer::from(Integer::random_bits(bits, &mut rng)).next_prime());
        }
        let ns: Vec<Natural> = batch.iter().map(nat).collect();
        let (mut a, mut b, mut c) = (vec![], vec![], vec![]);
        for _ in 0..rounds.div_ceil(3) {
            let (t, many) =
                time(|| one_core.install(|| is_probable_prime_many_vartime(&ns).unwrap()));
            a.push(t);
            let (t, single) = time(|| {
                ns.iter()
                    .map(|n| is_probable_prime_vartime(n).unwrap())
                    .collect::<Vec<_>>()
            });
            b.push(t);
            let (t, gmp) = time(|| {
                batch
                    .iter()
                    .map(|x| x.is_probably_prime(25) != IsPrime::No)
                    .collect::<Vec<_>>()
            });
            c.push(t);
            assert!(many == single && single == gmp);
        }
        let (ma, mb, mc) = (median(a), median(b), median(c));
        println!(
            "is_prime_many {bits:>4} bits (64, 16 prime), one core: {ma:>10.2?}  one by one {mb:>10.2?}  GMP(25) {mc:>10.2?}  ratios {:.3} {:.3}",
            ma.as_secs_f64() / mb.as_secs_f64(),
            ma.as_secs_f64() / mc.as_secs_f64()
        );
    }
    if keys > 0 {
        let (t, _) = time(|| {
            for _ in 0..keys {
                PrivateKey::generate(2048).unwrap();
            }
        });
        println!(
            "rsa generate 2048: {keys} keys in {t:.2?} ({:.2?} per key)",
            t / keys as u32
        );
    }
}
