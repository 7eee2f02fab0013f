//! Eight independent exponentiations side by side on AVX-512 IFMA (beyond the source papers):
//! one number per 64-bit lane, for batches of exponentiations of one size.
//!
//! The layout is "vertical", as in Intel's crypto_mb (`mbx_rsa_private_crt_mb8`; written here
//! from the idea, not from that code): a number of n radix-2^52 digits is n vectors, and vector
//! j holds digit j of all eight numbers, lane l the number of lane l. Every `vpmadd52luq` /
//! `vpmadd52huq` then does useful work for all eight, and no carry or digit crosses a lane: the
//! word-serial loop is the CIOS of Koç, Acar, Kaliski, *Analyzing and Comparing Montgomery
//! Multiplication Algorithms*, IEEE Micro 1996, §5, run in each lane with its own modulus and
//! multiple y. Products are almost Montgomery multiplications (AMM: Gueron and Krasnov,
//! "Software implementation of modular exponentiation, using advanced vector instructions
//! architectures", WAIFI 2012): values stay below 2m, R = 2^(52n) >= 4m, and nothing is
//! subtracted until the end.
//!
//! The eight moduli may differ (each odd), also in length: n is the digit count of the longest,
//! and R = 2^(52n) serves every lane. The exponentiation is the constant-time fixed-window
//! scan ([`scan_lanes`]): one schedule for all lanes, each lane's digits choosing its own table
//! entries under masks, the exponents read over the longest one's length.
//!
//! Leaks: nothing but the lengths, `exp_bits` and `w` (constant time): no branch or memory
//! address depends on operand values or exponent bits. The variable-time form
//! ([`LanesCtx::pow_vartime`]) runs the same products but reads only the table entries the
//! digits name, so its memory addresses depend on the exponents.

use super::ifma::{digit52, limbs_of_digits};
use super::pow2_mod;
use crate::arith;
use crate::cpu::Tier;
use crate::limb::{neg_inv_newton, Limb};
use crate::scan::ct::{scan_lanes, CtEvent, CtTrace, LanesArith, NoTrace};
use crate::tuning::{IFMA_LANES_MAX_LIMBS, IFMA_LANES_MIN_LIMBS, IFMA_LANES_SQR_MIN_LIMBS};
use core::arch::x86_64::*;

/// Numbers per batch: the 64-bit lanes of a 512-bit vector.
pub(crate) const LANES: usize = 8;
const DIGIT_BITS: usize = 52;
const MASK52: u64 = (1 << DIGIT_BITS) - 1;
/// The most digits a number has: a modulus of [`IFMA_LANES_MAX_LIMBS`] limbs.
const MAX_DIGITS: usize = digits_for(IFMA_LANES_MAX_LIMBS);

/// The least digit count n with R = 2^(52n) >= 4 * 2^(64k) > 4m for a k-limb modulus.
const fn digits_for(k: usize) -> usize {
    (64 * k + 2).div_ceil(DIGIT_BITS)
}

/// Whether a k-limb modulus is a size the lanes serve.
pub(crate) fn serves(k: usize) -> bool {
    (IFMA_LANES_MIN_LIMBS..=IFMA_LANES_MAX_LIMBS).contains(&k)
}

/// Eight numbers of n digits, digit j of all eight in vector j (each digit < 2^52 between
/// products).
type Rows = Vec<__m512i>;

/// The rows of `x[0..8]` over n digits.
fn rows_of(x: [&[Limb]; LANES], n: usize) -> Rows {
    (0..n)
        .map(|j| vector(core::array::from_fn(|l| digit52(x[l], j))))
        .collect()
}

/// Eight u64 as one vector, lane l = `x[l]` (a plain reinterpretation: no instruction).
fn vector(x: [u64; LANES]) -> __m512i {
    // SAFETY: both types are 64 bytes of plain data, every bit pattern valid.
    unsafe { core::mem::transmute::<[u64; LANES], __m512i>(x) }
}

/// Digit j of lane l of `rows`.
fn lane_digit(rows: &[__m512i], l: usize, j: usize) -> u64 {
    // SAFETY: as in `vector`.
    let digits = unsafe { core::mem::transmute::<__m512i, [u64; LANES]>(rows[j]) };
    digits[l]
}

/// Digits handled per pass over the accumulator: CIOS steps in [`amm_lanes`] (each pass does
/// 4 * `STEPS` products per row it loads and stores), multiplier digits in [`square_rows`],
/// reduction steps in [`redc_rows`].
const STEPS: usize = 4;

