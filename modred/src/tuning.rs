//! Every threshold and tuning constant of modred, in one place, each with its one-line reason;
//! how each was measured is in `docs/tuning.md` (re-measure after changing a kernel).

/// Operand size (limbs) from which multiplication uses Karatsuba instead of schoolbook (Lim, Hwang,
/// Lee, *Fast Modular Reduction With Precomputation*, JW-ISC '97, §1 and Table 1: the best depth
/// grows with the size). `mpn_mul_n` / GMP on a Zen 4, 40 -> 32: 1.01-1.05 -> 0.99-1.00 at 64
/// limbs, 1.09-1.10 -> 1.02-1.04 at 128. Measurements: `docs/tuning.md`.
pub const KARATSUBA_THRESHOLD: usize = 32;

/// Operand size (limbs) from which squaring uses Karatsuba instead of the symmetric schoolbook.
/// After the square's eight-loop triangle (Intel model 167, `MODRED_CPU=adx`), 64 -> 40: 322
/// -> 315 ns at 40 limbs, 452 -> 431 at 48, 615 -> 560 at 56, 1948 -> 1754 at 112 (34 and 36
/// lose: 242 -> 275, 266 -> 298). Measurements: `docs/tuning.md`.
pub const KARATSUBA_SQR_THRESHOLD: usize = 40;

/// Modulus size (limbs) below which `montgomery-redc` and `montgomery-fast` form their products
/// by schoolbook on every tier, whatever the Karatsuba thresholds, so that both are constant
/// time there (`ct` accepts them; 4096-bit moduli, 64 limbs, included). From it they take
/// Karatsuba with the tier's thresholds inside.
pub const MONT_SCHOOLBOOK_BELOW: usize = 72;

/// [`KARATSUBA_THRESHOLD`] on the portable tier (and every CPU other than x86-64), whose
/// schoolbook rows (u128 products, no MULX/ADX carry chains) cost more per limb product, so
/// Karatsuba pays from a third of the size. Measurements: `docs/tuning.md`.
pub const KARATSUBA_THRESHOLD_PORTABLE: usize = 24;

/// [`KARATSUBA_SQR_THRESHOLD`] on the portable tier. Measurements: `docs/tuning.md`.
pub const KARATSUBA_SQR_THRESHOLD_PORTABLE: usize = 48;

// ---- Large operands (src/arith/toom.rs, src/arith/ntt.rs) ----
// Measurement set-up: docs/tuning.md.

// ---- GCD and modular inverse (src/arith/gcd_lehmer.rs, hgcd.rs, gcd.rs) ----

/// Operand size (limbs) from which the half-GCD recurses instead of running Lehmer steps on
/// the whole operands. `examples/gcd.rs` (inverse, modred/GMP, Zen 4, IFMA): with 100/200
/// 0.94 at 2^14 bits and 1.08 at 2^16, with 150/300 0.87 and 1.04, with 60/150 1.02 and 1.09,
/// with 200/400 0.89 and 1.03 (within the noise of 150/300).
pub const HGCD_THRESHOLD: usize = 150;

/// Operand size (limbs) from which the GCD and the inverse reduce by the half-GCD of the top
/// part instead of Lehmer steps. Measured with [`HGCD_THRESHOLD`] (same runs).
pub const GCD_HGCD_THRESHOLD: usize = 300;

/// The GCD's half-GCD reductions work on the top `n - n / d` limbs of `n`: d = 3 (GMP's
/// choice) against d = 2: 0.89 / 0.90 at 2^14 bits, 1.07 / 1.08 at 2^16, 0.92 / 0.96 at 2^18.
pub const GCD_HGCD_TOP_DIVISOR: usize = 3;

/// Operand size (limbs) from which balanced multiplication uses Toom-3 instead of Karatsuba.
/// Measurements: `docs/tuning.md`.
pub const TOOM3_THRESHOLD: usize = 200;

/// Operand size (limbs) from which squaring uses Toom-3 instead of Karatsuba, where the transform
/// does not pay first (the FMA transform's dense window starts at 240 limbs on AMD, 352 on
/// Intel). Intel model 167, `MODRED_CPU=adx`, Karatsuba / Toom-3: 0.94 at 200 limbs, 0.95 at
/// 232, 0.92 at 256, 0.97 at 300. Measurements: `docs/tuning.md`.
pub const TOOM3_SQR_THRESHOLD: usize = 352;

