//! `classical`: Knuth's Algorithm D used as a reduction (Bosselaers, Govaerts, Vandewalle,
//! *Comparison of three modular reduction functions*, CRYPTO '93, Algorithm 1; Lim, Hwang, Lee,
//! *Fast Modular Reduction With Precomputation*, JW-ISC '97, §2.1, Fig. 1).
//!
//! Precalculation: only the normalization shift (the modulus is shifted left until its top bit
//! is set). No restriction on the argument's size. For a 2k-digit argument: k divisions and
//! about k(k+2) multiplications (k(k+2.5) in Bosselaers et al. 1993, Table 1, which also counts the
//! normalization of the argument).

use super::{check_len, check_modulus, Reducer, ReducerInfo, ReducerKind};
use crate::arith::{self, divrem_normalized, karatsuba_scratch_len, shl, shr_in_place};
use crate::error::Result;
use crate::limb::Limb;

/// Classical reduction context: the modulus and its normalized copy.
/// Leaks: variable time: [`Self::rem_into_vartime`]'s, and its `mul`/`sqr` are the [`Reducer`]
/// defaults (Karatsuba from its threshold).
#[derive(Debug, Clone)]
pub struct Classical {
    m: Vec<Limb>,
    /// m << shift, top bit set.
    m_norm: Vec<Limb>,
    shift: u32,
    one: Vec<Limb>,
    /// From `arith::div_newton::reuse_threshold()` limbs: the Newton reciprocal of m, whose
    /// block division runs on the fast products.
    large: Option<arith::div_newton::Reciprocal>,
}

impl Classical {
    /// Context for any non-zero modulus.
    pub fn new(m: &[Limb]) -> Result<Self> {
        let m = check_modulus(INFO.name, false, m)?;
        let k = m.len();
        let shift = m[k - 1].leading_zeros();
        let mut m_norm = vec![0; k];
        shl(&mut m_norm, m, shift);
        let mut one = vec![0; k];
        one[0] = 1;
        if m == [1] {
            one[0] = 0;
        }
        let large = (k >= arith::div_newton::reuse_threshold())
            .then(|| arith::div_newton::Reciprocal::new(m));
        Ok(Self {
            m: m.to_vec(),
            m_norm,
            shift,
            one,
            large,
        })
    }

    /// `out = x mod m` for `x` of any length; `u` is scratch of `x.len() + 1` limbs.
    /// Leaks: variable time: one hardware division per quotient digit (x86 `div`, whose latency
    /// depends on the operands), except where the window's top digit is zero (an early-exit
    /// comparison instead); the estimate's refinement loop and the rare add-back branch on the
    /// data. From `arith::div_newton::reuse_threshold()` limbs the Newton block division
    /// instead, also variable time.
    pub fn rem_into_vartime(&self, out: &mut [Limb], x: &[Limb], u: &mut [Limb]) {
        let k = self.m.len();
        if x.len() < k {
            out[..x.len()].copy_from_slice(x);
            out[x.len()..].fill(0);
            return;
        }
        if let Some(inv) = &self.large {
            let (_, r) = inv.div_rem(x, false);
            out.fill(0);
            out[..r.len()].copy_from_slice(&r);
            return;
        }
        let u = &mut u[..x.len() + 1];
        u[x.len()] = shl(&mut u[..x.len()], x, self.shift);
        if k == 1 {
            // One-digit divisor: Algorithm D degenerates to short division.
            let r = arith::div_rem_1(None, u, self.m_norm[0]);
            out[0] = r >> self.shift;
            return;
        }
        divrem_normalized(u, &self.m_norm, None);
        shr_in_place(&mut u[..k], self.shift);
        out.copy_from_slice(&u[..k]);
    }
}

impl Reducer for Classical {
    fn name(&self) -> &'static str {
        INFO.name
    }
    fn modulus(&self) -> &[Limb] {
        &self.m
    }
    fn scratch_len(&self) -> usize {
        let k = self.m.len();
        // product (2k) + shifted argument (2k + 1) + Karatsuba scratch
        4 * k + 1 + karatsuba_scratch_len(k)
    }
    fn one(&self) -> &[Limb] {
        &self.one
    }
    fn reduce_wide(&self, out: &mut [Limb], x: &mut [Limb], scratch: &mut [Limb]) {
        check_len(self.m.len(), &[out]); // x of any length
        if x.len() < scratch.len() {
            self.rem_into_vartime(out, x, scratch);
        } else {
            let mut u = vec![0; x.len() + 1];
            self.rem_into_vartime(out, x, &mut u);
        }
    }
    fn check_wide(&self, _: &[Limb]) -> core::result::Result<(), &'static str> {
        Ok(())
    }
}

fn build(m: &[Limb], _tier: crate::cpu::Tier) -> Result<Box<dyn Reducer>> {
    Ok(Box::new(Classical::new(m)?))
}

/// Listing of `classical`.
pub const INFO: ReducerInfo = ReducerInfo {
    kind: ReducerKind::Classical,
    name: "classical",
    needs_odd: false,
    restriction: "none (any modulus, any argument size)",
    summary: "Knuth's Algorithm D with 3-by-2 quotient estimate; Bosselaers et al. 1993 Alg. 1, Lim–Hwang–Lee 1997 Fig. 1",
    memory: "O(k): the normalized modulus",
    build,
};
