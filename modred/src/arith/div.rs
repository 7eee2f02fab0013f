//! Division with remainder: Knuth's Algorithm D (TAOCP 4.3.1), as formalized in Bosselaers,
//! Govaerts, Vandewalle, *Comparison of three modular reduction functions*, CRYPTO '93, §3
//! Algorithm 1 and Lim, Hwang, Lee, *Fast Modular Reduction With Precomputation*, JW-ISC '97,
//! §2.1 Fig. 1: normalize the divisor so its top bit is set, estimate each
//! quotient digit from the top two digits of the remainder window and the top digit of the
//! divisor, refine the estimate with the third digit / second divisor digit (so it is at most
//! one too large, with probability about 2/b), multiply-subtract, and add back in the rare case
//! the estimate was still one too large.

use super::{add_n_in_place, shl, shl_in_place, shr_in_place, submul_1, trim};
use crate::limb::{div_wide_hw, mul_wide, DLimb, Limb, LIMB_BITS};
use crate::tuning::DIV_DC_THRESHOLD;

/// Divide `u` (in place) by the normalized divisor `v` (top bit of `v[n-1]` set, n >= 2).
///
/// Preconditions: `u.len() >= n + 1` and the top n limbs of `u` are < `v` (e.g. the top limb of
/// `u` holds only the bits shifted out by normalization). Afterwards `u[..n]` holds the
/// remainder (< v), `u[n..]` is zero, and if given, `q[..u.len() - n]` the quotient.
/// `u.len() - n` steps; a step whose window has a zero top digit needs only a comparison (its
/// quotient digit is 0 or 1), every other one one single-precision division and n + 2
/// multiplications: about k(k+2) multiplications and k divisions for a 2k-digit argument
/// (Lim–Hwang–Lee 1997 §2.1).
/// Leaks: variable time: branches on each window's top digit (zero, or equal to the divisor's),
/// a refinement loop and an add-back whose counts depend on the values, and one `div` per step
/// (x86 `div` latency depends on the operands).
pub fn divrem_normalized(u: &mut [Limb], v: &[Limb], mut q: Option<&mut [Limb]>) {
    let n = v.len();
    debug_assert!(n >= 2 && v[n - 1] >> (LIMB_BITS - 1) == 1);
    debug_assert!(u.len() > n);
    let (v1, v2) = (v[n - 1], v[n - 2]);
    for j in (0..u.len() - n).rev() {
        let (u0, u1, u2) = (u[j + n], u[j + n - 1], u[j + n - 2]);
        debug_assert!(u0 <= v1, "window not reduced");
        if u0 == 0 {
            // The window u[j..j+n] < b^n <= 2v, so the quotient digit is 0 or 1: compare and
            // subtract, no estimate (the first line of Lim–Hwang–Lee 1997 Fig. 1).
            let q1 = super::cmp_n(&u[j..j + n], v).is_ge();
            if q1 {
                super::sub_n_in_place(&mut u[j..j + n], v);
            }
            if let Some(q) = q.as_deref_mut() {
                q[j] = q1 as Limb;
            }
            continue;
        }
        // qhat from the top two digits; never too small, at most two too large.
        let (mut qhat, mut rhat, mut rhat_overflow) = if u0 == v1 {
            let (r, o) = u1.overflowing_add(v1);
            (Limb::MAX, r, o)
        } else {
            let (qq, r) = div_wide_hw(u0, u1, v1);
            (qq, r, false)
        };
        // Refine with the third digit: while qhat * v2 > rhat * b + u2, qhat is too large.
        while !rhat_overflow {
            let (lo, hi) = mul_wide(qhat, v2);
            let lhs = ((hi as DLimb) << LIMB_BITS) | lo as DLimb;
            let rhs = ((rhat as DLimb) << LIMB_BITS) | u2 as DLimb;
            if lhs <= rhs {
                break;
            }
            qhat -= 1;
            (rhat, rhat_overflow) = rhat.overflowing_add(v1);
        }
        // Multiply and subtract qhat * v from the window u[j..=j+n].
        let borrow = submul_1(&mut u[j..j + n], v, qhat);
        let (top, negative) = u[j + n].overflowing_sub(borrow);
        u[j + n] = top;
        if negative {
            // qhat was one too large (probability about 2/b): add v back.
            qhat -= 1;
            let c = add_n_in_place(&mut u[j..j + n], v);
            u[j + n] = u[j + n].wrapping_add(c);
        }
        debug_assert_eq!(u[j + n], 0, "remainder window not below the divisor");
        if let Some(q) = q.as_deref_mut() {
            q[j] = qhat;
        }
    }
}