/// [`TOOM3_THRESHOLD`] on the portable tier: its Karatsuba (from 24 limbs, three levels deep at
/// 200) holds on longer. `mul_n` / GMP, Toom-3 vs Karatsuba: 1.28 vs 1.21 at 256 limbs, 1.24 vs
/// 1.25 at 288, 1.27 vs 1.27 at 320, 1.26 vs 1.39 at 360. Measurements: `docs/tuning.md`.
pub const TOOM3_THRESHOLD_PORTABLE: usize = 320;

/// [`TOOM3_SQR_THRESHOLD`] on the portable tier. `sqr` / GMP, Toom-3 vs Karatsuba: 1.21 vs 1.08
/// at 200 limbs, 1.30 vs 1.15 at 256, 1.17 vs 1.21 at 288, 1.16 vs 1.24 at 320.
pub const TOOM3_SQR_THRESHOLD_PORTABLE: usize = 272;

/// Length (limbs) from which `arith::add_n` / `sub_n` and their in-place forms run their blocks of
/// four limbs in assembly (ADX tier and above). At 8 limbs the call cost 3-5% of a 512-bit
/// `pow` (`pow_vartime` 0.59 -> 0.60 GMP, `pow_ct` 0.70 -> 0.73, adx tier); from 2048 bits no
/// difference; Toom interpolations (hundreds of limbs) run about twice as fast.
pub const ASM_CARRY_CHAIN_MIN_LIMBS: usize = 32;

/// Operand size (limbs) from which balanced multiplication uses Toom-4 instead of Toom-3 (below
/// the NTT threshold of the tier). Measurements: `docs/tuning.md`.
pub const TOOM4_THRESHOLD: usize = 400;

/// Operand size (limbs) from which squaring uses Toom-4 instead of Toom-3. Measurements:
/// `docs/tuning.md`.
pub const TOOM4_SQR_THRESHOLD: usize = 800;

/// The largest product scratch (limbs) a thread keeps between calls (128 KiB); larger scratch is
/// allocated per product. Every Karatsuba, Toom-3 and Toom-4 product below the transforms'
/// thresholds fits.
pub const SCRATCH_KEPT_MAX_LIMBS: usize = 1 << 14;

/// Operand size (limbs) from which multiplication uses the three-prime NTT on CPUs with AVX-512
/// IFMA. Measurements: `docs/tuning.md`.
pub const NTT_THRESHOLD_IFMA: usize = 200;

/// Squaring's NTT threshold with AVX-512 IFMA. NTT / Karatsuba: 1.27 at 160, 0.97 at 192, 1.02 at
/// 224, 0.76 at 256, 0.85 at 320, 0.50 at 512.
pub const NTT_SQR_THRESHOLD_IFMA: usize = 224;

/// The NTT threshold (multiplication and squaring) of the portable transform next to the MULX/ADX
/// rows (the adx tier on CPUs without AVX2 and FMA). Measurements: `docs/tuning.md`.
pub const NTT_THRESHOLD_ADX: usize = 2000;

/// The NTT threshold (multiplication and squaring) of the AVX2 + FMA transform (`arith::ntt_fma`)
/// next to the MULX/ADX rows and Toom-3/4: the adx tier on CPUs with AVX2 and FMA (else
/// [`NTT_THRESHOLD_ADX`]): from the first size past 768 points at 64 bits per point
/// ([`NTT_DENSE_MAX_BITS_FMA`]), where 1024 points carry 48 bits. Zen 4, `MODRED_CPU=adx`,
/// multiplication / GMP: 1.00-1.01 at 385-390 limbs against 1.12 for Toom-3 at 383; NTT / Toom-4
/// (squaring) 0.77 (0.82) at 416, 0.73 (0.74) at 448. Measurements: `docs/tuning.md`.
pub const NTT_THRESHOLD_FMA: usize = 385;

/// Points of the AVX2 + FMA transforms' cache blocks: the stages whose butterfly blocks fit
/// one run block by block (16 KiB of doubles, in a 32 KiB L1 data cache with the twiddles).
/// Measurements: `docs/tuning.md`.
pub const FMA_NTT_BLOCK: usize = 2048;

