//! The NTT kernels of [`super::ntt`] on AVX2 + FMA: four butterflies per instruction sequence
//! in double precision, with the primes of [`super::ntt::FMA`] (below 2^50).
//!
//! Values are integers held exactly in doubles (|x| < 2^53), kept lazily in signed ranges. The
//! modular product by a fixed twiddle w (|w| <= p/2, stored with w_q = fl(w / p)) is the
//! floating-point one of van der Hoeven, Lecerf and Quintin ("Modular SIMD arithmetic in
//! Mathemagix", ACM TOMS 2016; also FLINT 3's `fft_small`): h = fl(y w), l = y w - h (one FMA,
//! exact), q = round(y w_q), r = (h - q p) + l = y w - q p exactly (the FMA rounds nothing: the
//! result is an integer below 2^53). For |y| <= 4p, |y w / p| <= 2p < 2^51 and q is within
//! 1/2 + 2^-2 of y w / p, so |r| < p. A reduction x - round(x / p) p leaves |x| <= p/2 + 2 for
//! |x| <= 4p. Each rounded quotient is one FMA and a subtraction: fl(y w_q + 1.5 2^52) rounds
//! the exact product once, to the integers (`round_mul`), on the FMA and add units every
//! x86-64 with AVX2 has (a separate `vroundpd` measured slower on an Intel Xeon, an add and
//! subtract after the product slower on a Zen 4).
//!
//! The transforms follow Harvey, "Faster arithmetic for number-theoretic transforms" (J.
//! Symbolic Comput. 2014) as the portable ones, with signed lazy bounds: the forward (Cooley–
//! Tukey) butterfly (x, y) -> (x + t, x - t), t = w y, reduces x in every other stage, and the
//! inverse (Gentleman–Sande) one (x, y) -> (x + y, w (x - y)) reduces x + y in every other
//! stage (bounds at each kernel). Stages whose butterflies are at least four apart run straight
//! on vectors; the last two (distances 2 and 1) run on pairs of vectors, 8 values, regrouped by
//! `vperm2f128` and `vunpck{l,h}pd`. Transforms of 3 2^k points run one radix-3 step
//! ([`forward_radix3`], [`inverse_radix3`]) around three power-of-two ones.
//!
//! The buffers are the `u64` ones of [`super::ntt`]: [`transform`] turns `load`'s integers in
//! [0, 4p) into doubles (bit patterns in the same words), the data stays in doubles through
//! [`pointwise`], and [`transform_inverse`] turns it back into integers in [0, 2p).
//!
//! Run by the caller only on CPUs with AVX2 and FMA. Variable time only in the lengths.

use super::ntt::{FpTwiddles, FpTwist};
use crate::tuning::FMA_NTT_BLOCK;
use core::arch::x86_64::*;

/// 1.5 2^52: for |x| < 2^51, x + M rounded to a double is M plus x rounded to the nearest
/// integer (ties to even), and subtracting M again is exact.
const ROUND_MAGIC: f64 = 6_755_399_441_055_744.0;

/// 2^52: `2^52 + x` for an integer 0 <= x < 2^52 has x in its low 52 bits.
const TWO_52: f64 = 4_503_599_627_370_496.0;

/// The constants of one prime as vectors.
#[derive(Clone, Copy)]
struct Consts {
    p: __m256d,
    /// fl(1 / p).
    p_inv: __m256d,
    magic: __m256d,
}

impl Consts {
    #[inline]
    #[target_feature(enable = "avx2,fma")]
    fn new(p: u64) -> Self {
        Self {
            p: _mm256_set1_pd(p as f64),
            p_inv: _mm256_set1_pd(1.0 / p as f64),
            magic: _mm256_set1_pd(ROUND_MAGIC),
        }
    }
}

/// The exact product a b rounded to the nearest integer lane by lane, for |a b| < 2^51: one
/// FMA adds [`ROUND_MAGIC`] (rounding once, to the integers, where doubles near 1.5 2^52 lie),
/// a subtraction takes it off exactly.
/// Leaks: nothing (constant time).
#[inline]
#[target_feature(enable = "avx2,fma")]
fn round_mul(a: __m256d, b: __m256d, c: &Consts) -> __m256d {
    _mm256_sub_pd(_mm256_fmadd_pd(a, b, c.magic), c.magic)
}

/// `x - round(x / p) p`, in [-p/2 - 2, p/2 + 2], for integers |x| <= 4p (module docs).
/// Leaks: nothing (constant time).
#[inline]
#[target_feature(enable = "avx2,fma")]
fn reduce(x: __m256d, c: &Consts) -> __m256d {
    _mm256_fnmadd_pd(round_mul(x, c.p_inv, c), c.p, x)
}

/// `y w mod p` as y w - q p with |y w - q p| < p, for integers |y| <= 4p, |w| <= p/2 and
/// w_q = fl(w / p) (module docs).
/// Leaks: nothing (constant time).
#[inline]
#[target_feature(enable = "avx2,fma")]
fn mul_twiddle(y: __m256d, w: __m256d, w_q: __m256d, c: &Consts) -> __m256d {
    let h = _mm256_mul_pd(y, w);
    let l = _mm256_fmsub_pd(y, w, h);
    let q = round_mul(y, w_q, c);
    _mm256_add_pd(_mm256_fnmadd_pd(q, c.p, h), l)
}

/// `a b mod p` as a b - q p with |a b - q p| < p, q = round(fl(a b) / p), for integers
/// |a|, |b| <= p/2 + 2: |a b / p| <= p/4 + 2, so the quotient's error stays below 1/2 + 2^-3.
/// Leaks: nothing (constant time).
#[inline]
#[target_feature(enable = "avx2,fma")]
fn mul(a: __m256d, b: __m256d, c: &Consts) -> __m256d {
    let h = _mm256_mul_pd(a, b);
    let l = _mm256_fmsub_pd(a, b, h);
    let q = round_mul(h, c.p_inv, c);
    _mm256_add_pd(_mm256_fnmadd_pd(q, c.p, h), l)
}

/// Cooley–Tukey butterfly (x + w y, x - w y), x first reduced when `R`. Inputs |x|, |y| <= 3p;
/// outputs within 1.5p + 2 with `R` (|x| <= p/2 + 2, |w y| < p), else within |x| + p.
/// Leaks: nothing (constant time).
#[inline]
#[target_feature(enable = "avx2,fma")]
fn ct<const R: bool>(
    x: __m256d,
    y: __m256d,
    w: __m256d,
    w_q: __m256d,
    c: &Consts,
) -> (__m256d, __m256d) {
    let x = if R { reduce(x, c) } else { x };
    let t = mul_twiddle(y, w, w_q, c);
    (_mm256_add_pd(x, t), _mm256_sub_pd(x, t))
}

