//! Constant time checked on the machine code, in the style of libsecp256k1's `ctime_tests`:
//! run under valgrind memcheck, this marks the base and the exponent of `ct` exponentiations as
//! undefined (client requests), so memcheck reports every conditional jump and every memory
//! address that depends on them, the table index included. `scripts/ctgrind.sh` runs it as
//!
//! ```text
//! valgrind --error-exitcode=1 target/release/examples/ctgrind
//! ```
//!
//! over every kernel tier the CPU has that valgrind can run ([`modred::cpu::available`]: valgrind
//! hides ADX from CPUID but runs it, so with `MODRED_CTGRIND_ADX=1`, set only when
//! /proc/cpuinfo lists bmi2 and adx, a build with the `ctgrind` feature detects the ADX tier
//! anyway; valgrind has no AVX-512, so the IFMA tier cannot be checked this way) and every limb
//! count the fused paths specialise (1-8), a sample of 9-64 (the MULX/ADX kernels of
//! `adx_mont` with unrolled rows, the portable engine) and two beyond (`adx_mont`'s looped rows
//! on the adx tier, the generic path on the portable tier). Outside valgrind the client requests do
//! nothing and the program just checks its results against num-bigint.
//!
//! `ctgrind trace [BITS...] [many BITS...]` runs the other check, for the IFMA tier that valgrind
//! cannot run: the RSA private operation's instruction sequence under `ptrace` (trace.rs). One
//! binary for both, as each example is a thin-LTO link of the whole library (about 2 minutes).

use modred::exp::ct;
use modred::exp::{pow_with, Method, PowOptions};
use modred::reduce::{self, Reducer, ReducerKind};
use modred::rsa::PrivateKey;
use modred::valgrind::{mark_public, mark_secret, running_on_valgrind};
use modred::{Limb, Natural};
use num_bigint::BigUint;

#[cfg(all(target_os = "linux", target_arch = "x86_64"))]
mod trace;

/// xorshift64*: the inputs (the results are checked against num-bigint).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn limbs(&mut self, n: usize) -> Vec<Limb> {
        (0..n).map(|_| self.next()).collect()
    }
}

fn big(x: &[Limb]) -> BigUint {
    Natural::from_slice(x).to_biguint()
}

/// One `ct` exponentiation with secret base and exponent; returns whether the result is right.
fn check(r: &dyn Reducer, rng: &mut Rng, exp_limbs: usize, w: usize) -> bool {
    let m = r.modulus().to_vec();
    let k = m.len();
    let mut base = rng.limbs(k);
    base[k - 1] %= m[k - 1]; // below m, without a data-dependent reduction
    let exp = rng.limbs(exp_limbs);
    let want = big(&base).modpow(&big(&exp), &big(&m));
    mark_secret(&base);
    mark_secret(&exp);
    let got = ct::pow_unchecked(r, &base, &exp, 64 * exp_limbs, w);
    mark_public(&got);
    mark_public(&base);
    mark_public(&exp);
    big(&got) == want
}

/// `--leaky`: the check's own check. A variable-time (binary) exponentiation with the exponent
/// marked undefined, which memcheck must report (scripts/ctgrind.sh fails if it does not).
fn leaky(rng: &mut Rng) {
    let mut m = rng.limbs(4);
    m[0] |= 1;
    let r =
        reduce::build(ReducerKind::MontgomeryCios, &Natural::from_slice(&m)).expect("odd modulus");
    let (base, exp) = (vec![3, 0, 0, 0], rng.limbs(4));
    mark_secret(&exp);
    let got = pow_with(&*r, Method::Binary, &base, &exp, &PowOptions::default())
        .expect("a residue below m");
    mark_public(&got);
    mark_public(&exp);
    println!(
        "ctgrind --leaky: {}",
        big(&got) == big(&base).modpow(&big(&exp), &big(&m))
    );
}

/// The project's RSA vector keys (modred/tests/vectors/rsa/).
const RSA_KEYS: [(&str, &str); 3] = [
    (
        "rsa1024",
        include_str!("../../tests/vectors/rsa/rsa1024-pkcs1.pem"),
    ),
    (
        "rsa2048",
        include_str!("../../tests/vectors/rsa/rsa2048-pkcs8.pem"),
    ),
    (
        "rsa2048-e3",
        include_str!("../../tests/vectors/rsa/rsa2048-e3-pkcs1.pem"),
    ),
];

