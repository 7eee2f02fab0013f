//! Natural-number kernels on little-endian limb slices (`&[Limb]`, least significant limb first).
//!
//! These are the building blocks every reducer and exponentiation method uses. Unless a kernel
//! says otherwise it runs in time that depends only on the slice lengths (no data-dependent
//! branches or indices); the few that branch on data end in `_vartime`.
//!
//! Slices passed as outputs must not alias inputs unless the kernel says in-place is allowed.

pub mod carry_chain;
mod div;
pub mod div_dc;
pub mod div_newton;
pub mod gcd;
pub mod gcd_lehmer;
pub mod hgcd;
mod mul;
pub mod mullo;
pub mod mulmod_bnm1;
pub mod ntt;
#[cfg(all(target_arch = "x86_64", not(feature = "count")))]
mod ntt_fma;
#[cfg(all(target_arch = "x86_64", not(feature = "count")))]
mod ntt_ifma;
mod sqr;
pub mod toom;
pub mod toom4;
pub mod toom_k;
#[cfg(target_arch = "x86_64")]
pub mod x86_64;

pub use div::{div_rem, div_rem_1, divrem_normalized, rem_vartime};
pub(crate) use mul::abs_diff as abs_diff_for_sqr;
pub use mul::{karatsuba_scratch_len, mul, mul_basecase, mul_karatsuba, mul_n, mul_unbalanced};
pub(crate) use mul::{
    karatsuba_threshold, mul_basecase_on, mul_karatsuba_on, mul_n_in, toom3_threshold, with_scratch,
};
pub use sqr::{sqr, sqr_basecase, sqr_karatsuba};
pub(crate) use sqr::{sqr_basecase_on, sqr_in, sqr_karatsuba_on};

#[cfg(target_arch = "x86_64")]
use crate::cpu::{self, Tier};
use crate::limb::{adc, mac, sbb, Choice, Limb, LIMB_BITS};
use core::cmp::Ordering;

/// Length of `a` without its most significant zero limbs.
/// Leaks: variable time: scans down from the top to the first non-zero limb.
#[inline]
pub fn normalized_len(a: &[Limb]) -> usize {
    a.iter().rposition(|&x| x != 0).map_or(0, |i| i + 1)
}

/// `a` without its most significant zero limbs.
/// Leaks: variable time: the number of leading zero limbs (as [`normalized_len`]).
#[inline]
pub fn trim(a: &[Limb]) -> &[Limb] {
    &a[..normalized_len(a)]
}

/// Whether every limb of `a` is zero.
/// Leaks: variable time: stops at the first non-zero limb.
#[inline]
pub fn is_zero(a: &[Limb]) -> bool {
    a.iter().all(|&x| x == 0)
}

/// Number of significant bits of `a` (0 for zero).
/// Leaks: variable time: the number of leading zero limbs (as [`normalized_len`]).
pub fn bit_len(a: &[Limb]) -> usize {
    let n = normalized_len(a);
    if n == 0 {
        0
    } else {
        (n - 1) * LIMB_BITS as usize + (LIMB_BITS - a[n - 1].leading_zeros()) as usize
    }
}

/// Bit `i` of `a` (0 beyond its length).
/// Leaks: the index `i` (the limb read, and a branch on `i` against the length); nothing of `a`.
#[inline]
pub fn bit(a: &[Limb], i: usize) -> bool {
    let w = i / LIMB_BITS as usize;
    w < a.len() && (a[w] >> (i % LIMB_BITS as usize)) & 1 == 1
}

/// Compare two naturals of possibly different lengths (leading zero limbs allowed).
/// Leaks: variable time: the leading zero limbs of both, and stops at the first differing limb.
pub fn cmp(a: &[Limb], b: &[Limb]) -> Ordering {
    let (a, b) = (trim(a), trim(b));
    a.len()
        .cmp(&b.len())
        .then_with(|| a.iter().rev().cmp(b.iter().rev()))
}

