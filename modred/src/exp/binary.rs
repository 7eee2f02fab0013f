//! `binary`: left-to-right square-and-multiply (Koç, Acar, Kaliski, *Analyzing and Comparing
//! Montgomery Multiplication Algorithms*, IEEE Micro 1996, §2, ModExp).
//!
//! Computes `base^exp mod m` with one squaring per exponent bit below the top one and one
//! multiplication per further set bit. Variable time: the multiplications follow the set bits of
//! the exponent. Works in the representation of any [`Reducer`]; the scan is
//! [`crate::scan::binary`].

use crate::limb::Limb;
use crate::reduce::Reducer;
use crate::scan::FusedPow;

/// `base^exp mod m` for `base < m` (k limbs) and any `exp` (little-endian limbs, may be untrimmed);
/// returns k limbs `< m`. Uses the reducer's fused path ([`Reducer::pow_fused`], same
/// algorithm) when it has one.
/// Leaks: variable time: the exponent's bit length and each set bit (a multiplication), plus
/// the reducer's own.
pub fn pow<R: Reducer + ?Sized>(r: &R, base: &[Limb], exp: &[Limb]) -> Vec<Limb> {
    super::pow_scan(r, base, exp, FusedPow::Binary)
}
