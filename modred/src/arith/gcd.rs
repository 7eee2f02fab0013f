//! GCD and the extended GCD's cofactor on slices: half-GCD reductions ([`super::hgcd`]) while
//! the operands are long, Lehmer steps ([`super::gcd_lehmer`]) below, as GMP's `mpn_gcd` and
//! `mpn_gcdext` do (Möller, "On Schönhage's algorithm and subquadratic integer GCD
//! computation", *Math. Comp.* 77, 2008, §6: the half-GCD of the top part, applied to the
//! whole numbers, repeated).
//!
//! The extended form keeps only the first row `(m00, m01)` of the reduction matrix
//! (`A = m00 a + m01 b`): when `b` reaches zero, `a = m11 A - m01 B` is the GCD and
//! `-m01 B = gcd (mod A)`; when `a` does, `b = m00 B - m10 A` and `m00 B = gcd (mod A)`.

use super::gcd_lehmer::{lehmer_step, Matrix};
use super::hgcd::reduce_by_top;
use super::{cmp, div_rem, is_zero, sub_in_place, trim};
use crate::limb::Limb;
use crate::tuning::{GCD_HGCD_THRESHOLD, GCD_HGCD_TOP_DIVISOR};
use core::cmp::Ordering;

/// Euclid's reduction of `(a, b)` to `(g, 0)` or `(0, g)`, accumulating `m` (0 or 1 rows).
/// Stops early, with a consistent state, once [`crate::cancel`] is requested (polled at every
/// step and every half-GCD call).
/// Leaks: variable time: the operands' values.
fn reduce(a: &mut Vec<Limb>, b: &mut Vec<Limb>, m: &mut Matrix) {
    while !a.is_empty() && !b.is_empty() && !crate::cancel::requested() {
        let n = a.len().max(b.len());
        if n >= GCD_HGCD_THRESHOLD {
            // The half-GCD of the top (1 - 1/d) n limbs takes them halfway, about n (d - 1)/(2d)
            // limbs off both numbers; any non-negative reduction serves here (bound 0).
            let p = n / GCD_HGCD_TOP_DIVISOR;
            if let Some(m1) = reduce_by_top(a, b, p, 0) {
                m.mul_assign(&m1);
                continue;
            }
        }
        let stepped = lehmer_step(a, b, m, 0);
        debug_assert!(stepped, "bound 0: a step whenever both are non-zero");
    }
}

/// gcd(a, b) (gcd(0, 0) = 0), trimmed. Once cancelled ([`crate::cancel`]), a meaningless value.
/// Leaks: variable time: the operands' values (the number of steps, the quotients).
/// Reference: Möller 2008, §6 (gcd by half-GCD); Lehmer 1938 below the threshold.
pub fn gcd_vartime(a: &[Limb], b: &[Limb]) -> Vec<Limb> {
    let (mut a, mut b) = (trim(a).to_vec(), trim(b).to_vec());
    let mut m = Matrix::identity(0);
    reduce(&mut a, &mut b, &mut m);
    if a.is_empty() {
        b
    } else {
        a
    }
}

/// `(g, u)` with `g = gcd(a, b)` and `u b = g (mod a)`, `0 <= u < a`, for `a != 0` (trimmed
/// results; `u = 0` for `a = 1`). `b` may be longer than `a`. Once cancelled
/// ([`crate::cancel`]), meaningless values.
/// Leaks: variable time: the operands' values.
/// Reference: Möller 2008, §6 (the cofactor from the product of the reduction matrices).
pub fn gcd_cofactor_vartime(a: &[Limb], b: &[Limb]) -> (Vec<Limb>, Vec<Limb>) {
    let a0 = trim(a);
    assert!(!a0.is_empty(), "gcd_cofactor_vartime: a = 0");
    let (mut a, mut b) = (a0.to_vec(), trim(b).to_vec());
    let mut m = Matrix::identity(1);
    reduce(&mut a, &mut b, &mut m);
    let [m00, m01] = &m.rows[0];
    // The entries are below A but for the last quotient's column (A = m00 a + m01 b).
    let modulo = |x: &[Limb]| -> Vec<Limb> {
        if cmp(x, a0) == Ordering::Less {
            x.to_vec()
        } else {
            div_rem(x, a0).1
        }
    };
    if a.is_empty() {
        // b = m00 B - m10 A = g.
        (b, modulo(m00))
    } else {
        // a = m11 A - m01 B = g: u = -m01 mod A.
        let r = modulo(m01);
        if is_zero(&r) {
            return (a, r);
        }
        let mut u = a0.to_vec();
        sub_in_place(&mut u, &r);
        super::gcd_lehmer::trim_vec(&mut u);
        (a, u)
    }
}