/// `a < b` for equal-length naturals by the borrow of `a - b` over every limb: constant time
/// (no early exit; only the answer depends on the values), for checks on secret operands.
/// Leaks: nothing but the lengths (constant time).
#[inline]
pub fn lt_n_ct(a: &[Limb], b: &[Limb]) -> Choice {
    debug_assert_eq!(a.len(), b.len());
    let mut borrow = 0;
    for (&x, &y) in a.iter().zip(b) {
        borrow = sbb(x, y, borrow).1;
    }
    Choice::from_bit(borrow)
}

/// Compare two equal-length naturals.
/// Leaks: variable time: stops at the first differing limb from the top.
#[inline]
pub fn cmp_n(a: &[Limb], b: &[Limb]) -> Ordering {
    debug_assert_eq!(a.len(), b.len());
    for i in (0..a.len()).rev() {
        if a[i] != b[i] {
            return a[i].cmp(&b[i]);
        }
    }
    Ordering::Equal
}

/// The least of `values` (`usize::MAX` for none), for thresholds computed at compile time.
pub(crate) const fn least(values: &[usize]) -> usize {
    let (mut least, mut i) = (usize::MAX, 0);
    while i < values.len() {
        if values[i] < least {
            least = values[i];
        }
        i += 1;
    }
    least
}

/// Whether an addition or subtraction of `len` limbs runs its blocks of four on
/// [`x86_64::add_blocks`] / [`x86_64::sub_blocks`] (on the ADX tier and above, from
/// [`crate::tuning::ASM_CARRY_CHAIN_MIN_LIMBS`]); the other lengths and the portable tier run
/// the loops of [`carry_chain`] (Rust, ADC / SBB intrinsics on x86-64).
#[cfg(target_arch = "x86_64")]
#[inline]
fn asm_carry_chain(len: usize) -> bool {
    len >= crate::tuning::ASM_CARRY_CHAIN_MIN_LIMBS && cpu::tier() >= Tier::Adx
}

/// `r = a ± b` on raw pointers (`r` may equal `a`) for `len` limbs with
/// [`asm_carry_chain`]`(len)`: the `len % 4` head by `op` ([`adc`] or [`sbb`]), the blocks of
/// four by `blocks`. Kept out of line so the short portable loops stay as they were.
/// Leaks: nothing but the length (constant time).
///
/// # Safety
/// `r`, `a`, `b` point to `len` limbs each, `r` writable and overlapping neither input unless
/// equal to `a`.
#[cfg(target_arch = "x86_64")]
#[inline(never)]
unsafe fn carry_chain_blocks(
    r: *mut Limb,
    a: *const Limb,
    b: *const Limb,
    len: usize,
    op: fn(Limb, Limb, Limb) -> (Limb, Limb),
    blocks: unsafe fn(*mut Limb, *const Limb, *const Limb, usize, Limb) -> Limb,
) -> Limb {
    let head = len % 4;
    let mut c = 0;
    for i in 0..head {
        // SAFETY: i < len limbs behind each pointer (caller); `r` equal to `a` is read first.
        unsafe { (*r.add(i), c) = op(*a.add(i), *b.add(i), c) };
    }
    // SAFETY: len - head limbs, a non-zero multiple of 4 (len >= 4), remain behind each.
    unsafe { blocks(r.add(head), a.add(head), b.add(head), (len - head) / 4, c) }
}

/// `r = a + b` for equal lengths; returns the carry (0 or 1). `r` may alias neither input
/// (use [`add_n_in_place`] for `a += b`). Blocks of four limbs by [`x86_64::add_blocks`] on
/// the ADX tier and above from [`crate::tuning::ASM_CARRY_CHAIN_MIN_LIMBS`], else the loop of
/// [`carry_chain::add`].
/// Leaks: nothing but the lengths (constant time).
#[inline]
pub fn add_n(r: &mut [Limb], a: &[Limb], b: &[Limb]) -> Limb {
    assert!(r.len() == a.len() && a.len() == b.len());
    #[cfg(target_arch = "x86_64")]
    if asm_carry_chain(r.len()) {
        let (rp, ap, bp) = (r.as_mut_ptr(), a.as_ptr(), b.as_ptr());
        // SAFETY: three distinct slices of one length.
        return unsafe { carry_chain_blocks(rp, ap, bp, r.len(), adc, x86_64::add_blocks) };
    }
    carry_chain::add(r, a, b)
}

