//! The Montgomery family: word-by-word REDC (Bosselaers, Govaerts, Vandewalle, *Comparison of
//! three modular reduction functions*, CRYPTO '93, Alg. 3), the five Montgomery products of
//! Koç, Acar, Kaliski, *Analyzing and Comparing Montgomery Multiplication Algorithms*, IEEE
//! Micro 1996 (SOS, CIOS, FIOS, FIPS, CIHS) and the radix-2 reference of Prots'ko, Gryshchuk,
//! *The implementation of Montgomery modular reduction to speed up of modular exponentiation*,
//! CMIS-2024.
//!
//! All share [`MontParams`] (m, n'0 = -m^{-1} mod b, R mod m, R^2 mod m with R = b^k) and the
//! generic [`Montgomery`] reducer; each file supplies a [`MontKernel`].
//!
//! Residues in Montgomery form are k-limb values < m. Every kernel ends with a masked final
//! subtraction (`crate::arith::sub_mod_final` or its fixed-size twin), never a branch; whether
//! the whole product runs in time independent of the operand values depends on the rest
//! ([`MontKernel::is_constant_time`] says it per size, and `ct` refuses a reducer without it):
//! - constant time (only k matters): `montgomery-sos`, `-cios`, `-fips`, `-cihs` and
//!   `-bitserial` at every size; `montgomery-redc` below [`crate::tuning::KARATSUBA_THRESHOLD`]
//!   limbs (schoolbook product and square); `montgomery-fast` below that threshold too (the
//!   unrolled CIOS, the MULX/ADX and portable engines, schoolbook and REDC);
//! - variable time: `montgomery-fios` at every size (its ADD carry propagation stops when the
//!   carry dies); `montgomery-redc` and `montgomery-fast` from
//!   [`crate::tuning::KARATSUBA_THRESHOLD`] limbs (the Karatsuba and Toom-3 products branch on
//!   the signs of differences and stop carries early; `montgomery-fast`'s REDC over full
//!   products, from [`crate::tuning::REDC_N_THRESHOLD`] limbs, too).
//!
//! The fused exponentiations ([`MontKernel::pow_fused`]) are variable time except the `ct` scan.

#[cfg(target_arch = "x86_64")]
pub(crate) mod adx4;
#[cfg(target_arch = "x86_64")]
pub(crate) mod adx_cios;
#[cfg(modred_adx_mont)]
pub(crate) mod adx_mont;
pub mod bitserial;
pub mod cihs;
pub mod cios;
pub mod fast;
pub mod fios;
pub mod fips;
#[cfg(target_arch = "x86_64")]
pub(crate) mod ifma;
#[cfg(target_arch = "x86_64")]
pub(crate) mod ifma_x2;
pub(crate) mod portable;
pub mod redc;
pub mod redc_n;
pub mod sos;
#[cfg(test)]
pub(crate) mod test_util;

use super::{
    check_len, check_modulus, check_wide_len, Reducer, ReducerInfo, ReducerKind, WideResult,
};
use crate::arith;
use crate::cpu::{self, Tier};
use crate::error::{Error, Result};
use crate::limb::{neg_inv_newton, Limb};
use crate::natural::Natural;
use crate::scan::{FusedArith, FusedPow};
use core::marker::PhantomData;

/// The per-modulus constants of Montgomery arithmetic with R = b^k = 2^(64k), and the kernel
/// tier its products and exponentiations run on, chosen once at construction.
#[derive(Clone, Debug)]
pub struct MontParams {
    /// The odd modulus, k limbs.
    pub m: Vec<Limb>,
    /// n'0 = -m^{-1} mod 2^64 (Newton iteration, Prots'ko–Gryshchuk 2024 eq. 7; the bit loop of
    /// their Fig. 1 is `crate::limb::neg_inv_bitloop`, tested equal).
    pub n0: Limb,
    /// R mod m: the Montgomery form of 1.
    pub one: Vec<Limb>,
    /// R^2 mod m: `to_repr(x) = MonPro(x, R^2)`.
    pub r2: Vec<Limb>,
    /// The kernels' tier, at most what the CPU has (private: the asm kernels rely on it).
    tier: Tier,
    /// R_ifma^2 mod m with R_ifma = 2^(52 n) for the IFMA kernels' digit count n (empty when
    /// they do not serve this context), so an exponentiation does not divide by m.
    pub ifma_rr: Vec<Limb>,
    /// The constants of REDC over full products ([`redc_n::RedcN`]), from
    /// [`crate::tuning::REDC_N_THRESHOLD`] limbs on.
    pub redc_n: Option<std::sync::Arc<redc_n::RedcN>>,
}

