//! Timing of `modred::prime` against GMP (rug, the code gmpy2 calls): `is_probable_prime` on
//! primes of 1024, 2048 and 4096 bits against `is_probably_prime(25)`, `next_prime` of random
//! 2048-bit numbers against GMP's `next_prime`, and `rsa::PrivateKey::generate(2048)`.
//! Runs interleave modred and GMP (A B A B ...) and print medians and their ratio.
//!
//! `cargo run --release -p modred --example prime_bench [rounds] [keys]` (defaults 15, 20);
//! `MODRED_CPU=adx` caps the kernel tier.

use modred::prime::{is_probable_prime_vartime, next_prime_vartime};
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

fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .map(|a| a.parse().unwrap())
        .collect();
    let rounds = args.first().copied().unwrap_or(15);
    let keys = args.get(1).copied().unwrap_or(20);
    println!("tier: {:?}", modred::cpu::tier());
    let mut rng = RandState::new();
    rng.seed(&Integer::from(0x5eed));
    for bits in [1024u32, 2048, 4096] {
        let p = Integer::from(Integer::random_bits(bits, &mut rng)).next_prime();
        let pn = nat(&p);
        let (mut a, mut b) = (vec![], vec![]);
        for _ in 0..rounds {
            let (t, r) = time(|| is_probable_prime_vartime(&pn).unwrap());
            assert!(r);
            a.push(t);
            let (t, r) = time(|| p.is_probably_prime(25));
            assert!(r != IsPrime::No);
            b.push(t);
        }
        let (ma, mb) = (median(a), median(b));
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