/// `a += b` for equal lengths; returns the carry (blocks as [`add_n`]).
/// Leaks: nothing but the lengths (constant time).
#[inline]
pub fn add_n_in_place(a: &mut [Limb], b: &[Limb]) -> Limb {
    assert_eq!(a.len(), b.len());
    #[cfg(target_arch = "x86_64")]
    if asm_carry_chain(a.len()) {
        let p = a.as_mut_ptr();
        // SAFETY: `a` is both the output and the first input (allowed), `b` is distinct.
        return unsafe { carry_chain_blocks(p, p, b.as_ptr(), b.len(), adc, x86_64::add_blocks) };
    }
    carry_chain::add_in_place(a, b)
}

/// `a -= b` for equal lengths; returns the borrow (blocks as [`add_n`]).
/// Leaks: nothing but the lengths (constant time).
#[inline]
pub fn sub_n_in_place(a: &mut [Limb], b: &[Limb]) -> Limb {
    assert_eq!(a.len(), b.len());
    #[cfg(target_arch = "x86_64")]
    if asm_carry_chain(a.len()) {
        let p = a.as_mut_ptr();
        // SAFETY: as in `add_n_in_place`.
        return unsafe { carry_chain_blocks(p, p, b.as_ptr(), b.len(), sbb, x86_64::sub_blocks) };
    }
    carry_chain::sub_in_place(a, b)
}

/// `r = a - b` for equal lengths; returns the borrow (blocks as [`add_n`]).
/// Leaks: nothing but the lengths (constant time).
#[inline]
pub fn sub_n(r: &mut [Limb], a: &[Limb], b: &[Limb]) -> Limb {
    assert!(r.len() == a.len() && a.len() == b.len());
    #[cfg(target_arch = "x86_64")]
    if asm_carry_chain(r.len()) {
        let (rp, ap, bp) = (r.as_mut_ptr(), a.as_ptr(), b.as_ptr());
        // SAFETY: three distinct slices of one length.
        return unsafe { carry_chain_blocks(rp, ap, bp, r.len(), sbb, x86_64::sub_blocks) };
    }
    carry_chain::sub(r, a, b)
}

/// `a += b` where `b.len() <= a.len()`; returns the carry out of `a` (past `b`, the ADD
/// function of Koç, Acar, Kaliski, *Analyzing and Comparing Montgomery Multiplication
/// Algorithms*, IEEE Micro 1996, §4).
/// Leaks: variable time: the carry propagation past `b` stops when the carry dies.
#[inline]
pub fn add_in_place(a: &mut [Limb], b: &[Limb]) -> Limb {
    debug_assert!(b.len() <= a.len());
    let c = add_n_in_place(&mut a[..b.len()], b);
    add_1_in_place(&mut a[b.len()..], c)
}

/// `r = r + t mod (B^n - 1)`, n = `r.len()`, for any length of t: t's n-limb pieces added at
/// the bottom, the carries wrapped around to limb 0 (B^n = 1). Output in [0, B^n - 1] (all
/// ones is the other representation of 0).
/// Leaks: variable time (the carries stop early).
pub(crate) fn add_mod_bnm1(r: &mut [Limb], t: &[Limb]) {
    let mut carry: Limb = 0;
    for piece in t.chunks(r.len()) {
        carry += add_in_place(r, piece);
    }
    wrap_carry_bnm1(r, carry);
}

/// `r += carry` at limb 0 mod (B^n - 1) (n = `r.len()`): a carry out of the top of a sum
/// wrapped round (B^n = 1). Output: a residue in [0, B^n - 1].
/// Leaks: variable time.
pub(crate) fn wrap_carry_bnm1(r: &mut [Limb], mut carry: Limb) {
    // Each wrapped carry adds at most 1 past the top, then none (the sum is then < B^n - 1).
    while carry != 0 {
        carry = add_1_in_place(r, carry);
    }
}