/// 2^e mod m (trimmed), by one division.
/// Leaks: variable time (Knuth division: x86 `div`, whose latency depends on the operands, and
/// data-dependent corrections); it only ever sees the modulus.
pub(crate) fn pow2_mod(e: usize, m: &[Limb]) -> Vec<Limb> {
    arith::rem_vartime(Natural::power_of_two(e).limbs(), m)
}

impl MontParams {
    /// Constants for the odd modulus `m` (trimmed, non-empty), on the tier in use
    /// ([`cpu::tier`]).
    #[cfg(test)]
    pub(crate) fn new(m: &[Limb]) -> Self {
        Self::with_tier(m, cpu::tier())
    }

    /// Constants for the odd modulus `m` (trimmed, non-empty), with the kernels of `tier`
    /// capped by what this CPU has ([`cpu::cap`]; not by `MODRED_CPU`, so tests can run every
    /// tier in one process).
    /// Leaks: the modulus only (a branch on its top bit, `pow2_mod`'s divisions).
    pub(crate) fn with_tier(m: &[Limb], tier: Tier) -> Self {
        let k = m.len();
        assert!(k > 0 && m[0] & 1 == 1, "Montgomery needs an odd modulus");
        // b^e mod m, k limbs
        let pow = |e: usize| {
            let mut r = pow2_mod(64 * e, m);
            r.resize(k, 0);
            r
        };
        // R mod m = R - m = !m + 1 without a division when m > R / 2 (top bit set); m is odd,
        // so the + 1 does not carry out of limb 0.
        let one = if m[k - 1] >> (Limb::BITS - 1) == 1 {
            let mut r: Vec<Limb> = m.iter().map(|&l| !l).collect();
            r[0] += 1;
            r
        } else {
            pow(k)
        };
        let redc_n = (k >= crate::tuning::REDC_N_THRESHOLD)
            .then(|| std::sync::Arc::new(redc_n::RedcN::new(m)));
        let tier = cpu::cap(tier);
        #[cfg(target_arch = "x86_64")]
        let ifma_rr = ifma::rr_for(m, tier);
        #[cfg(not(target_arch = "x86_64"))]
        let ifma_rr = Vec::new();
        Self {
            m: m.to_vec(),
            n0: neg_inv_newton(m[0]),
            one,
            r2: pow(2 * k),
            ifma_rr,
            tier,
            redc_n,
        }
    }

    /// k.
    pub fn k(&self) -> usize {
        self.m.len()
    }

    /// The tier this context's kernels run on (at most [`cpu::detected`]).
    pub fn tier(&self) -> Tier {
        self.tier
    }
}

/// One way of computing the Montgomery product MonPro(a, b) = a b R^{-1} mod m.
pub trait MontKernel: Send + Sync + 'static {
    /// Method name (`montgomery-...`).
    const NAME: &'static str;
    /// The method.
    const KIND: ReducerKind;
    /// One-line summary with the reference (the short names of the crate's References).
    const SUMMARY: &'static str;
    /// The largest modulus, in bits, the kernel serves (`None`: any size).
    const MAX_BITS: Option<usize> = None;
    /// Scratch limbs for [`Self::mul`], [`Self::sqr`] and [`Self::redc`] with a k-limb modulus.
    fn scratch_len(k: usize) -> usize;
    /// `out = a b R^{-1} mod m` for `a, b < m`; `out < m`.
    fn mul(p: &MontParams, out: &mut [Limb], a: &[Limb], b: &[Limb], scratch: &mut [Limb]);
    /// `out = a^2 R^{-1} mod m`.
    fn sqr(p: &MontParams, out: &mut [Limb], a: &[Limb], scratch: &mut [Limb]) {
        Self::mul(p, out, a, a, scratch)
    }
    /// Whether `mul`/`sqr`/`redc` run in time independent of the operands for k limbs.
    fn is_constant_time(_k: usize) -> bool {
        true
    }
    /// Fused exponentiation for this size (see [`Reducer::pow_fused`]); `None` by default.
    fn pow_fused(
        _p: &MontParams,
        _base: &[Limb],
        _exp: &[Limb],
        _alg: FusedPow,
    ) -> Option<Vec<Limb>> {
        None
    }
    /// Fused product arithmetic (see [`Reducer::fused_arith`]); `None` by default.
    fn fused_arith(_p: &MontParams) -> Option<Box<dyn FusedArith>> {
        None
    }
    /// `out = x R^{-1} mod m` for a 2k-limb `x < m R` (destroyed); `out < m`.
    fn redc(p: &MontParams, out: &mut [Limb], x: &mut [Limb], _scratch: &mut [Limb]) {
        redc::redc(p, out, x)
    }
}

