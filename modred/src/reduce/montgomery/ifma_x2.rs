//! Two constant-time exponentiations modulo two odd moduli in one pass on AVX-512 IFMA (beyond
//! the source papers): the CRT halves of an RSA private-key operation run side by side.
//!
//! Both numbers live in one set of 512-bit registers, four radix-2^52 digits of each per
//! vector: vector v holds digits 4v..4v+3 of the first number in its low 256 bits and the same
//! digits of the second in its high 256 bits (the layout of OpenSSL's `rsaz-2k-avx512` x2 code,
//! written here from the algorithm, not from that code), so every instruction works on both.
//! Each product is an almost Montgomery multiplication (AMM) as in [`super::ifma`] (Gueron and
//! Krasnov, "Software implementation of modular exponentiation, using advanced vector
//! instructions architectures", WAIFI 2012; the word-serial loop is the CIOS of Koç, Acar,
//! Kaliski, *Analyzing and Comparing Montgomery Multiplication Algorithms*, IEEE Micro 1996,
//! §5): values stay below 2m, R = 2^(52n) >= 4m. Unlike [`super::ifma`], each step's multiple y
//! of m is computed in the vectors too ([`mont_step`]), for both numbers by one product: with
//! two numbers per register the loop is bound by vector throughput, and scalar digit chains
//! (two numbers' worth of 64-bit products and carries) measured slower.
//!
//! Measured on Zen 4 (2 vCPUs, one run, medians of interleaved runs): a paired 1024-bit
//! exponentiation (V = 5, full-length exponents) took 146 us against 270 us for two single
//! `pow_ct` passes on [`super::ifma`] (0.54x); 1536 bits 509 against 1160 us (0.44x), 2048 bits
//! 1291 against 2135 us (0.60x). Other layouts tried: digits of the two numbers interleaved
//! lane by lane (a shift is one `valignq`, a broadcast one `vshufi64x2`): 11% slower; y from
//! scalar digit chains: 1.4x slower.
//!
//! Squarings ([`ams_x2`]) compute each cross product a_i a_j (i < j) once, as a_i times the
//! digits of 2a (the almost Montgomery squaring of Drucker and Gueron, "Fast modular squaring
//! with AVX512IFMA", ITNG 2019, in its interleaved (CIOS) form).
//!
//! Both moduli must give the same vector count; they may differ in length otherwise (the loop
//! runs n = the larger digit count for both, R = 2^(52n) serving each).
//!
//! Leaks: nothing but the lengths (constant time): no branch and no memory address depends on
//! operand values, the exponents' bits or the table indices (the selection reads every entry
//! and merges under AVX-512 masks).

use super::ifma::{digit52, limbs_of_digits};
use super::pow2_mod;
use crate::arith;
use crate::cpu::Tier;
use crate::limb::{neg_inv_newton, Limb};
use crate::scan::ct::{scan_lanes, CtTrace, LanesArith};
use core::arch::x86_64::*;

const DIGIT_BITS: usize = 52;
const MASK52: u64 = (1 << DIGIT_BITS) - 1;
/// Digits of one number per vector.
const HALF: usize = 4;

/// Largest vector count served: 10 vectors of 4 digits per number, moduli of up to 32 limbs
/// (the CRT halves of RSA-2048, -3072 and -4096).
pub(crate) const MAX_VECTORS: usize = 10;

/// The digit count n and vector count V for a k-limb modulus: R = 2^(52 n) >= 4 * 2^(64 k).
fn digits_for(k: usize) -> (usize, usize) {
    let n = (64 * k + 2).div_ceil(DIGIT_BITS);
    (n, n.div_ceil(HALF))
}

/// Two numbers' digits, 4V each; vector v = [first: digits 4v..4v+3, second: digits 4v..4v+3].
#[derive(Clone, Copy, Debug)]
#[repr(C, align(64))]
pub(crate) struct Pair<const V: usize>([[u64; 2 * HALF]; V]);

impl<const V: usize> AsRef<[u64]> for Pair<V> {
    fn as_ref(&self) -> &[u64] {
        self.0.as_flattened()
    }
}

impl<const V: usize> AsMut<[u64]> for Pair<V> {
    fn as_mut(&mut self) -> &mut [u64] {
        self.0.as_flattened_mut()
    }
}

impl<const V: usize> Pair<V> {
    const ZERO: Self = Self([[0; 2 * HALF]; V]);

    /// Digit i of number `which` (0 or 1).
    fn digit(&self, which: usize, i: usize) -> u64 {
        self.0[i / HALF][HALF * which + i % HALF]
    }

    fn digit_mut(&mut self, which: usize, i: usize) -> &mut u64 {
        &mut self.0[i / HALF][HALF * which + i % HALF]
    }

