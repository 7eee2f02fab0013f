//! `montgomery-fast`: modred's default Montgomery arithmetic (beyond the source papers),
//! choosing the kernel by size with thresholds from `crate::tuning` and by the context's kernel
//! tier ([`MontParams::tier`], chosen once when it is built):
//! - k <= `FIXED_CIOS_MAX_LIMBS`: CIOS (Koç, Acar, Kaliski, *Analyzing and Comparing
//!   Montgomery Multiplication Algorithms*, IEEE Micro 1996, §5) specialised at compile time for
//!   each k (const generics), so every loop is unrolled and t lives in registers;
//! - larger k: on the [`Tier::Adx`] tier and above, the generated MULX/ADX kernels of
//!   `super::adx_mont` (9-128 limbs); on the [`Tier::Portable`] tier, the portable engine of
//!   `super::portable` (banded product scanning in safe Rust, 9-64 limbs); else separated
//!   product and REDC (Bosselaers, Govaerts, Vandewalle, *Comparison of three modular reduction
//!   functions*, CRYPTO '93, Alg. 3) on the row kernels, with Karatsuba, Toom-3 and NTT
//!   multiplication and squaring from their thresholds, and from
//!   `crate::tuning::REDC_N_THRESHOLD` limbs (`REDC_N_THRESHOLD_PORTABLE` on the portable tier)
//!   the REDC over products (`super::redc_n`: a short product and a cyclic one). The products
//!   from `crate::tuning::TOOM3_THRESHOLD` limbs (Toom-3, the NTT) and the transforms of
//!   `redc_n` follow the tier in use ([`crate::cpu::tier`], capped by `MODRED_CPU`), not the
//!   context's tier;
//! - exponentiation ([`MontKernel::pow_fused`], [`MontKernel::fused_arith`]) for
//!   `crate::tuning::IFMA_MIN_LIMBS` <= k <= 129 on the [`Tier::Ifma`] tier (up to
//!   `crate::tuning::IFMA_MAX_VECTORS` vectors of digits): almost Montgomery multiplication
//!   in radix 2^52 (`super::ifma`), in its own representation, converted on entry and exit;
//!   constant time (`FusedPow::Ct`) at every size it serves, also past the Karatsuba threshold
//!   where the products are not; on the [`Tier::Adx`] tier (9-128 limbs), the `super::adx_mont`
//!   kernels (whose variable-time scans multiply, from
//!   `crate::tuning::ADX_POW_MUL_OVER_PRODUCTS_MIN_LIMBS` limbs, and square, from
//!   `crate::tuning::ADX_POW_SQR_OVER_PRODUCTS_MIN_LIMBS`, by a Karatsuba product and the
//!   REDC over products); on the
//!   [`Tier::Portable`] tier, the `super::portable` engine;
//! - fused exponentiation for k <= 8 on the [`Tier::Adx`] tier and above: the asm kernels of
//!   `super::adx4` (k = 4) and `super::adx_cios` (k = 5..8), else the portable unrolled ones.
//!   The variable-time scans keep their residues below R rather than below m (the final
//!   subtraction only when the product carries out, `fixed::lazy_final_vartime`); so does
//!   `ct`, subtracting m under a mask of the carry-out instead (`fixed::below_r_masked`).
//!
//! Leaks: nothing but the lengths (constant time) below `MONT_SCHOOLBOOK_BELOW` limbs: every
//! product and square there ends with a masked subtraction, and no branch or index depends on
//! the operands. From that size variable time: Karatsuba (then Toom-3) branches on the signs
//! of operand differences and stops carries early, and so does the REDC over full
//! products from `super::redc_n::threshold` limbs; for secrets there use
//! `montgomery-cios` (see `is_constant_time`). The fused exponentiations are variable time
//! (the lazy final subtractions branch) except `ct`.

