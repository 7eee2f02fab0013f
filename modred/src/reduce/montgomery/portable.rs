//! Portable fused Montgomery engine for `montgomery-fast` at 9..=64 limbs (beyond the source
//! papers): the [`crate::cpu::Tier::Portable`] tier's kernels (aarch64 and other targets, x86-64
//! without BMI2/ADX, `MODRED_CPU=portable`). Safe Rust: 64 x 64 -> 128-bit products, no asm or
//! intrinsics.
//!
//! The products run in bands of B rows (B = [`PORTABLE_BAND_LIMBS`], then 4, 2, 1 for what is
//! left): a band sweeps once over the other operand, and each step forms one column of the band
//! (its B products, the running limb and the carry) in a three-word accumulator before writing
//! that limb (product scanning, Koç, Acar, Kaliski, *Analyzing and Comparing Montgomery
//! Multiplication Algorithms*, IEEE Micro 1996, §7, within the band). Every loop runs a number
//! of times that depends only on k and the band, not on the column: the column-wise product
//! scanning of the whole operands (a loop of a different length per column) lost a branch
//! misprediction per column, 30-40% of the time at 16-32 limbs. The band's first and last
//! columns (fewer products) are unrolled for the constant B.
//!
//! The Montgomery product is the full product of `a` and `b` (bands of b) followed by REDC
//! (bands of q, each q_i found as its column completes); the square forms the off-diagonal
//! triangle (bands of rows), doubles it, adds the diagonal squares and reduces: k(k+1)/2 + k^2 +
//! k multiplications against 2k^2 + k. Reference: Bosselaers, Govaerts, Vandewalle, *Comparison
//! of three modular reduction functions*, CRYPTO '93, Alg. 3 (REDC); Koç–Acar–Kaliski 1996 §4
//! (SOS) and §7 (product scanning).
//!
//! Residues are kept below R = 2^(64k) rather than below m in the exponentiation scans: the raw
//! products accept operands below R and return t + top R < R + m; the variable-time scans
//! subtract m when top is set (a branch), `ct` subtracts m under a mask of top (no branch); the
//! result is brought below m once at the end.

use super::MontParams;
use crate::arith::sub_mod_final;
use crate::limb::{adc, mul_lo, mul_wide, sbb, Choice, Limb};
use crate::scan::{ExpArith, FusedPow};
use crate::tuning::{PORTABLE_BAND_LIMBS, PORTABLE_MAX_LIMBS, PORTABLE_MIN_LIMBS};

/// A three-word accumulator: `lo + hi 2^64`.
///
/// Kept as a limb and a double limb, so that adding a product compiles to one add and two
/// add-with-carry (the Comba step): a product's high limb is at most b - 2, so it absorbs the
/// carry of the low addition without overflowing, and `hi` only ever adds whole limbs (three
/// separate limbs, or a double limb plus a carry counter, let the compiler regroup the carry
/// bits into vector code).
#[derive(Clone, Copy)]
struct Acc {
    lo: Limb,
    hi: u128,
}

impl Acc {
    const ZERO: Acc = Acc { lo: 0, hi: 0 };

    /// The value `x`.
    #[inline(always)]
    fn limb(x: Limb) -> Acc {
        Acc { lo: x, hi: 0 }
    }

    /// `self += x y`.
    #[inline(always)]
    fn mac(&mut self, x: Limb, y: Limb) {
        let (l, h) = mul_wide(x, y);
        let (s, c) = self.lo.overflowing_add(l);
        self.lo = s;
        // h <= b - 2: h + c fits a limb.
        self.hi += (h + c as Limb) as u128;
    }

    /// `self += other`.
    #[inline(always)]
    fn add(&mut self, other: Acc) {
        let (s, c) = self.lo.overflowing_add(other.lo);
        self.lo = s;
        self.hi += other.hi + c as u128;
    }

    /// The low limb.
    #[inline(always)]
    fn low(self) -> Limb {
        self.lo
    }

    /// `self >> 64`: the carry into the next column.
    #[inline(always)]
    fn shift(self) -> Acc {
        Acc {
            lo: self.hi as Limb,
            hi: self.hi >> 64,
        }
    }
}