    /// The digits of `x[0]` and `x[1]`, each `< 2^(52 * 4V)`.
    fn from_limbs(x: [&[Limb]; 2]) -> Self {
        let mut d = Self::ZERO;
        for (which, x) in x.into_iter().enumerate() {
            debug_assert!(arith::bit_len(x) <= DIGIT_BITS * HALF * V);
            for i in 0..HALF * V {
                *d.digit_mut(which, i) = digit52(x, i);
            }
        }
        d
    }

    /// Number `which` as k limbs (normalized digits; the value must fit).
    fn limbs(&self, which: usize, k: usize) -> Vec<Limb> {
        limbs_of_digits(k, HALF * V, |i| self.digit(which, i))
    }

    /// Carries every digit of both numbers below 2^52 (little-endian within each number): the
    /// scalar reference of [`finish`], which debug builds check against it.
    /// Leaks: nothing (a fixed sequence of shifts and adds).
    #[cfg(debug_assertions)]
    fn normalize(&mut self) {
        for which in 0..2 {
            let mut carry = 0;
            for i in 0..HALF * V {
                let s = self.digit(which, i) + carry;
                *self.digit_mut(which, i) = s & MASK52;
                carry = s >> DIGIT_BITS;
            }
            debug_assert_eq!(carry, 0, "AMM result must stay below R");
        }
    }
}

/// [x0 in the low four lanes, x1 in the high four].
#[inline(always)]
fn split_broadcast(x: [u64; 2]) -> __m512i {
    // SAFETY: AVX-512F (every caller runs under it).
    unsafe { _mm512_mask_set1_epi64(_mm512_set1_epi64(x[0] as i64), 0xF0, x[1] as i64) }
}

/// Lane `l` (0..=3) over the low half, lane `l + 4` over the high half (digit l of the vector,
/// of each number). `l` is a constant after unrolling, so this is one `vpermq` with an immediate.
#[inline(always)]
fn broadcast_lane(x: __m512i, l: usize) -> __m512i {
    // SAFETY: AVX-512F (every caller runs under it); vpermq with an immediate works within
    // each 256-bit half.
    unsafe {
        match l {
            0 => _mm512_permutex_epi64::<0x00>(x),
            1 => _mm512_permutex_epi64::<0x55>(x),
            2 => _mm512_permutex_epi64::<0xAA>(x),
            _ => _mm512_permutex_epi64::<0xFF>(x),
        }
    }
}

/// Both numbers shifted down one digit: lanes 1..3 of `x` and lane 0 of `above` in the low
/// half, lanes 5..7 of `x` and lane 4 of `above` in the high half.
#[inline(always)]
fn shift_down(x: __m512i, above: __m512i) -> __m512i {
    // SAFETY: AVX-512F (every caller runs under it). Index bit 3 picks `above`.
    unsafe { _mm512_permutex2var_epi64(x, _mm512_set_epi64(12, 7, 6, 5, 8, 3, 2, 1), above) }
}

/// Both numbers shifted up one digit: lanes 0..2 of `x` and lane 3 of `below` in the low half
/// (lane 0 from `below`), lanes 4..6 of `x` and lane 7 of `below` in the high half.
#[inline(always)]
fn shift_up(x: __m512i, below: __m512i) -> __m512i {
    // SAFETY: AVX-512F (every caller runs under it). Index bit 3 picks `below`.
    unsafe { _mm512_permutex2var_epi64(x, _mm512_set_epi64(6, 5, 4, 15, 2, 1, 0, 11), below) }
}

/// `p`, through an empty `asm!` the optimizer cannot see into: loads through the result are
/// not hoisted out of the loop that calls this. At V > 6 the vectors of `a` and `m` do not fit
/// the 32 registers beside the accumulator; hoisted, LLVM spills and reloads them with extra
/// moves (V = 10: 310 ns against 266 ns per product), where loads folded into the products cost
/// nothing.
#[inline(always)]
fn reload<const V: usize>(p: &Pair<V>) -> &Pair<V> {
    if V <= 6 {
        return p;
    }
    let mut q: *const Pair<V> = p;
    // SAFETY: the asm is empty (it only claims to change the register holding q, which keeps
    // its value), so q is still p. It reads no memory: `nomem` is right, and the pointer is
    // passed only to hide its value.
    #[allow(clippy::pointers_in_nomem_asm_block)]
    unsafe {
        core::arch::asm!("/* {0} */", inout(reg) q, options(nomem, nostack, preserves_flags));
        &*q
    }
}

