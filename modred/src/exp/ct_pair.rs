//! Two constant-time exponentiations modulo two odd moduli, in one pass where a kernel runs
//! both at once: the CRT halves of an RSA private-key operation ([`crate::rsa`]) and any other
//! caller with two secret exponentiations.
//!
//! On the AVX-512 IFMA tier, when both moduli take the same number of 512-bit vectors (up to
//! 2078-bit moduli, so the halves of RSA-2048, -3072 and -4096), both numbers share one set of
//! vectors and the two dependency chains overlap (`reduce::montgomery::ifma_x2`). Elsewhere
//! the two run one after the other, each as [`super::Modulus::pow_ct`] runs it (the same
//! kernel and schedule: the context's fused constant-time kernel where it has one for the size,
//! else the constant-time reducer's). (On the MULX/ADX tier an interleaved pair of scans
//! measured no faster than two passes: each product already keeps the multiplier busy.)

use super::ct;
use super::modulus::Modulus;
use crate::error::Result;
use crate::limb::Limb;
use crate::natural::Natural;
use crate::reduce::Reducer;
use crate::scan::ct::{exp_bits_cover, CtTrace, NoTrace};
use crate::tuning;
use std::sync::Arc;

#[cfg(target_arch = "x86_64")]
use crate::reduce::montgomery::ifma_x2::PairCtx;

/// Two odd moduli prepared for paired constant-time exponentiation ([`Self::pow`]); built once,
/// shared across threads (`Clone + Send + Sync`).
/// Leaks: as [`Modulus::pow_ct`] for each of the two: nothing but the lengths.
#[derive(Clone, Debug)]
pub struct CtPair {
    moduli: [Modulus; 2],
    reducers: [Arc<dyn Reducer>; 2],
    #[cfg(target_arch = "x86_64")]
    x2: Option<Arc<PairCtx>>,
}

impl CtPair {
    /// The pair of `a` and `b`. Errors as [`Modulus::pow_ct`]: each needs an odd modulus
    /// (above 1) and a constant-time reducer.
    /// Leaks: the moduli (it divides by them once).
    pub fn new(a: &Modulus, b: &Modulus) -> Result<Self> {
        let reducers = [a.ct_reducer()?, b.ct_reducer()?];
        #[cfg(target_arch = "x86_64")]
        let x2 = PairCtx::new(
            [reducers[0].modulus(), reducers[1].modulus()],
            reducers[0].tier().min(reducers[1].tier()),
        )
        .map(Arc::new);
        Ok(Self {
            moduli: [a.clone(), b.clone()],
            reducers,
            #[cfg(target_arch = "x86_64")]
            x2,
        })
    }

    /// The two moduli.
    pub fn moduli(&self) -> [&Modulus; 2] {
        [&self.moduli[0], &self.moduli[1]]
    }

    /// Whether both run in one pass on this machine (the IFMA pair kernel serves them).
    pub fn is_one_pass(&self) -> bool {
        #[cfg(target_arch = "x86_64")]
        return self.x2.is_some();
        #[cfg(not(target_arch = "x86_64"))]
        false
    }

    /// `(base[0]^exp[0] mod a, base[1]^exp[1] mod b)`, both in constant time: the exponents are
    /// read over the padded lengths of [`Modulus::pow_ct`] (at least the modulus's bits).
    /// Leaks: the sizes of the moduli and exponents (limbs), and, before the constant-time
    /// scans, each base's length and whether it is below its modulus (as [`Modulus::pow_ct`]).
    pub fn pow(&self, base: [&Natural; 2], exp: [&Natural; 2]) -> Result<[Natural; 2]> {
        let b = [0, 1].map(|c| self.moduli[c].residue_for_ct(base[c]));
        let exp_bits = [0, 1].map(|c| self.moduli[c].ct_exp_bits(exp[c]));
        let out = self.pow_limbs(
            [&b[0], &b[1]],
            [exp[0].limbs(), exp[1].limbs()],
            exp_bits,
            &mut NoTrace,
        );
        Ok(out.map(Natural::from_limbs))
    }

    /// [`Self::pow`] on residues: `base[c] < m_c` of m_c's length in limbs, `exp_bits[c]`
    /// covering `exp[c]` (a public length). Returns each result in its modulus's length.
    /// The paired kernel scans both exponents over the larger `exp_bits`.
    /// Leaks: nothing but the lengths and `exp_bits` (constant time).
    pub(crate) fn pow_limbs<T: CtTrace>(
        &self,
        base: [&[Limb]; 2],
        exp: [&[Limb]; 2],
        exp_bits: [usize; 2],
        trace: &mut T,
    ) -> [Vec<Limb>; 2] {
        for c in 0..2 {
            assert!(
                exp_bits_cover(exp[c], exp_bits[c]),
                "CtPair: exp_bits below the exponent's length"
            );
            assert_eq!(base[c].len(), self.reducers[c].len(), "CtPair: base length");
        }
        #[cfg(target_arch = "x86_64")]
        if let Some(x2) = &self.x2 {
            let bits = exp_bits[0].max(exp_bits[1]);
            return x2.pow_ct(base, exp, bits, tuning::ct_window_bits(bits), trace);
        }
        let _ = trace;
        [0, 1].map(|c| {
            ct::pow(
                self.moduli[c].ct_first(),
                &*self.reducers[c],
                base[c],
                exp[c],
                exp_bits[c],
                tuning::ct_window_bits(exp_bits[c]),
            )
        })
    }
}
