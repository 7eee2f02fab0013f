//! Multiplication by number-theoretic transforms over three primes, for the largest operands
//! (Pollard, "The fast Fourier transform in a finite field", Math. Comp. 1971; the three-prime
//! scheme as in Knuth, TAOCP vol. 2, 4.3.3).
//!
//! The operands are cut into b-bit coefficients (b chosen per product, not only 64), so the
//! product is a polynomial product whose coefficients stay below p1 p2 p3. Each prime gives a
//! cyclic convolution of length N = 2^k: forward transforms of both operands, a pointwise
//! Montgomery product, an inverse transform; the coefficients are rebuilt by Garner's CRT and
//! added up at their bit offsets. Three prime sets: `PORTABLE` (62-bit primes c 2^40 + 1, u128
//! arithmetic, p1 p2 p3 ~ 2^186); on CPUs with AVX-512 IFMA, `IFMA` (50-bit primes
//! c 2^32 + 1, eight butterflies per vector in `ntt_ifma`, p1 p2 p3 ~ 2^150); on the adx tier
//! with AVX2 and FMA, `FMA` (the same primes, four butterflies per vector in double precision
//! in `ntt_fma`, exact pointwise products instead of Montgomery's).
//!
//! The transforms follow Harvey, "Faster arithmetic for number-theoretic transforms" (J.
//! Symbolic Comput. 2014): Cooley–Tukey butterflies forward (natural order in, bit-reversed
//! out) and Gentleman–Sande inverse (bit-reversed in, natural out), so no permutation pass;
//! each butterfly multiplies by a fixed twiddle w with Shoup's precomputed quotient
//! w' = floor(w 2^r / p) (radix r = 64 or 52; one high product, two low products) and keeps
//! values lazily in [0, 4p) or [0, 2p) (4p < 2^r leaves the headroom). Block i of every stage
//! uses one twiddle, the i-th entry of a table of roots in bit-reversed order; a table for 2^k
//! points serves every smaller size as its prefix.
//!
//! The portable and FMA kernels also run transforms of 3 2^k points (every p - 1 of their
//! primes is divisible by 3 2^k for their longest 2^k), so a product fills its transform at
//! least two thirds instead of half:
//! one radix-3 step splits the cyclic convolution mod z^3M - 1 into three mod z^M - ω^e (ω a
//! cube root of unity), twisted into cyclic ones of M = 2^k points by powers of a 3M-th root of
//! unity (Cooley and Tukey's mixed radix, Math. Comp. 1965, in the twisted form of Bernstein,
//! "Multidigit multiplication for mathematicians", 2001), each then a power-of-two transform as
//! above.
//!
//! [`Transformed`] keeps an operand's transform for repeated products (the modulus in
//! Montgomery reduction), full or mod B^N - 1.
//!
//! Variable time only in the sizes: no branch or index depends on the operand values, except
//! the end-around carry of the products mod B^N - 1 ([`Transformed::mul_cyclic`]).

use crate::cpu::{self, Tier};
use crate::limb::Limb;
use core::ops::RangeInclusive;
use std::sync::{Arc, Mutex};

/// The kernels a prime set runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kernels {
    /// Scalar u128 arithmetic, Shoup and Montgomery products in radix 2^64.
    Portable,
    /// AVX-512 IFMA ([`super::ntt_ifma`]), radix 2^52.
    #[cfg(all(target_arch = "x86_64", not(feature = "count")))]
    Ifma,
    /// AVX2 + FMA in double precision ([`super::ntt_fma`]): exact pointwise products, no
    /// Montgomery factor.
    #[cfg(all(target_arch = "x86_64", not(feature = "count")))]
    Fma,
}

impl Kernels {
    /// Whether these kernels also run transforms of 3 2^k points (a radix-3 step over
    /// power-of-two ones): the portable and FMA kernels.
    pub(crate) fn radix3(self) -> bool {
        #[cfg(all(target_arch = "x86_64", not(feature = "count")))]
        if self == Kernels::Ifma {
            return false;
        }
        true
    }

    /// Whether these are the AVX2 + FMA kernels.
    fn is_fma(self) -> bool {
        #[cfg(all(target_arch = "x86_64", not(feature = "count")))]
        return self == Kernels::Fma;
        #[cfg(not(all(target_arch = "x86_64", not(feature = "count"))))]
        false
    }
}

/// A set of three NTT primes and the arithmetic radix of the kernels that use them.
pub(crate) struct PrimeSet {
    /// The primes, c 2^k + 1, each below 2^62 (so 4p < 2^64) and within a factor 2 of each
    /// other (Garner's step reduces x1 < p1 by p2 and p3 with one subtraction).
    pub(crate) primes: [u64; 3],
    /// A generator of each prime's multiplicative group.
    generators: [u64; 3],
    /// 2^`max_log_len` divides every p - 1: transforms of up to that many points.
    max_log_len: u32,
    /// p1 p2 p3 > 2^`coeff_bits`: the bound every coefficient of the product must stay under.
    pub(crate) coeff_bits: u32,
    /// Radix of the Shoup quotients and of the pointwise Montgomery product: 64 for the
    /// portable kernels, 52 for AVX-512 IFMA (64 for FMA, whose quotients only the portable
    /// CRT uses).
    pub(crate) radix_bits: u32,
    pub(crate) kernels: Kernels,
    /// Which cache slot holds this set's tables.
    slot: usize,
}

/// The portable kernels' primes: c 2^40 + 1 below 2^62 (each p - 1 is also divisible by 3);
/// p1 p2 p3 ~ 2^186.
pub(crate) const PORTABLE: PrimeSet = PrimeSet {
    primes: [
        0x3fff_c000_0000_0001,
        0x3fff_8400_0000_0001,
        0x3fff_8100_0000_0001,
    ],
    generators: [11, 19, 5],
    max_log_len: 40,
    coeff_bits: 185,
    radix_bits: 64,
    kernels: Kernels::Portable,
    slot: 0,
};

/// The AVX-512 IFMA kernels' primes: c 2^32 + 1 below 2^50, so values up to 4p fit the 52-bit
/// multiplier inputs; p1 p2 p3 ~ 2^150 (64-bit coefficients up to 2^21 points).
#[cfg(all(target_arch = "x86_64", not(feature = "count")))]
pub(crate) const IFMA: PrimeSet = PrimeSet {
    primes: [0x3_fff3_0000_0001, 0x3_ffed_0000_0001, 0x3_ffc0_0000_0001],
    generators: [5, 7, 11],
    max_log_len: 32,
    coeff_bits: 149,
    radix_bits: 52,
    kernels: Kernels::Ifma,
    slot: 1,
};

/// The AVX2 + FMA kernels' primes: those of [`IFMA`] (below 2^50, so 4p and the products'
/// quotients stay within the doubles' exact range; see [`super::ntt_fma`]).
#[cfg(all(target_arch = "x86_64", not(feature = "count")))]
pub(crate) const FMA: PrimeSet = PrimeSet {
    kernels: Kernels::Fma,
    radix_bits: 64,
    slot: 2,
    ..IFMA
};

// The FMA CRT's last step (`ntt_fma::garner_sum`) needs p1, p2 = a 2^32 + 1 with a < 2^18.
#[cfg(all(target_arch = "x86_64", not(feature = "count")))]
const _: () = {
    let [p1, p2, _] = FMA.primes;
    assert!(p1 as u32 == 1 && p2 as u32 == 1 && p1 >> 32 < 1 << 18 && p2 >> 32 < 1 << 18);
};

/// Whether this CPU runs the [`FMA`] kernels (AVX2 and FMA).
#[cfg(all(target_arch = "x86_64", not(feature = "count")))]
pub(crate) fn fma_available() -> bool {
    std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma")
}

/// The prime set of the kernels of the tier in use ([`cpu::tier`]): [`IFMA`] on the
/// [`Tier::Ifma`] tier, [`FMA`] on the [`Tier::Adx`] tier when the CPU has AVX2 and FMA, else
/// [`PORTABLE`].
fn prime_set() -> &'static PrimeSet {
    #[cfg(all(target_arch = "x86_64", not(feature = "count")))]
    match cpu::tier() {
        Tier::Ifma => return &IFMA,
        Tier::Adx if fma_available() => return &FMA,
        _ => {}
    }
    &PORTABLE
}

/// Whether the tier in use multiplies with the [`FMA`] kernels.
fn fma_in_use() -> bool {
    #[cfg(all(target_arch = "x86_64", not(feature = "count")))]
    return core::ptr::eq(prime_set(), &FMA);
    #[cfg(not(all(target_arch = "x86_64", not(feature = "count"))))]
    false
}

/// Operand size (limbs) from which [`super::mul_n`] (`squaring` false) or [`super::sqr()`] uses
/// the NTT on the tier in use ([`cpu::tier`], so `MODRED_CPU` caps it; see [`crate::tuning`]).
pub fn threshold(squaring: bool) -> usize {
    use crate::tuning::*;
    match cpu::tier() {
        Tier::Ifma if squaring => NTT_SQR_THRESHOLD_IFMA,
        Tier::Ifma => NTT_THRESHOLD_IFMA,
        Tier::Adx if fma_in_use() => NTT_THRESHOLD_FMA,
        Tier::Adx => NTT_THRESHOLD_ADX,
        Tier::Portable => NTT_THRESHOLD_PORTABLE,
    }
}

/// Below [`threshold`], the window of sizes where the tier's transform also serves products
/// whose transform is dense: (from this many limbs, product bits per point in this range).
/// The AVX2 + FMA kernels and the portable tier have one ([`crate::tuning`]).
pub fn dense_window() -> Option<(usize, RangeInclusive<usize>)> {
    use crate::tuning::*;
    match cpu::tier() {
        Tier::Adx if fma_in_use() => Some((
            if cpu::is_intel() {
                NTT_DENSE_MIN_FMA_INTEL
            } else {
                NTT_DENSE_MIN_FMA
            },
            NTT_DENSE_BITS_FMA..=NTT_DENSE_MAX_BITS_FMA,
        )),
        Tier::Portable => Some((NTT_DENSE_MIN_PORTABLE, NTT_DENSE_BITS_PORTABLE..=usize::MAX)),
        _ => None,
    }
}

/// Whether [`super::mul_n`] (`squaring` false) or [`super::sqr()`] of `n`-limb operands uses the
/// NTT on the tier in use: from [`threshold`] on where one transform holds the product, and in
/// the tier's [`dense_window`] where [`plan`]'s transform carries enough product bits per point.
pub fn pays(n: usize, squaring: bool) -> bool {
    // Below every tier's threshold and window (one comparison for the Karatsuba and Toom
    // pieces, which ask at every level).
    if n < NO_TRANSFORM_BELOW {
        return false;
    }
    if n >= threshold(squaring) {
        return ntt_fits(n, n);
    }
    dense_window().is_some_and(|(min, bits)| {
        n >= min
            && plan(prime_set(), 64 * n, 64 * n).is_some_and(|(points, _)| {
                // Bits per point 128 n / points, compared exactly.
                bits.start() * points <= 128 * n && 128 * n <= bits.end().saturating_mul(points)
            })
    })
}

/// The least of every tier's NTT thresholds and dense windows' starts: no product or square of
/// fewer limbs uses a transform ([`pays`]).
const NO_TRANSFORM_BELOW: usize = {
    use crate::tuning::*;
    super::least(&[
        NTT_THRESHOLD_IFMA,
        NTT_SQR_THRESHOLD_IFMA,
        NTT_THRESHOLD_ADX,
        NTT_THRESHOLD_FMA,
        NTT_DENSE_MIN_FMA,
        NTT_DENSE_MIN_FMA_INTEL,
        NTT_THRESHOLD_PORTABLE,
        NTT_DENSE_MIN_PORTABLE,
    ])
};

