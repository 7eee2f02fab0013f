//! One-off exponentiation, `b^e mod m` with no context kept: the one place that picks the path
//! by the operands (the EVM's MODEXP, the CLI and Python come here; [`Modulus`] serves repeated
//! use of one modulus). With the default options, in this order:
//! 1. a modulus of one limb: the single-word products ([`crate::word`]: the Montgomery product
//!    of Bloemen, *Montgomery multiplication*, 2014, Möller–Granlund Barrett for even m), any
//!    exponent length;
//! 2. e = 0 gives 1; a base below m whose power stays below m: plain powering, no division
//!    (`small_exp::pow_plain`);
//! 3. a base reducing to 0 or 1 gives itself;
//! 4. an exponent of at most `tuning::CLASSICAL_POW_MAX_PRODUCTS` products: products and
//!    Knuth's division, no precomputation (`small_exp::pow_classical`); then a power at most
//!    a few times longer than m: plain powering and one division;
//! 5. an odd m: the reducer [`reduce::auto`] picks for repeated products (the fused kernels of
//!    the CPU's tier), [`Method::Auto`] over it; an even m = m_odd 2^t: for t <= 64 the CRT
//!    split with the power of two in single words and the odd part by this dispatcher, else
//!    [`EvenCtx`].
//!
//! Any other options build a [`Modulus`] with them.

use super::even::{reduce_below, EvenCtx};
use super::method::{pow_with, Method, PowOptions};
use super::small_exp::{pow_classical, pow_plain};
use super::Modulus;
use crate::alloc::{ensure_work, Work};
use crate::cpu;
use crate::error::{Error, Result};
use crate::limb::Limb;
use crate::natural::Natural;
use crate::reduce::{self, auto::Workload, ReducerKind};

/// `base^exp mod m` (Python's `pow(base, exp, m)` for naturals). Errors: m = 0, method
/// parameters out of range, a Montgomery reducer named for an even m (use
/// [`ReducerKind::Auto`]), `ct` with an even m or a reducer that is not constant time, working
/// memory that cannot be reserved, a cancellation.
/// Leaks: variable time, except `ct` (see [`Modulus::pow_ct`]); the operands' sizes pick the
/// path (module docs).
pub fn pow_vartime(
    base: &Natural,
    exp: &Natural,
    m: &Natural,
    opts: &PowOptions,
) -> Result<Natural> {
    opts.validate()?;
    if opts.method == Method::Auto && opts.reducer == ReducerKind::Auto {
        return pow_auto_vartime(base, exp, m);
    }
    Modulus::new(m, opts.reducer)?.pow_vartime(base, exp, opts)
}

/// `a * b mod m` computed once: the product, then one division (the single-word product for a
/// one-limb m). Nothing is kept for another call, so no reciprocal or Montgomery constant is
/// built beyond what this division needs (for repeated products with one modulus use
/// [`Modulus`]). Any `a`, `b`; the result is below m. Errors: m = 0, working memory that cannot
/// be reserved ([`Error::TooLarge`]).
/// Leaks: variable time: the operands' lengths and the division's data-dependent steps.
pub fn mul_mod_vartime(a: &Natural, b: &Natural, m: &Natural) -> Result<Natural> {
    if m.is_zero() {
        return Err(Error::ZeroModulus);
    }
    if let &[m0] = m.limbs() {
        use crate::word::{mul_mod_vartime, residue_vartime};
        return Ok(Natural::from(mul_mod_vartime(
            residue_vartime(a, m0)?,
            residue_vartime(b, m0)?,
            m0,
        )?));
    }
    ensure_work(Work::Product, a.len() + b.len(), 0)?;
    (a * b).rem_vartime(m)
}

