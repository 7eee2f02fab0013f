//! Single-precision primitives: the digit type `Limb` (radix b = 2^64) and the double-width type
//! `DLimb` that Bosselaers, Govaerts, Vandewalle, *Comparison of three modular reduction
//! functions*, CRYPTO '93, §2 asks for ("a type which is at least twice as long as the basic
//! type"), with the carry/borrow steps every multi-precision kernel is built from.
//!
//! All primitives but the divisions and [`neg_inv_bitloop`] are branch-free and constant-time
//! on x86_64 and aarch64 (the 64x64->128 multiplication has data-independent latency there).
//! With the `count` feature, [`mul_wide`] and [`div_wide`] bump the counters of
//! [`crate::count`]; without it they compile to one instruction each.

/// One digit of radix b = 2^64.
pub type Limb = u64;
/// Twice the width of a [`Limb`], holding any product of two digits plus two digits.
pub type DLimb = u128;
/// Bits per limb.
pub const LIMB_BITS: u32 = Limb::BITS;

/// The full product `a * b` as `(low, high)`. Counted as one single-precision multiplication.
/// Leaks: nothing (constant time).
#[inline(always)]
pub fn mul_wide(a: Limb, b: Limb) -> (Limb, Limb) {
    crate::count::mul();
    let p = a as DLimb * b as DLimb;
    (p as Limb, (p >> LIMB_BITS) as Limb)
}

/// Low half of `a * b` (a multiplication mod b, as for `m = t * n'0 mod b`).
/// Counted as one single-precision multiplication.
/// Leaks: nothing (constant time).
#[inline(always)]
pub fn mul_lo(a: Limb, b: Limb) -> Limb {
    crate::count::mul();
    a.wrapping_mul(b)
}

/// `a * b + c + d` as `(low, high)`; never overflows since (b-1)^2 + 2(b-1) = b^2 - 1.
/// The multiply-accumulate step `(C,S) := t + a*b + C` of Koç, Acar, Kaliski, *Analyzing and
/// Comparing Montgomery Multiplication Algorithms*, IEEE Micro 1996, §2.
/// Leaks: nothing (constant time).
#[inline(always)]
pub fn mac(a: Limb, b: Limb, c: Limb, d: Limb) -> (Limb, Limb) {
    crate::count::mul();
    let p = a as DLimb * b as DLimb + c as DLimb + d as DLimb;
    (p as Limb, (p >> LIMB_BITS) as Limb)
}

/// `a + b + carry` as `(sum, carry_out)`, carry in {0, 1}.
/// Leaks: nothing (constant time).
#[inline(always)]
pub fn adc(a: Limb, b: Limb, carry: Limb) -> (Limb, Limb) {
    let s = a as DLimb + b as DLimb + carry as DLimb;
    (s as Limb, (s >> LIMB_BITS) as Limb)
}

/// `a - b - borrow` as `(difference, borrow_out)`, borrow in {0, 1}.
/// Leaks: nothing (constant time).
#[inline(always)]
pub fn sbb(a: Limb, b: Limb, borrow: Limb) -> (Limb, Limb) {
    // Two overflowing subtractions, the form LLVM maps to one SBB (the double-width form
    // compiled to SBB r,r / ADD / ADC / SAR per limb: four times the latency of a borrow chain).
    let (d, b1) = a.overflowing_sub(b);
    let (d, b2) = d.overflowing_sub(borrow);
    (d, (b1 | b2) as Limb)
}

/// Quotient and remainder of the two-digit `(hi, lo)` by `d`; requires `hi < d` so the quotient
/// fits in one digit. Counted as one single-precision division.
/// Leaks: variable time: the u128 division is a call of `__udivti3`, which branches on the
/// operands' sizes (and its `div` instruction's latency depends on them).
#[inline(always)]
pub fn div_wide(hi: Limb, lo: Limb, d: Limb) -> (Limb, Limb) {
    debug_assert!(hi < d, "div_wide: quotient overflows a digit");
    crate::count::div();
    let n = ((hi as DLimb) << LIMB_BITS) | lo as DLimb;
    ((n / d as DLimb) as Limb, (n % d as DLimb) as Limb)
}