/// Gentleman–Sande butterfly (x + y, w (x - y)), x + y reduced when `R`. Without `R`, inputs
/// within p give outputs within 2p; with `R`, inputs within 2p give outputs within p (|x + y|
/// and |x - y| <= 4p).
/// Leaks: nothing (constant time).
#[inline]
#[target_feature(enable = "avx2,fma")]
fn gs<const R: bool>(
    x: __m256d,
    y: __m256d,
    w: __m256d,
    w_q: __m256d,
    c: &Consts,
) -> (__m256d, __m256d) {
    let s = _mm256_add_pd(x, y);
    let s = if R { reduce(s, c) } else { s };
    (s, mul_twiddle(_mm256_sub_pd(x, y), w, w_q, c))
}

/// One stage with butterflies `len >= 4` apart on `a`, the points from `offset` (a multiple of
/// 2 len) of the whole transform: blocks of 2 len values, global block i with twiddle i;
/// Cooley–Tukey when `FWD`, else Gentleman–Sande; `R` as [`ct`] / [`gs`].
/// Leaks: nothing but the lengths (constant time).
///
/// # Safety
/// AVX2 and FMA; `a.len()` a multiple of 2 len; `w`, `w_q` hold a twiddle per global block.
#[inline]
#[target_feature(enable = "avx2,fma")]
unsafe fn wide_stage<const FWD: bool, const R: bool>(
    a: &mut [f64],
    offset: usize,
    len: usize,
    w: &[f64],
    w_q: &[f64],
    c: &Consts,
) {
    debug_assert!(len >= 4 && a.len().is_multiple_of(2 * len) && offset.is_multiple_of(2 * len));
    let ptr = a.as_mut_ptr();
    let first = offset / (2 * len);
    for i in 0..a.len() / (2 * len) {
        let (wv, wq) = (_mm256_set1_pd(w[first + i]), _mm256_set1_pd(w_q[first + i]));
        for j in (2 * len * i..2 * len * i + len).step_by(4) {
            // SAFETY: j + len + 4 <= 2 len (i + 1) <= a.len().
            unsafe {
                let x = _mm256_loadu_pd(ptr.add(j));
                let y = _mm256_loadu_pd(ptr.add(j + len));
                let (x, y) = if FWD {
                    ct::<R>(x, y, wv, wq, c)
                } else {
                    gs::<R>(x, y, wv, wq, c)
                };
                _mm256_storeu_pd(ptr.add(j), x);
                _mm256_storeu_pd(ptr.add(j + len), y);
            }
        }
    }
}

/// Forward stage number `stage` (0 first; butterflies `len` apart) of [`transform`], reducing
/// when `stage` is even; `a` and `offset` as [`wide_stage`].
///
/// # Safety
/// As [`wide_stage`].
#[inline]
#[target_feature(enable = "avx2,fma")]
unsafe fn forward_stage(
    a: &mut [f64],
    offset: usize,
    len: usize,
    stage: u32,
    tw: &FpTwiddles,
    c: &Consts,
) {
    let (w, w_q) = (&tw.w[..], &tw.w_q[..]);
    // SAFETY: the caller's guarantees.
    unsafe {
        if stage.is_multiple_of(2) {
            wide_stage::<true, true>(a, offset, len, w, w_q, c);
        } else {
            wide_stage::<true, false>(a, offset, len, w, w_q, c);
        }
    }
}

/// Inverse stage with butterflies `len` apart of [`transform_inverse`], reducing when log2
/// `len` is odd; `a` and `offset` as [`wide_stage`].
///
/// # Safety
/// As [`wide_stage`].
#[inline]
#[target_feature(enable = "avx2,fma")]
unsafe fn inverse_stage(a: &mut [f64], offset: usize, len: usize, tw: &FpTwiddles, c: &Consts) {
    let (w, w_q) = (&tw.w_inv[..], &tw.w_inv_q[..]);
    // SAFETY: the caller's guarantees.
    unsafe {
        if len.trailing_zeros() % 2 == 1 {
            wide_stage::<false, true>(a, offset, len, w, w_q, c);
        } else {
            wide_stage::<false, false>(a, offset, len, w, w_q, c);
        }
    }
}

/// The twiddles of the blocks k and k + 1 spread as (w_k, w_k, w_k+1, w_k+1).
///
/// # Safety
/// AVX2; `w` holds k + 4 entries.
#[inline]
#[target_feature(enable = "avx2,fma")]
unsafe fn pairs(w: &[f64], k: usize) -> __m256d {
    debug_assert!(k + 4 <= w.len());
    // SAFETY: k + 4 entries.
    _mm256_permute4x64_pd::<0b01_01_00_00>(unsafe { _mm256_loadu_pd(w.as_ptr().add(k)) })
}

/// Four twiddles from entry k.
///
/// # Safety
/// AVX2; `w` holds k + 4 entries.
#[inline]
#[target_feature(enable = "avx2,fma")]
unsafe fn quad(w: &[f64], k: usize) -> __m256d {
    debug_assert!(k + 4 <= w.len());
    // SAFETY: k + 4 entries.
    unsafe { _mm256_loadu_pd(w.as_ptr().add(k)) }
}

/// The forward stages with butterflies 2 and then 1 apart, on each group of 8 values held in
/// two vectors; `R2`, `R1` as [`ct`]'s `R` for each.
/// Leaks: nothing but the length (constant time).
///
/// # Safety
/// AVX2 and FMA; `a.len()` a multiple of 8; the twiddle tables hold `a.len() / 2 + 4` entries.
#[inline]
#[target_feature(enable = "avx2,fma")]
unsafe fn narrow_forward<const R2: bool, const R1: bool>(
    a: &mut [f64],
    offset: usize,
    w: &[f64],
    w_q: &[f64],
    c: &Consts,
) {
    let n = a.len();
    debug_assert!(n.is_multiple_of(8) && offset.is_multiple_of(8));
    debug_assert!(w.len() >= (offset + n) / 2 + 4 && w_q.len() >= (offset + n) / 2 + 4);
    let ptr = a.as_mut_ptr();
    for (g, t) in (0..n).step_by(8).zip((offset..).step_by(8)) {
        // SAFETY: g + 8 <= n; the twiddle indices t / 4 + 1 and t / 2 + 3 are below
        // (offset + n) / 2, and the tables have padding.
        unsafe {
            let (a0, a1) = (_mm256_loadu_pd(ptr.add(g)), _mm256_loadu_pd(ptr.add(g + 4)));
            // Distance 2: (0 1 4 5) with (2 3 6 7), blocks g/4 and g/4 + 1.
            let x = _mm256_permute2f128_pd::<0x20>(a0, a1);
            let y = _mm256_permute2f128_pd::<0x31>(a0, a1);
            let (x, y) = ct::<R2>(x, y, pairs(w, t / 4), pairs(w_q, t / 4), c);
            // Distance 1: (0 2 4 6) with (1 3 5 7), blocks g/2 .. g/2 + 4.
            let (x, y) = (_mm256_unpacklo_pd(x, y), _mm256_unpackhi_pd(x, y));
            let (x, y) = ct::<R1>(x, y, quad(w, t / 2), quad(w_q, t / 2), c);
            // Back to (0 1 2 3), (4 5 6 7).
            let (lo, hi) = (_mm256_unpacklo_pd(x, y), _mm256_unpackhi_pd(x, y));
            _mm256_storeu_pd(ptr.add(g), _mm256_permute2f128_pd::<0x20>(lo, hi));
            _mm256_storeu_pd(ptr.add(g + 4), _mm256_permute2f128_pd::<0x31>(lo, hi));
        }
    }
}