/// One band of a product: `t[..n + B] = t[..n] + x y` for the n-limb `x` and the B-limb `y`,
/// with only the products x_s y_r with s >= r when `TRIANGLE` (the off-diagonal triangle of a
/// square). `t[n..n + B]` are written, not added: the caller guarantees the sum fits n + B limbs
/// and those limbs are free. Needs n >= B, and n >= 2B - 1 with `TRIANGLE`.
/// Leaks: nothing but the lengths (constant time: the loop bounds depend on n and B only).
///
/// Step j forms column j: t_j, the carry of column j - 1 and the products x_(j-r) y_r, r < B,
/// that exist; at most B + 2 terms below b^2, so the accumulator's top limb stays below B + 2.
#[inline(always)]
fn sweep<const B: usize, const TRIANGLE: bool>(t: &mut [Limb], x: &[Limb], y: &[Limb; B]) {
    let n = x.len();
    debug_assert!(n >= B && (!TRIANGLE || n + 1 >= 2 * B) && t.len() >= n + B);
    // Columns below `full` lack some products (r > j, or s < r in the triangle).
    let full = if TRIANGLE { 2 * B - 2 } else { B - 1 };
    let mut carry = Acc::ZERO;
    for j in 0..full {
        let mut s = carry;
        s.add(Acc::limb(t[j]));
        for r in 0..B {
            if r <= j && (!TRIANGLE || j - r >= r) {
                s.mac(x[j - r], y[r]);
            }
        }
        t[j] = s.low();
        carry = s.shift();
    }
    // Columns full..n: all B products; w = x[j + 1 - B ..= j].
    for (w, tj) in x[full + 1 - B..].windows(B).zip(t[full..n].iter_mut()) {
        let mut s = carry;
        s.add(Acc::limb(*tj));
        for r in 0..B {
            s.mac(w[B - 1 - r], y[r]);
        }
        *tj = s.low();
        carry = s.shift();
    }
    // Columns n + e, e < B - 1: the products with r > e (s = n + e - r >= n - B + 1 >= r in
    // the triangle, as n >= 2B - 1); then the top limb.
    let x_top = &x[n - B..];
    for e in 0..B - 1 {
        let mut s = carry;
        for r in e + 1..B {
            s.mac(x_top[B + e - r], y[r]);
        }
        t[n + e] = s.low();
        carry = s.shift();
    }
    debug_assert!(carry.hi == 0);
    t[n + B - 1] = carry.low();
}

/// One REDC band (Bosselaers et al. 1993 Alg. 3, B rows at once): adds q m to `t[..k + B]`,
/// q = q_0 + ... + q_(B-1) b^(B-1) chosen column by column so that t_0..t_(B-1) become zero
/// (q_j = t_j n'0 mod b once column j has all its other terms), and `top` (the previous band's
/// carry, <= 1) at limb k. Returns the carry out of limb k + B - 1 (<= 1 while the total stays
/// below m R + m R). Needs k >= B.
/// Leaks: nothing but the lengths (constant time).
#[inline(always)]
fn redc_band<const B: usize>(t: &mut [Limb], m: &[Limb], n0: Limb, top: Limb) -> Limb {
    let k = m.len();
    debug_assert!(k >= B && t.len() >= k + B);
    let mut q = [0 as Limb; B];
    let mut carry = Acc::ZERO;
    for j in 0..B {
        let mut s = carry;
        s.add(Acc::limb(t[j]));
        for r in 0..j {
            s.mac(m[j - r], q[r]);
        }
        q[j] = mul_lo(s.low(), n0);
        s.mac(m[0], q[j]);
        debug_assert_eq!(s.low(), 0);
        carry = s.shift();
    }
    for (w, tj) in m[1..].windows(B).zip(t[B..k].iter_mut()) {
        let mut s = carry;
        s.add(Acc::limb(*tj));
        for r in 0..B {
            s.mac(w[B - 1 - r], q[r]);
        }
        *tj = s.low();
        carry = s.shift();
    }
    let m_top = &m[k - B..];
    for e in 0..B {
        let mut s = carry;
        s.add(Acc::limb(t[k + e]));
        if e == 0 {
            s.add(Acc::limb(top));
        }
        for r in e + 1..B {
            s.mac(m_top[B + e - r], q[r]);
        }
        t[k + e] = s.low();
        carry = s.shift();
    }
    debug_assert!(carry.hi == 0 && carry.lo <= 1);
    carry.low()
}