/// Divide `u` by the single limb `d > 0`: writes the quotient to `q` (same length as `u`) if
/// given and returns the remainder. One division per limb.
/// Leaks: variable time: x86 `div` latency depends on the operands.
pub fn div_rem_1(mut q: Option<&mut [Limb]>, u: &[Limb], d: Limb) -> Limb {
    assert!(d != 0, "division by zero");
    let mut r = 0;
    for i in (0..u.len()).rev() {
        let (qq, rr) = div_wide_hw(r, u[i], d);
        if let Some(q) = q.as_deref_mut() {
            q[i] = qq;
        }
        r = rr;
    }
    r
}

/// Quotient and remainder of `u / v` for `v != 0` (trimmed vectors). Allocates.
/// Leaks: variable time: the lengths of `u` and `v` without leading zeros, and those of
/// [`divrem_normalized`] (or of the Newton division for large divisors).
pub fn div_rem(u: &[Limb], v: &[Limb]) -> (Vec<Limb>, Vec<Limb>) {
    let mut q = vec![0; u.len()];
    let r = divide(u, v, Some(&mut q));
    let q_len = trim(&q).len();
    q.truncate(q_len);
    (q, r)
}

/// `u mod v` for `v != 0` (trimmed). Allocates the remainder and the normalized divisor, no
/// quotient.
/// Leaks: variable time, as [`div_rem`].
pub fn rem_vartime(u: &[Limb], v: &[Limb]) -> Vec<Limb> {
    divide(u, v, None)
}

/// The remainder of `u / v` (trimmed), and the quotient into `q` (`u.len()` limbs, zeroed) if
/// given: normalizes `v` so that its top bit is set and runs [`divrem_normalized`].
/// Leaks: variable time, as [`div_rem`].
fn divide(u: &[Limb], v: &[Limb], q: Option<&mut [Limb]>) -> Vec<Limb> {
    let (u, v) = (trim(u), trim(v));
    assert!(!v.is_empty(), "division by zero");
    if u.len() < v.len() {
        return u.to_vec();
    }
    if v.len() == 1 {
        let r = div_rem_1(q.map(|q| &mut q[..u.len()]), u, v[0]);
        return trim(&[r]).to_vec();
    }
    let n = v.len();
    let t = super::div_newton::division_threshold();
    if n >= t && u.len() - n >= t / 2 {
        let (qq, r) = super::div_newton::Reciprocal::one_off(v).div_rem(u, q.is_some());
        if let Some(q) = q {
            q[..qq.len()].copy_from_slice(&qq);
        }
        return r;
    }
    let s = v[n - 1].leading_zeros();
    let mut vn = vec![0; n];
    shl(&mut vn, v, s);
    let mut un = vec![0; u.len() + 1];
    un[..u.len()].copy_from_slice(u);
    let out = shl_in_place(&mut un[..u.len()], s);
    un[u.len()] = out;
    let quotient_len = un.len() - n;
    let q = q.map(|q| &mut q[..quotient_len]);
    if n >= DIV_DC_THRESHOLD && quotient_len >= DIV_DC_THRESHOLD {
        super::div_dc::divrem_dc(&mut un, &vn, q);
    } else {
        divrem_normalized(&mut un, &vn, q);
    }
    un.truncate(n);
    shr_in_place(&mut un, s);
    let r_len = trim(&un).len();
    un.truncate(r_len);
    un
}
