//! Fused exponentiation for `montgomery-fast` above the unrolled sizes on CPUs with AVX-512
//! IFMA (beyond the source papers): almost Montgomery multiplication (AMM) in radix 2^52, eight
//! digits per 512-bit vector, products by `vpmadd52luq` / `vpmadd52huq`.
//!
//! A residue of m (k limbs) is held as n digits of 52 bits, R = 2^(52n) >= 4m, in V = ceil(n/8)
//! vectors ([`size_for`]; the lanes above n stay zero). AMM keeps values below 2m instead of m, so
//! it never subtracts (Gueron and Krasnov, "Software implementation of modular exponentiation,
//! using advanced vector instructions architectures", WAIFI 2012; the word-serial loop is the
//! CIOS of Koç, Acar, Kaliski, *Analyzing and Comparing Montgomery Multiplication Algorithms*,
//! IEEE Micro 1996, §5, with the inner loops vectorised). Entering multiplies by R^2 mod m,
//! leaving by 1 followed by one masked subtraction.
//!
//! Runs for contexts on the [`Tier::Ifma`] tier ([`MontParams::tier`]; `MODRED_CPU=adx` or
//! `MODRED_NO_ASM=1` turn it off). The products are constant time: no branch or memory index
//! depends on operand values.

use super::MontParams;
use crate::arith;
use crate::cpu::Tier;
use crate::limb::Limb;
use crate::scan::{ExpArith, FusedArith, FusedPow};
use crate::tuning::{IFMA_MAX_VECTORS, IFMA_MIN_LIMBS, IFMA_SPLIT_MAX_VECTORS};
use core::arch::x86_64::*;

const DIGIT_BITS: usize = 52;
const MASK52: u64 = (1 << DIGIT_BITS) - 1;
const LANES: usize = 8;

/// The AMM size for a k-limb modulus: (n, V) with n the least digit count such that
/// R = 2^(52n) >= 4 * 2^(64k) > 4m, and V = ceil(n / 8) vectors; `None` outside the sizes this
/// module serves (see [`crate::tuning::IFMA_MIN_LIMBS`]). The product loop runs n times, so
/// 1024-bit moduli take 20 iterations, not 24.
pub fn size_for(k: usize) -> Option<(usize, usize)> {
    let n = (64 * k + 2).div_ceil(DIGIT_BITS);
    let v = n.div_ceil(LANES);
    (k >= IFMA_MIN_LIMBS && v <= IFMA_MAX_VECTORS).then_some((n, v))
}

/// R^2 mod m for R = 2^(52 n), n the digit count [`size_for`] gives, when the kernels serve a
/// context of `m` on `tier` (else empty): [`super::MontParams::ifma_rr`].
/// Leaks: the modulus (a division).
pub(crate) fn rr_for(m: &[Limb], tier: Tier) -> Vec<Limb> {
    match size_for(m.len()) {
        Some((n, _)) if tier == Tier::Ifma => super::pow2_mod(2 * DIGIT_BITS * n, m),
        _ => Vec::new(),
    }
}

// `by_vectors!` instantiates V = 1..=20.
const _: () = assert!(IFMA_MAX_VECTORS <= 20);

/// 8V digits as V rows of eight, one vector each: the operands of [`amm`], at any address
/// (unaligned loads).
type Rows<const V: usize> = [[u64; LANES]; V];

/// A value as 8V digits of 52 bits (each < 2^52 between products), little-endian; each row
/// of eight is one vector. Aligned to 64 bytes, so that no vector load or store of a row
/// crosses a cache line: stack values and tables of them otherwise sit at whatever offset the
/// stack or the allocator gives, and a process whose offset split every row ran the 8192-bit
/// exponentiation about 40% slower than one whose offset did not.
#[derive(Clone, Copy, Debug)]
#[repr(C, align(64))]
pub(crate) struct Digits<const V: usize>(Rows<V>);

impl<const V: usize> AsRef<[u64]> for Digits<V> {
    fn as_ref(&self) -> &[u64] {
        self.0.as_flattened()
    }
}

impl<const V: usize> AsMut<[u64]> for Digits<V> {
    fn as_mut(&mut self) -> &mut [u64] {
        self.0.as_flattened_mut()
    }
}

impl<const V: usize> Digits<V> {
    fn small(x: u64) -> Self {
        let mut d = Self([[0; LANES]; V]);
        d.0[0][0] = x;
        d
    }

    /// `x` (8V digits) as rows, without a copy.
    fn view(x: &[u64]) -> &Rows<V> {
        x.as_chunks().0.try_into().expect("8V digits")
    }

