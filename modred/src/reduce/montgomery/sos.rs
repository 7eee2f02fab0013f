//! `montgomery-sos`: Separated Operand Scanning (Koç, Acar, Kaliski, *Analyzing and Comparing
//! Montgomery Multiplication Algorithms*, IEEE Micro 1996, §4; "Improvement 1" of
//! Dusse-Kaliski).
//!
//! First the whole product t = a b by operand scanning (2s words), then the reduction loop
//! m = t_i n'0, t += m n b^i, and u = t / b^s with one final subtraction. Squaring replaces the
//! product with the symmetric one of section 4 (`crate::arith::sqr_basecase`).
//! 2s^2 + s multiplications; 2s + 2 words of temporary space.

use super::{redc::redc, MontKernel, MontParams, Montgomery};
use crate::arith::{mul_basecase_on, sqr_basecase_on};
use crate::limb::Limb;

/// Kernel: schoolbook product or symmetric square, then the SOS reduction loop. The reduction
/// loop is `redc` (identical arithmetic; the paper's ADD carry propagation is done with a
/// carry word so it runs in constant time). Reference: Koç–Acar–Kaliski 1996 §4.
/// Leaks: nothing but the lengths (constant time).
pub struct Sos;

impl MontKernel for Sos {
    const NAME: &'static str = "montgomery-sos";
    const KIND: crate::reduce::ReducerKind = crate::reduce::ReducerKind::MontgomerySos;
    const SUMMARY: &'static str =
        "Separated Operand Scanning (product, then reduction), SOS squaring; Koç–Acar–Kaliski 1996 §4";
    fn scratch_len(k: usize) -> usize {
        2 * k + 2
    }
    fn mul(p: &MontParams, out: &mut [Limb], a: &[Limb], b: &[Limb], scratch: &mut [Limb]) {
        let t = &mut scratch[..2 * p.k()];
        mul_basecase_on(p.tier(), t, a, b);
        redc(p, out, t);
    }
    fn sqr(p: &MontParams, out: &mut [Limb], a: &[Limb], scratch: &mut [Limb]) {
        let t = &mut scratch[..2 * p.k()];
        sqr_basecase_on(p.tier(), t, a);
        redc(p, out, t);
    }
}

/// The `montgomery-sos` reducer.
pub type MontgomerySos = Montgomery<Sos>;
/// Its listing.
pub const INFO: crate::reduce::ReducerInfo = MontgomerySos::INFO;
