//! `montgomery-fast`: modred's default Montgomery arithmetic (beyond the source papers),
//! choosing the kernel by size with thresholds from [`crate::tuning`] and by the context's kernel
//! tier ([`MontParams::tier`], chosen once when it is built):
//! - k <= [`FIXED_CIOS_MAX_LIMBS`]: CIOS (Koç, Acar, Kaliski, *Analyzing and Comparing
//!   Montgomery Multiplication Algorithms*, IEEE Micro 1996, §5) specialised at compile time for
//!   each k (const generics), so every loop is unrolled and t lives in registers;
//! - larger k: on the [`Tier::Adx`] tier and above, the generated MULX/ADX kernels of
//!   `super::adx_mont` (9-64 limbs); on the [`Tier::Portable`] tier, the portable engine of
//!   `super::portable` (banded product scanning in safe Rust, 9-64 limbs); else separated
//!   product and REDC (Bosselaers, Govaerts, Vandewalle, *Comparison of three modular reduction
//!   functions*, CRYPTO '93, Alg. 3) on the row kernels, with Karatsuba, Toom-3 and NTT
//!   multiplication and squaring from their thresholds, and from
//!   [`crate::tuning::REDC_N_THRESHOLD`] limbs the REDC over two full products
//!   (`super::redc_n`). The products from [`crate::tuning::TOOM3_THRESHOLD`] limbs (Toom-3,
//!   the NTT) and the transforms of `redc_n` follow the tier in use ([`crate::cpu::tier`],
//!   capped by `MODRED_CPU`), not the context's tier;
//! - exponentiation ([`MontKernel::pow_fused`], [`MontKernel::fused_arith`]) for
//!   [`crate::tuning::IFMA_MIN_LIMBS`] <= k <= 64 on the [`Tier::Ifma`] tier: almost Montgomery
//!   multiplication in radix 2^52 (`super::ifma`), in its own representation, converted on
//!   entry and exit; on the [`Tier::Adx`] tier, the `super::adx_mont` kernels; on the
//!   [`Tier::Portable`] tier, the `super::portable` engine;
//! - fused exponentiation for k <= 8 on the [`Tier::Adx`] tier and above: the asm kernels of
//!   `super::adx4` (k = 4) and `super::adx_cios` (k = 5..8), else the portable unrolled ones.
//!   The variable-time scans keep their residues below R rather than below m (the final
//!   subtraction only when the product carries out, [`lazy_final_vartime`]); so does `ct`,
//!   subtracting m under a mask of the carry-out instead (`below_r_masked`).
//!
//! Leaks: nothing but the lengths (constant time) below [`KARATSUBA_THRESHOLD`] limbs: every
//! product and square there ends with a masked subtraction, and no branch or index depends on
//! the operands. From that size variable time: Karatsuba (then Toom-3) branches on the signs
//! of operand differences and stops carries early, and so does the REDC over full
//! products from [`crate::tuning::REDC_N_THRESHOLD`] limbs; for secrets there use
//! `montgomery-cios` (see `is_constant_time`). The fused exponentiations are variable time
//! (the lazy final subtractions branch) except `ct`.

use super::{redc::redc, MontKernel, MontParams, Montgomery};
use crate::arith::{self, karatsuba_scratch_len, mul_basecase_on, sqr_basecase_on};
use crate::cpu::Tier;
use crate::limb::{adc, mac, mul_lo, mul_wide, sbb, Choice, Limb};
use crate::scan::{ExpArith, FusedArith, FusedPow};
use crate::tuning::{
    FIXED_CIOS_MAX_LIMBS, KARATSUBA_SQR_THRESHOLD, KARATSUBA_THRESHOLD, PORTABLE_MAX_LIMBS,
    PORTABLE_MIN_LIMBS,
};

/// An unreduced fixed-size product: t and the bit above it (t + top b^N).
pub type Wide<const N: usize> = ([Limb; N], Limb);

