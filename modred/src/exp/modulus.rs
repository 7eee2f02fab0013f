//! The contexts [`Modulus`] (built once per modulus, shared across threads) and [`FixedBase`]
//! (precomputed tables for one base); one-off calls are [`super::oneoff`]'s.

use super::even::{reduce_below, EvenCtx};
use super::fixed_base::{self, Powers};
use super::method::{
    comb_entries, ct_reducers, is_constant_time, pow_with, pow_with_first, Method, PowOptions,
};
use super::{batch, comb, ct, inverse, Ops};
use crate::alloc::{bytes_of, ensure_available, ensure_work, Work};
use crate::cpu::{self, Tier};
use crate::error::{Error, Result};
use crate::limb::Limb;
use crate::natural::Natural;
use crate::reduce::{self, auto::Workload, Reducer, ReducerKind, WideResult};
use crate::tuning;
use std::sync::Arc;

/// The reducer `ct` uses with [`ReducerKind::Auto`] when the default one is not constant time
/// at this size: SOS (schoolbook product on the MULX/ADX rows, constant time at every size).
const CT_AUTO_REDUCER: ReducerKind = ReducerKind::MontgomerySos;

/// A modulus context built once and shared (`Clone + Send + Sync`) across threads and calls.
///
/// Leaks: its methods are variable time in their operands (the Montgomery ones through the
/// reducer's and the exponentiation method's leaks), except [`Self::pow_ct`] and `ct` through
/// [`Self::pow_vartime`], which see [`Self::pow_ct`]. Building it is variable time in m.
#[derive(Clone, Debug)]
pub struct Modulus {
    m: Natural,
    /// The reducer of m (None for m = 1). For an even m with `Auto`, Barrett (for
    /// mul/sqr/comb).
    r: Option<Arc<dyn Reducer>>,
    /// The CRT split, for an even m with [`ReducerKind::Auto`].
    even: Option<Arc<EvenCtx>>,
    /// The constant-time reducer for `ct` (odd m: the chosen reducer if constant time, else
    /// SOS with [`ReducerKind::Auto`], behind `r`'s fused constant-time kernels, see
    /// [`Self::ct_first`]; None otherwise).
    ct: Option<Arc<dyn Reducer>>,
    /// Built with [`ReducerKind::Auto`]: a one-limb m then exponentiates on the single-word
    /// products with [`Method::Auto`].
    auto: bool,
}

impl Modulus {
    /// Context for `m` with `reducer` ([`ReducerKind::Auto`] picks by size; even moduli then go
    /// through the CRT split), on the kernel tier in use ([`cpu::tier`]). Errors: m = 0, a
    /// Montgomery reducer with an even m, a special-form reducer with another modulus (m = 1
    /// is served by every reducer and method: 0).
    pub fn new(m: &Natural, reducer: ReducerKind) -> Result<Self> {
        Self::with_tier(m, reducer, cpu::tier())
    }

    /// [`Self::new`] with the Montgomery kernels of `tier`, capped by what this CPU has
    /// ([`cpu::cap`]; not by `MODRED_CPU`), for every product and exponentiation of the context
    /// (the other reducers run on [`cpu::tier`]). Tests run each tier of [`cpu::available`] in
    /// one process with it.
    pub fn with_tier(m: &Natural, reducer: ReducerKind, tier: Tier) -> Result<Self> {
        if m.is_zero() {
            return Err(Error::ZeroModulus);
        }
        ensure_work(Work::Context, m.len(), 0)?;
        if m.is_one() {
            // Everything is 0 mod 1, whatever the reducer (even a special-form one) or method:
            // only the options' ranges are checked before that answer.
            return Ok(Self {
                m: m.clone(),
                r: None,
                even: None,
                ct: None,
                auto: reducer == ReducerKind::Auto,
            });
        }
        let auto = reducer == ReducerKind::Auto;
        let (r, even): (Box<dyn Reducer>, _) = if auto {
            let r = (reduce::auto::choose(m.limbs(), Workload::Repeated).build)(m.limbs(), tier)?;
            let even = if m.is_odd() {
                None
            } else {
                Some(Arc::new(EvenCtx::new(m, ReducerKind::Auto, tier)?))
            };
            (r, even)
        } else {
            (reduce::build_with_tier(reducer, m, tier)?, None)
        };
        let r: Arc<dyn Reducer> = Arc::from(r);
        let ct = if !m.is_odd() {
            None
        } else if is_constant_time(&*r) {
            Some(r.clone())
        } else if auto {
            Some(Arc::from(reduce::build_with_tier(
                CT_AUTO_REDUCER,
                m,
                tier,
            )?))
        } else {
            None
        };
        Ok(Self {
            m: m.clone(),
            r: Some(r),
            even,
            ct,
            auto,
        })
    }

