//! The const-size Montgomery kernels on `[Limb; N]` (N <= 8; up to 16 for single products),
//! unrolled by the compiler for each N: the CIOS product (Koç, Acar, Kaliski, *Analyzing and
//! Comparing Montgomery Multiplication Algorithms*, IEEE Micro 1996, §5), the SOS square (§4),
//! and the three finishes: below m by a mask ([`sub_final_fixed`]), below R by a branch
//! ([`lazy_final_vartime`], the variable-time scans) or by a mask ([`below_r_masked`], `ct`).
//! The portable fallback and the oracle of the MULX/ADX asm kernels (`super::adx4`,
//! `super::adx_cios`), which share [`Wide`] and the finishes; `super::fast` dispatches to them.

use crate::limb::{adc, mac, mul_lo, mul_wide, sbb, Choice, Limb};

/// An unreduced fixed-size product: t and the bit above it (t + top b^N).
pub(crate) type Wide<const N: usize> = ([Limb; N], Limb);

/// CIOS Montgomery product for a compile-time size N: `a b R^{-1} mod m` for `a, b < m`,
/// result `< m`. Same arithmetic as `super::cios::cios`; t[0..N] plus two top words kept in
/// locals.
/// Leaks: nothing but the lengths (constant time). Reference: Koç–Acar–Kaliski 1996 §5.
#[inline(always)]
pub(crate) fn cios_fixed<const N: usize>(
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
pub(crate) fn cios_fixed_raw<const N: usize>(
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

/// Montgomery square for a compile-time size N <= 8, before the final subtraction: for `a < R`,
/// t + top b^N < R + m (< 2m when a < m), congruent to a^2 R^{-1} mod m. The 2N-limb square by
/// the symmetric method (N(N-1)/2 off-diagonal products, doubled, plus N squares: N(N+1)/2
/// multiplications instead of N^2), then N REDC rows: N^2 + N(N+1)/2 multiplications against
/// CIOS's 2N^2.
/// Leaks: nothing but the lengths (constant time).
/// Reference: Koç–Acar–Kaliski 1996 §4 (SOS and its squaring); Bosselaers et al. 1993 Alg. 3.
#[inline(always)]
pub(crate) fn sqr_fixed_raw<const N: usize>(a: &[Limb; N], m: &[Limb; N], n0: Limb) -> Wide<N> {
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
pub(crate) fn lazy_final_vartime<const N: usize>((t, top): Wide<N>, m: &[Limb; N]) -> [Limb; N] {
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

/// The final step of the fixed-size arithmetics, below R: with `LAZY`, [`lazy_final_vartime`]
/// (variable time), else [`below_r_masked`] (constant time).
#[inline(always)]
pub(crate) fn finish_fixed<const N: usize, const LAZY: bool>(
    (t, top): Wide<N>,
    m: &[Limb; N],
) -> [Limb; N] {
    if LAZY {
        lazy_final_vartime((t, top), m)
    } else {
        below_r_masked((t, top), m)
    }
}