/// Operand size (limbs) from which products with one operand's transform computed once and
/// reused ([`Transformed`]: `redc_n`'s m' and m) use the NTT on the tier in use: the threshold of
/// [`threshold`] on the [`Tier::Ifma`] tier; on the others the transform pays earlier for such
/// products than for one-off ones (see [`crate::tuning`]).
pub fn transformed_threshold() -> usize {
    match cpu::tier() {
        Tier::Adx if fma_in_use() => crate::tuning::NTT_TRANSFORMED_THRESHOLD_FMA,
        Tier::Adx => crate::tuning::NTT_TRANSFORMED_THRESHOLD_ADX,
        Tier::Portable => crate::tuning::NTT_TRANSFORMED_THRESHOLD_PORTABLE,
        Tier::Ifma => threshold(false),
    }
}

/// Shortest transform (log2 of its points) [`plan`] gives: below it the vector kernels'
/// two-vector groups would not fill.
const MIN_LOG_LEN: u32 = 4;

fn mulmod(a: u64, b: u64, p: u64) -> u64 {
    ((a as u128 * b as u128) % p as u128) as u64
}

fn powmod(mut a: u64, mut e: u64, p: u64) -> u64 {
    let mut r = 1;
    while e > 0 {
        if e & 1 == 1 {
            r = mulmod(r, a, p);
        }
        a = mulmod(a, a, p);
        e >>= 1;
    }
    r
}

/// x^0, x^1, ..., x^(count - 1) mod p.
fn powers(x: u64, count: usize, p: u64) -> Vec<u64> {
    // Shoup's product by the fixed x (one quotient, computed once) rather than a 128-bit
    // remainder per power: the tables are built once per process, but a one-off product (the
    // CLI's `mulmod`) pays for them, and the remainders (`__umodti3`) cost more than the
    // transforms they serve.
    debug_assert!(x < p && p < 1 << 63);
    let x_q = shoup_pre(x, p);
    let mut y = 1;
    (0..count)
        .map(|_| {
            let v = y;
            y = shoup(y, x, x_q, p); // in [0, 2p)
            if y >= p {
                y -= p;
            }
            v
        })
        .collect()
}

/// Shoup's quotient w' = floor(w 2^64 / p) for w < p.
fn shoup_pre(w: u64, p: u64) -> u64 {
    shoup_pre_radix(w, p, 64)
}

/// Shoup's quotient w' = floor(w 2^radix / p) for w < p, radix <= 64: one 128-by-64 division
/// (the hardware's where there is one, not a call of `__udivti3`; uncounted, as the rest of
/// the transform's arithmetic).
fn shoup_pre_radix(w: u64, p: u64, radix: u32) -> u64 {
    debug_assert!(w < p && radix <= 64);
    let n = (w as u128) << radix;
    // The high half is below p (w < p), so the quotient fits a limb.
    crate::limb::div_wide_quotient_uncounted((n >> 64) as u64, n as u64, p)
}

/// `w y mod p` in [0, 2p) for any `y < 2^64`, given w < p and w' = [`shoup_pre`]`(w)`
/// (Shoup; Harvey 2014, Algorithm 2): q = floor(w' y / 2^64) is floor(w y / p) or one less.
/// Leaks: nothing (constant time).
#[inline(always)]
fn shoup(y: u64, w: u64, ws: u64, p: u64) -> u64 {
    let q = ((ws as u128 * y as u128) >> 64) as u64;
    w.wrapping_mul(y).wrapping_sub(q.wrapping_mul(p))
}

/// `x` through an optimization barrier that keeps the loop around it scalar: without it LLVM
/// vectorizes the butterflies with SSE2, emulating each 64-bit product by three 32-bit ones
/// (measured slower than the scalar loop).
#[inline(always)]
fn scalar(x: u64) -> u64 {
    crate::limb::value_barrier(x)
}

/// `x mod 2p` for `x < 4p` (or `x - 2p` when that is smaller): one subtraction, no branch.
/// Leaks: nothing (constant time).
#[inline(always)]
fn reduce_2p(x: u64, two_p: u64) -> u64 {
    x.min(x.wrapping_sub(two_p))
}

/// The twiddles of one prime for transforms of up to 2^`log_len` points: entry j of `w` is
/// w^bitrev(j) with w a primitive 2^`log_len`-th root of unity (bit reversal over
/// `log_len - 1` bits), `w_inv` the inverses, each with its Shoup quotients (`_q`) in the
/// set's radix. Eight zero entries pad each table, so the vector kernels may load a full vector
/// from any entry. The [`FMA`] set keeps only `fp` (the others leave it empty).
pub(crate) struct Twiddles {
    pub(crate) w: Vec<u64>,
    pub(crate) w_q: Vec<u64>,
    pub(crate) w_inv: Vec<u64>,
    pub(crate) w_inv_q: Vec<u64>,
    /// Read only by the FMA kernels (x86-64).
    #[cfg_attr(
        not(all(target_arch = "x86_64", not(feature = "count"))),
        allow(dead_code)
    )]
    pub(crate) fp: FpTwiddles,
}

/// The twiddles of [`Twiddles`] for the floating-point kernels: each w as the integer in
/// [-p/2, p/2] congruent to it, and w_q = fl(w / p), as doubles; padded likewise.
#[derive(Default)]
#[cfg_attr(
    not(all(target_arch = "x86_64", not(feature = "count"))),
    allow(dead_code)
)]
pub(crate) struct FpTwiddles {
    pub(crate) w: Vec<f64>,
    pub(crate) w_q: Vec<f64>,
    pub(crate) w_inv: Vec<f64>,
    pub(crate) w_inv_q: Vec<f64>,
}

/// A constant w < p as the floating-point kernels take it: the integer in [-p/2, p/2]
/// congruent to w, and its quotient fl(w / p), as doubles.
#[cfg_attr(
    not(all(target_arch = "x86_64", not(feature = "count"))),
    allow(dead_code)
)]
pub(crate) fn fp_constant(w: u64, p: u64) -> (f64, f64) {
    debug_assert!(w < p);
    let w = if w > p / 2 {
        -((p - w) as f64)
    } else {
        w as f64
    };
    (w, w / p as f64)
}

#[cfg_attr(
    not(all(target_arch = "x86_64", not(feature = "count"))),
    allow(dead_code)
)]
impl FpTwiddles {
    /// From the tables of [`Twiddles`] (entries below p, zero padding).
    fn new(w: &[u64], w_inv: &[u64], p: u64) -> Self {
        let split =
            |t: &[u64]| -> (Vec<f64>, Vec<f64>) { t.iter().map(|&x| fp_constant(x, p)).unzip() };
        let ((w, w_q), (w_inv, w_inv_q)) = (split(w), split(w_inv));
        Self {
            w,
            w_q,
            w_inv,
            w_inv_q,
        }
    }
}

impl Twiddles {
    fn new(p: u64, g: u64, log_len: u32, radix: u32, kernels: Kernels) -> Self {
        let half = 1usize << (log_len - 1);
        let w = powmod(g, (p - 1) >> log_len, p);
        let w_inv = powmod(w, p - 2, p);
        let powers = |x: u64| powers(x, half, p);
        let bits = log_len - 1;
        let rev = |j: usize| {
            if bits == 0 {
                0
            } else {
                j.reverse_bits() >> (usize::BITS - bits)
            }
        };
        // The floating-point kernels take their constants from the entries alone (no Shoup
        // quotients).
        let quotients = !kernels.is_fma();
        let table = |pw: &[u64]| {
            let mut t: Vec<u64> = (0..half).map(|j| pw[rev(j)]).collect();
            let mut q = Vec::new();
            if quotients {
                q = t.iter().map(|&x| shoup_pre_radix(x, p, radix)).collect();
                q.resize(half + 8, 0);
            }
            t.resize(half + 8, 0);
            (t, q)
        };
        let (w, w_q) = table(&powers(w));
        let (w_inv, w_inv_q) = table(&powers(w_inv));
        #[cfg(all(target_arch = "x86_64", not(feature = "count")))]
        if kernels == Kernels::Fma {
            return Self {
                fp: FpTwiddles::new(&w, &w_inv, p),
                w: Vec::new(),
                w_q: Vec::new(),
                w_inv: Vec::new(),
                w_inv_q: Vec::new(),
            };
        }
        let _ = kernels;
        Self {
            w,
            w_q,
            w_inv,
            w_inv_q,
            fp: FpTwiddles::default(),
        }
    }
}

/// Per-prime constants that do not depend on the length.
#[derive(Clone, Copy)]
pub(crate) struct Field {
    pub(crate) p: u64,
    /// -p^{-1} mod 2^radix (Montgomery).
    pub(crate) p_neg_inv: u64,
    /// floor(2^64 / p): the Shoup quotient of 1, to reduce a limb.
    one_q: u64,
    /// 2^64 mod p and its Shoup quotient (to reduce the high part of a coefficient).
    r64: [u64; 2],
    /// The factor the pointwise product removes: 2^radix mod p for Montgomery's, 1 for the
    /// exact floating-point one.
    pointwise_factor: u64,
}

impl Field {
    fn new(p: u64, radix: u32, kernels: Kernels) -> Self {
        let r64 = ((1u128 << 64) % p as u128) as u64;
        let mask = if radix == 64 {
            u64::MAX
        } else {
            (1 << radix) - 1
        };
        Self {
            p,
            p_neg_inv: crate::limb::neg_inv_newton(p) & mask,
            one_q: shoup_pre(1, p),
            r64: [r64, shoup_pre(r64, p)],
            pointwise_factor: match kernels {
                #[cfg(all(target_arch = "x86_64", not(feature = "count")))]
                Kernels::Fma => 1,
                _ => ((1u128 << radix) % p as u128) as u64,
            },
        }
    }

    /// Montgomery product `a b 2^-64 mod p` in [0, 2p) for a, b < 2p (64-bit radix): a b + m p
    /// < 2^127, and (a b + m p) / 2^64 < 4p^2 / 2^64 + p < 2p.
    /// Leaks: nothing (constant time).
    #[inline(always)]
    fn mont_mul(&self, a: u64, b: u64) -> u64 {
        let t = a as u128 * b as u128;
        let m = (t as u64).wrapping_mul(self.p_neg_inv);
        ((t + m as u128 * self.p as u128) >> 64) as u64
    }
}

/// The twiddle tables of a prime set's three primes for up to 2^`log_len` points, and Garner's
/// constants.
struct Tables {
    log_len: u32,
    tw: [Twiddles; 3],
    fields: [Field; 3],
    /// p1^{-1} mod p2.
    c12: [u64; 2],
    /// p1 mod p3.
    p1_mod_p3: [u64; 2],
    /// (p1 p2)^{-1} mod p3.
    c123: [u64; 2],
}

impl Tables {
    fn new(set: &PrimeSet, log_len: u32) -> Self {
        let [p1, p2, p3] = set.primes;
        let pre = |w: u64, p: u64| [w, shoup_pre(w, p)];
        let p1_mod_p3 = p1 % p3;
        let p1p2_mod_p3 = mulmod(p1_mod_p3, p2 % p3, p3);
        Self {
            log_len,
            tw: core::array::from_fn(|j| {
                Twiddles::new(
                    set.primes[j],
                    set.generators[j],
                    log_len,
                    set.radix_bits,
                    set.kernels,
                )
            }),
            fields: set
                .primes
                .map(|p| Field::new(p, set.radix_bits, set.kernels)),
            c12: pre(powmod(p1 % p2, p2 - 2, p2), p2),
            p1_mod_p3: pre(p1_mod_p3, p3),
            c123: pre(powmod(p1p2_mod_p3, p3 - 2, p3), p3),
        }
    }
}