/// The inverse stages with butterflies 1 apart (not reducing: inputs within p, outputs within
/// 2p) and then 2 apart (reducing: outputs within p), on each group of 8 values.
/// Leaks: nothing but the length (constant time).
///
/// # Safety
/// As [`narrow_forward`].
#[inline]
#[target_feature(enable = "avx2,fma")]
unsafe fn narrow_inverse(a: &mut [f64], offset: usize, w: &[f64], w_q: &[f64], c: &Consts) {
    let n = a.len();
    debug_assert!(n.is_multiple_of(8) && offset.is_multiple_of(8));
    debug_assert!(w.len() >= (offset + n) / 2 + 4 && w_q.len() >= (offset + n) / 2 + 4);
    let ptr = a.as_mut_ptr();
    for (g, t) in (0..n).step_by(8).zip((offset..).step_by(8)) {
        // SAFETY: as in `narrow_forward`.
        unsafe {
            let (a0, a1) = (_mm256_loadu_pd(ptr.add(g)), _mm256_loadu_pd(ptr.add(g + 4)));
            // Distance 1: (0 2 4 6) with (1 3 5 7).
            let lo = _mm256_permute2f128_pd::<0x20>(a0, a1);
            let hi = _mm256_permute2f128_pd::<0x31>(a0, a1);
            let (x, y) = (_mm256_unpacklo_pd(lo, hi), _mm256_unpackhi_pd(lo, hi));
            let (x, y) = gs::<false>(x, y, quad(w, t / 2), quad(w_q, t / 2), c);
            // Distance 2: (0 1 4 5) with (2 3 6 7).
            let (x, y) = (_mm256_unpacklo_pd(x, y), _mm256_unpackhi_pd(x, y));
            let (x, y) = gs::<true>(x, y, pairs(w, t / 4), pairs(w_q, t / 4), c);
            _mm256_storeu_pd(ptr.add(g), _mm256_permute2f128_pd::<0x20>(x, y));
            _mm256_storeu_pd(ptr.add(g + 4), _mm256_permute2f128_pd::<0x31>(x, y));
        }
    }
}

/// The words of `a` as doubles (the same bits).
fn as_f64(a: &mut [u64]) -> &mut [f64] {
    // SAFETY: u64 and f64 have the same size and alignment, and every bit pattern is a valid
    // f64; the borrow of `a` carries over.
    unsafe { core::slice::from_raw_parts_mut(a.as_mut_ptr().cast::<f64>(), a.len()) }
}

/// Forward transform of `a` mod p (natural order in, bit-reversed out, as [`super::ntt`]'s
/// portable one): integers in [0, 4p) in, doubles (bit patterns) within 2.5p + 2 out.
/// Entry: x - 2p, within 2p. Stage s (0 first) reduces x when s is even: stage inputs stay
/// within 3p ([`ct`]: reducing stages give 1.5p + 2, the others add p to that). With
/// `twist`, `a` has 3M points: [`forward_radix3`] first (its outputs within 2p), then an
/// M-point transform of each third.
/// Leaks: nothing but the length (constant time).
///
/// # Safety
/// AVX2 and FMA; `a.len()` a power of two >= 16, or with `twist` (built for it) three times
/// one; `tw` built for at least that power of two with the FMA prime set (p < 2^50).
#[target_feature(enable = "avx2,fma")]
pub(crate) unsafe fn transform(a: &mut [u64], tw: &FpTwiddles, twist: Option<&FpTwist>, p: u64) {
    let n = a.len();
    let m = if twist.is_some() { n / 3 } else { n };
    debug_assert!(m >= 16 && m.is_power_of_two() && p < 1 << 50);
    let c = Consts::new(p);
    // To doubles: the bits of 2^52 + x, minus 2^52 + 2p (exact: x < 4p < 2^52).
    let bias = _mm256_set1_pd(TWO_52 + 2.0 * p as f64);
    match twist {
        // SAFETY: the caller's guarantees.
        Some(t) => unsafe { forward_radix3(a, t, bias, &c) },
        None => {
            for i in (0..n).step_by(4) {
                // SAFETY: i + 4 <= n; f64 and u64 have the same size.
                unsafe {
                    let x = int_to_f64(_mm256_loadu_si256(a.as_ptr().add(i).cast()), bias);
                    _mm256_storeu_pd(a.as_mut_ptr().add(i).cast(), x);
                }
            }
        }
    }
    for a in as_f64(a).chunks_exact_mut(m) {
        // SAFETY: the caller's guarantees.
        unsafe { forward_stages(a, tw, &c) };
    }
}

/// The stages of [`transform`] on a power of two points (doubles within 2p in).
///
/// # Safety
/// As [`transform`].
#[target_feature(enable = "avx2,fma")]
unsafe fn forward_stages(a: &mut [f64], tw: &FpTwiddles, c: &Consts) {
    let n = a.len();
    let log_n = n.trailing_zeros();
    // The stages whose blocks (2 len points) exceed a cache block run over the whole array,
    // the others block by block while the block stays in the L1 cache.
    let block = FMA_NTT_BLOCK.min(n);
    let (mut len, mut stage) = (n / 2, 0);
    while 2 * len > block {
        // SAFETY: the caller's guarantees (the tables hold n / 2 + 8 entries).
        unsafe { forward_stage(a, 0, len, stage, tw, c) };
        len /= 2;
        stage += 1;
    }
    for (offset, chunk) in (0..).step_by(block).zip(a.chunks_exact_mut(block)) {
        let (mut len, mut stage) = (len, stage);
        while len >= 4 {
            // SAFETY: as above; `offset` is a multiple of the block, hence of 2 len.
            unsafe { forward_stage(chunk, offset, len, stage, tw, c) };
            len /= 2;
            stage += 1;
        }
        // Stage log_n - 2 (distance 2) reduces when log_n is even.
        // SAFETY: the caller's guarantees.
        unsafe {
            if log_n.is_multiple_of(2) {
                narrow_forward::<true, false>(chunk, offset, &tw.w, &tw.w_q, c);
            } else {
                narrow_forward::<false, true>(chunk, offset, &tw.w, &tw.w_q, c);
            }
        }
    }
}