/// CIOS Montgomery product for a compile-time size N: `a b R^{-1} mod m` for `a, b < m`,
/// result `< m`. Same arithmetic as `super::cios::cios`; t[0..N] plus two top words kept in
/// locals.
/// Leaks: nothing but the lengths (constant time). Reference: Koç–Acar–Kaliski 1996 §5.
#[inline(always)]
pub fn cios_fixed<const N: usize>(
    a: &[Limb; N],
    b: &[Limb; N],
    m: &[Limb; N],
    n0: Limb,
) -> [Limb; N] {
    let (t, top) = cios_fixed_raw(a, b, m, n0);
    sub_final_fixed(&t, top, m)
}

/// [`cios_fixed`] before its final subtraction, for `a, b < R` (R = b^N; not only below m):
/// t + top b^N < R + m (< 2m when a, b < m), congruent to a b R^{-1} mod m. Invariant at the top
/// of iteration i: t < R + m, so the second top word is 0.
/// Leaks: nothing but the lengths (constant time).
#[inline(always)]
pub fn cios_fixed_raw<const N: usize>(
    a: &[Limb; N],
    b: &[Limb; N],
    m: &[Limb; N],
    n0: Limb,
) -> Wide<N> {
    let mut t = [0 as Limb; N];
    let mut t_top: Limb = 0; // t[N]; t < R + m keeps it <= 1 between iterations
    for i in 0..N {
        let bi = b[i];
        let mut c = 0;
        for j in 0..N {
            (t[j], c) = mac(a[j], bi, t[j], c);
        }
        let (tn, tn1) = adc(t_top, c, 0);
        let mi = mul_lo(t[0], n0);
        let (_, mut c) = mac(mi, m[0], t[0], 0);
        for j in 1..N {
            (t[j - 1], c) = mac(mi, m[j], t[j], c);
        }
        let (s, c2) = adc(tn, c, 0);
        t[N - 1] = s;
        t_top = tn1 + c2;
        debug_assert!(t_top <= 1);
    }
    (t, t_top)
}

/// Montgomery square for a compile-time size N <= 8: `a^2 R^{-1} mod m` for `a < m`, result
/// `< m`. The 2N-limb square by the symmetric method (N(N-1)/2 off-diagonal products, doubled,
/// plus N squares: N(N+1)/2 multiplications instead of N^2), then N REDC rows (Bosselaers et
/// al. 1993 Alg. 3 / Koç–Acar–Kaliski 1996 §4, SOS) and the masked final subtraction: N^2 +
/// N(N+1)/2 + N multiplications against CIOS's 2N^2 + N.
/// Leaks: nothing but the lengths (constant time).
/// Reference: Koç–Acar–Kaliski 1996 §4 (SOS and its squaring).
#[inline(always)]
pub fn sqr_fixed<const N: usize>(a: &[Limb; N], m: &[Limb; N], n0: Limb) -> [Limb; N] {
    let (t, top) = sqr_fixed_raw(a, m, n0);
    sub_final_fixed(&t, top, m)
}

/// [`sqr_fixed`] before its final subtraction, for `a < R`: t + top b^N < R + m (< 2m when
/// a < m), congruent to a^2 R^{-1} mod m.
/// Leaks: nothing but the lengths (constant time).
#[inline(always)]
pub fn sqr_fixed_raw<const N: usize>(a: &[Limb; N], m: &[Limb; N], n0: Limb) -> Wide<N> {
    const { assert!(N >= 1 && N <= 8) };
    let mut t = [0 as Limb; 16];
    // Off-diagonal products a_i a_j (i < j) at t[i + j]; row i ends at t[i + N], not yet
    // written by rows < i (they end at t[i - 1 + N] at most).
    for i in 0..N {
        let mut c = 0;
        for j in i + 1..N {
            (t[i + j], c) = mac(a[i], a[j], t[i + j], c);
        }
        t[i + N] = c;
    }
    // Double (the off-diagonal sum is below b^(2N) / 2, so no bit leaves t[2N-1]) and add
    // the squares a_i^2 at t[2i]; the total a^2 < b^(2N) leaves no final carry.
    let mut top_bit = 0;
    let mut c = 0;
    for i in 0..N {
        let (lo, hi) = mul_wide(a[i], a[i]);
        let d0 = (t[2 * i] << 1) | top_bit;
        let d1 = (t[2 * i + 1] << 1) | (t[2 * i] >> 63);
        top_bit = t[2 * i + 1] >> 63;
        (t[2 * i], c) = adc(d0, lo, c);
        (t[2 * i + 1], c) = adc(d1, hi, c);
    }
    debug_assert_eq!(c | top_bit, 0);
    redc_fixed::<N>(&t, m, n0)
}