use super::fixed::{cios_fixed, cios_fixed_raw, finish_fixed, sqr_fixed_raw, sub_final_fixed};
use super::redc::{product, redc_two_rows};
use super::{MontKernel, MontParams, Montgomery};
use crate::arith::karatsuba_scratch_len;
use crate::cpu::Tier;
use crate::limb::Limb;
use crate::scan::{ExpArith, FusedArith, FusedPow};
use crate::tuning::{
    FIXED_CIOS_MAX_LIMBS, MONT_SCHOOLBOOK_BELOW, PORTABLE_MAX_LIMBS, PORTABLE_MIN_LIMBS,
};

/// [`ExpArith`] on `[Limb; N]` Montgomery residues with the fixed-size kernels. With `LAZY`
/// the residues are kept below R rather than below m by a branch ([`super::fixed::lazy_final_vartime`]:
/// variable time, for the variable-time scans); without, by a mask ([`super::fixed::below_r_masked`], for
/// `ct`).
/// Leaks: with `LAZY` the branch of [`super::fixed::lazy_final_vartime`]; else nothing but the lengths
/// (constant time).
struct FixedArith<'a, const N: usize, const LAZY: bool> {
    m: &'a [Limb; N],
    n0: Limb,
}

/// `pow_fixed_with` on the arithmetic `$arith` built with `const LAZY: bool` in scope: lazily
/// reduced for the variable-time scans, fully reduced (constant time) for `ct`.
macro_rules! pow_lazy_unless_ct {
    ($p:expr, $base:expr, $exp:expr, $alg:expr, $arith:expr) => {
        if $alg.is_constant_time() {
            const LAZY: bool = false;
            pow_fixed_with(&mut $arith, $p, $base, $exp, $alg)
        } else {
            const LAZY: bool = true;
            pow_fixed_with(&mut $arith, $p, $base, $exp, $alg)
        }
    };
}

impl<const N: usize, const LAZY: bool> ExpArith for FixedArith<'_, N, LAZY> {
    type Elem = [Limb; N];
    #[inline(always)]
    fn sqr_in_place(&mut self, a: &mut [Limb; N]) {
        *a = finish_fixed::<N, LAZY>(sqr_fixed_raw::<N>(a, self.m, self.n0), self.m);
    }
    #[inline(always)]
    fn mul_in_place(&mut self, a: &mut [Limb; N], b: &[Limb; N]) {
        *a = finish_fixed::<N, LAZY>(cios_fixed_raw::<N>(a, b, self.m, self.n0), self.m);
    }
}

/// `base^exp mod m` by the scan `alg` (see [`FusedPow`]) on fixed-size Montgomery arithmetic `ar`
/// for the modulus of `p` (N limbs): enter with R^2, leave with 1.
/// Leaks: variable time (the scan's and the lazy arithmetic's branches), except `FusedPow::Ct`
/// (the ct scan on masked arithmetic: nothing but the lengths, of m and of the exponent).
#[inline(always)]
fn pow_fixed_with<const N: usize, A: ExpArith<Elem = [Limb; N]>>(
    ar: &mut A,
    p: &MontParams,
    base: &[Limb],
    exp: &[Limb],
    alg: FusedPow,
) -> Vec<Limb> {
    let arr = |x: &[Limb]| -> [Limb; N] { x.try_into().expect("k limbs") };
    let mut g = arr(base);
    ar.mul_in_place(&mut g, &arr(&p.r2));
    let mut acc = alg.run(ar, g, arr(&p.one), exp);
    let mut one = [0 as Limb; N];
    one[0] = 1;
    ar.mul_in_place(&mut acc, &one);
    // acc R^{-1} <= m for any acc < R; = m (not 0) only if acc = 0 mod m, a value a lazily
    // reduced arithmetic can hold. One masked subtraction makes it < m for every arithmetic.
    let m: &[Limb; N] = p.m.as_slice().try_into().expect("modulus length is N");
    sub_final_fixed(&acc, 0, m).to_vec()
}

#[inline(always)]
fn pow_fixed_portable<const N: usize>(
    p: &MontParams,
    base: &[Limb],
    exp: &[Limb],
    alg: FusedPow,
) -> Vec<Limb> {
    let m: &[Limb; N] = p.m.as_slice().try_into().expect("modulus length is N");
    pow_lazy_unless_ct!(p, base, exp, alg, FixedArith::<N, LAZY> { m, n0: p.n0 })
}