    /// The modulus.
    pub fn modulus(&self) -> &Natural {
        &self.m
    }

    /// The reducer in use (None for m = 1).
    pub fn reducer(&self) -> Option<&dyn Reducer> {
        self.r.as_deref()
    }

    /// `x mod m` for any `x`: by the reducer's own reduction when `x` is within its range (see
    /// [`Self::try_reduce_vartime`]), else by division. Errors: [`Error::TooLarge`] when the
    /// working memory cannot be reserved.
    /// Leaks: variable time: a comparison with m, then the reducer's or a division's.
    pub fn reduce_vartime(&self, x: &Natural) -> Result<Natural> {
        if x < &self.m {
            return Ok(x.clone());
        }
        self.ensure_work(Work::Product, &[x])?;
        match self.reduce_by_reducer(x) {
            Err(Error::ArgumentTooLarge { .. }) => Ok(x % &self.m),
            other => other,
        }
    }

    /// `x mod m` by the reducer's own reduction ([`Reducer::reduce_wide`], the operation the
    /// source papers time), or [`Error::ArgumentTooLarge`] when `x` is beyond its documented
    /// range ([`Reducer::check_wide`]: any x for classical, x < b^(2k) for Barrett, x < m R for
    /// the Montgomery family, which then converts x R^{-1} back with one more product), or
    /// [`Error::TooLarge`] when the working memory cannot be reserved.
    /// Leaks: the length of `x`, the range check, and the reducer's own leaks.
    pub fn try_reduce_vartime(&self, x: &Natural) -> Result<Natural> {
        self.ensure_work(Work::Product, &[x])?;
        self.reduce_by_reducer(x)
    }

    /// [`Self::try_reduce_vartime`] after its memory check.
    fn reduce_by_reducer(&self, x: &Natural) -> Result<Natural> {
        let Some(r) = self.r.as_deref() else {
            return Ok(Natural::zero());
        };
        r.check_wide(x.limbs())
            .map_err(|restriction| Error::ArgumentTooLarge {
                reducer: r.name(),
                restriction,
            })?;
        let k = r.len();
        // At least 2k limbs; longer only where check_wide allows it (classical takes any x).
        let mut wide = x
            .to_padded((2 * k).max(x.len()))
            .expect("at least its own length");
        let mut scratch = vec![0; r.scratch_len()];
        let mut out = vec![0; k];
        r.reduce_wide(&mut out, &mut wide, &mut scratch);
        if r.wide_result() == WideResult::MontgomeryReduced {
            // x R^{-1} -> x: one more Montgomery product with R^2 (= to_repr).
            let t = out.clone();
            r.to_repr(&mut out, &t, &mut scratch);
        }
        Ok(Natural::from_limbs(out))
    }

    /// [`ensure_work`] for `work` on this modulus and `operands`, with the reducer's scratch.
    fn ensure_work(&self, work: Work, operands: &[&Natural]) -> Result<()> {
        let limbs = operands
            .iter()
            .map(|x| x.len())
            .fold(self.m.len(), usize::max);
        let scratch = self.r.as_deref().map_or(0, |r| r.scratch_len());
        ensure_work(work, limbs, scratch)
    }

