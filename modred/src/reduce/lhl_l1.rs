//! `lhl-l1`: Lim–Hwang–Lee reduction with a single precomputed value (Lim, Hwang, Lee, *Fast
//! Modular Reduction With Precomputation*, JW-ISC '97, §3.1, Fig. 4).
//!
//! Precalculation: n' = b^(k+δ) mod m (k limbs), δ >= 1 (default 2, the paper's choice).
//! For i = L-1 down to k+δ the top digit z_i is folded into the window z[i-k-δ .. i]
//! (k + δ digits): z[i-k-δ..i] += z_i n', since z_i b^i ≡ z_i n' b^(i-k-δ). As z_i n' < b^(k+1)
//! the window overflows only when its top digits are all ones and receive a carry
//! (probability about b^(1-δ)); the overflow is worth b^i ≡ n' b^(i-k-δ), so n' is added once
//! more ("final carry" fix-up). The wrapped window is then below z_i n' < b^(k+1), so the
//! second addition cannot overflow again (b n' < b^(k+1) <= b^(k+δ)). What remains is k + δ
//! limbs, reduced by the classical algorithm. k(k - δ) multiplications for a 2k-limb argument
//! plus the classical tail on k + δ limbs.

use super::classical::Classical;
use super::{check_len, check_modulus, Reducer, ReducerInfo, ReducerKind};
use crate::arith::{self, add_1_in_place, add_in_place, addmul_1, karatsuba_scratch_len};
use crate::error::{Error, Result};
use crate::limb::Limb;
use crate::tuning::LHL_DELTA;

/// Fold `z` (any length L) from the top down to its low `k + delta` limbs with
/// `np = b^(k+delta) mod m` (k limbs): afterwards `z[k+delta..]` is zero and
/// `z[..k+delta]` ≡ z (mod m). Returns how many final-carry fix-ups happened (for tests).
/// `delta >= 1`. Panics if `delta` is 0 or `np` empty (the fold would then lose carries).
/// Leaks: variable time: zero digits are skipped, the carry propagation stops when the carry
/// dies, and the rare fix-up is a branch.
pub fn fold_top_vartime(z: &mut [Limb], np: &[Limb], delta: usize) -> usize {
    assert!(
        delta >= 1 && !np.is_empty(),
        "fold_top_vartime: needs delta >= 1 and n' of k >= 1 limbs"
    );
    let k = np.len();
    let w = k + delta;
    let mut fixups = 0;
    let mut i = z.len();
    while i > w {
        i -= 1;
        let zi = z[i];
        z[i] = 0;
        if zi == 0 {
            continue;
        }
        let lo = i - w;
        let win = &mut z[lo..i];
        // win < b^w; zi np < b^(k+1): the sum overflows win by at most one unit of b^w.
        let c = addmul_1(&mut win[..k], np, zi);
        if add_1_in_place(&mut win[k..], c) != 0 {
            // Dropped b^i ≡ np b^lo: add np once more; win < zi np now, so no overflow.
            fixups += 1;
            let c2 = add_in_place(win, np);
            debug_assert_eq!(c2, 0);
        }
    }
    fixups
}

/// L1 context: the modulus, n' = b^(k+δ) mod m, δ, and the classical tail.
/// Leaks: variable time: [`Self::reduce_into_vartime`]'s, and its `mul`/`sqr` are the [`Reducer`]
/// defaults (Karatsuba from its threshold).
#[derive(Debug, Clone)]
pub struct LhlL1 {
    m: Vec<Limb>,
    np: Vec<Limb>,
    delta: usize,
    classical: Classical,
}

impl LhlL1 {
    /// Context with the default δ (`LHL_DELTA`).
    pub fn new(m: &[Limb]) -> Result<Self> {
        Self::with_delta(m, LHL_DELTA)
    }

    /// Context with a chosen δ >= 1 (δ = 0 only works for diminished-radix moduli: use
    /// [`super::diminished_radix`]).
    pub fn with_delta(m: &[Limb], delta: usize) -> Result<Self> {
        let m = check_modulus(INFO.name, false, m)?;
        if delta == 0 || delta > 64 {
            return Err(Error::InvalidParameter(format!(
                "lhl-l1 delta must be in 1..=64 (got {delta}); delta = 0 needs a diminished-radix modulus (reducer 'diminished-radix')"
            )));
        }
        let k = m.len();
        let mut p = vec![0; k + delta + 1];
        p[k + delta] = 1;
        let mut np = arith::rem_vartime(&p, m);
        np.resize(k, 0);
        Ok(Self {
            m: m.to_vec(),
            np,
            delta,
            classical: Classical::new(m)?,
        })
    }

    /// δ.
    pub fn delta(&self) -> usize {
        self.delta
    }

    /// n' = b^(k+δ) mod m.
    pub fn n_prime(&self) -> &[Limb] {
        &self.np
    }

    /// `out = z mod m` for `z` of any length (destroyed); `u` is scratch of `k + δ + 1` limbs.
    /// Returns the number of final-carry fix-ups.
    /// Leaks: variable time: [`fold_top_vartime`]'s, then the classical tail's
    /// ([`Classical::rem_into_vartime`]).
    pub fn reduce_into_vartime(&self, out: &mut [Limb], z: &mut [Limb], u: &mut [Limb]) -> usize {
        let fixups = fold_top_vartime(z, &self.np, self.delta);
        let w = (self.m.len() + self.delta).min(z.len());
        self.classical.rem_into_vartime(out, &z[..w], u);
        fixups
    }
}

impl Reducer for LhlL1 {
    fn name(&self) -> &'static str {
        INFO.name
    }
    fn modulus(&self) -> &[Limb] {
        &self.m
    }
    fn scratch_len(&self) -> usize {
        let k = self.m.len();
        3 * k + self.delta + 1 + karatsuba_scratch_len(k)
    }
    fn one(&self) -> &[Limb] {
        self.classical.one()
    }
    fn reduce_wide(&self, out: &mut [Limb], x: &mut [Limb], scratch: &mut [Limb]) {
        check_len(self.m.len(), &[out]); // x of any length
        self.reduce_into_vartime(out, x, scratch);
    }
}

fn build(m: &[Limb], _tier: crate::cpu::Tier) -> Result<Box<dyn Reducer>> {
    Ok(Box::new(LhlL1::new(m)?))
}

/// Listing of `lhl-l1`.
pub const INFO: ReducerInfo = ReducerInfo {
    kind: ReducerKind::LhlL1,
    name: "lhl-l1",
    needs_odd: false,
    restriction: "x < b^(2k) (b = 2^64, k = limbs of m)",
    summary: "Lim-Hwang-Lee L1: one value n' = b^(k+2) mod m, digit folding with final-carry fix-up, classical tail; Lim–Hwang–Lee 1997 §3.1, Fig. 4",
    memory: "O(k): n' (k limbs)",
    build,
};
