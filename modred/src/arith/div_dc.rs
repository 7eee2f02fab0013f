//! Divide-and-conquer division (Burnikel and Ziegler, "Fast recursive division", MPI-I-98-1-022,
//! 1998; Brent and Zimmermann, "Modern Computer Arithmetic", 2010, section 1.4.3, Algorithm
//! 1.8 RecursiveDivRem): a quotient of k limbs is estimated by dividing the top 2k limbs of the
//! dividend by the top k limbs of the divisor (recursively, in two halves), then corrected by
//! one product of the quotient with the divisor's low limbs. On Karatsuba and Toom products a
//! 2n-by-n division costs a small multiple of an n-limb product instead of Knuth's n^2
//! single-precision steps; below [`crate::tuning::DIV_DC_THRESHOLD`] quotient limbs the blocks
//! run Knuth's Algorithm D ([`super::divrem_normalized`]).
//!
//! The estimate's error: with v = v_top B^s + v_low (v_top of k limbs, top bit set), a true
//! quotient q < B^k and q^ = floor(floor(u / B^s) / v_top), q <= q^ <= q + 2 (q^ v_top <=
//! u / B^s < (q + 1)(v_top + 1)), so each block adds the divisor back at most twice.
//!
//! Variable time: the corrections' count, comparisons, and the products' own (`super::mul`).

use super::{add_n_in_place, cmp_n, divrem_normalized, mul, sub_1_in_place, sub_n_in_place};
use crate::limb::{Limb, LIMB_BITS};
use crate::tuning::DIV_DC_THRESHOLD;

/// Divide `u` (in place) by the normalized `v` (top bit of `v[n-1]` set, n >= 2), as
/// [`divrem_normalized`]: `u.len() >= n + 1` and the top n limbs of `u` below `v`; afterwards
/// `u[..n]` holds the remainder (< v), `u[n..]` is zero, and if given, `q[..u.len() - n]` the
/// quotient. The quotient is taken n limbs at a time from the top (the first block shorter), each
/// block by [`div_block`].
/// Leaks: variable time (module docs).
pub fn divrem_dc(u: &mut [Limb], v: &[Limb], q: Option<&mut [Limb]>) {
    let n = v.len();
    debug_assert!(n >= 2 && v[n - 1] >> (LIMB_BITS - 1) == 1 && u.len() > n);
    debug_assert!(
        cmp_n(&u[u.len() - n..], v).is_lt(),
        "dividend's top not below the divisor"
    );
    let qn = u.len() - n;
    let mut own = Vec::new();
    let q = match q {
        Some(q) => &mut q[..qn],
        None => {
            own.resize(qn, 0);
            &mut own[..]
        }
    };
    // The correction products' buffer, shared by every block (each uses at most n limbs of it).
    let mut t = vec![0; n];
    let mut end = qn;
    while end > 0 {
        let k = match end % n {
            0 => n,
            k => k,
        };
        let start = end - k;
        // The window u[start..start + n + k] has its top n limbs (the running remainder) below v.
        let qh = div_block(&mut q[start..end], &mut u[start..start + n + k], v, &mut t);
        debug_assert_eq!(qh, 0);
        u[start + n..start + n + k].fill(0);
        end = start;
    }
}

/// The k-limb quotient (k = `q.len()` <= n = `v.len()`) of the (n + k)-limb window `u` by the
/// normalized `v`, with the top n limbs of `u` at most `v` (the quotient is then below 2 B^k):
/// q + `qh` B^k (the returned `qh` is 0 or 1) into `q`, the remainder (< v) into `u[..n]`; the
/// limbs `u[n..]` are left undefined.
/// With s = n - k: the quotient of u's top 2k limbs by v's top k limbs ([`div_2k_by_k`]) is
/// at most 2 too large (module docs); the remainder then loses q^ times v's low s limbs and
/// takes v back while negative. `t` (at least n limbs) is scratch for that product.
/// Leaks: variable time (module docs).
fn div_block(q: &mut [Limb], u: &mut [Limb], v: &[Limb], t: &mut [Limb]) -> Limb {
    let (n, k) = (v.len(), q.len());
    debug_assert!(k >= 1 && k <= n && u.len() == n + k);
    if k < DIV_DC_THRESHOLD.max(2) {
        return schoolbook(q, u, v);
    }
    let s = n - k;
    let mut qh = div_2k_by_k(q, &mut u[s..], &v[s..], t);
    if s == 0 {
        return qh;
    }
    // u = (q^ v_top + r_top) B^s + u_low = q^ v - q^ v_low + (r_top B^s + u_low), and
    // r_top B^s + u_low is u[..n] now.
    let t = &mut t[..n];
    mul(t, q, &v[..s]);
    let mut borrow = sub_n_in_place(&mut u[..n], t);
    if qh != 0 {
        // The quotient's top bit, B^k v_low, lands at limb k.
        borrow += sub_n_in_place(&mut u[k..n], &v[..s]);
    }
    let mut fixes = 0;
    while borrow != 0 {
        qh -= sub_1_in_place(q, 1);
        borrow -= add_n_in_place(&mut u[..n], v);
        fixes += 1;
    }
    debug_assert!(fixes <= 2, "quotient estimate off by {fixes}");
    qh
}