/// The tables of `set` for at least 2^`log_len` points, built once per process for the
/// transform at hand and rebuilt larger when a longer one comes (each rebuild at least doubles
/// them, so the builds cost under twice the last). Not rounded up: a one-off product (the CLI's
/// `mulmod` at 2^14 bits) would pay more for 2^12-point tables than for its own product.
fn tables(set: &PrimeSet, log_len: u32) -> Arc<Tables> {
    static CACHE: [Mutex<Option<Arc<Tables>>>; 3] =
        [Mutex::new(None), Mutex::new(None), Mutex::new(None)];
    let mut cache = CACHE[set.slot].lock().unwrap_or_else(|e| e.into_inner());
    match &*cache {
        Some(t) if t.log_len >= log_len => t.clone(),
        _ => {
            let t = Arc::new(Tables::new(set, log_len.min(set.max_log_len)));
            *cache = Some(t.clone());
            t
        }
    }
}

/// Forward transform in place (Cooley–Tukey, natural order in, bit-reversed out): inputs in
/// [0, 4p), outputs in [0, 4p). Harvey's butterfly: X <- X mod 2p, T = w Y in [0, 2p),
/// (X, Y) <- (X + T, X - T + 2p).
/// Leaks: nothing but the lengths (constant time).
fn forward(a: &mut [u64], w: &[u64], w_q: &[u64], p: u64) {
    let two_p = 2 * p;
    let mut len = a.len() / 2;
    while len > 0 {
        for ((chunk, &w), &ws) in a.chunks_exact_mut(2 * len).zip(w).zip(w_q) {
            let (x, y) = chunk.split_at_mut(len);
            for (x, y) in x.iter_mut().zip(y.iter_mut()) {
                let u = reduce_2p(*x, two_p);
                let t = scalar(shoup(*y, w, ws, p));
                *x = u + t;
                *y = u + two_p - t;
            }
        }
        len /= 2;
    }
}

/// Inverse transform in place without the 1/N (Gentleman–Sande, bit-reversed in, natural
/// out): inputs and outputs in [0, 2p). Butterfly (X, Y) <- ((X + Y) mod 2p, w^-1 (X - Y + 2p)).
/// Leaks: nothing but the lengths (constant time).
fn inverse(a: &mut [u64], w: &[u64], w_q: &[u64], p: u64) {
    let two_p = 2 * p;
    let n = a.len();
    let mut len = 1;
    while len < n {
        for ((chunk, &w), &ws) in a.chunks_exact_mut(2 * len).zip(w).zip(w_q) {
            let (x, y) = chunk.split_at_mut(len);
            for (x, y) in x.iter_mut().zip(y.iter_mut()) {
                let (u, v) = (*x, *y);
                *x = reduce_2p(u + v, two_p);
                *y = scalar(shoup(u + two_p - v, w, ws, p));
            }
        }
        len *= 2;
    }
}

/// The radix-3 step's constants of one prime for transforms of 3M points (M = 2^k): ψ a
/// primitive 3M-th root of unity and ω = ψ^M a primitive cube root; `twist[e][i]` =
/// ψ^(e i), `untwist[e][i]` = ψ^(-e i) for e = 1, 2 and i < M; every value with its Shoup
/// quotient (the portable kernels), or the same constants as the FMA kernels take them (`fp`).
struct Twist {
    omega: [u64; 2],
    twist: [Vec<[u64; 2]>; 2],
    untwist: [Vec<[u64; 2]>; 2],
    #[cfg(all(target_arch = "x86_64", not(feature = "count")))]
    fp: FpTwist,
}

/// The [`Twist`] constants for the floating-point kernels: each as [`fp_constant`]'s pair,
/// `twist[e - 1]` = (ψ^(e i), quotients) for e = 1, 2, likewise `untwist` with ψ^(-e i).
#[derive(Default)]
#[cfg_attr(
    not(all(target_arch = "x86_64", not(feature = "count"))),
    allow(dead_code)
)]
pub(crate) struct FpTwist {
    pub(crate) omega: (f64, f64),
    pub(crate) twist: [(Vec<f64>, Vec<f64>); 2],
    pub(crate) untwist: [(Vec<f64>, Vec<f64>); 2],
}

impl Twist {
    fn new(p: u64, g: u64, m: usize, kernels: Kernels) -> Self {
        let psi = powmod(g, (p - 1) / (3 * m as u64), p);
        let psi_inv = powmod(psi, p - 2, p);
        let omega = powmod(psi, m as u64, p);
        let twist = [powers(psi, m, p), powers(mulmod(psi, psi, p), m, p)];
        let untwist = [
            powers(psi_inv, m, p),
            powers(mulmod(psi_inv, psi_inv, p), m, p),
        ];
        #[cfg(all(target_arch = "x86_64", not(feature = "count")))]
        if kernels == Kernels::Fma {
            let split = |t: &[Vec<u64>; 2]| {
                t.each_ref()
                    .map(|t| t.iter().map(|&x| fp_constant(x, p)).unzip())
            };
            return Self {
                omega: Default::default(),
                twist: Default::default(),
                untwist: Default::default(),
                fp: FpTwist {
                    omega: fp_constant(omega, p),
                    twist: split(&twist),
                    untwist: split(&untwist),
                },
            };
        }
        let _ = kernels;
        let pre =
            |t: [Vec<u64>; 2]| t.map(|t| t.into_iter().map(|w| [w, shoup_pre(w, p)]).collect());
        Self {
            omega: [omega, shoup_pre(omega, p)],
            twist: pre(twist),
            untwist: pre(untwist),
            #[cfg(all(target_arch = "x86_64", not(feature = "count")))]
            fp: FpTwist::default(),
        }
    }
}

/// The [`Twist`]s of the three primes of `set` (portable or FMA) for 3 2^`log_m` points, built
/// once per set, length and process.
fn twists(set: &PrimeSet, log_m: u32) -> Arc<[Twist; 3]> {
    type Cache = Mutex<Vec<(u32, Arc<[Twist; 3]>)>>;
    static CACHE: [Cache; 3] = [const { Mutex::new(Vec::new()) }; 3];
    let mut cache = CACHE[set.slot].lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, t)) = cache.iter().find(|(l, _)| *l == log_m) {
        return t.clone();
    }
    let t = Arc::new(core::array::from_fn(|j| {
        Twist::new(set.primes[j], set.generators[j], 1 << log_m, set.kernels)
    }));
    cache.push((log_m, t.clone()));
    t
}

/// The radix-3 step of a forward transform of 3M points, before the three M-point transforms
/// (Cooley–Tukey's first step for N = 3M as a CRT: a mod z^3M - 1 splits into a mod z^M - ω^e,
/// e = 0, 1, 2, and z = ψ^e y turns each into a cyclic one mod y^M - 1). With x_0, x_1, x_2 the
/// thirds of `a`: A_0 = x_0 + x_1 + x_2, A_1 = (x_0 - x_2 + t) ψ^i, A_2 = (x_0 - x_1 - t) ψ^(2i)
/// for t = ω (x_1 - x_2) (ω^2 = -1 - ω). Inputs in [0, 4p); outputs in [0, 4p) (A_0) and
/// [0, 2p).
/// Leaks: nothing but the length (constant time).
fn forward_radix3(a: &mut [u64], tw: &Twist, p: u64) {
    let two_p = 2 * p;
    let [w, ws] = tw.omega;
    for_each_third(a, &tw.twist, |x0, x1, x2, t1, t2| {
        debug_assert!(*x0 < 2 * two_p && *x1 < 2 * two_p && *x2 < 2 * two_p);
        let (u0, u1, u2) = (
            reduce_2p(*x0, two_p),
            reduce_2p(*x1, two_p),
            reduce_2p(*x2, two_p),
        );
        // Each sum below stays under 4p < 2^64.
        let t = scalar(shoup(u1 + two_p - u2, w, ws, p));
        *x0 = reduce_2p(u0 + u1, two_p) + u2;
        *x1 = shoup(reduce_2p(u0 + two_p - u2, two_p) + t, t1[0], t1[1], p);
        *x2 = shoup(
            reduce_2p(u0 + two_p - u1, two_p) + two_p - t,
            t2[0],
            t2[1],
            p,
        );
    });
}

/// The inverse of [`forward_radix3`] times 3, after the three inverse M-point transforms:
/// B_e = A_e ψ^(-e i), then x_0 = A_0 + B_1 + B_2, x_1 = A_0 - B_1 + t, x_2 = A_0 - B_2 - t
/// for t = ω (B_2 - B_1). Inputs and outputs in [0, 2p).
/// Leaks: nothing but the length (constant time).
fn inverse_radix3(a: &mut [u64], tw: &Twist, p: u64) {
    let two_p = 2 * p;
    let [w, ws] = tw.omega;
    for_each_third(a, &tw.untwist, |x0, x1, x2, t1, t2| {
        debug_assert!(*x0 < two_p && *x1 < two_p && *x2 < two_p);
        let a0 = *x0;
        let b1 = shoup(*x1, t1[0], t1[1], p);
        let b2 = shoup(*x2, t2[0], t2[1], p);
        let t = scalar(shoup(b2 + two_p - b1, w, ws, p));
        *x0 = reduce_2p(reduce_2p(a0 + b1, two_p) + b2, two_p);
        *x1 = reduce_2p(reduce_2p(a0 + two_p - b1, two_p) + t, two_p);
        *x2 = reduce_2p(reduce_2p(a0 + two_p - b2, two_p) + two_p - t, two_p);
    });
}

/// `f(x_0, x_1, x_2, c_1, c_2)` for each i < M = `a.len()` / 3: entry i of each third of `a`
/// and of the two tables.
#[inline(always)]
fn for_each_third(
    a: &mut [u64],
    tables: &[Vec<[u64; 2]>; 2],
    mut f: impl FnMut(&mut u64, &mut u64, &mut u64, [u64; 2], [u64; 2]),
) {
    let m = a.len() / 3;
    debug_assert!(a.len() == 3 * m && tables.iter().all(|t| t.len() == m));
    let (x0, rest) = a.split_at_mut(m);
    let (x1, x2) = rest.split_at_mut(m);
    for ((((x0, x1), x2), c1), c2) in x0
        .iter_mut()
        .zip(x1.iter_mut())
        .zip(x2.iter_mut())
        .zip(&tables[0])
        .zip(&tables[1])
    {
        f(x0, x1, x2, *c1, *c2);
    }
}

/// What a transform of `n` points runs on: the power-of-two twiddles for its blocks of `m`
/// points (n = m, or n = 3m with the radix-3 step's [`Twist`]s).
struct Setup {
    n: usize,
    m: usize,
    tables: Arc<Tables>,
    twists: Option<Arc<[Twist; 3]>>,
}

impl Setup {
    /// For `n`, one of the set's [`lengths`].
    fn new(set: &PrimeSet, n: usize) -> Self {
        let m = if n.is_power_of_two() { n } else { n / 3 };
        debug_assert!(m.is_power_of_two() && (m == n || set.kernels.radix3()));
        let log_m = m.trailing_zeros();
        Self {
            n,
            m,
            tables: tables(set, log_m),
            twists: (m != n).then(|| twists(set, log_m)),
        }
    }
}

/// Bits `[o, o + b)` of `x` (zero beyond its end), for b <= 93.
/// Leaks: the offset `o` and `b` (the limbs read, and branches on them); nothing of `x`.
#[inline(always)]
fn bits_at(x: &[Limb], o: usize, b: u32) -> u128 {
    let (i, sh) = (o / 64, (o % 64) as u32);
    let limb = |j: usize| x.get(j).copied().unwrap_or(0) as u128;
    let mut v = (limb(i) | limb(i + 1) << 64) >> sh;
    if sh + b > 128 {
        v |= limb(i + 2) << (128 - sh);
    }
    if b < 128 {
        v &= (1u128 << b) - 1;
    }
    v
}