    fn k_residue(&self, r: &dyn Reducer, x: &Natural) -> Vec<Limb> {
        reduce_below(x, r.modulus())
    }

    /// `a b mod m` (any a, b) by the reducer. Errors: [`Error::TooLarge`] when the working
    /// memory cannot be reserved.
    /// Leaks: variable time: the reductions of `a` and `b` below m (a comparison, a division
    /// when `>= m`), and the reducer's product's own leaks.
    pub fn mul_vartime(&self, a: &Natural, b: &Natural) -> Result<Natural> {
        let Some(r) = self.r.as_deref() else {
            return Ok(Natural::zero());
        };
        self.ensure_work(Work::Product, &[a, b])?;
        let (a, b) = (self.k_residue(r, a), self.k_residue(r, b));
        let mut ops = Ops::new(r);
        let ar = ops.enter(&a);
        let mut out = vec![0; r.len()];
        // mul(repr(a), b) = a b in every representation.
        ops.mul(&mut out, &ar, &b);
        Ok(Natural::from_limbs(out))
    }

    /// `a^2 mod m` (any a) by the reducer's squaring. Errors: as [`Self::mul_vartime`].
    /// Leaks: variable time, as [`Self::mul_vartime`].
    pub fn sqr_vartime(&self, a: &Natural) -> Result<Natural> {
        let Some(r) = self.r.as_deref() else {
            return Ok(Natural::zero());
        };
        self.ensure_work(Work::Product, &[a])?;
        let a = self.k_residue(r, a);
        let mut ops = Ops::new(r);
        let ar = ops.enter(&a);
        let mut sq = vec![0; r.len()];
        ops.sqr(&mut sq, &ar);
        Ok(Natural::from_limbs(ops.leave(&sq)))
    }

    /// `base^exp mod m` with `opts.method` (opts.reducer is ignored: this context's reducer is
    /// used; with [`ReducerKind::Auto`] and [`Method::Auto`] a one-limb m takes the single-word
    /// products of [`crate::word`], as the one-off [`super::pow_vartime`] does).
    /// Leaks: as [`Self::pow_ct`] for [`Method::Ct`]; otherwise variable time, as the method's.
    pub fn pow_vartime(&self, base: &Natural, exp: &Natural, opts: &PowOptions) -> Result<Natural> {
        opts.validate()?;
        let Some(r) = self.r.as_deref() else {
            return Ok(Natural::zero());
        };
        if let (true, Method::Auto, &[m0]) = (self.auto, opts.method, self.m.limbs()) {
            return super::oneoff::pow_one_limb(base, exp, m0);
        }
        self.ensure_work(Work::Power, &[base])?;
        if let Some(even) = &self.even {
            if opts.method == Method::Ct {
                return Err(Error::InvalidParameter(
                    "method 'ct' needs an odd modulus (constant-time Montgomery arithmetic)"
                        .to_string(),
                ));
            }
            let method = opts.method;
            return even.pow(base, exp, &|r, b, e| pow_with(r, method, b, e, opts));
        }
        if opts.method == Method::Ct {
            let Some(ct) = self.ct.as_deref() else {
                return Err(self.ct_refusal(r));
            };
            let b = self.k_residue(ct, base);
            return pow_with_first(self.ct_first(), ct, Method::Ct, &b, exp.limbs(), opts)
                .map(Natural::from_limbs);
        }
        let b = self.k_residue(r, base);
        pow_with(r, opts.method, &b, exp.limbs(), opts).map(Natural::from_limbs)
    }

    fn ct_refusal(&self, r: &dyn Reducer) -> Error {
        Error::InvalidParameter(format!(
            "constant-time exponentiation needs an odd modulus and a constant-time reducer ({}; \"auto\" picks one); have '{}' and an {} modulus",
            ct_reducers(),
            r.name(),
            if self.m.is_odd() { "odd" } else { "even" }
        ))
    }

