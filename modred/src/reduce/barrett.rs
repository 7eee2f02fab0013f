//! `barrett`: Barrett's reduction (Bosselaers, Govaerts, Vandewalle, *Comparison of three
//! modular reduction functions*, CRYPTO '93, Algorithm 2; Lim, Hwang, Lee, *Fast Modular
//! Reduction With Precomputation*, JW-ISC '97, §2.2, Fig. 2).
//!
//! Precalculation mu = floor(b^2k / m). For x < b^2k: q1 = floor(x / b^(k-1)),
//! q3 = floor(q1 mu / b^(k+1)) computed from the partial product (only the digits i + j >= k-1),
//! r = (x mod b^(k+1) - (q3 m mod b^(k+1))) mod b^(k+1) from the partial product
//! (digits i + j <= k), then r -= m while r >= m. At most k(k+4) multiplications.

use super::{check_modulus, check_wide_len, Reducer, ReducerInfo, ReducerKind};
use crate::arith::{
    self, add_1_in_place, addmul_1, cmp, karatsuba_scratch_len, sub_in_place, sub_n,
};
use crate::error::Result;
use crate::limb::Limb;

/// Barrett context: m and mu = floor(b^2k / m) (k + 1 limbs); from
/// `arith::div_newton::reuse_threshold()` limbs the Newton reciprocal of the normalized m
/// instead, whose block division runs on the fast products.
/// Leaks: variable time: [`Self::reduce_into_vartime`]'s, and its `mul`/`sqr` are the [`Reducer`]
/// defaults (Karatsuba from its threshold).
#[derive(Debug, Clone)]
pub struct Barrett {
    m: Vec<Limb>,
    mu: Vec<Limb>,
    one: Vec<Limb>,
    large: Option<arith::div_newton::Reciprocal>,
}

impl Barrett {
    /// Context for any non-zero modulus.
    pub fn new(m: &[Limb]) -> Result<Self> {
        let m = check_modulus(INFO.name, false, m)?;
        let k = m.len();
        let mut one = vec![0; k];
        one[0] = u64::from(m != [1]);
        if k >= arith::div_newton::reuse_threshold() {
            return Ok(Self {
                m: m.to_vec(),
                mu: Vec::new(),
                one,
                large: Some(arith::div_newton::Reciprocal::new(m)),
            });
        }
        let mut b2k = vec![0; 2 * k + 1];
        b2k[2 * k] = 1;
        let (mut mu, _) = arith::div_rem(&b2k, m);
        // mu < b^(k+1) unless m = b^(k-1) exactly (then mu = b^(k+1)); capping it at
        // b^(k+1) - 1 lowers the quotient estimate by at most one more.
        if mu.len() > k + 1 {
            mu = vec![Limb::MAX; k + 1];
        }
        mu.resize(k + 1, 0);
        let large = None;
        Ok(Self {
            m: m.to_vec(),
            mu,
            one,
            large,
        })
    }

    /// `out = x mod m` for `x < b^2k` (2k limbs). `u` has 2k + 2 limbs, `v` k + 1 limbs.
    /// Leaks: variable time: the number of correcting subtractions (at most two for the
    /// estimate of Lim–Hwang–Lee 1997 eq. (1) plus one for the partial product, each rare), each
    /// after an early-exit comparison; zero quotient digits are skipped; carries stop when they
    /// die. From `arith::div_newton::reuse_threshold()` limbs the Newton block division
    /// instead, also variable time.
    pub fn reduce_into_vartime(
        &self,
        out: &mut [Limb],
        x: &[Limb],
        u: &mut [Limb],
        v: &mut [Limb],
    ) {
        let k = self.m.len();
        debug_assert_eq!(x.len(), 2 * k);
        if let Some(inv) = &self.large {
            let (_, r) = inv.div_rem(x, false);
            out.fill(0);
            out[..r.len()].copy_from_slice(&r);
            return;
        }
        // u = sum_{i+j >= k-1} mu_i q1_j b^(i+j), q1 = x[k-1..2k] (k+1 digits).
        let q1 = &x[k - 1..];
        let u = &mut u[..2 * k + 2];
        u.fill(0);
        for (j, &qj) in q1.iter().enumerate() {
            let i0 = (k - 1).saturating_sub(j);
            let c = addmul_1(&mut u[i0 + j..k + 1 + j], &self.mu[i0..], qj);
            u[k + 1 + j] = c;
        }
        let q3 = &u[k + 1..]; // k + 1 digits
                              // v = q3 m mod b^(k+1): only the digits i + j <= k.
        let v = &mut v[..k + 1];
        v.fill(0);
        for (i, &qi) in q3.iter().enumerate() {
            let len = k.min(k + 1 - i);
            if qi == 0 {
                // Usually only the top digit q3[k]: the estimate has k digits, as Lim–Hwang–Lee
                // 1997 §2.2 counts it ("q and n are k-digit numbers").
                continue;
            }
            let c = addmul_1(&mut v[i..i + len], &self.m[..len], qi);
            if i + len <= k {
                add_1_in_place(&mut v[i + len..], c);
            }
        }
        // r = x[0..=k] - v mod b^(k+1) (the "+ b^(k+1) if negative" step is the wrap-around).
        let r = &mut u[..k + 1];
        sub_n(r, &x[..k + 1], v);
        let mut subtractions = 0;
        while cmp(r, &self.m).is_ge() {
            sub_in_place(r, &self.m);
            subtractions += 1;
        }
        debug_assert!(subtractions <= 3, "Barrett estimate off by {subtractions}");
        out.copy_from_slice(&r[..k]);
    }
}

impl Reducer for Barrett {
    fn name(&self) -> &'static str {
        INFO.name
    }
    fn modulus(&self) -> &[Limb] {
        &self.m
    }
    fn scratch_len(&self) -> usize {
        let k = self.m.len();
        // product 2k + u (2k + 2) + v (k + 1) + Karatsuba scratch
        5 * k + 3 + karatsuba_scratch_len(k)
    }
    fn one(&self) -> &[Limb] {
        &self.one
    }
    fn reduce_wide(&self, out: &mut [Limb], x: &mut [Limb], scratch: &mut [Limb]) {
        let k = self.m.len();
        check_wide_len(k, out, x);
        let (u, rest) = scratch.split_at_mut(2 * k + 2);
        self.reduce_into_vartime(out, x, u, &mut rest[..k + 1]);
    }
}

fn build(m: &[Limb], _tier: crate::cpu::Tier) -> Result<Box<dyn Reducer>> {
    Ok(Box::new(Barrett::new(m)?))
}

/// Listing of `barrett`.
pub const INFO: ReducerInfo = ReducerInfo {
    kind: ReducerKind::Barrett,
    name: "barrett",
    needs_odd: false,
    restriction: "x < b^(2k) (b = 2^64, k = limbs of m)",
    summary: "Barrett with partial products, mu = floor(b^2k/m); Bosselaers et al. 1993 Alg. 2, Lim–Hwang–Lee 1997 Fig. 2",
    memory: "O(k): mu (k + 1 limbs)",
    build,
};