/// `dst[k]` = coefficient k of `x` (b bits each) mod p, in [0, 4p), zero past `count`: the low
/// 64 bits and the bits above, each reduced to [0, 2p) by a Shoup product (by 1 and by 2^64).
/// Leaks: nothing but the lengths (constant time).
fn load(dst: &mut [u64], x: &[Limb], b: u32, count: usize, f: &Field) {
    let [r, rs] = f.r64;
    if b == 64 {
        for (d, &v) in dst.iter_mut().zip(x) {
            *d = shoup(v, 1, f.one_q, f.p);
        }
    } else {
        for (k, d) in dst[..count].iter_mut().enumerate() {
            let v = bits_at(x, k * b as usize, b);
            *d = shoup(v as u64, 1, f.one_q, f.p) + shoup((v >> 64) as u64, r, rs, f.p);
        }
    }
    let filled = if b == 64 { x.len() } else { count };
    dst[filled..].fill(0);
}

/// Cuts `x` into `lo.len()` b-bit coefficients (b <= 100), coefficient k as its low 52 bits
/// (all b when b <= 52) in `lo[k]` and the bits above in `hi[k]` (below 2^48), zero bits past
/// `x`: each part one unaligned 64-bit load, shifted and masked.
/// Leaks: nothing but the lengths (constant time).
fn split_coefficients(x: &[Limb], b: u32, lo: &mut [u64], hi: &mut [u64]) {
    debug_assert!(b <= 100 && hi.len() == lo.len());
    debug_assert!(lo.len() <= (64 * x.len()).div_ceil(b as usize));
    // x's bytes and 16 zero bytes: coefficient k < ceil(64 len / b) starts below bit 64 len,
    // so its windows (from bit k b + 52 at most) read bytes below 8 len + 14.
    let mut bytes = Vec::with_capacity(8 * x.len() + 16);
    bytes.extend(x.iter().flat_map(|l| l.to_le_bytes()));
    bytes.extend([0; 16]);
    // The 57 bits (or more) from bit o: one unaligned load and a shift below 8 (a double-width
    // `shrd` by a variable count measured slow on Zen 4).
    let window = |o: usize| {
        let mut w = [0u8; 8];
        w.copy_from_slice(&bytes[o / 8..o / 8 + 8]);
        u64::from_le_bytes(w) >> (o % 8)
    };
    let lo_bits = b.min(52);
    let (lo_mask, hi_mask) = ((1u64 << lo_bits) - 1, (1u64 << (b - lo_bits)) - 1);
    for (k, (lo, hi)) in lo.iter_mut().zip(hi.iter_mut()).enumerate() {
        let o = k * b as usize;
        *lo = window(o) & lo_mask;
        *hi = window(o + lo_bits as usize) & hi_mask;
    }
}

/// An operand cut into b-bit coefficients, `count` of them, to load mod each prime
/// ([`Self::load`]). For the FMA kernels with b != 64 the bits are cut once, into each
/// coefficient's low 52 bits and the bits above (`split`: the low parts, then the high ones, each
/// padded to a multiple of 4), which the three primes then reduce in vectors.
struct Coefficients<'a> {
    x: &'a [Limb],
    b: u32,
    count: usize,
    #[cfg_attr(
        not(all(target_arch = "x86_64", not(feature = "count"))),
        allow(dead_code)
    )]
    split: Vec<u64>,
}

impl<'a> Coefficients<'a> {
    fn new(set: &PrimeSet, x: &'a [Limb], b: u32, count: usize) -> Self {
        let mut split = Vec::new();
        if set.kernels.is_fma() && b != 64 {
            debug_assert!(b <= 100);
            let padded = count.next_multiple_of(4);
            split = vec![0; 2 * padded];
            let (lo, hi) = split.split_at_mut(padded);
            split_coefficients(x, b, &mut lo[..count], &mut hi[..count]);
        }
        Self { x, b, count, split }
    }

    /// `dst[k]` = coefficient k mod the prime of `f`, in [0, 4p), zero past `count` (as
    /// [`load`]) with the kernels of `set`.
    /// Leaks: nothing but the lengths (constant time).
    fn load(&self, set: &PrimeSet, dst: &mut [u64], f: &Field) {
        #[cfg(all(target_arch = "x86_64", not(feature = "count")))]
        if set.kernels == Kernels::Fma {
            // SAFETY: the FMA set is only chosen on CPUs with AVX2 and FMA; `dst` holds the
            // transform's n >= count points (and the split's padding to 4, as n is a multiple
            // of 16).
            unsafe {
                if self.b == 64 {
                    super::ntt_fma::load_limbs(dst, self.x, f.p);
                } else {
                    let (lo, hi) = self.split.split_at(self.split.len() / 2);
                    super::ntt_fma::load_split(dst, lo, hi, self.count, f.p);
                }
            }
            return;
        }
        let _ = set;
        load(dst, self.x, self.b, self.count, f);
    }
}

/// The transform lengths (points) of `set`, shortest first: powers of two from 2^[`MIN_LOG_LEN`]
/// to the set's longest, and for the portable and FMA kernels also 3 2^k between them (a
/// radix-3 step over power-of-two transforms; 3 2^k divides every p - 1 of the set).
fn lengths(set: &PrimeSet) -> impl Iterator<Item = usize> {
    let radix3 = set.kernels.radix3();
    (MIN_LOG_LEN..=set.max_log_len).flat_map(move |log_len| {
        let three = (radix3 && log_len > MIN_LOG_LEN).then_some(3 << (log_len - 1));
        core::iter::once(1 << log_len).chain(three)
    })
}

/// The shortest transform length of the tier's prime set with at least `n` points (`None`
/// beyond the longest): the length of `redc_n`'s products mod B^N - 1 for an `n`-limb modulus.
pub fn transform_len(n: usize) -> Option<usize> {
    lengths(prime_set()).find(|&len| len >= n)
}

/// Whether an operand of `limbs` limbs can be transformed in `set` for products mod B^n - 1:
/// `n` is one of the set's lengths, holds the operand, and its bound allows n terms of 64 bits.
fn cyclic_fits(set: &PrimeSet, limbs: usize, n: usize) -> bool {
    limbs <= n && 128 + ceil_log2(n) <= set.coeff_bits && lengths(set).any(|len| len == n)
}

/// The tier's transform length for products mod B^N - 1 of operands up to `limbs` limbs: the
/// shortest of [`transform_len`] (N >= `limbs`), if its bound allows N terms.
pub(crate) fn cyclic_len(limbs: usize) -> Option<usize> {
    transform_len(limbs).filter(|&n| cyclic_fits(prime_set(), limbs, n))
}

/// The transform length (points) of [`mul_ntt`] for operands of `na` and `nb` limbs on the
/// tier in use (`None` past the longest).
pub(crate) fn product_len(na: usize, nb: usize) -> Option<usize> {
    plan(prime_set(), 64 * na, 64 * nb).map(|(n, _)| n)
}

/// Whether this tier's transforms hold both of a k-limb REDC's operands: m' for full products
/// with k-limb operands ([`Transformed::new`]`(m', k)`) and m for products mod B^L - 1 with
/// L = [`transform_len`]`(k)` ([`Transformed::new_cyclic`]). Exactly when both give `Some`.
pub(crate) fn redc_transforms_fit(k: usize) -> bool {
    plan(prime_set(), 64 * k, 64 * k.max(1)).is_some() && cyclic_len(k).is_some()
}

/// ceil(log2 `n`) for n >= 1.
fn ceil_log2(n: usize) -> u32 {
    usize::BITS - (n - 1).leading_zeros()
}

/// Transform length (points, one of [`lengths`]) and coefficient bits for a product of
/// `bits_a`- and `bits_b`-bit operands: the shortest length that holds the product's
/// coefficients with b small enough that each coefficient (a sum of min(ca, cb) products of two
/// b-bit values) stays below 2^`coeff_bits`. `None` beyond the set's longest transform.
pub(crate) fn plan(set: &PrimeSet, bits_a: usize, bits_b: usize) -> Option<(usize, u32)> {
    let total = bits_a + bits_b;
    for n in lengths(set) {
        let mut b = total.div_ceil(n).max(1);
        while bits_a.div_ceil(b) + bits_b.div_ceil(b) > n + 1 {
            b += 1;
        }
        let terms = bits_a.div_ceil(b).min(bits_b.div_ceil(b)).max(1);
        let log_terms = ceil_log2(terms);
        // The FMA kernels' 3 2^k lengths with coefficients past one limb lose to the next
        // length (2^(k+2) points, 4/3 as long) with coefficients within one.
        if set.kernels.is_fma() && !n.is_power_of_two() && b > 64 {
            continue;
        }
        if 2 * b as u32 + log_terms <= set.coeff_bits {
            // Prefer limb-aligned coefficients when they fit the same length.
            let b = b as u32;
            let aligned = 128 + log_terms <= set.coeff_bits
                && b <= 64
                && bits_a.div_ceil(64) + bits_b.div_ceil(64) <= n + 1;
            return Some((n, if aligned { 64 } else { b }));
        }
    }
    None
}

/// Whether [`mul_ntt`] can multiply operands of these lengths (limbs) in one transform.
pub fn ntt_fits(na: usize, nb: usize) -> bool {
    plan(prime_set(), 64 * na, 64 * nb).is_some()
}

/// `r = a * b` by three-prime NTT (module docs). `r.len() == a.len() + b.len()`, both
/// non-empty and [`ntt_fits`]. Allocates 4N words (N = transform length).
/// Leaks: nothing but the lengths (constant time).
pub fn mul_ntt(r: &mut [Limb], a: &[Limb], b: &[Limb]) {
    convolve(prime_set(), r, a, Some(b))
}

/// [`mul_ntt`] with the portable kernels whatever the tier (for `examples/mulsweep.rs`, which
/// compares them with the vector ones).
#[doc(hidden)]
pub fn mul_ntt_portable(r: &mut [Limb], a: &[Limb], b: &[Limb]) {
    convolve(&PORTABLE, r, a, Some(b))
}

/// `r = a^2` by three-prime NTT: one forward transform per prime instead of two.
/// `r.len() == 2 * a.len()`.
/// Leaks: nothing but the lengths (constant time).
pub fn sqr_ntt(r: &mut [Limb], a: &[Limb]) {
    convolve(prime_set(), r, a, None)
}

/// Garner's constants for one transform length: the per-prime scale 2^radix / N (the
/// Montgomery product left 2^-radix, the unnormalized inverse a factor N; 1 / N for the exact
/// products of the FMA kernels) and the CRT
/// multipliers, each with its Shoup quotient in the set's radix (for the IFMA CRT; the
/// portable CRT recomputes 64-bit ones).
pub(crate) struct CrtConsts {
    pub(crate) fields: [Field; 3],
    pub(crate) scale: [[u64; 2]; 3],
    /// p1^{-1} mod p2.
    pub(crate) c12: [u64; 2],
    /// p1 mod p3.
    pub(crate) p1_mod_p3: [u64; 2],
    /// (p1 p2)^{-1} mod p3.
    pub(crate) c123: [u64; 2],
    /// p1 p2.
    pub(crate) p1p2: u128,
}

impl CrtConsts {
    fn new(set: &PrimeSet, t: &Tables, n: usize) -> Self {
        let radix = set.radix_bits;
        let pre = |w: u64, p: u64| [w, shoup_pre_radix(w, p, radix)];
        let [p1, p2, p3] = set.primes;
        Self {
            fields: t.fields,
            // N^{-1} = p - (p - 1) / N since N divides p - 1.
            scale: t.fields.map(|f| {
                pre(
                    mulmod(f.pointwise_factor, f.p - (f.p - 1) / n as u64, f.p),
                    f.p,
                )
            }),
            c12: pre(t.c12[0], p2),
            p1_mod_p3: pre(t.p1_mod_p3[0], p3),
            c123: pre(t.c123[0], p3),
            p1p2: p1 as u128 * p2 as u128,
        }
    }
}