/// `a -= b` where `b.len() <= a.len()`; returns the borrow out of `a`.
/// Leaks: variable time: the borrow propagation past `b` stops when the borrow dies.
#[inline]
pub fn sub_in_place(a: &mut [Limb], b: &[Limb]) -> Limb {
    debug_assert!(b.len() <= a.len());
    let c = sub_n_in_place(&mut a[..b.len()], b);
    sub_1_in_place(&mut a[b.len()..], c)
}

/// `a += c` (one limb); returns the carry out.
/// Leaks: variable time: stops as soon as the carry dies.
#[inline]
pub fn add_1_in_place(a: &mut [Limb], mut c: Limb) -> Limb {
    for x in a.iter_mut() {
        if c == 0 {
            return 0;
        }
        let (s, o) = x.overflowing_add(c);
        *x = s;
        c = o as Limb;
    }
    c
}

/// `a -= c` (one limb); returns the borrow out.
/// Leaks: variable time: stops as soon as the borrow dies.
#[inline]
pub fn sub_1_in_place(a: &mut [Limb], mut c: Limb) -> Limb {
    for x in a.iter_mut() {
        if c == 0 {
            return 0;
        }
        let (s, o) = x.overflowing_sub(c);
        *x = s;
        c = o as Limb;
    }
    c
}

/// Whether a row of `len` limbs runs on the MULX/ADX kernels at the tier in use: rows of at
/// least 4 limbs, on the [`Tier::Adx`] tier and above.
#[cfg(target_arch = "x86_64")]
#[inline]
fn adx_row(len: usize) -> bool {
    len >= 4 && cpu::tier() >= Tier::Adx
}

/// `r = a * b` (one limb `b`); returns the high limb. `r.len() == a.len()`.
/// Uses [`x86_64::mul_1_adx`] on the [`Tier::Adx`] tier and above ([`cpu::tier`]).
/// Leaks: nothing but the lengths (constant time).
#[inline]
pub fn mul_1(r: &mut [Limb], a: &[Limb], b: Limb) -> Limb {
    #[cfg(target_arch = "x86_64")]
    if adx_row(a.len()) {
        // SAFETY: the tier in use has BMI2 and ADX; `r.len() == a.len()`.
        return unsafe { x86_64::mul_1_adx(r, a, b, 0) };
    }
    mul_1_portable(r, a, b)
}

/// Portable [`mul_1`].
/// Leaks: nothing but the lengths (constant time).
#[inline]
pub fn mul_1_portable(r: &mut [Limb], a: &[Limb], b: Limb) -> Limb {
    debug_assert_eq!(r.len(), a.len());
    let mut c = 0;
    for i in 0..a.len() {
        (r[i], c) = mac(a[i], b, c, 0);
    }
    c
}

/// `a *= b` (one limb `b`) in place; returns the high limb.
/// Leaks: nothing but the lengths (constant time).
#[inline]
pub fn mul_1_in_place(a: &mut [Limb], b: Limb) -> Limb {
    let mut c = 0;
    for x in a.iter_mut() {
        (*x, c) = mac(*x, b, c, 0);
    }
    c
}

/// `r += a * b` (one limb `b`); returns the carry limb. `r.len() == a.len()`.
/// Uses [`x86_64::addmul_1_adx`] on the [`Tier::Adx`] tier and above ([`cpu::tier`]).
/// Leaks: nothing but the lengths (constant time).
#[inline]
pub fn addmul_1(r: &mut [Limb], a: &[Limb], b: Limb) -> Limb {
    #[cfg(target_arch = "x86_64")]
    if adx_row(a.len()) {
        // SAFETY: the tier in use has BMI2 and ADX; `r.len() == a.len()`.
        return unsafe { x86_64::addmul_1_adx(r, a, b, 0) };
    }
    addmul_1_portable(r, a, b)
}