/// A Montgomery-family reducer using kernel `K`.
/// Leaks: what `K` leaks (its doc's `Leaks:` line; `to_repr` is `K`'s product with R^2 mod m,
/// `from_repr` and `reduce_wide` its REDC), and `check_wide` what [`check_below_m_r_vartime`] leaks.
pub struct Montgomery<K: MontKernel> {
    p: MontParams,
    _kernel: PhantomData<K>,
}

impl<K: MontKernel> core::fmt::Debug for Montgomery<K> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{}({} limbs, {})", K::NAME, self.p.k(), self.p.tier)
    }
}

impl<K: MontKernel> Montgomery<K> {
    /// Context for the odd modulus `m` on the tier in use ([`cpu::tier`]).
    pub fn new(m: &[Limb]) -> Result<Self> {
        Self::with_tier(m, cpu::tier())
    }

    /// Context for the odd modulus `m` on `tier`, capped by what this CPU has ([`cpu::cap`]; not
    /// by `MODRED_CPU`, so tests can run every tier in one process).
    pub fn with_tier(m: &[Limb], tier: Tier) -> Result<Self> {
        let m = check_modulus(K::NAME, true, m)?;
        if let Some(max) = K::MAX_BITS {
            let bits = arith::bit_len(m);
            if bits > max {
                return Err(Error::UnsupportedModulus {
                    reducer: K::NAME,
                    reason: format!(
                        "it serves moduli of at most {max} bits (this one has {bits}; its \
                         bit-by-bit products would take minutes to hours); use a word-level \
                         montgomery method"
                    ),
                });
            }
        }
        Ok(Self {
            p: MontParams::with_tier(m, tier),
            _kernel: PhantomData,
        })
    }

    /// The shared constants.
    pub fn params(&self) -> &MontParams {
        &self.p
    }

    fn build(m: &[Limb], tier: Tier) -> Result<Box<dyn Reducer>> {
        Ok(Box::new(Self::with_tier(m, tier)?))
    }

    /// The [`ReducerInfo`] entry for this kernel.
    pub const INFO: ReducerInfo = ReducerInfo {
        kind: K::KIND,
        name: K::NAME,
        needs_odd: true,
        restriction: "odd m; reduce needs x < m*R (R = 2^(64k))",
        summary: K::SUMMARY,
        memory: "O(k): m, R mod m, R^2 mod m (3k limbs)",
        build: Self::build,
    };
}

