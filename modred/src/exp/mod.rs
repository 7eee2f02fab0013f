//! Modular exponentiation: every method of the seeds and beyond, over any [`Reducer`].
//!
//! Each method lives in its own file and is generic over `R: Reducer + ?Sized`, working in the
//! reducer's representation (`to_repr`, `mul`, `sqr`, `from_repr`), so every reduction method —
//! and any faster kernel implementing the trait — plugs in:
//! [`binary`] (left-to-right, seed 002 ModExp), [`binary_rl`], [`window`] (m-ary, seed 000
//! section 5), [`sliding`], [`ct`] (constant time), [`fixed_base`] (seed 004, multi-threaded),
//! [`comb`] (Lim–Lee), [`even`] (even moduli by CRT), [`batch`] (rayon), [`inverse`](mod@inverse).
//!
//! The public entry points follow Python's `pow(b, e, m)` for naturals: m = 0 is an error,
//! m = 1 gives 0, e = 0 gives 1 mod m, any base (0, >= m) works, and a negative exponent
//! ([`pow_signed_exp`]) uses the modular inverse.

pub mod batch;
pub mod binary;
pub mod binary_rl;
pub mod comb;
pub mod ct;
pub mod even;
pub mod fixed_base;
mod helpers;
pub mod inverse;
pub mod sliding;
pub mod table_window;
pub mod window;

pub use batch::pow_batch;
pub use inverse::{gcd, inverse};

use crate::error::{Error, Result};
use crate::limb::Limb;
use crate::natural::Natural;
use crate::reduce::{self, auto::Workload, Reducer};
use crate::tuning;
use even::{reduce_below, EvenCtx};
use fixed_base::Powers;
use std::sync::Arc;

/// Scratch-owning helper the methods share: the reducer's operations on owned buffers.
pub(crate) struct Ops<'a, R: ?Sized> {
    r: &'a R,
    scratch: Vec<Limb>,
    tmp: Vec<Limb>,
}

impl<'a, R: Reducer + ?Sized> Ops<'a, R> {
    pub(crate) fn new(r: &'a R) -> Self {
        Self {
            r,
            scratch: vec![0; r.scratch_len()],
            tmp: vec![0; r.len()],
        }
    }
    /// Representation of the plain residue `x < m` (k limbs).
    pub(crate) fn enter(&mut self, x: &[Limb]) -> Vec<Limb> {
        let mut out = vec![0; self.r.len()];
        self.r.to_repr(&mut out, x, &mut self.scratch);
        out
    }
    /// Plain residue of `x` in representation.
    pub(crate) fn leave(&mut self, x: &[Limb]) -> Vec<Limb> {
        let mut out = vec![0; self.r.len()];
        self.r.from_repr(&mut out, x, &mut self.scratch);
        out
    }
    /// 1 mod m as a plain residue.
    pub(crate) fn one_plain(&mut self) -> Vec<Limb> {
        let one = self.r.one().to_vec();
        self.leave(&one)
    }
    pub(crate) fn mul(&mut self, out: &mut [Limb], a: &[Limb], b: &[Limb]) {
        self.r.mul(out, a, b, &mut self.scratch);
    }
    pub(crate) fn sqr(&mut self, out: &mut [Limb], a: &[Limb]) {
        self.r.sqr(out, a, &mut self.scratch);
    }
    /// `acc = acc * b`.
    pub(crate) fn mul_in_place(&mut self, acc: &mut Vec<Limb>, b: &[Limb]) {
        self.r.mul(&mut self.tmp, acc, b, &mut self.scratch);
        core::mem::swap(acc, &mut self.tmp);
    }
    /// `acc = acc^2`.
    pub(crate) fn sqr_in_place(&mut self, acc: &mut Vec<Limb>) {
        self.r.sqr(&mut self.tmp, acc, &mut self.scratch);
        core::mem::swap(acc, &mut self.tmp);
    }
}