/// Almost Montgomery products of eight pairs: lane l of `out` = a_l b_l R^{-1} mod m_l up to
/// one m_l, a value < 2m_l, as normalized digits. Preconditions: in every lane a, b < 2m with
/// digits < 2^52, m odd with digits < 2^52, 4m <= R = 2^(52n), `k0` = -m^{-1} mod 2^52; n rows
/// in `a`, `b`, `m`, `out`, [`STEPS`] <= n <= [`MAX_DIGITS`]; `t` is scratch of at least n
/// rows. Bound: (ab + ym)/R < 4m^2/R + m
/// <= 2m.
/// Leaks: nothing but n (constant time).
///
/// Step i adds b_i a + y_i m, y_i = t_0 k0 mod 2^52 chosen per lane to clear digit 0, and drops
/// that digit. The steps run [`STEPS`] at a time ([`steps`]; n mod [`STEPS`] one at a time
/// first), so that each pass over the accumulator does 4 [`STEPS`] products per row loaded and
/// stored. Rows accumulate unnormalized: each step adds four halves < 2^52 to a row and a row
/// lives at most n steps, so rows stay below 4n 2^52 + 2^12 < 2^61 for n <= 80; one carry
/// pass at the end normalizes.
///
/// # Safety
/// The CPU must support AVX-512F and AVX-512 IFMA.
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
unsafe fn amm_lanes(
    out: &mut [__m512i],
    a: &[__m512i],
    b: &[__m512i],
    m: &[__m512i],
    k0: __m512i,
    t: &mut [__m512i],
) {
    let n = m.len();
    debug_assert!((STEPS..=MAX_DIGITS).contains(&n));
    debug_assert!(a.len() == n && b.len() == n && out.len() == n);
    const { assert!(4 * digits_for(IFMA_LANES_MAX_LIMBS) < 1 << 9) };
    let t = &mut t[..n];
    t.fill(_mm512_setzero_si512());
    let (singles, groups) = b.split_at(n % STEPS);
    for &bi in singles {
        steps::<1>(t, a, &[bi], m, k0);
    }
    for bi in groups.chunks_exact(STEPS) {
        let bi: &[__m512i; STEPS] = bi.try_into().expect("chunks of STEPS");
        steps::<STEPS>(t, a, bi, m, k0);
    }
    normalize(out, t);
}

/// `out` = the unnormalized `rows` (each < 2^63) as digits < 2^52, by one carry pass. The
/// value must fit `out` (a result below 2m < R): nothing carries out of the top digit.
/// Leaks: nothing but the length.
#[inline]
#[target_feature(enable = "avx512f")]
fn normalize(out: &mut [__m512i], rows: &[__m512i]) {
    let mask = _mm512_set1_epi64(MASK52 as i64);
    let mut carry = _mm512_setzero_si512();
    for (o, &row) in out.iter_mut().zip(rows) {
        let x = _mm512_add_epi64(row, carry);
        *o = _mm512_and_si512(x, mask);
        carry = _mm512_srli_epi64::<52>(x);
    }
    debug_assert_eq!(_mm512_test_epi64_mask(carry, carry), 0);
}

/// R consecutive CIOS steps of [`amm_lanes`] in one pass: t = (t + sum_r 2^(52r) (b_r a +
/// y_r m)) / 2^(52R), each y_r clearing the lowest digit left in turn.
///
/// Step r adds the low halves of digit i's products (a_i b_r, y_r m_i) to position i + r and
/// the high halves to i + r + 1. Positions below R are summed first, in order, each giving its
/// y_r and its carry to the next; then position j >= R, with every step's products that land
/// on it, becomes row j - R. `t`, `a`, `m` have n >= R rows.
/// Leaks: nothing but n.
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
fn steps<const R: usize>(
    t: &mut [__m512i],
    a: &[__m512i],
    b: &[__m512i; R],
    m: &[__m512i],
    k0: __m512i,
) {
    let n = m.len();
    debug_assert!(n >= R && t.len() == n && a.len() == n);
    let zero = _mm512_setzero_si512();
    let mut y = [zero; R];
    let mut low: [__m512i; R] = core::array::from_fn(|p| t[p]);
    let mut carry = zero;
    for r in 0..R {
        let x = _mm512_madd52lo_epu64(_mm512_add_epi64(low[r], carry), a[0], b[r]);
        y[r] = _mm512_madd52lo_epu64(zero, x, k0);
        carry = _mm512_srli_epi64::<52>(_mm512_madd52lo_epu64(x, y[r], m[0]));
        for (p, row) in low.iter_mut().enumerate().skip(r + 1) {
            let i = p - r;
            *row = _mm512_madd52lo_epu64(*row, a[i], b[r]);
            *row = _mm512_madd52lo_epu64(*row, y[r], m[i]);
            *row = _mm512_madd52hi_epu64(*row, a[i - 1], b[r]);
            *row = _mm512_madd52hi_epu64(*row, y[r], m[i - 1]);
        }
    }
    // Position j >= R: one chain per step (latency), summed.
    for j in R..n {
        let mut sum = _mm512_add_epi64(t[j], carry);
        carry = zero;
        for r in 0..R {
            let mut x = _mm512_madd52lo_epu64(zero, a[j - r], b[r]);
            x = _mm512_madd52lo_epu64(x, y[r], m[j - r]);
            x = _mm512_madd52hi_epu64(x, a[j - r - 1], b[r]);
            x = _mm512_madd52hi_epu64(x, y[r], m[j - r - 1]);
            sum = _mm512_add_epi64(sum, x);
        }
        t[j - R] = sum;
    }
    // Positions n..n+R (empty before the steps; the carry lands on n when n = R).
    for p in n..n + R {
        let mut sum = carry;
        carry = zero;
        for r in 0..R {
            if p - r < n {
                sum = _mm512_madd52lo_epu64(sum, a[p - r], b[r]);
                sum = _mm512_madd52lo_epu64(sum, y[r], m[p - r]);
            }
            if p - r - 1 < n {
                sum = _mm512_madd52hi_epu64(sum, a[p - r - 1], b[r]);
                sum = _mm512_madd52hi_epu64(sum, y[r], m[p - r - 1]);
            }
        }
        t[p - R] = sum;
    }
}

