//! The user-facing single-word operations: `pow_mod_vartime`, `mul_mod_vartime`, `inv_mod_vartime` for any modulus
//! `1 <= m < 2^64`. Each returns `Err(ZeroModulus)` for m = 0 and never panics.

use super::barrett64::Barrett64;
use super::divq::mul_divq_vartime;
use super::montgomery64::Monty64;
use crate::error::{Error, Result};
use crate::limb::Limb;
use crate::natural::Natural;

/// `x mod m` for a natural `x` of any length and a one-limb modulus `m > 0`: one division per
/// limb of `x`, so multi-limb operands can enter the single-word path. `Err(ZeroModulus)` for
/// m = 0.
/// Leaks: variable time: one hardware division per limb (x86 `div`, whose latency depends on
/// the operands).
pub fn residue_vartime(x: &Natural, m: Limb) -> Result<Limb> {
    if m == 0 {
        return Err(Error::ZeroModulus);
    }
    Ok(crate::arith::div_rem_1(None, x.limbs(), m))
}

/// `b^e mod m`, output `< m` (0 for m = 1; `0^0 = 1`). Odd m: [`Monty64`] (the winner of
/// Bloemen, *Montgomery multiplication*, 2014); even m: [`Barrett64`].
/// Leaks: the bit length of `e` (the loop length), and the modulus (its parity picks the
/// method; the context is built with divisions, whose latency depends on m); nothing about `b`
/// or the bits of `e`.
pub fn pow_mod_vartime(b: Limb, e: u64, m: Limb) -> Result<Limb> {
    if m == 0 {
        return Err(Error::ZeroModulus);
    }
    if m == 1 {
        return Ok(0);
    }
    if m & 1 == 1 {
        Ok(Monty64::new(m)?.pow_vartime(b, e))
    } else {
        Ok(Barrett64::new(m)?.pow_vartime(b, e))
    }
}

/// `b^e mod m` for any `b`, an exponent of any length (limbs, least significant first) and
/// `m >= 1`, output `< m`: [`pow_mod_vartime`] for a one-limb exponent, else right to left over
/// the exponent's bits on the same products (Montgomery for odd m, Barrett for even m). Polls
/// [`crate::cancel`] every 4096 bits (a cancelled result is meaningless).
/// Leaks: variable time: the exponent's bits (a multiplication per set bit), as
/// [`pow_mod_vartime`].
pub(crate) fn pow_mod_limbs_vartime(b: Limb, e: &[Limb], m: Limb) -> Limb {
    debug_assert!(m >= 1);
    let top = e.iter().rposition(|&l| l != 0).map_or(0, |i| i + 1);
    let b = b % m;
    if top <= 1 || m == 1 {
        return pow_mod_vartime(b, e.first().copied().unwrap_or(0), m).unwrap_or(0);
    }
    if b <= 1 {
        return b; // 0^e = 0 and 1^e = 1 for e > 0
    }
    let e = &e[..top];
    if m & 1 == 1 {
        let c = Monty64::new(m).expect("odd m >= 3");
        c.from_monty(pow_bits(
            |x, y| c.mul_unchecked(x, y),
            c.one(),
            c.to_monty(b % m),
            e,
        ))
    } else {
        let c = Barrett64::new(m).expect("m >= 2");
        pow_bits(|x, y| c.mul_unchecked(x, y), 1, b, e)
    }
}

/// `one * base^e` right to left in the representation `mul` works in (trimmed `e`, non-empty),
/// polling [`crate::cancel`] every 4096 bits.
/// Leaks: variable time: a multiplication per set bit of `e`.
#[inline(always)]
fn pow_bits(mul: impl Fn(Limb, Limb) -> Limb, one: Limb, base: Limb, e: &[Limb]) -> Limb {
    let bits = 64 * e.len() - e[e.len() - 1].leading_zeros() as usize;
    // Invariant after step i: acc = one * base^(e mod 2^(i+1)), sq = base^(2^(i+1)).
    let (mut acc, mut sq) = (one, base);
    for i in 0..bits {
        if i % 4096 == 0 && crate::cancel::requested() {
            break;
        }
        if (e[i / 64] >> (i % 64)) & 1 == 1 {
            acc = mul(acc, sq);
        }
        if i + 1 < bits {
            sq = mul(sq, sq);
        }
    }
    acc
}

/// `a b mod m` for any `a, b < 2^64`, output `< m`: one 128/64 hardware division (for a single
/// product nothing beats it; precomputing a context costs a division already).
/// Leaks: variable time: the hardware division's latency depends on the operands (x86 `div`),
/// and a branch on whether the product's high word is below m.
pub fn mul_mod_vartime(a: Limb, b: Limb, m: Limb) -> Result<Limb> {
    if m == 0 {
        return Err(Error::ZeroModulus);
    }
    Ok(mul_divq_vartime(a, b, m))
}

/// `a^{-1} mod m` by the extended Euclidean algorithm, output `< m` (0 for m = 1, where every
/// residue is the inverse of every other). `Err(NotInvertible)` when gcd(a, m) != 1.
/// Leaks: variable time: the number of Euclid steps and their divisions depend on `a` and m.
pub fn inv_mod_vartime(a: Limb, m: Limb) -> Result<Limb> {
    if m == 0 {
        return Err(Error::ZeroModulus);
    }
    if m == 1 {
        return Ok(0);
    }
    // Invariant: r0 = s0 a (mod m), r1 = s1 a (mod m), |s0|, |s1| <= m, so i128 never overflows.
    let (mut r0, mut r1) = (m, a % m);
    let (mut s0, mut s1): (i128, i128) = (0, 1);
    while r1 != 0 {
        let q = r0 / r1;
        (r0, r1) = (r1, r0 - q * r1);
        (s0, s1) = (s1, s0 - q as i128 * s1);
    }
    if r0 != 1 {
        return Err(Error::NotInvertible);
    }
    Ok(s0.rem_euclid(m as i128) as Limb)
}
