//! The NTT kernels of [`super::ntt`] on AVX-512 IFMA: eight butterflies per instruction
//! sequence, with the primes of [`super::ntt::IFMA`] (below 2^50, so every value up to 4p fits
//! the 52-bit inputs of `vpmadd52luq` / `vpmadd52huq`).
//!
//! Shoup's product in radix 2^52 (Harvey 2014, Algorithm 2 with β = 2^52): for w < p, w' =
//! floor(w 2^52 / p) and y < 2^52, q = floor(w' y / 2^52) (one `madd52hi`) and
//! w y - q p in [0, 2p), computed mod 2^52 as lo52(w y) + lo52(q (2^52 - p)) (two `madd52lo`) and
//! a mask. The pointwise product is Montgomery's in radix 2^52.
//!
//! Stages whose butterflies are at least eight apart run straight on vectors with one
//! broadcast twiddle per block. The last three stages (distances 4, 2, 1) run on pairs of
//! vectors, 16 values that hold whole blocks: `vpermt2q` gathers the butterflies' first and
//! second inputs into two vectors and a lane permutation spreads the blocks' twiddles.
//!
//! Run by the caller on the [`crate::cpu::Tier::Ifma`] tier only. Variable time only in
//! the length.

use super::ntt::{Field, Twiddles};
use core::arch::x86_64::*;

const MASK52: u64 = (1 << 52) - 1;

/// The constants of one prime as vectors.
#[derive(Clone, Copy)]
struct Consts {
    p: __m512i,
    two_p: __m512i,
    /// 2^52 - p.
    p_neg: __m512i,
    mask: __m512i,
    /// -p^{-1} mod 2^52.
    p_neg_inv: __m512i,
}

impl Consts {
    #[inline]
    #[target_feature(enable = "avx512f")]
    fn new(f: &Field) -> Self {
        Self {
            p: _mm512_set1_epi64(f.p as i64),
            two_p: _mm512_set1_epi64(2 * f.p as i64),
            p_neg: _mm512_set1_epi64(((1 << 52) - f.p) as i64),
            mask: _mm512_set1_epi64(MASK52 as i64),
            p_neg_inv: _mm512_set1_epi64(f.p_neg_inv as i64),
        }
    }
}

/// `w y mod p` in [0, 2p) lane by lane, for y < 2^52 (module docs).
/// Leaks: nothing (constant time).
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
fn shoup(y: __m512i, w: __m512i, w_q: __m512i, c: &Consts) -> __m512i {
    let zero = _mm512_setzero_si512();
    let q = _mm512_madd52hi_epu64(zero, w_q, y);
    let r = _mm512_madd52lo_epu64(_mm512_madd52lo_epu64(zero, w, y), q, c.p_neg);
    _mm512_and_si512(r, c.mask)
}

/// `x mod 2p` for x < 4p (the smaller of x and x - 2p, unsigned).
/// Leaks: nothing (constant time).
#[inline]
#[target_feature(enable = "avx512f")]
fn reduce_2p(x: __m512i, c: &Consts) -> __m512i {
    _mm512_min_epu64(x, _mm512_sub_epi64(x, c.two_p))
}

/// Cooley–Tukey butterfly (Harvey): inputs in [0, 4p), outputs in [0, 4p).
/// Leaks: nothing (constant time).
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
fn ct(x: __m512i, y: __m512i, w: __m512i, w_q: __m512i, c: &Consts) -> (__m512i, __m512i) {
    let u = reduce_2p(x, c);
    let t = shoup(y, w, w_q, c);
    (
        _mm512_add_epi64(u, t),
        _mm512_sub_epi64(_mm512_add_epi64(u, c.two_p), t),
    )
}

/// Gentleman–Sande butterfly (Harvey): inputs in [0, 2p), outputs in [0, 2p).
/// Leaks: nothing (constant time).
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
fn gs(x: __m512i, y: __m512i, w: __m512i, w_q: __m512i, c: &Consts) -> (__m512i, __m512i) {
    let s = reduce_2p(_mm512_add_epi64(x, y), c);
    let d = _mm512_sub_epi64(_mm512_add_epi64(x, c.two_p), y);
    (s, shoup(d, w, w_q, c))
}

