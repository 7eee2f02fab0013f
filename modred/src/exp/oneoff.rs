//! One-off exponentiation, `b^e mod m` with no context kept: the one place that picks the path
//! by the operands (the EVM's MODEXP, the CLI and Python come here; [`Modulus`] serves repeated
//! use of one modulus). With the default options, in this order:
//! 1. m = 1: 0; a modulus of one limb: the single-word products ([`crate::word`]: the
//!    Montgomery product of Bloemen, *Montgomery multiplication*, 2014, Möller–Granlund Barrett
//!    for even m), any exponent length;
//! 2. a power at most a few times longer than m: plain powering and one division
//!    ([`super::small_exp::pow_plain`]);
//! 3. e = 0 gives 1, a base reducing to 0 or 1 gives itself;
//! 4. an exponent of at most [`crate::tuning::CLASSICAL_POW_MAX_PRODUCTS`] products: products
//!    and Knuth's division, no precomputation ([`super::small_exp::pow_classical`]);
//! 5. an odd m: the reducer [`reduce::auto`] picks for repeated products (the fused kernels of
//!    the CPU's tier), [`Method::Auto`] over it; an even m: the CRT split of [`EvenCtx`].
//!
//! Any other options build a [`Modulus`] with them.

use super::even::{reduce_below, EvenCtx};
use super::method::{pow_with, Method, PowOptions};
use super::small_exp::{pow_classical, pow_plain};
use super::Modulus;
use crate::alloc::{ensure_work, Work};
use crate::cpu;
use crate::error::{Error, Result};
use crate::natural::Natural;
use crate::reduce::{self, auto::Workload, ReducerKind};
use crate::tuning;

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
pub(crate) fn pow_auto_vartime(base: &Natural, exp: &Natural, m: &Natural) -> Result<Natural> {
    if m.is_zero() {
        return Err(Error::ZeroModulus);
    }
    if let &[m0] = m.limbs() {
        let b = crate::word::residue_vartime(base, m0)?;
        return Ok(Natural::from(crate::word::pow_mod_limbs_vartime(
            b,
            exp.limbs(),
            m0,
        )));
    }
    // Plain powering's products reach POW_PLAIN_MAX_RATIO times m's length.
    let limbs = base.len().max(tuning::POW_PLAIN_MAX_RATIO * m.len());
    ensure_work(Work::Product, limbs, 0)?;
    if let Some(x) = pow_plain(base, exp, m) {
        return Ok(x);
    }
    let k = m.len();
    let b = reduce_below(base, m.limbs());
    let b_trim = crate::arith::trim(&b);
    if exp.is_zero() {
        return Ok(Natural::one()); // m > 1
    }
    if b_trim.len() <= 1 && b_trim.first().copied().unwrap_or(0) <= 1 {
        return Ok(Natural::from_limbs(b)); // 0^e = 0, 1^e = 1 for e > 0
    }
    if let Some(x) = pow_classical(b_trim, exp.limbs(), m.limbs()) {
        return Ok(Natural::from_limbs(x));
    }
    ensure_work(Work::Context, k, 0)?;
    ensure_work(Work::Power, k.max(base.len()), 0)?;
    let opts = PowOptions::default();
    let tier = cpu::tier();
    if m.is_odd() {
        let r = (reduce::auto::choose(m.limbs(), Workload::Repeated).build)(m.limbs(), tier)?;
        let x = pow_with(&*r, Method::Auto, &b, exp.limbs(), &opts)?;
        return Ok(Natural::from_limbs(x));
    }
    let even = EvenCtx::new(m, ReducerKind::Auto, tier)?;
    even.pow(base, exp, &|r, b, e| pow_with(r, Method::Auto, b, e, &opts))
}