    /// `base^exp mod m` in constant time (see [`ct`]). Needs an odd m and a constant-time
    /// reducer ([`super::is_constant_time`] lists them; with [`ReducerKind::Auto`] the context's
    /// reducer when it is constant time, else its fused constant-time kernel where it has one
    /// for the size, else `montgomery-sos`).
    /// Leaks: the sizes of m and of the exponent (its limbs; padded to at least m's bits), and,
    /// before the constant-time scan, the base's length in limbs and whether it is below m (a
    /// full borrow chain, no early exit); a base `>= m` adds a variable-time division.
    pub fn pow_ct(&self, base: &Natural, exp: &Natural) -> Result<Natural> {
        if self.r.is_none() {
            return Ok(Natural::zero());
        }
        self.ensure_work(Work::Power, &[base])?;
        let ct = self.ct_reducer()?;
        let b = self.residue_for_ct(base);
        let exp_bits = self.ct_exp_bits(exp);
        let w = tuning::ct_window_bits(exp_bits);
        let x = ct::pow(self.ct_first(), &*ct, &b, exp.limbs(), exp_bits, w);
        Ok(Natural::from_limbs(x))
    }

    /// `(base^exp mod m, other_base^other_exp mod other)`, both in constant time, in one pass
    /// where a kernel runs the two together (see [`super::CtPair`], which keeps the pair's
    /// constants for repeated use). Errors: as [`Self::pow_ct`] for either modulus.
    /// Leaks: as [`Self::pow_ct`] for each.
    pub fn pow_ct_pair(
        &self,
        base: &Natural,
        exp: &Natural,
        other: &Modulus,
        other_base: &Natural,
        other_exp: &Natural,
    ) -> Result<[Natural; 2]> {
        if self.r.is_none() || other.r.is_none() {
            return Ok([
                self.pow_ct(base, exp)?,
                other.pow_ct(other_base, other_exp)?,
            ]);
        }
        super::CtPair::new(self, other)?.pow([base, other_base], [exp, other_exp])
    }

    /// The constant-time reducer of `pow_ct` (an error for m = 1, an even m or a reducer that
    /// is not constant time).
    pub(crate) fn ct_reducer(&self) -> Result<Arc<dyn Reducer>> {
        match (&self.r, &self.ct) {
            (_, Some(ct)) => Ok(ct.clone()),
            (Some(r), None) => Err(self.ct_refusal(&**r)),
            (None, None) => Err(Error::InvalidParameter(
                "constant-time exponentiation needs a modulus above 1".to_string(),
            )),
        }
    }

    /// The reducer whose fused constant-time kernels (`FusedPow::Ct` and `PublicExp`, constant
    /// time in the base by the [`Reducer::pow_fused`] contract) every constant-time exponentiation of this
    /// context tries before the constant-time reducer's ([`super::ct::pow`]): the
    /// context's reducer when `ct` runs on another one (with [`ReducerKind::Auto`], from the
    /// Karatsuba threshold: the AVX-512 IFMA kernels up to 129 limbs), else none.
    /// Leaks: nothing (the choice is made when the context is built).
    pub(crate) fn ct_first(&self) -> Option<&dyn Reducer> {
        match (&self.r, &self.ct) {
            (Some(r), Some(ct)) if !Arc::ptr_eq(r, ct) => Some(&**r),
            _ => None,
        }
    }

    /// `base mod m` as k limbs, for the constant-time scan (see [`Self::pow_ct`] for what it
    /// leaks). m must be above 1.
    pub(crate) fn residue_for_ct(&self, base: &Natural) -> Vec<Limb> {
        reduce_below(base, self.m.limbs())
    }

    /// The public length `pow_ct` scans `exp` over: `max(bits(m), bits(exp))` rounded up to a
    /// multiple of 64 (so at least `64 exp.len()`, and the exponent's bits are not read).
    pub(crate) fn ct_exp_bits(&self, exp: &Natural) -> usize {
        ct_scan_bits(self.m.len(), exp)
    }

