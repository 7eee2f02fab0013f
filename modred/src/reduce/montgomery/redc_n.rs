//! Montgomery reduction over products for large moduli (as GMP's `mpn_redc_n`): with
//! m' = -m^{-1} mod R, R = B^k, q = (x mod R) m' mod R by a short product (the low half only,
//! `arith::mullo::mullo_n`) and x + q m by another product, so the reduction costs about two
//! products of k limbs (Karatsuba and up) instead of the k^2 single-precision products of the
//! word-by-word REDC (Montgomery, "Modular multiplication without trial division", Math. Comp.
//! 1985, with the multi-word REDC of section 2).
//!
//! Only the high half of q m is needed, and its low half is known (q m = -x mod R): with L >= k,
//! y = q m mod (B^L - 1) comes from a cyclic product of about half the cost of the full one,
//! and the high half H satisfies H B^k = y - (q m mod R) mod (B^L - 1), so H is that difference
//! rotated by L - k limbs (GMP does the same with `mpn_mulmod_bnm1`). Below the NTT range the
//! cyclic product is `arith::mulmod_bnm1` (L = `arith::mulmod_bnm1::mulmod_bnm1_size(k)`); in
//! that range both products use the transforms of m' and m, computed once per modulus
//! (`crate::arith::ntt::Transformed`), from `crate::arith::ntt::transformed_threshold` on.
//!
//! Variable time (see `RedcN::reduce_vartime`).

use crate::arith::mullo::{self, mullo_n_with};
use crate::arith::mulmod_bnm1::{self, mulmod_bnm1_size, mulmod_bnm1_with};
use crate::arith::{self, add_n, add_n_in_place, ntt::Transformed, sub_mod_final};
use crate::cpu::Tier;
use crate::limb::Limb;
use crate::tuning::{REDC_N_THRESHOLD, REDC_N_THRESHOLD_PORTABLE};

/// The modulus size (limbs) from which `montgomery-fast` on `tier` reduces over products.
pub(crate) fn threshold(tier: Tier) -> usize {
    match tier {
        Tier::Portable => REDC_N_THRESHOLD_PORTABLE,
        _ => REDC_N_THRESHOLD,
    }
}

/// [`RedcN::scratch_len`]`(k)` when some tier reduces k limbs over products, else 0: the share
/// of a reducer's scratch that is the REDC's.
pub(crate) fn scratch_len_on_any_tier(k: usize) -> usize {
    if k >= REDC_N_THRESHOLD.min(REDC_N_THRESHOLD_PORTABLE) {
        RedcN::scratch_len(k)
    } else {
        0
    }
}

/// The per-modulus constants of `RedcN::reduce_vartime`.
#[derive(Debug)]
pub struct RedcN {
    /// -m^{-1} mod R, k limbs.
    m_neg_inv: Vec<Limb>,
    /// In the NTT range: m' transformed for full products with k-limb operands, and m for
    /// products mod B^L - 1.
    transforms: Option<(Transformed, Transformed)>,
}

impl RedcN {
    /// The constants for the odd modulus `m` (k limbs): -m^{-1} mod R by Newton–Hensel lifting
    /// (`arith::div_newton::inverse_mod_power`) and, from
    /// `arith::ntt::transformed_threshold` on, the transforms.
    pub(crate) fn new(m: &[Limb]) -> Self {
        let k = m.len();
        let inv = arith::div_newton::inverse_mod_power(m, k);
        let mut m_neg_inv = vec![0; k];
        arith::sub_n(&mut m_neg_inv, &vec![0; k], &inv);
        let transforms = if Self::uses_transforms(k) {
            let cyclic = arith::ntt::transform_len(k).and_then(|n| Transformed::new_cyclic(m, n));
            Transformed::new(&m_neg_inv, k).zip(cyclic)
        } else {
            None
        };
        Self {
            m_neg_inv,
            transforms,
        }
    }

