//! `ct`: constant-time fixed-window exponentiation, for secret exponents (RSA private keys).
//!
//! The exponent is processed as exactly `ceil(exp_bits / w)` digits of `w` bits, where
//! `exp_bits` is a public length (the caller pads: [`super::Modulus::pow_ct`] uses
//! `max(bits(m), 64 * limbs(exp))`). Every digit costs a scan of the *whole* table of 2^w
//! powers in which each entry is OR-ed in under a mask computed without branches
//! ([`arith::ct_select`]), `w` squarings and one multiplication — also for zero digits — except
//! the top digit, whose scanned entry is the start value. The table's even powers are squares
//! of earlier entries, its odd ones products with g.
//! (The masks come from SSE2 compares on x86-64, elsewhere through
//! [`crate::limb::value_barrier`], so the compiler cannot turn the selection into a branch.)
//! So no branch and no memory address depends on the bits of the exponent or of the base; the
//! sequence of operations is recorded by [`pow_traced`] so the tests can check exactly that.
//!
//! Timing depends only on the operand *sizes* (k limbs of m, the padded exponent length) and
//! requires a constant-time reducer, one whose [`crate::Reducer::is_constant_time`] holds (schoolbook or
//! integrated Montgomery products with the masked final subtraction [`arith::sub_mod_final`];
//! not FIOS or the Karatsuba-based REDC); [`super::pow`] refuses other reducers for `ct` and
//! "auto" picks CIOS. (The fused fixed-size kernels of `montgomery-fast`, up to 8 limbs, keep
//! residues below R = 2^(64k) instead of below m, subtracting m under a mask of the product's
//! carry-out, and reduce below m once at the end: also no branch.) Reducing a base
//! `>= m` beforehand is a variable-time division (the base of an RSA operation is already < m).

use super::Ops;
use crate::arith;
use crate::limb::Limb;
use crate::reduce::Reducer;
use crate::scan::ct::scan;
pub use crate::scan::ct::{CtEvent, CtTrace, NoTrace};
use crate::scan::FusedPow;

/// Panics unless `exp_bits >= bit_len(exp)`; reads the exponent's bits only when its padded
/// length `64 exp.len()` (public) exceeds `exp_bits`, so the usual call leaks nothing.
fn check_exp_bits(exp: &[Limb], exp_bits: usize) {
    assert!(
        exp_bits >= 64 * exp.len() || exp_bits >= arith::bit_len(exp),
        "exp_bits below the exponent's length"
    );
}

/// `base^exp mod m` in constant time (see the module docs) with `w`-bit digits (1 <= w <= 16)
/// over `exp_bits >= bit_len(exp)` bits; `base < m` (k limbs). Returns k limbs `< m`.
pub fn pow<R: Reducer + ?Sized>(
    r: &R,
    base: &[Limb],
    exp: &[Limb],
    exp_bits: usize,
    w: usize,
) -> Vec<Limb> {
    check_exp_bits(exp, exp_bits);
    if let Some(x) = r.pow_fused(base, exp, FusedPow::Ct { exp_bits, w }) {
        return x;
    }
    pow_traced(r, base, exp, exp_bits, w, &mut NoTrace)
}

/// [`pow`], reporting every step to `trace`.
pub fn pow_traced<R: Reducer + ?Sized, T: CtTrace>(
    r: &R,
    base: &[Limb],
    exp: &[Limb],
    exp_bits: usize,
    w: usize,
    trace: &mut T,
) -> Vec<Limb> {
    assert!((1..=16).contains(&w), "window size must be 1..=16");
    check_exp_bits(exp, exp_bits);
    let mut ops = Ops::new(r);
    trace.event(CtEvent::ToRepr);
    let g = ops.enter(base);
    let acc = scan(&mut ops, r.one().to_vec(), g, exp, exp_bits, w, trace);
    trace.event(CtEvent::FromRepr);
    ops.leave(&acc)
}
