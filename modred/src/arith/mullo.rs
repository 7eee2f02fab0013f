//! Short products: the low n limbs of an n-by-n product, `a b mod B^n` (beyond the source
//! papers; GMP's `mpn_mullo_n`). Montgomery's quotient q = (x mod R) m' mod R is one
//! (`reduce::montgomery::redc_n`).
//!
//! Below [`MULLO_DC_THRESHOLD`] limbs the schoolbook rows stop at limb n (a triangle: about
//! n^2 / 2 limb products). From it, divide and conquer as in GMP's `mpn_mullo_n` (T. Mulders,
//! "On short multiplications and divisions", AAECC 11, 2000, with the split fixed at half):
//! with a = a0 + a1 B^l, b = b0 + b1 B^l, l = n - floor(n/2), h = n - l,
//! a b mod B^n = a0 b0 + B^l (a1 b0 + a0 b1 mod B^h) mod B^n: one full product of l limbs
//! (Karatsuba and up, [`super::mul_n`]) and two short products of h limbs.

use super::{add_n_in_place, addmul_1, mul_1, mul_n};
use crate::limb::Limb;
use crate::tuning::MULLO_DC_THRESHOLD;

/// `r = a b mod B^n` for `n = r.len() = a.len() = b.len() >= 1`.
/// Leaks: nothing but n below [`MULLO_DC_THRESHOLD`] (schoolbook rows); from it the full
/// products' variable time (Karatsuba's sign branches, see [`super::mul_n`]).
pub fn mullo_n(r: &mut [Limb], a: &[Limb], b: &[Limb]) {
    let n = r.len();
    debug_assert!(n >= 1 && a.len() == n && b.len() == n);
    if n < MULLO_DC_THRESHOLD {
        return mullo_basecase(r, a, b);
    }
    let h = n / 2;
    let l = n - h;
    let mut full = vec![0; 2 * l];
    mul_n(&mut full, &a[..l], &b[..l]);
    r.copy_from_slice(&full[..n]);
    // The cross terms land on limbs l..n: two short products of h <= l limbs each; their
    // carries out of limb n are dropped (mod B^n).
    let cross = &mut full[..h];
    mullo_n(cross, &a[l..], &b[..h]);
    add_n_in_place(&mut r[l..], cross);
    mullo_n(cross, &a[..h], &b[l..]);
    add_n_in_place(&mut r[l..], cross);
}

/// [`mullo_n`] by schoolbook rows: row i adds a[..n-i] b_i at limb i, each row's carry out
/// of limb n dropped. n (n + 1) / 2 limb products.
/// Leaks: nothing but n (constant time).
fn mullo_basecase(r: &mut [Limb], a: &[Limb], b: &[Limb]) {
    let n = r.len();
    mul_1(r, a, b[0]);
    for i in 1..n {
        addmul_1(&mut r[i..], &a[..n - i], b[i]);
    }
}