    /// Whether the constants for a k-limb modulus hold transforms: the NTT range, where the
    /// tier's transforms are long enough (`new` and `scratch_len` both follow this, so the
    /// scratch always covers the branch `reduce_vartime` takes).
    fn uses_transforms(k: usize) -> bool {
        k >= arith::ntt::transformed_threshold() && arith::ntt::redc_transforms_fit(k)
    }

    /// The scratch limbs [`Self::reduce_vartime`] needs for a k-limb modulus: x's high half,
    /// q and the high half of q m (k limbs each) and, below the NTT range, the cyclic product
    /// (`mulmod_bnm1_size(k)` limbs) and the short and cyclic products' own scratch.
    pub(crate) fn scratch_len(k: usize) -> usize {
        let products = if Self::uses_transforms(k) {
            0
        } else {
            let l = mulmod_bnm1_size(k);
            l + mullo::scratch_len(k).max(mulmod_bnm1::scratch_len(l))
        };
        3 * k + products
    }

    /// `out = x R^{-1} mod m` for a 2k-limb `x < m R`, with `scratch` of at least
    /// [`Self::scratch_len`]`(k)` limbs (contents overwritten). Output `< m`.
    /// q = (x mod R) m' mod R makes x + q m divisible by R, and (x + q m) / R < 2m; its low
    /// half is zero, so (x + q m) / R = x_hi + (q m)_hi + [x_lo != 0]. For `x < R^2` (a product
    /// of residues below R) it is below R + m, and the output is below R (congruent, not fully
    /// reduced).
    /// Leaks: variable time: a zero low half of x (found by an early-exit scan) skips the
    /// products; q is multiplied trimmed (its length shows); below the NTT range the short and
    /// cyclic products branch on operand signs and values (`arith::mullo`,
    /// `arith::mulmod_bnm1`); the carry and borrow propagations stop early.
    pub(crate) fn reduce_vartime(
        &self,
        out: &mut [Limb],
        x: &[Limb],
        m: &[Limb],
        scratch: &mut [Limb],
    ) {
        let k = m.len();
        debug_assert!(x.len() == 2 * k && out.len() == k);
        debug_assert!(scratch.len() >= Self::scratch_len(k));
        debug_assert_eq!(self.transforms.is_some(), Self::uses_transforms(k));
        let (x_lo, x_hi) = x.split_at(k);
        let (u, rest) = scratch.split_at_mut(k);
        if arith::is_zero(x_lo) {
            u.copy_from_slice(x_hi);
            return sub_mod_final(out, u, 0, m);
        }
        let (q, rest) = rest.split_at_mut(k);
        let (h, rest) = rest.split_at_mut(k);
        // The result is x_hi + (q m)_hi + 1 = x_hi + high + carry.
        let (high, carry): (&[Limb], Limb) = match &self.transforms {
            Some((inv_t, m_t)) => {
                // The transforms' finish adds into its output.
                q.fill(0);
                inv_t.mul(q, x_lo);
                let mut y = vec![0; m_t.points()];
                m_t.mul_cyclic(&mut y, arith::trim(q));
                high_half_of_cyclic(h, &mut y, x_lo);
                (h, 1)
            }
            None => {
                let (y, rest) = rest.split_at_mut(mulmod_bnm1_size(k));
                mullo_n_with(q, x_lo, &self.m_neg_inv, rest);
                mulmod_bnm1_with(y, arith::trim(q), m, rest);
                if y.len() == k {
                    // L = k: (q m)_hi = y + x_lo - 1 mod (B^k - 1) (below m, so that residue
                    // is the canonical one). With y + x_lo = c B^k + s (c <= 1): without a
                    // carry it is s - 1 (s >= 1, as x_lo != 0); with one, s. So
                    // x_hi + (q m)_hi + 1 = x_hi + s + c: no separate high half.
                    let c = add_n_in_place(y, x_lo);
                    (y, c)
                } else {
                    high_half_of_cyclic(h, y, x_lo);
                    (h, 1)
                }
            }
        };
        let top = add_n(u, x_hi, high) + arith::add_1_in_place(u, carry);
        debug_assert!(top <= 1);
        sub_mod_final(out, u, top, m);
    }
}

