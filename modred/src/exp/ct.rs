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

use super::{ExpArith, FusedPow, Ops};
use crate::arith;
use crate::limb::Limb;
use crate::reduce::Reducer;

/// One step of the constant-time schedule, for trace tests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CtEvent {
    /// Conversion of the base into representation.
    ToRepr,
    /// A table entry computed by a product during precomputation.
    TableMul,
    /// A table entry computed by a squaring during precomputation.
    TableSqr,
    /// A squaring of the accumulator.
    Sqr,
    /// Table entry `i` read during a masked scan.
    Scan(usize),
    /// The multiplication by the selected entry.
    Mul,
    /// The conversion back.
    FromRepr,
}

/// Receives the schedule of [`pow_traced`].
pub trait CtTrace {
    /// Record one event.
    fn event(&mut self, e: CtEvent);
}

/// The tracer of the production path: does nothing and compiles away.
pub struct NoTrace;

impl CtTrace for NoTrace {
    #[inline(always)]
    fn event(&mut self, _e: CtEvent) {}
}

impl CtTrace for Vec<CtEvent> {
    fn event(&mut self, e: CtEvent) {
        self.push(e);
    }
}

/// The `w`-bit digit at bit `pos`: the limb read and the shifts depend only on `pos` (public).
#[inline(always)]
fn ct_digit(exp: &[Limb], pos: usize, w: usize) -> usize {
    super::window::digit(exp, pos, w)
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
    assert!(
        exp_bits >= arith::bit_len(exp),
        "exp_bits below the exponent's length"
    );
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
    assert!(
        exp_bits >= arith::bit_len(exp),
        "exp_bits below the exponent's length"
    );
    let mut ops = Ops::new(r);
    trace.event(CtEvent::ToRepr);
    let g = ops.enter(base);
    let acc = scan(&mut ops, r.one().to_vec(), g, exp, exp_bits, w, trace);
    trace.event(CtEvent::FromRepr);
    ops.leave(&acc)
}

/// The constant-time scan of [`pow_traced`] on any [`ExpArith`] (so fused fixed-size kernels
/// share it): table g^0..g^(2^w - 1) from `one` and `g`; the top digit's masked scan gives
/// the start value, then every lower digit costs a masked scan of the whole table, `w`
/// squarings and one multiplication. Returns g^exp in representation.
#[inline(always)]
pub(crate) fn scan<A: ExpArith, T: CtTrace>(
    a: &mut A,
    one: A::Elem,
    g: A::Elem,
    exp: &[Limb],
    exp_bits: usize,
    w: usize,
    trace: &mut T,
) -> A::Elem
where
    A::Elem: AsRef<[Limb]> + AsMut<[Limb]>,
{
    let entries = 1usize << w;
    let mut table = Vec::with_capacity(entries);
    table.push(one);
    table.push(g);
    for i in 2..entries {
        // Even powers by a squaring (cheaper than a product), odd ones by a product with g.
        let t = if i % 2 == 0 {
            let mut t = table[i / 2].clone();
            trace.event(CtEvent::TableSqr);
            a.sqr_in_place(&mut t);
            t
        } else {
            let mut t = table[i - 1].clone();
            trace.event(CtEvent::TableMul);
            a.mul_in_place(&mut t, &table[1]);
            t
        };
        table.push(t);
    }
    let top = exp_bits.div_ceil(w).max(1) - 1;
    let mut acc = table[0].clone();
    let mut sel = table[0].clone();
    // Invariant: acc = g^(exp >> (j w)) after digit j.
    for j in (0..=top).rev() {
        // The scan comes first: it does not depend on the squarings, so out-of-order execution
        // overlaps it with them.
        let d = ct_digit(exp, j * w, w);
        for i in 0..table.len() {
            trace.event(CtEvent::Scan(i));
        }
        arith::ct_select(sel.as_mut(), &table, d);
        if j == top {
            // The top digit's entry is the start value: w squarings of one and a product saved
            // (j is public, so this branch is too).
            acc.as_mut().copy_from_slice(sel.as_ref());
            continue;
        }
        for _ in 0..w {
            trace.event(CtEvent::Sqr);
            a.sqr_in_place(&mut acc);
        }
        trace.event(CtEvent::Mul);
        a.mul_in_place(&mut acc, &sel);
    }
    acc
}