/// The arithmetic the exponentiation scans need, on values of type `Elem` in some
/// representation: implemented by the reducer-generic [`Ops`] (`Vec<Limb>`) and by fixed-size
/// fused kernels (`[Limb; N]` Montgomery in `reduce::montgomery::fast`), which share the scans
/// of [`sliding`], [`binary_rl`] and [`ct`].
pub(crate) trait ExpArith {
    /// A value in representation.
    type Elem: Clone;
    /// `a = a^2`.
    fn sqr_in_place(&mut self, a: &mut Self::Elem);
    /// `a = a b`.
    fn mul_in_place(&mut self, a: &mut Self::Elem, b: &Self::Elem);
}

impl<R: Reducer + ?Sized> ExpArith for Ops<'_, R> {
    type Elem = Vec<Limb>;
    fn sqr_in_place(&mut self, a: &mut Vec<Limb>) {
        Ops::sqr_in_place(self, a)
    }
    fn mul_in_place(&mut self, a: &mut Vec<Limb>, b: &Vec<Limb>) {
        Ops::mul_in_place(self, a, b)
    }
}

/// A reducer's own product arithmetic in a representation of its choosing (e.g. radix-2^52
/// digits for AVX-512 IFMA), for the table-based methods ([`comb`], [`fixed_base`]), whose
/// tables are imported once and reused. Obtained from [`Reducer::fused_arith`]; elements are
/// `Vec<u64>` of the arithmetic's own width.
pub trait FusedArith {
    /// `x` (the reducer's representation, k limbs, `< m`) in this arithmetic's representation.
    fn import(&mut self, x: &[Limb]) -> Vec<u64>;
    /// The plain residue (k limbs, `< m`) of an element.
    fn export_plain(&mut self, x: &[u64]) -> Vec<Limb>;
    /// `a = a b`.
    fn mul(&mut self, a: &mut Vec<u64>, b: &[u64]);
    /// `a = a^2`.
    fn sqr(&mut self, a: &mut Vec<u64>);
}

impl ExpArith for Box<dyn FusedArith> {
    type Elem = Vec<u64>;
    fn sqr_in_place(&mut self, a: &mut Vec<u64>) {
        self.sqr(a)
    }
    fn mul_in_place(&mut self, a: &mut Vec<u64>, b: &Vec<u64>) {
        self.mul(a, b)
    }
}

/// Which scan a reducer's fused fixed-size exponentiation ([`Reducer::pow_fused`]) runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FusedPow {
    /// [`sliding`] windows of at most `w` bits (1 <= w <= 16).
    Sliding {
        /// Window bits.
        w: usize,
    },
    /// [`binary_rl`]: right to left, the multiplications off the squarings' dependency chain.
    RightToLeft,
    /// [`binary`]: left-to-right square-and-multiply.
    Binary,
    /// [`window`]: fixed `w`-bit digits (1 <= w <= 16).
    Window {
        /// Digit bits.
        w: usize,
    },
    /// [`ct`]: the constant-time fixed window over `exp_bits` (>= the exponent's length)
    /// with `w`-bit digits; the fused kernel must be constant time too.
    Ct {
        /// Exponent bits scanned.
        exp_bits: usize,
        /// Window bits.
        w: usize,
    },
}

impl FusedPow {
    /// Whether the scan is the constant-time one (its arithmetic must be constant time too).
    pub(crate) fn is_constant_time(self) -> bool {
        matches!(self, FusedPow::Ct { .. })
    }