/// Almost Montgomery squares of eight numbers: lane l of `out` = a_l^2 R^{-1} mod m_l up to
/// one m_l, a value < 2m_l, as normalized digits; the same value as [`amm_lanes`]`(a, a)` with
/// about 3n^2 multiply-adds instead of 4n^2. Preconditions as for [`amm_lanes`]; `t` is
/// scratch of 2n rows.
/// Leaks: nothing but n (constant time).
///
/// The square is separated from the reduction (the SOS of Koç, Acar, Kaliski 1996, §3):
/// [`square_rows`] computes each cross product once, then n reduction steps
/// ([`redc_rows`]) clear the low n digits. Rows stay unnormalized until the end: a row
/// takes < 2n 2^52 + 2^52 from the square and two halves < 2^52 from each of at most n steps,
/// < (4n + 1) 2^52 + 2^13 < 2^61 for n <= 80.
///
/// # Safety
/// The CPU must support AVX-512F and AVX-512 IFMA.
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
unsafe fn amm_sqr_lanes(
    out: &mut [__m512i],
    a: &[__m512i],
    m: &[__m512i],
    k0: __m512i,
    t: &mut [__m512i],
) {
    let n = m.len();
    debug_assert!((STEPS..=MAX_DIGITS).contains(&n));
    debug_assert!(a.len() == n && out.len() == n && t.len() == 2 * n);
    const { assert!(4 * digits_for(IFMA_LANES_MAX_LIMBS) + 1 < 1 << 9) };
    square_rows(t, a);
    redc_rows(t, m, k0);
    debug_assert!(rows_below(&t[n..], 1 << 61));
    normalize(out, &t[n..]);
}

/// Shifts `next` into a window of consecutive rows: afterwards `w[s]` is the row that was
/// `s` places before `next`. Written out element by element so that the window stays in
/// registers (a loop over the array kept it on the stack: 1.5x slower squares).
#[inline(always)]
fn shift_in(w: &mut [__m512i; STEPS + 1], next: __m512i) {
    const { assert!(STEPS == 4) };
    *w = [next, w[0], w[1], w[2], w[3]];
}

/// The sum over r of the low half of x_r w_r and the high half of x_r w_{r+1}: the products
/// of [`STEPS`] multiplier digits that land on one row, as independent chains.
#[inline(always)]
fn window_sum(x: &[__m512i; STEPS], w: &[__m512i; STEPS + 1]) -> __m512i {
    // SAFETY: AVX-512F and IFMA are enabled in every caller (the lanes' kernels).
    unsafe {
        let zero = _mm512_setzero_si512();
        let mut chains = [zero; STEPS];
        for r in 0..STEPS {
            let lo = _mm512_madd52lo_epu64(zero, x[r], w[r]);
            chains[r] = _mm512_madd52hi_epu64(lo, x[r], w[r + 1]);
        }
        sum_rows(chains)
    }
}