/// The portable kernels compiled with BMI2 (MULX frees the compiler from RDX:RAX).
///
/// # Safety
/// The CPU must support BMI2 and ADX.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2,adx")]
unsafe fn pow_fixed_bmi2<const N: usize>(
    p: &MontParams,
    base: &[Limb],
    exp: &[Limb],
    alg: FusedPow,
) -> Vec<Limb> {
    pow_fixed_portable::<N>(p, base, exp, alg)
}

/// [`ExpArith`] on 4-limb residues with the MULX/ADX asm kernels ([`super::adx4`]), finished as
/// [`FixedArith`]'s ([`finish_fixed`]): below R = 2^256 rather than below m, by a branch with
/// `LAZY`, else by a mask (for `ct`). [`pow_fixed_with`]'s final masked
/// subtraction brings the result below m in both cases.
/// Leaks: with `LAZY` the branch of [`super::fixed::lazy_final_vartime`]; else nothing but the lengths
/// (constant time).
#[cfg(target_arch = "x86_64")]
struct Adx4Arith<const LAZY: bool> {
    p: super::adx4::Block4,
}

#[cfg(target_arch = "x86_64")]
impl<const LAZY: bool> Adx4Arith<LAZY> {
    #[inline(always)]
    fn finish(&self, x: super::adx4::Wide4) -> [Limb; 4] {
        finish_fixed::<4, LAZY>(x, super::adx4::modulus(&self.p))
    }
}

#[cfg(target_arch = "x86_64")]
impl<const LAZY: bool> ExpArith for Adx4Arith<LAZY> {
    type Elem = [Limb; 4];
    #[inline(always)]
    fn sqr_in_place(&mut self, a: &mut [Limb; 4]) {
        // SAFETY: only built by `pow_4_adx`, which runs on CPUs with BMI2 and ADX.
        *a = self.finish(unsafe { super::adx4::mont_sqr_4_raw(a, &self.p) });
    }
    #[inline(always)]
    fn mul_in_place(&mut self, a: &mut [Limb; 4], b: &[Limb; 4]) {
        self.p[..4].copy_from_slice(b);
        // SAFETY: as above.
        *a = self.finish(unsafe { super::adx4::mont_mul_4_raw(a, &self.p) });
    }
}

/// # Safety
/// The CPU must support BMI2 and ADX.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2,adx")]
unsafe fn pow_4_adx(p: &MontParams, base: &[Limb], exp: &[Limb], alg: FusedPow) -> Vec<Limb> {
    let block = super::adx4::block4(&p.m, p.n0);
    pow_lazy_unless_ct!(p, base, exp, alg, Adx4Arith::<LAZY> { p: block })
}

/// [`ExpArith`] on 5- to 8-limb residues with the unrolled MULX/ADX CIOS ([`super::adx_cios`]);
/// lazily reduced (below R) with `LAZY`, as [`FixedArith`]. (At 2 and 3 limbs the same asm
/// measured slower than the portable kernels: 128 bits 1.84 against 1.60 µs per pow.)
/// Leaks: with `LAZY` the branch of [`super::fixed::lazy_final_vartime`]; else nothing but the lengths
/// (constant time).
#[cfg(target_arch = "x86_64")]
struct AdxCiosArith<const N: usize, const LAZY: bool> {
    ops: super::adx_cios::Operands<N>,
}

#[cfg(target_arch = "x86_64")]
impl<const N: usize, const LAZY: bool> ExpArith for AdxCiosArith<N, LAZY>
where
    super::adx_cios::Operands<N>: super::adx_cios::MontMulRaw<N>,
{
    type Elem = [Limb; N];
    #[inline(always)]
    fn sqr_in_place(&mut self, a: &mut [Limb; N]) {
        // The CIOS product with b = a: at these sizes the asm's ADX chains beat the portable
        // symmetric square's fewer multiplications (512 bits: 45 against 56 µs per pow).
        self.ops.a = *a;
        self.ops.b = *a;
        // SAFETY: only built by `pow_adx_cios`, which runs on CPUs with BMI2 and ADX.
        let x = unsafe { super::adx_cios::MontMulRaw::mont_mul_raw(&self.ops) };
        *a = finish_fixed::<N, LAZY>(x, &self.ops.m);
    }
    #[inline(always)]
    fn mul_in_place(&mut self, a: &mut [Limb; N], b: &[Limb; N]) {
        self.ops.a = *a;
        self.ops.b = *b;
        // SAFETY: as above.
        let x = unsafe { super::adx_cios::MontMulRaw::mont_mul_raw(&self.ops) };
        *a = finish_fixed::<N, LAZY>(x, &self.ops.m);
    }
}