/// One iteration of the Montgomery loop for both numbers, entirely in vectors, given this
/// iteration's `y` (y = x_0 k0 mod 2^52 after the row, per number, over its half): x += row,
/// x += y m, then the shift down one digit; returns the next iteration's y. The row is
/// `rows[v] * mult` for the vectors from `FROM` on (the ones below get nothing); lows go in
/// before the shift, highs (one digit up) after it.
///
/// The next y comes from the values before the shift, so the shift stays off the loop-carried
/// chain: the new digit 0 is lane 1 of x (after the products) plus lane 0 of the highs, so
/// y' = `ypart` + (that sum) k0 mod 2^52, `ypart` being the next row's digit-0 share (row_0 k0,
/// from the caller; only y's low 52 bits matter, as IFMA reads 52 bits of each factor). The
/// bits of lane 0 above 52 (its low 52 are zero by the choice of y) carry into the new digit 0,
/// and that carry is known before y: lo(y m_0) = -x_0 mod 2^52, so x_0 + lo(y m_0) =
/// 2^52 ((x_0 >> 52) + [x_0 mod 2^52 != 0]) and the carry is (x_0 + 2^52 - 1) >> 52. The chain
/// from y to y' is four products' latency: y m, two broadcasts, one addition and y' (about 13
/// cycles on Zen 4, below the iteration's throughput cost at every V).
///
/// Lanes accumulate unnormalized: an iteration adds at most four 52-bit halves and a carry
/// below 2^10 to a lane, so after n <= 40 iterations a lane stays below 2^60, and every sum
/// formed here below 2^62 (lanes must stay below 2^64; 2^63 is the stated margin).
///
/// # Safety
/// The CPU must support AVX-512F and AVX-512 IFMA.
#[inline(always)]
unsafe fn mont_step<const V: usize, const FROM: usize>(
    x: &mut [__m512i; V],
    y: __m512i,
    rows: &[__m512i; V],
    mult: __m512i,
    m: &Pair<V>,
    k0: __m512i,
    ypart: __m512i,
) -> __m512i {
    // SAFETY: the caller guarantees the CPU features; aligned 64-byte loads of rows of m.
    unsafe {
        let zero = _mm512_setzero_si512();
        let m = reload(m);
        let load = |v: usize| _mm512_load_si512(m.0[v].as_ptr().cast());
        for v in FROM..V {
            x[v] = _mm512_madd52lo_epu64(x[v], rows[v], mult);
        }
        // Lane 0's carry, from x_0 before y m_0 (see above).
        let carry = _mm512_maskz_srli_epi64(
            0x11,
            _mm512_add_epi64(x[0], _mm512_set1_epi64(MASK52 as i64)),
            DIGIT_BITS as u32,
        );
        for v in 0..V {
            x[v] = _mm512_madd52lo_epu64(x[v], load(v), y);
        }
        let mut high = [zero; V];
        for (v, h) in high.iter_mut().enumerate() {
            let mut acc = if v == 0 { carry } else { zero };
            if v >= FROM {
                acc = _mm512_madd52hi_epu64(acc, rows[v], mult);
            }
            *h = _mm512_madd52hi_epu64(acc, load(v), y);
        }
        let digit0 = _mm512_add_epi64(broadcast_lane(x[0], 1), broadcast_lane(high[0], 0));
        let y_next = _mm512_madd52lo_epu64(ypart, digit0, k0);
        for v in 0..V {
            let above = if v + 1 < V { x[v + 1] } else { zero };
            x[v] = _mm512_add_epi64(shift_down(x[v], above), high[v]);
        }
        y_next
    }
}

/// The digits of `x` (lanes below 2^62, value below R), normalized, by vectors: one pass moves
/// every lane's bits above 52 one digit up, leaving digits below 2^52 + 2^10 with carries of at
/// most 1 left; those ripple through the digits equal to 2^52 - 1, which the carry of an
/// integer addition on one bit per digit finds (generate g: digit >= 2^52, propagate p: digit
/// = 2^52 - 1; carry-in = ((g << 1) + p) ^ p), one bit string per number in a GPR (the other
/// number's positions set in p, so carries cross them, and masked off).
/// Leaks: nothing (the masks only select lanes of an addition that runs in every case).
///
/// # Safety
/// The CPU must support AVX-512F.
#[inline(always)]
unsafe fn finish<const V: usize>(x: &[__m512i; V]) -> Pair<V> {
    let mut out = Pair::<V>::ZERO;
    // SAFETY: the caller guarantees AVX-512F; aligned 64-byte stores of out's rows.
    unsafe {
        let zero = _mm512_setzero_si512();
        let mask = _mm512_set1_epi64(MASK52 as i64);
        let mut d = [zero; V];
        let (mut gen, mut prop) = ([0u8; V], [0u8; V]);
        for v in 0..V {
            let below = if v > 0 { x[v - 1] } else { zero };
            let carry_in = shift_up(
                _mm512_srli_epi64(x[v], DIGIT_BITS as u32),
                _mm512_srli_epi64(below, DIGIT_BITS as u32),
            );
            d[v] = _mm512_add_epi64(_mm512_and_si512(x[v], mask), carry_in);
            gen[v] = _mm512_cmpgt_epu64_mask(d[v], mask);
            prop[v] = _mm512_cmpeq_epu64_mask(d[v], mask);
        }
        // Nothing carries out of the top digit of either number: the value is below R.
        debug_assert_eq!(
            _mm512_test_epi64_mask(x[V - 1], _mm512_set1_epi64(!(MASK52 as i64))) & 0x88,
            0
        );
        // Bit 8v + j of the masks is lane j of vector v; carry-in bits, as a u128 when the
        // 8V bits do not fit a u64 (V > 8). Written as a Horner chain, which LLVM leaves in
        // GPRs (a sum of shifted bytes it vectorizes, with a longer latency).
        macro_rules! ripple {
            ($t:ty) => {{
                let (mut g, mut p): ($t, $t) = (0, 0);
                for v in (0..V).rev() {
                    g = (g << 8) | <$t>::from(gen[v]);
                    p = (p << 8) | <$t>::from(prop[v]);
                }
                let first = <$t>::MAX / 0xFF * 0x0F;
                let second = !first;
                let ripple = |g: $t, p: $t| (g << 1).wrapping_add(p) ^ p;
                let c = (ripple(g & first, p | second) & first)
                    | (ripple(g & second, p | first) & second);
                core::array::from_fn::<u8, V, _>(|v| (c >> (8 * v)) as u8)
            }};
        }
        let carry: [u8; V] = if V <= 8 { ripple!(u64) } else { ripple!(u128) };
        let one = _mm512_set1_epi64(1);
        for v in 0..V {
            let r = _mm512_and_si512(_mm512_mask_add_epi64(d[v], carry[v], d[v], one), mask);
            _mm512_store_si512(out.0[v].as_mut_ptr().cast(), r);
        }
    }
    #[cfg(debug_assertions)]
    {
        let mut raw = Pair::<V>::ZERO;
        for v in 0..V {
            // SAFETY: as above.
            unsafe { _mm512_store_si512(raw.0[v].as_mut_ptr().cast(), x[v]) };
        }
        raw.normalize();
        debug_assert_eq!(raw.0, out.0, "vector normalization");
    }
    out
}

