//! `montgomery-cihs`: Coarsely Integrated Hybrid Scanning (Koç, Acar, Kaliski, *Analyzing and
//! Comparing Montgomery Multiplication Algorithms*, IEEE Micro 1996, §8).
//!
//! A modification of SOS that needs only s + 2 words for t: the first i-loop accumulates the
//! lower half of a b (products a_j b_i with i + j < s, operand scanning); the second i-loop
//! reduces one word with shift (m = t_0 n'0) and then adds the column s + i of a b
//! (product scanning) into the top words `t[s-1]`, `t[s]`, `t[s+1]`.
//! 2s^2 + s multiplications, s + 3 words of temporary space.

use super::{MontKernel, MontParams, Montgomery};
use crate::arith::sub_mod_final;
use crate::limb::{adc, mac, mul_lo, mul_wide, Limb};

/// CIHS Montgomery product `out = a b R^{-1} mod m` for `a, b < m`; `t` has s + 2 limbs.
///
/// The paper writes `t[s+1] := C` in the column loop; a column can carry more than once into
/// t[s+1] (up to s - 1 products are added there), so this accumulates `t[s+1] += C` instead.
/// Output `< m`.
/// Leaks: nothing but the lengths (constant time). Reference: Koç–Acar–Kaliski 1996 §8, Fig. 3.
pub(crate) fn cihs(out: &mut [Limb], a: &[Limb], b: &[Limb], n: &[Limb], n0: Limb, t: &mut [Limb]) {
    let s = n.len();
    debug_assert!(a.len() == s && b.len() == s && t.len() >= s + 2);
    let t = &mut t[..s + 2];
    t.fill(0);
    // First loop: the right half of the partial products (i + j <= s - 1).
    for i in 0..s {
        let mut c = 0;
        for j in 0..s - i {
            (t[i + j], c) = mac(a[j], b[i], t[i + j], c);
        }
        let (ts, c2) = adc(t[s], c, 0);
        t[s] = ts;
        t[s + 1] += c2;
    }
    // Second loop: reduce one word with shift, then add column s + i of a b at t[s-1].
    for i in 0..s {
        let mi = mul_lo(t[0], n0);
        let (_, mut c) = mac(mi, n[0], t[0], 0);
        for j in 1..s {
            (t[j - 1], c) = mac(mi, n[j], t[j], c);
        }
        let (ts, c2) = adc(t[s], c, 0);
        t[s - 1] = ts;
        t[s] = t[s + 1] + c2;
        t[s + 1] = 0;
        for j in i + 1..s {
            let (lo, hi) = mul_wide(b[j], a[s - j + i]);
            let (x, c) = adc(t[s - 1], lo, 0);
            t[s - 1] = x;
            let (x, c) = adc(t[s], hi, c);
            t[s] = x;
            t[s + 1] += c;
        }
    }
    debug_assert!(t[s + 1] == 0 && t[s] <= 1);
    sub_mod_final(out, &t[..s], t[s], n);
}

/// Kernel: `cihs`.
/// Leaks: nothing but the lengths (constant time).
pub struct Cihs;

impl MontKernel for Cihs {
    const NAME: &'static str = "montgomery-cihs";
    const KIND: crate::reduce::ReducerKind = crate::reduce::ReducerKind::MontgomeryCihs;
    const SUMMARY: &'static str = "Coarsely Integrated Hybrid Scanning; Koç–Acar–Kaliski 1996 §8";
    fn scratch_len(k: usize) -> usize {
        k + 2
    }
    fn mul(p: &MontParams, out: &mut [Limb], a: &[Limb], b: &[Limb], scratch: &mut [Limb]) {
        cihs(out, a, b, &p.m, p.n0, scratch)
    }
}

/// The `montgomery-cihs` reducer.
pub type MontgomeryCihs = Montgomery<Cihs>;
/// Its listing.
pub const INFO: crate::reduce::ReducerInfo = MontgomeryCihs::INFO;
