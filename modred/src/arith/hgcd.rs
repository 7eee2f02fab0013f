//! The half-GCD: a reduction matrix for the top half of Euclid's remainder sequence in
//! subquadratic time, by two recursive calls on leading parts whose matrices are applied to
//! the whole numbers with the fast products (N. Möller, "On Schönhage's algorithm and
//! subquadratic integer GCD computation", *Math. Comp.* 77, 2008, §3–5, Algorithm "hgcd";
//! the structure of GMP's `mpn_hgcd`: a first call on the top half, single steps down to 3/4
//! of the length, a second call on a top part sized to land at half, single steps to finish).
//!
//! The size condition is the product rule of [`super::gcd_lehmer`]'s module docs: `hgcd`
//! stops before `bitlen(a) + bitlen(b)` drops below `bitlen(max(A, B)) + 4`, which is what
//! lets a caller apply its matrix to numbers of which `(A, B)` are the leading parts
//! ([`reduce_by_top`]), and what bounds its entries (each below a quarter of its column's
//! remainder, so about half the input's length). A caller's own bound is checked again on the
//! whole numbers after each application, and an application that would break it (or go
//! negative) is discarded: never a wrong reduction, and by the sizes chosen (see the comments
//! at the two calls) the check does not fail.

use super::gcd_lehmer::{lehmer_step, nat_mul, reduce_lehmer, Matrix};
use super::{add_in_place, bit_len, sub_in_place, trim};
use crate::limb::{Limb, LIMB_BITS};
use crate::tuning::HGCD_THRESHOLD;

/// The half-GCD of `(a, b)` (trimmed, both non-zero for any step): reduces the pair in place by
/// steps that keep `bitlen(a) + bitlen(b) >= bitlen(max(a0, b0)) + 4` and returns their matrix
/// `M` (two rows, determinant 1, `(a0; b0) = M (a; b)`), or `None` (pair unchanged) when not
/// one step qualifies. On return no further Lehmer step qualifies unless cancelled
/// ([`crate::cancel`] is polled at every step: the pair and matrix stay consistent, only less
/// reduced). Below [`HGCD_THRESHOLD`] limbs by [`reduce_lehmer`].
/// Leaks: variable time: the operands' values.
/// Reference: Möller 2008, §5 (hgcd with two recursive calls).
pub fn hgcd(a: &mut Vec<Limb>, b: &mut Vec<Limb>) -> Option<Matrix> {
    let top = bit_len(a).max(bit_len(b));
    let bound = top + 4;
    let n = a.len().max(b.len());
    let mut m = Matrix::identity(2);
    if crate::cancel::requested() || a.is_empty() || b.is_empty() {
        return None;
    }
    if n < HGCD_THRESHOLD {
        reduce_lehmer(a, b, &mut m, bound);
        return (!m.is_identity()).then_some(m);
    }
    // First call, on the top half: its result (each remainder about n/4 limbs of the top half
    // left) extends to about 3n/4 limbs here. It always meets our bound (sizes in
    // `reduce_by_top`'s docs: p = n/2 >= 1 limb of extension is margin enough).
    let p = n / 2;
    if let Some(m1) = reduce_by_top(a, b, p, bound) {
        m = m1;
    }
    // Single steps down to 3/4 of the length (a large quotient at the first call's boundary).
    while a.len().max(b.len()) > 3 * n / 4 + 1 {
        if crate::cancel::requested() || !lehmer_step(a, b, &mut m, bound) {
            return (!m.is_identity()).then_some(m);
        }
    }
    // Second call, on the top of the current pair above p2 limbs, p2 chosen so that the call's
    // result meets our bound: it returns a_s b_s > 4 N_s (N_s = floor(N' / B^p2), N' the
    // larger number now), and the extension gives a' b' > (9/16) a_s b_s B^(2 p2)
    // >= (9/4) (N' - B^p2) B^p2 >= (9/8) N' B^p2 when N' >= 2 B^p2. That is >= 2^bound when
    // 64 p2 + bitlen(N') - 1 >= bound, so p2 = ceil((bound + 1 - bitlen(N')) / 64).
    let top2 = bit_len(a).max(bit_len(b));
    let p2 = (bound + 1)
        .saturating_sub(top2)
        .div_ceil(LIMB_BITS as usize)
        .max(1);
    if a.len().max(b.len()) >= p2 + 2 {
        if let Some(m2) = reduce_by_top(a, b, p2, bound) {
            m.mul_assign(&m2);
        }
    }
    reduce_lehmer(a, b, &mut m, bound);
    (!m.is_identity()).then_some(m)
}

/// `h B^p + x u - y v`, or `None` if negative.
/// Leaks: variable time, as the products.
fn extend(
    h: &[Limb],
    p: usize,
    x: &[Limb],
    u: &[Limb],
    y: &[Limb],
    v: &[Limb],
) -> Option<Vec<Limb>> {
    let xu = nat_mul(x, u);
    let yv = nat_mul(y, v);
    let len = (h.len() + p).max(xu.len()).max(yv.len()) + 1;
    let mut r = vec![0; len];
    r[p..p + h.len()].copy_from_slice(h);
    let c = add_in_place(&mut r, &xu);
    debug_assert_eq!(c, 0, "one spare limb");
    if sub_in_place(&mut r, &yv) != 0 {
        return None;
    }
    super::gcd_lehmer::trim_vec(&mut r);
    Some(r)
}

/// Reduces `(a, b)` (trimmed) by the half-GCD of their leading parts above `p` limbs: [`hgcd`]
/// on `(a_hi, b_hi)` gives `M` and `(a_s, b_s)`, and the whole pair becomes
/// `a' = a_s B^p + m11 a_lo - m01 b_lo`, `b' = b_s B^p + m00 b_lo - m10 a_lo`
/// (that is `M^-1 (a; b)`, with products of the matrix by the low parts only). Taken only if
/// both results are non-negative and `bitlen(a') + bitlen(b') >= bound`; returns `M`, or `None`
/// with the pair unchanged. By [`hgcd`]'s guarantee each result is within
/// `((3/4) a_s B^p, (5/4) a_s B^p)`, so non-negative always, and the bound holds when
/// `64 p + bitlen(max(a, b)) - 1 >= bound` (see the second call in [`hgcd`]).
/// Leaks: variable time: the operands' values.
pub fn reduce_by_top(
    a: &mut Vec<Limb>,
    b: &mut Vec<Limb>,
    p: usize,
    bound: usize,
) -> Option<Matrix> {
    if a.len() <= p || b.len() <= p {
        return None;
    }
    let mut ah = a[p..].to_vec();
    let mut bh = b[p..].to_vec();
    let m = hgcd(&mut ah, &mut bh)?;
    let (alo, blo) = (trim(&a[..p]), trim(&b[..p]));
    let [r0, r1] = &m.rows[..] else {
        unreachable!("hgcd returns two rows")
    };
    let na = extend(&ah, p, &r1[1], alo, &r0[1], blo)?;
    let nb = extend(&bh, p, &r0[0], blo, &r1[0], alo)?;
    if bit_len(&na) + bit_len(&nb) < bound {
        return None;
    }
    *a = na;
    *b = nb;
    Some(m)
}
