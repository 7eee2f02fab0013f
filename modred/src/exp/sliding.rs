//! `sliding`: sliding-window exponentiation over odd powers (HAC Algorithm 14.85; the method of
//! GMP's `mpz_powm` and OpenSSL's `BN_mod_exp_mont`).
//!
//! Precomputes g, g^3, ..., g^(2^w - 1) (2^(w-1) entries, one squaring and 2^(w-1) - 1
//! multiplications), then scans the exponent from the top: a zero bit costs a squaring; a set bit
//! opens a window of at most `w` bits ending in a set bit, which costs its length in squarings and
//! one multiplication by the odd power. The window size is chosen from the exponent length by
//! [`crate::tuning::sliding_window_bits`]. Variable time.

use super::Ops;
use crate::arith;
use crate::limb::Limb;
use crate::reduce::Reducer;

/// `base^exp mod m` with windows of at most `w` bits (1 <= w <= 16), `base < m` (k limbs);
/// returns k limbs `< m`. Variable time.
pub fn pow<R: Reducer + ?Sized>(r: &R, base: &[Limb], exp: &[Limb], w: usize) -> Vec<Limb> {
    assert!((1..=16).contains(&w), "window size must be 1..=16");
    let mut ops = Ops::new(r);
    let bits = arith::bit_len(exp);
    if bits == 0 {
        return ops.one_plain();
    }
    let w = w.min(bits);
    let g = ops.enter(base);
    // odd[i] = g^(2i + 1).
    let mut odd = Vec::with_capacity(1 << (w - 1));
    odd.push(g);
    if w > 1 {
        let mut g2 = vec![0; r.len()];
        ops.sqr(&mut g2, &odd[0]);
        for i in 1..1usize << (w - 1) {
            let mut t = vec![0; r.len()];
            ops.mul(&mut t, &odd[i - 1], &g2);
            odd.push(t);
        }
    }
    let mut acc: Option<Vec<Limb>> = None;
    // Invariant: acc = g^(exp >> (i + 1)) (None while that is 1).
    let mut i = bits as isize - 1;
    while i >= 0 {
        let iu = i as usize;
        if !arith::bit(exp, iu) {
            if let Some(a) = acc.as_mut() {
                ops.sqr_in_place(a);
            }
            i -= 1;
            continue;
        }
        // Window [j, iu]: at most w bits, lowest bit set.
        let mut j = (i - w as isize + 1).max(0) as usize;
        while !arith::bit(exp, j) {
            j += 1;
        }
        let len = iu - j + 1;
        let value = super::window::digit(exp, j, len);
        debug_assert!(value & 1 == 1);
        match acc.as_mut() {
            None => acc = Some(odd[value >> 1].clone()),
            Some(a) => {
                for _ in 0..len {
                    ops.sqr_in_place(a);
                }
                ops.mul_in_place(a, &odd[value >> 1]);
            }
        }
        i = j as isize - 1;
    }
    ops.leave(&acc.expect("exponent is non-zero"))
}