    /// `g^exp` by this scan on the arithmetic `ar`, with `one` the representation of 1
    /// (returned for a zero exponent). Timing as the scan's: variable, except `Ct`.
    #[inline(always)]
    pub(crate) fn run<A: ExpArith>(
        self,
        ar: &mut A,
        g: A::Elem,
        one: A::Elem,
        exp: &[Limb],
    ) -> A::Elem
    where
        A::Elem: AsRef<[Limb]> + AsMut<[Limb]>,
    {
        match self {
            FusedPow::Sliding { w } => sliding::run(ar, g, exp, w).unwrap_or(one),
            FusedPow::RightToLeft => binary_rl::scan(ar, g, exp).unwrap_or(one),
            FusedPow::Binary => binary::scan(ar, g, exp).unwrap_or(one),
            FusedPow::Window { w } => window::scan(ar, one.clone(), g, exp, w).unwrap_or(one),
            FusedPow::Ct { exp_bits, w } => {
                ct::scan(ar, one, g, exp, exp_bits, w, &mut ct::NoTrace)
            }
        }
    }
}

/// `base^exp mod m` (`base < m`, k limbs; returns k limbs `< m`) by the scan `alg`: the
/// reducer's fused path ([`Reducer::pow_fused`]) when it has one, else the same scan over
/// [`Ops`]. The shared body of [`sliding::pow`], [`binary::pow`], [`binary_rl::pow`] and
/// [`window::pow`].
pub(crate) fn pow_scan<R: Reducer + ?Sized>(
    r: &R,
    base: &[Limb],
    exp: &[Limb],
    alg: FusedPow,
) -> Vec<Limb> {
    if let Some(x) = r.pow_fused(base, exp, alg) {
        return x;
    }
    let mut ops = Ops::new(r);
    let g = ops.enter(base);
    let acc = alg.run(&mut ops, g, r.one().to_vec(), exp);
    ops.leave(&acc)
}

/// An exponentiation method.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Method {
    /// The fastest correct choice by the thresholds in [`crate::tuning`].
    #[default]
    Auto,
    /// Left-to-right square-and-multiply.
    Binary,
    /// Right-to-left square-and-multiply.
    BinaryRl,
    /// Fixed m-ary window.
    Window,
    /// Sliding window over odd powers.
    Sliding,
    /// Constant-time fixed window.
    Ct,
    /// Seed 004's fixed-base method with precomputed A^(2^i) and period detection.
    FixedBase,
    /// Lim–Lee fixed-base comb.
    Comb,
}

/// How a method is listed by `modred methods`.
pub struct MethodInfo {
    /// The name accepted by `--method`.
    pub name: &'static str,
    /// The method.
    pub method: Method,
    /// One line: what it is and where it comes from.
    pub summary: &'static str,
}

/// Every exponentiation method.
pub static METHODS: &[MethodInfo] = &[
    MethodInfo {
        name: "auto",
        method: Method::Auto,
        summary: "sliding window with the fastest reducer for the size; even moduli split by CRT",
    },
    MethodInfo {
        name: "binary",
        method: Method::Binary,
        summary: "left-to-right square-and-multiply (seed 002 ModExp)",
    },
    MethodInfo {
        name: "binary-rl",
        method: Method::BinaryRl,
        summary: "right-to-left square-and-multiply",
    },
    MethodInfo {
        name: "window",
        method: Method::Window,
        summary: "fixed m-ary window, default 4 bits = p 16 (seed 000 section 5)",
    },
    MethodInfo {
        name: "sliding",
        method: Method::Sliding,
        summary: "sliding window over odd powers, window from the exponent length",
    },
    MethodInfo {
        name: "ct",
        method: Method::Ct,
        summary: "constant-time fixed window, masked table scan (odd moduli, CIOS-type reducers)",
    },
    MethodInfo {
        name: "fixed-base",
        method: Method::FixedBase,
        summary:
            "precomputed A^(2^i) with period detection, set bits split over threads (seed 004)",
    },
    MethodInfo {
        name: "comb",
        method: Method::Comb,
        summary: "Lim-Lee fixed-base comb (table reusable across exponents)",
    },
];