/// Inverse transform of `a` without the 1/N (bit-reversed in, natural out): doubles within p
/// in ([`pointwise`]'s output), integers in [0, 2p) out. The stage with butterflies 2^s apart
/// reduces when s is odd: inputs of even stages stay within p, of odd ones within 2p ([`gs`]).
/// Exit: reduced (within p/2 + 2) plus p. With `twist`, the M-point inverse of each third,
/// then [`inverse_radix3`] (which exits likewise): N = 3M times the input in all.
/// Leaks: nothing but the length (constant time).
///
/// # Safety
/// As [`transform`].
#[target_feature(enable = "avx2,fma")]
pub(crate) unsafe fn transform_inverse(
    a: &mut [u64],
    tw: &FpTwiddles,
    twist: Option<&FpTwist>,
    p: u64,
) {
    let n = a.len();
    let m = if twist.is_some() { n / 3 } else { n };
    debug_assert!(m >= 16 && m.is_power_of_two() && p < 1 << 50);
    let c = Consts::new(p);
    for a in as_f64(a).chunks_exact_mut(m) {
        // SAFETY: the caller's guarantees.
        unsafe { inverse_stages(a, tw, &c) };
    }
    // To integers: reduce(x) + p + 2^52 is in [2^52, 2^52 + 2p), exact; its low bits are the
    // value.
    let offset = _mm256_set1_pd(TWO_52 + p as f64);
    match twist {
        // SAFETY: the caller's guarantees.
        Some(t) => unsafe { inverse_radix3(a, t, offset, &c) },
        None => {
            for i in (0..n).step_by(4) {
                // SAFETY: i + 4 <= n.
                unsafe {
                    let x = reduce(_mm256_loadu_pd(a.as_ptr().add(i).cast()), &c);
                    _mm256_storeu_si256(a.as_mut_ptr().add(i).cast(), f64_to_int(x, offset));
                }
            }
        }
    }
}

/// The stages of [`transform_inverse`] on a power of two points (outputs within 2p).
///
/// # Safety
/// As [`transform`].
#[target_feature(enable = "avx2,fma")]
unsafe fn inverse_stages(a: &mut [f64], tw: &FpTwiddles, c: &Consts) {
    let n = a.len();
    // Block by block (see `forward_stages`) up to butterflies block / 2 apart, then the wider
    // stages over the whole array.
    let block = FMA_NTT_BLOCK.min(n);
    for (offset, chunk) in (0..).step_by(block).zip(a.chunks_exact_mut(block)) {
        // SAFETY: the caller's guarantees; `offset` is a multiple of the block.
        unsafe { narrow_inverse(chunk, offset, &tw.w_inv, &tw.w_inv_q, c) };
        let mut len = 4;
        while len < block {
            // SAFETY: as above.
            unsafe { inverse_stage(chunk, offset, len, tw, c) };
            len *= 2;
        }
    }
    let mut len = block;
    while len < n {
        // SAFETY: the caller's guarantees.
        unsafe { inverse_stage(a, 0, len, tw, c) };
        len *= 2;
    }
}

/// The radix-3 step of a forward transform of 3M points (as [`super::ntt`]'s portable one:
/// Cooley and Tukey, Math. Comp. 1965, in Bernstein's twisted form), from `a`'s integers in
/// [0, 4p) to doubles: with x_0, x_1, x_2 the thirds, each taken as x - 2p (the `bias`) and
/// reduced to u_e within p/2 + 2, A_0 = u_0 + u_1 + u_2 (within 1.5p + 6), A_1 = (u_0 - u_2 + t)
/// ψ^i and A_2 = (u_0 - u_1 - t) ψ^(2i) (within p) for t = ω (u_1 - u_2) (ω^2 = -1 - ω).
/// Leaks: nothing but the length (constant time).
///
/// # Safety
/// AVX2 and FMA; `a.len()` = 3M, M a multiple of 4, `t` built for it.
#[target_feature(enable = "avx2,fma")]
unsafe fn forward_radix3(a: &mut [u64], t: &FpTwist, bias: __m256d, c: &Consts) {
    let m = a.len() / 3;
    debug_assert!(
        a.len() == 3 * m && m.is_multiple_of(4) && t.twist.iter().all(|t| t.0.len() == m)
    );
    let [(w1, w1_q), (w2, w2_q)] = &t.twist;
    let (omega, omega_q) = (_mm256_set1_pd(t.omega.0), _mm256_set1_pd(t.omega.1));
    let ptr = a.as_mut_ptr();
    for i in (0..m).step_by(4) {
        // SAFETY: i + 2m + 4 <= 3m = a.len(); i + 4 <= m for the tables.
        unsafe {
            let load = |e: usize| {
                reduce(
                    int_to_f64(_mm256_loadu_si256(ptr.add(i + e * m).cast()), bias),
                    c,
                )
            };
            let (u0, u1, u2) = (load(0), load(1), load(2));
            let t = mul_twiddle(_mm256_sub_pd(u1, u2), omega, omega_q, c);
            let a0 = _mm256_add_pd(_mm256_add_pd(u0, u1), u2);
            let a1 = _mm256_add_pd(_mm256_sub_pd(u0, u2), t);
            let a2 = _mm256_sub_pd(_mm256_sub_pd(u0, u1), t);
            let a1 = mul_twiddle(a1, quad(w1, i), quad(w1_q, i), c);
            let a2 = mul_twiddle(a2, quad(w2, i), quad(w2_q, i), c);
            for (e, x) in [a0, a1, a2].into_iter().enumerate() {
                _mm256_storeu_pd(ptr.add(i + e * m).cast(), x);
            }
        }
    }
}

/// The inverse of [`forward_radix3`] times 3, after the three inverse M-point transforms (doubles
/// within 2p) to integers in [0, 2p): B_e = A_e ψ^(-e i) (within p), A_0 reduced (p/2 + 2),
/// x_0 = A_0 + B_1 + B_2, x_1 = A_0 - B_1 + t, x_2 = A_0 - B_2 - t for t = ω (B_2 - B_1), each
/// within 2.5p + 2, then reduced, plus p, to integers as [`transform_inverse`]'s exit (`offset`).
/// Leaks: nothing but the length (constant time).
///
/// # Safety
/// As [`forward_radix3`].
#[target_feature(enable = "avx2,fma")]
unsafe fn inverse_radix3(a: &mut [u64], t: &FpTwist, offset: __m256d, c: &Consts) {
    let m = a.len() / 3;
    debug_assert!(
        a.len() == 3 * m && m.is_multiple_of(4) && t.untwist.iter().all(|t| t.0.len() == m)
    );
    let [(w1, w1_q), (w2, w2_q)] = &t.untwist;
    let (omega, omega_q) = (_mm256_set1_pd(t.omega.0), _mm256_set1_pd(t.omega.1));
    let ptr = a.as_mut_ptr();
    for i in (0..m).step_by(4) {
        // SAFETY: as in `forward_radix3`.
        unsafe {
            let load = |e: usize| _mm256_loadu_pd(ptr.add(i + e * m).cast());
            let a0 = reduce(load(0), c);
            let b1 = mul_twiddle(load(1), quad(w1, i), quad(w1_q, i), c);
            let b2 = mul_twiddle(load(2), quad(w2, i), quad(w2_q, i), c);
            let t = mul_twiddle(_mm256_sub_pd(b2, b1), omega, omega_q, c);
            let x0 = _mm256_add_pd(_mm256_add_pd(a0, b1), b2);
            let x1 = _mm256_add_pd(_mm256_sub_pd(a0, b1), t);
            let x2 = _mm256_sub_pd(_mm256_sub_pd(a0, b2), t);
            for (e, x) in [x0, x1, x2].into_iter().enumerate() {
                _mm256_storeu_si256(ptr.add(i + e * m).cast(), f64_to_int(reduce(x, c), offset));
            }
        }
    }
}