/// Montgomery product `a b 2^-52 mod p` in [0, 2p) for a, b < 2p: with a b = h 2^52 + l and
/// m = l (-p^{-1}) mod 2^52, (a b + m p) / 2^52 = h + hi52(m p) + (l != 0), below
/// 4p^2 / 2^52 + p < 2p.
/// Leaks: nothing (constant time).
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
fn mont_mul(a: __m512i, b: __m512i, c: &Consts) -> __m512i {
    let zero = _mm512_setzero_si512();
    let l = _mm512_madd52lo_epu64(zero, a, b);
    let h = _mm512_madd52hi_epu64(zero, a, b);
    let m = _mm512_and_si512(_mm512_madd52lo_epu64(zero, l, c.p_neg_inv), c.mask);
    let r = _mm512_madd52hi_epu64(h, m, c.p);
    _mm512_mask_add_epi64(r, _mm512_test_epi64_mask(l, l), r, _mm512_set1_epi64(1))
}

/// Lane indices for one of the last three stages (butterfly distance `len` in 4, 2, 1) on a
/// group of 16 values held as vectors A (0..8) and B (8..16): `x`, `y` gather the butterflies'
/// inputs from (A, B); `a`, `b` put the outputs back from (X, Y); `tw` spreads the group's
/// first eight twiddles over the lanes (one per block of 2 len values).
struct Shuffle {
    x: __m512i,
    y: __m512i,
    a: __m512i,
    b: __m512i,
    tw: __m512i,
}

impl Shuffle {
    #[inline]
    #[target_feature(enable = "avx512f")]
    fn new(len: usize) -> Self {
        let v = |i: [i64; 8]| _mm512_set_epi64(i[7], i[6], i[5], i[4], i[3], i[2], i[1], i[0]);
        match len {
            4 => Self {
                x: v([0, 1, 2, 3, 8, 9, 10, 11]),
                y: v([4, 5, 6, 7, 12, 13, 14, 15]),
                a: v([0, 1, 2, 3, 8, 9, 10, 11]),
                b: v([4, 5, 6, 7, 12, 13, 14, 15]),
                tw: v([0, 0, 0, 0, 1, 1, 1, 1]),
            },
            2 => Self {
                x: v([0, 1, 4, 5, 8, 9, 12, 13]),
                y: v([2, 3, 6, 7, 10, 11, 14, 15]),
                a: v([0, 1, 8, 9, 2, 3, 10, 11]),
                b: v([4, 5, 12, 13, 6, 7, 14, 15]),
                tw: v([0, 0, 1, 1, 2, 2, 3, 3]),
            },
            _ => Self {
                x: v([0, 2, 4, 6, 8, 10, 12, 14]),
                y: v([1, 3, 5, 7, 9, 11, 13, 15]),
                a: v([0, 8, 1, 9, 2, 10, 3, 11]),
                b: v([4, 12, 5, 13, 6, 14, 7, 15]),
                tw: v([0, 1, 2, 3, 4, 5, 6, 7]),
            },
        }
    }
}

/// One of the last three stages on the group (A, B) whose first block is twiddle `k` of `w`.
/// Leaks: nothing but the length (constant time).
///
/// # Safety
/// AVX-512F and IFMA; `w` and `w_q` hold at least `k + 8` entries.
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
unsafe fn small_stage(
    (a, b): (__m512i, __m512i),
    sh: &Shuffle,
    w: &[u64],
    w_q: &[u64],
    k: usize,
    c: &Consts,
    forward: bool,
) -> (__m512i, __m512i) {
    debug_assert!(k + 8 <= w.len() && k + 8 <= w_q.len());
    // SAFETY: k + 8 entries checked above.
    let (wv, wq) = unsafe {
        (
            _mm512_loadu_si512(w.as_ptr().add(k).cast()),
            _mm512_loadu_si512(w_q.as_ptr().add(k).cast()),
        )
    };
    let (wv, wq) = (
        _mm512_permutexvar_epi64(sh.tw, wv),
        _mm512_permutexvar_epi64(sh.tw, wq),
    );
    let x = _mm512_permutex2var_epi64(a, sh.x, b);
    let y = _mm512_permutex2var_epi64(a, sh.y, b);
    let (x, y) = if forward {
        ct(x, y, wv, wq, c)
    } else {
        gs(x, y, wv, wq, c)
    };
    (
        _mm512_permutex2var_epi64(x, sh.a, y),
        _mm512_permutex2var_epi64(x, sh.b, y),
    )
}