/// Below [`NTT_THRESHOLD_FMA`], the AVX2 + FMA transform also serves products and squares of at
/// least this many limbs whose transform carries [`NTT_DENSE_BITS_FMA`] to
/// [`NTT_DENSE_MAX_BITS_FMA`] product bits per point: 240 to 280 limbs (512 points) and 300 to
/// 384 (768 points, the radix-3 length). NTT / Toom-3 multiplication about 0.99 at 224 (56 bits
/// per point), 0.85 at 256. Multiplication (squaring) / GMP with Toom-3 against 768 points:
/// 1.05-1.06 (1.16-1.18) against 1.10-1.11 (1.25-1.26) at 296 limbs (49 bits), 1.13 (1.16)
/// against 1.11-1.12 (1.20-1.25) at 304, 1.15 (1.15) against 1.08-1.10 (1.16-1.18) at 312,
/// 1.11 (1.14) against 0.98-0.99 (1.04-1.05) at 336, 1.16 (1.24) against 0.94-0.95 (1.05) at
/// 352. Measurements: `docs/tuning.md`.
pub const NTT_DENSE_MIN_FMA: usize = 240;

/// [`NTT_DENSE_MIN_FMA`] on Intel CPUs: there the MULX rows' Toom-3 keeps up with the FMA
/// transform longer. Rocket Lake-class Xeon (family 6 model 167), `MODRED_CPU=adx`, `mul_n`
/// (`sqr`) with the window from 385 limbs (none) against 240, two runs alternated: 240 limbs
/// 0.83 (0.80), 256 0.95 (0.89), 280 0.94 (0.89), 300 0.81 (0.79), 340 0.97 (0.94), 384 1.09
/// (1.02): the 768-point transform pays from about 350 limbs on that CPU, the 512-point one not
/// at all. AMD's Zen 4 keeps the window from 240 (measured there).
pub const NTT_DENSE_MIN_FMA_INTEL: usize = 352;

/// See [`NTT_DENSE_MIN_FMA`]. 50 bits: 768 points from 300 limbs. With the vector Garner sum
/// (Zen 4, `MODRED_CPU=adx`, two runs each), `mul_n` / GMP with Toom-3 against 768 points: 294
/// limbs 0.91-1.02 against 1.03-1.04, 298 1.04-1.06 against 1.01-1.02, 300 1.10 against
/// 1.05-1.06, 302 1.07-1.09 against 1.04-1.05, 304 1.11 against 1.04; squares about even (300:
/// 1.08-1.11 against 1.13, 304: 1.12 against 1.10).
pub const NTT_DENSE_BITS_FMA: usize = 50;

/// See [`NTT_DENSE_MIN_FMA`]: up to 70 bits per point, 512 points also serve 257-280 limbs, their
/// coefficients cut across limbs. Zen 4, `MODRED_CPU=adx`, `mul_n` / GMP `mpn_mul_n` (`sqr` /
/// `mpn_sqr`) with Toom-3 -> with 512 points (two runs each): 258 limbs 1.08-1.10 -> 0.95-1.01
/// (1.12 -> 1.07), 264 1.07 -> 0.92-0.93 (1.13-1.21 -> 1.02-1.04), 268 1.06 -> 0.88-0.90
/// (1.11-1.13 -> 1.00-1.02), 272 1.06-1.07 -> 0.87 (1.11 -> 1.00), 280 1.02 -> 0.84 (1.10 ->
/// 0.95-0.99).
pub const NTT_DENSE_MAX_BITS_FMA: usize = 70;

/// [`NTT_TRANSFORMED_THRESHOLD_ADX`] with the AVX2 + FMA transform: `redc_n`'s short and
/// cyclic products up to 231 limbs, the transforms from 232 (`pow` / GMP at 200 limbs 0.85
/// against 0.97-1.00 with the transforms, tied at 224-232, 0.76 against 0.85 at 256).
/// Measurements: `docs/tuning.md`.
pub const NTT_TRANSFORMED_THRESHOLD_FMA: usize = 232;

/// On the adx tier, the size (limbs) from which `redc_n`'s products with m' and m, whose transforms
/// are computed once per modulus, use the portable transform instead of Toom-3 (a product then
/// transforms only the other operand). Measurements: `docs/tuning.md`.
pub const NTT_TRANSFORMED_THRESHOLD_ADX: usize = 400;

/// The NTT threshold of the portable transform next to the portable rows; below it the transform
/// also serves from [`NTT_DENSE_MIN_PORTABLE`] limbs where it carries at least
/// [`NTT_DENSE_BITS_PORTABLE`] product bits per point. With transforms of 3 2^k points too,
/// NTT / Toom-4, multiplication (squaring): 1.22 (1.15) at 768 limbs, 1.19 (1.11) at 832, 1.05
/// (1.00) at 896, 0.93 (0.89) at 960, 0.86 (0.79) at 1024, 1.02 (0.88) at 1088, 0.91 (0.85) at
/// 1152, 0.78 (0.73) at 1280, 1.12 (1.00) at 1408, 0.98 (0.90) at 1536, 0.94 (0.85) at 1664, 0.83
/// (0.74) at 1792, 0.75 (0.66) at 1920, 0.70 (0.60) at 2048, 0.74 (0.73) at 3072. Measurements:
/// `docs/tuning.md`.
pub const NTT_THRESHOLD_PORTABLE: usize = 2048;

