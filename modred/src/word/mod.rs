//! Single-word (u64) modular arithmetic: every modulus 1 <= m < 2^64 fits one [`Limb`].
//!
//! Bloemen, *Montgomery multiplication*, 2014, observes that for a 64-bit modulus Montgomery
//! multiplication beats the hardware 128/64 `div` instruction in a modular-exponentiation loop.
//! This module holds that comparison and the toolkit built on the winner:
//! - `divq`: `a*b mod m` by one 128/64 division (u128 and x86_64 `div`), Bloemen's baseline;
//! - [`montgomery64`]: Bloemen's `mul_monty` (m > 2^63) and the general [`Monty64`] context for
//!   every odd modulus;
//! - [`barrett64`]: Möller–Granlund reciprocal of the normalized modulus, every modulus >= 1;
//! - [`shoup64`]: multiplication by a fixed multiplier with a precomputed quotient (m <= 2^63);
//! - [`arith`]: the user-facing [`pow_mod_vartime`], [`mul_mod_vartime`], [`inv_mod_vartime`];
//! - [`prime`]: deterministic Miller–Rabin [`is_prime_vartime`] for all u64;
//!
//! [`Limb`]: crate::limb::Limb

pub mod arith;
pub mod barrett64;
#[cfg(feature = "internals")]
#[doc(hidden)]
pub mod divq;
#[cfg(not(feature = "internals"))]
#[allow(dead_code)]
pub(crate) mod divq;
pub mod montgomery64;
pub mod prime;
pub mod shoup64;

pub(crate) use arith::pow_mod_limbs_vartime;
pub use arith::{inv_mod_vartime, mul_mod_vartime, pow_mod_vartime, residue_vartime};
pub use barrett64::Barrett64;
pub use montgomery64::Monty64;
pub use prime::is_prime_vartime;
pub use shoup64::Shoup64;

/// Right-to-left binary exponentiation `base^e` in whatever representation `mul` works in,
/// `one` being the representation of 1: the squarings of `base` and the products into the
/// accumulator form two independent dependency chains, so their latencies overlap (a
/// left-to-right ladder chains every operation). Multiplies only for the 1 bits of `e`.
/// Leaks: variable time in `e`: a branch on each of its bits, the loop length on its bit length;
/// nothing about `base` if `mul` leaks nothing.
#[inline(always)]
pub(crate) fn pow_binary(mul: impl Fn(u64, u64) -> u64, one: u64, base: u64, e: u64) -> u64 {
    let (mut acc, mut sq, mut e) = (one, base, e);
    while e != 0 {
        if e & 1 == 1 {
            acc = mul(acc, sq);
        }
        e >>= 1;
        if e != 0 {
            sq = mul(sq, sq);
        }
    }
    acc
}

/// Like [`pow_binary`] but always multiplies and keeps the product by mask, so the only
/// data-dependent control flow is the loop length (the bit length of `e`; pass `bits = 64` to
/// make it fixed).
/// Leaks: `bits` (the loop length); nothing else if `mul` leaks nothing.
#[inline(always)]
pub(crate) fn pow_binary_masked(
    mul: impl Fn(u64, u64) -> u64,
    one: u64,
    base: u64,
    e: u64,
    bits: u32,
) -> u64 {
    let (mut acc, mut sq) = (one, base);
    for i in 0..bits {
        let prod = mul(acc, sq);
        acc = crate::limb::Choice::from_bit((e >> i) & 1).select(prod, acc);
        sq = mul(sq, sq);
    }
    acc
}