impl Method {
    /// The method's name.
    pub fn name(self) -> &'static str {
        METHODS
            .iter()
            .find(|i| i.method == self)
            .expect("every method is listed")
            .name
    }

    /// The method called `name`.
    pub fn from_name(name: &str) -> Result<Method> {
        METHODS
            .iter()
            .find(|i| i.name == name)
            .map(|i| i.method)
            .ok_or_else(|| Error::UnknownName {
                what: "method",
                name: name.to_string(),
                known: METHODS
                    .iter()
                    .map(|i| i.name)
                    .collect::<Vec<_>>()
                    .join(", "),
            })
    }
}

/// Options of [`pow`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PowOptions {
    /// The method.
    pub method: Method,
    /// The reducer name (see [`crate::REDUCERS`]); "auto" picks by size and routes even moduli
    /// through [`even`].
    pub reducer: String,
    /// Window bits (window, sliding, ct) or teeth (comb), 1..=16; `None` picks by size.
    pub window: Option<usize>,
    /// Worker threads for fixed-base, >= 1; `None` = 1.
    pub threads: Option<usize>,
}

impl Default for PowOptions {
    fn default() -> Self {
        Self {
            method: Method::Auto,
            reducer: "auto".to_string(),
            window: None,
            threads: None,
        }
    }
}

impl PowOptions {
    /// Check the window and thread parameters.
    pub fn validate(&self) -> Result<()> {
        if let Some(w) = self.window {
            if !(1..=tuning::MAX_WINDOW_BITS).contains(&w) {
                return Err(Error::InvalidParameter(format!(
                    "window must be 1..={} bits (got {w})",
                    tuning::MAX_WINDOW_BITS
                )));
            }
        }
        if self.threads == Some(0) {
            return Err(Error::InvalidParameter(
                "threads must be at least 1 (got 0)".to_string(),
            ));
        }
        Ok(())
    }
}

/// Whether `r` runs in time independent of the operand values (needed by `ct`): the reducer's
/// own [`Reducer::is_constant_time`] (integrated or schoolbook Montgomery products with a masked
/// final subtraction; not FIOS's early-exit carries, Karatsuba's sign branches, or the
/// data-dependent corrections of classical/Barrett).
pub fn is_constant_time<R: Reducer + ?Sized>(r: &R) -> bool {
    r.is_constant_time()
}

/// The reducer `ct` uses with "auto" when the default one is not constant time at this size:
/// SOS (schoolbook product on the MULX/ADX rows, constant time at every size).
const CT_AUTO_REDUCER: &str = "montgomery-sos";

/// `base^exp mod m` by `method` over reducer `r`, for `base < m` (k limbs): k limbs `< m`.
/// `exp` is little-endian limbs. Fails only for `ct` over a non-constant-time reducer.
pub fn pow_with<R: Reducer + ?Sized>(
    r: &R,
    method: Method,
    base: &[Limb],
    exp: &[Limb],
    opts: &PowOptions,
) -> Result<Vec<Limb>> {
    opts.validate()?;
    let bits = crate::arith::bit_len(exp);
    Ok(match method {
        Method::Auto | Method::Sliding => sliding::pow(
            r,
            base,
            exp,
            opts.window
                .unwrap_or_else(|| tuning::sliding_window_bits(bits)),
        ),
        Method::Binary => binary::pow(r, base, exp),
        Method::BinaryRl => binary_rl::pow(r, base, exp),
        Method::Window => window::pow(
            r,
            base,
            exp,
            opts.window.unwrap_or(tuning::FIXED_WINDOW_BITS),
        ),
        Method::Ct => {
            if !is_constant_time(r) {
                return Err(Error::InvalidParameter(format!(
                    "method 'ct' needs a constant-time reducer (montgomery-cios, -sos, -fips, -cihs, or -fast/-redc below the Karatsuba thresholds), not '{}'",
                    r.name()
                )));
            }
            let exp_bits = bits.max(64 * exp.len());
            ct::pow(
                r,
                base,
                exp,
                exp_bits,
                opts.window
                    .unwrap_or_else(|| tuning::ct_window_bits(exp_bits)),
            )
        }
        Method::FixedBase => {
            let p = Powers::new(r, base, bits);
            fixed_base::pow(r, &p, exp, opts.threads.unwrap_or(1)).expect("covers exp")
        }
        Method::Comb => {
            let (h, v) = tuning::comb_params(bits);
            let h = opts.window.unwrap_or(h);
            let p = Powers::new(r, base, bits.max(1).div_ceil(h) * h);
            comb::CombTable::new(r, &p, bits, h, v)
                .pow(r, exp)
                .expect("covers exp")
        }
    })
}