/// [`div_wide`] by the x86-64 `div` instruction where there is one (the u128 division compiles
/// to a call of `__udivti3`, which was a quarter of a 64-byte MODEXP's time in Knuth division);
/// the portable division elsewhere, or if `hi >= d` (where `div` would fault). Same contract
/// and count.
/// Leaks: variable time: x86 `div` latency depends on the operands, and the branch on `hi < d`.
#[inline(always)]
pub fn div_wide_hw(hi: Limb, lo: Limb, d: Limb) -> (Limb, Limb) {
    #[cfg(target_arch = "x86_64")]
    if hi < d {
        return div_wide_asm(hi, lo, d);
    }
    div_wide(hi, lo, d)
}

/// One `div r64`: quotient and remainder of `(hi, lo)` by `d`. The caller guarantees
/// `hi < d` (so `d != 0` and the quotient fits in 64 bits: the instruction cannot fault).
/// Counted as one single-precision division.
/// Leaks: variable time: x86 `div` latency depends on the operands.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub fn div_wide_asm(hi: Limb, lo: Limb, d: Limb) -> (Limb, Limb) {
    debug_assert!(hi < d, "div_wide_asm: quotient overflows a digit");
    crate::count::div();
    div_instruction(hi, lo, d)
}

/// The quotient of [`div_wide_hw`] without its operation count: for set-up outside the counted
/// algorithms (the NTT's tables, whose arithmetic is uncounted u128 throughout). Requires
/// `hi < d`.
/// Leaks: variable time, as [`div_wide_hw`].
#[inline(always)]
pub(crate) fn div_wide_quotient_uncounted(hi: Limb, lo: Limb, d: Limb) -> Limb {
    debug_assert!(hi < d, "quotient overflows a digit");
    #[cfg(target_arch = "x86_64")]
    let q = div_instruction(hi, lo, d).0;
    #[cfg(not(target_arch = "x86_64"))]
    let q = ((((hi as DLimb) << LIMB_BITS) | lo as DLimb) / d as DLimb) as Limb;
    q
}

/// One `div r64`, not counted; `hi < d` (guaranteed by the callers).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn div_instruction(hi: Limb, lo: Limb, d: Limb) -> (Limb, Limb) {
    let (q, r);
    // SAFETY: `div` faults only on a zero divisor or a quotient overflow, both excluded by
    // the caller's hi < d. It touches only the named registers and flags.
    unsafe {
        core::arch::asm!(
            "div {d}",
            d = in(reg) d,
            inout("rax") lo => q,
            inout("rdx") hi => r,
            options(pure, nomem, nostack),
        );
    }
    (q, r)
}

/// A secret boolean held as a mask: all ones for true, zero for false. The constant-time
/// vocabulary of the kernels (like crypto-bigint's `ConstChoice` and Go bigmod's `choice`):
/// conditions on secret values are computed as a `Choice` from carries and borrows, combined
/// with `&`, `|` and `!`, and applied by [`Choice::select`] or [`Choice::mask`] (`x & mask`),
/// never by an `if`. [`Choice::to_bool_vartime`] is the one way back to a `bool`, for results
/// that are public.
///
/// Every constructor goes through [`value_barrier`]: if the optimizer could see that a mask is
/// 0 or all-ones, it may turn a masked select back into a conditional branch (it did: the final
/// subtraction of the fixed-size Montgomery kernels became a jump on the compare's result, a
/// timing leak).
///
/// Leaks: nothing (every operation is branch-free).
#[derive(Clone, Copy, Debug)]
pub struct Choice(Limb);

impl Choice {
    /// False (mask zero).
    pub const FALSE: Choice = Choice(0);
    /// True (mask all ones).
    pub const TRUE: Choice = Choice(Limb::MAX);

    /// True iff `bit` is 1; `bit` must be 0 or 1 (a carry, a borrow, a masked bit).
    #[inline(always)]
    pub fn from_bit(bit: Limb) -> Choice {
        debug_assert!(bit <= 1);
        Choice(value_barrier(bit).wrapping_neg())
    }

    /// `a < b`, from the borrow of `a - b`.
    #[inline(always)]
    pub fn lt(a: Limb, b: Limb) -> Choice {
        Choice::from_bit(sbb(a, b, 0).1)
    }

    /// `a >= b`.
    #[inline(always)]
    pub fn ge(a: Limb, b: Limb) -> Choice {
        !Choice::lt(a, b)
    }

    /// `a > b`.
    #[inline(always)]
    pub fn gt(a: Limb, b: Limb) -> Choice {
        Choice::lt(b, a)
    }