/// Two almost Montgomery products at once: for each number c, `a_c b_c R^{-1} mod m_c` up to one
/// m_c, i.e. a value `< 2 m_c`, as normalized digits. Preconditions: `a_c, b_c < 2 m_c` with
/// digits `< 2^52`; `4 m_c <= R = 2^(52 n)`; `n <= 4V`; `m_c` odd with digits `< 2^52`;
/// `k0_c = -m_c^{-1} mod 2^52` (in every lane of its half of `k0`). Bound:
/// `(a b + Y m) / R < 4 m^2 / R + m <= 2m`.
/// Leaks: nothing but the lengths (constant time).
///
/// Iteration i ([`mont_step`]) adds b_i a + y m (y zeroing digit 0) and drops digit 0. The
/// iterations run in blocks of four (one vector of b's digits), so b_i is a broadcast of a
/// lane known at compile time, and so is the next row's share of y, b_{i+1} (a_0 k0 mod
/// 2^52) mod 2^52, taken from one product per block.
///
/// # Safety
/// The CPU must support AVX-512F and AVX-512 IFMA.
#[inline(always)]
unsafe fn amm_x2<const V: usize>(
    a: &Pair<V>,
    b: &Pair<V>,
    m: &Pair<V>,
    k0: __m512i,
    n: usize,
) -> Pair<V> {
    debug_assert!(n <= HALF * V);
    // SAFETY: the caller's guarantee (AVX-512F and IFMA); aligned loads of rows of a and b.
    unsafe {
        let zero = _mm512_setzero_si512();
        let load = |p: &Pair<V>, v: usize| _mm512_load_si512(p.0[v].as_ptr().cast());
        // a_0 k0 mod 2^52 over each half; shares[r] lane l = b_{4r+l} a_0 k0 mod 2^52.
        let a0k0 = _mm512_madd52lo_epu64(zero, broadcast_lane(load(a, 0), 0), k0);
        let share = |r: usize| _mm512_madd52lo_epu64(zero, a0k0, load(b, r));
        let mut x = [zero; V];
        let mut next_shares = share(0);
        let mut y = broadcast_lane(next_shares, 0);
        for r in 0..V {
            if HALF * r >= n {
                break;
            }
            let b_r = load(b, r);
            let shares = next_shares;
            next_shares = if r + 1 < V { share(r + 1) } else { zero };
            for l in 0..HALF {
                if HALF * r + l >= n {
                    break;
                }
                let ypart = if l + 1 < HALF {
                    broadcast_lane(shares, l + 1)
                } else {
                    broadcast_lane(next_shares, 0)
                };
                let a = reload(a);
                let mut rows = [zero; V];
                for (v, row) in rows.iter_mut().enumerate() {
                    *row = load(a, v);
                }
                y = mont_step::<V, 0>(&mut x, y, &rows, broadcast_lane(b_r, l), m, k0, ypart);
            }
        }
        finish(&x)
    }
}

