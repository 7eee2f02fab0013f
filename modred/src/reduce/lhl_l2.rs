//! `lhl-l2`: Lim–Hwang–Lee reduction with two precomputed values (Lim, Hwang, Lee, *Fast
//! Modular Reduction With Precomputation*, JW-ISC '97, §3.1, the n* variant).
//!
//! Precalculation: n* = b^(k+h) mod m with h = ceil(k/2), and L1's n' = b^(k+δ) mod m.
//! A 2k-limb z is first folded as z' = z[0..k+h] + z[k+h..2k] n*: the product of the
//! (k - h)-limb top by the k-limb n* is one long multiplication (Karatsuba-friendly, the point
//! of the method), and z' < b^(k+h) + b^(2k-h) <= 2 b^(k+h) fits k + h + 1 limbs. L1's digit
//! folding then brings z' to k + δ limbs and the classical algorithm finishes.
//!
//! Odd k: the paper assumes k even (n* = b^(3k/2)). We take h = ceil(k/2), so the top part has
//! floor(k/2) limbs and the product (floor(k/2) + k limbs) never exceeds the kept low part's
//! k + h limbs; L1 then folds h - δ + 1 more digits. The product uses Karatsuba on
//! floor(k/2)-limb chunks of n* (`mul_karatsuba` per chunk, schoolbook on a shorter last
//! chunk), all in caller scratch.

use super::classical::Classical;
use super::lhl_l1::fold_top_vartime;
use super::{check_modulus, check_wide_len, Reducer, ReducerInfo, ReducerKind};
use crate::arith::{self, add_in_place, karatsuba_scratch_len, mul_basecase, mul_karatsuba};
use crate::error::{Error, Result};
use crate::limb::Limb;
use crate::tuning::LHL_DELTA;

/// L2 context.
/// Leaks: variable time: [`Self::reduce_into_vartime`]'s, and its `mul`/`sqr` are the [`Reducer`]
/// defaults (Karatsuba from its threshold).
#[derive(Debug, Clone)]
pub struct LhlL2 {
    m: Vec<Limb>,
    /// n* = b^(k+h) mod m.
    nstar: Vec<Limb>,
    /// n' = b^(k+δ) mod m.
    np: Vec<Limb>,
    h: usize,
    delta: usize,
    classical: Classical,
}

fn pow_b_mod(e: usize, m: &[Limb]) -> Vec<Limb> {
    let mut p = vec![0; e + 1];
    p[e] = 1;
    let mut r = arith::rem_vartime(&p, m);
    r.resize(m.len(), 0);
    r
}

impl LhlL2 {
    /// Context with the default δ.
    pub fn new(m: &[Limb]) -> Result<Self> {
        Self::with_delta(m, LHL_DELTA)
    }

    /// Context with a chosen δ >= 1 for the L1 stage.
    pub fn with_delta(m: &[Limb], delta: usize) -> Result<Self> {
        let m = check_modulus(INFO.name, false, m)?;
        if delta == 0 || delta > 64 {
            return Err(Error::InvalidParameter(format!(
                "lhl-l2 delta must be in 1..=64 (got {delta})"
            )));
        }
        let k = m.len();
        let h = k.div_ceil(2);
        Ok(Self {
            m: m.to_vec(),
            nstar: pow_b_mod(k + h, m),
            np: pow_b_mod(k + delta, m),
            h,
            delta,
            classical: Classical::new(m)?,
        })
    }

    fn lo_len(&self) -> usize {
        self.m.len() - self.h
    }