/// Limbs of scratch the raw products need for k limbs: the 2k-limb value and one band above it.
pub(crate) const fn wide_len(k: usize) -> usize {
    2 * k + PORTABLE_BAND_LIMBS
}

/// The scratch of [`wide_len`] for the largest k.
const WIDE: usize = wide_len(PORTABLE_MAX_LIMBS);

/// `t[i..]` += rows i.. of the triangle (or of b, without `TRIANGLE`) in bands of B while they
/// fit; returns the first row left.
#[inline(always)]
fn product_bands<const B: usize, const TRIANGLE: bool>(
    t: &mut [Limb],
    a: &[Limb],
    b: &[Limb],
    mut i: usize,
) -> usize {
    let k = a.len();
    if TRIANGLE {
        // Rows i..i+B against a[i+1..]: n = k - i - 1 >= 2B - 1.
        while k - i >= 2 * B {
            let y: &[Limb; B] = b[i..i + B].try_into().expect("B limbs");
            sweep::<B, true>(&mut t[2 * i + 1..], &a[i + 1..], y);
            i += B;
        }
    } else {
        while i + B <= k {
            let y: &[Limb; B] = b[i..i + B].try_into().expect("B limbs");
            sweep::<B, false>(&mut t[i..], a, y);
            i += B;
        }
    }
    i
}

/// All rows of the product (or of the triangle) from `t[..k]` = 0: bands of
/// [`PORTABLE_BAND_LIMBS`], then of 4, 2 and 1. Each band adds into the limbs the bands before
/// it wrote and writes the limbs above them.
#[inline(always)]
fn all_bands<const TRIANGLE: bool>(t: &mut [Limb], a: &[Limb], b: &[Limb]) {
    let rows = product_bands::<PORTABLE_BAND_LIMBS, TRIANGLE>(t, a, b, 0);
    let rows = product_bands::<4, TRIANGLE>(t, a, b, rows);
    let rows = product_bands::<2, TRIANGLE>(t, a, b, rows);
    product_bands::<1, TRIANGLE>(t, a, b, rows);
}

/// REDC bands of B from limb i while they fit; returns the next limb and the carry.
#[inline(always)]
fn redc_bands<const B: usize>(
    t: &mut [Limb],
    m: &[Limb],
    n0: Limb,
    (mut i, mut top): (usize, Limb),
) -> (usize, Limb) {
    while i + B <= m.len() {
        top = redc_band::<B>(&mut t[i..], m, n0, top);
        i += B;
    }
    (i, top)
}

/// REDC of the 2k-limb t < R^2 in `t[..2k]`: leaves t' = (t + Q m) / R in `t[k..2k]` and returns
/// its top bit; t' + top R < R + m (< 2m for t < m R), congruent to t R^{-1} mod m.
#[inline(always)]
fn redc_all(t: &mut [Limb], m: &[Limb], n0: Limb) -> Limb {
    let rows = redc_bands::<PORTABLE_BAND_LIMBS>(t, m, n0, (0, 0));
    let rows = redc_bands::<4>(t, m, n0, rows);
    let rows = redc_bands::<2>(t, m, n0, rows);
    redc_bands::<1>(t, m, n0, rows).1
}