/// Two almost Montgomery squarings at once: [`amm_x2`] with `b = a`, computing each cross
/// product once (Drucker–Gueron 2019). Same preconditions, bound and result.
/// Leaks: nothing but the lengths (constant time).
///
/// Iteration i (relative lane j = absolute digit i + j) adds a_i^2 at lane i and 2 a_i a_j at
/// lane j > i: one product row whose multiplier is a_i (broadcast) and whose multiplicand is
/// 0 below lane i, a_i at lane i and the digits of 2a above, computed once per squaring: with
/// t_j = bit 51 of a_j, 2a has digits (2 a_j mod 2^52) + t_{j-1} (below 2^52: the first term is
/// even), and lane i + 1 takes 2 a_{i+1} mod 2^52 without t_i, the carry out of lane i, which
/// belongs to 2 a_i (2 a_i a_j = a_i (2 a_j mod 2^52) + 2^52 a_i t_j, and the sum over j > i
/// of those carries is the t_{j-1} of lanes j >= i + 2). 2a's top carry is zero: a < 2m <=
/// R / 2. The iterations run in blocks of four (one vector of a's digits), block r skipping
/// the r vectors wholly below lane i. Column c (absolute) receives its terms from rows
/// i <= c / 2, all run by iteration c, so each y sees a complete digit 0.
///
/// # Safety
/// As [`amm_x2`].
#[inline(always)]
unsafe fn ams_x2<const V: usize>(a: &Pair<V>, m: &Pair<V>, k0: __m512i, n: usize) -> Pair<V> {
    debug_assert!(n <= HALF * V);
    debug_assert!((0..2).all(|c| a.digit(c, n - 1) >> 51 == 0), "a < R / 2");
    // SAFETY: the caller's guarantee (AVX-512F and IFMA); aligned loads of rows of a.
    unsafe {
        let zero = _mm512_setzero_si512();
        let mask = _mm512_set1_epi64(MASK52 as i64);
        // a's digits, 2 a_j mod 2^52, and 2a's digits (with t_{j-1} from the lane below).
        let (mut digits, mut doubled, mut twice) = ([zero; V], [zero; V], [zero; V]);
        for v in 0..V {
            digits[v] = _mm512_load_si512(a.0[v].as_ptr().cast());
            doubled[v] = _mm512_and_si512(_mm512_slli_epi64(digits[v], 1), mask);
            let below = if v > 0 {
                _mm512_srli_epi64(digits[v - 1], 51)
            } else {
                zero
            };
            let t = shift_up(_mm512_srli_epi64(digits[v], 51), below);
            twice[v] = _mm512_or_si512(doubled[v], t);
        }
        let a0 = broadcast_lane(digits[0], 0);
        let mut y = _mm512_madd52lo_epu64(zero, _mm512_madd52lo_epu64(zero, a0, k0), a0);
        let mut x = [zero; V];
        let sq = Square {
            digits: &digits,
            doubled: &doubled,
            twice: &twice,
            m,
            k0,
            n,
        };
        macro_rules! block {
            ($r:literal) => {
                if $r < V {
                    sq.block::<$r>(&mut x, &mut y);
                }
            };
        }
        block!(0);
        block!(1);
        block!(2);
        block!(3);
        block!(4);
        block!(5);
        block!(6);
        block!(7);
        block!(8);
        block!(9);
        const _: () = assert!(MAX_VECTORS <= 10, "ams_x2 writes out ten blocks");
        finish(&x)
    }
}

/// The operands of [`ams_x2`]'s blocks: a's digits, 2 a_j mod 2^52 and 2a's digits, as vectors.
struct Square<'a, const V: usize> {
    digits: &'a [__m512i; V],
    doubled: &'a [__m512i; V],
    twice: &'a [__m512i; V],
    m: &'a Pair<V>,
    k0: __m512i,
    n: usize,
}

impl<const V: usize> Square<'_, V> {
    /// Iterations 4R..4R+3 (those below n) of [`ams_x2`]; `y` is the next iteration's.
    ///
    /// # Safety
    /// As [`amm_x2`].
    #[inline(always)]
    unsafe fn block<const R: usize>(&self, x: &mut [__m512i; V], y: &mut __m512i) {
        for l in 0..HALF {
            if HALF * R + l >= self.n {
                return;
            }
            // Lane l, lane l + 1 and the lanes below l, in both numbers (public: i only).
            let at_l: __mmask8 = 0x11 << l;
            let next: __mmask8 = if l + 1 < HALF { 0x22 << l } else { 0 };
            let below: __mmask8 = ((1 << l) - 1) * 0x11;
            let mut rows = *self.twice;
            // SAFETY: the caller guarantees the CPU features.
            unsafe {
                let edge = _mm512_mask_blend_epi64(next, self.twice[R], self.doubled[R]);
                let edge = _mm512_mask_blend_epi64(at_l, edge, self.digits[R]);
                rows[R] = _mm512_maskz_mov_epi64(!below, edge);
                if l + 1 == HALF && R + 1 < V {
                    rows[R + 1] =
                        _mm512_mask_blend_epi64(0x11, self.twice[R + 1], self.doubled[R + 1]);
                }
                let ai = broadcast_lane(self.digits[R], l);
                *y = mont_step::<V, R>(x, *y, &rows, ai, self.m, self.k0, _mm512_setzero_si512());
            }
        }
    }
}