/// See [`NTT_THRESHOLD_PORTABLE`] (960-1044, 1104-1392 and 1656-2047 limbs: 1536, 2048 and 3072
/// points at 69 bits each or more).
pub const NTT_DENSE_MIN_PORTABLE: usize = 960;

/// See [`NTT_THRESHOLD_PORTABLE`].
pub const NTT_DENSE_BITS_PORTABLE: usize = 69;

/// On the portable tier, the size (limbs) from which `redc_n`'s products with m' and m, whose
/// transforms are computed once per modulus, use the transform (a product then transforms only
/// the other operand), below the one-off products' [`NTT_THRESHOLD_PORTABLE`]. Full-length `pow`
/// / GMP, transforms vs short and cyclic products: 1.44-1.45 vs 1.39-1.40 at 336 limbs, 1.50-1.54
/// vs 1.36-1.38 at 400, 1.34-1.37 vs 1.36-1.37 at 448, 1.28-1.30 vs 1.32-1.34 at 464, 1.21-1.22
/// vs 1.34-1.35 at 496. Measurements: `docs/tuning.md`.
pub const NTT_TRANSFORMED_THRESHOLD_PORTABLE: usize = 448;

/// Quotient size (limbs) from which a division block goes divide-and-conquer
/// (`arith::div_dc`) instead of Knuth's Algorithm D, for divisors below the Newton threshold.
/// 2n-by-n, divide-and-conquer / Knuth (Intel Xeon, `DIVSWEEP` of `examples/oneoff.rs`): 1.02
/// at 48-80 limbs, 0.95 at 96, 0.75 at 256, 0.41 at 1024 (adx); 0.94 at 48, 0.79 at 96, 0.61
/// at 256, 0.32 at 1024 (portable); 0.93 at 128, 0.55 at 512 (ifma).
pub const DIV_DC_THRESHOLD: usize = 48;

/// Divisor size (limbs) below which the reciprocal floor(B^2n / d) of `crate::arith::div_newton` is
/// one schoolbook division instead of Newton's iteration. Measurements: `docs/tuning.md`.
pub const RECIPROCAL_BASECASE: usize = 192;

/// Divisor size (limbs) from which a one-off division (`arith::div_rem`, quotient at least half as
/// long) computes the Newton reciprocal (without its exact correction) and divides by Barrett
/// blocks, on the ifma tier; the next two constants are the adx and portable tiers'. Below it
/// the divide-and-conquer division ([`DIV_DC_THRESHOLD`]), which also runs on the fast
/// products, serves: Newton / divide-and-conquer, 2n-by-n, 1.21 at 512 limbs, 1.10 at 768, 1.01
/// at 1024 (ifma); 1.16 at 1536, 1.06 at 2048, 0.92 at 2560, 0.91 at 4096 (adx); 1.19 at 4096,
/// 1.09 at 6144, 0.98 at 8192, 0.91 at 12288 (portable). With the wrapped products of
/// `arith::div_newton` (Intel Xeon): 1.11 at 512, 0.93 at 1024, 0.78 at 2048 (ifma); 1.06-1.43
/// at 1024-1536, 0.94-0.99 at 1792-2048, 0.75 at 4096, 0.62 at 16384 (adx); 1.10-1.35 at
/// 2560-3584, 0.95-0.99 at 4096, 1.02-1.12 at 6144, 0.84 at 8192 (portable): the break-even
/// depends on n's distance to a power of two (the cyclic transforms' lengths), thresholds kept.
/// Measurements: `docs/tuning.md`.
pub const DIV_NEWTON_THRESHOLD_IFMA: usize = 1024;

/// [`DIV_NEWTON_THRESHOLD_IFMA`] on the adx tier.
pub const DIV_NEWTON_THRESHOLD_ADX: usize = 2560;

/// [`DIV_NEWTON_THRESHOLD_IFMA`] on the portable tier.
pub const DIV_NEWTON_THRESHOLD_PORTABLE: usize = 8192;

/// Divisor size (limbs) from which a context that divides by the same number many times
/// (`classical`, `barrett`, decimal printing) keeps its Newton reciprocal, on the ifma tier; the
/// next two constants are the adx and portable tiers'. Measurements: `docs/tuning.md`.
pub const RECIPROCAL_REUSE_THRESHOLD_IFMA: usize = 200;