/// Raw Montgomery product into `wide` ([`wide_len`] limbs or more, any contents): `t = a b
/// R^{-1} mod m` up to one m in `wide[k..2k]`, with the returned top bit: t + top R < R + m for
/// `a, b < R` (< 2m for a, b < m), congruent to a b R^{-1} mod m. `a`, `b` and `m` have k limbs
/// ([`PORTABLE_MIN_LIMBS`] <= k <= [`PORTABLE_MAX_LIMBS`]), m is odd and `n0 = -m^{-1} mod b`.
/// The full product by bands of b, then REDC (bound: (ab + Qm)/R < (R^2 + R m)/R).
/// Leaks: nothing but the lengths (constant time).
#[inline(always)]
fn mont_mul_wide(wide: &mut [Limb], a: &[Limb], b: &[Limb], m: &[Limb], n0: Limb) -> Limb {
    let k = m.len();
    debug_assert!((PORTABLE_MIN_LIMBS..=PORTABLE_MAX_LIMBS).contains(&k));
    debug_assert!(a.len() == k && b.len() == k && wide.len() >= wide_len(k));
    wide[..k].fill(0);
    all_bands::<false>(wide, a, b);
    redc_all(wide, m, n0)
}

/// Raw Montgomery square, as [`mont_mul_wide`] with b = a (t + top R < R + m for `a < R`): the
/// off-diagonal triangle by bands of rows, doubled, plus the diagonal squares, then REDC.
/// Leaks: nothing but the lengths (constant time).
#[inline(always)]
fn mont_sqr_wide(wide: &mut [Limb], a: &[Limb], m: &[Limb], n0: Limb) -> Limb {
    let k = m.len();
    debug_assert!((PORTABLE_MIN_LIMBS..=PORTABLE_MAX_LIMBS).contains(&k));
    debug_assert!(a.len() == k && wide.len() >= wide_len(k));
    // The triangle's first band reads t[1..k]; t[0] and t[2k - 1] hold no off-diagonal product.
    wide[..k].fill(0);
    wide[2 * k - 1] = 0;
    all_bands::<true>(wide, a, a);
    // t = 2 t + sum a_i^2 b^(2i): the triangle is below b^(2k) / 2, so doubling loses no bit,
    // and the square leaves no carry out of limb 2k - 1.
    let (mut carry, mut shifted_out) = (0, 0);
    for (i, &ai) in a.iter().enumerate() {
        let (lo, hi) = mul_wide(ai, ai);
        let (t0, t1) = (wide[2 * i], wide[2 * i + 1]);
        let d0 = (t0 << 1) | shifted_out;
        let d1 = (t1 << 1) | (t0 >> 63);
        shifted_out = t1 >> 63;
        (wide[2 * i], carry) = adc(d0, lo, carry);
        (wide[2 * i + 1], carry) = adc(d1, hi, carry);
    }
    debug_assert_eq!(carry | shifted_out, 0);
    redc_all(wide, m, n0)
}

/// `t + top R < R + m` brought below R (not necessarily below m): m subtracted when top is
/// set. With `LAZY` by a branch on top (nothing on the dependency chain when predicted), else
/// under a mask of top (for `ct`).
/// Leaks: with `LAZY`, variable time (the branch on top); else nothing but the lengths
/// (constant time).
#[inline(always)]
fn below_r<const LAZY: bool>(t: &mut [Limb], top: Limb, m: &[Limb]) {
    debug_assert!(top <= 1);
    if LAZY && top == 0 {
        return;
    }
    let mask = Choice::from_bit(top).mask();
    let mut borrow = 0;
    for (x, &mj) in t.iter_mut().zip(m) {
        (*x, borrow) = sbb(*x, mj & mask, borrow);
    }
    // t + top R - (m & mask) < R: the subtraction borrows exactly the top bit.
    debug_assert_eq!(borrow, top);
}

/// A residue buffer: `[Limb; N]` for the sizes compiled for a constant N (loop bounds known to
/// the compiler), `Vec<Limb>` for the others.
pub(crate) trait Residue: Clone + AsRef<[Limb]> + AsMut<[Limb]> {
    /// k zero limbs (k = N for arrays).
    fn zeroed(k: usize) -> Self;
}

impl<const N: usize> Residue for [Limb; N] {
    #[inline(always)]
    fn zeroed(k: usize) -> Self {
        debug_assert_eq!(k, N);
        [0; N]
    }
}

impl Residue for Vec<Limb> {
    #[inline(always)]
    fn zeroed(k: usize) -> Self {
        vec![0; k]
    }
}

