//! `montgomery-fios`: Finely Integrated Operand Scanning (Koç, Acar, Kaliski, *Analyzing and
//! Comparing Montgomery Multiplication Algorithms*, IEEE Micro 1996, §6).
//!
//! One inner loop computes a_j b_i and m n_j together; the carry of the first product is pushed
//! into t[j+1] by the ADD function, the second carries on in C. 2s^2 + s multiplications,
//! 5s^2 + 3s + 2 additions, s + 3 words of temporary space.

use super::{MontKernel, MontParams, Montgomery};
use crate::arith::{add_1_in_place, sub_mod_final};
use crate::limb::{adc, mac, mul_lo, Limb};

/// FIOS Montgomery product `out = a b R^{-1} mod m` for `a, b < m`; `t` has s + 2 limbs.
/// Invariant at the top of iteration i: t < 2m. Output `< m`.
/// Leaks: variable time: the ADD carry propagation stops when the carry dies, so its length
/// depends on the operands; prefer CIOS for secrets.
/// Reference: Koç–Acar–Kaliski 1996 §6.
pub(crate) fn fios_vartime(
    out: &mut [Limb],
    a: &[Limb],
    b: &[Limb],
    m: &[Limb],
    n0: Limb,
    t: &mut [Limb],
) {
    let s = m.len();
    debug_assert!(a.len() == s && b.len() == s && t.len() >= s + 2);
    let t = &mut t[..s + 2];
    t.fill(0);
    for i in 0..s {
        // (C,S) := t[0] + a[0]*b[i]; ADD(t[1], C)
        let (s0, c) = mac(a[0], b[i], t[0], 0);
        add_1_in_place(&mut t[1..], c);
        let mi = mul_lo(s0, n0);
        let (_, mut c) = mac(mi, m[0], s0, 0);
        for j in 1..s {
            let (sj, c1) = mac(a[j], b[i], t[j], c);
            add_1_in_place(&mut t[j + 1..], c1);
            (t[j - 1], c) = mac(mi, m[j], sj, 0);
        }
        let (ts, c2) = adc(t[s], c, 0);
        t[s - 1] = ts;
        t[s] = t[s + 1] + c2;
        t[s + 1] = 0;
        debug_assert!(t[s] <= 1);
    }
    sub_mod_final(out, &t[..s], t[s], m);
}

/// Kernel: `fios_vartime`.
/// Leaks: variable time, as `fios_vartime`.
pub struct Fios;

impl MontKernel for Fios {
    const NAME: &'static str = "montgomery-fios";
    const KIND: crate::reduce::ReducerKind = crate::reduce::ReducerKind::MontgomeryFios;
    const SUMMARY: &'static str = "Finely Integrated Operand Scanning; Koç–Acar–Kaliski 1996 §6";
    fn scratch_len(k: usize) -> usize {
        k + 2
    }
    fn is_constant_time(_k: usize) -> bool {
        false // the ADD carry propagation stops early
    }
    fn mul(p: &MontParams, out: &mut [Limb], a: &[Limb], b: &[Limb], scratch: &mut [Limb]) {
        fios_vartime(out, a, b, &p.m, p.n0, scratch)
    }
}

/// The `montgomery-fios` reducer.
pub type MontgomeryFios = Montgomery<Fios>;
/// Its listing.
pub const INFO: crate::reduce::ReducerInfo = MontgomeryFios::INFO;