    /// `base^(±exp) mod m` (Python's `pow(base, ±exp, m)` for a natural base): with
    /// `exp_negative`, the inverse of `base` raised to `exp` ([`Error::NotInvertible`] when
    /// gcd(base, m) != 1; m = 1 gives 0).
    /// Leaks: variable time (the inverse, and [`Self::pow_vartime`]'s).
    pub fn pow_signed_vartime(
        &self,
        base: &Natural,
        exp: &Natural,
        exp_negative: bool,
        opts: &PowOptions,
    ) -> Result<Natural> {
        opts.validate()?;
        if !exp_negative || exp.is_zero() || self.m.is_one() {
            return self.pow_vartime(base, exp, opts);
        }
        let inv = self.inverse_vartime(base)?;
        self.pow_vartime(&inv, exp, opts)
    }

    /// `a^{-1} mod m` ([`Error::NotInvertible`] if gcd(a, m) != 1).
    /// Leaks: variable time (Euclid's steps).
    pub fn inverse_vartime(&self, a: &Natural) -> Result<Natural> {
        self.ensure_work(Work::Inverse, &[a])?;
        inverse::inverse_vartime(a, &self.m)
    }

    /// `b^e mod m` for every pair, in parallel over the cores (rayon), sharing this context:
    /// one result per pair, or [`Error::Threads`] if no worker thread could be started.
    pub fn pow_many_vartime(&self, pairs: &[(Natural, Natural)]) -> Result<Vec<Result<Natural>>> {
        batch::pow_many_vartime(self, pairs)
    }

    /// [`Self::pow_ct`] of every pair, in parallel, eight at a time in the lanes of AVX-512
    /// IFMA where they serve m (see [`batch::pow_many_ct`]): one result per pair, or
    /// [`Error::Threads`] if no worker thread could be started.
    /// Leaks: as [`Self::pow_ct`] for each pair, and the exponents' lengths in limbs.
    pub fn pow_many_ct(&self, pairs: &[(Natural, Natural)]) -> Result<Vec<Result<Natural>>> {
        batch::pow_many_ct(self, pairs)
    }

    /// [`Self::pow_ct`]'s memory check for `base`.
    pub(crate) fn ensure_power_work(&self, base: &Natural) -> Result<()> {
        self.ensure_work(Work::Power, &[base])
    }

    /// Fixed-base context for `base`, serving exponents up to the bit length of m without
    /// falling back (see [`Self::fixed_base_bits`]).
    pub fn fixed_base(&self, base: &Natural) -> Result<FixedBase> {
        self.fixed_base_bits(base, self.m.bits())
    }

    /// Fixed-base context for `base` with tables for exponents of up to `max_exp_bits` bits;
    /// longer exponents fall back to [`Self::pow_vartime`].
    pub fn fixed_base_bits(&self, base: &Natural, max_exp_bits: usize) -> Result<FixedBase> {
        let bits = max_exp_bits.max(1);
        if let Some(r) = self.r.as_deref() {
            ensure_available(
                "the fixed base's tables",
                bytes_of(&[comb_entries(bits, None), r.len(), 8]),
            )?;
        }
        let tables = match self.r.as_deref() {
            None => None,
            Some(r) => {
                let b = self.k_residue(r, base);
                let (h, v) = tuning::comb_params(bits);
                let powers = Powers::new(r, &b, bits.div_ceil(h) * h);
                // Short of the comb's bits only when `Powers::new` was cancelled.
                let comb = comb::CombTable::new(r, &powers, bits, h, v).ok_or(Error::Cancelled)?;
                Some(Arc::new((powers, comb)))
            }
        };
        Ok(FixedBase {
            modulus: self.clone(),
            base: base.clone(),
            tables,
        })
    }
}