    /// The digits of `x < 2^(52 * 8V)`.
    fn from_limbs(x: &[Limb]) -> Self {
        debug_assert!(arith::bit_len(x) <= DIGIT_BITS * LANES * V);
        let mut d = Self::small(0);
        for (i, out) in d.as_mut().iter_mut().enumerate() {
            *out = digit52(x, i);
        }
        d
    }

    /// The value as k limbs; it must fit.
    fn limbs(&self, k: usize) -> Vec<Limb> {
        limbs_of::<V>(self.as_ref(), k)
    }
}

/// Digit i (bits 52i..52i+51) of the little-endian limbs `x`, zero beyond them.
/// Leaks: nothing but the lengths.
pub(super) fn digit52(x: &[Limb], i: usize) -> u64 {
    let limb = |i: usize| x.get(i).copied().unwrap_or(0);
    let (w, s) = (i * DIGIT_BITS / 64, i * DIGIT_BITS % 64);
    // A digit starting at bit s of limb w spills into limb w + 1 when s > 12.
    let spill = if s > 64 - DIGIT_BITS {
        limb(w + 1) << (64 - s)
    } else {
        0
    };
    ((limb(w) >> s) | spill) & MASK52
}

/// `out` = the low limbs of the value whose 52-bit digits are `digit(0..count)` (each < 2^52);
/// returns the limb above them, the rest of the value (it must fit a word). Limb j is bits
/// 64j..64j+63, read from the three digits from 64j / 52 on by one 128-bit shift (t = 64j mod
/// 52 <= 48, so they hold bits t..t+63 within their low 128).
/// Leaks: nothing but the lengths.
#[inline(always)]
pub(super) fn limbs_of_digits_into(
    out: &mut [Limb],
    count: usize,
    digit: impl Fn(usize) -> u64,
) -> Limb {
    let digit = |i: usize| if i < count { u128::from(digit(i)) } else { 0 };
    let limb = |j: usize| {
        let (i, t) = (64 * j / DIGIT_BITS, 64 * j % DIGIT_BITS);
        let three = digit(i) | (digit(i + 1) << DIGIT_BITS) | (digit(i + 2) << (2 * DIGIT_BITS));
        (three >> t) as u64
    };
    for (j, o) in out.iter_mut().enumerate() {
        *o = limb(j);
    }
    let k = out.len();
    debug_assert!(
        (k + 1..=DIGIT_BITS * count / 64).all(|j| limb(j) == 0),
        "value does not fit k + 1 limbs"
    );
    limb(k)
}

/// The k limbs of the value whose 52-bit digits are `digit(0..count)` (each < 2^52; the value
/// must fit in k limbs): [`limbs_of_digits_into`], kept out of line as the former loop was
/// compiled, so that [`pow_v`] (whose product loops are sensitive to the code inlined around
/// them) compiles as before.
/// Leaks: nothing but the lengths.
#[inline(never)]
pub(super) fn limbs_of_digits(k: usize, count: usize, digit: impl Fn(usize) -> u64) -> Vec<Limb> {
    let mut out = vec![0; k];
    let above = limbs_of_digits_into(&mut out, count, digit);
    debug_assert_eq!(above, 0, "value does not fit k limbs");
    out
}

/// Almost Montgomery product: `a b R^{-1} mod m` up to one m, i.e. a value `< 2m` congruent to
/// it, as normalized digits. Preconditions: `a, b < 2m` with digits < 2^52, `4m <= R =
/// 2^(52 n)`, `n <= 8V`, `m` odd with digits < 2^52, `k0 = -m^{-1} mod 2^52`. Bound: (ab + Ym)/R <
/// 4m^2/R + m <= 2m.
/// Leaks: nothing but the lengths (constant time).
///
/// Iteration i (CIOS with radix 2^52, Koç–Acar–Kaliski 1996 §5) adds b_i a + y m with y chosen to
/// zero digit 0, then drops that digit. Vector lanes accumulate digits unnormalized: each
/// iteration adds four 52-bit halves (< 2^54) per lane, so after n <= 80 iterations a lane
/// stays below 2^61. The low halves go to lane j, the high halves to lane j + 1, added after
/// the one-lane shift. Digit 0 is followed in a scalar (`acc0`) so that y needs no vector
/// round trip beyond one lane extract; the vector's lane 0 lacks the carry of the dropped
/// digit, which only `acc0` holds. Two schedules of the same arithmetic, by size (see
/// [`crate::tuning::IFMA_SPLIT_MAX_VECTORS`]).
///
/// # Safety
/// The CPU must support AVX-512F and AVX-512 IFMA.
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
unsafe fn amm<const V: usize>(
    a: &Rows<V>,
    b: &Rows<V>,
    m: &Rows<V>,
    k0: u64,
    n: usize,
) -> Digits<V> {
    // SAFETY: the caller's guarantee; this function has the features amm_inline needs.
    unsafe { amm_inline(a, b, m, k0, n) }
}