/// Selects both halves of `out` from `table` in constant time: the first number of entry
/// `d[0]`, the second of entry `d[1]`. Every entry is loaded whole and merged under a mask
/// computed by a vector compare.
/// Leaks: the table's length only.
///
/// # Safety
/// The CPU must support AVX-512F.
#[inline(always)]
unsafe fn select_x2<const V: usize>(out: &mut Pair<V>, table: &[Pair<V>], d: [usize; 2]) {
    // SAFETY: the caller guarantees AVX-512F; aligned loads and stores of whole rows.
    unsafe {
        let want = split_broadcast([d[0] as u64, d[1] as u64]);
        let mut acc = [_mm512_setzero_si512(); V];
        for (i, entry) in table.iter().enumerate() {
            let hit = _mm512_cmpeq_epi64_mask(want, _mm512_set1_epi64(i as i64));
            for v in 0..V {
                let row = _mm512_load_si512(entry.0[v].as_ptr().cast());
                acc[v] = _mm512_mask_or_epi64(acc[v], hit, acc[v], row);
            }
        }
        for v in 0..V {
            _mm512_store_si512(out.0[v].as_mut_ptr().cast(), acc[v]);
        }
    }
}

/// The [`LanesArith`] of the constant-time scan: both numbers as AMM residues (< 2m each).
struct X2Arith<const V: usize> {
    m: Pair<V>,
    /// -m^{-1} mod 2^52 of each number over its half.
    k0: __m512i,
    n: usize,
}

impl<const V: usize> LanesArith<2> for X2Arith<V> {
    type Elem = Pair<V>;
    #[inline(always)]
    fn sqr_lanes(&mut self, a: &mut Pair<V>) {
        // SAFETY: X2Arith is only built by `pow_v`, which runs on CPUs with AVX-512 IFMA.
        *a = unsafe { ams_x2(a, &self.m, self.k0, self.n) };
    }
    #[inline(always)]
    fn mul_lanes(&mut self, a: &mut Pair<V>, b: &Pair<V>) {
        // SAFETY: as above.
        *a = unsafe { amm_x2(a, b, &self.m, self.k0, self.n) };
    }
    #[inline(always)]
    fn select_lanes(&mut self, out: &mut Pair<V>, table: &[Pair<V>], d: [usize; 2]) {
        // SAFETY: as above.
        unsafe { select_x2(out, table, d) }
    }
}

/// The constants of two moduli for [`PairCtx::pow_ct`], computed once: both moduli's digits,
/// -m^{-1} mod 2^52 and R^2 mod m, R = 2^(52 n).
#[derive(Clone, Debug)]
pub(crate) struct PairCtx {
    m: [Vec<Limb>; 2],
    /// Both moduli's digits (8V u64).
    m_digits: Vec<u64>,
    /// R^2 mod m for both (8V u64).
    rr: Vec<u64>,
    k0: [u64; 2],
    n: usize,
    v: usize,
}

/// `$f::<V>($args)` for the runtime vector count `$v` (2..=[`MAX_VECTORS`]).
macro_rules! by_vectors {
    ($v:expr, $f:ident$(::<$T:ty>)?($($arg:expr),*)) => {
        const_dispatch!($v; V in [2, 3, 4, 5, 6, 7, 8, 9, 10] => $f::<V $(, $T)?>($($arg),*);
            else unreachable!("PairCtx::new never gives {} vectors", $v))
    };
}

impl PairCtx {
    /// The constants for the odd moduli `m[0]` and `m[1]` (trimmed) on `tier`, or `None` when
    /// the tier is below [`Tier::Ifma`] or the moduli need different vector counts or more
    /// than [`MAX_VECTORS`] (or fewer than two: one vector is for the single kernel).
    /// Leaks: the moduli (divisions).
    pub(crate) fn new(m: [&[Limb]; 2], tier: Tier) -> Option<Self> {
        if crate::cpu::cap(tier) < Tier::Ifma || m.iter().any(|m| m.is_empty() || m[0] & 1 == 0) {
            return None;
        }
        let (n0, v0) = digits_for(m[0].len());
        let (n1, v1) = digits_for(m[1].len());
        if v0 != v1 || !(2..=MAX_VECTORS).contains(&v0) {
            return None;
        }
        let n = n0.max(n1);
        let rr = m.map(|m| pow2_mod(2 * DIGIT_BITS * n, m));
        Some(Self {
            m: m.map(<[Limb]>::to_vec),
            m_digits: by_vectors!(v0, pair_digits(m)),
            rr: by_vectors!(v0, pair_digits([&rr[0], &rr[1]])),
            k0: m.map(|m| neg_inv_newton(m[0]) & MASK52),
            n,
            v: v0,
        })
    }

