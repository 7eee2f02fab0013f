//! `window`: fixed m-ary exponentiation (Bosselaers, Govaerts, Vandewalle, *Comparison of three
//! modular reduction functions*, CRYPTO '93, §5: with a table of the small powers
//! of the base, p = 16, i.e. 4-bit digits, cuts the mean number of multiplications).
//!
//! The exponent is cut into `w`-bit digits from the top; each digit costs `w` squarings and one
//! multiplication by the table entry `g^digit` (skipped for zero digits); the scan is
//! [`crate::scan::window`]. Variable time.

use crate::limb::Limb;
use crate::reduce::Reducer;
use crate::scan::FusedPow;

/// `base^exp mod m` with `w`-bit digits (1 <= w <= 16), `base < m` (k limbs); returns k limbs
/// `< m`. Uses the reducer's fused path ([`Reducer::pow_fused`], same algorithm) when it has
/// one.
/// Leaks: variable time: the exponent's bit length and each digit (a table index; zero digits
/// skip their multiplication), plus the reducer's own.
pub fn pow<R: Reducer + ?Sized>(r: &R, base: &[Limb], exp: &[Limb], w: usize) -> Vec<Limb> {
    // `pow_with` passes `PowOptions::validate`d windows; `FusedPow::run` checks again.
    debug_assert!((1..=16).contains(&w), "window size must be 1..=16");
    super::pow_scan(r, base, exp, FusedPow::Window { w })
}