/// [`RECIPROCAL_REUSE_THRESHOLD_IFMA`] on the adx tier.
pub const RECIPROCAL_REUSE_THRESHOLD_ADX: usize = 320;

/// [`RECIPROCAL_REUSE_THRESHOLD_IFMA`] on the portable tier.
pub const RECIPROCAL_REUSE_THRESHOLD_PORTABLE: usize = 256;

/// Modulus size (limbs) from which `montgomery-fast` reduces over products
/// (`reduce::montgomery::redc_n`: q by a short product, the high half of q m by a cyclic one;
/// in the NTT range on cached transforms) instead of the word-by-word REDC, on the adx and ifma
/// tiers: just above their generated and IFMA kernels (128 and 129 limbs; the adx tier's
/// exponentiations use this REDC within the generated range too, from
/// [`ADX_POW_MUL_OVER_PRODUCTS_MIN_LIMBS`]). At least the schoolbook limit below which
/// `montgomery-fast` is constant time ([`MONT_SCHOOLBOOK_BELOW`]). Measurements:
/// `docs/tuning.md`.
pub const REDC_N_THRESHOLD: usize = 129;

/// [`REDC_N_THRESHOLD`] on the portable tier, whose word-by-word REDC rows (u128 products) cost
/// more per limb product while its products go Karatsuba from 24 limbs: the REDC over products
/// pays from [`MONT_SCHOOLBOOK_BELOW`], the least this may be. `pow` / GMP, rows vs products:
/// 1.10-1.12 vs 1.01-1.02 at 72 limbs, 1.09 vs 0.91 at 96. Measurements: `docs/tuning.md`.
pub const REDC_N_THRESHOLD_PORTABLE: usize = 72;

/// Operand size (limbs) from which [`crate::arith::mullo::mullo_n`] splits (one full product and
/// two short ones, Mulders' split) instead of the schoolbook triangle, on the adx and ifma
/// tiers (MULX/ADX rows). After the eight-loop triangle (Intel model 167, `MODRED_CPU=adx`),
/// split / triangle: 1.23 at 48 limbs, 1.06 at 64, 1.04 at 80, 0.95 at 96. Measurements:
/// `docs/tuning.md`.
pub const MULLO_DC_THRESHOLD: usize = 88;

/// [`MULLO_DC_THRESHOLD`] on the portable tier. Measurements: `docs/tuning.md`.
pub const MULLO_DC_THRESHOLD_PORTABLE: usize = 32;

/// Size (limbs) from which [`crate::arith::mulmod_bnm1::mulmod_bnm1`] splits an even size in
/// two halves (mod B^h - 1 and B^h + 1) instead of folding a full product. Measurements:
/// `docs/tuning.md`.
pub const MULMOD_BNM1_THRESHOLD: usize = 32;

/// Largest modulus (limbs) for which `montgomery-fast` uses the compile-time-sized, fully unrolled
/// CIOS instead of product + REDC on the MULX/ADX rows (at most 16: the sizes the const-generic
/// kernel is instantiated for). Measurements: `docs/tuning.md`.
pub const FIXED_CIOS_MAX_LIMBS: usize = 8;

/// Smallest modulus (limbs) whose fused exponentiation runs on the AVX-512 IFMA kernels
/// (`reduce::montgomery::ifma`) where the CPU has them. Measurements: `docs/tuning.md`.
pub const IFMA_MIN_LIMBS: usize = FIXED_CIOS_MAX_LIMBS + 1;

/// Smallest modulus (limbs) whose strong Lucas chain (`prime::lucas`) runs its products on the
/// AVX-512 IFMA kernels on limbs (`reduce::montgomery::ifma::SliceProducts`, two conversions
/// per product) rather than on the MULX/ADX ones, where the CPU has them. Measured (strong
/// Lucas test of a prime, `MODRED_CPU` unset against `adx`): see `docs/tuning.md`.
pub const LUCAS_IFMA_MIN_LIMBS: usize = 24;

/// Largest IFMA size in 512-bit vectors of eight 52-bit digits (20: 160 digits, moduli up to
/// 8318 bits, k <= 129 limbs). Larger moduli use product + REDC on the MULX/ADX rows.
/// Measurements: `docs/tuning.md`.
pub const IFMA_MAX_VECTORS: usize = 20;

