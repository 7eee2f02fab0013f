//! Montgomery reduction on full products for large moduli (as GMP's `mpn_redc_n`): with
//! m' = -m^{-1} mod R, R = B^k, q = (x mod R) m' mod R by one product and x + q m by another,
//! so the reduction costs two products of k limbs (Toom-3 or NTT at these sizes) instead of the
//! k^2 single-precision products of the word-by-word REDC (Montgomery, "Modular multiplication
//! without trial division", Math. Comp. 1985, with the multi-word REDC of section 2).
//!
//! Variable time (the products branch on sizes and signs).

use crate::arith::{self, add_in_place, sub_mod_final};
use crate::limb::Limb;

/// `out = x R^{-1} mod m` for a 2k-limb `x < m R`; `m_neg_inv` = -m^{-1} mod R (k limbs).
/// Output `< m`. q = (x mod R) m' mod R makes x + q m divisible by R, and (x + q m) / R < 2m;
/// its low half is zero, so (x + q m) / R = x_hi + (q m)_hi + [x_lo != 0].
pub fn redc_n(out: &mut [Limb], x: &[Limb], m: &[Limb], m_neg_inv: &[Limb]) {
    let k = m.len();
    debug_assert!(x.len() == 2 * k && out.len() == k && m_neg_inv.len() == k);
    let (x_lo, x_hi) = x.split_at(k);
    let mut t = vec![0; 2 * k];
    arith::mul(&mut t, x_lo, m_neg_inv);
    let q = arith::trim(&t[..k]).to_vec();
    let mut u = vec![0; k];
    u.copy_from_slice(x_hi);
    let mut top = 0;
    if !q.is_empty() {
        let mut qm = vec![0; q.len() + k];
        arith::mul(&mut qm, &q, m);
        #[cfg(debug_assertions)]
        {
            let mut low = vec![0; k];
            arith::add_n(&mut low, &qm[..k], x_lo);
            debug_assert!(arith::is_zero(&low), "x + q m not divisible by R");
        }
        top += add_in_place(&mut u, &qm[k..]);
    }
    if !arith::is_zero(x_lo) {
        top += arith::add_1_in_place(&mut u, 1);
    }
    debug_assert!(top <= 1);
    let t = u.clone();
    sub_mod_final(out, &t, top, m);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limb::xorshift64;
    use num_bigint::BigUint;

    fn big(x: &[Limb]) -> BigUint {
        crate::natural::Natural::from_limbs(x.to_vec()).to_biguint()
    }

    #[test]
    fn redc_n_matches_num_bigint() {
        let mut s = 0xdead_beef_0bad_f00d;
        for k in [1, 2, 7, 64, 199, 200, 201, 300] {
            for case in 0..3 {
                let mut m: Vec<Limb> = (0..k).map(|_| xorshift64(&mut s)).collect();
                m[0] |= 1;
                if case == 1 {
                    m.iter_mut().for_each(|l| *l = Limb::MAX);
                }
                if case == 2 {
                    m[k - 1] = 1;
                }
                let inv = crate::arith::div_newton::inverse_mod_power(&m, k);
                let m_neg_inv = {
                    let mut z = vec![0; k];
                    let b = crate::arith::sub_n(&mut z, &vec![0; k], &inv);
                    let _ = b;
                    z
                };
                // x < m R: x = (m - 1) * random k-limb value.
                let r: Vec<Limb> = (0..k).map(|_| xorshift64(&mut s)).collect();
                let mut mm1 = m.clone();
                crate::arith::sub_1_in_place(&mut mm1, 1);
                let mut x = vec![0; 2 * k];
                crate::arith::mul(&mut x, &mm1, &r);
                let mut out = vec![0; k];
                redc_n(&mut out, &x, &m, &m_neg_inv);
                let rr = BigUint::from(1u8) << (64 * k);
                let want = big(&x) * rr.modinv(&big(&m)).unwrap() % big(&m);
                assert_eq!(big(&out), want, "k={k} case={case}");
            }
        }
    }
}