/// `t` (2n rows) = a^2 (n rows of digits < 2^52) as unnormalized rows, each < (2n + 1) 2^52:
/// the cross products a_i a_j, i < j, once each (low half on row i + j, high half on i + j +
/// 1), doubled, plus the diagonal squares. Leaks: nothing but n.
///
/// The cross products run [`STEPS`] multiplier digits a_i..a_{i+STEPS} per pass: first the
/// pairs inside that block, then every row q of the block's products with the digits a_j, j >=
/// i + STEPS, as one sum of [`STEPS`] independent chains. The partners of row q are the
/// consecutive digits a_{q-i-STEPS}..a_{q-i}, kept in registers as a sliding window, so each
/// row loads one new digit and loads and stores its accumulator once per 2 [`STEPS`]
/// multiply-adds (a pass over columns instead reads two digits per two multiply-adds). The
/// first and last [`STEPS`] rows of a pass have fewer partners and are summed apart.
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
fn square_rows(t: &mut [__m512i], a: &[__m512i]) {
    let n = a.len();
    debug_assert_eq!(t.len(), 2 * n);
    let zero = _mm512_setzero_si512();
    t.fill(zero);
    for i in (0..n).step_by(STEPS) {
        let ai: [__m512i; STEPS] = core::array::from_fn(|r| a.get(i + r).copied().unwrap_or(zero));
        // Pairs inside the block.
        for r in 0..STEPS {
            for s in r + 1..STEPS {
                if i + s < n {
                    let q = 2 * i + r + s;
                    t[q] = _mm512_madd52lo_epu64(t[q], ai[r], ai[s]);
                    t[q + 1] = _mm512_madd52hi_epu64(t[q + 1], ai[r], ai[s]);
                }
            }
        }
        // Row q gets the low halves of a_{i+r} a_{q-i-r} and the high halves of
        // a_{i+r} a_{q-i-r-1}, partners from a_{i+STEPS} up: w[s] = a_{q-i-s}, or zero outside
        // i + STEPS..n.
        let mut w = [zero; STEPS + 1];
        if i + 2 * STEPS <= n {
            // Rising edge: row 2i + STEPS + d has d + 1 low halves and d high halves. (The
            // arrays are indexed by constants only, here and below, so they stay in registers.)
            for d in 0..STEPS {
                let q = 2 * i + STEPS + d;
                shift_in(&mut w, a[q - i]);
                let mut sum = t[q];
                for r in 0..STEPS {
                    if r <= d {
                        sum = _mm512_madd52lo_epu64(sum, ai[r], w[r]);
                    }
                    if r < d {
                        sum = _mm512_madd52hi_epu64(sum, ai[r], w[r + 1]);
                    }
                }
                t[q] = sum;
            }
            for q in 2 * i + 2 * STEPS..i + n {
                shift_in(&mut w, a[q - i]);
                t[q] = _mm512_add_epi64(t[q], window_sum(&ai, &w));
            }
            // Falling edge: row i + n + d (< 2n, as n - i >= 2 STEPS) has the low halves of
            // rows r > d and the high halves of rows r >= d.
            for d in 0..STEPS {
                let q = i + n + d;
                shift_in(&mut w, zero);
                let mut sum = t[q];
                for r in 0..STEPS {
                    if r > d {
                        sum = _mm512_madd52lo_epu64(sum, ai[r], w[r]);
                    }
                    if r >= d {
                        sum = _mm512_madd52hi_epu64(sum, ai[r], w[r + 1]);
                    }
                }
                t[q] = sum;
            }
        } else if i + STEPS < n {
            // The last blocks, fewer than 2 STEPS digits from the top: the same sums with the
            // window's missing partners zero.
            for q in 2 * i + STEPS..(i + n + STEPS).min(2 * n) {
                shift_in(&mut w, a.get(q - i).copied().unwrap_or(zero));
                t[q] = _mm512_add_epi64(t[q], window_sum(&ai, &w));
            }
        }
    }
    // Double the cross products and add the diagonal halves: a_{p/2}^2 low on even p, high
    // on odd p.
    for (p, row) in t.iter_mut().enumerate() {
        let doubled = _mm512_add_epi64(*row, *row);
        let d = a[p / 2];
        *row = if p % 2 == 0 {
            _mm512_madd52lo_epu64(doubled, d, d)
        } else {
            _mm512_madd52hi_epu64(doubled, d, d)
        };
    }
    debug_assert!(rows_below(t, (2 * n as u64 + 1) << DIGIT_BITS));
}

/// Whether every lane of every row is below `bound` (the carry bounds' debug checks).
fn rows_below(rows: &[__m512i], bound: u64) -> bool {
    (0..rows.len()).all(|j| (0..LANES).all(|l| lane_digit(rows, l, j) < bound))
}

/// The lane-wise sum of a few rows.
#[inline(always)]
fn sum_rows<const C: usize>(rows: [__m512i; C]) -> __m512i {
    // SAFETY: AVX-512F is enabled in every caller (the lanes' kernels).
    rows.into_iter()
        .reduce(|x, y| unsafe { _mm512_add_epi64(x, y) })
        .unwrap_or(unsafe { _mm512_setzero_si512() })
}

/// The n Montgomery reduction steps of [`amm_sqr_lanes`] on `t` (2n unnormalized rows):
/// afterwards rows n..2n hold (t + Y m) / R, Y < R the multiple that clears the low n digits
/// (rows below n are left with values that are multiples of 2^52 carried on).
/// Leaks: nothing but n.
///
/// n mod [`STEPS`] single steps first, then passes of [`STEPS`] steps: the pass at i picks
/// its multiples y_r ([`redc_multiples`], a serial chain through the low rows) and adds y_r
/// m 2^(52(i+r)) to rows i + STEPS..i + n + STEPS. Each pass finishes the rows the next pass
/// picks its multiples from before anything else, and picks them right away, so the next
/// chain's latency overlaps this pass's bulk; the bulk keeps the modulus digits
/// m_{j-STEPS}..m_j of row j in a sliding window.
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
fn redc_rows(t: &mut [__m512i], m: &[__m512i], k0: __m512i) {
    let n = m.len();
    debug_assert!(n >= STEPS && t.len() == 2 * n);
    let zero = _mm512_setzero_si512();
    let singles = n % STEPS;
    for i in 0..singles {
        redc_step(&mut t[i..], m, k0);
    }
    let low = |t: &[__m512i]| core::array::from_fn(|p| t[p]);
    let (mut y, mut carry) = redc_multiples(low(&t[singles..]), m, k0);
    for i in (singles..n).step_by(STEPS) {
        let t = &mut t[i..i + n + STEPS];
        // Row j gets the low halves of y_r m_{j-r} and the high halves of y_r m_{j-r-1}.
        let edge_row = |t: &[__m512i], y: &[__m512i; STEPS], j: usize| {
            let mut sum = t[j];
            for (r, &yr) in y.iter().enumerate() {
                if let Some(&mj) = m.get(j - r) {
                    sum = _mm512_madd52lo_epu64(sum, yr, mj);
                }
                if let Some(&mj) = m.get(j - r - 1) {
                    sum = _mm512_madd52hi_epu64(sum, yr, mj);
                }
            }
            sum
        };
        for j in STEPS..2 * STEPS {
            t[j] = edge_row(t, &y, j);
        }
        t[STEPS] = _mm512_add_epi64(t[STEPS], carry);
        let (next_y, next_carry) = if i + STEPS < n {
            redc_multiples(low(&t[STEPS..]), m, k0)
        } else {
            ([zero; STEPS], zero)
        };
        let mut w: [__m512i; STEPS + 1] =
            core::array::from_fn(|s| m.get(2 * STEPS - 1 - s).copied().unwrap_or(zero));
        for j in 2 * STEPS..n {
            shift_in(&mut w, m[j]);
            t[j] = _mm512_add_epi64(t[j], window_sum(&y, &w));
        }
        for j in n.max(2 * STEPS)..n + STEPS {
            t[j] = edge_row(t, &y, j);
        }
        (y, carry) = (next_y, next_carry);
    }
}