/// Moduli the eight-lane IFMA batch kernel serves, in limbs (512 to 4096 bits); batches of other
/// sizes run one exponentiation per thread.
pub const IFMA_LANES_MIN_LIMBS: usize = 8;
/// See [`IFMA_LANES_MIN_LIMBS`].
pub const IFMA_LANES_MAX_LIMBS: usize = 64;
/// From this many limbs the lanes square with each cross product once (SOS) instead of
/// multiplying a number by itself (CIOS). Measured on Zen 5 (one square / one product, 8
/// lanes, the kernels' own timing loop, medians of 7 interleaved rounds, 2026-12-02): 1.13 at
/// 16 limbs, 1.08 at 20, 1.01-1.05 at 24, 0.96 at 26, 0.95 at 28, 0.88-0.92 at 32, 0.87-0.89
/// at 48, 0.86-0.87 at 64.
pub const IFMA_LANES_SQR_MIN_LIMBS: usize = 26;
/// From this many limbs whether the lanes beat one exponentiation after the other is measured
/// once per process on the running CPU (`exp::lanes::lanes_pay`); below, the lanes run. Batch /
/// one by one, `cargo bench -p modred --features internals --bench exp -- lanes` (`docs/performance.md`): at 1024 and
/// 2048 bits 0.37-0.80 on Zen 4, Zen 5 and two Intel Xeons; at 3072 and 4096 bits 0.65-0.91 on
/// Zen 4, Zen 5 and one Xeon, but 0.96-1.27 on an Emerald Rapids Xeon.
pub const IFMA_LANES_MEASURED_FROM_LIMBS: usize = 40;
/// The fewest items of one size a batch runs in lanes (padding the other lanes); fewer run one
/// by one.
pub const IFMA_LANES_MIN_FILL: usize = 4;

/// Largest IFMA size (vectors) whose product loop takes its next digit 0 from scalars and sums each
/// iteration's multiply-adds in fresh registers, adding them to the accumulator once (shorter
/// dependency chains, 2V more additions), rather than multiply-adding in place (fewest
/// instructions). Measurements: `docs/tuning.md`.
pub const IFMA_SPLIT_MAX_VECTORS: usize = 5;

/// Smallest modulus (limbs) whose fused exponentiation runs on the portable product-scanning engine
/// (`reduce::montgomery::portable`) on the portable kernel tier. Measurements: `docs/tuning.md`.
pub const PORTABLE_MIN_LIMBS: usize = FIXED_CIOS_MAX_LIMBS + 1;

/// Largest modulus (limbs) served by the portable engine (4096 bits); larger moduli take
/// product + REDC through the reducer, with Karatsuba from its thresholds.
pub const PORTABLE_MAX_LIMBS: usize = 64;

/// Rows per band of the portable engine's products (the last rows in bands of 4, 2, 1).
/// Measurements: `docs/tuning.md`.
pub const PORTABLE_BAND_LIMBS: usize = 8;

/// δ of the Lim–Hwang–Lee L1/L2 reducers (Lim–Hwang–Lee 1997 §3.1). Measurements: `docs/tuning.md`.
pub const LHL_DELTA: usize = 2;

/// `auto` picks `diminished-radix` for moduli 2^e - c whose normalized c' = c 2^(64k-e) has at most
/// this many limbs (the one-limb folds). Measurements: `docs/tuning.md`.
pub const DR_AUTO_MAX_C_LIMBS: usize = 1;

// ---- Exponentiation (src/exp/) ----

/// `exp::pow_vartime` with the default options computes base^exp by plain powering (no modulus
/// context) when exp fits a limb and the power has at most this many times the bits of m, then one
/// division (none when it stays below m). Measurements: `docs/tuning.md`.
pub const POW_PLAIN_MAX_RATIO: usize = 4;

/// Largest window accepted by the exponentiation options.
pub const MAX_WINDOW_BITS: usize = 16;

/// Most comb teeth accepted (`--window` of the comb): h v 2^h table entries, and
/// [`comb_params`] never picks more.
pub const MAX_COMB_TEETH: usize = 8;

/// `sliding` scans this many windows of the exponent after each product that builds its table of
/// odd powers, so that the out-of-order core overlaps the scan (a latency chain of bit counts) with
/// the products. Measurements: `docs/tuning.md`.
pub const SLIDING_WINDOWS_PER_TABLE_PRODUCT: usize = 5;

/// `sliding`'s schedule of products holds at most this many entries (2 bytes each); longer
/// exponents run it and refill it. 8192 holds a whole 4096-bit exponent's.
pub const SLIDING_SCHEDULE_MAX_ENTRIES: usize = 8192;

/// Multi-threaded `fixed-base` splits the exponent's set bits into this many chunks per thread.
/// Measurements: `docs/tuning.md`.
pub const FIXED_BASE_CHUNKS_PER_THREAD: usize = 16;