    /// `p = top * n*` (top: k - h limbs, p: 2k - h limbs) by Karatsuba on (k - h)-limb chunks
    /// of n* (schoolbook when k - h is below the Karatsuba threshold). `s` is scratch of `2 (k - h) + karatsuba_scratch_len(k - h)` limbs.
    /// Leaks: nothing but the lengths (constant time) in the schoolbook case; else variable
    /// time (Karatsuba's sign branches, and the chunks' carries stop when they die).
    fn mul_top(&self, p: &mut [Limb], top: &[Limb], s: &mut [Limb]) {
        let t = top.len();
        let k = self.m.len();
        if t < crate::arith::karatsuba_threshold(crate::cpu::tier(), false) {
            // Below the Karatsuba threshold: one schoolbook pass with long (k-limb) rows.
            return mul_basecase(p, &self.nstar, top);
        }
        p.fill(0);
        let (prod, ks) = s.split_at_mut(2 * t);
        let mut i = 0;
        while i < k {
            let len = t.min(k - i);
            let chunk = &self.nstar[i..i + len];
            let pr = &mut prod[..t + len];
            if len == t {
                mul_karatsuba(pr, top, chunk, ks);
            } else {
                mul_basecase(pr, top, chunk);
            }
            let c = add_in_place(&mut p[i..], pr);
            debug_assert_eq!(c, 0);
            i += len;
        }
    }

    /// `out = z mod m` for a 2k-limb z (destroyed). `s` needs [`Reducer::scratch_len`] minus
    /// the product's 2k limbs.
    /// Leaks: variable time: `mul_top`'s, the carry of the first fold stops when it dies,
    /// then [`fold_top_vartime`]'s and the classical tail's ([`Classical::rem_into_vartime`]).
    pub fn reduce_into_vartime(&self, out: &mut [Limb], z: &mut [Limb], s: &mut [Limb]) {
        let k = self.m.len();
        debug_assert_eq!(z.len(), 2 * k);
        let t = self.lo_len();
        let (zp, rest) = s.split_at_mut(k + self.h + 1);
        if t == 0 {
            // k = 1: nothing to fold in the first stage.
            zp[..2].copy_from_slice(z);
            zp[2..].fill(0);
        } else {
            let (p, rest) = rest.split_at_mut(2 * k - self.h);
            self.mul_top(p, &z[k + self.h..], rest);
            // z' = z[0..k+h] + p, p < b^(2k-h) <= b^(k+h).
            zp[..k + self.h].copy_from_slice(&z[..k + self.h]);
            zp[k + self.h] = 0;
            let c = add_in_place(&mut zp[..], p);
            debug_assert_eq!(c, 0);
        }
        fold_top_vartime(zp, &self.np, self.delta);
        let w = (k + self.delta).min(zp.len());
        self.classical.rem_into_vartime(out, &zp[..w], rest);
    }
}

impl Reducer for LhlL2 {
    fn name(&self) -> &'static str {
        INFO.name
    }
    fn modulus(&self) -> &[Limb] {
        &self.m
    }
    fn scratch_len(&self) -> usize {
        let k = self.m.len();
        let t = self.lo_len();
        // product 2k | z' (k + h + 1) | p (2k - h) | chunk product 2t + Karatsuba(t);
        // the classical tail (k + δ + 1) and the full product's Karatsuba(k) reuse the rest.
        let stage = (2 * k - self.h) + 2 * t + karatsuba_scratch_len(t);
        let tail = k + self.delta + 1;
        2 * k + (k + self.h + 1) + stage.max(tail).max(karatsuba_scratch_len(k))
    }
    fn one(&self) -> &[Limb] {
        self.classical.one()
    }
    fn reduce_wide(&self, out: &mut [Limb], x: &mut [Limb], scratch: &mut [Limb]) {
        check_wide_len(self.m.len(), out, x);
        self.reduce_into_vartime(out, x, scratch);
    }
}

fn build(m: &[Limb], _tier: crate::cpu::Tier) -> Result<Box<dyn Reducer>> {
    Ok(Box::new(LhlL2::new(m)?))
}

/// Listing of `lhl-l2`.
pub const INFO: ReducerInfo = ReducerInfo {
    kind: ReducerKind::LhlL2,
    name: "lhl-l2",
    needs_odd: false,
    restriction: "x < b^(2k) (b = 2^64, k = limbs of m)",
    summary: "Lim-Hwang-Lee L2: fold the top k/2 limbs with n* = b^(3k/2) mod m by Karatsuba, then L1; Lim–Hwang–Lee 1997 §3.1",
    memory: "O(k): n* and n' (2k limbs)",
    build,
};