/// [`amm`], always inlined: only for callers compiled with AVX-512F and IFMA (so that the
/// intrinsics inline too), such as [`pow_v`]'s exponentiation loops, where a call per product
/// was measured slower: 768-bit `sliding` 102 against 85 µs per exponentiation.
/// Leaks: as [`amm`].
///
/// # Safety
/// As [`amm`].
#[inline(always)]
unsafe fn amm_inline<const V: usize>(
    a: &Rows<V>,
    b: &Rows<V>,
    m: &Rows<V>,
    k0: u64,
    n: usize,
) -> Digits<V> {
    debug_assert!(n <= LANES * V);
    // SAFETY: the caller guarantees AVX-512F and AVX-512 IFMA (# Safety; the SSE4.1 lane
    // extract is implied by AVX-512F), all these intrinsics need; the only memory accesses are
    // the unaligned 64-byte loads of the V rows (8 u64 each) of `a` and `m`.
    let (x, acc0) = unsafe {
        let zero = _mm512_setzero_si512();
        let mut av = [zero; V];
        let mut mv = [zero; V];
        for v in 0..V {
            av[v] = _mm512_loadu_si512(a[v].as_ptr().cast());
            mv[v] = _mm512_loadu_si512(m[v].as_ptr().cast());
        }
        let (a0, a1, m0, m1) = (a[0][0], a[0][1], m[0][0], m[0][1]);
        let lo = |x: u128| x as u64 & MASK52;
        let hi = |x: u128| (x >> DIGIT_BITS) as u64;
        let lane1 = |x: __m512i| _mm_extract_epi64::<1>(_mm512_castsi512_si128(x)) as u64;
        let mut x = [zero; V];
        // acc0: digit 0 of the running value (vector lane 0 without the dropped digit's carry).
        let mut acc0: u64 = 0;
        for &bi in &b.as_flattened()[..n] {
            let bv = _mm512_set1_epi64(bi as i64);
            let p0 = a0 as u128 * bi as u128;
            let t = acc0 + lo(p0);
            let y = t.wrapping_mul(k0) & MASK52;
            let q0 = m0 as u128 * y as u128;
            let t = t + lo(q0);
            debug_assert_eq!(t & MASK52, 0);
            // Digit 1's share from digit 0: both high halves and the carry of the zeroed digit.
            let h = hi(p0) + hi(q0) + (t >> DIGIT_BITS);
            let yv = _mm512_set1_epi64(y as i64);
            if V <= IFMA_SPLIT_MAX_VECTORS {
                // Latency-bound sizes. The next digit 0 comes from scalars and digit 1 as this
                // iteration starts, so y never waits for this iteration's vector work; and each
                // half is summed in a fresh register (the b_i a product does not wait for y) and
                // joins x with one addition, so x's own chain is add, shift, add.
                let digit1 = lane1(x[0]);
                for v in 0..V {
                    let low =
                        _mm512_madd52lo_epu64(_mm512_madd52lo_epu64(zero, av[v], bv), mv[v], yv);
                    x[v] = _mm512_add_epi64(x[v], low);
                }
                for v in 0..V {
                    let high =
                        _mm512_madd52hi_epu64(_mm512_madd52hi_epu64(zero, av[v], bv), mv[v], yv);
                    let above = if v + 1 < V { x[v + 1] } else { zero };
                    x[v] = _mm512_add_epi64(_mm512_alignr_epi64::<1>(above, x[v]), high);
                }
                acc0 = digit1 + lo(a1 as u128 * bi as u128) + lo(m1 as u128 * y as u128) + h;
            } else {
                // Throughput-bound sizes: the fewest instructions, accumulating in place; digit 1
                // is read once its low halves are in.
                for v in 0..V {
                    x[v] = _mm512_madd52lo_epu64(x[v], av[v], bv);
                    x[v] = _mm512_madd52lo_epu64(x[v], mv[v], yv);
                }
                let digit1 = lane1(x[0]);
                for v in 0..V {
                    let above = if v + 1 < V { x[v + 1] } else { zero };
                    x[v] = _mm512_alignr_epi64::<1>(above, x[v]);
                }
                for v in 0..V {
                    x[v] = _mm512_madd52hi_epu64(x[v], av[v], bv);
                    x[v] = _mm512_madd52hi_epu64(x[v], mv[v], yv);
                }
                acc0 = digit1 + h;
            }
            debug_assert!(acc0 < 1 << 62);
        }
        (x, acc0)
    };
    let mut out = Digits::<V>::small(0);
    for v in 0..V {
        // SAFETY: AVX-512F (the caller's guarantee); each row of `out` is 8 u64 = 64 bytes.
        unsafe { _mm512_storeu_si512(out.0[v].as_mut_ptr().cast(), x[v]) };
    }
    let d = out.as_mut();
    d[0] = acc0;
    let mut carry = 0;
    for digit in d.iter_mut() {
        let s = *digit + carry;
        *digit = s & MASK52;
        carry = s >> DIGIT_BITS;
    }
    debug_assert_eq!(carry, 0, "AMM result must stay below R");
    out
}