/// REDC of the 2N-limb `t < R^2` held in `t[..2N]` (N <= 8), unreduced: t R^{-1} + top b^N
/// < R + m (< 2m when t < m R), congruent to t R^{-1} mod m.
/// Row i adds m_i m (m_i = t_i n'0 mod b) at limb i, zeroing t_i; the row's carry joins
/// t[i + N] with the previous row's carry-out (at most one bit, `top`).
/// Leaks: nothing but the lengths (constant time).
#[inline(always)]
fn redc_fixed<const N: usize>(t: &[Limb; 16], m: &[Limb; N], n0: Limb) -> Wide<N> {
    let mut t = *t;
    let mut top = 0;
    for i in 0..N {
        let mi = mul_lo(t[i], n0);
        let mut c = 0;
        for j in 0..N {
            (t[i + j], c) = mac(mi, m[j], t[i + j], c);
        }
        debug_assert_eq!(t[i], 0);
        (t[i + N], top) = adc(t[i + N], c, top);
    }
    // (t + M m) / R < R + m: value t[N..2N] + top b^N.
    let mut hi = [0 as Limb; N];
    hi.copy_from_slice(&t[N..2 * N]);
    (hi, top)
}

/// `x + top b^N < R + m` brought below R (not necessarily below m) by subtracting m when top is
/// set: the final step of the lazily reduced arithmetic of the variable-time scans, where
/// residues stay below R and the raw kernels accept them.
/// Leaks: variable time: a branch on top, set in 10-35% of products depending on m / R, in
/// exchange for nothing on the dependency chain when it is predicted right (measured 7% faster
/// at 256 bits than the masked subtraction).
#[inline(always)]
pub fn lazy_final_vartime<const N: usize>((t, top): Wide<N>, m: &[Limb; N]) -> [Limb; N] {
    debug_assert!(top <= 1);
    if top == 0 {
        return t;
    }
    let mut d = [0 as Limb; N];
    let mut borrow = 0;
    for j in 0..N {
        (d[j], borrow) = sbb(t[j], m[j], borrow);
    }
    // t + b^N - m < R: the subtraction borrows exactly the top bit.
    debug_assert_eq!(borrow, 1);
    d
}

/// x = t + top b^N < R + m brought below R (not necessarily below m), as
/// [`lazy_final_vartime`], but without a branch: m & -top is subtracted. The
/// "almost Montgomery" finish of `ct` (Gueron, J. Cryptogr. Eng. 2012): the residues stay below
/// R and [`pow_fixed_with`] brings the result below m once at the end; 2N + 1 instructions
/// against the compare-and-select's 3N + 1 ([`sub_final_fixed`]).
/// Leaks: nothing but the lengths (constant time).
#[inline(always)]
pub(crate) fn below_r_masked<const N: usize>((t, top): Wide<N>, m: &[Limb; N]) -> [Limb; N] {
    debug_assert!(top <= 1);
    let mask = Choice::from_bit(top).mask();
    let mut d = [0 as Limb; N];
    let mut borrow = 0;
    for j in 0..N {
        (d[j], borrow) = sbb(t[j], m[j] & mask, borrow);
    }
    // t + top b^N - (m & mask) < R: the subtraction borrows exactly the top bit.
    debug_assert_eq!(borrow, top);
    d
}

