//! `ct`: constant-time fixed-window exponentiation, for secret exponents (RSA private keys).
//!
//! The exponent is processed as exactly `ceil(exp_bits / w)` digits of `w` bits, where
//! `exp_bits` is a public length (the caller pads: [`super::Modulus::pow_ct`] uses
//! `max(bits(m), bits(exp))` rounded up to a multiple of 64, that is at least
//! `64 * limbs(exp)`). Every digit costs a scan of the *whole* table of 2^w
//! powers in which each entry is OR-ed in under a mask computed without branches
//! (`arith::ct_select`), `w` squarings and one multiplication — also for zero digits — except
//! the top digit, whose scanned entry is the start value. The table's even powers are squares
//! of earlier entries, its odd ones products with g.
//! (The masks come from SSE2 compares on x86-64, elsewhere through
//! `crate::limb::value_barrier`, so the compiler cannot turn the selection into a branch.)
//! So no branch and no memory address depends on the bits of the exponent or of the base; the
//! sequence of operations is recorded by [`pow_traced`] so the tests can check exactly that
//! (the fused kernels run the same scan; the unit tests record their schedules too).
//!
//! Timing depends only on the operand *sizes* (k limbs of m, the padded exponent length) and
//! requires a constant-time reducer, one whose [`crate::Reducer::is_constant_time`] holds (schoolbook or
//! integrated Montgomery products with the masked final subtraction `arith::sub_mod_final`;
//! [`super::is_constant_time`] lists them); [`super::pow_vartime`] refuses other reducers for `ct`, and
//! with [`crate::ReducerKind::Auto`] a [`super::Modulus`] runs `ct` on its reducer when that is
//! constant time, else on its reducer's fused constant-time kernel where it has one for the
//! size (AVX-512 IFMA, up to 129 limbs), else on `montgomery-sos` (`pow` here, for every
//! constant-time entry of the context). (The fused fixed-size kernels of
//! `montgomery-fast`, up to 8 limbs, keep residues below R = 2^(64k) instead of below m,
//! subtracting m under a mask of the product's carry-out, and reduce below m once at the end:
//! also no branch.) Reducing a base
//! `>= m` beforehand is a variable-time division (the base of an RSA operation is already < m).

use super::Ops;
use crate::arith;
use crate::error::{Error, Result};
use crate::limb::Limb;
use crate::reduce::Reducer;
use crate::scan::ct::{exp_bits_cover, scan};
pub use crate::scan::ct::{CtEvent, CtTrace, NoTrace};
use crate::scan::FusedPow;
use crate::tuning;

/// Panics unless `exp_bits >= bit_len(exp)`.
/// Leaks: as [`exp_bits_cover`].
fn check_exp_bits(exp: &[Limb], exp_bits: usize) {
    assert!(
        exp_bits_cover(exp, exp_bits),
        "exp_bits below the exponent's length"
    );
}

/// `base^exp mod m` in constant time (see the module docs) with `w`-bit digits (1 <= w <= 16)
/// over `exp_bits >= bit_len(exp)` bits on the constant-time reducer `r`, `base < m` (k limbs);
/// returns k limbs `< m`. The fused kernel of `first`, another reducer of the same m (a
/// [`super::Modulus`]'s own, see `Modulus::ct_first`), goes before `r`'s: the one path of every
/// constant-time exponentiation of a context (`pow_ct`, `pow_vartime`'s `ct`,
/// [`super::CtPair`]). The callers ([`super::pow_with`], [`super::Modulus`]) check the
/// parameters.
/// Leaks: nothing but the lengths, `exp_bits` and `w`, over a constant-time reducer: `first`'s
/// products may be variable time, but its `FusedPow::Ct` kernel is constant time by the
/// [`Reducer::pow_fused`] contract (whether it has one for the size depends on the lengths only).
pub(crate) fn pow<R: Reducer + ?Sized>(
    first: Option<&dyn Reducer>,
    r: &R,
    base: &[Limb],
    exp: &[Limb],
    exp_bits: usize,
    w: usize,
) -> Vec<Limb> {
    // Not the full `check`: comparing base with m would branch on the base's bits.
    debug_assert!((1..=tuning::MAX_WINDOW_BITS).contains(&w));
    check_exp_bits(exp, exp_bits);
    if let Some(x) = fused(first, r, base, exp, FusedPow::Ct { exp_bits, w }) {
        return x;
    }
    scan_traced(r, base, exp, exp_bits, w, &mut NoTrace)
}