/// `base^(±exp) mod m`: with `exp_negative`, the inverse of `base` raised to `exp`
/// ([`Error::NotInvertible`] when gcd(base, m) != 1).
/// Leaks: variable time (the inverse, and [`pow_vartime`]'s).
pub fn pow_signed_exp_vartime(
    base: &Natural,
    exp: &Natural,
    exp_negative: bool,
    m: &Natural,
    opts: &PowOptions,
) -> Result<Natural> {
    if !exp_negative || exp.is_zero() {
        return pow_vartime(base, exp, m, opts);
    }
    opts.validate()?;
    Modulus::new(m, opts.reducer)?.pow_signed_vartime(base, exp, exp_negative, opts)
}

/// [`pow_vartime`] with the default options: the paths of the module docs. Errors: m = 0,
/// working memory that cannot be reserved ([`Error::TooLarge`]). A cancelled result is
/// meaningless (the [`crate::cancel`] wrappers discard it).
/// Leaks: variable time: the operands' sizes and values pick the path, each path is variable
/// time.
fn pow_auto_vartime(base: &Natural, exp: &Natural, m: &Natural) -> Result<Natural> {
    pow_auto(base, exp, m, Memory::Check)
}

/// [`pow_auto_vartime`] for a caller that has reserved the working memory already (the EVM's
/// bound covers every path): no trial reservations, which cost a system call each.
/// Leaks: as [`pow_auto_vartime`].
pub(crate) fn pow_auto_reserved_vartime(
    base: &Natural,
    exp: &Natural,
    m: &Natural,
) -> Result<Natural> {
    pow_auto(base, exp, m, Memory::Reserved)
}

/// Whether the dispatcher makes its own trial reservations.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Memory {
    Check,
    Reserved,
}

impl Memory {
    fn ensure(self, work: Work, limbs: usize) -> Result<()> {
        match self {
            Memory::Check => ensure_work(work, limbs, 0),
            Memory::Reserved => Ok(()),
        }
    }
}

fn pow_auto(base: &Natural, exp: &Natural, m: &Natural, memory: Memory) -> Result<Natural> {
    if m.is_zero() {
        return Err(Error::ZeroModulus);
    }
    if let &[m0] = m.limbs() {
        return pow_one_limb(base, exp, m0);
    }
    let k = m.len();
    // The base's reduction and the classical products: at most a 2k-limb product.
    memory.ensure(Work::Product, base.len().max(2 * k))?;
    if exp.is_zero() {
        return Ok(Natural::one()); // m > 1
    }
    // Plain powering of a base below m whose power stays below m: no division at all (3^2 mod
    // a huge m: one one-limb product).
    if base < m
        && (base.bits() as u128).saturating_mul(exp.to_u64().map_or(u128::MAX, u128::from))
            < m.bits() as u128
    {
        if let Some(x) = pow_plain(base, exp, m, |limbs| memory.ensure(Work::Product, limbs))? {
            return Ok(x);
        }
    }
    let b = reduce_below(base, m.limbs());
    let b_trim = crate::arith::trim(&b);
    if b_trim.len() <= 1 && b_trim.first().copied().unwrap_or(0) <= 1 {
        return Ok(Natural::from_limbs(b)); // 0^e = 0, 1^e = 1 for e > 0
    }
    if let Some(x) = pow_classical(b_trim, exp.limbs(), m.limbs()) {
        return Ok(Natural::from_limbs(x));
    }
    if exp.len() == 1 {
        // Plain powering needs a one-limb exponent: copy the reduced base only then.
        let reduced = Natural::from_slice(b_trim);
        if let Some(x) = pow_plain(&reduced, exp, m, |limbs| {
            memory.ensure(Work::Product, limbs)
        })? {
            return Ok(x);
        }
    }
    memory.ensure(Work::Context, k)?;
    memory.ensure(Work::Power, k)?;
    let opts = PowOptions::default();
    let tier = cpu::tier();
    if m.is_odd() {
        let r = (reduce::auto::choose(m.limbs(), Workload::Repeated).build)(m.limbs(), tier)?;
        let x = pow_with(&*r, Method::Auto, &b, exp.limbs(), &opts)?;
        return Ok(Natural::from_limbs(x));
    }
    let t = m.trailing_zeros_vartime().expect("m != 0");
    if t <= 64 {
        return pow_even_word(b_trim, exp, m, t as u32, memory);
    }
    let even = EvenCtx::new(m, ReducerKind::Auto, tier)?;
    even.pow(&Natural::from_slice(b_trim), exp, &|r, b, e| {
        pow_with(r, Method::Auto, b, e, &opts)
    })
}