/// `x - m` if `x + top b^N >= m`, else `x`, for `x + top b^N < 2m`, by a mask.
/// Leaks: nothing but the lengths (constant time).
#[inline(always)]
pub(crate) fn sub_final_fixed<const N: usize>(
    x: &[Limb; N],
    top: Limb,
    m: &[Limb; N],
) -> [Limb; N] {
    let mut d = [0 as Limb; N];
    let mut borrow = 0;
    for j in 0..N {
        (d[j], borrow) = sbb(x[j], m[j], borrow);
    }
    let (_, keep_x) = sbb(top, borrow, 0);
    let keep_x = Choice::from_bit(keep_x);
    for j in 0..N {
        d[j] = keep_x.select(x[j], d[j]);
    }
    d
}

/// [`ExpArith`] on `[Limb; N]` Montgomery residues with the fixed-size kernels. With `LAZY`
/// the residues are kept below R rather than below m by a branch ([`lazy_final_vartime`]:
/// variable time, for the variable-time scans); without, by a mask ([`below_r_masked`], for
/// `ct`).
/// Leaks: with `LAZY` the branch of [`lazy_final_vartime`]; else nothing but the lengths
/// (constant time).
struct FixedArith<'a, const N: usize, const LAZY: bool> {
    m: &'a [Limb; N],
    n0: Limb,
}

/// The final step of the fixed-size arithmetics, below R: with `LAZY`, [`lazy_final_vartime`]
/// (variable time), else [`below_r_masked`] (constant time).
#[inline(always)]
fn finish_fixed<const N: usize, const LAZY: bool>((t, top): Wide<N>, m: &[Limb; N]) -> [Limb; N] {
    if LAZY {
        lazy_final_vartime((t, top), m)
    } else {
        below_r_masked((t, top), m)
    }
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
/// Leaks: with `LAZY` the branch of [`lazy_final_vartime`]; else nothing but the lengths
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
/// Leaks: with `LAZY` the branch of [`lazy_final_vartime`]; else nothing but the lengths
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

/// `out = a b R^{-1} mod m` (`b = None`: `a^2 R^{-1}`), `< m`, for `a, b < m`, on the
/// MULX/ADX kernels of [`super::adx_mont`] when the context is on the [`Tier::Adx`] tier or
/// above and kernels exist for this size (then true), else false. Their result is below R and below 2m; one masked
/// subtraction (through `t`, k limbs of scratch) brings it below m.
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
    if p.k() > FIXED_CIOS_MAX_LIMBS {
        // None below the ADX tier or outside the generated sizes.
        if let Some(kern) = super::adx_mont::Kernels::new(p, super::adx_mont::Finish::Masked) {
            let t = &mut t[..p.k()];
            match b {
                Some(b) => kern.mul(t, a, b),
                None => kern.sqr(t, a),
            }
            arith::sub_mod_final(out, t, 0, &p.m);
            return true;
        }
    }
    let _ = (p, out, a, b, t);
    false
}

/// Whether k limbs run on the portable engine ([`super::portable`]): the context is on the
/// [`Tier::Portable`] tier (every target; the only tier off x86-64) and
/// [`PORTABLE_MIN_LIMBS`] <= k <= [`PORTABLE_MAX_LIMBS`]. The higher tiers keep their kernels.
#[inline]
fn portable_engine(p: &MontParams) -> bool {
    p.tier() == Tier::Portable && (PORTABLE_MIN_LIMBS..=PORTABLE_MAX_LIMBS).contains(&p.k())
}

/// Kernel of `montgomery-fast`.
/// Leaks: see the module docs (constant time below [`KARATSUBA_THRESHOLD`] limbs).
pub struct Fast;

