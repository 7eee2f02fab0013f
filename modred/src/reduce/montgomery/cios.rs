//! `montgomery-cios`: Coarsely Integrated Operand Scanning (Koç, Acar, Kaliski, *Analyzing and
//! Comparing Montgomery Multiplication Algorithms*, IEEE Micro 1996, §5).
//!
//! For each word b_i: t += a * b_i (one j-loop), then m = t_0 n'0 mod b and t = (t + m n) / b
//! (a second j-loop with the shift folded in, the "slight improvement" of section 5).
//! 2s^2 + s multiplications, s + 3 words of temporary space (t has s + 2 words).

use super::{MontKernel, MontParams, Montgomery};
use crate::arith::sub_mod_final;
use crate::limb::{adc, mac, mul_lo, Limb};

/// CIOS Montgomery product `out = a b R^{-1} mod m` for `a, b < m`; `t` has s + 2 limbs.
/// Invariant at the top of iteration i: t < 2m (so `t[s+1] = 0` and `t[s] <= 1`). Output `< m`.
/// Leaks: nothing but the lengths (constant time). Reference: Koç–Acar–Kaliski 1996 §5.
pub(crate) fn cios(out: &mut [Limb], a: &[Limb], b: &[Limb], m: &[Limb], n0: Limb, t: &mut [Limb]) {
    let s = m.len();
    debug_assert!(a.len() == s && b.len() == s && t.len() >= s + 2);
    let t = &mut t[..s + 2];
    t.fill(0);
    for i in 0..s {
        // t += a * b[i]
        let mut c = 0;
        for j in 0..s {
            (t[j], c) = mac(a[j], b[i], t[j], c);
        }
        let (ts, c2) = adc(t[s], c, 0);
        t[s] = ts;
        t[s + 1] = c2;
        // t = (t + m_i * n) / b
        let mi = mul_lo(t[0], n0);
        let (_, mut c) = mac(mi, m[0], t[0], 0);
        for j in 1..s {
            (t[j - 1], c) = mac(mi, m[j], t[j], c);
        }
        let (ts, c2) = adc(t[s], c, 0);
        t[s - 1] = ts;
        t[s] = t[s + 1] + c2;
        debug_assert!(t[s] <= 1);
    }
    sub_mod_final(out, &t[..s], t[s], m);
}

/// Kernel: `cios`.
/// Leaks: nothing but the lengths (constant time).
pub struct Cios;

impl MontKernel for Cios {
    const NAME: &'static str = "montgomery-cios";
    const KIND: crate::reduce::ReducerKind = crate::reduce::ReducerKind::MontgomeryCios;
    const SUMMARY: &'static str = "Coarsely Integrated Operand Scanning; Koç–Acar–Kaliski 1996 §5";
    fn scratch_len(k: usize) -> usize {
        k + 2
    }
    fn mul(p: &MontParams, out: &mut [Limb], a: &[Limb], b: &[Limb], scratch: &mut [Limb]) {
        cios(out, a, b, &p.m, p.n0, scratch)
    }
}

/// The `montgomery-cios` reducer.
pub type MontgomeryCios = Montgomery<Cios>;
/// Its listing.
pub const INFO: crate::reduce::ReducerInfo = MontgomeryCios::INFO;