/// Portable [`addmul_1`]. Loop invariant: c <= b - 1, so `a[i] b + r[i] + c < b^2`.
/// Leaks: nothing but the lengths (constant time).
#[inline]
pub fn addmul_1_portable(r: &mut [Limb], a: &[Limb], b: Limb) -> Limb {
    debug_assert_eq!(r.len(), a.len());
    let mut c = 0;
    for i in 0..a.len() {
        (r[i], c) = mac(a[i], b, r[i], c);
    }
    c
}

/// `r[..n] += a * (b0 + b1 B) + c0` for `a` of n >= 1 limbs and `r` of n + 1, `c0 < b` (row
/// b0's carry into position 0): writes the limb at position n to `r[n]` (not added to) and
/// returns the one at position n + 1. Two rows in one
/// pass: each a_j and each r limb is loaded once for both products, and the rows' carries are
/// independent chains (`addmul_1_portable` waits on one). Loop invariant: c0, c1 <= b - 1,
/// since (b - 1) + (b - 1)^2 + (b - 1) < b^2; `w` is the value at position j + 1 (r there
/// plus row b1's part).
/// Leaks: nothing but the lengths (constant time).
#[inline]
pub fn addmul_2_portable(r: &mut [Limb], a: &[Limb], b0: Limb, b1: Limb, c0: Limb) -> Limb {
    let n = a.len();
    assert!(n >= 1 && r.len() == n + 1);
    let (mut c0, mut c1) = (c0, 0);
    let (a_body, a_last) = a.split_at(n - 1);
    let (r_first, r_rest) = r.split_at_mut(1);
    let mut w = r_first[0];
    let mut out = &mut r_first[0];
    for (&aj, next) in a_body.iter().zip(r_rest.iter_mut()) {
        (*out, c0) = mac(aj, b0, w, c0);
        (w, c1) = mac(aj, b1, *next, c1);
        out = next;
    }
    (*out, c0) = mac(a_last[0], b0, w, c0);
    let (lo, hi) = mac(a_last[0], b1, c0, c1);
    r[n] = lo;
    hi
}

/// `r -= a * b` (one limb `b`); returns the borrow limb (the amount still to subtract at
/// position `a.len()`). `r.len() == a.len()`.
/// Uses [`x86_64::submul_1_adx`] on the [`Tier::Adx`] tier and above ([`cpu::tier`]): Knuth
/// division's multiply-and-subtract step, 1.3x GMP on a 90-limb modulus before.
/// Leaks: nothing but the lengths (constant time).
#[inline]
pub fn submul_1(r: &mut [Limb], a: &[Limb], b: Limb) -> Limb {
    #[cfg(target_arch = "x86_64")]
    if adx_row(a.len()) {
        // SAFETY: the tier in use has BMI2 and ADX; `r.len() == a.len()`.
        return unsafe { x86_64::submul_1_adx(r, a, b, 0) };
    }
    submul_1_portable(r, a, b)
}

/// Portable [`submul_1`].
/// Leaks: nothing but the lengths (constant time).
#[inline]
pub fn submul_1_portable(r: &mut [Limb], a: &[Limb], b: Limb) -> Limb {
    debug_assert_eq!(r.len(), a.len());
    let mut c: Limb = 0; // borrow limb carried to the next position
    for i in 0..a.len() {
        let (lo, hi) = mac(a[i], b, c, 0);
        let (d, br) = sbb(r[i], lo, 0);
        r[i] = d;
        c = hi + br; // hi <= b-2 when lo carries a borrow, so no overflow
    }
    c
}

/// `r = a << s` for `0 <= s < 64`, `r.len() == a.len()`; returns the bits shifted out.
/// In place (`r` and `a` the same buffer) is done by [`shl_in_place`].
/// Leaks: the lengths and whether `s` is 0 (a branch); nothing of the limbs.
pub fn shl(r: &mut [Limb], a: &[Limb], s: u32) -> Limb {
    debug_assert!(s < LIMB_BITS && r.len() == a.len());
    if s == 0 {
        r.copy_from_slice(a);
        return 0;
    }
    let mut out = 0;
    for i in 0..a.len() {
        r[i] = (a[i] << s) | out;
        out = a[i] >> (LIMB_BITS - s);
    }
    out
}