/// How long the threads of `crate::exp::fixed_base`'s parallel product poll before parking.
/// Measurements: `docs/tuning.md`.
pub const HELPER_POLL_BEFORE_PARKING: std::time::Duration = std::time::Duration::from_micros(100);

/// `ct`'s table lookup (`crate::arith::ct_select`) uses SSE2 compares for entries up to this
/// many limbs, the auto-vectorized integer loop above (measured at 4 and 32 limbs only).
pub const CT_SELECT_SSE2_MAX_LIMBS: usize = 8;

/// From this many limbs, on the ADX tier where the CPU has AVX2, `ct`'s table lookup uses AVX2
/// (`crate::arith::x86_64::ct_select_avx2`: accumulators in registers, a vector compare per
/// entry) instead of the two above (the IFMA tier keeps the integer loop, vectorized there
/// with AVX-512). Measurements: `docs/tuning.md`.
pub const CT_SELECT_AVX2_MIN_LIMBS: usize = 4;

/// Default digit size of the fixed m-ary `window` method: 4 bits, p = 16 (Bosselaers, Govaerts,
/// Vandewalle, *Comparison of three modular reduction functions*, CRYPTO '93, §5).
pub const FIXED_WINDOW_BITS: usize = 4;

/// Sliding-window size for an exponent of `bits` bits. The thresholds minimise the expected
/// multiplication count 2^(w-1) + bits / (w + 1) (table plus one multiplication per window)
/// and agree with OpenSSL's `BN_window_bits_for_exponent_size` (6 bits from 672 bits). The
/// count model favours 7 bits from ~2900 bits, but the paired bench
/// (`MODRED_EXP_RATIOS=1 cargo bench -p modred --features internals --bench exp -- ratios`, shared 2-core machine,
/// CIOS/REDC kernels) measured at 4096 bits w=6 / w=7 = 0.95 and w=8 / w=7 = 1.09, and within
/// noise (+-5%) between 5, 6 and 7 bits at 1024 and 2048 bits; so 7 bits start at 6000 bits.
pub fn sliding_window_bits(bits: usize) -> usize {
    match bits {
        b if b > 6000 => 7,
        b if b > 671 => 6,
        b if b > 239 => 5,
        b if b > 79 => 4,
        b if b > 23 => 3,
        b if b > 6 => 2,
        _ => 1,
    }
}

/// Window of the constant-time method for a (padded) exponent of `bits` bits: every digit costs
/// one multiplication and a scan of 2^w entries, the table 2^w - 2 multiplications; the
/// thresholds minimise 2^w + bits / w with the scan counted as ~1/8 multiplication per entry
/// per digit (OpenSSL's consttime path uses 5 bits at 1024..2048 and 6 above 937 with scatter).
pub fn ct_window_bits(bits: usize) -> usize {
    match bits {
        b if b > 1536 => 6,
        b if b > 384 => 5,
        b if b > 96 => 4,
        b if b > 16 => 3,
        _ => 1,
    }
}

/// Lim–Lee comb parameters (teeth h, tables v) for exponents of `bits` bits: h v 2^h table
/// entries (memory) against ceil(bits / (h v)) squarings + ceil(bits / h) multiplications.
pub fn comb_params(bits: usize) -> (usize, usize) {
    match bits {
        b if b > 1536 => (8, 2),
        b if b > 512 => (7, 2),
        b if b > 128 => (6, 2),
        b if b > 32 => (4, 2),
        _ => (2, 1),
    }
}

/// One-off exponentiation (`exp::pow_vartime`, [`crate::evm`]): the most products of a binary
/// exponentiation for which products with Knuth's division beat a Montgomery set-up (and, for even
/// moduli, the CRT split). Measurements: `docs/tuning.md`.
pub const CLASSICAL_POW_MAX_PRODUCTS: usize = 3;

/// Smallest and largest modulus (limbs) with a generated MULX/ADX Montgomery kernel
/// (`build/adx_mont.rs`, one product and one square per size; read by `build.rs`).
/// Measurements: `docs/tuning.md`.
pub const ADX_MONT_MIN_LIMBS: usize = 9;
/// See [`ADX_MONT_MIN_LIMBS`].
pub const ADX_MONT_MAX_LIMBS: usize = 128;