/// (lo + hi 2^52) mod p as integers in [0, 2p), for integers lo < 2^52 and hi < 2^50: lo - 2p
/// (within 2p + 4 (2^50 - p) < 2.01p, as p > 2^50 - 2^40) plus hi (2^52 mod p)
/// ([`mul_twiddle`], within p), so within 3.01p, reduced to p/2 + 2, plus p.
/// Leaks: nothing (constant time).
#[inline]
#[target_feature(enable = "avx2,fma")]
fn reduce_split(lo: __m256i, hi: __m256i, k: &LoadConsts) -> __m256i {
    let x = int_to_f64(lo, k.bias);
    let t = mul_twiddle(
        int_to_f64(hi, _mm256_set1_pd(TWO_52)),
        k.r52[0],
        k.r52[1],
        &k.c,
    );
    f64_to_int(reduce(_mm256_add_pd(x, t), &k.c), k.offset)
}

/// The constants of [`reduce_split`] for one prime.
struct LoadConsts {
    c: Consts,
    /// 2^52 + 2p.
    bias: __m256d,
    /// 2^52 + p.
    offset: __m256d,
    /// 2^52 mod p as [`mul_twiddle`] takes it.
    r52: [__m256d; 2],
}

impl LoadConsts {
    #[inline]
    #[target_feature(enable = "avx2,fma")]
    fn new(p: u64) -> Self {
        debug_assert!(p < 1 << 50 && p > (1 << 50) - (1 << 40));
        Self {
            c: Consts::new(p),
            bias: _mm256_set1_pd(TWO_52 + 2.0 * p as f64),
            offset: _mm256_set1_pd(TWO_52 + p as f64),
            r52: broadcast_constant((1 << 52) % p, p),
        }
    }
}

/// `dst[k] = x[k] mod p` for the limbs of `x` (64-bit coefficients), integers in [0, 2p),
/// zero past them: each limb split into its low 52 bits and the 12 above ([`reduce_split`]).
/// Leaks: nothing but the lengths (constant time).
///
/// # Safety
/// AVX2 and FMA; `x.len() <= dst.len()`; p one of the FMA set's primes.
#[target_feature(enable = "avx2,fma")]
pub(crate) unsafe fn load_limbs(dst: &mut [u64], x: &[u64], p: u64) {
    debug_assert!(x.len() <= dst.len());
    let k = LoadConsts::new(p);
    let mask = _mm256_set1_epi64x((1 << 52) - 1);
    let split =
        |v: __m256i| reduce_split(_mm256_and_si256(v, mask), _mm256_srli_epi64::<52>(v), &k);
    let whole = x.len() / 4 * 4;
    for i in (0..whole).step_by(4) {
        // SAFETY: i + 4 <= x.len() <= dst.len().
        unsafe {
            let v = _mm256_loadu_si256(x.as_ptr().add(i).cast());
            _mm256_storeu_si256(dst.as_mut_ptr().add(i).cast(), split(v));
        }
    }
    let mut tail = [0u64; 4];
    let rest = x.len() - whole;
    tail[..rest].copy_from_slice(&x[whole..]);
    // SAFETY: a local array of four words.
    unsafe {
        let v = split(_mm256_loadu_si256(tail.as_ptr().cast()));
        _mm256_storeu_si256(tail.as_mut_ptr().cast(), v);
    }
    dst[whole..x.len()].copy_from_slice(&tail[..rest]);
    dst[x.len()..].fill(0);
}

/// `dst[k] = (lo[k] + hi[k] 2^52) mod p` for the `count` coefficients split into their low 52
/// bits and the bits above (below 2^48), integers in [0, 2p), zero past them.
/// Leaks: nothing but the lengths (constant time).
///
/// # Safety
/// AVX2 and FMA; `lo` and `hi` of one length, `count` rounded up to a multiple of 4, at most
/// `dst.len()`; p one of the FMA set's primes.
#[target_feature(enable = "avx2,fma")]
pub(crate) unsafe fn load_split(dst: &mut [u64], lo: &[u64], hi: &[u64], count: usize, p: u64) {
    let len = lo.len();
    debug_assert!(hi.len() == len && len == count.next_multiple_of(4) && len <= dst.len());
    let k = LoadConsts::new(p);
    for i in (0..len).step_by(4) {
        // SAFETY: i + 4 <= len <= dst.len().
        unsafe {
            let l = _mm256_loadu_si256(lo.as_ptr().add(i).cast());
            let h = _mm256_loadu_si256(hi.as_ptr().add(i).cast());
            _mm256_storeu_si256(dst.as_mut_ptr().add(i).cast(), reduce_split(l, h, &k));
        }
    }
    dst[count..].fill(0);
}

/// `a[i] = a[i] b[i] mod p` (no Montgomery factor), within p, for forward outputs (doubles
/// within 3p): both factors reduced to p/2 + 2 first ([`mul`]); `b` = `a` squares.
/// Leaks: nothing but the length (constant time).
///
/// # Safety
/// AVX2 and FMA; equal lengths, a multiple of 4.
#[target_feature(enable = "avx2,fma")]
pub(crate) unsafe fn pointwise(a: &mut [u64], b: Option<&[u64]>, p: u64) {
    let c = Consts::new(p);
    let n = a.len();
    debug_assert!(n.is_multiple_of(4) && b.is_none_or(|b| b.len() == n));
    let ptr = a.as_mut_ptr().cast::<f64>();
    for i in (0..n).step_by(4) {
        // SAFETY: i + 4 <= n for both slices; u64 and f64 have the same size.
        unsafe {
            let x = reduce(_mm256_loadu_pd(ptr.add(i)), &c);
            let y = match b {
                Some(b) => reduce(_mm256_loadu_pd(b.as_ptr().add(i).cast()), &c),
                None => x,
            };
            _mm256_storeu_pd(ptr.add(i), mul(x, y, &c));
        }
    }
}