/// `a <<= s` for `0 <= s < 64`; returns the bits shifted out.
/// Leaks: the lengths and whether `s` is 0 (a branch); nothing of the limbs.
pub fn shl_in_place(a: &mut [Limb], s: u32) -> Limb {
    debug_assert!(s < LIMB_BITS);
    if s == 0 {
        return 0;
    }
    let mut out = 0;
    for x in a.iter_mut() {
        let v = *x;
        *x = (v << s) | out;
        out = v >> (LIMB_BITS - s);
    }
    out
}

/// `a >>= s` for `0 <= s < 64`; returns the bits shifted out (in the high bits of the result).
/// Leaks: the lengths and whether `s` is 0 (a branch); nothing of the limbs.
pub fn shr_in_place(a: &mut [Limb], s: u32) -> Limb {
    debug_assert!(s < LIMB_BITS);
    if s == 0 {
        return 0;
    }
    let mut out = 0;
    for x in a.iter_mut().rev() {
        let v = *x;
        *x = (v >> s) | out;
        out = v << (LIMB_BITS - s);
    }
    out
}

/// Constant-time select: `r = if c { a } else { r }`.
/// Leaks: nothing but the lengths (constant time).
#[inline]
pub fn cond_copy(r: &mut [Limb], a: &[Limb], c: Choice) {
    debug_assert_eq!(r.len(), a.len());
    for (x, &y) in r.iter_mut().zip(a) {
        *x = c.select(y, *x);
    }
}

/// Constant-time table lookup: `sel = table[d]` for `d < table.len()` (entries as long as
/// `sel`), reading every entry in full and OR-ing it into `sel` under a mask that is all ones
/// only for entry `d`: no branch and no address depends on `d`. On the ADX tier with AVX2,
/// from [`crate::tuning::CT_SELECT_AVX2_MIN_LIMBS`] limbs, [`x86_64::ct_select_avx2`]. Else on
/// x86-64, for entries of at
/// most [`crate::tuning::CT_SELECT_SSE2_MAX_LIMBS`] limbs, the masks come from SSE2 compares
/// ([`x86_64::ct_select_sse2`]): there the per-entry mask is the cost. Longer entries take the
/// integer loop, which the compiler vectorizes at the caller's width (AVX-512 in the IFMA
/// kernels: 2048 bits measured ct / auto 1.19 with SSE2 against 1.05 without).
/// Leaks: nothing but the lengths and the number of entries (constant time in `d` and the
/// entries).
#[inline(always)]
pub fn ct_select<E: AsRef<[Limb]>>(sel: &mut [Limb], table: &[E], d: usize) {
    debug_assert!(d < table.len());
    #[cfg(target_arch = "x86_64")]
    if sel.len() >= crate::tuning::CT_SELECT_AVX2_MIN_LIMBS
        && crate::cpu::tier() == crate::cpu::Tier::Adx
        && std::arch::is_x86_feature_detected!("avx2")
    {
        // SAFETY: AVX2 was detected.
        unsafe { x86_64::ct_select_avx2(sel, table, d) };
        return;
    }
    #[cfg(target_arch = "x86_64")]
    if sel.len() <= crate::tuning::CT_SELECT_SSE2_MAX_LIMBS {
        // SAFETY: SSE2 is part of the x86-64 baseline.
        unsafe { x86_64::ct_select_sse2(sel, table, d) };
        return;
    }
    ct_select_portable(sel, table, d);
}

