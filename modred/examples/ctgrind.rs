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
//! `adx_mont`) and two beyond (the generic path). Outside valgrind the client requests do
//! nothing and the program just checks its results against num-bigint.

use modred::exp::ct;
use modred::exp::{pow_with_vartime, Method, PowOptions};
use modred::reduce::{self, Reducer, ReducerKind};
use modred::{Limb, Natural};
use num_bigint::BigUint;

/// Memcheck's client requests (valgrind/memcheck.h): VG_USERREQ_TOOL_BASE('M', 'C') + n.
const MAKE_MEM_UNDEFINED: u64 = 0x4d43_0001;
const MAKE_MEM_DEFINED: u64 = 0x4d43_0002;

/// A valgrind client request (valgrind.h's amd64 magic sequence: four rotations of rdi by 64
/// bits in total, a no-op, then `xchg rbx, rbx`); returns `default` when not under valgrind.
#[cfg(target_arch = "x86_64")]
fn client_request(request: u64, a1: u64, a2: u64, default: u64) -> u64 {
    let args: [u64; 6] = [request, a1, a2, 0, 0, 0];
    let mut result = default;
    // SAFETY: the sequence leaves every register but rdx (the result) unchanged outside
    // valgrind; under valgrind it is the documented request interface and only reads `args`.
    unsafe {
        core::arch::asm!(
            "rol rdi, 3",
            "rol rdi, 13",
            "rol rdi, 61",
            "rol rdi, 51",
            "xchg rbx, rbx",
            inout("rdx") result,
            in("rax") args.as_ptr(),
            out("rdi") _,
            options(nostack, preserves_flags),
        );
    }
    result
}

#[cfg(not(target_arch = "x86_64"))]
fn client_request(_request: u64, _a1: u64, _a2: u64, default: u64) -> u64 {
    default
}

fn mark<T>(request: u64, x: &[T]) {
    client_request(
        request,
        x.as_ptr() as u64,
        core::mem::size_of_val(x) as u64,
        0,
    );
}

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
    mark(MAKE_MEM_UNDEFINED, &base);
    mark(MAKE_MEM_UNDEFINED, &exp);
    let got = ct::pow_unchecked(r, &base, &exp, 64 * exp_limbs, w);
    mark(MAKE_MEM_DEFINED, &got);
    mark(MAKE_MEM_DEFINED, &base);
    mark(MAKE_MEM_DEFINED, &exp);
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
    mark(MAKE_MEM_UNDEFINED, &exp);
    let got = pow_with_vartime(&*r, Method::Binary, &base, &exp, &PowOptions::default())
        .expect("a residue below m");
    mark(MAKE_MEM_DEFINED, &got);
    mark(MAKE_MEM_DEFINED, &exp);
    println!(
        "ctgrind --leaky: {}",
        big(&got) == big(&base).modpow(&big(&exp), &big(&m))
    );
}

fn main() {
    let on_valgrind = client_request(0x1001, 0, 0, 0) != 0; // RUNNING_ON_VALGRIND
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    if std::env::args().any(|a| a == "--leaky") {
        return leaky(&mut rng);
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
        if on_valgrind {
            "under valgrind"
        } else {
            "not under valgrind: results only"
        },
    );
    if !wrong.is_empty() {
        eprintln!("ctgrind: wrong results: {wrong:?}");
        std::process::exit(2);
    }
}