/// [`ExpArith`] on AMM residues (< 2m) with n digits.
/// Leaks: as [`amm`].
struct IfmaArith<const V: usize> {
    m: Digits<V>,
    k0: u64,
    n: usize,
}

impl<const V: usize> IfmaArith<V> {
    /// # Safety
    /// The CPU must support AVX-512F and AVX-512 IFMA.
    #[inline(always)]
    unsafe fn amm(&self, a: &Digits<V>, b: &Digits<V>) -> Digits<V> {
        // SAFETY: the caller guarantees the CPU features.
        unsafe { amm_inline(&a.0, &b.0, &self.m.0, self.k0, self.n) }
    }
}

impl<const V: usize> ExpArith for IfmaArith<V> {
    type Elem = Digits<V>;
    #[inline(always)]
    fn sqr_in_place(&mut self, a: &mut Digits<V>) {
        // SAFETY: only built by `pow_v`, which runs on CPUs with AVX-512 IFMA.
        *a = unsafe { self.amm(a, a) };
    }
    #[inline(always)]
    fn mul_in_place(&mut self, a: &mut Digits<V>, b: &Digits<V>) {
        // SAFETY: as above.
        *a = unsafe { self.amm(a, b) };
    }
}

/// `base^exp mod m` (`base < m`, result `< m`) by the scan `alg` on AMM with V vectors.
/// Leaks: what the scan leaks (variable time except `FusedPow::Ct`); the products leak
/// nothing (constant time).
///
/// # Safety
/// The CPU must support AVX-512F and AVX-512 IFMA; `4m <= 2^(52 n)`, `n <= 8V`.
#[target_feature(enable = "avx512f,avx512ifma")]
unsafe fn pow_v<const V: usize>(
    p: &MontParams,
    n: usize,
    base: &[Limb],
    exp: &[Limb],
    alg: FusedPow,
) -> Vec<Limb> {
    let k = p.k();
    let mut ar = IfmaArith {
        m: Digits::<V>::from_limbs(&p.m),
        k0: p.n0 & MASK52,
        n,
    };
    debug_assert!(
        !p.ifma_rr.is_empty(),
        "rr_for serves every context pow_v runs"
    );
    let rr = Digits::<V>::from_limbs(&p.ifma_rr); // R^2 mod m
    let unit = Digits::<V>::small(1);
    // SAFETY: the caller guarantees the CPU features amm needs.
    let g = unsafe { ar.amm(&Digits::from_limbs(base), &rr) };
    // SAFETY: as above.
    let one = unsafe { ar.amm(&rr, &unit) };
    let acc = alg.run(&mut ar, g, one, exp);
    // (acc + Y m) / R <= m for acc < 2m: one masked subtraction finishes.
    // SAFETY: as above.
    let left = unsafe { ar.amm(&acc, &unit) }.limbs(k);
    let mut out = vec![0; k];
    arith::sub_mod_final(&mut out, &left, 0, &p.m);
    out
}

/// `$f::<V>($args)` for the runtime vector count `$v` (1..=[`IFMA_MAX_VECTORS`]).
macro_rules! by_vectors {
    ($v:expr, $f:ident($($arg:expr),*)) => {
        const_dispatch!($v; V in [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20]
            => $f::<V>($($arg),*);
            else unreachable!("size_for never gives {} vectors", $v))
    };
}