/// # Safety
/// The CPU must support BMI2 and ADX.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2,adx")]
unsafe fn pow_adx_cios<const N: usize>(
    p: &MontParams,
    base: &[Limb],
    exp: &[Limb],
    alg: FusedPow,
) -> Vec<Limb>
where
    super::adx_cios::Operands<N>: super::adx_cios::MontMulRaw<N>,
{
    let m: [Limb; N] = p.m.as_slice().try_into().expect("modulus length is N");
    let ops = super::adx_cios::Operands {
        a: [0; N],
        b: [0; N],
        m,
        n0: p.n0,
    };
    pow_lazy_unless_ct!(p, base, exp, alg, AdxCiosArith::<N, LAZY> { ops })
}

/// Fused exponentiation (scan `alg`) for N limbs: from the [`Tier::Adx`] tier the asm kernels
/// for 4 and 5-8 limbs, and the portable kernels compiled with BMI2 for 1-3; else the portable
/// kernels.
/// Leaks: as [`pow_fixed_with`].
fn pow_fixed<const N: usize>(
    p: &MontParams,
    base: &[Limb],
    exp: &[Limb],
    alg: FusedPow,
) -> Vec<Limb> {
    #[cfg(target_arch = "x86_64")]
    if p.tier() >= Tier::Adx {
        // SAFETY: the context's tier (at most the detected one) has BMI2 and ADX.
        return unsafe {
            match N {
                4 => pow_4_adx(p, base, exp, alg),
                5 => pow_adx_cios::<5>(p, base, exp, alg),
                6 => pow_adx_cios::<6>(p, base, exp, alg),
                7 => pow_adx_cios::<7>(p, base, exp, alg),
                8 => pow_adx_cios::<8>(p, base, exp, alg),
                _ => pow_fixed_bmi2::<N>(p, base, exp, alg),
            }
        };
    }
    pow_fixed_portable::<N>(p, base, exp, alg)
}

/// One product `a b R^{-1} mod m` (`a, b < m`, result `< m`) on the asm CIOS of
/// [`super::adx_cios`] (5-8 limbs). Per product, against the portable `cios_fixed` (throwaway
/// timing, trait call included): 0.92 at 5 limbs, 0.83 at 6, 0.73 at 8; at 4 limbs building the
/// `adx4` block per call made it slower (1.17), so 4 limbs stay portable here.
/// Leaks: nothing but the lengths (constant time: fixed instruction sequence, masked subtraction).
///
/// # Safety
/// The CPU must support BMI2 and ADX.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2,adx")]
unsafe fn mul_adx<const N: usize>(p: &MontParams, out: &mut [Limb], a: &[Limb], b: &[Limb])
where
    super::adx_cios::Operands<N>: super::adx_cios::MontMulRaw<N>,
{
    let arr = |x: &[Limb]| -> [Limb; N] { x.try_into().expect("operand length is k") };
    let ops = super::adx_cios::Operands {
        a: arr(a),
        b: arr(b),
        m: arr(&p.m),
        n0: p.n0,
    };
    // SAFETY: the caller's guarantee.
    let (t, top) = unsafe { super::adx_cios::MontMulRaw::mont_mul_raw(&ops) };
    out.copy_from_slice(&sub_final_fixed(&t, top, &ops.m));
}