/// The multiples of one pass of [`redc_rows`]: from its low rows `low` (t_i..t_{i+STEPS}),
/// y_r = (t_{i+r} + the carries and products of the steps before r) k0 mod 2^52 per lane,
/// each clearing its digit, and the carry out of the last, which belongs on row i + STEPS.
/// Leaks: nothing.
#[inline(always)]
fn redc_multiples(
    mut low: [__m512i; STEPS],
    m: &[__m512i],
    k0: __m512i,
) -> ([__m512i; STEPS], __m512i) {
    // SAFETY: AVX-512F and IFMA are enabled in the only caller, `redc_rows`.
    unsafe {
        let zero = _mm512_setzero_si512();
        let mut y = [zero; STEPS];
        let mut carry = zero;
        for r in 0..STEPS {
            let x = _mm512_add_epi64(low[r], carry);
            y[r] = _mm512_madd52lo_epu64(zero, x, k0);
            carry = _mm512_srli_epi64::<52>(_mm512_madd52lo_epu64(x, y[r], m[0]));
            for p in r + 1..STEPS {
                low[p] = _mm512_madd52lo_epu64(low[p], y[r], m[p - r]);
                low[p] = _mm512_madd52hi_epu64(low[p], y[r], m[p - r - 1]);
            }
        }
        (y, carry)
    }
}

/// One Montgomery reduction step: t_0 is cleared by adding y m, y = t_0 k0 mod 2^52 per lane,
/// and its carry goes onto row 1 (rows 1..=n change). `t` has at least n + 1 rows.
/// Leaks: nothing but n.
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
fn redc_step(t: &mut [__m512i], m: &[__m512i], k0: __m512i) {
    let n = m.len();
    debug_assert!(t.len() > n);
    let y = _mm512_madd52lo_epu64(_mm512_setzero_si512(), t[0], k0);
    let carry = _mm512_srli_epi64::<52>(_mm512_madd52lo_epu64(t[0], y, m[0]));
    for j in 1..n {
        let lo = _mm512_madd52lo_epu64(t[j], y, m[j]);
        t[j] = _mm512_madd52hi_epu64(lo, y, m[j - 1]);
    }
    t[n] = _mm512_madd52hi_epu64(t[n], y, m[n - 1]);
    t[1] = _mm512_add_epi64(t[1], carry);
}

/// `out` lane l = lane l of `table[d[l]]` for every l, in constant time: every entry is read
/// whole and merged under the mask of the lanes whose index it is.
/// Leaks: the table's length and n only.
///
/// # Safety
/// The CPU must support AVX-512F.
#[inline]
#[target_feature(enable = "avx512f")]
unsafe fn select_lanes(out: &mut [__m512i], table: &[Rows], d: [usize; LANES]) {
    let want = vector(d.map(|d| d as u64));
    out.fill(_mm512_setzero_si512());
    for (i, entry) in table.iter().enumerate() {
        let hit = _mm512_cmpeq_epi64_mask(want, _mm512_set1_epi64(i as i64));
        for (o, &row) in out.iter_mut().zip(entry) {
            *o = _mm512_mask_mov_epi64(*o, hit, row);
        }
    }
}

/// [`select_lanes`] reading only the entries the lanes ask for: one masked pass over the rows
/// of each distinct digit (at most eight entries instead of the whole table).
/// Leaks: the digits `d` (which entries are read): variable time.
///
/// # Safety
/// The CPU must support AVX-512F.
#[inline]
#[target_feature(enable = "avx512f")]
unsafe fn select_lanes_vartime(out: &mut [__m512i], table: &[Rows], d: [usize; LANES]) {
    let mut filled = 0u8;
    for &v in &d {
        let hit = (0..LANES).fold(0u8, |h, l| h | u8::from(d[l] == v) << l);
        if filled & hit != 0 {
            continue; // an earlier lane with the same digit copied this entry
        }
        filled |= hit;
        for (o, &row) in out.iter_mut().zip(&table[v]) {
            *o = _mm512_mask_mov_epi64(*o, hit, row);
        }
    }
    debug_assert_eq!(filled, u8::MAX);
}

/// The [`LanesArith`] of the scan: eight AMM residues (< 2m each).
struct LanesAmm<'a> {
    m: &'a [__m512i],
    k0: __m512i,
    /// Whether the table is read by [`select_lanes_vartime`] (only the entries the digits
    /// name) instead of the constant-time [`select_lanes`].
    vartime: bool,
    /// The result before it replaces the operand (n rows).
    scratch: Rows,
    /// The accumulator of the products (2n rows).
    wide: Rows,
}