    /// `(base[0]^exp[0] mod m[0], base[1]^exp[1] mod m[1])` by the constant-time scan
    /// ([`scan_lanes`], `w`-bit digits over `exp_bits`, which must cover both exponents), with
    /// `base[c] < m[c]` of m[c]'s length. Results `< m[c]`, of m[c]'s length.
    /// Leaks: nothing but the lengths, `exp_bits` and `w` (constant time).
    pub(crate) fn pow_ct<T: CtTrace>(
        &self,
        base: [&[Limb]; 2],
        exp: [&[Limb]; 2],
        exp_bits: usize,
        w: usize,
        trace: &mut T,
    ) -> [Vec<Limb>; 2] {
        // SAFETY: a PairCtx exists only on the IFMA tier (AVX-512F and IFMA), with n <= 4V.
        unsafe { by_vectors!(self.v, pow_v::<T>(self, base, exp, exp_bits, w, trace)) }
    }
}

fn pair_digits<const V: usize>(x: [&[Limb]; 2]) -> Vec<u64> {
    Pair::<V>::from_limbs(x).as_ref().to_vec()
}

fn pair_of<const V: usize>(x: &[u64]) -> Pair<V> {
    let mut p = Pair::<V>::ZERO;
    p.as_mut().copy_from_slice(x);
    p
}