    /// `a == b`: `x | -x` has its top bit set iff `x = a ^ b` is nonzero.
    #[inline(always)]
    pub fn eq(a: Limb, b: Limb) -> Choice {
        let x = a ^ b;
        Choice::from_bit(1 ^ ((x | x.wrapping_neg()) >> (LIMB_BITS - 1)))
    }

    /// The mask: all ones if true, zero if false.
    #[inline(always)]
    pub fn mask(self) -> Limb {
        self.0
    }

    /// `a` if true, else `b`.
    #[inline(always)]
    pub fn select(self, a: Limb, b: Limb) -> Limb {
        (a & self.0) | (b & !self.0)
    }

    /// The value as a `bool`, for a result that may be known (e.g. "the base is not below m"
    /// before returning an error): branching on it leaks the value. Variable time by name.
    #[inline(always)]
    pub fn to_bool_vartime(self) -> bool {
        self.0 != 0
    }

    /// [`Self::to_bool_vartime`] for a verdict that is public by design though computed from
    /// secrets (the RSA fault check): in the `ctgrind` build, memcheck is told the value is
    /// defined first, so the branch on it is not reported (libsecp256k1's `declassify`).
    #[inline(always)]
    pub fn declassify(self) -> bool {
        #[cfg(feature = "ctgrind")]
        return crate::valgrind::declassify_limb(self.0) != 0;
        #[cfg(not(feature = "ctgrind"))]
        return self.0 != 0;
    }
}

impl core::ops::Not for Choice {
    type Output = Choice;
    #[inline(always)]
    fn not(self) -> Choice {
        Choice(!self.0)
    }
}

impl core::ops::BitAnd for Choice {
    type Output = Choice;
    #[inline(always)]
    fn bitand(self, rhs: Choice) -> Choice {
        Choice(self.0 & rhs.0)
    }
}

impl core::ops::BitOr for Choice {
    type Output = Choice;
    #[inline(always)]
    fn bitor(self, rhs: Choice) -> Choice {
        Choice(self.0 | rhs.0)
    }
}

/// `x`, unchanged, through an empty `asm!` block the optimizer cannot see into, so it cannot
/// derive facts about `x` (such as "0 or 1") from how it was computed. Costs no instruction.
/// Leaks: nothing (constant time).
#[inline(always)]
pub fn value_barrier(x: Limb) -> Limb {
    #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
    {
        let mut y = x;
        // SAFETY: an empty asm block that only names `y`'s register.
        unsafe {
            core::arch::asm!("/* {0} */", inout(reg) y, options(pure, nomem, nostack, preserves_flags));
        }
        y
    }
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    {
        core::hint::black_box(x)
    }
}

/// `-m0^{-1} mod 2^64` for odd `m0` by Newton's iteration x <- x(2 - m0 x), which doubles the
/// number of correct low bits each step (Prots'ko, Gryshchuk, *The implementation of Montgomery
/// modular reduction to speed up of modular exponentiation*, CMIS-2024, §4 eq. 7). Starting from
/// x = m0, correct to 3 bits since m0*m0 = 1 mod 8, five steps give 96 >= 64 bits.
/// Leaks: nothing (five fixed steps; constant time).
pub fn neg_inv_newton(m0: Limb) -> Limb {
    assert!(m0 & 1 == 1, "neg_inv_newton: modulus must be odd");
    let mut x = m0; // m0 * m0 = 1 mod 8
    for _ in 0..5 {
        x = x.wrapping_mul(2u64.wrapping_sub(m0.wrapping_mul(x)));
    }
    debug_assert_eq!(m0.wrapping_mul(x), 1);
    x.wrapping_neg()
}

/// `-m0^{-1} mod 2^64` for odd `m0` by the bit loop of Prots'ko–Gryshchuk 2024 §3 Fig. 1: grow
/// y with m0*y = 1 mod 2^i one bit at a time, then return R - y.
/// Leaks: variable time: one branch per bit on the bits of m0's inverse.
pub fn neg_inv_bitloop(m0: Limb) -> Limb {
    assert!(m0 & 1 == 1, "neg_inv_bitloop: modulus must be odd");
    let mut y: Limb = 1;
    for i in 2..=LIMB_BITS {
        let mask = if i == LIMB_BITS {
            Limb::MAX
        } else {
            (1 << i) - 1
        };
        if m0.wrapping_mul(y) & mask != 1 {
            y += 1 << (i - 1);
        }
    }
    y.wrapping_neg()
}