/// [`ExpArith`] on residues below R with the raw kernels; `LAZY` as in [`below_r`].
/// Leaks: what [`below_r`] leaks.
struct PortableArith<E, const LAZY: bool> {
    m: E,
    n0: Limb,
    /// The products' output, swapped with the operand.
    tmp: E,
    /// The raw products' scratch.
    wide: [Limb; WIDE],
}

impl<E: Residue, const LAZY: bool> PortableArith<E, LAZY> {
    /// `a = tmp`, where the raw product left t + top R in `wide[k..2k]`, brought below R.
    #[inline(always)]
    fn finish(&mut self, a: &mut E, top: Limb) {
        let m = self.m.as_ref();
        let k = m.len();
        let t = self.tmp.as_mut();
        t.copy_from_slice(&self.wide[k..2 * k]);
        below_r::<LAZY>(t, top, m);
        core::mem::swap(a, &mut self.tmp);
    }
}

impl<E: Residue, const LAZY: bool> ExpArith for PortableArith<E, LAZY> {
    type Elem = E;
    #[inline(always)]
    fn sqr_in_place(&mut self, a: &mut E) {
        let top = mont_sqr_wide(&mut self.wide, a.as_ref(), self.m.as_ref(), self.n0);
        self.finish(a, top);
    }
    #[inline(always)]
    fn mul_in_place(&mut self, a: &mut E, b: &E) {
        let top = mont_mul_wide(
            &mut self.wide,
            a.as_ref(),
            b.as_ref(),
            self.m.as_ref(),
            self.n0,
        );
        self.finish(a, top);
    }
}

/// `base^exp mod m` (`base < m`, k limbs; returns k limbs `< m`) by the scan `alg` on
/// [`PortableArith`] with residues of type `E`: enter by a product with R^2, leave by one with
/// 1 and a masked subtraction.
/// Leaks: variable time (the scan's and [`below_r`]'s branches), except `FusedPow::Ct` with
/// `LAZY` off: then nothing but the lengths (of m and of the exponent).
#[inline(always)]
fn pow_with<E: Residue, const LAZY: bool>(
    p: &MontParams,
    base: &[Limb],
    exp: &[Limb],
    alg: FusedPow,
) -> Vec<Limb> {
    let k = p.k();
    let from = |x: &[Limb]| {
        let mut e = E::zeroed(k);
        e.as_mut().copy_from_slice(x);
        e
    };
    let mut ar = PortableArith::<E, LAZY> {
        m: from(&p.m),
        n0: p.n0,
        tmp: E::zeroed(k),
        wide: [0; WIDE],
    };
    let mut g = from(base);
    ar.mul_in_place(&mut g, &from(&p.r2));
    let mut acc = alg.run(&mut ar, g, from(&p.one), exp);
    let mut unit = E::zeroed(k);
    unit.as_mut()[0] = 1;
    ar.mul_in_place(&mut acc, &unit);
    // acc R^{-1} <= m for any acc < R (= m only for acc = 0 mod m): one masked subtraction.
    let mut out = vec![0; k];
    sub_mod_final(&mut out, acc.as_ref(), 0, &p.m);
    out
}

/// [`pow_with`] lazily reduced for the variable-time scans, fully masked for `ct`.
#[inline(always)]
fn pow_residue<E: Residue>(
    p: &MontParams,
    base: &[Limb],
    exp: &[Limb],
    alg: FusedPow,
) -> Vec<Limb> {
    if alg.is_constant_time() {
        pow_with::<E, false>(p, base, exp, alg)
    } else {
        pow_with::<E, true>(p, base, exp, alg)
    }
}

/// Fused exponentiation on the portable kernels for [`PORTABLE_MIN_LIMBS`] <= k <=
/// [`PORTABLE_MAX_LIMBS`], else `None`.
/// Leaks: as [`pow_with`] (masked for `FusedPow::Ct`).
pub(crate) fn pow(p: &MontParams, base: &[Limb], exp: &[Limb], alg: FusedPow) -> Option<Vec<Limb>> {
    let k = p.k();
    if !(PORTABLE_MIN_LIMBS..=PORTABLE_MAX_LIMBS).contains(&k) {
        return None;
    }
    Some(const_dispatch!(k; N in [16, 32] =>
        pow_residue::<[Limb; N]>(p, base, exp, alg); else pow_residue::<Vec<Limb>>(p, base, exp, alg)))
}