/// Fused exponentiation on AMM for the sizes [`size_for`] serves, for a context on the
/// [`Tier::Ifma`] tier, else `None`.
/// Leaks: as [`pow_v`].
pub(crate) fn pow(p: &MontParams, base: &[Limb], exp: &[Limb], alg: FusedPow) -> Option<Vec<Limb>> {
    if p.tier() != Tier::Ifma {
        return None;
    }
    let (n, v) = size_for(p.k())?;
    // SAFETY: the context's tier (at most the detected one) has AVX-512F and IFMA, and
    // size_for(k) gives 4m <= R, n <= 8V.
    Some(unsafe { by_vectors!(v, pow_v(p, n, base, exp, alg)) })
}

/// `out = AMM(a, b)` on slices of 8V digits.
/// Leaks: as [`amm`].
///
/// # Safety
/// As [`amm`].
#[target_feature(enable = "avx512f,avx512ifma")]
unsafe fn amm_slices<const V: usize>(
    out: &mut [u64],
    a: &[u64],
    b: &[u64],
    m: &[u64],
    k0: u64,
    n: usize,
) {
    // SAFETY: the caller guarantees the CPU features.
    let r = unsafe { amm::<V>(Digits::view(a), Digits::view(b), Digits::view(m), k0, n) };
    out.copy_from_slice(r.as_ref());
}

/// [`FusedArith`] on AMM residues (< 2m, 8V digits) for one modulus: the comb and fixed-base tables
/// of `montgomery-fast` are imported from its Montgomery form x R64 (R64 = 2^(64k)) by one AMM with
/// 2^(104 n - 64k) mod m = R^2 / R64, giving x R; leaving is one AMM by 1 and the masked
/// subtraction.
/// Leaks: nothing but the lengths (constant time) per operation.
pub(crate) struct Session {
    v: usize,
    n: usize,
    m: Vec<u64>,
    m_limbs: Vec<Limb>,
    k0: u64,
    /// 2^(104 n - 64 k) mod m, as digits.
    import: Vec<u64>,
    unit: Vec<u64>,
    /// Output buffer of the products.
    tmp: Vec<u64>,
}

impl Session {
    /// `None` for a context below the [`Tier::Ifma`] tier or a size [`size_for`] does not
    /// serve.
    pub(crate) fn new(p: &MontParams) -> Option<Self> {
        if p.tier() != Tier::Ifma {
            return None;
        }
        let (n, v) = size_for(p.k())?;
        let digits = |x: &[Limb]| by_vectors!(v, digits_of(x));
        let mut unit = vec![0; LANES * v];
        unit[0] = 1;
        Some(Self {
            v,
            n,
            m: digits(&p.m),
            m_limbs: p.m.clone(),
            k0: p.n0 & MASK52,
            import: digits(&super::pow2_mod(2 * DIGIT_BITS * n - 64 * p.k(), &p.m)),
            unit,
            tmp: vec![0; LANES * v],
        })
    }

    fn amm(&self, a: &[u64], b: &[u64]) -> Vec<u64> {
        let mut out = vec![0; self.m.len()];
        // SAFETY: a Session exists only for contexts on the IFMA tier, for a served V.
        unsafe { by_vectors!(self.v, amm_slices(&mut out, a, b, &self.m, self.k0, self.n)) };
        out
    }
}

fn digits_of<const V: usize>(x: &[Limb]) -> Vec<u64> {
    Digits::<V>::from_limbs(x).as_ref().to_vec()
}

fn limbs_of<const V: usize>(x: &[u64], k: usize) -> Vec<Limb> {
    assert_eq!(x.len(), LANES * V, "8V digits");
    limbs_of_digits(k, x.len(), |i| x[i])
}

impl FusedArith for Session {
    fn import(&mut self, x: &[Limb]) -> Vec<u64> {
        self.amm(&by_vectors!(self.v, digits_of(x)), &self.import)
    }
    fn export_plain(&mut self, x: &[u64]) -> Vec<Limb> {
        let k = self.m_limbs.len();
        let left = by_vectors!(self.v, limbs_of(&self.amm(x, &self.unit), k));
        let mut out = vec![0; k];
        arith::sub_mod_final(&mut out, &left, 0, &self.m_limbs);
        out
    }
    fn mul(&mut self, a: &mut Vec<u64>, b: &[u64]) {
        // SAFETY: as in `amm`.
        unsafe {
            by_vectors!(
                self.v,
                amm_slices(&mut self.tmp, a, b, &self.m, self.k0, self.n)
            )
        };
        core::mem::swap(a, &mut self.tmp);
    }
    fn sqr(&mut self, a: &mut Vec<u64>) {
        // SAFETY: as in `amm`.
        unsafe {
            by_vectors!(
                self.v,
                amm_slices(&mut self.tmp, a, a, &self.m, self.k0, self.n)
            )
        };
        core::mem::swap(a, &mut self.tmp);
    }
}