/// A constant of [`crt`] broadcast as the pair (w, fl(w / p)) [`mul_twiddle`] takes
/// ([`super::ntt::fp_constant`]).
#[inline]
#[target_feature(enable = "avx2,fma")]
fn broadcast_constant(w: u64, p: u64) -> [__m256d; 2] {
    let (w, w_q) = super::ntt::fp_constant(w, p);
    [_mm256_set1_pd(w), _mm256_set1_pd(w_q)]
}

/// Integers x < 2^52 to the doubles 2^52 + x - `bias` (the bits of 2^52 + x, as a double,
/// minus `bias`): exact when `bias` is 2^52 plus a small integer (x or x - 2p).
#[inline]
#[target_feature(enable = "avx2,fma")]
fn int_to_f64(v: __m256i, bias: __m256d) -> __m256d {
    let bits_52 = _mm256_set1_epi64x(TWO_52.to_bits() as i64);
    _mm256_sub_pd(_mm256_castsi256_pd(_mm256_or_si256(v, bits_52)), bias)
}

/// Doubles x to the integers x + `offset` - 2^52, for x + `offset` in [2^52, 2^53): the low
/// bits of that sum (exact, no rounding).
#[inline]
#[target_feature(enable = "avx2,fma")]
fn f64_to_int(x: __m256d, offset: __m256d) -> __m256i {
    let bits_52 = _mm256_set1_epi64x(TWO_52.to_bits() as i64);
    _mm256_sub_epi64(_mm256_castpd_si256(_mm256_add_pd(x, offset)), bits_52)
}

/// `x + p` where x < 0: an integer within p to [0, p).
/// Leaks: nothing (constant time).
#[inline]
#[target_feature(enable = "avx2,fma")]
fn non_negative(x: __m256d, c: &Consts) -> __m256d {
    let negative = _mm256_cmp_pd::<_CMP_LT_OQ>(x, _mm256_setzero_pd());
    _mm256_add_pd(x, _mm256_and_pd(negative, c.p))
}

/// Garner's CRT of [`super::ntt`]'s `crt` for the FMA prime set, four coefficients per step:
/// the three residues (integers in [0, 2p), as [`transform_inverse`] leaves them) scaled by
/// 1 / N and the two Garner steps as floating-point products by constants ([`mul_twiddle`]),
/// then c = x1 + x2 p1 + x3 p1 p2 (< p1 p2 p3 < 2^150) in three 64-bit limbs
/// ([`garner_sum`]), limb i of coefficient j at `out[i count + j]`.
///
/// Bounds (the primes lie within 2^-10 of each other): every [`mul_twiddle`] input stays
/// within 4p of its prime: residues < 2p; r2 - x1 within p2 + p1; r3 - x1 - x2 p1 within
/// p3 + p1 + p3; x2 < p2. Its outputs are within p, moved to [0, p) by [`non_negative`]
/// where an x_i is formed.
/// Leaks: nothing but the lengths (constant time).
///
/// # Safety
/// AVX2 and FMA; `res` holds 3 n values, `count <= n` a multiple of 4, `out` 3 count limbs;
/// `k` built for the FMA set and length n.
#[target_feature(enable = "avx2,fma")]
pub(crate) unsafe fn crt(
    res: &[u64],
    n: usize,
    count: usize,
    k: &super::ntt::CrtConsts,
    out: &mut [u64],
) {
    debug_assert!(
        res.len() == 3 * n && count <= n && count.is_multiple_of(4) && out.len() >= 3 * count
    );
    let primes = k.fields.map(|f| f.p);
    let [p1, p2, p3] = primes;
    debug_assert!(p1.abs_diff(p2).max(p1.abs_diff(p3)).max(p2.abs_diff(p3)) < p3 >> 10);
    let c = primes.map(|p| Consts::new(p));
    let scale: [_; 3] = core::array::from_fn(|i| broadcast_constant(k.scale[i][0], primes[i]));
    let c12 = broadcast_constant(k.c12[0], p2);
    let p1_mod_p3 = broadcast_constant(k.p1_mod_p3[0], p3);
    let c123 = broadcast_constant(k.c123[0], p3);
    let two_52 = _mm256_set1_pd(TWO_52);
    let g = GarnerConsts::new(p1, p2);
    for j in (0..count).step_by(4) {
        // SAFETY: j + 4 <= count <= n, so each load stays within its third of `res` and each
        // store within its third of `out` (3 count limbs).
        unsafe {
            let load = |i: usize| {
                int_to_f64(
                    _mm256_loadu_si256(res.as_ptr().add(i * n + j).cast()),
                    two_52,
                )
            };
            let (r1, r2, r3) = (load(0), load(1), load(2));
            let x1 = non_negative(mul_twiddle(r1, scale[0][0], scale[0][1], &c[0]), &c[0]);
            let r2 = mul_twiddle(r2, scale[1][0], scale[1][1], &c[1]);
            let r3 = mul_twiddle(r3, scale[2][0], scale[2][1], &c[2]);
            // x2 = (r2 - x1) / p1 mod p2.
            let x2 = mul_twiddle(_mm256_sub_pd(r2, x1), c12[0], c12[1], &c[1]);
            let x2 = non_negative(x2, &c[1]);
            // x3 = (r3 - x1 - x2 p1) / (p1 p2) mod p3.
            let w = mul_twiddle(x2, p1_mod_p3[0], p1_mod_p3[1], &c[2]);
            let t = _mm256_sub_pd(_mm256_sub_pd(r3, x1), w);
            let x3 = non_negative(mul_twiddle(t, c123[0], c123[1], &c[2]), &c[2]);
            let [x1, x2, x3] = [x1, x2, x3].map(|x| f64_to_int(x, two_52));
            for (i, limb) in garner_sum(x1, x2, x3, &g).into_iter().enumerate() {
                _mm256_storeu_si256(out.as_mut_ptr().add(i * count + j).cast(), limb);
            }
        }
    }
}

/// The constants of [`garner_sum`] for p1 = a1 2^32 + 1 and p2 = a2 2^32 + 1 (the FMA set's
/// primes are c 2^32 + 1 with c < 2^18): a1, a1 + a2 and the two 32-bit halves of a1 a2.
pub(crate) struct GarnerConsts {
    a1: __m256i,
    a1_plus_a2: __m256i,
    a1a2_lo: __m256i,
    a1a2_hi: __m256i,
}

impl GarnerConsts {
    #[inline]
    #[target_feature(enable = "avx2,fma")]
    pub(crate) fn new(p1: u64, p2: u64) -> Self {
        let (a1, a2) = (p1 >> 32, p2 >> 32);
        debug_assert!(p1 as u32 == 1 && p2 as u32 == 1 && a1 < 1 << 18 && a2 < 1 << 18);
        let a1a2 = a1 * a2;
        let set = |x: u64| _mm256_set1_epi64x(x as i64);
        Self {
            a1: set(a1),
            a1_plus_a2: set(a1 + a2),
            a1a2_lo: set(a1a2 & 0xffff_ffff),
            a1a2_hi: set(a1a2 >> 32),
        }
    }
}