/// One product on the fixed-size kernels: the asm CIOS for 5-8 limbs from the [`Tier::Adx`]
/// tier, else [`cios_fixed`].
#[inline(always)]
fn fixed<const N: usize>(p: &MontParams, out: &mut [Limb], a: &[Limb], b: &[Limb]) {
    #[cfg(target_arch = "x86_64")]
    if (5..=8).contains(&N) && p.tier() >= Tier::Adx {
        // SAFETY: the context's tier (at most the detected one) has BMI2 and ADX.
        unsafe {
            match N {
                5 => mul_adx::<5>(p, out, a, b),
                6 => mul_adx::<6>(p, out, a, b),
                7 => mul_adx::<7>(p, out, a, b),
                _ => mul_adx::<8>(p, out, a, b),
            }
        }
        return;
    }
    let a: &[Limb; N] = a.try_into().expect("operand length is k");
    let b: &[Limb; N] = b.try_into().expect("operand length is k");
    let m: &[Limb; N] = p.m.as_slice().try_into().expect("modulus length is k");
    out.copy_from_slice(&cios_fixed::<N>(a, b, m, p.n0));
}

/// Dispatch to the const-generic CIOS for k <= 16; returns false if k is larger.
/// Kept out of line so the large-k path does not carry the unrolled kernels' stack frame.
#[inline(never)]
fn mul_fixed(p: &MontParams, out: &mut [Limb], a: &[Limb], b: &[Limb]) -> bool {
    const_dispatch!(p.k(); N in [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16] =>
        fixed::<N>(p, out, a, b); else return false);
    true
}

/// [`pow_fixed`] for k <= [`FIXED_CIOS_MAX_LIMBS`] (instantiated up to 8), else `None`.
fn pow_dispatch(p: &MontParams, base: &[Limb], exp: &[Limb], alg: FusedPow) -> Option<Vec<Limb>> {
    if p.k() > FIXED_CIOS_MAX_LIMBS {
        return None;
    }
    Some(const_dispatch!(p.k(); N in [1, 2, 3, 4, 5, 6, 7, 8] =>
        pow_fixed::<N>(p, base, exp, alg); else return None))
}

/// The kernel family `montgomery-fast` runs a context of k limbs on: the one table of which
/// kernels each tier has (the families' own constructors check it again and decline otherwise).
///
/// | tier | 1..=8 limbs | 9..=64 limbs | 65..=128 limbs | above |
/// |---|---|---|---|---|
/// | ifma | `Fixed` (MULX/ADX asm) | `Ifma` exponentiation, `AdxMont` products | the same (`Ifma` to 129 limbs) | `Rows` |
/// | adx | `Fixed` (MULX/ADX asm) | `AdxMont` | `AdxMont` | `Rows` |
/// | portable | `Fixed` (portable) | `Portable` | `Rows` | `Rows` |
///
/// `AdxMont` exists on x86-64 ELF targets (`modred_adx_mont`); elsewhere the adx and ifma
/// tiers take `Rows` products at 9-128 limbs (and `Ifma` exponentiation on the ifma tier).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Family {
    /// The const-size CIOS on `[Limb; k]` ([`pow_fixed`]; asm on the adx tier and above).
    Fixed,
    /// Almost Montgomery multiplication in radix 2^52 on AVX-512 IFMA (`super::ifma`).
    Ifma,
    /// The generated MULX/ADX product and square per size (`super::adx_mont`).
    AdxMont,
    /// The portable tier's banded product-scanning engine (`super::portable`).
    Portable,
    /// Product (Karatsuba, Toom-3, NTT by size) and REDC on the row kernels; no fused path.
    Rows,
}

/// [`Family`]'s table for a context on `tier` with k limbs; `exponentiation` selects the
/// family of fused exponentiations, else of single products.
fn family(tier: Tier, k: usize, exponentiation: bool) -> Family {
    // In the table's order; each test only when the ones before it failed (mul and sqr ask
    // on every product).
    if k <= FIXED_CIOS_MAX_LIMBS {
        Family::Fixed
    } else if exponentiation && tier == Tier::Ifma && ifma_serves(k) {
        Family::Ifma
    } else if cfg!(modred_adx_mont)
        && tier >= Tier::Adx
        && (crate::tuning::ADX_MONT_MIN_LIMBS..=crate::tuning::ADX_MONT_MAX_LIMBS).contains(&k)
    {
        Family::AdxMont
    } else if tier == Tier::Portable && (PORTABLE_MIN_LIMBS..=PORTABLE_MAX_LIMBS).contains(&k) {
        Family::Portable
    } else {
        Family::Rows
    }
}