/// One stage with butterflies `len >= 8` apart on the whole of `a` (blocks of 2 len values,
/// block i with twiddle i): Cooley–Tukey when `FWD`, else Gentleman–Sande.
/// Leaks: nothing but the length (constant time).
///
/// # Safety
/// AVX-512F and IFMA; `a.len()` a multiple of 2 len; `w`, `w_q` hold a twiddle per block.
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
unsafe fn wide_stage<const FWD: bool>(
    a: &mut [u64],
    len: usize,
    w: &[u64],
    w_q: &[u64],
    c: &Consts,
) {
    debug_assert!(len >= 8 && a.len().is_multiple_of(2 * len));
    let ptr = a.as_mut_ptr();
    for i in 0..a.len() / (2 * len) {
        let (wv, wq) = (
            _mm512_set1_epi64(w[i] as i64),
            _mm512_set1_epi64(w_q[i] as i64),
        );
        for j in (2 * len * i..2 * len * i + len).step_by(8) {
            // SAFETY: j + len + 8 <= 2 len (i + 1) <= a.len().
            unsafe {
                let x = _mm512_loadu_si512(ptr.add(j).cast());
                let y = _mm512_loadu_si512(ptr.add(j + len).cast());
                let (x, y) = if FWD {
                    ct(x, y, wv, wq, c)
                } else {
                    gs(x, y, wv, wq, c)
                };
                _mm512_storeu_si512(ptr.add(j).cast(), x);
                _mm512_storeu_si512(ptr.add(j + len).cast(), y);
            }
        }
    }
}

/// The three stages with butterflies 4, 2 and 1 apart (in that order when `FWD`, reversed
/// otherwise), on each group of 16 values held in two vectors.
/// Leaks: nothing but the length (constant time).
///
/// # Safety
/// AVX-512F and IFMA; `a.len()` a multiple of 16; the twiddle tables hold `a.len() / 2 + 8`
/// entries.
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
unsafe fn narrow_stages<const FWD: bool>(a: &mut [u64], w: &[u64], w_q: &[u64], c: &Consts) {
    let n = a.len();
    debug_assert!(n.is_multiple_of(16) && w.len() >= n / 2 + 8);
    let ptr = a.as_mut_ptr();
    let lens = if FWD { [4, 2, 1] } else { [1, 2, 4] };
    let shuffles = lens.map(|len| Shuffle::new(len));
    for g in (0..n).step_by(16) {
        // SAFETY: g + 16 <= n; the twiddle index of the group's first block at distance len is
        // g / (2 len) <= n / 2 - 1, and the tables have 8 entries of padding.
        unsafe {
            let mut v = (
                _mm512_loadu_si512(ptr.add(g).cast()),
                _mm512_loadu_si512(ptr.add(g + 8).cast()),
            );
            for (sh, len) in shuffles.iter().zip(lens) {
                v = small_stage(v, sh, w, w_q, g / (2 * len), c, FWD);
            }
            _mm512_storeu_si512(ptr.add(g).cast(), v.0);
            _mm512_storeu_si512(ptr.add(g + 8).cast(), v.1);
        }
    }
}

/// Forward transform (as [`super::ntt`]'s portable one): natural order in, bit-reversed out,
/// values in [0, 4p).
/// Leaks: nothing but the length (constant time).
///
/// # Safety
/// AVX-512F and IFMA; `a.len()` a power of two >= 16; the twiddle tables hold `a.len() / 2 + 8`
/// entries.
#[target_feature(enable = "avx512f,avx512ifma")]
unsafe fn forward(a: &mut [u64], w: &[u64], w_q: &[u64], c: &Consts) {
    let n = a.len();
    debug_assert!(n >= 16 && n.is_power_of_two());
    let mut len = n / 2;
    while len >= 8 {
        // SAFETY: the caller's guarantees.
        unsafe { wide_stage::<true>(a, len, w, w_q, c) };
        len /= 2;
    }
    // SAFETY: the caller's guarantees.
    unsafe { narrow_stages::<true>(a, w, w_q, c) };
}