/// The quotient of the 2k-limb `u` by the normalized k-limb `v` (the top k limbs of `u` at most
/// `v`, k at least [`DIV_DC_THRESHOLD`]: only [`div_block`] calls it, past its base case): its
/// high half, then its low half, each a [`div_block`] of the window left by the one before.
/// Returns the quotient's top bit; the remainder (< v) is in `u[..k]`. `t` (at least k limbs) is
/// scratch for the blocks' correction products.
/// Leaks: variable time (module docs).
fn div_2k_by_k(q: &mut [Limb], u: &mut [Limb], v: &[Limb], t: &mut [Limb]) -> Limb {
    let k = v.len();
    debug_assert!(q.len() == k && u.len() == 2 * k && k >= DIV_DC_THRESHOLD.max(2));
    let lo = k / 2;
    let (q_lo, q_hi) = q.split_at_mut(lo);
    let qh = div_block(q_hi, &mut u[lo..], v, t);
    // The remainder u[lo..lo + k] is below v: the low half's quotient is below B^lo.
    let ql = div_block(q_lo, &mut u[..k + lo], v, t);
    debug_assert_eq!(ql, 0);
    qh
}

/// [`div_block`] by Knuth's Algorithm D: the top n limbs of `u` reduced below `v` by one
/// comparison (the quotient's top bit), then [`divrem_normalized`].
/// Leaks: variable time (as [`divrem_normalized`]).
fn schoolbook(q: &mut [Limb], u: &mut [Limb], v: &[Limb]) -> Limb {
    let top = &mut u[q.len()..];
    let qh = cmp_n(top, v).is_ge();
    if qh {
        sub_n_in_place(top, v);
    }
    divrem_normalized(u, v, Some(q));
    qh as Limb
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limb::xorshift64;

    /// Against Knuth's division and GMP (quotient and remainder), at the threshold and one limb
    /// either side, for 2n-by-n and unbalanced dividends, random, all-ones and divisors of the
    /// form B^n / 2 (the largest quotient digits), and divisors with an all-ones top half.
    #[test]
    fn dc_division_matches_knuth_and_gmp() {
        let t = DIV_DC_THRESHOLD;
        let mut s = 0x2545_f491_4f6c_dd1d;
        for n in [
            2,
            3,
            t - 1,
            t,
            t + 1,
            2 * t - 1,
            2 * t,
            2 * t + 1,
            3 * t + 5,
            5 * t,
        ] {
            for qn in [1, n / 2 + 1, n - 1, n, n + 1, 2 * n + 3] {
                for case in 0..4 {
                    let mut v: Vec<Limb> = (0..n).map(|_| xorshift64(&mut s)).collect();
                    let mut u: Vec<Limb> = (0..n + qn).map(|_| xorshift64(&mut s)).collect();
                    match case {
                        0 => {}
                        1 => {
                            v.fill(0);
                            u.fill(Limb::MAX);
                        }
                        2 => u.fill(Limb::MAX),
                        _ => {
                            // v_top all ones over a small low part: estimates run high.
                            v.iter_mut().skip(n / 2).for_each(|x| *x = Limb::MAX);
                        }
                    }
                    v[n - 1] |= 1 << 63;
                    // The top n limbs of u below v.
                    let (top, last) = (u.len() - n, u.len() - 1);
                    if cmp_n(&u[top..], &v).is_ge() {
                        u[last] = v[n - 1] - 1;
                    }
                    let (mut want_r, mut got_r) = (u.clone(), u.clone());
                    let (mut want_q, mut got_q) = (vec![0; qn], vec![0; qn]);
                    divrem_normalized(&mut want_r, &v, Some(&mut want_q));
                    divrem_dc(&mut got_r, &v, Some(&mut got_q));
                    assert_eq!(got_q, want_q, "quotient n={n} qn={qn} case={case}");
                    assert_eq!(got_r, want_r, "remainder n={n} qn={qn} case={case}");
                    let mut rem_only = u.clone();
                    divrem_dc(&mut rem_only, &v, None);
                    assert_eq!(rem_only, want_r, "remainder only n={n} qn={qn}");
                    let big = |x: &[Limb]| rug::Integer::from_digits(x, rug::integer::Order::Lsf);
                    let (gq, gr) = big(&u).div_rem(big(&v));
                    assert_eq!((big(&got_q), big(&got_r)), (gq, gr), "GMP n={n} qn={qn}");
                }
            }
        }
    }
}