/// One cache line of transform data.
#[derive(Clone, Copy, Default)]
#[repr(C, align(64))]
struct Line([u64; 8]);

/// Zeroed words for transform data, aligned to cache lines: the vector kernels' 32- and 64-byte
/// loads and stores never straddle two lines (malloc's 16-byte alignment let half of the AVX2
/// accesses do so, and made the transform 10-15% slower or not by the heap's state).
struct Points(Vec<Line>);

impl Points {
    /// `len` (a multiple of 8) zero words.
    fn zeroed(len: usize) -> Self {
        debug_assert!(len.is_multiple_of(8));
        Self(vec![Line::default(); len / 8])
    }
}

impl core::ops::Deref for Points {
    type Target = [u64];
    fn deref(&self) -> &[u64] {
        // SAFETY: `Line` is `repr(C)` around `[u64; 8]` with no padding (size 64 = its
        // alignment), so the lines are 8 len contiguous, initialized u64s; the borrow carries
        // over.
        unsafe { core::slice::from_raw_parts(self.0.as_ptr().cast(), 8 * self.0.len()) }
    }
}

impl core::ops::DerefMut for Points {
    fn deref_mut(&mut self) -> &mut [u64] {
        // SAFETY: as in `deref`, for the unique borrow.
        unsafe { core::slice::from_raw_parts_mut(self.0.as_mut_ptr().cast(), 8 * self.0.len()) }
    }
}

/// The transform of an operand: N values per prime (forward-transformed: integers in [0, 4p),
/// or for the FMA kernels doubles' bit patterns within 3p), for
/// products by [`Transformed::mul`] (full products with operands up to the length it was
/// planned for) or [`Transformed::mul_cyclic`] (products mod B^N - 1). Reusing it saves one
/// forward transform per product, as for the modulus of Montgomery reduction.
/// Leaks: nothing but the lengths (constant time), except [`Transformed::mul_cyclic`]'s
/// end-around carry.
pub struct Transformed {
    set: &'static PrimeSet,
    b: u32,
    /// Coefficients of the operand.
    count: usize,
    /// Limbs of the operand.
    limbs: usize,
    /// Limbs of the longest other operand (full products), or 0 (cyclic).
    other: usize,
    data: Points,
    setup: Setup,
}

impl core::fmt::Debug for Transformed {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "Transformed({} limbs, {} points)",
            self.limbs,
            self.points()
        )
    }
}

impl Transformed {
    /// `x` transformed for full products with operands of up to `other` limbs. `None` if the
    /// product does not fit one transform.
    pub fn new(x: &[Limb], other: usize) -> Option<Self> {
        Self::new_in(prime_set(), x, other)
    }

    /// [`Self::new`] with the kernels of `set` (which must run on this CPU).
    pub(crate) fn new_in(set: &'static PrimeSet, x: &[Limb], other: usize) -> Option<Self> {
        let (n, b) = plan(set, 64 * x.len(), 64 * other.max(1))?;
        Some(Self::build(set, x, n, b, other))
    }

    /// `x` (at most `n` limbs) transformed for products mod B^n - 1 (64-bit coefficients).
    /// `None` unless `n` is a transform length of the tier ([`transform_len`]) whose bound allows
    /// n terms.
    pub fn new_cyclic(x: &[Limb], n: usize) -> Option<Self> {
        Self::new_cyclic_in(prime_set(), x, n)
    }

    /// [`Self::new_cyclic`] with the kernels of `set` (which must run on this CPU).
    pub(crate) fn new_cyclic_in(set: &'static PrimeSet, x: &[Limb], n: usize) -> Option<Self> {
        cyclic_fits(set, x.len(), n).then(|| Self::build(set, x, n, 64, 0))
    }

    fn build(set: &'static PrimeSet, x: &[Limb], n: usize, b: u32, other: usize) -> Self {
        let setup = Setup::new(set, n);
        let count = (64 * x.len()).div_ceil(b as usize);
        let coefficients = Coefficients::new(set, x, b, count);
        let mut data = Points::zeroed(3 * n);
        for (j, d) in data.chunks_exact_mut(n).enumerate() {
            coefficients.load(set, d, &setup.tables.fields[j]);
            transform(set, d, &setup, j);
        }
        Self {
            set,
            b,
            count,
            limbs: x.len(),
            other,
            data,
            setup,
        }
    }

    /// Transform length (points).
    pub fn points(&self) -> usize {
        self.setup.n
    }

    /// `r = a x` for `1 <= a.len() <=` the planned length, truncated to `r.len() <= a.len() +
    /// x.len()` limbs (only the coefficients the low limbs need are rebuilt).
    /// Leaks: nothing but the lengths (constant time).
    pub fn mul(&self, r: &mut [Limb], a: &[Limb]) {
        debug_assert!(self.other > 0 && a.len() <= self.other && !a.is_empty());
        debug_assert!(r.len() <= a.len() + self.limbs);
        let ca = (64 * a.len()).div_ceil(self.b as usize);
        let needed = (64 * r.len()).div_ceil(self.b as usize);
        let count = (ca + self.count - 1).min(needed);
        let res = self.product(a, ca);
        finish(
            self.set,
            r,
            &res,
            self.points(),
            count,
            self.b,
            &self.setup.tables,
            false,
        );
    }

    /// `r = a x mod (B^N - 1)` (N limbs, N = [`Self::points`], a value in [0, B^N - 1)) for
    /// `a.len() <= N`.
    /// Leaks: variable time in the end-around carry: its propagation stops when it dies, and
    /// the result B^N - 1 is checked for.
    pub fn mul_cyclic(&self, r: &mut [Limb], a: &[Limb]) {
        let n = self.points();
        debug_assert!(self.other == 0 && a.len() <= n && r.len() == n);
        let res = self.product(a, a.len());
        finish(self.set, r, &res, n, n, 64, &self.setup.tables, true);
    }

    /// The three inverse transforms of (transform of `a`) times this operand's.
    /// Leaks: nothing but the lengths (constant time).
    fn product(&self, a: &[Limb], ca: usize) -> Points {
        let n = self.points();
        let mut res = Points::zeroed(3 * n);
        let coefficients = Coefficients::new(self.set, a, self.b, ca);
        for (j, (d, x)) in res
            .chunks_exact_mut(n)
            .zip(self.data.chunks_exact(n))
            .enumerate()
        {
            coefficients.load(self.set, d, &self.setup.tables.fields[j]);
            transform(self.set, d, &self.setup, j);
            pointwise(self.set, d, Some(x), &self.setup.tables, j);
            transform_inverse(self.set, d, &self.setup, j);
        }
        res
    }
}

/// Forward transform of `s.n` points with the set's kernels.
/// Leaks: nothing but the length (constant time).
fn transform(set: &PrimeSet, a: &mut [u64], s: &Setup, j: usize) {
    let (tw, f) = (&s.tables.tw[j], &s.tables.fields[j]);
    debug_assert_eq!(a.len(), s.n);
    match set.kernels {
        // SAFETY: the IFMA set is only chosen on CPUs with AVX-512F and IFMA; its lengths are
        // powers of two >= 2^MIN_LOG_LEN = 16, within the tables.
        #[cfg(all(target_arch = "x86_64", not(feature = "count")))]
        Kernels::Ifma => unsafe { super::ntt_ifma::transform(a, tw, f) },
        // SAFETY: the FMA set is only chosen on CPUs with AVX2 and FMA; its lengths are 2^k
        // or 3 2^k (with the twists) for 2^k >= 16, within the tables.
        #[cfg(all(target_arch = "x86_64", not(feature = "count")))]
        Kernels::Fma => unsafe {
            super::ntt_fma::transform(a, &tw.fp, s.twists.as_ref().map(|t| &t[j].fp), f.p)
        },
        Kernels::Portable => {
            if let Some(twists) = &s.twists {
                forward_radix3(a, &twists[j], f.p);
            }
            let h = s.m / 2;
            for block in a.chunks_exact_mut(s.m) {
                forward(block, &tw.w[..h], &tw.w_q[..h], f.p);
            }
        }
    }
}

/// Inverse transform of `s.n` points (without 1/N) with the set's kernels.
/// Leaks: nothing but the length (constant time).
fn transform_inverse(set: &PrimeSet, a: &mut [u64], s: &Setup, j: usize) {
    let (tw, f) = (&s.tables.tw[j], &s.tables.fields[j]);
    debug_assert_eq!(a.len(), s.n);
    match set.kernels {
        // SAFETY: as in `transform`.
        #[cfg(all(target_arch = "x86_64", not(feature = "count")))]
        Kernels::Ifma => unsafe { super::ntt_ifma::transform_inverse(a, tw, f) },
        // SAFETY: as in `transform`.
        #[cfg(all(target_arch = "x86_64", not(feature = "count")))]
        Kernels::Fma => unsafe {
            super::ntt_fma::transform_inverse(a, &tw.fp, s.twists.as_ref().map(|t| &t[j].fp), f.p)
        },
        Kernels::Portable => {
            let h = s.m / 2;
            for block in a.chunks_exact_mut(s.m) {
                inverse(block, &tw.w_inv[..h], &tw.w_inv_q[..h], f.p);
            }
            if let Some(twists) = &s.twists {
                inverse_radix3(a, &twists[j], f.p);
            }
        }
    }
}

/// `a[i] = a[i] b[i] / 2^radix mod p` (squares without `b`), in [0, 2p), for inputs in [0, 4p)
/// (the FMA kernels: `a[i] b[i] mod p` in their own representation, see [`super::ntt_fma`]).
/// Leaks: nothing but the lengths (constant time).
fn pointwise(set: &PrimeSet, a: &mut [u64], b: Option<&[u64]>, t: &Tables, j: usize) {
    let f = &t.fields[j];
    match set.kernels {
        // SAFETY: as in `transform`; the lengths are equal multiples of 8.
        #[cfg(all(target_arch = "x86_64", not(feature = "count")))]
        Kernels::Ifma => return unsafe { super::ntt_ifma::pointwise(a, b, f) },
        // SAFETY: as in `transform`; the lengths are equal multiples of 8.
        #[cfg(all(target_arch = "x86_64", not(feature = "count")))]
        Kernels::Fma => return unsafe { super::ntt_fma::pointwise(a, b, f.p) },
        Kernels::Portable => {}
    }
    let two_p = 2 * f.p;
    match b {
        Some(b) => {
            for (x, &y) in a.iter_mut().zip(b) {
                *x = f.mont_mul(reduce_2p(*x, two_p), reduce_2p(y, two_p));
            }
        }
        None => {
            for x in a.iter_mut() {
                let y = reduce_2p(*x, two_p);
                *x = f.mont_mul(y, y);
            }
        }
    }
}

/// `r = a b` (`a^2` without `b`) with the kernels of `set` (the IFMA set only on CPUs with
/// AVX-512 IFMA).
/// Leaks: nothing but the lengths (constant time).
pub(crate) fn convolve(set: &'static PrimeSet, r: &mut [Limb], a: &[Limb], b: Option<&[Limb]>) {
    let nb = b.map_or(a.len(), <[Limb]>::len);
    debug_assert_eq!(r.len(), a.len() + nb);
    let (bits_a, bits_b) = (64 * a.len(), 64 * nb);
    let (n, cb) = plan(set, bits_a, bits_b).expect("ntt_fits");
    let (ca, cbb) = (bits_a.div_ceil(cb as usize), bits_b.div_ceil(cb as usize));
    let s = Setup::new(set, n);
    let mut res = Points::zeroed(3 * n);
    let mut tmp = Points::zeroed(if b.is_some() { n } else { 0 });
    let coefficients_a = Coefficients::new(set, a, cb, ca);
    let coefficients_b = b.map(|b| Coefficients::new(set, b, cb, cbb));
    for (j, out) in res.chunks_exact_mut(n).enumerate() {
        let f = &s.tables.fields[j];
        coefficients_a.load(set, out, f);
        transform(set, out, &s, j);
        match &coefficients_b {
            Some(b) => {
                b.load(set, &mut tmp, f);
                transform(set, &mut tmp, &s, j);
                pointwise(set, out, Some(&tmp), &s.tables, j);
            }
            None => pointwise(set, out, None, &s.tables, j),
        }
        transform_inverse(set, out, &s, j);
    }
    finish(set, r, &res, n, ca + cbb - 1, cb, &s.tables, false);
}

