//! `binary-rl`: right-to-left square-and-multiply.
//!
//! Scans the exponent from its least significant bit, keeping `p = base^(2^i)` and multiplying
//! it into the accumulator for every set bit (the same recurrence seed 004 precomputes for a
//! fixed base), by the scan of [`crate::scan::binary_rl`]. Variable time.

use crate::limb::Limb;
use crate::reduce::Reducer;
use crate::scan::FusedPow;

/// `base^exp mod m` for `base < m` (k limbs) and any `exp`; returns k limbs `< m`. Uses the
/// reducer's fused fixed-size path ([`Reducer::pow_fused`], same algorithm) when it has one.
/// Variable time.
pub fn pow<R: Reducer + ?Sized>(r: &R, base: &[Limb], exp: &[Limb]) -> Vec<Limb> {
    super::pow_scan(r, base, exp, FusedPow::RightToLeft)
}
