//! Every threshold and tuning constant of modred, in one place, with how it was chosen.
//! Re-measure with `cargo bench -p modred --bench tuning` after changing a kernel.

/// Operand size (limbs) from which multiplication uses Karatsuba instead of schoolbook
/// (Lim, Hwang, Lee, *Fast Modular Reduction With Precomputation*, JW-ISC '97, §1 and Table 1:
/// the best depth grows with the size). Measured on AMD EPYC (Zen 4: family 25, model 17) with
/// the MULX/ADX rows: with the threshold at 32, Karatsuba/schoolbook time was 1.08 at 32 limbs,
/// 1.00 at 64, 0.95 at 80, 0.87 at 128, 0.72 at 256. Set between the tie at 64 and the gain
/// at 80, so 4096-bit moduli (64 limbs) keep the schoolbook product, which is constant time:
/// `montgomery-fast` then serves `pow_ct` there (with its fused IFMA kernel where present).
pub const KARATSUBA_THRESHOLD: usize = 72;

/// Operand size (limbs) from which squaring uses Karatsuba instead of the symmetric schoolbook.
/// Same measurement: Karatsuba squaring (threshold 48) was slower than the symmetric schoolbook
/// up to 192 limbs (1.21 at 48, 1.08 at 128, 1.08 at 192) and faster at 256 (0.91).
pub const KARATSUBA_SQR_THRESHOLD: usize = 200;

// ---- Large operands (src/arith/toom.rs, src/arith/ntt.rs) ----
//
// Measured on AMD EPYC (Zen 4, the shared 2-core machine) with the throwaway timing example the
// issue-17 work used: each size runs every method in turn (batches of >= 10 ms, 7 rounds,
// per-thread CPU time from `clock_gettime(CLOCK_THREAD_CPUTIME_ID)` so other jobs on the machine
// do not count), median per method. "Portable" is `MODRED_NO_ASM=1` (now also
// `MODRED_CPU=portable`: no MULX/ADX rows, no IFMA); "ADX rows" is the MULX/ADX schoolbook with
// the IFMA NTT switched off (now `MODRED_CPU=adx`). The NTT thresholds follow the tier in use
// (`modred::cpu::tier`), so `MODRED_CPU` caps them with the kernels.

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
/// Toom-3 / Karatsuba with the ADX rows: 1.09 at 96 limbs, 1.11 at 160, 1.09 at 192, 0.94 at 224,
/// 0.95 at 256, 0.90 at 512, 0.88 at 1024; portable: 0.91 at 96, 0.88 at 128, 0.85 at 224-256.
/// Set for the ADX rows (with IFMA the NTT takes over at about the same size).
pub const TOOM3_THRESHOLD: usize = 200;

/// Operand size (limbs) from which squaring uses Toom-3 instead of Karatsuba. Toom-3 /
/// Karatsuba squaring with the ADX rows: 1.21 at 96, 0.99 at 160, 0.93 at 192, 1.05 at 224, 0.93
/// at 384, 0.87 at 768; portable: 0.73-0.88 from 128 limbs.
pub const TOOM3_SQR_THRESHOLD: usize = 200;

/// Operand size (limbs) from which multiplication uses the three-prime NTT on CPUs with AVX-512
/// IFMA. NTT / Karatsuba: 1.57 at 96, 1.07 at 128, 1.03 at 192, 0.81 at 224, 0.68 at 256, 0.87 at
/// 320 (the transform length doubles past 256), 0.45 at 512, 0.28 at 2048.
pub const NTT_THRESHOLD_IFMA: usize = 200;

/// Squaring's NTT threshold with AVX-512 IFMA. NTT / Karatsuba: 1.27 at 160, 0.97 at 192, 1.02 at
/// 224, 0.76 at 256, 0.85 at 320, 0.50 at 512.
pub const NTT_SQR_THRESHOLD_IFMA: usize = 224;

/// The NTT threshold (multiplication and squaring) of the portable transform next to the MULX/ADX
/// rows: NTT / best of Karatsuba and Toom-3, multiplication: 1.59 at 512, 1.13 at 1024, 1.26 at
/// 1536, 0.89 at 2048; squaring: 1.37 at 512, 0.97 at 1024, 1.09 at 1536, 0.70 at 2048.
pub const NTT_THRESHOLD_ADX: usize = 2000;