/// `base^exp mod m` (Python's `pow(base, exp, m)` for naturals). Errors: m = 0, unknown
/// reducer or method parameters, a Montgomery reducer named for an even m (use "auto"),
/// `ct` with an even m or a reducer that is not constant time (other than "auto").
pub fn pow(base: &Natural, exp: &Natural, m: &Natural, opts: &PowOptions) -> Result<Natural> {
    opts.validate()?;
    if let Some(x) = pow_one_word(base, exp, m, opts) {
        return Ok(x);
    }
    Modulus::new(m, &opts.reducer)?.pow(base, exp, opts)
}

/// The default choices (`auto` method and reducer) for a one-limb modulus and exponent: the
/// single-word path ([`crate::word::pow_mod`]: seed 003's Montgomery, Barrett for even m),
/// without building a [`Modulus`], whose setup would cost more than the exponentiation
/// (measured with a 64-bit modulus and exponent, throwaway example: 626-635 ns through
/// `Modulus`, 297-312 ns here, GMP `mpz_powm` 394-426 ns). `None` for anything else.
fn pow_one_word(base: &Natural, exp: &Natural, m: &Natural, opts: &PowOptions) -> Option<Natural> {
    let (&[m0], [] | [_]) = (m.limbs(), exp.limbs()) else {
        return None;
    };
    if opts.method != Method::Auto || opts.reducer != "auto" {
        return None;
    }
    let e = exp.limbs().first().copied().unwrap_or(0);
    crate::word::pow_mod(crate::word::residue(base, m0), e, m0)
        .ok()
        .map(Natural::from)
}

/// `base^(±exp) mod m`: with `exp_negative`, the inverse of `base` raised to `exp`
/// ([`Error::NotInvertible`] when gcd(base, m) != 1).
pub fn pow_signed_exp(
    base: &Natural,
    exp: &Natural,
    exp_negative: bool,
    m: &Natural,
    opts: &PowOptions,
) -> Result<Natural> {
    if !exp_negative || exp.is_zero() {
        return pow(base, exp, m, opts);
    }
    opts.validate()?;
    let md = Modulus::new(m, &opts.reducer)?;
    let inv = md.inverse(base)?;
    md.pow(&inv, exp, opts)
}

/// A modulus context built once and shared (`Clone + Send + Sync`) across threads and calls.
#[derive(Clone, Debug)]
pub struct Modulus {
    m: Natural,
    /// The reducer of m (None for m = 1). For an even m with "auto", Barrett (for mul/sqr/comb).
    r: Option<Arc<dyn Reducer>>,
    /// The CRT split, for an even m with reducer "auto".
    even: Option<Arc<EvenCtx>>,
    /// The constant-time reducer for `ct` (odd m: the chosen reducer if constant time, else
    /// CIOS when the reducer is "auto"; None otherwise).
    ct: Option<Arc<dyn Reducer>>,
}