/// A fixed base with precomputed tables: the residues A^(2^i) (with period) of Prots'ko,
/// Gryshchuk, *The implementation of Montgomery modular reduction to speed up of modular
/// exponentiation*, CMIS-2024, §5, and the Lim–Lee comb built from them. `Clone + Send + Sync`.
/// Leaks: variable time (the period detection, and the exponent's bits in both methods).
#[derive(Clone, Debug)]
pub struct FixedBase {
    modulus: Modulus,
    base: Natural,
    tables: Option<Arc<(Powers, comb::CombTable)>>,
}

impl FixedBase {
    /// `base^exp mod m` by the comb (exponents longer than the tables fall back to
    /// [`Modulus::pow_vartime`]).
    /// Leaks: variable time: the exponent's bit length and comb columns.
    pub fn pow_vartime(&self, exp: &Natural) -> Result<Natural> {
        let (Some(t), Some(r)) = (&self.tables, self.modulus.r.as_deref()) else {
            return Ok(Natural::zero());
        };
        self.modulus.ensure_work(Work::Power, &[])?;
        match t.1.pow(r, exp.limbs()) {
            Some(x) => Ok(Natural::from_limbs(x)),
            None => self
                .modulus
                .pow_vartime(&self.base, exp, &PowOptions::default()),
        }
    }

    /// `base^exp mod m` by the method of Prots'ko–Gryshchuk 2024 §5: one multiplication per
    /// set bit, split among `threads` (1..=[`super::MAX_THREADS`]) worker threads.
    /// Leaks: variable time: the exponent's bit length and set bits.
    pub fn pow_threads_vartime(&self, exp: &Natural, threads: usize) -> Result<Natural> {
        super::check_threads(threads)?;
        let (Some(t), Some(r)) = (&self.tables, self.modulus.r.as_deref()) else {
            return Ok(Natural::zero());
        };
        // Each worker has its own scratch and accumulator.
        ensure_work(
            Work::Power,
            self.modulus.m.len(),
            threads.saturating_mul(r.scratch_len() + 2 * r.len()),
        )?;
        match fixed_base::pow(r, &t.0, exp.limbs(), threads) {
            Some(x) => Ok(Natural::from_limbs(x)),
            None => self
                .modulus
                .pow_vartime(&self.base, exp, &PowOptions::default()),
        }
    }

    /// The detected (offset u, period T') of A^(2^i), if any.
    pub fn period(&self) -> Option<(usize, usize)> {
        self.tables.as_ref().and_then(|t| t.0.period())
    }
}