/// From the three inverse transforms `res` to the product: the coefficients `0..count` by CRT
/// ([`crt`]), added at their bit offsets `k b` into `r` ([`accumulate`]); with `wrap`, the sum
/// is taken mod B^len - 1 (len = `r.len()`).
/// Leaks: nothing but the lengths, except with `wrap` (as [`accumulate`]).
#[allow(clippy::too_many_arguments)]
fn finish(
    set: &PrimeSet,
    r: &mut [Limb],
    res: &[u64],
    n: usize,
    count: usize,
    b: u32,
    t: &Tables,
    wrap: bool,
) {
    let padded = count.next_multiple_of(8).min(n);
    let mut c = vec![0u64; 3 * padded];
    crt(set, res, n, padded, t, &mut c);
    accumulate(set, r, &c, padded, count, b, wrap);
}

/// [`accumulate`] without `wrap` for the FMA set's coefficients past 64 bits (below 2^150):
/// spread into four rows by [`super::ntt_fma::spread_rows`] (plain stores, no overlap within a
/// row), then the rows added by carry-chain passes, truncated to `r.len()` limbs.
/// Leaks: nothing but the lengths (constant time).
#[cfg(all(target_arch = "x86_64", not(feature = "count")))]
fn accumulate_four_rows(r: &mut [Limb], c: &[u64], stride: usize, count: usize, b: u32) {
    let len = r.len();
    let width = len + 4;
    let mut rows = vec![0 as Limb; 4 * width];
    // SAFETY: the FMA set only runs on CPUs with AVX2; `c` holds 3 stride words and stride is
    // count rounded up to 8 (or the transform length, a multiple of 16); rows hold 4 width.
    unsafe { super::ntt_fma::spread_rows(&mut rows, width, c, stride, count, b, len) };
    add_rows(r, &rows, width);
}

/// `r` = the sum of the rows of `rows` (each `width` limbs, at least `r.len()`), truncated to
/// `r.len()` limbs: the carries out of the window are dropped.
/// Leaks: nothing but the lengths (constant time).
fn add_rows(r: &mut [Limb], rows: &[Limb], width: usize) {
    let len = r.len();
    debug_assert!(width >= len && rows.len().is_multiple_of(width));
    r.copy_from_slice(&rows[..len]);
    for row in rows.chunks_exact(width).skip(1) {
        super::add_n_in_place(r, &row[..len]);
    }
}

/// Garner's CRT for coefficients `0..count` into `out` (limb i of coefficient j at
/// `out[i count + j]`): x1 = r1, x2 = (r2 - x1) / p1 mod p2, x3 = (r3 - x1 - x2 p1) / (p1 p2)
/// mod p3, c = x1 + x2 p1 + x3 p1 p2 < p1 p2 p3, each r_j first scaled by 2^radix / N.
/// Leaks: nothing but the lengths (constant time).
fn crt(set: &PrimeSet, res: &[u64], n: usize, count: usize, t: &Tables, out: &mut [u64]) {
    let k = CrtConsts::new(set, t, n);
    #[cfg(all(target_arch = "x86_64", not(feature = "count")))]
    if set.kernels == Kernels::Ifma {
        // SAFETY: the IFMA set only runs on CPUs with AVX-512F and IFMA; count is a multiple of
        // 8 (n >= 16 is one too), at most n; out holds 3 count limbs.
        return unsafe { super::ntt_ifma::crt(res, n, count, &k, out) };
    }
    #[cfg(all(target_arch = "x86_64", not(feature = "count")))]
    if set.kernels == Kernels::Fma {
        // SAFETY: the FMA set only runs on CPUs with AVX2 and FMA; count is a multiple of 8, at
        // most n; out holds 3 count limbs; `k` is built for this set and length.
        return unsafe { super::ntt_fma::crt(res, n, count, &k, out) };
    }
    let [f1, f2, f3] = k.fields;
    let (p1, p2, p3) = (f1.p, f2.p, f3.p);
    let s64 = |x: [u64; 2], p: u64| [x[0], shoup_pre(x[0], p)];
    let (s1, s2, s3) = (
        s64(k.scale[0], p1),
        s64(k.scale[1], p2),
        s64(k.scale[2], p3),
    );
    let (c12, p1_mod_p3, c123) = (s64(k.c12, p2), s64(k.p1_mod_p3, p3), s64(k.c123, p3));
    let fix = |x: u64, p: u64| x.min(x.wrapping_sub(p)); // [0, 2p) -> [0, p)
    let (o0, rest) = out.split_at_mut(count);
    let (o1, o2) = rest.split_at_mut(count);
    for j in 0..count {
        let x1 = fix(shoup(res[j], s1[0], s1[1], p1), p1);
        let r2 = fix(shoup(res[n + j], s2[0], s2[1], p2), p2);
        let r3 = fix(shoup(res[2 * n + j], s3[0], s3[1], p3), p3);
        // x2 = (r2 - x1) / p1 mod p2 (x1 < p1 < 2 p2).
        let x2 = fix(shoup(r2 + 2 * p2 - x1, c12[0], c12[1], p2), p2);
        // x3 = (r3 - x1 - x2 p1) / (p1 p2) mod p3 (x1 < 2 p3).
        let u = reduce_2p(r3 + 2 * p3 - x1, 2 * p3);
        let v = shoup(x2, p1_mod_p3[0], p1_mod_p3[1], p3);
        let x3 = fix(shoup(u + 2 * p3 - v, c123[0], c123[1], p3), p3);
        [o0[j], o1[j], o2[j]] = garner_sum(x1, x2, x3, p1, k.p1p2);
    }
}

/// Garner's last step: c = x1 + x2 p1 + x3 p1p2 (x1 < p1, x2 < p2, x3 < p3, so c < p1 p2 p3
/// < 2^192) as three limbs, low first.
/// Leaks: nothing (constant time).
#[inline(always)]
pub(crate) fn garner_sum(x1: u64, x2: u64, x3: u64, p1: u64, p1p2: u128) -> [u64; 3] {
    let m = x2 as u128 * p1 as u128 + x1 as u128;
    let lo = x3 as u128 * p1p2 as u64 as u128;
    let hi = x3 as u128 * (p1p2 >> 64) as u64 as u128;
    let c0 = m as u64 as u128 + lo as u64 as u128;
    let c1 = (m >> 64) + (lo >> 64) + (hi as u64 as u128) + (c0 >> 64);
    let c2 = (hi >> 64) + (c1 >> 64);
    debug_assert_eq!(c2 >> 64, 0);
    [c0 as u64, c1 as u64, c2 as u64]
}

/// `r = sum_k c_k 2^(k b)` over the coefficients `0..count` (three limbs each, limb i of
/// coefficient k at `c[i stride + k]`), truncated to `r.len()` limbs, or with `wrap` taken mod
/// B^len - 1 (len = `r.len()`, a value in [0, B^len - 1)).
/// Each c_k is below 2^`set.coeff_bits`. Without `wrap`: 64-bit coefficients by limb rows
/// ([`accumulate_aligned`]), the FMA set's past 64 bits by four rows (`accumulate_four_rows`),
/// coefficients below 2^(3b) by three rows ([`accumulate_rows`]); the rest by a running window
/// ([`accumulate_packed`]).
/// Leaks: nothing but the lengths without `wrap`; with it, variable time: the fold's carry
/// propagation stops when the carry dies, and a scan for the value B^len - 1.
fn accumulate(
    set: &PrimeSet,
    r: &mut [Limb],
    c: &[u64],
    stride: usize,
    count: usize,
    b: u32,
    wrap: bool,
) {
    #[cfg(all(target_arch = "x86_64", not(feature = "count")))]
    if set.kernels == Kernels::Fma && b > 64 && !wrap {
        return accumulate_four_rows(r, c, stride, count, b);
    }
    if b == 64 && !wrap {
        accumulate_aligned(r, c, stride, count);
    } else if !wrap && 3 * b >= set.coeff_bits {
        accumulate_rows(r, c, stride, count, b);
    } else {
        accumulate_packed(r, c, stride, count, b, wrap);
    }
}

/// [`accumulate`] without `wrap` for coefficients below 2^(3b): coefficient k is OR-ed into
/// row k mod 3 (within a row the coefficients start 3b bits apart, so they do not overlap),
/// then the three rows are added by carry-chain passes, truncated to `r.len()` limbs.
/// Leaks: nothing but the lengths (constant time).
fn accumulate_rows(r: &mut [Limb], c: &[u64], stride: usize, count: usize, b: u32) {
    let len = r.len();
    let width = len + 4;
    let mut rows = vec![0 as Limb; 3 * width];
    for k in 0..count {
        let (i, sh) = (k * b as usize / 64, (k * b as usize % 64) as u32);
        if i >= len {
            break;
        }
        let (c0, c1, c2) = (c[k], c[stride + k], c[2 * stride + k]);
        let shifted = if sh == 0 {
            [c0, c1, c2, 0]
        } else {
            [
                c0 << sh,
                c1 << sh | c0 >> (64 - sh),
                c2 << sh | c1 >> (64 - sh),
                c2 >> (64 - sh),
            ]
        };
        // i + 4 <= len + 3 < width.
        let row = &mut rows[(k % 3) * width + i..][..4];
        for (x, s) in row.iter_mut().zip(shifted) {
            debug_assert_eq!(*x & s, 0, "coefficients {k} and {} overlap", k - 3);
            *x |= s;
        }
    }
    add_rows(r, &rows, width);
}

/// [`accumulate`] for any coefficient width: a running five-limb window holds the sum's bits
/// from limb `base` up; a limb is written once no later coefficient (at bit k b or above) can
/// reach it.
/// Leaks: as [`accumulate`].
fn accumulate_packed(r: &mut [Limb], c: &[u64], stride: usize, count: usize, b: u32, wrap: bool) {
    let len = r.len();
    // The window in locals (an array shifted in memory stalled on store forwarding).
    let (mut a0, mut a1, mut a2, mut a3, mut a4) = (0u64, 0u64, 0u64, 0u64, 0u64);
    // The bit offset of a0, a multiple of 64.
    let mut base = 0usize;
    // The next limb of r to write. With wrap, limbs at len and above fold back to the bottom
    // (B^len = 1): kept in `high`.
    let mut out = 0usize;
    let mut high: Vec<Limb> = Vec::new();
    let mut emit = |x: Limb, out: &mut usize, r: &mut [Limb]| {
        if *out < len {
            r[*out] = x;
        } else if wrap {
            high.push(x);
        }
        *out += 1;
    };
    let adc = crate::limb::adc;
    for k in 0..count {
        let (c0, c1, c2) = (c[k], c[stride + k], c[2 * stride + k]);
        // acc += c << (k b - base), a shift below 64.
        let sh = (k * b as usize - base) as u32;
        let (s0, s1, s2, s3) = if sh == 0 {
            (c0, c1, c2, 0)
        } else {
            (
                c0 << sh,
                c1 << sh | c0 >> (64 - sh),
                c2 << sh | c1 >> (64 - sh),
                c2 >> (64 - sh),
            )
        };
        let carry;
        (a0, carry) = adc(a0, s0, 0);
        let (x, carry) = adc(a1, s1, carry);
        a1 = x;
        let (x, carry) = adc(a2, s2, carry);
        a2 = x;
        let (x, carry) = adc(a3, s3, carry);
        a3 = x;
        a4 += carry;
        // Bits below (k + 1) b are final.
        while (k + 1) * b as usize >= base + 64 {
            emit(a0, &mut out, r);
            (a0, a1, a2, a3, a4) = (a1, a2, a3, a4, 0);
            base += 64;
        }
    }
    for x in [a0, a1, a2, a3, a4] {
        emit(x, &mut out, r);
    }
    let filled = out.min(len);
    r[filled..].fill(0);
    if wrap {
        // Fold: add the limbs past len back at the bottom, with the end-around carries.
        super::add_mod_bnm1(r, &high);
        // B^len - 1 itself is 0 mod B^len - 1.
        if r.iter().all(|&x| x == Limb::MAX) {
            r.fill(0);
        }
    }
}