impl LanesArith<LANES> for LanesAmm<'_> {
    type Elem = Rows;
    #[inline]
    fn sqr_lanes(&mut self, a: &mut Rows) {
        // SAFETY: LanesAmm is only built by `LanesCtx::pow_ct`, which runs on the IFMA tier.
        unsafe {
            if self.m.len() >= digits_for(IFMA_LANES_SQR_MIN_LIMBS) {
                amm_sqr_lanes(&mut self.scratch, a, self.m, self.k0, &mut self.wide);
            } else {
                amm_lanes(&mut self.scratch, a, a, self.m, self.k0, &mut self.wide);
            }
        }
        core::mem::swap(a, &mut self.scratch);
    }
    #[inline]
    fn mul_lanes(&mut self, a: &mut Rows, b: &Rows) {
        // SAFETY: as above.
        unsafe { amm_lanes(&mut self.scratch, a, b, self.m, self.k0, &mut self.wide) };
        core::mem::swap(a, &mut self.scratch);
    }
    #[inline]
    fn select_lanes(&mut self, out: &mut Rows, table: &[Rows], d: [usize; LANES]) {
        // SAFETY: as above (AVX-512F).
        unsafe {
            if self.vartime {
                select_lanes_vartime(out, table, d)
            } else {
                select_lanes(out, table, d)
            }
        }
    }
}

/// The constants of eight odd moduli for [`LanesCtx::pow_ct`], computed once: their rows,
/// -m^{-1} mod 2^52 and R^2 mod m of each, R = 2^(52n).
#[derive(Clone, Debug)]
pub(crate) struct LanesCtx {
    m: [Vec<Limb>; LANES],
    m_rows: Rows,
    rr_rows: Rows,
    k0: __m512i,
}

impl LanesCtx {
    /// The constants for the odd, trimmed moduli `m` on `tier`, or `None` below
    /// [`Tier::Ifma`], for an even or empty modulus, or for a length the lanes do not serve
    /// ([`serves`]).
    /// Leaks: the moduli (divisions) and which lanes share one.
    pub(crate) fn new(m: [&[Limb]; LANES], tier: Tier) -> Option<Self> {
        let ok = |m: &[Limb]| serves(m.len()) && m[0] & 1 == 1 && m.last() != Some(&0);
        if crate::cpu::cap(tier) < Tier::Ifma || !m.iter().all(|m| ok(m)) {
            return None;
        }
        let n = digits_for(m.iter().map(|m| m.len()).max().unwrap_or(0));
        // One division per distinct modulus (a batch over one modulus fills all eight lanes).
        let mut rr: [Vec<Limb>; LANES] = Default::default();
        for l in 0..LANES {
            rr[l] = match (0..l).find(|&j| m[j] == m[l]) {
                Some(j) => rr[j].clone(),
                None => pow2_mod(2 * DIGIT_BITS * n, m[l]),
            };
        }
        let k0 = m.map(|m| neg_inv_newton(m[0]) & MASK52);
        Some(Self {
            m: m.map(<[Limb]>::to_vec),
            m_rows: rows_of(m, n),
            rr_rows: rows_of(core::array::from_fn(|l| &rr[l][..]), n),
            k0: vector(k0),
        })
    }

    /// `base[l]^exp[l] mod m[l]` for the eight lanes by the constant-time scan ([`scan_lanes`],
    /// `w`-bit digits over `exp_bits`, which must cover every exponent), with `base[l] < m[l]`.
    /// Results `< m[l]`, of m[l]'s length.
    /// Leaks: nothing but the lengths, `exp_bits` and `w` (constant time).
    pub(crate) fn pow_ct<T: CtTrace>(
        &self,
        base: [&[Limb]; LANES],
        exp: [&[Limb]; LANES],
        exp_bits: usize,
        w: usize,
        trace: &mut T,
    ) -> [Vec<Limb>; LANES] {
        // SAFETY: a LanesCtx exists only on the IFMA tier (AVX-512F and IFMA).
        unsafe { self.pow_ifma(base, exp, exp_bits, w, false, trace) }
    }

    /// [`Self::pow_ct`] whose scan reads only the table entries the exponents' digits name
    /// ([`select_lanes_vartime`]); the same schedule of products otherwise.
    /// Leaks: the exponents' digits (memory addresses), the lengths, `exp_bits` and `w`.
    pub(crate) fn pow_vartime(
        &self,
        base: [&[Limb]; LANES],
        exp: [&[Limb]; LANES],
        exp_bits: usize,
        w: usize,
    ) -> [Vec<Limb>; LANES] {
        // SAFETY: as in `pow_ct`.
        unsafe { self.pow_ifma(base, exp, exp_bits, w, true, &mut NoTrace) }
    }