/// On the adx tier, the size (limbs) from which `redc_n`'s products with m' and m, whose
/// transforms are computed once per modulus, use the portable transform instead of Toom-3 (a
/// product then transforms only the other operand). `pow` with a 256-bit exponent through the
/// CLI (`modred batch`, `MODRED_CPU=adx`, user time of 12/6/3/2 calls, three alternated runs),
/// 2000 (the one-off threshold) against 400: 16384 bits 0.20-0.22 s vs 0.20-0.23, 32768 bits
/// 0.31 vs 0.27-0.30, 65536 bits 0.45-0.49 vs 0.32-0.37, 131072 bits equal (both NTT); 200
/// against 400: 16384 bits 0.22-0.23 vs 0.20-0.23, 32768 bits 0.26-0.28 vs 0.27-0.28.
pub const NTT_TRANSFORMED_THRESHOLD_ADX: usize = 400;

/// The NTT threshold of the portable transform next to the portable rows: NTT / best of
/// Karatsuba and Toom-3, multiplication: 0.92 at 256, 0.81 at 320, 1.07 at 384, 0.79 at 512, 0.57
/// at 1024; squaring: 1.13 at 256, 0.82 at 320, 1.07 at 384, 0.66 at 512.
pub const NTT_THRESHOLD_PORTABLE: usize = 400;

/// Divisor size (limbs) below which the reciprocal floor(B^2n / d) of
/// `crate::arith::div_newton` is one schoolbook division instead of Newton's iteration.
/// Measured (same protocol as the products above, IFMA machine), Newton / schoolbook with the
/// base case at 64: 1.07 at 32 limbs, 1.24 at 64, 1.11 at 96, 1.12 at 128, 0.99 at 192.
pub const RECIPROCAL_BASECASE: usize = 192;

/// Divisor size (limbs) from which a one-off division (`arith::div_rem`, quotient at least half
/// as long) computes the Newton reciprocal and divides by Barrett blocks. 2n-by-n division,
/// Newton (reciprocal included) / schoolbook: 2.34 at 100 limbs, 1.60 at 200, 1.38 at 300, 0.94
/// at 400, 0.92 at 600, 0.48 at 1000.
pub const DIV_NEWTON_THRESHOLD: usize = 400;

/// Divisor size (limbs) from which a context that divides by the same number many times
/// (`classical`, `barrett`, decimal printing) keeps its Newton reciprocal. 2n-by-n division with
/// the reciprocal reused / schoolbook: 1.20 at 100 limbs, 1.01 at 150, 0.69 at 200, 0.48 at 250,
/// 0.36 at 400.
pub const RECIPROCAL_REUSE_THRESHOLD: usize = 200;

/// Modulus size (limbs) from which `montgomery-fast` reduces with two full products
/// (`reduce::montgomery::redc_n`: cached NTT transforms, the high half by a half-length cyclic
/// product) instead of the word-by-word REDC. Measured as `Modulus::pow_vartime` with a 256-bit
/// exponent against GMP `mpz_powm` (interleaved, CPU time): with IFMA, threshold 96 against 200:
/// 8192 bits (128 limbs) 1.75 vs 1.29, 10240 1.68, 12288 1.83 (product-based REDC loses while the
/// products are Karatsuba); from 200 limbs, with NTT products, 12800 bits 0.98, 16384 0.60
/// (word-by-word: 1.42). Portable (`MODRED_NO_ASM=1`), threshold 200 against none: 16384 bits
/// 3.01 vs 3.37, 32768 1.93 vs 4.48, 65536 1.63 vs 5.99. Not tuned for the adx tier; before
/// [`NTT_TRANSFORMED_THRESHOLD_ADX`] (the two products Toom-3 up to [`NTT_THRESHOLD_ADX`]), a
/// coarse CLI check (6 such `pow`s
/// at 16384 bits, `MODRED_CPU=adx`, user time) gave word-by-word REDC (`montgomery-redc`)
/// 0.08-0.09 s against 0.10 s here, at 65536 bits 0.40 against 0.30 s.
pub const REDC_N_THRESHOLD: usize = 200;