/// Garner's last step in four lanes: c = x1 + x2 p1 + x3 p1 p2 (x1 < p1, x2 < p2, x3 < p3, all
/// below 2^50, so c < p1 p2 p3 < 2^150) as three 64-bit limbs, low first, for primes of the form
/// a 2^32 + 1 ([`GarnerConsts`]). With p1 p2 = a1 a2 2^64 + (a1 + a2) 2^32 + 1,
/// c = (x1 + x2 + x3) + (x2 a1 + x3 (a1 + a2)) 2^32 + x3 a1 a2 2^64: 32-bit partial products
/// (`vpmuludq`) summed in 64-bit columns of weight 2^32k, then the carries passed up.
/// Leaks: nothing (constant time).
#[inline]
#[target_feature(enable = "avx2,fma")]
pub(crate) fn garner_sum(x1: __m256i, x2: __m256i, x3: __m256i, g: &GarnerConsts) -> [__m256i; 3] {
    let low_half = |x: __m256i| _mm256_blend_epi32::<0b1010_1010>(x, _mm256_setzero_si256());
    // x = x_hi 2^32 + x_lo; `_mm256_mul_epu32` reads the low halves itself.
    let (x2_hi, x3_hi) = (_mm256_srli_epi64::<32>(x2), _mm256_srli_epi64::<32>(x3));
    // x3_lo (a1 a2)_lo < 2^64: its halves go to columns 2 and 3.
    let cross = _mm256_mul_epu32(x3, g.a1a2_lo);
    // Column sums, each below 2^53: col0 < 3 2^50; col1 < 2^32 (2^18 + 2^19); col2 < 2^32 +
    // 2^18 (2^18 + 2^19); col3 < 2^32 + 2^32 2^4 + 2^18 2^32; col4 < 2^18 2^4.
    let col0 = _mm256_add_epi64(_mm256_add_epi64(x1, x2), x3);
    let col1 = _mm256_add_epi64(
        _mm256_mul_epu32(x2, g.a1),
        _mm256_mul_epu32(x3, g.a1_plus_a2),
    );
    let col2 = _mm256_add_epi64(
        _mm256_add_epi64(
            _mm256_mul_epu32(x2_hi, g.a1),
            _mm256_mul_epu32(x3_hi, g.a1_plus_a2),
        ),
        low_half(cross),
    );
    let col3 = _mm256_add_epi64(
        _mm256_add_epi64(
            _mm256_srli_epi64::<32>(cross),
            _mm256_mul_epu32(x3, g.a1a2_hi),
        ),
        _mm256_mul_epu32(x3_hi, g.a1a2_lo),
    );
    let col4 = _mm256_mul_epu32(x3_hi, g.a1a2_hi);
    // Carries up the columns (each sum stays below 2^54); the top column is below 2^22 after
    // its carry, as c < 2^150.
    let col1 = _mm256_add_epi64(col1, _mm256_srli_epi64::<32>(col0));
    let col2 = _mm256_add_epi64(col2, _mm256_srli_epi64::<32>(col1));
    let col3 = _mm256_add_epi64(col3, _mm256_srli_epi64::<32>(col2));
    let col4 = _mm256_add_epi64(col4, _mm256_srli_epi64::<32>(col3));
    let pair = |lo: __m256i, hi: __m256i| {
        _mm256_blend_epi32::<0b1010_1010>(lo, _mm256_slli_epi64::<32>(hi))
    };
    [pair(col0, col1), pair(col2, col3), col4]
}

/// Coefficients past 64 bits (64 < b, each below 2^193) into four rows for [`super::ntt`]'s
/// row-wise sum: coefficient k shifted by k b mod 64 is four words, stored at limb k b / 64 of
/// row k mod 4 (`rows[(k mod 4) width ..]`). Four coefficients apart start at least four limbs
/// apart (4 b > 256), so a row's words never overlap and plain stores do (the words a row
/// skips stay as the caller left them: zero). Coefficients from limb `len` on are left out.
/// Each step shifts four consecutive coefficients (one per row) in the lanes (`vpsllvq` and
/// `vpsrlvq`, where a count of 64 gives 0) and transposes them to one vector per coefficient.
/// Leaks: nothing but the lengths (constant time).
///
/// # Safety
/// AVX2; `c` holds 3 `stride` words with `count` rounded up to 4 at most `stride`; `rows`
/// holds 4 `width` words, `width >= len + 4`.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn spread_rows(
    rows: &mut [u64],
    width: usize,
    c: &[u64],
    stride: usize,
    count: usize,
    b: u32,
    len: usize,
) {
    debug_assert!(b > 64 && count.next_multiple_of(4) <= stride && c.len() >= 3 * stride);
    debug_assert!(width >= len + 4 && rows.len() >= 4 * width);
    let b = b as usize;
    let lane_offsets = _mm256_setr_epi64x(0, b as i64, 2 * b as i64, 3 * b as i64);
    let (mask, sixty_four) = (_mm256_set1_epi64x(63), _mm256_set1_epi64x(64));
    for j in (0..count).step_by(4) {
        if j * b / 64 >= len {
            break;
        }
        // SAFETY: j + 4 <= stride (count rounded up to 4), so the loads stay in each third of
        // `c`; each store of four words at limb i < len of a row ends within width >= len + 4.
        unsafe {
            let load = |i: usize| _mm256_loadu_si256(c.as_ptr().add(i * stride + j).cast());
            let (c0, c1, c2) = (load(0), load(1), load(2));
            let offsets = _mm256_add_epi64(_mm256_set1_epi64x((j * b) as i64), lane_offsets);
            let left = _mm256_and_si256(offsets, mask);
            let right = _mm256_sub_epi64(sixty_four, left);
            let s0 = _mm256_sllv_epi64(c0, left);
            let s1 = _mm256_or_si256(_mm256_sllv_epi64(c1, left), _mm256_srlv_epi64(c0, right));
            let s2 = _mm256_or_si256(_mm256_sllv_epi64(c2, left), _mm256_srlv_epi64(c1, right));
            let s3 = _mm256_srlv_epi64(c2, right);
            // Transpose: coefficient j + l's four words in one vector.
            let (a_lo, a_hi) = (_mm256_unpacklo_epi64(s0, s1), _mm256_unpackhi_epi64(s0, s1));
            let (b_lo, b_hi) = (_mm256_unpacklo_epi64(s2, s3), _mm256_unpackhi_epi64(s2, s3));
            let words = [
                _mm256_permute2x128_si256::<0x20>(a_lo, b_lo),
                _mm256_permute2x128_si256::<0x20>(a_hi, b_hi),
                _mm256_permute2x128_si256::<0x31>(a_lo, b_lo),
                _mm256_permute2x128_si256::<0x31>(a_hi, b_hi),
            ];
            for (l, w) in words.into_iter().enumerate() {
                let (k, limb) = (j + l, (j + l) * b / 64);
                if k < count && limb < len {
                    _mm256_storeu_si256(rows.as_mut_ptr().add(l * width + limb).cast(), w);
                }
            }
        }
    }
}