/// `out = a b R^{-1} mod m` for `a, b < m` (k limbs, `out < m`) on the raw product, with
/// `wide` ([`wide_len`] limbs) as scratch.
/// Leaks: nothing but the lengths (constant time).
pub(crate) fn mul(p: &MontParams, out: &mut [Limb], a: &[Limb], b: &[Limb], wide: &mut [Limb]) {
    let k = p.k();
    let top = mont_mul_wide(wide, a, b, &p.m, p.n0);
    sub_mod_final(out, &wide[k..2 * k], top, &p.m);
}

/// `out = a^2 R^{-1} mod m` for `a < m` (k limbs, `out < m`) on the raw square, with `wide`
/// ([`wide_len`] limbs) as scratch.
/// Leaks: nothing but the lengths (constant time).
pub(crate) fn sqr(p: &MontParams, out: &mut [Limb], a: &[Limb], wide: &mut [Limb]) {
    let k = p.k();
    let top = mont_sqr_wide(wide, a, &p.m, p.n0);
    sub_mod_final(out, &wide[k..2 * k], top, &p.m);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reduce::montgomery::test_util::{big, every_scan, limbs};
    use num_bigint::BigUint;

    /// The moduli of the edge-case tests for k limbs: random with the top bit set, top limb 1,
    /// all ones (b^k - 1), and b^k - 3.
    fn moduli(k: usize, rnd: &mut impl FnMut() -> Limb) -> Vec<Vec<Limb>> {
        let mut random: Vec<Limb> = (0..k).map(|_| rnd()).collect();
        random[0] |= 1;
        random[k - 1] |= 1 << 63;
        let mut top1: Vec<Limb> = (0..k).map(|_| rnd()).collect();
        top1[0] |= 1;
        top1[k - 1] = 1;
        let mut minus3 = vec![Limb::MAX; k];
        minus3[0] = Limb::MAX - 2;
        vec![random, top1, vec![Limb::MAX; k], minus3]
    }

    /// Checks a raw result against num-bigint: t + top R < R + m and congruent to
    /// `want_times_r` R^{-1}; then both finishes give the same residue below R.
    fn check_raw(t: &[Limb], top: Limb, want_times_r: &BigUint, m: &[Limb], what: &str) {
        let k = m.len();
        let r = BigUint::from(1u8) << (64 * k);
        let mb = big(m);
        let want = want_times_r * r.modinv(&mb).expect("m odd") % &mb;
        assert!(top <= 1, "{what}");
        let x = big(t) + BigUint::from(top) * &r;
        assert!(x < &r + &mb, "{what}: raw result not below R + m");
        assert_eq!(&x % &mb, want, "{what}");
        let (mut lazy, mut masked) = (t.to_vec(), t.to_vec());
        below_r::<true>(&mut lazy, top, m);
        below_r::<false>(&mut masked, top, m);
        assert_eq!(lazy, masked, "{what}: finishes differ");
        assert!(
            big(&lazy) < r && big(&lazy) % &mb == want,
            "{what}: below R"
        );
    }

    /// The raw kernels for every k in
    /// 9..=64, on random operands below R (not only below m), all ones, x = 0, x = m - 1,
    /// x = m and top limb 1, with the four modulus shapes of [`moduli`].
    #[test]
    fn raw_kernels_match_num_bigint_every_size() {
        let mut s: u64 = 0x3c6e_f372_fe94_f82b;
        let mut rnd = || crate::limb::xorshift64(&mut s);
        let mut checked = 0;
        for k in PORTABLE_MIN_LIMBS..=PORTABLE_MAX_LIMBS {
            for m in moduli(k, &mut rnd) {
                let n0 = crate::limb::neg_inv_newton(m[0]);
                let mb = big(&m);
                let mut m_minus_1 = m.clone();
                m_minus_1[0] -= 1;
                let mut top1: Vec<Limb> = (0..k).map(|_| rnd()).collect();
                top1[k - 1] = 1;
                let operands: Vec<Vec<Limb>> = vec![
                    (0..k).map(|_| rnd()).collect(),
                    (0..k).map(|_| rnd()).collect(),
                    vec![Limb::MAX; k],
                    vec![0; k],
                    m_minus_1,
                    m.clone(),
                    top1,
                ];
                for (i, a) in operands.iter().enumerate() {
                    let b = &operands[(i + 1) % operands.len()];
                    let what = format!("k={k} m={m:x?} operands {i}");
                    // Scratch left dirty on purpose: the kernels must not rely on zeros.
                    let mut wide = vec![Limb::MAX; wide_len(k)];
                    let top = mont_mul_wide(&mut wide, a, b, &m, n0);
                    let t = &wide[k..2 * k];
                    check_raw(t, top, &(big(a) * big(b)), &m, &format!("mul {what}"));
                    let top = mont_sqr_wide(&mut wide, a, &m, n0);
                    let t = &wide[k..2 * k];
                    check_raw(t, top, &(big(a) * big(a)), &m, &format!("sqr {what}"));
                    checked += 2;
                }
                // The single product below m.
                let p = MontParams::with_tier(&m, crate::cpu::Tier::Portable);
                let a = limbs(&(big(&operands[0]) % &mb), k);
                let b = limbs(&(big(&operands[1]) % &mb), k);
                let r_inv = (BigUint::from(1u8) << (64 * k)).modinv(&mb).expect("odd");
                let (mut out, mut t) = (vec![0; k], vec![Limb::MAX; wide_len(k)]);
                mul(&p, &mut out, &a, &b, &mut t);
                assert_eq!(big(&out), big(&a) * big(&b) % &mb * &r_inv % &mb, "k={k}");
                sqr(&p, &mut out, &a, &mut t);
                assert_eq!(
                    big(&out),
                    big(&a) * big(&a) % &mb * &r_inv % &mb,
                    "k={k} sqr"
                );
            }
        }
        assert_eq!(checked, 56 * 4 * 7 * 2);
    }

    /// Every scan at every size 9..=64 (residue arrays at 16 and 32 limbs, vectors elsewhere), on the
    /// four modulus shapes, bases random, 0, 1 and m - 1, against num-bigint's `modpow`.
    #[test]
    fn pow_every_scan_every_size_matches_num_bigint() {
        let mut s: u64 = 0xbb67_ae85_84ca_a73b;
        let mut rnd = || crate::limb::xorshift64(&mut s);
        let mut checked = 0;
        for k in PORTABLE_MIN_LIMBS..=PORTABLE_MAX_LIMBS {
            for (case, m) in moduli(k, &mut rnd).into_iter().enumerate() {
                let p = MontParams::with_tier(&m, crate::cpu::Tier::Portable);
                let mb = big(&m);
                let b = match case {
                    0 => limbs(&(big(&(0..k).map(|_| rnd()).collect::<Vec<_>>()) % &mb), k),
                    1 => limbs(&(&mb - 1u32), k),
                    2 => vec![0; k],
                    _ => limbs(&BigUint::from(1u8), k),
                };
                // Exponents short enough to keep the test quick; one full-length.
                let e: Vec<Limb> = (0..if case == 0 { k } else { 2 }).map(|_| rnd()).collect();
                let want = big(&b).modpow(&big(&e), &mb);
                for alg in every_scan(e.len()) {
                    let got = pow(&p, &b, &e, alg).expect("served size");
                    assert_eq!(big(&got), want, "k={k} case={case} {alg:?}");
                    let zero = pow(&p, &b, &[0], alg).expect("served size");
                    assert_eq!(big(&zero), BigUint::from(1u8), "k={k} e=0 {alg:?}");
                    checked += 1;
                }
            }
        }
        assert_eq!(checked, 56 * 4 * 5);
        assert!(pow(&MontParams::new(&[3; 8]), &[1; 8], &[1], FusedPow::Binary).is_none());
    }
}
