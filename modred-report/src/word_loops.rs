//! The benchmark of Bloemen, *Montgomery multiplication*, 2014: "a lot of modular exponents"
//! with an empty loop, `divq` and Montgomery multiplication, where "all three loops compute the
//! Montgomery conversion too" so that only the multiplication method differs. Shared by
//! `benches/word.rs` and the comparison report.
//!
//! Every loop draws the same `n` cases from a fixed-seed generator (SplitMix64): an odd modulus
//! m in (2^63, 2^64) (Bloemen's `mul_monty` setting), a base and a full 64-bit exponent. Every
//! loop builds the [`Monty64`] context (k by Newton, R mod m, R^2 mod m, R^{-1} mod m) and folds
//! R^2 ^ R^{-1} into its checksum; all but [`empty_loop`] add `b^e mod m`. Hence the
//! checksums of every non-empty loop are equal, which `tests/word.rs` checks.

use modred::word::divq::{pow_divq_u128_vartime, pow_divq_vartime};
use modred::word::Barrett64;
use modred::word::Monty64;
use modred::Limb;

/// One case of the loop: modulus, base, exponent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Case {
    pub m: Limb,
    pub b: Limb,
    pub e: u64,
}

/// SplitMix64 step (Steele, Lea, Flood 2014): a fixed, dependency-free generator.
fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The `n` cases drawn from `seed`: odd m with the top bit set, any base, any exponent.
pub fn cases(n: usize, seed: u64) -> impl Iterator<Item = Case> {
    let mut state = seed;
    (0..n).map(move |_| Case {
        m: splitmix64(&mut state) | (1 << 63) | 1,
        b: splitmix64(&mut state),
        e: splitmix64(&mut state),
    })
}

/// The per-case work common to all loops (Bloemen's "Montgomery conversion"): build the
/// context and fold its constants so the optimizer keeps it.
#[inline(always)]
fn common(m: Limb) -> (Monty64, u64) {
    let ctx = Monty64::new(m).expect("loop moduli are odd");
    (ctx, ctx.r2() ^ ctx.r_inv())
}

/// Run `pow` on every case, with the common work; the checksum is the wrapping sum of the
/// folded constants and the results.
#[inline(always)]
fn run(n: usize, seed: u64, pow: impl Fn(&Monty64, Case) -> Limb) -> u64 {
    cases(n, seed).fold(0u64, |acc, c| {
        let (ctx, fold) = common(c.m);
        acc.wrapping_add(fold).wrapping_add(pow(&ctx, c))
    })
}

/// Bloemen's "empty loop": only the common work, no exponentiation.
pub fn empty_loop(n: usize, seed: u64) -> u64 {
    run(n, seed, |_, _| 0)
}

/// Exponentiation with the `div` instruction (inline asm on x86_64), Bloemen's `divq` row.
pub fn divq_loop(n: usize, seed: u64) -> u64 {
    run(n, seed, |_, c| pow_divq_vartime(c.b, c.e, c.m))
}

/// Exponentiation with the portable u128 remainder.
pub fn divq_u128_loop(n: usize, seed: u64) -> u64 {
    run(n, seed, |_, c| pow_divq_u128_vartime(c.b, c.e, c.m))
}

/// Exponentiation with Bloemen's own `mul_monty` and divq-based conversions.
pub fn montgomery_seed_loop(n: usize, seed: u64) -> u64 {
    run(n, seed, |ctx, c| ctx.pow_seed_vartime(c.b, c.e))
}

/// Exponentiation with [`Monty64`] (REDC with final conditional subtraction), Bloemen's
/// Montgomery row as modred implements it.
pub fn montgomery_loop(n: usize, seed: u64) -> u64 {
    run(n, seed, |ctx, c| ctx.pow_vartime(c.b, c.e))
}

/// Exponentiation with [`Barrett64`] (its reciprocal computed per case, as part of its work).
pub fn barrett_loop(n: usize, seed: u64) -> u64 {
    run(n, seed, |_, c| {
        Barrett64::new(c.m)
            .expect("loop moduli are non-zero")
            .pow_vartime(c.b, c.e)
    })
}