/// The fused kernel of `first`, else of `r`, for `alg`, one of the scans whose arithmetic must
/// be constant time ([`FusedPow::is_constant_time`]), or `None` where neither has one for the size.
/// Leaks: as the kernel (constant time in the base; `PublicExp` shows the exponent).
fn fused<R: Reducer + ?Sized>(
    first: Option<&dyn Reducer>,
    r: &R,
    base: &[Limb],
    exp: &[Limb],
    alg: FusedPow,
) -> Option<Vec<Limb>> {
    debug_assert!(alg.is_constant_time());
    first
        .and_then(|f| f.pow_fused(base, exp, alg))
        .or_else(|| r.pow_fused(base, exp, alg))
}

/// `base^exp mod m` for a public exponent on a constant-time reducer `r`: the left-to-right
/// binary scan ([`FusedPow::PublicExp`]) over `r`'s constant-time products, fused where `first`
/// (another reducer of the same m, as in [`pow`]) or `r` has a kernel. `base < m` (k
/// limbs); returns k limbs `< m`. For RSA's public exponent applied to secret values (the
/// private operation's check, the blinding factor).
/// Leaks: the exponent's bits (public) and the lengths; nothing of the base, over a
/// constant-time reducer.
pub(crate) fn pow_public_exp<R: Reducer + ?Sized>(
    first: Option<&dyn Reducer>,
    r: &R,
    base: &[Limb],
    exp: &[Limb],
) -> Vec<Limb> {
    if let Some(x) = fused(first, r, base, exp, FusedPow::PublicExp) {
        return x;
    }
    let mut ops = Ops::new(r);
    let g = ops.enter(base);
    let acc = crate::scan::binary::scan(&mut ops, g, exp).unwrap_or_else(|| r.one().to_vec());
    ops.leave(&acc)
}

/// [`pow`] as it runs inside the library, without the parameter checks (which read the base):
/// for examples/ctgrind/main.rs and examples/dudect.rs, which mark or time the base. Not an API
/// (the `internals` feature); the caller keeps `pow`'s preconditions.
/// Leaks: as `pow`.
#[cfg(feature = "internals")]
#[doc(hidden)]
pub fn pow_unchecked<R: Reducer + ?Sized>(
    r: &R,
    base: &[Limb],
    exp: &[Limb],
    exp_bits: usize,
    w: usize,
) -> Vec<Limb> {
    pow(None, r, base, exp, exp_bits, w)
}

/// [`Error::InvalidParameter`] unless `1 <= w <= 16`, `exp_bits >= bit_len(exp)` and `base` is
/// a k-limb residue below m.
/// Leaks: nothing of the base (a full borrow chain) and of the exponent when `exp_bits >=
/// 64 exp.len()`; the answer shows.
fn check<R: Reducer + ?Sized>(
    r: &R,
    base: &[Limb],
    exp: &[Limb],
    exp_bits: usize,
    w: usize,
) -> Result<()> {
    let bad = |what: String| Err(Error::InvalidParameter(what));
    if !(1..=tuning::MAX_WINDOW_BITS).contains(&w) {
        return bad(format!(
            "window must be 1..={} bits (got {w})",
            tuning::MAX_WINDOW_BITS
        ));
    }
    if !exp_bits_cover(exp, exp_bits) {
        return bad(format!(
            "exp_bits {exp_bits} is below the exponent's {} bits",
            arith::bit_len(exp)
        ));
    }
    if base.len() != r.len() || !arith::lt_n_ct(base, r.modulus()).to_bool_vartime() {
        return bad(format!(
            "base must be a residue below m in {} limbs",
            r.len()
        ));
    }
    Ok(())
}

