//! The constant-time fixed-window scan, for secret exponents: exactly `ceil(exp_bits / w)`
//! digits of `w` bits over a public length `exp_bits`; every digit costs a masked scan of the
//! *whole* table of 2^w powers (`arith::ct_select`), `w` squarings and one multiplication,
//! also for zero digits, except the top digit, whose scanned entry is the start value. No
//! branch and no memory address depends on the exponent's bits, provided the arithmetic is
//! constant time; [`CtTrace`] records the sequence of operations so tests can check that.

use super::{ExpArith, CANCEL_CHECK_STEPS};
use crate::arith;
use crate::cancel;
use crate::limb::Limb;

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

/// Receives the schedule of a constant-time scan (`exp::ct::pow_traced` reports it).
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

/// The tracer of the fused kernels' ct scans ([`super::FusedPow::run`]): nothing in a normal
/// build; in the crate's unit tests it appends to `FUSED_LOG` when a test has started one,
/// so the trace tests see the schedule the fused kernels run.
pub(crate) struct FusedTrace;

#[cfg(test)]
thread_local! {
    /// The events of the fused ct scans run on this thread, when `Some` (unit tests only).
    pub(crate) static FUSED_LOG: core::cell::RefCell<Option<Vec<CtEvent>>> =
        const { core::cell::RefCell::new(None) };
}

/// `f()` and the events the fused ct scans ran on this thread meanwhile (empty when none ran;
/// unit tests only).
#[cfg(test)]
pub(crate) fn fused_log<T>(f: impl FnOnce() -> T) -> (T, Vec<CtEvent>) {
    FUSED_LOG.with(|l| *l.borrow_mut() = Some(Vec::new()));
    let x = f();
    let log = FUSED_LOG
        .with(|l| l.borrow_mut().take())
        .unwrap_or_default();
    (x, log)
}

impl CtTrace for FusedTrace {
    #[inline(always)]
    fn event(&mut self, e: CtEvent) {
        #[cfg(test)]
        FUSED_LOG.with(|log| {
            if let Some(v) = log.borrow_mut().as_mut() {
                v.push(e);
            }
        });
        let _ = e;
    }
}

impl CtTrace for Vec<CtEvent> {
    fn event(&mut self, e: CtEvent) {
        self.push(e);
    }
}

/// The `w`-bit digit at bit `pos`: the limb read and the shifts depend only on `pos` (public).
/// Leaks: `pos` and `w` only; nothing of the exponent's bits.
#[inline(always)]
fn ct_digit(exp: &[Limb], pos: usize, w: usize) -> usize {
    super::window::digit(exp, pos, w)
}

/// Whether `exp_bits` covers the exponent (`exp_bits >= bit_len(exp)`), the precondition of
/// the constant-time scan. Reads the exponent's bits only when its padded length `64 exp.len()`
/// (public) exceeds `exp_bits`, so the usual call leaks nothing.
/// Leaks: nothing when `exp_bits >= 64 exp.len()`; otherwise the exponent's leading zero limbs.
pub(crate) fn exp_bits_cover(exp: &[Limb], exp_bits: usize) -> bool {
    exp_bits >= 64 * exp.len() || exp_bits >= arith::bit_len(exp)
}

/// The constant-time scan on any [`ExpArith`] (the reducer-generic `exp::ct::pow_traced` and the
/// fused fixed-size kernels share it): table g^0..g^(2^w - 1) from `one` and `g`; the top digit's masked scan gives
/// the start value, then every lower digit costs a masked scan of the whole table, `w`
/// squarings and one multiplication. Returns g^exp in representation.
/// Leaks: nothing but `exp_bits`, `w` and the lengths, when the arithmetic `a` is constant
/// time (else its own leaks).
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
        // j and the flag are public: the check leaks nothing.
        if j % CANCEL_CHECK_STEPS == 0 && cancel::requested() {
            break; // the result is discarded
        }
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

/// The arithmetic of [`scan_lanes`]: L numbers modulo L moduli in one element (for example
/// their digits interleaved in vectors), products of all L at once. (Its users are the x86-64
/// IFMA kernels: the RSA pair, L = 2, and the eight-lane batch, L = 8.)
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(crate) trait LanesArith<const L: usize> {
    /// All L numbers, in representation.
    type Elem: Clone;
    /// Every number squared.
    fn sqr_lanes(&mut self, a: &mut Self::Elem);
    /// Every number multiplied by its counterpart in `b`.
    fn mul_lanes(&mut self, a: &mut Self::Elem, b: &Self::Elem);
    /// `out` = number l of `table[d[l]]` for every l, reading every entry whole (constant time
    /// in `d`).
    fn select_lanes(&mut self, out: &mut Self::Elem, table: &[Self::Elem], d: [usize; L]);
}

/// [`scan`] for L exponentiations at once on a [`LanesArith`]: the same schedule (one table of
/// 2^w elements, `ceil(exp_bits / w)` digits of `w` bits, each a masked scan of the whole table,
/// `w` squarings and one multiplication, the top digit's entry the start value), the digits of
/// `exp[l]` steering number l. All exponents are read over the same `exp_bits` (at least the
/// longest one's length).
/// Leaks: nothing but `exp_bits`, `w` and the lengths, when the arithmetic is constant time.
#[inline(always)]
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(crate) fn scan_lanes<const L: usize, A: LanesArith<L>, T: CtTrace>(
    a: &mut A,
    one: A::Elem,
    g: A::Elem,
    exp: [&[Limb]; L],
    exp_bits: usize,
    w: usize,
    trace: &mut T,
) -> A::Elem {
    let entries = 1usize << w;
    let mut table = Vec::with_capacity(entries);
    table.push(one);
    table.push(g);
    for i in 2..entries {
        let t = if i % 2 == 0 {
            let mut t = table[i / 2].clone();
            trace.event(CtEvent::TableSqr);
            a.sqr_lanes(&mut t);
            t
        } else {
            let mut t = table[i - 1].clone();
            trace.event(CtEvent::TableMul);
            a.mul_lanes(&mut t, &table[1]);
            t
        };
        table.push(t);
    }
    let top = exp_bits.div_ceil(w).max(1) - 1;
    let mut acc = table[0].clone();
    let mut sel = table[0].clone();
    // Invariant: number l of acc = g_l^(exp_l >> (j w)) after digit j.
    for j in (0..=top).rev() {
        if j % CANCEL_CHECK_STEPS == 0 && cancel::requested() {
            break; // the result is discarded
        }
        let d: [usize; L] = core::array::from_fn(|l| ct_digit(exp[l], j * w, w));
        for i in 0..table.len() {
            trace.event(CtEvent::Scan(i));
        }
        a.select_lanes(&mut sel, &table, d);
        if j == top {
            acc = sel.clone();
            continue;
        }
        for _ in 0..w {
            trace.event(CtEvent::Sqr);
            a.sqr_lanes(&mut acc);
        }
        trace.event(CtEvent::Mul);
        a.mul_lanes(&mut acc, &sel);
    }
    acc
}