/// AMM products on k-limb slices for the Lucas chain of `crate::prime` (beyond the source
/// papers): residues are held fully reduced (`< m`) as little-endian limbs in the linear
/// representation x R mod m with R = 2^(52 n) (n from [`size_for`]), so that the chain's
/// additions, subtractions, word multiplications and zero tests run on limbs as with any
/// [`crate::Reducer`], while each product converts its operands to digits, runs one [`amm`]
/// and converts back with one conditional subtraction of m. The conversions are O(k) against
/// the product's O(k^2), and unlike [`Session`] no product is spent entering or leaving.
/// Leaks: variable time (the chain is `_vartime`); the products themselves are constant time.
pub(crate) struct SliceProducts {
    v: usize,
    n: usize,
    /// The modulus as 8V digits (zero above n).
    m: Vec<u64>,
    m_limbs: Vec<Limb>,
    k0: u64,
    /// R mod m, k limbs: the representation of 1.
    one: Vec<Limb>,
    /// The product before its final subtraction (k limbs; the bit above is returned apart).
    t: Vec<Limb>,
}

impl SliceProducts {
    /// The products modulo odd `m` (trimmed, k >= 1 limbs) on `tier` capped by this CPU
    /// ([`crate::cpu::cap`]); `None` unless that is [`Tier::Ifma`] and [`size_for`] serves k.
    /// Leaks: the modulus (a division for R mod m).
    pub(crate) fn new(m: &[Limb], tier: Tier) -> Option<Self> {
        if crate::cpu::cap(tier) != Tier::Ifma || m.first().is_none_or(|&l| l & 1 == 0) {
            return None;
        }
        let k = m.len();
        let (n, v) = size_for(k)?;
        let mut one = super::pow2_mod(DIGIT_BITS * n, m);
        one.resize(k, 0);
        Some(Self {
            v,
            n,
            m: by_vectors!(v, digits_of(m)),
            m_limbs: m.to_vec(),
            k0: crate::limb::neg_inv_newton(m[0]) & MASK52,
            one,
            t: vec![0; k],
        })
    }

    /// The representation of 1: R mod m (k limbs, `< m`).
    pub(crate) fn one(&self) -> &[Limb] {
        &self.one
    }

    /// `out = a b R^{-1} mod m` (k limbs, `< m`) for `a, b < m` (k limbs each).
    /// Leaks: nothing but the lengths (constant time).
    pub(crate) fn mul(&mut self, out: &mut [Limb], a: &[Limb], b: &[Limb]) {
        self.product(out, a, Some(b));
    }

    /// `out = a^2 R^{-1} mod m` (k limbs, `< m`) for `a < m`.
    /// Leaks: nothing but the lengths (constant time).
    pub(crate) fn sqr(&mut self, out: &mut [Limb], a: &[Limb]) {
        self.product(out, a, None);
    }

    fn product(&mut self, out: &mut [Limb], a: &[Limb], b: Option<&[Limb]>) {
        let k = self.m_limbs.len();
        assert!(out.len() == k && a.len() == k && b.is_none_or(|b| b.len() == k));
        // SAFETY: a SliceProducts exists only when the CPU has the IFMA tier (`cpu::cap`), for
        // a size `size_for` serves (4m <= R, n <= 8V).
        let hi = unsafe {
            by_vectors!(
                self.v,
                slice_product_v(&mut self.t, a, b, &self.m, self.k0, self.n)
            )
        };
        // t + hi 2^(64k) < 2m: one subtraction of m at most.
        arith::sub_mod_final(out, &self.t, hi, &self.m_limbs);
        debug_assert!(arith::cmp_n(out, &self.m_limbs).is_lt());
    }
}