/// Inverse transform without the 1/N: bit-reversed in, natural out, values in [0, 2p).
/// Leaks: nothing but the length (constant time).
///
/// # Safety
/// As [`forward`].
#[target_feature(enable = "avx512f,avx512ifma")]
unsafe fn inverse(a: &mut [u64], w: &[u64], w_q: &[u64], c: &Consts) {
    let n = a.len();
    debug_assert!(n >= 16 && n.is_power_of_two());
    // SAFETY: the caller's guarantees.
    unsafe { narrow_stages::<false>(a, w, w_q, c) };
    let mut len = 8;
    while len < n {
        // SAFETY: the caller's guarantees.
        unsafe { wide_stage::<false>(a, len, w, w_q, c) };
        len *= 2;
    }
}

/// Forward transform of `a` mod the prime of `f` (see [`forward`]).
/// Leaks: nothing but the length (constant time).
///
/// # Safety
/// AVX-512F and IFMA; `a.len()` a power of two >= 16; `tw` built for at least that length with
/// the IFMA prime set.
#[target_feature(enable = "avx512f,avx512ifma")]
pub(crate) unsafe fn transform(a: &mut [u64], tw: &Twiddles, f: &Field) {
    // SAFETY: the caller's guarantees.
    unsafe { forward(a, &tw.w, &tw.w_q, &Consts::new(f)) }
}

/// Inverse transform of `a` without the 1/N (see [`inverse`]).
/// Leaks: nothing but the length (constant time).
///
/// # Safety
/// As [`transform`].
#[target_feature(enable = "avx512f,avx512ifma")]
pub(crate) unsafe fn transform_inverse(a: &mut [u64], tw: &Twiddles, f: &Field) {
    // SAFETY: the caller's guarantees.
    unsafe { inverse(a, &tw.w_inv, &tw.w_inv_q, &Consts::new(f)) }
}

/// `a[i] = a[i] b[i] 2^-52 mod p` (in [0, 2p)) for `a[i], b[i] < 4p`; `b` = `a` squares.
/// Leaks: nothing but the length (constant time).
///
/// # Safety
/// AVX-512F and IFMA; equal lengths, a multiple of 8.
#[target_feature(enable = "avx512f,avx512ifma")]
pub(crate) unsafe fn pointwise(a: &mut [u64], b: Option<&[u64]>, f: &Field) {
    let c = Consts::new(f);
    let n = a.len();
    debug_assert!(n.is_multiple_of(8) && b.is_none_or(|b| b.len() == n));
    let ptr = a.as_mut_ptr();
    for i in (0..n).step_by(8) {
        // SAFETY: i + 8 <= n for both slices.
        unsafe {
            let x = reduce_2p(_mm512_loadu_si512(ptr.add(i).cast()), &c);
            let y = match b {
                Some(b) => reduce_2p(_mm512_loadu_si512(b.as_ptr().add(i).cast()), &c),
                None => x,
            };
            _mm512_storeu_si512(ptr.add(i).cast(), mont_mul(x, y, &c));
        }
    }
}

/// Garner's CRT constants as vectors (see [`super::ntt::CrtConsts`]).
struct CrtVec {
    c: [Consts; 3],
    scale: [[__m512i; 2]; 3],
    c12: [__m512i; 2],
    p1_mod_p3: [__m512i; 2],
    c123: [__m512i; 2],
    /// p1 p2 in two digits of 52 bits.
    p1p2: [__m512i; 2],
}

/// `x mod p` for x < 2p.
/// Leaks: nothing (constant time).
#[inline]
#[target_feature(enable = "avx512f")]
fn reduce_p(x: __m512i, c: &Consts) -> __m512i {
    _mm512_min_epu64(x, _mm512_sub_epi64(x, c.p))
}