/// `base^exp mod m0` for a one-limb modulus `m0 >= 1` and an exponent of any length, on the
/// single-word products ([`crate::word`]); also [`Modulus`]'s path for such a modulus.
/// Leaks: variable time, as `word::pow_mod_limbs_vartime`.
pub(super) fn pow_one_limb(base: &Natural, exp: &Natural, m0: Limb) -> Result<Natural> {
    let b = crate::word::residue_vartime(base, m0)?;
    Ok(Natural::from(crate::word::pow_mod_limbs_vartime(
        b,
        exp.limbs(),
        m0,
    )))
}

/// `b^e mod m` for an even m = m_odd 2^t with 1 <= t <= 64, `b < m`, e > 0: the Chinese
/// remainder theorem with the power of two in single words (as [`EvenCtx`], which serves any
/// t, but with no context): x2 = b^e mod 2^t, x1 = b^e mod m_odd by this dispatcher (every
/// shortcut applies to the odd part: a base that is 0 or 1 modulo it costs one division), then
/// x = x1 + m_odd ((x2 - x1) m_odd^{-1} mod 2^t).
/// Leaks: variable time: as its two halves'.
fn pow_even_word(b: &[Limb], e: &Natural, m: &Natural, t: u32, memory: Memory) -> Result<Natural> {
    let m_odd = m >> t as usize;
    let mask = if t == 64 { Limb::MAX } else { (1 << t) - 1 };
    let x2 = pow_2t(b.first().copied().unwrap_or(0), e.limbs(), t, mask);
    if m_odd.is_one() {
        return Ok(Natural::from(x2));
    }
    let x1 = pow_auto(&Natural::from_slice(b), e, &m_odd, memory)?;
    // y = (x2 - x1) m_odd^{-1} mod 2^t; m_odd^{-1} mod 2^64 by Newton's iteration.
    let inv = crate::limb::neg_inv_newton(m_odd.limbs()[0]).wrapping_neg();
    let x1_low = x1.limbs().first().copied().unwrap_or(0);
    let y = x2.wrapping_sub(x1_low).wrapping_mul(inv) & mask;
    // x = x1 + m_odd y < m_odd 2^t = m.
    let x = &x1 + &(&m_odd * &Natural::from(y));
    debug_assert!(&x < m);
    Ok(x)
}

/// `b^e mod 2^t` for 1 <= t <= 64 (`mask` = 2^t - 1) and a trimmed `e > 0`: wrapping
/// single-word products. An odd b lies in the unit group of order 2^(t-1), so only
/// e mod 2^(t-1) matters; an even b with e v >= t (v = the twos in b mod 2^t) gives 0.
/// Leaks: variable time: the base's parity and twos, the exponent's bits.
fn pow_2t(b: Limb, e: &[Limb], t: u32, mask: Limb) -> Limb {
    let b = b & mask;
    let e_low = if b & 1 == 1 {
        e[0] & (mask >> 1)
    } else if b == 0 || e.len() > 1 || e[0] >= u64::from(t.div_ceil(b.trailing_zeros())) {
        // b^e has at least e v >= t factors of two (v = trailing zeros of b; none left for 0).
        return 0;
    } else {
        e[0]
    };
    // Left to right over e_low's bits, wrapping products (mod 2^64, then masked).
    let mut acc: Limb = 1;
    for i in (0..64 - e_low.leading_zeros()).rev() {
        acc = acc.wrapping_mul(acc);
        if (e_low >> i) & 1 == 1 {
            acc = acc.wrapping_mul(b);
        }
    }
    acc & mask
}
