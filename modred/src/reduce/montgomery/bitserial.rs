//! `montgomery-bitserial`: radix-2 Montgomery reduction and multiplication (Prots'ko,
//! Gryshchuk, *The implementation of Montgomery modular reduction to speed up of modular
//! exponentiation*, CMIS-2024, Figs. 2 and 4), a readable reference: one bit per step, no n'0
//! needed.
//!
//! With R = 2^n, n = 64k (the same R as the word-level methods, so representations agree).
//! About 64 times slower than the word-level products; meant for checking and teaching.

use super::{MontKernel, MontParams, Montgomery};
use crate::arith::{add_n_in_place, shr_in_place, sub_mod_final};
use crate::limb::{Choice, Limb, LIMB_BITS};

/// `x += m` if `add`, else `x += 0`, over the k limbs of m, carrying into x[k..].
/// Leaks: nothing but the lengths (constant time: the carry runs through all of x[k..]).
fn add_masked(x: &mut [Limb], m: &[Limb], add: Choice, tmp: &mut [Limb]) {
    let k = m.len();
    for (t, &mi) in tmp.iter_mut().zip(m) {
        *t = mi & add.mask();
    }
    let c = add_n_in_place(&mut x[..k], &tmp[..k]);
    // x[k..] has room: callers keep x < 2m * 2^j, so the carry is absorbed in the next limb(s).
    let mut c = c;
    for xi in x[k..].iter_mut() {
        let (s, o) = xi.overflowing_add(c);
        *xi = s;
        c = o as Limb;
    }
    debug_assert_eq!(c, 0);
}

/// Radix-2 Montgomery reduction (Prots'ko–Gryshchuk 2024 Fig. 2): n = 64k times, if x is odd
/// add m, then halve. `x` (2k + 1 limbs, top limb 0, value < m R) is destroyed;
/// `out = x 2^{-n} mod m`. The figure returns x < 2m; the final subtraction here makes it `< m`.
/// Leaks: nothing but the lengths (constant time: the parity test is applied as a mask).
pub(crate) fn reduce_bitserial(out: &mut [Limb], x: &mut [Limb], m: &[Limb], tmp: &mut [Limb]) {
    let k = m.len();
    debug_assert!(x.len() == 2 * k + 1 && x[2 * k] == 0);
    for _ in 0..k * LIMB_BITS as usize {
        add_masked(x, m, Choice::from_bit(x[0] & 1), tmp);
        shr_in_place(x, 1);
    }
    // Now x < (mR + mR)/R = 2m.
    sub_mod_final(out, &x[..k], x[k], m);
}

/// Radix-2 Montgomery multiplication (Prots'ko–Gryshchuk 2024 Fig. 4): S = 0; for each bit x_i
/// of X (from the least significant): S += x_i Y; S += S_0 m; S /= 2. Invariant S < 2m; final
/// subtraction gives `out = X Y 2^{-n} mod m < m`. `s` has k + 1 limbs, `tmp` k limbs.
/// Leaks: nothing but the lengths (constant time: the bits of X and S_0 are applied as masks).
pub(crate) fn mul_bitserial(
    out: &mut [Limb],
    xa: &[Limb],
    y: &[Limb],
    m: &[Limb],
    s: &mut [Limb],
    tmp: &mut [Limb],
) {
    let k = m.len();
    let s = &mut s[..k + 1];
    s.fill(0);
    for i in 0..k * LIMB_BITS as usize {
        let bit = (xa[i / LIMB_BITS as usize] >> (i % LIMB_BITS as usize)) & 1;
        add_masked(s, y, Choice::from_bit(bit), tmp);
        add_masked(s, m, Choice::from_bit(s[0] & 1), tmp);
        shr_in_place(s, 1);
        debug_assert!(s[k] <= 1);
    }
    sub_mod_final(out, &s[..k], s[k], m);
}

/// Kernel: `mul_bitserial` and `reduce_bitserial`.
/// Leaks: nothing but the lengths (constant time).
pub struct BitSerial;

impl MontKernel for BitSerial {
    const NAME: &'static str = "montgomery-bitserial";
    const KIND: crate::reduce::ReducerKind = crate::reduce::ReducerKind::MontgomeryBitserial;
    const SUMMARY: &'static str =
        "radix-2 Montgomery reduction/multiplication, reference only; Prots'ko–Gryshchuk 2024 Figs. 2, 4";
    const MAX_BITS: Option<usize> = Some(crate::tuning::BITSERIAL_MAX_BITS);
    fn scratch_len(k: usize) -> usize {
        // s (k+1) + tmp (k) for mul; x copy (2k+1) + tmp (k) for redc.
        3 * k + 1
    }
    fn mul(p: &MontParams, out: &mut [Limb], a: &[Limb], b: &[Limb], scratch: &mut [Limb]) {
        let k = p.k();
        let (s, tmp) = scratch.split_at_mut(k + 1);
        mul_bitserial(out, a, b, &p.m, s, &mut tmp[..k]);
    }
    fn redc(p: &MontParams, out: &mut [Limb], x: &mut [Limb], scratch: &mut [Limb]) {
        let k = p.k();
        let (xx, tmp) = scratch.split_at_mut(2 * k + 1);
        xx[..2 * k].copy_from_slice(x);
        xx[2 * k] = 0;
        reduce_bitserial(out, xx, &p.m, &mut tmp[..k]);
    }
}

/// The `montgomery-bitserial` reducer.
pub type MontgomeryBitSerial = Montgomery<BitSerial>;
/// Its listing.
pub const INFO: crate::reduce::ReducerInfo = MontgomeryBitSerial::INFO;