/// [`ct_select`] in plain integer code (also the reference of the SSE2 version's test).
/// Column blocks of `CT_SELECT_BLOCK` (8) limbs: each block is OR-ed over every entry in
/// registers and stored once, so the accumulation does not go through memory once per entry
/// (ct at 1024 bits on the MULX/ADX kernels, 16 limbs and 32 entries: 269.5 -> 266.0 µs, the
/// selection 8% -> 6% of the time); the compiler vectorizes a block at the caller's width
/// (the ADX scans are compiled with AVX2, the IFMA ones with AVX-512).
/// Leaks: nothing but the lengths and the number of entries (as [`ct_select`]).
#[inline(always)]
pub fn ct_select_portable<E: AsRef<[Limb]>>(sel: &mut [Limb], table: &[E], d: usize) {
    // 1 iff i == d, as a mask, without a branch.
    let mask = |i: usize| Choice::eq(i as Limb, d as Limb).mask();
    let full = sel.len() - sel.len() % CT_SELECT_BLOCK;
    let (head, tail) = sel.split_at_mut(full);
    for (b, block) in head.chunks_exact_mut(CT_SELECT_BLOCK).enumerate() {
        let at = b * CT_SELECT_BLOCK;
        let mut acc = [0 as Limb; CT_SELECT_BLOCK];
        for (i, entry) in table.iter().enumerate() {
            let m = mask(i);
            let e: &[Limb; CT_SELECT_BLOCK] = entry.as_ref()[at..at + CT_SELECT_BLOCK]
                .try_into()
                .expect("entries are as long as sel");
            for j in 0..CT_SELECT_BLOCK {
                acc[j] |= e[j] & m;
            }
        }
        block.copy_from_slice(&acc);
    }
    tail.fill(0);
    for (i, entry) in table.iter().enumerate() {
        let m = mask(i);
        for (s, &y) in tail.iter_mut().zip(&entry.as_ref()[full..]) {
            *s |= y & m;
        }
    }
}

/// Limbs per column block of [`ct_select_portable`]: two 256-bit vectors.
const CT_SELECT_BLOCK: usize = 8;

/// The final step of every Montgomery product (Koç–Acar–Kaliski 1996 §2, MonPro Step 3; its
/// code in §4): given u = `hi * b^n + t` with u < 2m, write u mod m = (u >= m ? u - m : u) to
/// `r`. `r`, `t` and `m` have the same length; `hi` is 0 or 1.
/// Leaks: nothing but the lengths (constant time: the subtraction is always computed and the
/// result chosen by mask).
#[inline]
pub fn sub_mod_final(r: &mut [Limb], t: &[Limb], hi: Limb, m: &[Limb]) {
    debug_assert!(hi <= 1);
    let borrow = sub_n(r, t, m);
    // u >= m iff the subtraction did not borrow out of the hi word: hi - borrow >= 0.
    let (_, keep_t) = sbb(hi, borrow, 0);
    cond_copy(r, t, Choice::from_bit(keep_t));
}

/// `a mod m` for `a < 2m` in place (`a.len() == m.len()`, `hi` the bit above).
/// Leaks: nothing but the lengths (constant time).
#[inline]
pub fn reduce_once_in_place(a: &mut [Limb], hi: Limb, m: &[Limb], tmp: &mut [Limb]) {
    tmp.copy_from_slice(a);
    sub_mod_final(a, tmp, hi, m);
}

/// `r = (a + b) mod m` for `a, b < m`; `tmp` is scratch of the same length.
/// Leaks: nothing but the lengths (constant time).
pub fn add_mod(r: &mut [Limb], a: &[Limb], b: &[Limb], m: &[Limb], tmp: &mut [Limb]) {
    let c = add_n(tmp, a, b);
    sub_mod_final(r, tmp, c, m);
}

/// `r = (a - b) mod m` for `a, b < m`.
/// Leaks: nothing but the lengths (constant time).
pub fn sub_mod(r: &mut [Limb], a: &[Limb], b: &[Limb], m: &[Limb]) {
    let borrow = sub_n(r, a, b);
    let mask = Choice::from_bit(borrow).mask();
    let mut c = 0;
    for i in 0..r.len() {
        (r[i], c) = adc(r[i], m[i] & mask, c);
    }
}

#[cfg(test)]
mod tests;