/// [`PairCtx::pow_ct`] for V vectors.
/// Leaks: as [`PairCtx::pow_ct`].
///
/// # Safety
/// The CPU must support AVX-512F and AVX-512 IFMA; `ctx.n <= 4V`.
#[target_feature(enable = "avx512f,avx512ifma,bmi2,adx")]
unsafe fn pow_v<const V: usize, T: CtTrace>(
    ctx: &PairCtx,
    base: [&[Limb]; 2],
    exp: [&[Limb]; 2],
    exp_bits: usize,
    w: usize,
    trace: &mut T,
) -> [Vec<Limb>; 2] {
    let mut ar = X2Arith::<V> {
        m: pair_of(&ctx.m_digits),
        k0: split_broadcast(ctx.k0),
        n: ctx.n,
    };
    let rr = pair_of::<V>(&ctx.rr);
    let mut unit = Pair::<V>::ZERO;
    (*unit.digit_mut(0, 0), *unit.digit_mut(1, 0)) = (1, 1);
    let mut g = Pair::<V>::from_limbs(base);
    trace.event(crate::scan::ct::CtEvent::ToRepr);
    ar.mul_lanes(&mut g, &rr);
    let mut one = rr;
    ar.mul_lanes(&mut one, &unit);
    let mut acc = scan_lanes(&mut ar, one, g, exp, exp_bits, w, trace);
    trace.event(crate::scan::ct::CtEvent::FromRepr);
    // (acc + Y m) / R <= m for acc < 2m: one masked subtraction finishes.
    ar.mul_lanes(&mut acc, &unit);
    [0, 1].map(|c| {
        let k = ctx.m[c].len();
        let mut out = vec![0; k];
        arith::sub_mod_final(&mut out, &acc.limbs(c, k), 0, &ctx.m[c]);
        out
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::BigUint;

    fn big(x: &[Limb]) -> BigUint {
        crate::natural::Natural::from_slice(x).to_biguint()
    }

    fn has_ifma() -> bool {
        if crate::cpu::detected() < Tier::Ifma {
            eprintln!("skipped: no AVX-512 IFMA on this CPU");
            return false;
        }
        true
    }

    /// AMM and AMS of both numbers against num-bigint (congruence and the < 2m bound), for
    /// every served vector count, edge digits (all ones below 2m, zero, m - 1) and moduli of
    /// different lengths with the same vector count.
    #[test]
    fn products_match_num_bigint() {
        if !has_ifma() {
            return;
        }
        fn one_size<const V: usize>(k: [usize; 2], rnd: &mut impl FnMut() -> u64) -> usize {
            let mut ms: [Vec<Limb>; 2] = k.map(|k| (0..k).map(|_| rnd()).collect());
            for m in &mut ms {
                m[0] |= 1;
                let top = m.len() - 1;
                m[top] |= 1 << 63;
            }
            let ctx = PairCtx::new([&ms[0], &ms[1]], Tier::Ifma).expect("served");
            assert_eq!(ctx.v, V);
            let ar = X2Arith::<V> {
                m: pair_of(&ctx.m_digits),
                k0: split_broadcast(ctx.k0),
                n: ctx.n,
            };
            let r = [0, 1].map(|_| BigUint::from(1u32) << (DIGIT_BITS * ctx.n));
            let mb = [big(&ms[0]), big(&ms[1])];
            let mut checked = 0;
            for case in 0..6 {
                let mut operand = |c: usize, salt: u64| -> BigUint {
                    let two_m: BigUint = &mb[c] * 2u32 - 1u32;
                    match (case + salt as usize) % 6 {
                        0 => BigUint::from(0u32),
                        1 => two_m,
                        2 => &mb[c] - 1u32,
                        _ => {
                            let x: Vec<Limb> = (0..ms[c].len() + 1).map(|_| rnd()).collect();
                            big(&x) % (&mb[c] * 2u32)
                        }
                    }
                };
                let (a0, a1, b0, b1) = (operand(0, 0), operand(1, 3), operand(0, 4), operand(1, 2));
                let digits = |x: &BigUint, y: &BigUint| {
                    Pair::<V>::from_limbs([&x.to_u64_digits(), &y.to_u64_digits()])
                };
                let (a, b) = (digits(&a0, &a1), digits(&b0, &b1));
                // SAFETY: the CPU has IFMA (checked above).
                let (prod, sq) = unsafe {
                    (
                        amm_x2(&a, &b, &ar.m, ar.k0, ar.n),
                        ams_x2(&a, &ar.m, ar.k0, ar.n),
                    )
                };
                for c in 0..2 {
                    let (x, y) = if c == 0 { (&a0, &b0) } else { (&a1, &b1) };
                    let rinv = r[c].modinv(&mb[c]).expect("odd modulus");
                    let got = big(&prod.limbs(c, ms[c].len()));
                    assert!(got < &mb[c] * 2u32, "AMM bound, k={k:?}, c={c}");
                    assert_eq!(
                        &got % &mb[c],
                        x * y * &rinv % &mb[c],
                        "AMM k={k:?} c={c} case={case}"
                    );
                    let got = big(&sq.limbs(c, ms[c].len()));
                    assert!(got < &mb[c] * 2u32, "AMS bound, k={k:?}, c={c}");
                    assert_eq!(
                        &got % &mb[c],
                        x * x * &rinv % &mb[c],
                        "AMS k={k:?} c={c} case={case}"
                    );
                    checked += 1;
                }
            }
            checked
        }
        let mut s: u64 = 0x5151_2929_abcd_0001;
        let mut rnd = || crate::limb::xorshift64(&mut s);
        let mut checked = 0;
        for _ in 0..8 {
            checked += one_size::<2>([4, 5], &mut rnd);
            checked += one_size::<3>([9, 8], &mut rnd);
            checked += one_size::<4>([11, 12], &mut rnd);
            checked += one_size::<5>([16, 15], &mut rnd);
            checked += one_size::<6>([17, 19], &mut rnd);
            checked += one_size::<7>([20, 22], &mut rnd);
            checked += one_size::<8>([24, 25], &mut rnd);
            checked += one_size::<9>([27, 29], &mut rnd);
            checked += one_size::<10>([32, 31], &mut rnd);
        }
        assert_eq!(checked, 8 * 9 * 6 * 2);
    }

    /// The paired constant-time exponentiation against num-bigint's `modpow`, for every vector
    /// count, with unequal moduli and exponents (zero, all ones, one short of the length).
    #[test]
    fn pow_ct_matches_num_bigint() {
        if !has_ifma() {
            return;
        }
        let mut s: u64 = 0x0bad_cafe_1234_5679;
        let mut rnd = || crate::limb::xorshift64(&mut s);
        let mut checked = 0;
        for k in [
            [4usize, 4],
            [4, 5],
            [8, 9],
            [16, 16],
            [17, 15],
            [24, 24],
            [32, 32],
            [31, 32],
        ] {
            let mut ms: [Vec<Limb>; 2] = k.map(|k| (0..k).map(|_| rnd()).collect());
            for m in &mut ms {
                m[0] |= 1;
            }
            let Some(ctx) = PairCtx::new([&ms[0], &ms[1]], Tier::Ifma) else {
                assert_ne!(
                    digits_for(k[0]).1,
                    digits_for(k[1]).1,
                    "k = {k:?} should be served"
                );
                continue;
            };
            for case in 0..3 {
                let b: [Vec<Limb>; 2] = [0, 1].map(|c| {
                    let x: Vec<Limb> = (0..ms[c].len()).map(|_| rnd()).collect();
                    let mut r = (big(&x) % big(&ms[c])).to_u64_digits();
                    r.resize(ms[c].len(), 0);
                    r
                });
                let kmax = k[0].max(k[1]);
                let e: [Vec<Limb>; 2] = [0, 1].map(|c| match (case + c) % 3 {
                    0 => vec![0; kmax],
                    1 => vec![Limb::MAX; kmax],
                    _ => (0..kmax - 1).map(|_| rnd()).collect(),
                });
                for w in [1, 4, 5] {
                    let got = ctx.pow_ct(
                        [&b[0], &b[1]],
                        [&e[0], &e[1]],
                        64 * kmax,
                        w,
                        &mut crate::scan::ct::NoTrace,
                    );
                    for c in 0..2 {
                        assert_eq!(
                            big(&got[c]),
                            big(&b[c]).modpow(&big(&e[c]), &big(&ms[c])),
                            "k={k:?} c={c} case={case} w={w}"
                        );
                        assert_eq!(got[c].len(), ms[c].len());
                    }
                    checked += 1;
                }
            }
        }
        assert!(checked >= 7 * 9, "{checked}");
    }
}