/// `h` = the high k limbs of q m, from y = q m mod (B^L - 1) (L = `y.len()` >= k, destroyed)
/// and the low half q m mod R = R - x_lo (x_lo != 0):
/// H = ((y - (R - x_lo)) mod (B^L - 1)) B^(L-k).
fn high_half_of_cyclic(h: &mut [Limb], y: &mut [Limb], x_lo: &[Limb]) {
    let (k, l) = (h.len(), y.len());
    debug_assert!(l >= k);
    // y + x_lo - R = y + x_lo - B^k, mod B^L - 1.
    arith::add_mod_bnm1(y, x_lo);
    // Subtract B^k (limb k, or 1 at limb 0 when k = L: B^L = 1).
    let mut borrow = arith::sub_1_in_place(&mut y[k % l..], 1);
    while borrow != 0 {
        borrow = arith::sub_1_in_place(y, borrow);
    }
    if y.iter().all(|&v| v == Limb::MAX) {
        y.fill(0);
    }
    // Multiply by B^(L-k): limb i moves to (i + L - k) mod L, so h[j] = y[(j + k) mod L]:
    // y[k..] for j < L - k, then y from limb 0.
    let wrap = (l - k).min(k);
    h[..wrap].copy_from_slice(&y[k..k + wrap]);
    h[wrap..].copy_from_slice(&y[..k - wrap]);
    debug_assert!(
        (k..l).all(|j| y[(j + k) % l] == 0),
        "q m high half above k limbs"
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limb::xorshift64;
    use crate::reduce::montgomery::test_util::big;

    /// Against num-bigint, below the NTT threshold (short and cyclic products, around their
    /// thresholds and the sizes `mulmod_bnm1_size` rounds up) and above it (the transforms),
    /// with random, all-ones and short moduli, and x = 0, x < R, x = (m - 1) r.
    #[test]
    fn redc_n_matches_num_bigint() {
        let mut s = 0xdead_beef_0bad_f00d;
        let t = arith::ntt::transformed_threshold();
        for k in [
            1,
            2,
            7,
            31,
            32,
            33,
            63,
            64,
            65,
            127,
            129,
            t - 1,
            t,
            t + 1,
            300,
            513, // portable: 768 points (3 2^8) for the cyclic product
            768,
            769,
        ] {
            for case in 0..4 {
                let mut m: Vec<Limb> = (0..k).map(|_| xorshift64(&mut s)).collect();
                m[0] |= 1;
                if case == 1 {
                    m.iter_mut().for_each(|l| *l = Limb::MAX);
                }
                if case == 2 {
                    m[k - 1] = 1;
                }
                let ctx = RedcN::new(&m);
                let r: Vec<Limb> = (0..k).map(|_| xorshift64(&mut s)).collect();
                let mut mm1 = m.clone();
                arith::sub_1_in_place(&mut mm1, 1);
                let mut x = vec![0; 2 * k];
                match case {
                    3 => x[..k].copy_from_slice(&r), // x < R
                    _ => arith::mul(&mut x, &mm1, &r),
                }
                let mut out = vec![0; k];
                // Scratch of garbage: the reduction must not read what it did not write.
                let mut scratch = vec![Limb::MAX; RedcN::scratch_len(k)];
                ctx.reduce_vartime(&mut out, &x, &m, &mut scratch);
                // out = x R^-1 mod m iff out < m and out R = x (mod m): checked by a product
                // and a division (a modular inverse of 2000 limbs in num-bigint took minutes).
                let (out, m) = (big(&out), big(&m));
                assert!(out < m, "k={k} case={case}: not reduced");
                assert_eq!((out << (64 * k)) % &m, big(&x) % &m, "k={k} case={case}");
            }
        }
    }
}