impl Modulus {
    /// Context for `m` with reducer `reducer` ("auto" picks by size; even moduli then go through
    /// the CRT split). Errors: m = 0, unknown reducer, Montgomery reducer with an even m.
    pub fn new(m: &Natural, reducer: &str) -> Result<Self> {
        let info = reduce::info(reducer)?;
        if m.is_zero() {
            return Err(Error::ZeroModulus);
        }
        if m.is_one() {
            return Ok(Self {
                m: m.clone(),
                r: None,
                even: None,
                ct: None,
            });
        }
        let (r, even): (Box<dyn Reducer>, _) = if info.name == "auto" {
            let r = (reduce::auto::choose(m.limbs(), Workload::Repeated).build)(m.limbs())?;
            let even = if m.is_odd() {
                None
            } else {
                Some(Arc::new(EvenCtx::new(m, "auto")?))
            };
            (r, even)
        } else {
            (reduce::build(info.name, m)?, None)
        };
        let r: Arc<dyn Reducer> = Arc::from(r);
        let ct = if !m.is_odd() {
            None
        } else if is_constant_time(&*r) {
            Some(r.clone())
        } else if info.name == "auto" {
            Some(Arc::from(reduce::build(CT_AUTO_REDUCER, m)?))
        } else {
            None
        };
        Ok(Self {
            m: m.clone(),
            r: Some(r),
            even,
            ct,
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

    /// `x mod m`.
    pub fn reduce(&self, x: &Natural) -> Natural {
        x % &self.m
    }

    fn k_residue(&self, r: &dyn Reducer, x: &Natural) -> Vec<Limb> {
        reduce_below(x, r.modulus())
    }

    /// `a b mod m` (any a, b) by the reducer.
    pub fn mul(&self, a: &Natural, b: &Natural) -> Natural {
        let Some(r) = self.r.as_deref() else {
            return Natural::zero();
        };
        let (a, b) = (self.k_residue(r, a), self.k_residue(r, b));
        let mut ops = Ops::new(r);
        let ar = ops.enter(&a);
        let mut out = vec![0; r.len()];
        // mul(repr(a), b) = a b in every representation.
        ops.mul(&mut out, &ar, &b);
        Natural::from_limbs(out)
    }

    /// `a^2 mod m`.
    pub fn sqr(&self, a: &Natural) -> Natural {
        self.mul(a, a)
    }

    /// `base^exp mod m` with `opts.method` (opts.reducer is ignored: this context's reducer is
    /// used).
    pub fn pow(&self, base: &Natural, exp: &Natural, opts: &PowOptions) -> Result<Natural> {
        opts.validate()?;
        let Some(r) = self.r.as_deref() else {
            return Ok(Natural::zero());
        };
        if let Some(even) = &self.even {
            if opts.method == Method::Ct {
                return Err(Error::InvalidParameter(
                    "method 'ct' needs an odd modulus (constant-time Montgomery arithmetic)"
                        .to_string(),
                ));
            }
            let method = opts.method;
            return Ok(even.pow(base, exp, &|r, b, e| {
                pow_with(r, method, b, e, opts).expect("validated; not ct")
            }));
        }
        if opts.method == Method::Ct {
            let Some(ct) = self.ct.as_deref() else {
                return Err(self.ct_refusal(r));
            };
            let b = self.k_residue(ct, base);
            return pow_with(ct, Method::Ct, &b, exp.limbs(), opts).map(Natural::from_limbs);
        }
        let b = self.k_residue(r, base);
        pow_with(r, opts.method, &b, exp.limbs(), opts).map(Natural::from_limbs)
    }

    fn ct_refusal(&self, r: &dyn Reducer) -> Error {
        Error::InvalidParameter(format!(
            "constant-time exponentiation needs an odd modulus and a constant-time reducer (montgomery-cios, -sos, -fips, -cihs, or \"auto\"); have '{}' and an {} modulus",
            r.name(),
            if self.m.is_odd() { "odd" } else { "even" }
        ))
    }

    /// `base^exp mod m` in constant time (see [`ct`]): only the sizes of m and of the exponent
    /// (padded to at least the bit length of m) may leak. Needs an odd m and a
    /// constant-time reducer ([`Reducer::is_constant_time`]; "auto" falls back to SOS). Reducing a base
    /// >= m first is variable time.
    pub fn pow_ct(&self, base: &Natural, exp: &Natural) -> Result<Natural> {
        let Some(r) = self.r.as_deref() else {
            return Ok(Natural::zero());
        };
        let Some(ct) = self.ct.as_deref() else {
            return Err(self.ct_refusal(r));
        };
        let b = self.k_residue(ct, base);
        let exp_bits = self.m.bits().max(exp.bits()).div_ceil(64) * 64;
        let w = tuning::ct_window_bits(exp_bits);
        Ok(Natural::from_limbs(ct::pow(
            ct,
            &b,
            exp.limbs(),
            exp_bits,
            w,
        )))
    }

    /// `a^{-1} mod m` ([`Error::NotInvertible`] if gcd(a, m) != 1).
    pub fn inverse(&self, a: &Natural) -> Result<Natural> {
        inverse::inverse(a, &self.m)
    }

    /// `b^e mod m` for every pair, in parallel over the cores (rayon), sharing this context.
    pub fn pow_many(&self, pairs: &[(Natural, Natural)]) -> Vec<Result<Natural>> {
        batch::pow_many(self, pairs)
    }

    /// Fixed-base context for `base`, serving exponents up to the bit length of m without
    /// falling back (see [`Self::fixed_base_bits`]).
    pub fn fixed_base(&self, base: &Natural) -> Result<FixedBase> {
        self.fixed_base_bits(base, self.m.bits())
    }

    /// Fixed-base context for `base` with tables for exponents of up to `max_exp_bits` bits;
    /// longer exponents fall back to [`Self::pow`].
    pub fn fixed_base_bits(&self, base: &Natural, max_exp_bits: usize) -> Result<FixedBase> {
        let bits = max_exp_bits.max(1);
        let tables = self.r.as_deref().map(|r| {
            let b = self.k_residue(r, base);
            let (h, v) = tuning::comb_params(bits);
            let powers = Powers::new(r, &b, bits.div_ceil(h) * h);
            let comb = comb::CombTable::new(r, &powers, bits, h, v);
            Arc::new((powers, comb))
        });
        Ok(FixedBase {
            modulus: self.clone(),
            base: base.clone(),
            tables,
        })
    }
}

/// A fixed base with precomputed tables: seed 004's residues A^(2^i) (with period) and the
/// Lim–Lee comb built from them. `Clone + Send + Sync`.
#[derive(Clone, Debug)]
pub struct FixedBase {
    modulus: Modulus,
    base: Natural,
    tables: Option<Arc<(Powers, comb::CombTable)>>,
}

impl FixedBase {
    /// `base^exp mod m` by the comb (exponents longer than the tables fall back to
    /// [`Modulus::pow`]).
    pub fn pow(&self, exp: &Natural) -> Result<Natural> {
        let (Some(t), Some(r)) = (&self.tables, self.modulus.r.as_deref()) else {
            return Ok(Natural::zero());
        };
        match t.1.pow(r, exp.limbs()) {
            Some(x) => Ok(Natural::from_limbs(x)),
            None => self.modulus.pow(&self.base, exp, &PowOptions::default()),
        }
    }

    /// `base^exp mod m` by seed 004's method: one multiplication per set bit, split among
    /// `threads` (>= 1) worker threads.
    pub fn pow_threads(&self, exp: &Natural, threads: usize) -> Result<Natural> {
        if threads == 0 {
            return Err(Error::InvalidParameter(
                "threads must be at least 1 (got 0)".to_string(),
            ));
        }
        let (Some(t), Some(r)) = (&self.tables, self.modulus.r.as_deref()) else {
            return Ok(Natural::zero());
        };
        match fixed_base::pow(r, &t.0, exp.limbs(), threads) {
            Some(x) => Ok(Natural::from_limbs(x)),
            None => self.modulus.pow(&self.base, exp, &PowOptions::default()),
        }
    }

    /// The detected (offset u, period T') of A^(2^i), if any.
    pub fn period(&self) -> Option<(usize, usize)> {
        self.tables.as_ref().and_then(|t| t.0.period())
    }
}
