//! `binary-rl`: right-to-left square-and-multiply.
//!
//! Scans the exponent from its least significant bit, keeping `p = base^(2^i)` and multiplying
//! it into the accumulator for every set bit (the same recurrence Prots'ko, Gryshchuk, *The
//! implementation of Montgomery modular reduction to speed up of modular exponentiation*,
//! CMIS-2024, §5 precomputes for a fixed base), by the scan of [`crate::scan::binary_rl`].
//! Variable time.

use crate::limb::Limb;
use crate::reduce::Reducer;
use crate::scan::FusedPow;

/// `base^exp mod m` for `base < m` (k limbs) and any `exp`; returns k limbs `< m`. Uses the
/// reducer's fused fixed-size path ([`Reducer::pow_fused`], same algorithm) when it has one.
/// Leaks: variable time: the exponent's bit length and each set bit (a multiplication), plus
/// the reducer's own.
pub fn pow<R: Reducer + ?Sized>(r: &R, base: &[Limb], exp: &[Limb]) -> Vec<Limb> {
    super::pow_scan(r, base, exp, FusedPow::RightToLeft)
}