impl MontKernel for Fast {
    const NAME: &'static str = "montgomery-fast";
    const KIND: crate::reduce::ReducerKind = crate::reduce::ReducerKind::MontgomeryFast;
    const SUMMARY: &'static str =
        "default: unrolled const-size CIOS up to 8 limbs, fused MULX/ADX (ADX tier), AVX-512 IFMA (IFMA tier) or banded product-scanning (portable tier) Montgomery kernels for 9..=64 limbs, MULX/ADX product + REDC above (beyond the source papers)";
    fn scratch_len(k: usize) -> usize {
        (2 * k + karatsuba_scratch_len(k)).max(super::portable::wide_len(k))
    }
    fn pow_fused(p: &MontParams, base: &[Limb], exp: &[Limb], alg: FusedPow) -> Option<Vec<Limb>> {
        // Each returns None below its tier or outside its sizes.
        #[cfg(target_arch = "x86_64")]
        if let Some(x) = super::ifma::pow(p, base, exp, alg) {
            return Some(x);
        }
        #[cfg(modred_adx_mont)]
        if let Some(x) = super::adx_mont::pow(p, base, exp, alg) {
            return Some(x);
        }
        if portable_engine(p) {
            return super::portable::pow(p, base, exp, alg);
        }
        pow_dispatch(p, base, exp, alg)
    }
    fn fused_arith(p: &MontParams) -> Option<Box<dyn FusedArith>> {
        // Each returns None below its tier or outside its sizes.
        #[cfg(target_arch = "x86_64")]
        if let Some(s) = super::ifma::Session::new(p) {
            return Some(Box::new(s));
        }
        #[cfg(modred_adx_mont)]
        if let Some(s) = super::adx_mont::Session::new(p) {
            return Some(Box::new(s));
        }
        let _ = p;
        None
    }
    fn is_constant_time(k: usize) -> bool {
        // Karatsuba (from its thresholds) branches on the signs of operand differences.
        k <= FIXED_CIOS_MAX_LIMBS || k < KARATSUBA_THRESHOLD.min(KARATSUBA_SQR_THRESHOLD)
    }
    #[inline]
    fn mul(p: &MontParams, out: &mut [Limb], a: &[Limb], b: &[Limb], scratch: &mut [Limb]) {
        let k = p.k();
        if k <= FIXED_CIOS_MAX_LIMBS && mul_fixed(p, out, a, b) {
            return;
        }
        if portable_engine(p) {
            return super::portable::mul(p, out, a, b, scratch);
        }
        let (t, rest) = scratch.split_at_mut(2 * k);
        if adx_product(p, out, a, Some(b), t) {
            return;
        }
        if k < KARATSUBA_THRESHOLD {
            mul_basecase_on(p.tier(), t, a, b);
        } else {
            arith::mul_karatsuba_on(p.tier(), t, a, b, rest);
        }
        Self::redc(p, out, t, rest);
    }
    #[inline]
    fn sqr(p: &MontParams, out: &mut [Limb], a: &[Limb], scratch: &mut [Limb]) {
        let k = p.k();
        if k <= FIXED_CIOS_MAX_LIMBS && mul_fixed(p, out, a, a) {
            return;
        }
        if portable_engine(p) {
            return super::portable::sqr(p, out, a, scratch);
        }
        let (t, rest) = scratch.split_at_mut(2 * k);
        if adx_product(p, out, a, None, t) {
            return;
        }
        if k < KARATSUBA_SQR_THRESHOLD {
            sqr_basecase_on(p.tier(), t, a);
        } else {
            arith::sqr_karatsuba_on(p.tier(), t, a, rest);
        }
        Self::redc(p, out, t, rest);
    }
    /// Word-by-word REDC, or from [`crate::tuning::REDC_N_THRESHOLD`] limbs on the REDC over
    /// two full products ([`super::redc_n::RedcN`]).
    /// Leaks: nothing but the lengths (constant time) below that threshold; from it variable
    /// time (see [`super::redc_n`]).
    #[inline]
    fn redc(p: &MontParams, out: &mut [Limb], x: &mut [Limb], _scratch: &mut [Limb]) {
        match &p.redc_n {
            None => redc(p, out, x),
            Some(r) => r.reduce_vartime(out, x, &p.m),
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
    /// congruent to `want_times_r` R^{-1} mod m, and [`lazy_final_vartime`] keeps the residue
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