/// Largest modulus (limbs) for which `montgomery-fast` uses the compile-time-sized, fully
/// unrolled CIOS instead of product + REDC on the MULX/ADX rows (at most 16: the sizes the
/// const-generic kernel is instantiated for). Measured (ns per product, unrolled CIOS vs
/// SOS on ADX rows, interleaved): 4 limbs 33 vs 50; 8 limbs mul 119 vs 117, sqr 118 vs 130;
/// 16 limbs 459 vs 355.
pub const FIXED_CIOS_MAX_LIMBS: usize = 8;

/// Smallest modulus (limbs) whose fused exponentiation runs on the AVX-512 IFMA kernels
/// (`reduce::montgomery::ifma`) where the CPU has them; below it the unrolled CIOS serves.
/// Measured (`Modulus::pow_vartime`, full-length exponent, best of 5, µs; throwaway example, Zen 4,
/// three alternated runs): IFMA from 5 limbs vs this setting: k = 5: 17.8-18.8 vs 11.9-14.2,
/// 6: 23.0-23.3 vs 21.9-24.5, 7: 40.6-41.5 vs 32.3-34.6, 8: 50.2-53.1 vs 46.0-46.6. Before the
/// split loop of [`IFMA_SPLIT_MAX_VECTORS`], IFMA vs product + REDC on the MULX/ADX rows:
/// k = 9: 70.6 vs 94-110, 10: 82.7 vs 120, 12: 108.9 vs 180-207 (IFMA now 63-64 and 96-97).
pub const IFMA_MIN_LIMBS: usize = FIXED_CIOS_MAX_LIMBS + 1;

/// Largest IFMA size in 512-bit vectors of eight 52-bit digits (10: moduli up to 4158 bits,
/// k <= 64 limbs). Larger moduli use product + REDC on the MULX/ADX rows.
pub const IFMA_MAX_VECTORS: usize = 10;

/// Largest IFMA size (vectors) whose product loop takes its next digit 0 from scalars and
/// sums each iteration's multiply-adds in fresh registers, adding them to the accumulator once
/// (shorter dependency chains, 2V more additions), rather than multiply-adding in place
/// (fewest instructions). Measured with `modred report --only headline --sizes S --rounds 11`,
/// the two builds alternated (µs per exponentiation, split vs in place): 1024 bits 167 vs
/// 197-204, 2048 bits 770-773 vs 825-828, 4096 bits 5072-5167 vs 4857-4879 (at 10 vectors the
/// loop is bound by multiply-add throughput).
pub const IFMA_SPLIT_MAX_VECTORS: usize = 5;

/// Smallest modulus (limbs) whose fused exponentiation runs on the portable product-scanning
/// engine (`reduce::montgomery::portable`) on the portable kernel tier;
/// below it the unrolled const-generic CIOS serves.
pub const PORTABLE_MIN_LIMBS: usize = FIXED_CIOS_MAX_LIMBS + 1;

/// Largest modulus (limbs) served by the portable engine (4096 bits); larger moduli take
/// product + REDC through the reducer, with Karatsuba from its thresholds.
pub const PORTABLE_MAX_LIMBS: usize = 64;

/// Rows per band of the portable engine's products (the last rows in bands of 4, 2, 1).
/// Measured (ns per raw Montgomery square / product, portable code on
/// Zen 4, throwaway harness, interleaved, best of 60; bands of 4 / 6 / 8): square 16 limbs
/// 358 / 343 / 352, 32 limbs 1298 / 1225 / 1174, 64 limbs 4975 / 4572 / 4243; product 16
/// limbs 407 / 388 / 392, 32 limbs 1581 / 1482 / 1408, 64 limbs 6264 / 5749 / 5358. The
/// column-wise product scanning of whole operands measured 503, 1484, 4842 (square) and 443,
/// 1649, 6362 (product, two accumulators); the CIOS row loop 553, 2133, 8400.
pub const PORTABLE_BAND_LIMBS: usize = 8;

/// δ of the Lim–Hwang–Lee L1/L2 reducers (Lim–Hwang–Lee 1997 §3.1): n' = b^(k+δ) mod m. The paper
/// uses δ = 2 ("in most cases it suffices to choose δ = 2 ~ 4"); with 64-bit limbs a final
/// carry then has probability about 2^-64 per digit.
pub const LHL_DELTA: usize = 2;