/// The coefficients of the convolution from the three inverse transforms `res` (N values each, in
/// [0, 2p_j)), for coefficients `0..count` (a multiple of 8, at most N): each scaled by its
/// prime's 2^52 / N, then Garner's CRT x1 + x2 p1 + x3 p1 p2 (as [`super::ntt`]'s portable
/// one, in radix 2^52), written as three limbs per coefficient to `out`: limb i of
/// coefficient j at `out[i count + j]`.
/// Leaks: nothing but the length (constant time).
///
/// # Safety
/// AVX-512F and IFMA; `res.len() == 3 N`, `count <= N`, `count % 8 == 0`,
/// `out.len() >= 3 count`.
#[target_feature(enable = "avx512f,avx512ifma")]
pub(crate) unsafe fn crt(
    res: &[u64],
    n: usize,
    count: usize,
    k: &super::ntt::CrtConsts,
    out: &mut [u64],
) {
    debug_assert!(
        res.len() == 3 * n && count <= n && count.is_multiple_of(8) && out.len() >= 3 * count
    );
    let set1 = |x: u64| _mm512_set1_epi64(x as i64);
    let pair = |x: [u64; 2]| [set1(x[0]), set1(x[1])];
    let v = CrtVec {
        c: k.fields.map(|f| Consts::new(&f)),
        scale: k.scale.map(pair),
        c12: pair(k.c12),
        p1_mod_p3: pair(k.p1_mod_p3),
        c123: pair(k.c123),
        p1p2: [set1(k.p1p2 as u64 & MASK52), set1((k.p1p2 >> 52) as u64)],
    };
    let [c1, c2, c3] = &v.c;
    let zero = _mm512_setzero_si512();
    let mask = c1.mask;
    for j in (0..count).step_by(8) {
        // SAFETY: j + 8 <= count <= n, and 3 count <= out.len().
        unsafe {
            let r1 = _mm512_loadu_si512(res.as_ptr().add(j).cast());
            let r2 = _mm512_loadu_si512(res.as_ptr().add(n + j).cast());
            let r3 = _mm512_loadu_si512(res.as_ptr().add(2 * n + j).cast());
            let x1 = reduce_p(shoup(r1, v.scale[0][0], v.scale[0][1], c1), c1);
            let r2 = reduce_p(shoup(r2, v.scale[1][0], v.scale[1][1], c2), c2);
            let r3 = reduce_p(shoup(r3, v.scale[2][0], v.scale[2][1], c3), c3);
            // x2 = (r2 - x1) / p1 mod p2 (x1 < p1 < 2 p2).
            let t = _mm512_sub_epi64(_mm512_add_epi64(r2, c2.two_p), x1);
            let x2 = reduce_p(shoup(t, v.c12[0], v.c12[1], c2), c2);
            // x3 = (r3 - x1 - x2 p1) / (p1 p2) mod p3.
            let u = reduce_2p(_mm512_sub_epi64(_mm512_add_epi64(r3, c3.two_p), x1), c3);
            let w = shoup(x2, v.p1_mod_p3[0], v.p1_mod_p3[1], c3);
            let t = _mm512_sub_epi64(_mm512_add_epi64(u, c3.two_p), w);
            let x3 = reduce_p(shoup(t, v.c123[0], v.c123[1], c3), c3);
            // c = x1 + x2 p1 + x3 (P0 + P1 2^52) in 52-bit digits d0, d1, d2 (unnormalized).
            let d0 = _mm512_madd52lo_epu64(_mm512_madd52lo_epu64(x1, x2, c1.p), x3, v.p1p2[0]);
            let d1 = _mm512_madd52lo_epu64(
                _mm512_madd52hi_epu64(_mm512_madd52hi_epu64(zero, x2, c1.p), x3, v.p1p2[0]),
                x3,
                v.p1p2[1],
            );
            let d2 = _mm512_madd52hi_epu64(zero, x3, v.p1p2[1]);
            // Normalize: d0 < 3 2^52, d1 < 3 2^52 + 2, then 64-bit limbs.
            let d1 = _mm512_add_epi64(d1, _mm512_srli_epi64::<52>(d0));
            let d0 = _mm512_and_si512(d0, mask);
            let d2 = _mm512_add_epi64(d2, _mm512_srli_epi64::<52>(d1));
            let d1 = _mm512_and_si512(d1, mask);
            let l0 = _mm512_or_si512(d0, _mm512_slli_epi64::<52>(d1));
            let l1 = _mm512_or_si512(_mm512_srli_epi64::<12>(d1), _mm512_slli_epi64::<40>(d2));
            let l2 = _mm512_srli_epi64::<24>(d2);
            let base = out.as_mut_ptr();
            _mm512_storeu_si512(base.add(j).cast(), l0);
            _mm512_storeu_si512(base.add(count + j).cast(), l1);
            _mm512_storeu_si512(base.add(2 * count + j).cast(), l2);
        }
    }
}