/// Marsaglia's xorshift64 step (13, 7, 17): the deterministic operand stream of the kernel unit
/// tests and of the batches' lanes measurement (the same inputs on every run, no dependency on a
/// seeded RNG's version).
#[cfg(any(test, target_arch = "x86_64"))]
pub(crate) fn xorshift64(s: &mut u64) -> u64 {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    *s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hardware_division_matches_u128() {
        let mut x: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let mut cases = vec![
            (0, 0, 1),
            (0, u64::MAX, 1),
            (u64::MAX - 1, u64::MAX, u64::MAX),
        ];
        cases.push((1 << 62, 0, 1 << 63));
        for _ in 0..10_000 {
            let d = next() >> (next() % 64);
            let d = d.max(1);
            cases.push((next() % d, next(), d));
        }
        for (hi, lo, d) in cases {
            let n = ((hi as u128) << 64) | lo as u128;
            let want = ((n / d as u128) as u64, (n % d as u128) as u64);
            assert_eq!(div_wide_hw(hi, lo, d), want, "{hi:#x}:{lo:#x} / {d:#x}");
        }
    }

    #[test]
    fn neg_inverse_methods_agree() {
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        for m0 in [1u64, 3, 5, u64::MAX, u64::MAX - 2, 0x8000_0000_0000_0001] {
            let a = neg_inv_newton(m0);
            assert_eq!(a, neg_inv_bitloop(m0));
            assert_eq!(m0.wrapping_mul(a), u64::MAX);
        }
        for _ in 0..10_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let m0 = x | 1;
            assert_eq!(neg_inv_newton(m0), neg_inv_bitloop(m0));
        }
    }

    #[test]
    fn carries() {
        assert_eq!(adc(u64::MAX, 1, 0), (0, 1));
        assert_eq!(adc(u64::MAX, u64::MAX, 1), (u64::MAX, 1));
        assert_eq!(sbb(0, 1, 0), (u64::MAX, 1));
        assert_eq!(sbb(0, u64::MAX, 1), (0, 1));
        assert_eq!(sbb(5, 3, 1), (1, 0));
        assert_eq!(
            mac(u64::MAX, u64::MAX, u64::MAX, u64::MAX),
            (u64::MAX, u64::MAX)
        );
        assert_eq!(div_wide(1, 0, 2), (1 << 63, 0));
    }

    /// The Choice comparisons against Rust's own operators, on edge values and a xorshift walk.
    #[test]
    fn choice_matches_the_operators() {
        let edges = [0u64, 1, 2, 1 << 63, (1 << 63) - 1, u64::MAX - 1, u64::MAX];
        let mut pairs: Vec<(u64, u64)> = edges
            .iter()
            .flat_map(|&a| edges.iter().map(move |&b| (a, b)))
            .collect();
        let mut x: u64 = 0x2545_f491_4f6c_dd1d;
        for _ in 0..2000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            // Close pairs too: the top bits equal, the low ones differing.
            pairs.push((x, x.rotate_left(17)));
            pairs.push((x, x ^ (x & 7)));
        }
        let mask = |b: bool| if b { u64::MAX } else { 0 };
        for (a, b) in pairs {
            assert_eq!(Choice::lt(a, b).mask(), mask(a < b), "{a} < {b}");
            assert_eq!(Choice::ge(a, b).mask(), mask(a >= b), "{a} >= {b}");
            assert_eq!(Choice::gt(a, b).mask(), mask(a > b), "{a} > {b}");
            assert_eq!(Choice::eq(a, b).to_bool_vartime(), a == b, "{a} == {b}");
            let c = Choice::lt(a, b);
            assert_eq!(c.select(a, b), a.min(b));
            assert_eq!((!c).select(a, b), a.max(b));
            assert_eq!((c & Choice::eq(a, a)).mask(), c.mask());
            assert_eq!((c | Choice::TRUE).mask(), u64::MAX);
            assert_eq!((c & Choice::FALSE).mask(), 0);
        }
        assert_eq!(Choice::from_bit(1).mask(), u64::MAX);
        assert_eq!(Choice::from_bit(0).mask(), 0);
    }
}