/// [`Digits::from_limbs`] for the k limbs `x` (64k <= 52 * 8V) in [`SliceProducts`]' kernels:
/// digit i is bits 52i..52i+51, read from the two limbs holding them by one 128-bit shift (no
/// branch but the last limb's bound). A loop of its own on purpose (a test checks it against
/// `from_limbs`), measured: `from_limbs` in these kernels, inlined (its checked reads become
/// gathers) or out of line, made strong Lucas tests up to 5% slower at 2048 to 4096 bits; and
/// `from_limbs` stays as it is because [`pow_v`]'s product loops at V = 10 spilled the modulus
/// with this loop inlined there instead (~10% slower at 4096 bits).
/// Leaks: nothing but the lengths.
#[inline(always)]
fn digits_streamed<const V: usize>(x: &[Limb]) -> Digits<V> {
    let mut d = Digits::<V>::small(0);
    let k = x.len();
    let count = (64 * k).div_ceil(DIGIT_BITS);
    debug_assert!(count <= LANES * V);
    for (i, out) in d.as_mut()[..count].iter_mut().enumerate() {
        let (w, s) = (i * DIGIT_BITS / 64, i * DIGIT_BITS % 64);
        let hi = if w + 1 < k { x[w + 1] } else { 0 };
        let pair = (u128::from(hi) << 64) | u128::from(x[w]);
        *out = (pair >> s) as u64 & MASK52;
    }
    d
}