/// `auto` picks `diminished-radix` for moduli 2^e - c whose normalized c' = c 2^(64k-e) has at
/// most this many limbs (the one-limb folds). Measured with
/// `cargo bench -p modred --bench lhl -- --warm-up-time 1 --measurement-time 3 dr/` on AMD EPYC
/// (Zen 4, shared machine), 2k-limb reduction diminished-radix / montgomery-cios time: 0.35 on
/// 2^255-19 and 0.41 on secp256k1 (the const-size fold, `fold_fixed`), 0.46 on 2^521-1 (the
/// generic one-limb fold); multi-limb c' (block folds through general slice kernels, or digit
/// folding for the RFC 3526 MODP primes) was not measured faster than Montgomery, so auto
/// keeps Montgomery there.
///
/// Against `montgomery-fast` (the default) the picture changes at small sizes: before the
/// const-size fold, squaring ratio diminished-radix / montgomery-fast was 1.80 on 2^255-19,
/// 1.73 on secp256k1 (the unrolled CIOS wins) and 0.73 on 2^521-1, so auto uses DR only above
/// `FIXED_CIOS_MAX_LIMBS`.
pub const DR_AUTO_MAX_C_LIMBS: usize = 1;

// ---- Exponentiation (src/exp/) ----

/// `exp::pow_vartime` with the default options computes base^exp by plain powering (no modulus
/// context) when exp fits a limb and the power has at most this many times the bits of m,
/// then one division (none when it stays below m). Set so that the power's division (at most
/// a 4k-by-k division) stays below a Montgomery set-up's R^2 mod m (a 2k-by-k division) plus
/// the products the scan would do anyway.
pub const POW_PLAIN_MAX_RATIO: usize = 4;

/// Largest window accepted by the exponentiation options.
pub const MAX_WINDOW_BITS: usize = 16;

/// Most comb teeth accepted (`--window` of the comb): h v 2^h table entries, and
/// [`comb_params`] never picks more.
pub const MAX_COMB_TEETH: usize = 8;

/// `sliding` scans this many windows of the exponent after each product that builds its table
/// of odd powers, so that the out-of-order core overlaps the scan (a latency chain of bit
/// counts) with the products; windows left after the table are scanned before the main loop.
/// At 256 bits, auto / GMP `mpz_powm` measured 0.48 with 5 against 0.51 with the scan spread
/// over the first half of the table and 0.52 with the bits scanned between the main loop's
/// products (throwaway `ab256` example, interleaved, three runs each).
pub const SLIDING_WINDOWS_PER_TABLE_PRODUCT: usize = 5;

/// `sliding`'s schedule of products holds at most this many entries (2 bytes each); longer
/// exponents run it and refill it. 8192 holds a whole 4096-bit exponent's.
pub const SLIDING_SCHEDULE_MAX_ENTRIES: usize = 8192;

/// Multi-threaded `fixed-base`: the exponent's set bits are cut into this many chunks per thread,
/// which the threads claim from a shared counter (one atomic increment each), so a helper that
/// wakes late or runs on a busy CPU takes fewer of them.
pub const FIXED_BASE_CHUNKS_PER_THREAD: usize = 16;

/// How long the threads of `crate::exp::fixed_base`'s parallel product poll before parking:
/// the caller for the helpers' results, a helper for its next job after one. They poll with
/// `yield_now`, so a thread that shares the CPU runs in between. A 2048-bit exponentiation on 2
/// threads measured 1t / 2t 1.70-1.79 when helpers parked at once (each call woke one) and
/// 1.71-1.99 with this poll; with 17 set bits, 2 threads took 18 against 6.7-7.4 µs. Polling
/// by spinning instead measured 0.5-0.8 in stretches when the host ran this 2-vCPU guest on
/// one CPU (yielding: 1.0 there). A helper polls at most this long after each job.
pub const HELPER_POLL_BEFORE_PARKING: std::time::Duration = std::time::Duration::from_micros(100);

/// `ct`'s table lookup (`crate::arith::ct_select`) uses SSE2 compares for entries up to this
/// many limbs, the auto-vectorized integer loop above (measured at 4 and 32 limbs only).
pub const CT_SELECT_SSE2_MAX_LIMBS: usize = 8;

/// Default digit size of the fixed m-ary `window` method: 4 bits, p = 16 (Bosselaers, Govaerts,
/// Vandewalle, *Comparison of three modular reduction functions*, CRYPTO '93, §5).
pub const FIXED_WINDOW_BITS: usize = 4;