/// [`Modulus::ct_exp_bits`] for a modulus of `m_limbs` limbs: `64 max(m_limbs, exp's limbs)`.
pub(crate) fn ct_scan_bits(m_limbs: usize, exp: &Natural) -> usize {
    64 * m_limbs.max(exp.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exp::CtPair;
    use crate::scan::ct::fused_log;

    /// Every constant-time exponentiation of an `Auto` context (`pow_ct`, `pow_vartime` with
    /// `Method::Ct`, the one-off `pow_vartime`, `CtPair`, `pow_ct_pair`) takes the context
    /// reducer's fused constant-time kernel where it serves the size, also past the Karatsuba
    /// threshold where `ct` runs on `montgomery-sos`: on the AVX-512 IFMA tier up to 129 limbs,
    /// on the adx tier up to 128 (`adx_mont`, x86-64 ELF), nowhere at 130 limbs or on the
    /// portable tier past 64 limbs. Results against num-bigint.
    #[test]
    fn every_ct_entry_takes_the_fused_kernel() {
        let mut s: u64 = 0x5eed_c7c7_0b1e_55ed;
        let mut rnd =
            |n: usize| -> Vec<Limb> { (0..n).map(|_| crate::limb::xorshift64(&mut s)).collect() };
        let fused_on = |tier: Tier, k: usize| {
            (tier == Tier::Ifma && k <= 129)
                || (cfg!(modred_adx_mont) && tier >= Tier::Adx && k <= 128)
        };
        let (mut ifma_runs, mut adx_runs) = (0, 0);
        for k in [65usize, 100, 128, 129, 130] {
            let odd = |rnd: &mut dyn FnMut(usize) -> Vec<Limb>| {
                let mut m = rnd(k);
                m[0] |= 1;
                m[k - 1] |= 1 << 63;
                Natural::from_limbs(m)
            };
            let (ma, mb) = (odd(&mut rnd), odd(&mut rnd));
            let below = |m: &Natural, x: Vec<Limb>| {
                Natural::from(&(Natural::from_limbs(x).to_biguint() % m.to_biguint()))
            };
            let (x, y) = (below(&ma, rnd(k)), below(&mb, rnd(k)));
            let (e, f) = (Natural::from_limbs(rnd(k)), Natural::from_limbs(rnd(k / 2)));
            let want = |b: &Natural, e: &Natural, m: &Natural| {
                Natural::from(&b.to_biguint().modpow(&e.to_biguint(), &m.to_biguint()))
            };
            let (want_a, want_b) = (want(&x, &e, &ma), want(&y, &f, &mb));
            let ct_opts = PowOptions {
                method: Method::Ct,
                ..PowOptions::default()
            };
            for tier in cpu::available() {
                let a = Modulus::with_tier(&ma, ReducerKind::Auto, tier).expect("odd");
                let b = Modulus::with_tier(&mb, ReducerKind::Auto, tier).expect("odd");
                // From the Karatsuba threshold `ct` runs on another reducer than the context's.
                assert_eq!(a.ct_first().is_some(), k >= 100, "{tier} k={k}");
                let fused = fused_on(tier, k);
                let what = |entry: &str| format!("{tier} k={k} {entry}");
                let (got, log_a) = fused_log(|| a.pow_ct(&x, &e).expect("odd m"));
                assert_eq!(got, want_a, "{}", what("pow_ct"));
                assert_eq!(!log_a.is_empty(), fused, "{}", what("pow_ct kernel"));
                let (got, log) = fused_log(|| a.pow_vartime(&x, &e, &ct_opts).expect("odd m"));
                assert_eq!(got, want_a, "{}", what("pow_vartime ct"));
                assert_eq!(!log.is_empty(), fused, "{}", what("pow_vartime ct kernel"));
                let (_, log_b) = fused_log(|| b.pow_ct(&y, &f).expect("odd m"));
                let pair = CtPair::new(&a, &b).expect("odd moduli");
                assert!(!pair.is_one_pass(), "{}", what("the pair kernel's sizes"));
                let (got, log) = fused_log(|| pair.pow([&x, &y], [&e, &f]).expect("ct"));
                assert_eq!(got, [want_a.clone(), want_b.clone()], "{}", what("CtPair"));
                // The pair runs each modulus's `pow_ct` schedule, one after the other.
                assert_eq!(log, [log_a, log_b].concat(), "{}", what("CtPair kernel"));
                let got = a.pow_ct_pair(&x, &e, &b, &y, &f).expect("ct");
                assert_eq!(
                    got,
                    [want_a.clone(), want_b.clone()],
                    "{}",
                    what("pow_ct_pair")
                );
                match tier {
                    Tier::Ifma => ifma_runs += usize::from(fused),
                    Tier::Adx => adx_runs += usize::from(fused),
                    Tier::Portable => assert!(!fused),
                }
            }
            // The one-off entry builds its context on the tier in use (`MODRED_CPU`).
            let (got, log) = fused_log(|| super::super::pow_vartime(&x, &e, &ma, &ct_opts));
            assert_eq!(got.expect("odd m"), want_a, "k={k} one-off ct");
            assert_eq!(
                !log.is_empty(),
                fused_on(cpu::tier(), k),
                "k={k} one-off ct kernel"
            );
        }
        if cpu::available().contains(&Tier::Ifma) {
            assert_eq!(ifma_runs, 4, "the IFMA kernel served 65 to 129 limbs");
        }
        if cfg!(modred_adx_mont) && cpu::available().contains(&Tier::Adx) {
            assert_eq!(adx_runs, 3, "adx_mont served 65 to 128 limbs");
        }
    }
}