/// `t = AMM(a, b)` (`b = None`: `AMM(a, a)`) for k-limb `a, b < m`: the digits of the
/// operands, one [`amm_inline`], and the result's low k limbs in `t`; returns the bit above
/// them (the result is `< 2m`).
/// Leaks: nothing but the lengths (constant time).
///
/// # Safety
/// The CPU must support AVX-512F and AVX-512 IFMA; `4m <= 2^(52 n)`, `n <= 8V`, `m` holds the
/// digits of the odd modulus, `k0 = -m^{-1} mod 2^52`.
#[target_feature(enable = "avx512f,avx512ifma")]
unsafe fn slice_product_v<const V: usize>(
    t: &mut [Limb],
    a: &[Limb],
    b: Option<&[Limb]>,
    m: &[u64],
    k0: u64,
    n: usize,
) -> Limb {
    let ad = digits_streamed::<V>(a);
    let r = match b {
        // SAFETY: the caller guarantees the CPU features and the sizes.
        Some(b) => unsafe { amm_inline(&ad.0, &digits_streamed::<V>(b).0, Digits::view(m), k0, n) },
        // SAFETY: as above.
        None => unsafe { amm_inline(&ad.0, &ad.0, Digits::view(m), k0, n) },
    };
    limbs_of_digits_into(t, LANES * V, |i| r.as_ref()[i])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reduce::montgomery::test_util::{big, every_scan};
    use num_bigint::BigUint;

    /// [`SliceProducts`] at every served size class (moduli with the top bit set, top limb 1,
    /// all ones), against num-bigint: `out R = a b mod m`, `out < m`, and `one = R mod m`.
    #[test]
    fn slice_products_match_num_bigint() {
        if crate::cpu::detected() < Tier::Ifma {
            eprintln!("skipped: no AVX-512 IFMA on this CPU");
            return;
        }
        assert!(SliceProducts::new(&[u64::MAX; 16], Tier::Adx).is_none());
        assert!(SliceProducts::new(&[u64::MAX; 8], Tier::Ifma).is_none());
        let mut s: u64 = 0x5eed_1ca5;
        let mut rnd = || crate::limb::xorshift64(&mut s);
        for k in [9usize, 13, 16, 17, 26, 32, 33, 48, 58, 64, 65, 100, 128] {
            let (n, _) = size_for(k).expect("served");
            for case in 0..3 {
                let mut m: Vec<Limb> = (0..k).map(|_| rnd()).collect();
                match case {
                    0 => m[k - 1] |= 1 << 63,
                    1 => m[k - 1] = 1,
                    _ => m.fill(u64::MAX),
                }
                m[0] |= 1;
                let mut sp = SliceProducts::new(&m, Tier::Ifma).expect("served");
                let mb = big(&m);
                let r = BigUint::from(1u32) << (DIGIT_BITS * n);
                assert_eq!(big(sp.one()), &r % &mb);
                let below = |x: BigUint| {
                    let mut l = (x % &mb).to_u64_digits();
                    l.resize(k, 0);
                    l
                };
                let mut cases = vec![(below(&mb - 1u32), below(&mb - 1u32))];
                for _ in 0..20 {
                    let a = below(big(&(0..k).map(|_| rnd()).collect::<Vec<_>>()));
                    let b = below(big(&(0..k).map(|_| rnd()).collect::<Vec<_>>()));
                    cases.push((a, b));
                }
                let mut out = vec![0; k];
                for (a, b) in &cases {
                    sp.mul(&mut out, a, b);
                    assert!(big(&out) < mb);
                    assert_eq!(big(&out) * &r % &mb, big(a) * big(b) % &mb, "k={k} {case}");
                    sp.sqr(&mut out, a);
                    assert_eq!(big(&out) * &r % &mb, big(a) * big(a) % &mb, "k={k} {case}");
                }
            }
        }
    }

    fn streamed_vec<const V: usize>(x: &[Limb]) -> Vec<u64> {
        digits_streamed::<V>(x).as_ref().to_vec()
    }

    /// The conversions at every served size class (random limbs, all ones, a top limb 1),
    /// against num-bigint: the digits of k limbs are below 2^52, hold the value ([`digit52`]
    /// zero above the limbs; [`digits_streamed`] the same digits), and give back the k limbs,
    /// or k - 1 limbs and the top one as the word above.
    #[test]
    fn digits_round_trip() {
        let mut s: u64 = 0x00d1_9175;
        for k in [9usize, 13, 16, 17, 26, 32, 33, 48, 58, 64, 65, 100, 128] {
            let (_, v) = size_for(k).expect("served");
            for case in 0..3 {
                let x: Vec<Limb> = match case {
                    0 => (0..k).map(|_| crate::limb::xorshift64(&mut s)).collect(),
                    1 => vec![Limb::MAX; k],
                    _ => (0..k).map(|i| Limb::from(i + 1 == k)).collect(),
                };
                let d = by_vectors!(v, digits_of(&x));
                assert_eq!(d.len(), LANES * v);
                assert!(d.iter().all(|&di| di <= MASK52), "k={k} {case}");
                assert!((0..d.len()).all(|i| digit52(&x, i) == d[i]), "k={k} {case}");
                assert_eq!(by_vectors!(v, streamed_vec(&x)), d, "k={k} {case}");
                let value = d
                    .iter()
                    .rev()
                    .fold(BigUint::ZERO, |acc, &di| (acc << DIGIT_BITS) + di);
                assert_eq!(value, big(&x), "k={k} {case}");
                assert_eq!(by_vectors!(v, limbs_of(&d, k)), x, "k={k} {case}");
                let mut low = vec![0; k - 1];
                assert_eq!(limbs_of_digits_into(&mut low, d.len(), |i| d[i]), x[k - 1]);
                assert_eq!(low, x[..k - 1], "k={k} {case}");
            }
        }
    }

    /// Every served size class, moduli with the top bit set, top limb 1, all ones and
    /// b^k - 3, every scan, against num-bigint's `modpow`. Needs IFMA (says so otherwise).
    #[test]
    fn amm_pow_matches_num_bigint() {
        if crate::cpu::detected() < Tier::Ifma {
            eprintln!("skipped: no AVX-512 IFMA on this CPU");
            return;
        }
        let mut s: u64 = 0x0123_4567_89ab_cdef;
        let mut rnd = || crate::limb::xorshift64(&mut s);
        let mut checked = 0;
        for k in [
            9usize, 12, 13, 16, 17, 19, 26, 32, 33, 45, 52, 58, 64, 65, 97, 128,
        ] {
            assert!(size_for(k).is_some(), "k = {k} not served");
            for case in 0..4 {
                let mut m: Vec<Limb> = (0..k).map(|_| rnd()).collect();
                match case {
                    0 => m[k - 1] |= 1 << 63,
                    1 => m[k - 1] = 1,
                    2 => m.fill(u64::MAX),
                    _ => {
                        m.fill(u64::MAX);
                        m[0] = u64::MAX - 3; // b^k - 4, made odd below: b^k - 3
                    }
                }
                m[0] |= 1;
                let p = MontParams::with_tier(&m, Tier::Ifma);
                let mb = big(&m);
                let mut b = (big(&(0..k).map(|_| rnd()).collect::<Vec<_>>()) % &mb).to_u64_digits();
                if case == 2 {
                    b = (&mb - 1u32).to_u64_digits(); // m - 1
                }
                b.resize(k, 0);
                let e: Vec<Limb> = (0..k + case).map(|_| rnd()).collect();
                let want = big(&b).modpow(&big(&e), &mb);
                for alg in every_scan(e.len()) {
                    let got = pow(&p, &b, &e, alg).expect("served");
                    assert_eq!(big(&got), want, "k={k} case={case} {alg:?}");
                    checked += 1;
                }
                for alg in every_scan(1) {
                    let zero = pow(&p, &b, &[0], alg).expect("served");
                    assert_eq!(big(&zero), BigUint::from(1u32), "k={k} e=0 {alg:?}");
                }
            }
        }
        assert_eq!(checked, 16 * 4 * 5);
    }
}