/// Whether the AVX-512 IFMA kernels have a size for k limbs (x86-64 only).
fn ifma_serves(k: usize) -> bool {
    #[cfg(target_arch = "x86_64")]
    return super::ifma::size_for(k).is_some();
    #[cfg(not(target_arch = "x86_64"))]
    return {
        let _ = k;
        false
    };
}

/// `out = a b R^{-1} mod m` (`b = None`: `a^2 R^{-1}`), `< m`, for `a, b < m`, on the
/// MULX/ADX kernels of [`super::adx_mont`] (the [`Family::AdxMont`] sizes; then true), else
/// false. Their result is below R and below 2m; one masked subtraction (through the first k
/// limbs of `t`) brings it below m.
/// Leaks: nothing but the lengths (constant time).
#[inline]
fn adx_product(
    p: &MontParams,
    out: &mut [Limb],
    a: &[Limb],
    b: Option<&[Limb]>,
    t: &mut [Limb],
) -> bool {
    #[cfg(modred_adx_mont)]
    if let Some(kern) = super::adx_mont::Kernels::new(p, super::adx_mont::Finish::Masked) {
        let t = &mut t[..p.k()];
        match b {
            Some(b) => kern.mul(t, a, b),
            None => kern.sqr(t, a),
        }
        crate::arith::sub_mod_final(out, t, 0, &p.m);
        return true;
    }
    let _ = (p, out, a, b, t);
    false
}

/// Kernel of `montgomery-fast`.
/// Leaks: see the module docs (constant time below `MONT_SCHOOLBOOK_BELOW` limbs).
pub struct Fast;