/// Sliding-window size for an exponent of `bits` bits. The thresholds minimise the expected
/// multiplication count 2^(w-1) + bits / (w + 1) (table plus one multiplication per window)
/// and agree with OpenSSL's `BN_window_bits_for_exponent_size` (6 bits from 672 bits). The
/// count model favours 7 bits from ~2900 bits, but the paired bench
/// (`MODRED_EXP_RATIOS=1 cargo bench -p modred --bench exp -- ratios`, shared 2-core machine,
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

/// MODEXP ([`crate::evm`]): the most products (squarings and multiplications of a left-to-right
/// binary exponentiation) for which products with Knuth's division beat setting up Montgomery
/// arithmetic (and, for even moduli, the CRT split). Measured on Zen 4 (thread CPU time,
/// classical / default per call, exponent 2^p; `MODRED_EVM_SWEEP=1 cargo bench -p modred
/// --bench evm`), odd moduli, 16 to 1024 bytes: p = 3: 0.93 0.97 0.95 0.80 1.01 1.06 0.71;
/// p = 4: 1.02 1.02 1.06 0.95 1.23 1.38 0.85. (Even moduli: `evm` splits off a power of two
/// up to 2^64 in single words, so they cross over about where odd ones do.)
pub const EVM_CLASSICAL_MAX_PRODUCTS: usize = 3;

/// Smallest and largest modulus (limbs) with a generated MULX/ADX Montgomery kernel
/// (`build/adx_mont.rs`, one fully unrolled product and square per size; read by `build.rs`).
/// From 9 limbs: up to 8 the const-size CIOS of [`FIXED_CIOS_MAX_LIMBS`] and the 4-limb asm
/// serve. Up to 64 (4096 bits): the largest RSA/DH size; the generated code is about 30 KB
/// per size at 64 limbs, and above it product + REDC on the ADX rows (or `redc_n`) serves.
/// Measured against the product + REDC path they replace (`MODRED_CPU=adx`, full-length
/// exponent, interleaved against OpenSSL `BN_mod_exp_mont` in one run, Zen 4): 1024 bits
/// 1.43 -> 0.85 of OpenSSL, 2048 bits 1.28 -> 0.90, 4096 bits 1.19 -> 0.90.
pub const ADX_MONT_MIN_LIMBS: usize = 9;
/// See [`ADX_MONT_MIN_LIMBS`].
pub const ADX_MONT_MAX_LIMBS: usize = 64;

/// Generated MULX/ADX Montgomery squares of at least this many limbs take one Karatsuba level
/// for the square before the REDC rows (read by `build.rs`). Measured on AMD EPYC (Zen 4),
/// Karatsuba / direct square time, paired medians of 3000 interleaved trials of each kernel:
/// k = 16: 1.087, 20: 1.065, 24: 1.028, 28: 0.959, 32: 1.026, 36: 0.979, 40: 0.888,
/// 48: 0.857, 64: 0.875 (the direct triangle's code, ~30 KB at 64 limbs, no longer fits the
/// instruction cache).
pub const ADX_SQR_KARATSUBA_MIN_LIMBS: usize = 33;

/// The table reducers (`table-residue`, `table-constant`, `table-add-*`) and the "table"
/// window method of Lim–Hwang–Lee 1997 serve moduli of at most this many bits. The paper meant
/// them for RSA-size moduli; at 2^16 bits their tables already take 8 MiB (k^2 limbs) to 113 MiB
/// (table-add-6x2048: 13,831 rows of k limbs), their reductions cost k^2 products against
/// Karatsuba's k^1.58, and past it the tables outgrow memory (31 GB for table-residue at
/// 4,000,000 bits) or take minutes to build (table-add-8x256: over 20 s at 4,000,000 bits
/// before this limit). Measured at the limit (a 65,536-bit modulus, `modred batch --reducer
/// NAME` with one `reduce` line, release build): 0.03 s (table-add-16x16) to 0.22 s
/// (table-add-6x2048) for the whole process.
pub const TABLE_MAX_BITS: usize = 1 << 16;

/// `montgomery-bitserial` (one bit per step, a reference for checking and teaching) serves
/// moduli of at most this many bits: its products cost n^2 / 64 word steps for n bits, so
/// `pow 3 5` took 13.7 s at 262,144 bits and `reduce` on a 4,000,000-bit modulus hours.
pub const BITSERIAL_MAX_BITS: usize = 1 << 14;