impl<K: MontKernel> Reducer for Montgomery<K> {
    fn name(&self) -> &'static str {
        K::NAME
    }
    fn modulus(&self) -> &[Limb] {
        &self.p.m
    }
    fn scratch_len(&self) -> usize {
        // +2k for the wide buffer of from_repr.
        K::scratch_len(self.p.k()) + 2 * self.p.k()
    }
    fn one(&self) -> &[Limb] {
        &self.p.one
    }
    fn to_repr(&self, out: &mut [Limb], x: &[Limb], scratch: &mut [Limb]) {
        check_len(self.p.k(), &[out, x]);
        K::mul(&self.p, out, x, &self.p.r2, scratch)
    }
    fn from_repr(&self, out: &mut [Limb], x: &[Limb], scratch: &mut [Limb]) {
        let k = self.p.k();
        check_len(k, &[out, x]);
        let (wide, rest) = scratch.split_at_mut(2 * k);
        wide[..k].copy_from_slice(x);
        wide[k..].fill(0);
        K::redc(&self.p, out, wide, rest)
    }
    fn mul(&self, out: &mut [Limb], a: &[Limb], b: &[Limb], scratch: &mut [Limb]) {
        check_len(self.p.k(), &[out, a, b]);
        K::mul(&self.p, out, a, b, scratch)
    }
    fn sqr(&self, out: &mut [Limb], a: &[Limb], scratch: &mut [Limb]) {
        check_len(self.p.k(), &[out, a]);
        K::sqr(&self.p, out, a, scratch)
    }
    fn mul_unchecked(&self, out: &mut [Limb], a: &[Limb], b: &[Limb], scratch: &mut [Limb]) {
        K::mul(&self.p, out, a, b, scratch)
    }
    fn sqr_unchecked(&self, out: &mut [Limb], a: &[Limb], scratch: &mut [Limb]) {
        K::sqr(&self.p, out, a, scratch)
    }
    fn reduce_wide(&self, out: &mut [Limb], x: &mut [Limb], scratch: &mut [Limb]) {
        check_wide_len(self.p.k(), out, x);
        K::redc(&self.p, out, x, scratch)
    }
    fn wide_result(&self) -> WideResult {
        WideResult::MontgomeryReduced
    }
    fn pow_fused(&self, base: &[Limb], exp: &[Limb], alg: FusedPow) -> Option<Vec<Limb>> {
        check_len(self.p.k(), &[base]);
        K::pow_fused(&self.p, base, exp, alg)
    }
    fn fused_arith(&self) -> Option<Box<dyn FusedArith>> {
        K::fused_arith(&self.p)
    }
    fn is_constant_time(&self) -> bool {
        K::is_constant_time(self.p.k())
    }
    fn tier(&self) -> Tier {
        self.p.tier
    }
    fn check_wide(&self, x: &[Limb]) -> core::result::Result<(), &'static str> {
        check_below_m_r_vartime(x, &self.p.m)
    }
}

/// Whether `x < m R` with R = b^k: the input range of Montgomery reduction.
/// Leaks: variable time: trims `x` and compares with an early exit.
pub fn check_below_m_r_vartime(x: &[Limb], m: &[Limb]) -> core::result::Result<(), &'static str> {
    let x = arith::trim(x);
    let k = m.len();
    if x.len() <= k || arith::cmp(&x[k..], m).is_lt() {
        Ok(())
    } else {
        Err("x must be below m*R (R = 2^(64k), k = limbs of m)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limb::xorshift64 as rng;
    use num_bigint::BigUint;

    /// R mod m, R^2 mod m and n'0 against num-bigint, for moduli with and without the top bit
    /// set (R - m without a division, and the division) and the edge cases 1, 3, b - 1, b^k - 1.
    #[test]
    fn params_match_num_bigint() {
        let mut s = 0x6a09_e667_f3bc_c909;
        let mut moduli: Vec<Vec<Limb>> =
            vec![vec![1], vec![3], vec![Limb::MAX], vec![Limb::MAX; 4]];
        for k in 1..=9 {
            for case in 0..8 {
                let mut m: Vec<Limb> = (0..k).map(|_| rng(&mut s)).collect();
                m[0] |= 1;
                match case % 4 {
                    0 => m[k - 1] |= 1 << 63,
                    1 => m[k - 1] >>= 1,
                    2 => m[k - 1] = 1,
                    _ => m[k - 1] = Limb::MAX,
                }
                moduli.push(m);
            }
        }
        for m in &moduli {
            let p = MontParams::new(m);
            let k = m.len();
            let big = |x: &[Limb]| Natural::from_limbs(x.to_vec()).to_biguint();
            let mb = big(m);
            let r = BigUint::from(1u32) << (64 * k);
            assert_eq!(big(&p.one), &r % &mb, "one, m={m:x?}");
            assert_eq!(big(&p.r2), (&r * &r) % &mb, "r2, m={m:x?}");
            assert_eq!((p.one.len(), p.r2.len()), (k, k));
            assert_eq!(m[0].wrapping_mul(p.n0), Limb::MAX, "n0, m={m:x?}");
        }
    }
}