    /// [`Self::pow_ct`] (or [`Self::pow_vartime`] if `vartime`) with the target features
    /// enabled.
    ///
    /// # Safety
    /// The CPU must support AVX-512F and AVX-512 IFMA.
    #[target_feature(enable = "avx512f,avx512ifma")]
    unsafe fn pow_ifma<T: CtTrace>(
        &self,
        base: [&[Limb]; LANES],
        exp: [&[Limb]; LANES],
        exp_bits: usize,
        w: usize,
        vartime: bool,
        trace: &mut T,
    ) -> [Vec<Limb>; LANES] {
        debug_assert!(exp.iter().all(|e| arith::bit_len(e) <= exp_bits));
        debug_assert!((0..LANES).all(|l| arith::cmp(base[l], &self.m[l]).is_lt()));
        let n = self.m_rows.len();
        let mut ar = LanesAmm {
            m: &self.m_rows,
            k0: self.k0,
            vartime,
            scratch: vec![_mm512_setzero_si512(); n],
            wide: vec![_mm512_setzero_si512(); 2 * n],
        };
        let mut unit = vec![_mm512_setzero_si512(); n];
        unit[0] = _mm512_set1_epi64(1);
        let mut g = rows_of(base, n);
        trace.event(CtEvent::ToRepr);
        ar.mul_lanes(&mut g, &self.rr_rows);
        let mut one = self.rr_rows.clone();
        ar.mul_lanes(&mut one, &unit);
        let mut acc = scan_lanes(&mut ar, one, g, exp, exp_bits, w, trace);
        trace.event(CtEvent::FromRepr);
        // (acc + y m) / R <= m for acc < 2m: one masked subtraction finishes.
        ar.mul_lanes(&mut acc, &unit);
        core::array::from_fn(|l| {
            let m = &self.m[l];
            let x = limbs_of_digits(m.len(), n, |j| lane_digit(&acc, l, j));
            let mut out = vec![0; m.len()];
            arith::sub_mod_final(&mut out, &x, 0, m);
            out
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::natural::Natural;
    use num_bigint::BigUint;

    fn big(x: &[Limb]) -> BigUint {
        Natural::from_slice(x).to_biguint()
    }

    /// A deterministic stream of test words.
    fn xorshift(mut state: u64) -> impl FnMut() -> u64 {
        move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        }
    }

    fn limbs(x: &BigUint, k: usize) -> Vec<Limb> {
        let mut v = x.to_u64_digits();
        v.resize(k, 0);
        v
    }

    /// Eight lanes against num-bigint for every served length (the lanes' lengths mixed, the
    /// longest setting n), with bases 0, 1, m - 1 and random, exponents 0, 1, short, and of
    /// the longest length (so lanes share digits), and two lanes sharing a modulus; the
    /// constant-time and the variable-time table reads.
    #[test]
    fn pow_ct_matches_num_bigint() {
        if crate::cpu::detected() < Tier::Ifma {
            eprintln!("skipped: no AVX-512 IFMA on this CPU");
            return;
        }
        let mut rnd = xorshift(0x9e37_79b9_7f4a_7c15u64);
        for k in (IFMA_LANES_MIN_LIMBS..=IFMA_LANES_MAX_LIMBS)
            .step_by(5)
            .chain([IFMA_LANES_MAX_LIMBS])
        {
            let lens: [usize; LANES] = core::array::from_fn(|l| {
                if l % 3 == 0 {
                    k
                } else {
                    (k - l % 3).max(IFMA_LANES_MIN_LIMBS)
                }
            });
            let mut m: [Vec<Limb>; LANES] = lens.map(|len| {
                let mut m: Vec<Limb> = (0..len).map(|_| rnd()).collect();
                m[0] |= 1;
                m[len - 1] |= 1 << 63;
                m
            });
            m[5] = m[4].clone();
            m[7] = vec![u64::MAX; lens[7]]; // all ones
            let lens = m.each_ref().map(Vec::len);
            let base: [Vec<Limb>; LANES] = core::array::from_fn(|l| match l {
                0 => vec![0],
                1 => vec![1],
                2 => {
                    let mut b = m[2].clone();
                    b[0] -= 1;
                    b
                }
                _ => {
                    let mut b: Vec<Limb> = (0..lens[l]).map(|_| rnd()).collect();
                    b[lens[l] - 1] >>= 1; // below m (top bit of m set)
                    b
                }
            });
            let exp: [Vec<Limb>; LANES] = core::array::from_fn(|l| match l {
                3 => vec![0],
                4 => vec![1],
                6 => vec![rnd() >> 40],
                _ => (0..k).map(|_| rnd()).collect(),
            });
            let ctx = LanesCtx::new(core::array::from_fn(|l| &m[l][..]), Tier::Ifma).unwrap();
            let bits = 64 * k;
            let w = crate::tuning::ct_window_bits(bits);
            let (b, e) = (
                core::array::from_fn(|l| &base[l][..]),
                core::array::from_fn(|l| &exp[l][..]),
            );
            let ct = ctx.pow_ct(b, e, bits, w, &mut NoTrace);
            let vartime = ctx.pow_vartime(b, e, bits, w);
            for l in 0..LANES {
                let want = limbs(&big(&base[l]).modpow(&big(&exp[l]), &big(&m[l])), lens[l]);
                assert_eq!(ct[l], want, "k {k} lane {l}");
                assert_eq!(vartime[l], want, "k {k} lane {l} (vartime)");
            }
        }
    }

    /// The schedule (products, table scans) depends on the lengths, `exp_bits` and `w` only:
    /// two batches with different moduli, bases and exponents (zero, one, all ones) of the same
    /// lengths give the same trace, with every table entry scanned at every digit.
    #[test]
    fn schedule_ignores_the_values() {
        if crate::cpu::detected() < Tier::Ifma {
            eprintln!("skipped: no AVX-512 IFMA on this CPU");
            return;
        }
        let k = 16;
        let (bits, w) = (64 * k, 5);
        let trace = |seed: u64| {
            let m: [Vec<Limb>; LANES] = core::array::from_fn(|l| {
                (0..k as u64)
                    .map(|i| ((seed + l as u64) * 0x9e37_79b9 + i * 7) | (1 << 63) | 1)
                    .collect()
            });
            let base: [Vec<Limb>; LANES] = core::array::from_fn(|l| vec![seed ^ l as u64; k - 1]);
            let exp: [Vec<Limb>; LANES] = core::array::from_fn(|l| match (l + seed as usize) % 3 {
                0 => vec![0],
                1 => vec![1],
                _ => vec![u64::MAX; k],
            });
            let ctx = LanesCtx::new(core::array::from_fn(|l| &m[l][..]), Tier::Ifma).unwrap();
            let mut events: Vec<CtEvent> = Vec::new();
            ctx.pow_ct(
                core::array::from_fn(|l| &base[l][..]),
                core::array::from_fn(|l| &exp[l][..]),
                bits,
                w,
                &mut events,
            );
            events
        };
        let (a, b) = (trace(1), trace(2));
        assert_eq!(a, b);
        let scans = a.iter().filter(|e| matches!(e, CtEvent::Scan(_))).count();
        assert_eq!(scans, bits.div_ceil(w) << w);
    }

    /// The square equals the product of a number with itself (both are (a^2 + Y m) / R with
    /// the one Y < R that clears the low n digits), for every digit count n mod [`STEPS`],
    /// random values below 2m and all-ones digits, and the product is a^2 R^{-1} mod m by
    /// num-bigint.
    #[test]
    fn square_matches_product() {
        if crate::cpu::detected() < Tier::Ifma {
            eprintln!("skipped: no AVX-512 IFMA on this CPU");
            return;
        }
        let mut rnd = xorshift(0x2545_f491_4f6c_dd1du64);
        for k in [8, 9, 10, 11, 12, 13, 14, 15, 16, 24, 25, 33, 63, 64] {
            let n = digits_for(k);
            let m: [Vec<Limb>; LANES] = core::array::from_fn(|l| {
                let mut m: Vec<Limb> = (0..k).map(|_| rnd()).collect();
                m[0] |= 1;
                m[k - 1] |= 1 << 63;
                if l == 7 {
                    m.fill(u64::MAX);
                }
                m
            });
            // a < 2m: m - 1 + m in lane 0, all ones below 2^(64k) in lane 1, random below.
            let a: [Vec<Limb>; LANES] = core::array::from_fn(|l| {
                let mut a = match l {
                    0 => limbs(&(big(&m[0]) * 2u32 - 1u32), k + 1),
                    1 => vec![u64::MAX; k],
                    _ => (0..k).map(|_| rnd()).collect(),
                };
                a.resize(k + 1, 0);
                a
            });
            let rows = |x: &[Vec<Limb>; LANES]| rows_of(core::array::from_fn(|l| &x[l][..]), n);
            let (a_rows, m_rows) = (rows(&a), rows(&m));
            let k0 = vector(m.each_ref().map(|m| neg_inv_newton(m[0]) & MASK52));
            let mut square = vec![vector([0; LANES]); n];
            let mut product = square.clone();
            // SAFETY: the CPU has IFMA (checked above).
            unsafe {
                let mut t = vec![vector([0; LANES]); 2 * n];
                amm_sqr_lanes(&mut square, &a_rows, &m_rows, k0, &mut t);
                amm_lanes(&mut product, &a_rows, &a_rows, &m_rows, k0, &mut t);
            }
            for l in 0..LANES {
                let got = limbs_of_digits(k + 1, n, |j| lane_digit(&square, l, j));
                let want = limbs_of_digits(k + 1, n, |j| lane_digit(&product, l, j));
                assert_eq!(got, want, "k {k} lane {l}");
                let (ml, r) = (big(&m[l]), BigUint::from(1u32) << (52 * n));
                let r_inv = r.modinv(&ml).unwrap();
                let expect = big(&a[l]).pow(2) * r_inv % &ml;
                assert_eq!(big(&got) % &ml, expect, "k {k} lane {l}");
                assert!(big(&got) < 2u32 * ml, "k {k} lane {l}");
            }
        }
    }

    /// Sizes and moduli the lanes refuse.
    #[test]
    fn refuses_what_it_does_not_serve() {
        let odd = vec![3u64; IFMA_LANES_MIN_LIMBS];
        let mut even = odd.clone();
        even[0] = 4;
        let short = vec![3u64; IFMA_LANES_MIN_LIMBS - 1];
        let long = vec![3u64; IFMA_LANES_MAX_LIMBS + 1];
        for bad in [&even, &short, &long] {
            let mut m: [&[Limb]; LANES] = [&odd; LANES];
            m[6] = bad;
            assert!(LanesCtx::new(m, Tier::Ifma).is_none());
        }
        assert!(LanesCtx::new([&odd; LANES], Tier::Adx).is_none());
    }
}