/// A scalar model of the kernels, operation for operation (so bit for bit the same results),
/// with the bounds the comments above claim as `debug_assert!`s.
#[cfg(test)]
pub(crate) mod reference {
    use super::{FpTwiddles, FpTwist, ROUND_MAGIC};

    /// The exact a b rounded to nearest (ties to even) for |a b| < 2^51, as the vector
    /// `round_mul`.
    fn round_mul(a: f64, b: f64) -> f64 {
        debug_assert!((a * b).abs() < (1u64 << 51) as f64);
        a.mul_add(b, ROUND_MAGIC) - ROUND_MAGIC
    }

    /// As the vector `reduce`: |x| <= 4p in, within p/2 + 2 out.
    pub(crate) fn reduce(x: f64, p: f64) -> f64 {
        debug_assert!(x.abs() <= 4.0 * p);
        let r = (-round_mul(x, 1.0 / p)).mul_add(p, x);
        debug_assert!(r.abs() <= p / 2.0 + 2.0);
        r
    }

    /// As the vector `mul_twiddle`: |y| <= 4p, |w| <= p/2 in, within p out.
    pub(crate) fn mul_twiddle(y: f64, w: f64, w_q: f64, p: f64) -> f64 {
        debug_assert!(y.abs() <= 4.0 * p && w.abs() <= p / 2.0);
        let h = y * w;
        let l = y.mul_add(w, -h);
        let q = round_mul(y, w_q);
        let r = (-q).mul_add(p, h) + l;
        debug_assert!(r.abs() < p);
        r
    }

    /// As the vector `mul`: |a|, |b| <= p/2 + 2 in, within p out.
    pub(crate) fn mul(a: f64, b: f64, p: f64) -> f64 {
        debug_assert!(a.abs() <= p / 2.0 + 2.0 && b.abs() <= p / 2.0 + 2.0);
        let h = a * b;
        let l = a.mul_add(b, -h);
        let q = round_mul(h, 1.0 / p);
        let r = (-q).mul_add(p, h) + l;
        debug_assert!(r.abs() < p);
        r
    }

    /// The forward transform of integers in [0, 4p) (as the vector one; 3M points with
    /// `twist`).
    pub(crate) fn transform(a: &mut [f64], tw: &FpTwiddles, twist: Option<&FpTwist>, p: f64) {
        for x in a.iter_mut() {
            debug_assert!(*x >= 0.0 && *x < 4.0 * p);
            *x -= 2.0 * p;
        }
        let m = match twist {
            Some(t) => {
                let m = a.len() / 3;
                let (x0, rest) = a.split_at_mut(m);
                let (x1, x2) = rest.split_at_mut(m);
                let [(w1, w1_q), (w2, w2_q)] = &t.twist;
                for i in 0..m {
                    let (u0, u1, u2) = (reduce(x0[i], p), reduce(x1[i], p), reduce(x2[i], p));
                    let t = mul_twiddle(u1 - u2, t.omega.0, t.omega.1, p);
                    x0[i] = u0 + u1 + u2;
                    x1[i] = mul_twiddle(u0 - u2 + t, w1[i], w1_q[i], p);
                    x2[i] = mul_twiddle(u0 - u1 - t, w2[i], w2_q[i], p);
                }
                m
            }
            None => a.len(),
        };
        for a in a.chunks_exact_mut(m) {
            let (mut len, mut stage) = (m / 2, 0);
            while len > 0 {
                for (i, chunk) in a.chunks_exact_mut(2 * len).enumerate() {
                    let (x, y) = chunk.split_at_mut(len);
                    for (x, y) in x.iter_mut().zip(y.iter_mut()) {
                        debug_assert!(x.abs() <= 3.0 * p && y.abs() <= 3.0 * p);
                        let u = if stage % 2 == 0 { reduce(*x, p) } else { *x };
                        let t = mul_twiddle(*y, tw.w[i], tw.w_q[i], p);
                        (*x, *y) = (u + t, u - t);
                    }
                }
                len /= 2;
                stage += 1;
            }
        }
    }

    /// The inverse transform to integers in [0, 2p) (as the vector one; 3M points with
    /// `twist`).
    pub(crate) fn transform_inverse(
        a: &mut [f64],
        tw: &FpTwiddles,
        twist: Option<&FpTwist>,
        p: f64,
    ) {
        let m = if twist.is_some() {
            a.len() / 3
        } else {
            a.len()
        };
        for a in a.chunks_exact_mut(m) {
            let (mut len, mut stage) = (1, 0);
            while len < m {
                let bound = if stage % 2 == 0 { p } else { 2.0 * p };
                for (i, chunk) in a.chunks_exact_mut(2 * len).enumerate() {
                    let (x, y) = chunk.split_at_mut(len);
                    for (x, y) in x.iter_mut().zip(y.iter_mut()) {
                        debug_assert!(x.abs() <= bound && y.abs() <= bound);
                        let s = *x + *y;
                        let s = if stage % 2 == 1 { reduce(s, p) } else { s };
                        (*x, *y) = (s, mul_twiddle(*x - *y, tw.w_inv[i], tw.w_inv_q[i], p));
                    }
                }
                len *= 2;
                stage += 1;
            }
        }
        if let Some(t) = twist {
            let (x0, rest) = a.split_at_mut(m);
            let (x1, x2) = rest.split_at_mut(m);
            let [(w1, w1_q), (w2, w2_q)] = &t.untwist;
            for i in 0..m {
                debug_assert!(
                    x0[i].abs() <= 2.0 * p && x1[i].abs() <= 2.0 * p && x2[i].abs() <= 2.0 * p
                );
                let a0 = reduce(x0[i], p);
                let b1 = mul_twiddle(x1[i], w1[i], w1_q[i], p);
                let b2 = mul_twiddle(x2[i], w2[i], w2_q[i], p);
                let t = mul_twiddle(b2 - b1, t.omega.0, t.omega.1, p);
                (x0[i], x1[i], x2[i]) = (a0 + b1 + b2, a0 - b1 + t, a0 - b2 - t);
            }
        }
        for x in a.iter_mut() {
            *x = reduce(*x, p) + p;
            debug_assert!(*x >= 0.0 && *x < 2.0 * p);
        }
    }

    /// The pointwise product (as the vector one).
    pub(crate) fn pointwise(a: &mut [f64], b: &[f64], p: f64) {
        for (x, &y) in a.iter_mut().zip(b) {
            *x = mul(reduce(*x, p), reduce(y, p), p);
        }
    }
}