/// The portable scan of `pow` (never the fused kernels), reporting every step to `trace`,
/// so a caller can check that the sequence of operations does not depend on the exponent.
/// Errors: the parameters of `pow` out of range ([`Error::InvalidParameter`]).
/// Leaks: as `pow` (and the tracer's own work).
pub fn pow_traced<R: Reducer + ?Sized, T: CtTrace>(
    r: &R,
    base: &[Limb],
    exp: &[Limb],
    exp_bits: usize,
    w: usize,
    trace: &mut T,
) -> Result<Vec<Limb>> {
    check(r, base, exp, exp_bits, w)?;
    Ok(scan_traced(r, base, exp, exp_bits, w, trace))
}

fn scan_traced<R: Reducer + ?Sized, T: CtTrace>(
    r: &R,
    base: &[Limb],
    exp: &[Limb],
    exp_bits: usize,
    w: usize,
    trace: &mut T,
) -> Vec<Limb> {
    let mut ops = Ops::new(r);
    trace.event(CtEvent::ToRepr);
    let g = ops.enter(base);
    let acc = scan(&mut ops, r.one().to_vec(), g, exp, exp_bits, w, trace);
    trace.event(CtEvent::FromRepr);
    ops.leave(&acc)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cpu;
    use crate::natural::Natural;
    use crate::reduce;
    use crate::scan::ct::fused_log;

    fn big(x: &[Limb]) -> num_bigint::BigUint {
        Natural::from_slice(x).to_biguint()
    }

    /// The fused `ct` paths of `montgomery-fast` (fixed-size kernels for 1-8 limbs on every
    /// tier, MULX/ADX `adx_mont` and AVX-512 IFMA for 9-64 limbs, and `adx_mont`'s looped rows
    /// at 65 and 128 limbs on the adx tier) on every tier this CPU has:
    /// their schedule, recorded by the shared scan, is the same for every exponent and base,
    /// and the same as the reducer-generic [`pow_traced`]'s; results against num-bigint.
    #[test]
    fn fused_ct_trace_independent_of_exponent_and_base() {
        let mut s: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut rnd = || crate::limb::xorshift64(&mut s);
        let mut fused_runs = 0;
        for tier in cpu::available() {
            // adx_mont's looped rows at their two ends (the IFMA tier's kernel from 65 limbs
            // is the 9-64 one, run longer).
            let beyond: &[usize] = if tier == cpu::Tier::Adx {
                &[65, 128]
            } else {
                &[]
            };
            for k in (1..=8)
                .chain([9, 13, 16, 24, 32, 47, 64])
                .chain(beyond.iter().copied())
            {
                let mut m: Vec<Limb> = (0..k).map(|_| rnd()).collect();
                m[0] |= 1;
                m[k - 1] |= 1 << 63;
                let r = reduce::build_with_tier(
                    reduce::ReducerKind::MontgomeryFast,
                    &Natural::from_slice(&m),
                    tier,
                )
                .expect("odd modulus");
                let (exp_bits, w) = (64 * k, 3);
                let mut random = |top: Limb| -> Vec<Limb> {
                    let mut x: Vec<Limb> = (0..k).map(|_| rnd()).collect();
                    x[k - 1] %= top;
                    x
                };
                let mut ones = vec![Limb::MAX; k];
                let exps = [vec![0; k], ones.clone(), random(Limb::MAX), {
                    ones.fill(0);
                    ones[k - 1] = 1 << 63;
                    ones
                }];
                let bases = [vec![0; k], random(m[k - 1]), random(m[k - 1])];
                let mut generic: Vec<CtEvent> = Vec::new();
                pow_traced(&*r, &bases[1], &exps[2], exp_bits, w, &mut generic)
                    .expect("valid parameters");
                let generic = &generic[1..generic.len() - 1]; // without ToRepr, FromRepr
                for e in &exps {
                    for b in &bases {
                        let (got, log) = fused_log(|| pow(None, &*r, b, e, exp_bits, w));
                        assert_eq!(big(&got), big(b).modpow(&big(e), &big(&m)), "{tier} k={k}");
                        // Fused on every tier at these sizes: the fixed sizes to 8 limbs, then
                        // the portable engine, adx_mont or IFMA.
                        fused_runs += 1;
                        assert_eq!(log, generic, "{tier} k={k}: fused ct schedule");
                    }
                }
            }
        }
        assert!(
            fused_runs >= 8 * 12,
            "the fused paths ran ({fused_runs} runs)"
        );
    }
}