impl MontKernel for Fast {
    const NAME: &'static str = "montgomery-fast";
    const KIND: crate::reduce::ReducerKind = crate::reduce::ReducerKind::MontgomeryFast;
    const SUMMARY: &'static str =
        "default: unrolled const-size CIOS up to 8 limbs, fused MULX/ADX (ADX tier), AVX-512 IFMA (IFMA tier, exponentiation to 129 limbs) or banded product-scanning (portable tier) Montgomery kernels for 9..=64 limbs (MULX/ADX to 128), MULX/ADX product + REDC above (beyond the source papers)";
    fn scratch_len(k: usize) -> usize {
        // The product's scratch, then the REDC's in its place.
        let after_product = karatsuba_scratch_len(k).max(super::redc_n::scratch_len_on_any_tier(k));
        (2 * k + after_product).max(super::portable::wide_len(k))
    }
    fn pow_fused(p: &MontParams, base: &[Limb], exp: &[Limb], alg: FusedPow) -> Option<Vec<Limb>> {
        match family(p.tier(), p.k(), true) {
            Family::Fixed => pow_dispatch(p, base, exp, alg),
            Family::Portable => super::portable::pow(p, base, exp, alg),
            #[cfg(target_arch = "x86_64")]
            Family::Ifma => super::ifma::pow(p, base, exp, alg),
            #[cfg(modred_adx_mont)]
            Family::AdxMont => super::adx_mont::pow(p, base, exp, alg),
            // Rows, and the families this target does not build (never in its table).
            #[allow(unreachable_patterns)]
            _ => None,
        }
    }
    fn fused_arith(p: &MontParams) -> Option<Box<dyn FusedArith>> {
        match family(p.tier(), p.k(), true) {
            #[cfg(target_arch = "x86_64")]
            Family::Ifma => {
                super::ifma::Session::new(p).map(|s| Box::new(s) as Box<dyn FusedArith>)
            }
            #[cfg(modred_adx_mont)]
            Family::AdxMont => {
                super::adx_mont::Session::new(p).map(|s| Box::new(s) as Box<dyn FusedArith>)
            }
            // The fixed sizes and the portable engine run their scans through `pow_fused`.
            _ => None,
        }
    }
    fn is_constant_time(k: usize) -> bool {
        // Karatsuba (from its thresholds) branches on the signs of operand differences; the
        // variable-time REDC over products starts at or above that size.
        const {
            assert!(crate::tuning::REDC_N_THRESHOLD >= MONT_SCHOOLBOOK_BELOW);
            assert!(crate::tuning::REDC_N_THRESHOLD_PORTABLE >= MONT_SCHOOLBOOK_BELOW);
        };
        k <= FIXED_CIOS_MAX_LIMBS || k < MONT_SCHOOLBOOK_BELOW
    }
    #[inline]
    fn mul(p: &MontParams, out: &mut [Limb], a: &[Limb], b: &[Limb], scratch: &mut [Limb]) {
        let k = p.k();
        match family(p.tier(), k, false) {
            Family::Fixed if mul_fixed(p, out, a, b) => return,
            Family::Portable => return super::portable::mul(p, out, a, b, scratch),
            Family::AdxMont if adx_product(p, out, a, Some(b), scratch) => return,
            _ => {}
        }
        let (t, rest) = scratch.split_at_mut(2 * k);
        product(p, t, a, Some(b), rest);
        Self::redc(p, out, t, rest);
    }
    #[inline]
    fn sqr(p: &MontParams, out: &mut [Limb], a: &[Limb], scratch: &mut [Limb]) {
        let k = p.k();
        match family(p.tier(), k, false) {
            Family::Fixed if mul_fixed(p, out, a, a) => return,
            Family::Portable => return super::portable::sqr(p, out, a, scratch),
            Family::AdxMont if adx_product(p, out, a, None, scratch) => return,
            _ => {}
        }
        let (t, rest) = scratch.split_at_mut(2 * k);
        product(p, t, a, None, rest);
        Self::redc(p, out, t, rest);
    }
    /// Word-by-word REDC, or from `super::redc_n::threshold` limbs (`REDC_N_THRESHOLD`, on the
    /// portable tier `REDC_N_THRESHOLD_PORTABLE`) on the REDC over products
    /// (`super::redc_n::RedcN`).
    /// Leaks: nothing but the lengths (constant time) below that threshold; from it variable
    /// time (see `super::redc_n`).
    #[inline]
    fn redc(p: &MontParams, out: &mut [Limb], x: &mut [Limb], scratch: &mut [Limb]) {
        match &p.redc_n {
            None => redc_two_rows(p, out, x),
            Some(r) => r.reduce_vartime(out, x, &p.m, scratch),
        }
    }
}