/// `rsa::PrivateKey::private_op_bytes` with the key's secrets (p, q, d, dp, dq, qinv, the
/// primes' copies in their reducers, the blinding factor: see `for_each_secret`) and the
/// input marked secret, on the kernel tier the library detected (scripts/ctgrind.sh runs this
/// on the ADX tier and, with MODRED_CPU=portable, on the portable one). The input's range
/// check and the fault check's verdict are declassified in the library (`Choice::declassify`),
/// the result here. Returns the names of the keys that gave a wrong result.
fn check_rsa(rng: &mut Rng) -> Vec<String> {
    let mut wrong = Vec::new();
    for (name, pem) in RSA_KEYS {
        let key = PrivateKey::from_pem_or_der(pem.as_bytes()).expect("vector key");
        let n = key.public_key().n().to_biguint();
        let d = key.d().to_biguint();
        let size = key.public_key().size();
        for round in 0..3 {
            let mut input: Vec<u8> = (0..size).map(|_| rng.next() as u8).collect();
            input[0] = 0; // below n
            let want = BigUint::from_bytes_be(&input).modpow(&d, &n);
            // The first call draws a blinding factor (from the OS, public to memcheck: the
            // factor is secret by design, so the later rounds run with it marked).
            if round > 0 {
                key.for_each_secret(&mut |x| mark_secret(x));
            }
            mark_secret(&input);
            let got = key.private_op_bytes(&input).expect("private_op");
            mark_public(&got);
            mark_public(&input);
            key.for_each_secret(&mut |x| mark_public(x));
            if BigUint::from_bytes_be(&got) != want {
                wrong.push(format!("{name} round {round}"));
            }
        }
    }
    wrong
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().is_some_and(|a| a == "trace") {
        #[cfg(all(target_os = "linux", target_arch = "x86_64"))]
        std::process::exit(trace::run(args[1..].to_vec()));
        #[cfg(not(all(target_os = "linux", target_arch = "x86_64")))]
        {
            eprintln!("ctgrind trace: x86-64 Linux only");
            std::process::exit(2);
        }
    }
    let on_valgrind = running_on_valgrind();
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    if args.iter().any(|a| a == "--leaky") {
        return leaky(&mut rng);
    }
    let where_ = if on_valgrind {
        "under valgrind"
    } else {
        "not under valgrind: results only"
    };
    let rsa_wrong = check_rsa(&mut rng);
    println!(
        "ctgrind: {} RSA private operations ({} keys), tier {} ({where_})",
        3 * RSA_KEYS.len(),
        RSA_KEYS.len(),
        modred::cpu::tier(),
    );
    if !rsa_wrong.is_empty() {
        eprintln!("ctgrind: wrong RSA results: {rsa_wrong:?}");
        std::process::exit(2);
    }
    if args.iter().any(|a| a == "--rsa-only") {
        return;
    }
    let mut sizes: Vec<usize> = (1..=8).collect();
    sizes.extend([9, 12, 16, 23, 32, 47, 64, 65, 80]);
    let reducers = [
        ReducerKind::MontgomeryFast,
        ReducerKind::MontgomeryCios,
        ReducerKind::MontgomerySos,
        ReducerKind::MontgomeryFips,
        ReducerKind::MontgomeryCihs,
    ];
    let tiers = modred::cpu::available();
    let mut runs = 0;
    let mut wrong = Vec::new();
    for &k in &sizes {
        let mut m = rng.limbs(k);
        m[0] |= 1;
        m[k - 1] |= 1 << 63;
        let m = Natural::from_limbs(m);
        for (kind, tier) in reducers
            .iter()
            .flat_map(|&n| tiers.iter().map(move |&t| (n, t)))
        {
            let r = reduce::build_with_tier(kind, &m, tier).expect("odd modulus");
            if !r.is_constant_time() {
                continue; // pow refuses it for ct
            }
            // A short exponent, and one of the modulus' length with the window ct picks.
            for (exp_limbs, w) in [(1, 3), (k, modred::tuning::ct_window_bits(64 * k))] {
                runs += 1;
                if !check(&*r, &mut rng, exp_limbs, w) {
                    wrong.push(format!("{kind} {tier} k={k} exp_limbs={exp_limbs} w={w}"));
                }
            }
        }
    }
    println!(
        "ctgrind: {runs} ct exponentiations over {} sizes, tiers {tiers:?} ({})",
        sizes.len(),
        where_,
    );
    if !wrong.is_empty() {
        eprintln!("ctgrind: wrong results: {wrong:?}");
        std::process::exit(2);
    }
}
