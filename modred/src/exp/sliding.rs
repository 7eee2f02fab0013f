//! `sliding`: sliding-window exponentiation over odd powers (HAC Algorithm 14.85; the method of
//! GMP's `mpz_powm` and OpenSSL's `BN_mod_exp_mont`), the scan of [`crate::scan::sliding`] over
//! any [`Reducer`]. The window size is chosen from the exponent length by
//! [`crate::tuning::sliding_window_bits`]. Variable time.

use crate::arith;
use crate::limb::Limb;
use crate::reduce::Reducer;
use crate::scan::FusedPow;

/// `base^exp mod m` with windows of at most `w` bits (1 <= w <= 16), `base < m` (k limbs);
/// returns k limbs `< m`. Uses the reducer's fused fixed-size path
/// ([`Reducer::pow_fused`], same algorithm) when it has one.
/// Leaks: variable time: the exponent's bit length and its windows (the products and the
/// table entries read), plus the reducer's own.
pub fn pow<R: Reducer + ?Sized>(r: &R, base: &[Limb], exp: &[Limb], w: usize) -> Vec<Limb> {
    // `pow_with` passes `PowOptions::validate`d windows, `evm` tuning's; `FusedPow::run`
    // checks again.
    debug_assert!((1..=16).contains(&w), "window size must be 1..=16");
    let w = w.min(arith::bit_len(exp).max(1));
    super::pow_scan(r, base, exp, FusedPow::Sliding { w })
}