/// The `montgomery-fast` reducer.
pub type MontgomeryFast = Montgomery<Fast>;
/// Its listing.
pub const INFO: crate::reduce::ReducerInfo = MontgomeryFast::INFO;

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::reduce::montgomery::fixed::{below_r_masked, lazy_final_vartime, Wide};
    use crate::reduce::montgomery::test_util::big;
    use num_bigint::BigUint;

    /// The portable fused kernels (what CPUs without BMI2/ADX run, and what `MODRED_NO_ASM=1`
    /// selects) for every size 1..=8 and every scan, against num-bigint's `modpow`.
    #[test]
    fn portable_fused_scans_match_num_bigint() {
        let mut s: u64 = 0x2545_f491_4f6c_dd1d;
        let mut rnd = || crate::limb::xorshift64(&mut s);
        fn run<const N: usize>(p: &MontParams, b: &[Limb], e: &[Limb], alg: FusedPow) -> Vec<Limb> {
            pow_fixed_portable::<N>(p, b, e, alg)
        }
        for k in 1..=8usize {
            for case in 0..6 {
                let mut m: Vec<Limb> = (0..k).map(|_| rnd()).collect();
                m[0] |= 1;
                m[k - 1] |= if case % 2 == 0 { 1 << 63 } else { 1 };
                let p = MontParams::new(&m);
                let mb = big(&m);
                let b: Vec<Limb> = {
                    let x = big(&(0..k).map(|_| rnd()).collect::<Vec<_>>()) % &mb;
                    let mut d = x.to_u64_digits();
                    d.resize(k, 0);
                    d
                };
                let e: Vec<Limb> = match case {
                    0 => vec![0],
                    1 => vec![1],
                    _ => (0..k + case % 3).map(|_| rnd()).collect(),
                };
                let want = big(&b).modpow(&big(&e), &mb);
                let exp_bits = 64 * e.len();
                for alg in [
                    FusedPow::Sliding { w: 4 },
                    FusedPow::RightToLeft,
                    FusedPow::Binary,
                    FusedPow::Window { w: 4 },
                    FusedPow::Ct { exp_bits, w: 3 },
                ] {
                    let got = const_dispatch!(k; N in [1, 2, 3, 4, 5, 6, 7, 8] =>
                        run::<N>(&p, &b, &e, alg); else unreachable!("k <= 8"));
                    assert_eq!(big(&got), want, "k={k} case={case} {alg:?}");
                }
            }
        }
    }

    /// Checks an unreduced product `(t, top)` of operands below R = b^N: t + top b^N < R + m,
    /// congruent to `want_times_r` R^{-1} mod m, and [`super::fixed::lazy_final_vartime`] keeps the residue
    /// below R. Shared with the asm kernels' tests.
    pub(crate) fn check_raw<const N: usize>(
        (t, top): Wide<N>,
        want_times_r: &BigUint,
        m: &[Limb; N],
        what: &str,
    ) {
        let r = BigUint::from(1u8) << (64 * N);
        let mb = big(m);
        let want = want_times_r * r.modinv(&mb).expect("m odd") % &mb;
        assert!(top <= 1, "{what}");
        let x = big(&t) + BigUint::from(top) * &r;
        assert!(x < &r + &mb, "{what}: raw result not below R + m");
        assert_eq!(&x % &mb, want, "{what}");
        assert_eq!(
            big(&lazy_final_vartime((t, top), m)) % &mb,
            want,
            "{what}: lazy"
        );
        // The branch-free finish of `ct` gives the same residue below R.
        assert_eq!(
            below_r_masked((t, top), m),
            lazy_final_vartime((t, top), m),
            "{what}: masked"
        );
    }

    /// The portable raw kernels on operands below R but not below m (the lazily reduced
    /// residues), sizes 1..=8, random and all-ones operands, three modulus shapes.
    #[test]
    fn raw_kernels_on_unreduced_operands() {
        let mut s: u64 = 0x9e37_79b9_7f4a_7c15;
        fn one_size<const N: usize>(s: &mut u64) -> usize {
            let mut rnd = || crate::limb::xorshift64(s);
            let mut checked = 0;
            for case in 0..60 {
                let mut m: [Limb; N] = core::array::from_fn(|_| rnd());
                m[N - 1] = match case % 3 {
                    0 => Limb::MAX,
                    1 => m[N - 1] | 1 << 63,
                    _ => 1 + (m[N - 1] >> 62),
                };
                m[0] |= 1;
                let n0 = crate::limb::neg_inv_newton(m[0]);
                let mut a: [Limb; N] = core::array::from_fn(|_| rnd());
                let b: [Limb; N] = if case % 4 == 0 {
                    [Limb::MAX; N]
                } else {
                    core::array::from_fn(|_| rnd())
                };
                if case % 5 == 0 {
                    a = [Limb::MAX; N];
                }
                let what = format!("N={N} m={m:x?} a={a:x?} b={b:x?}");
                check_raw(
                    cios_fixed_raw(&a, &b, &m, n0),
                    &(big(&a) * big(&b)),
                    &m,
                    &what,
                );
                check_raw(sqr_fixed_raw(&a, &m, n0), &(big(&a) * big(&a)), &m, &what);
                checked += 2;
            }
            checked
        }
        let checked: usize = (1..=8usize)
            .map(|k| {
                const_dispatch!(k; N in [1, 2, 3, 4, 5, 6, 7, 8] =>
                one_size::<N>(&mut s); else unreachable!("k <= 8"))
            })
            .sum();
        assert_eq!(checked, 8 * 120);
    }
}