/// From this many limbs to [`ADX_MONT_MAX_LIMBS`], the adx tier's variable-time exponentiations
/// multiply (their squares from [`ADX_POW_SQR_OVER_PRODUCTS_MIN_LIMBS`]) by a Karatsuba product
/// and the REDC over products (`reduce::montgomery::redc_n`) instead of the generated integrated
/// product, whose 2k^2 MULX cost 1.5x its square at 128 limbs. Measurements: `docs/tuning.md`.
pub const ADX_POW_MUL_OVER_PRODUCTS_MIN_LIMBS: usize = 88;

/// From this many limbs (at least [`ADX_POW_MUL_OVER_PRODUCTS_MIN_LIMBS`]) to
/// [`ADX_MONT_MAX_LIMBS`], those exponentiations square over products too (`arith::sqr` and
/// the REDC over products) instead of with the generated square. Measurements: `docs/tuning.md`.
pub const ADX_POW_SQR_OVER_PRODUCTS_MIN_LIMBS: usize = 96;
const _: () = assert!(
    ADX_POW_MUL_OVER_PRODUCTS_MIN_LIMBS <= ADX_POW_SQR_OVER_PRODUCTS_MIN_LIMBS
        && ADX_POW_SQR_OVER_PRODUCTS_MIN_LIMBS <= ADX_MONT_MAX_LIMBS
);

/// Generated MULX/ADX Montgomery kernels up to this many limbs have straight-line rows; larger
/// ones run their rows (and final subtraction) as loops over blocks of 8 limbs, which keeps the
/// code of the 65-128-limb kernels small. Measurements: `docs/tuning.md`.
pub const ADX_MONT_UNROLLED_MAX_LIMBS: usize = 64;

/// Generated MULX/ADX Montgomery squares of at least this many limbs take one Karatsuba level for
/// the square before the REDC rows (read by `build.rs`). Measurements: `docs/tuning.md`.
pub const ADX_SQR_KARATSUBA_MIN_LIMBS: usize = 33;

/// The halves (limbs) of those Karatsuba squares from which the halves are squared by a second
/// Karatsuba level (read by `build.rs`). Measurements: `docs/tuning.md`.
pub const ADX_SQR_KARATSUBA_NESTED_MIN_LIMBS: usize = 34;

/// Generated MULX/ADX Montgomery kernels of at least this many limbs, when a multiple of 8, run
/// their products and reductions in 8 x 8 tiles with the partial sums in registers instead of
/// by rows over an accumulator in memory (read by `build.rs`). Measurements: `docs/tuning.md`.
pub const ADX_MONT_TILED_MIN_LIMBS: usize = 96;

/// The table reducers (`table-residue`, `table-constant`, `table-add-*`) and the "table" window
/// method of Lim–Hwang–Lee 1997 serve moduli of at most this many bits. Measurements:
/// `docs/tuning.md`.
pub const TABLE_MAX_BITS: usize = 1 << 16;

/// `montgomery-bitserial` (one bit per step, a reference for checking and teaching) serves moduli
/// of at most this many bits. Measurements: `docs/tuning.md`.
pub const BITSERIAL_MAX_BITS: usize = 1 << 14;

// ---- Primality (src/prime.rs) ----

/// The odd primes below this bound divide a candidate before the Baillie–PSW test
/// ([`crate::prime::is_probable_prime_vartime`]): one multi-limb division per word-sized
/// product of primes (about 30 products below 1024) costs under 1% of the base-2 test on a
/// prime from 1024 bits on, and rejects about 84% of random odd numbers.
pub const PRIME_TRIAL_LIMIT: usize = 1024;

/// The small-prime table of [`crate::prime`] holds the odd primes below this (82024 primes,
/// 330 KB): the largest sieve bound [`next_prime_sieve_limit`] asks for.
pub const SIEVE_PRIMES_MAX: usize = 1 << 20;

/// The primes below this bound sieve the search of [`crate::prime::next_prime_vartime`] for a
/// number of `bits` bits: the sieve's set-up (one word division per limb per product of
/// primes) grows with bits times the bound, a base-2 test saved with bits^3; 32 bits per bit,
/// at least 2^10, at most [`SIEVE_PRIMES_MAX`].
pub fn next_prime_sieve_limit(bits: usize) -> usize {
    bits.saturating_mul(32).clamp(1 << 10, SIEVE_PRIMES_MAX)
}

/// RSA key generation ([`crate::rsa::PrivateKey::generate`]) divides each random candidate
/// by the odd primes below this before Miller–Rabin: for 1024-bit candidates one group
/// division (16 word divisions) costs under a tenth of a percent of one Miller–Rabin round,
/// and 4096 leaves 13.5% of random odd numbers against 16% at 1024.
pub const KEYGEN_TRIAL_LIMIT: usize = 1 << 12;