/// [`accumulate`] for 64-bit coefficients without `wrap`: coefficient k sits at limb k, so the
/// sum is the three limb rows of `c` added at limbs 0, 1 and 2 (carry-chain passes).
/// Leaks: nothing but the lengths (constant time).
fn accumulate_aligned(r: &mut [Limb], c: &[u64], stride: usize, count: usize) {
    let len = r.len();
    let m = count.min(len);
    r[..m].copy_from_slice(&c[..m]);
    r[m..].fill(0);
    for row in 1..3.min(len) {
        let m = count.min(len - row);
        let carry = super::add_n_in_place(&mut r[row..row + m], &c[row * stride..][..m]);
        // Past the row r is still zero (rows end one limb apart): the carry lands there, or
        // leaves the truncated window.
        if let Some(x) = r.get_mut(row + m) {
            debug_assert_eq!(*x, 0);
            *x = carry;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sets() -> Vec<&'static PrimeSet> {
        #[cfg(all(target_arch = "x86_64", not(feature = "count")))]
        return vec![&PORTABLE, &IFMA, &FMA];
        #[cfg(not(all(target_arch = "x86_64", not(feature = "count"))))]
        vec![&PORTABLE]
    }

    #[test]
    fn plan_packs_coefficients_beyond_one_limb() {
        // 300-limb squares fit 512 points with 75-bit coefficients under the portable bound.
        assert_eq!(plan(&PORTABLE, 300 * 64, 300 * 64), Some((512, 75)));
        // 130-limb squares: 192 points (3 2^6) at 87 bits on the portable set.
        assert_eq!(plan(&PORTABLE, 130 * 64, 130 * 64), Some((192, 87)));
        #[cfg(all(target_arch = "x86_64", not(feature = "count")))]
        assert_eq!(plan(&IFMA, 130 * 64, 130 * 64), Some((256, 65)));
    }

    /// The REDC's predicate agrees with the two constructors it stands for, at a size in range
    /// and past the tier's longest transform (where `RedcN` must fall back to its products).
    #[test]
    fn redc_transforms_fit_matches_the_constructors() {
        let longest = lengths(prime_set()).last().unwrap();
        for k in [transformed_threshold(), 3000] {
            assert!(redc_transforms_fit(k), "{k}");
            let x = vec![Limb::MAX; k];
            assert!(Transformed::new(&x, k).is_some());
            assert!(transform_len(k)
                .and_then(|n| Transformed::new_cyclic(&x, n))
                .is_some());
        }
        assert!(!redc_transforms_fit(longest + 1));
        assert!(transform_len(longest + 1).is_none());
    }

    /// The portable and FMA sets' lengths are 2^k and 3 2^k in increasing order, each
    /// dividing every p - 1; the IFMA kernels' only powers of two.
    #[test]
    fn lengths_interleave_three_times_powers_of_two_except_on_ifma() {
        for set in sets() {
            if !set.kernels.radix3() {
                assert!(lengths(set).all(usize::is_power_of_two));
                continue;
            }
            let first: Vec<usize> = lengths(set).take(7).collect();
            assert_eq!(first, [16, 32, 48, 64, 96, 128, 192]);
            let all: Vec<usize> = lengths(set).collect();
            assert!(all.windows(2).all(|w| w[0] < w[1]));
            assert!(all
                .iter()
                .all(|&n| { set.primes.iter().all(|&p| (p - 1).is_multiple_of(n as u64)) }));
        }
    }

    #[test]
    fn roots_have_the_right_order() {
        for set in sets() {
            for j in 0..3 {
                let p = set.primes[j];
                assert!(p < 1 << 62 && (p - 1) % (3 << set.max_log_len) == 0);
                let w = powmod(set.generators[j], (p - 1) >> set.max_log_len, p);
                // w has order exactly 2^max_log_len: w^(2^(max - 1)) = -1.
                assert_eq!(powmod(w, 1 << (set.max_log_len - 1), p), p - 1);
            }
            let log_p: f64 = set.primes.iter().map(|&p| (p as f64).log2()).sum();
            assert!(log_p > set.coeff_bits as f64);
            assert!(set.primes[0] < 2 * set.primes[1] && set.primes[0] < 2 * set.primes[2]);
        }
    }

    /// The scalar floating-point products of the FMA kernels against u128 arithmetic, at the
    /// edges of their ranges: the result is congruent and within p (the model's
    /// `debug_assert!`s check the bounds it claims too).
    #[cfg(all(target_arch = "x86_64", not(feature = "count")))]
    #[test]
    fn fma_scalar_products_are_exact() {
        use super::super::ntt_fma::reference;
        let congruent = |r: f64, x: i128, p: u64| {
            assert_eq!(r, r.trunc());
            assert!(r.abs() < p as f64, "{r} vs p = {p}");
            assert_eq!((r as i128 - x).rem_euclid(p as i128), 0, "{r} vs {x}");
        };
        let mut rng_state = 0x1234_5678_9abc_def1u64;
        let mut rand = move |m: u64| crate::limb::xorshift64(&mut rng_state) % m;
        for p in FMA.primes {
            let (pi, pf) = (p as i64, p as f64);
            let half = pi / 2;
            let mut ys: Vec<i64> = vec![0, 1, -1, pi - 1, 1 - pi, pi, -pi, 2 * pi - 1, 1 - 2 * pi];
            ys.extend([3 * pi, -3 * pi, 4 * pi - 1, 4 * pi, -4 * pi]);
            ys.extend((0..40).map(|_| rand(8 * p) as i64 - 4 * pi));
            let mut ws: Vec<i64> = vec![0, 1, -1, half, -half, half - 1, 1 - half];
            ws.extend((0..20).map(|_| rand(p) as i64 - half));
            for &y in &ys {
                assert!(y.unsigned_abs() < 1 << 52);
                let r = reference::reduce(y as f64, pf);
                congruent(r, y as i128, p);
                assert!(r.abs() <= pf / 2.0 + 2.0);
                for &w in &ws {
                    let w_q = w as f64 / pf;
                    let r = reference::mul_twiddle(y as f64, w as f64, w_q, pf);
                    congruent(r, y as i128 * w as i128, p);
                }
            }
            let edge = half + 2;
            let mut xs: Vec<i64> = vec![0, 1, -1, half, -half, edge, -edge];
            xs.extend((0..30).map(|_| rand(2 * edge as u64 + 1) as i64 - edge));
            for &a in &xs {
                for &b in &xs {
                    let r = reference::mul(a as f64, b as f64, pf);
                    congruent(r, a as i128 * b as i128, p);
                }
            }
        }
    }

    /// The AVX2 + FMA CRT against the congruences it must meet: each coefficient c < p1 p2 p3
    /// with c = r_j / N mod p_j, for residues over [0, 2p) with both ends.
    #[cfg(all(target_arch = "x86_64", not(feature = "count")))]
    #[test]
    fn fma_crt_meets_the_congruences() {
        if !fma_available() {
            return;
        }
        let mut state = 7u64;
        for log_len in [MIN_LOG_LEN, 10] {
            let n = 1usize << log_len;
            let t = tables(&FMA, log_len);
            let k = CrtConsts::new(&FMA, &t, n);
            let res: Vec<u64> = (0..3 * n)
                .map(|i| {
                    let p = FMA.primes[i / n];
                    match i % n {
                        0 => 0,
                        1 => 2 * p - 1,
                        2 => p,
                        3 => p - 1,
                        _ => crate::limb::xorshift64(&mut state) % (2 * p),
                    }
                })
                .collect();
            let mut out = vec![0u64; 3 * n];
            // SAFETY: AVX2 and FMA checked; n a multiple of 4; `k` built for the FMA set and n.
            unsafe { super::super::ntt_fma::crt(&res, n, n, &k, &mut out) };
            let [p1, p2, p3] = FMA.primes;
            let bound = p1 as u128 * p2 as u128; // p1 p2 p3 = bound p3
            for i in 0..n {
                let c = [out[i], out[n + i], out[2 * n + i]];
                // c < p1 p2 p3: c / 2^64 < bound p3 / 2^64, checked as (c2 c1) < bound p3 >> 64.
                let top = (c[2] as u128) << 64 | c[1] as u128;
                let limit =
                    (bound >> 64) * p3 as u128 + ((bound as u64 as u128 * p3 as u128) >> 64);
                assert!(top <= limit, "coefficient {i} out of range");
                for (j, &p) in FMA.primes.iter().enumerate() {
                    let c_mod = c
                        .iter()
                        .rev()
                        .fold(0u128, |acc, &x| ((acc << 64) | x as u128) % p as u128);
                    let n_inv = p - (p - 1) / n as u64;
                    let want = mulmod(res[j * n + i] % p, n_inv, p);
                    assert_eq!(c_mod as u64, want, "coefficient {i} mod p{j}");
                }
            }
        }
    }

    /// The FMA CRT's vector Garner sum against the scalar one ([`garner_sum`]): every
    /// combination of 0, 1, p - 1 and values with all-ones low or high halves for each x_i
    /// (the longest carries between the 32-bit columns), and random ones.
    #[cfg(all(target_arch = "x86_64", not(feature = "count")))]
    #[test]
    fn fma_garner_sum_matches_the_scalar_one() {
        use core::arch::x86_64::{__m256i, _mm256_loadu_si256, _mm256_storeu_si256};
        if !fma_available() {
            return;
        }
        let [p1, p2, p3] = FMA.primes;
        let p1p2 = p1 as u128 * p2 as u128;
        let edges = |p: u64| {
            [
                0,
                1,
                p - 1,
                p >> 1,
                0xffff_ffff,
                (p - 1) & !0xffff_ffff,
                p - (1 << 32),
            ]
        };
        let mut state = 5u64;
        let mut xs: Vec<[u64; 3]> = Vec::new();
        for a in edges(p1) {
            for b in edges(p2) {
                for c in edges(p3) {
                    xs.push([a, b, c]);
                }
            }
        }
        for _ in 0..4000 {
            let mut r = || crate::limb::xorshift64(&mut state);
            xs.push([r() % p1, r() % p2, r() % p3]);
        }
        // SAFETY: AVX2 and FMA checked above.
        let g = unsafe { super::super::ntt_fma::GarnerConsts::new(p1, p2) };
        for four in xs.chunks(4) {
            let lane = |i: usize| core::array::from_fn::<u64, 4, _>(|l| four[l % four.len()][i]);
            let [x1, x2, x3] = [lane(0), lane(1), lane(2)];
            // SAFETY: AVX2 and FMA checked above; four-word local arrays.
            let limbs: [[u64; 4]; 3] = unsafe {
                let load = |x: &[u64; 4]| _mm256_loadu_si256(x.as_ptr().cast::<__m256i>());
                let sum = super::super::ntt_fma::garner_sum(load(&x1), load(&x2), load(&x3), &g);
                sum.map(|v| {
                    let mut out = [0u64; 4];
                    _mm256_storeu_si256(out.as_mut_ptr().cast(), v);
                    out
                })
            };
            for l in 0..4 {
                let want = garner_sum(x1[l], x2[l], x3[l], p1, p1p2);
                let got = [limbs[0][l], limbs[1][l], limbs[2][l]];
                assert_eq!(got, want, "x = {:?}", (x1[l], x2[l], x3[l]));
            }
        }
    }

    /// The aligned sum (64-bit coefficients) against the general one, full and truncated.
    #[test]
    fn aligned_accumulation_matches_the_general_one() {
        let mut state = 11u64;
        for (count, len) in [
            (1usize, 1usize),
            (1, 3),
            (5, 2),
            (8, 10),
            (16, 17),
            (16, 18),
            (32, 33),
            (32, 40),
        ] {
            let stride = count.next_multiple_of(8);
            let mut c: Vec<u64> = (0..3 * stride)
                .map(|_| crate::limb::xorshift64(&mut state))
                .collect();
            c[..count].fill(u64::MAX); // the longest carries
            let (mut fast, mut general) = (vec![1; len], vec![2; len]);
            accumulate_aligned(&mut fast, &c, stride, count);
            accumulate_packed(&mut general, &c, stride, count, 64, false);
            assert_eq!(fast, general, "count {count} len {len}");
        }
    }

    /// The row-wise (three rows; four for the FMA set past 64 bits) and window sums of
    /// coefficients below 2^150 (the FMA and IFMA sets' bound) at widths from 50 bits, against
    /// GMP: random coefficients and all-ones ones (the longest carries), sums truncated short of
    /// and past their length.
    #[test]
    fn packed_accumulations_match_gmp() {
        let mut state = 12u64;
        for b in [50u32, 51, 52, 63, 65, 70, 74] {
            for (count, len) in [
                (1usize, 1usize),
                (1, 4),
                (7, 3),
                (8, 9),
                (24, 20),
                (24, 40),
                (40, 60),
                (131, 150),
            ] {
                let stride = count.next_multiple_of(8);
                let mut c: Vec<u64> = (0..3 * stride)
                    .map(|_| crate::limb::xorshift64(&mut state))
                    .collect();
                c[..count / 2].fill(u64::MAX);
                c[stride..stride + count / 2].fill(u64::MAX);
                for x in &mut c[2 * stride..] {
                    *x &= (1 << 22) - 1;
                }
                c[2 * stride..2 * stride + count / 2].fill((1 << 22) - 1);
                let mut want = rug::Integer::new();
                for k in 0..count {
                    let limbs = [c[k], c[stride + k], c[2 * stride + k]];
                    let ck = rug::Integer::from_digits(&limbs, rug::integer::Order::Lsf);
                    want += ck << (k as u32 * b);
                }
                want.keep_bits_mut(64 * len as u32);
                let (mut rows, mut window) = (vec![1; len], vec![2; len]);
                accumulate_rows(&mut rows, &c, stride, count, b);
                accumulate_packed(&mut window, &c, stride, count, b, false);
                let got = |r: &[u64]| rug::Integer::from_digits(r, rug::integer::Order::Lsf);
                assert_eq!(got(&rows), want, "rows: b {b} count {count} len {len}");
                assert_eq!(got(&window), want, "window: b {b} count {count} len {len}");
                #[cfg(all(target_arch = "x86_64", not(feature = "count")))]
                if b > 64 && fma_available() {
                    let mut four = vec![3; len];
                    accumulate_four_rows(&mut four, &c, stride, count, b);
                    assert_eq!(got(&four), want, "four rows: b {b} count {count} len {len}");
                }
            }
        }
    }

    /// The FMA kernels' loads: limbs (64-bit coefficients, a length off a multiple of 4) and
    /// coefficients of 36 to 100 bits cut across limbs, at the edges (0, p - 1, p, 2^52 - 1, 2^52,
    /// all ones): each value in [0, 2p) and congruent to the coefficient (read bit by bit), zero
    /// past them.
    #[cfg(all(target_arch = "x86_64", not(feature = "count")))]
    #[test]
    fn fma_loads_reduce_coefficients() {
        if !fma_available() {
            return;
        }
        let t = tables(&FMA, 5);
        for (j, f) in t.fields.iter().enumerate() {
            let p = f.p;
            let mut x = vec![
                0,
                1,
                p - 1,
                p,
                2 * p,
                4 * p - 1,
                (1 << 52) - 1,
                1 << 52,
                u64::MAX,
            ];
            x.extend(
                (0..18).map(|i| (i as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ j as u64),
            );
            x.extend([u64::MAX; 6]);
            for b in [64, 36, 51, 52, 53, 63, 65, 67, 70, 74, 100] {
                let count = (64 * x.len()).div_ceil(b as usize);
                let mut dst = vec![7u64; 64];
                Coefficients::new(&FMA, &x, b, count).load(&FMA, &mut dst, f);
                for (k, &d) in dst.iter().enumerate() {
                    let want = (0..b as usize)
                        .map(|i| k * b as usize + i)
                        .filter(|&bit| bit < 64 * x.len() && x[bit / 64] >> (bit % 64) & 1 == 1)
                        .fold(0u128, |acc, bit| acc | 1 << (bit - k * b as usize));
                    if k >= count {
                        assert_eq!(d, 0, "past the coefficients, b {b}");
                        continue;
                    }
                    assert!(d < 2 * p, "coefficient {k}, b {b}");
                    assert_eq!(
                        d % p,
                        (want % p as u128) as u64,
                        "coefficient {k}, b {b}, p{j}"
                    );
                }
            }
        }
    }

    /// The FMA kernels against their scalar model (bit for bit), and the model's transforms
    /// against a direct evaluation: forward output i is the input polynomial at w^bitrev(i), and
    /// with the radix-3 step (3M points) output e M + i at ψ^e w^bitrev(i) (w = ψ^3).
    #[cfg(all(target_arch = "x86_64", not(feature = "count")))]
    #[test]
    fn fma_kernels_match_their_model() {
        use super::super::ntt_fma::{self, reference};
        if !fma_available() {
            return;
        }
        let mut state = 99u64;
        // Past the cache block (FMA_NTT_BLOCK), whose outer stages run over the whole array;
        // 2^k and 3 2^k points.
        let sizes = (MIN_LOG_LEN..=13).flat_map(|l| [(l, false), (l, true)]);
        for (log_len, three) in sizes {
            let n = if three {
                3 << log_len
            } else {
                1usize << log_len
            };
            let t = tables(&FMA, log_len);
            let twist = three.then(|| twists(&FMA, log_len));
            for j in 0..3 {
                let (p, tw) = (FMA.primes[j], &t.tw[j].fp);
                let twist = twist.as_ref().map(|t| &t[j].fp);
                let mut next = |m: u64| {
                    state = state
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    (state >> 11) % m
                };
                // Inputs in [0, 4p), the extremes included.
                let mut a: Vec<u64> = (0..n).map(|_| next(4 * p)).collect();
                let b: Vec<u64> = (0..n)
                    .map(|i| if i % 3 == 0 { 4 * p - 1 } else { next(4 * p) })
                    .collect();
                a[0] = 4 * p - 1;
                a[1] = 0;
                let to_f = |v: &[u64]| v.iter().map(|&x| x as f64).collect::<Vec<f64>>();
                let (mut ma, mut mb) = (to_f(&a), to_f(&b));
                reference::transform(&mut ma, tw, twist, p as f64);
                reference::transform(&mut mb, tw, twist, p as f64);
                let (mut va, mut vb) = (a.clone(), b.clone());
                // SAFETY: AVX2 and FMA checked; n a power of two >= 16 within the tables, or
                // three times one with its twists.
                unsafe {
                    ntt_fma::transform(&mut va, tw, twist, p);
                    ntt_fma::transform(&mut vb, tw, twist, p);
                }
                let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<u64>>();
                assert_eq!(va, bits(&ma), "forward {n} p{j}");
                assert_eq!(vb, bits(&mb));
                // Output e M + i = a(ψ^e w^bitrev(i)) mod p (a few points).
                let m = 1usize << log_len;
                let psi = powmod(FMA.generators[j], (p - 1) / n as u64, p);
                let w = powmod(FMA.generators[j], (p - 1) >> log_len, p);
                for k in [0, 1, n / 2 - 1, n / 2, n - 1, m, m + 3, n - m + 1]
                    .into_iter()
                    .filter(|&k| k < n)
                {
                    let (i, e) = (k % m, powmod(psi, (k / m) as u64, p));
                    let rev = (i.reverse_bits() >> (usize::BITS - log_len)) as u64;
                    let e = mulmod(e, powmod(w, rev, p), p);
                    let mut want = 0u64;
                    for &x in a.iter().rev() {
                        want = (mulmod(want, e, p) + x % p) % p;
                    }
                    assert_eq!(
                        (ma[k] as i128).rem_euclid(p as i128) as u64,
                        want,
                        "eval {k} of {n}"
                    );
                }
                reference::pointwise(&mut ma, &mb, p as f64);
                // SAFETY: as above.
                unsafe { ntt_fma::pointwise(&mut va, Some(&vb), p) };
                assert_eq!(va, bits(&ma), "pointwise {n} p{j}");
                reference::transform_inverse(&mut ma, tw, twist, p as f64);
                // SAFETY: as above.
                unsafe { ntt_fma::transform_inverse(&mut va, tw, twist, p) };
                let ints: Vec<u64> = ma.iter().map(|&x| x as u64).collect();
                assert_eq!(va, ints, "inverse {n} p{j}");
                // The inverse of the forward (reduced as the pointwise product leaves it) is N
                // times the input.
                let mut back = to_f(&a);
                reference::transform(&mut back, tw, twist, p as f64);
                for x in back.iter_mut() {
                    *x = reference::reduce(*x, p as f64);
                }
                reference::transform_inverse(&mut back, tw, twist, p as f64);
                for (x, &y) in back.iter().zip(&a) {
                    assert_eq!(*x as u64 % p, mulmod(y % p, n as u64, p));
                }
            }
        }
    }

    /// Below its threshold, the NTT serves 240..=280 limbs (512 points carrying 60 to 70 bits
    /// each) and 300..=384 (768 points, 50 to 64 bits) with the AVX2 + FMA kernels (on Intel
    /// CPUs only 352..=384), and on the portable tier 960..=1044 (1536 points, 80 to 87 bits),
    /// 1104..=1392 (2048 points, 69 to 87 bits) and 1656..=2047 (3072 points, 69 to 85 bits),
    /// no other size below it; on the ifma tier and an adx tier without FMA exactly from the
    /// threshold.
    #[test]
    fn dense_windows_are_240_to_280_and_300_to_384_limbs_on_fma_and_three_ranges_portable() {
        for squaring in [false, true] {
            let t = threshold(squaring);
            let below: Vec<usize> = (1..t).filter(|&n| pays(n, squaring)).collect();
            let window: Vec<usize> = if fma_in_use() && cpu::is_intel() {
                (crate::tuning::NTT_DENSE_MIN_FMA_INTEL..=384).collect()
            } else if fma_in_use() {
                (240..=280).chain(300..=384).collect()
            } else if cpu::tier() == Tier::Portable {
                (960..=1044).chain(1104..=1392).chain(1656..=2047).collect()
            } else {
                Vec::new()
            };
            assert_eq!(below, window, "squaring {squaring}");
            assert!(pays(t, squaring), "squaring {squaring}");
        }
    }

    #[test]
    fn plan_respects_the_coefficient_bound() {
        for set in sets() {
            for (ba, bb) in [(64, 64), (6400, 64), (1 << 20, 1 << 20), (1 << 26, 1 << 10)] {
                let (points, b) = plan(set, ba, bb).unwrap();
                let (ca, cb) = (ba.div_ceil(b as usize), bb.div_ceil(b as usize));
                assert!(ca + cb - 1 <= points);
                let terms = ca.min(cb) as f64;
                assert!(2.0 * b as f64 + terms.log2() <= set.coeff_bits as f64);
            }
        }
    }
}
