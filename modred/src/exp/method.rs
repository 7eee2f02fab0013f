//! The choice of exponentiation method: [`Method`] and its listing [`METHODS`], the options
//! [`PowOptions`], and [`pow_with`], which runs a method over a reducer.

use super::fixed_base::Powers;
use super::{binary, binary_rl, comb, ct, fixed_base, sliding, window};
use crate::alloc::{bytes_of, ensure_available};
use crate::error::{Error, Result};
use crate::limb::Limb;
use crate::reduce::{Reducer, ReducerKind};
use crate::tuning;

/// An exponentiation method.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Method {
    /// The fastest correct choice by the thresholds in `crate::tuning`.
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
    /// The fixed-base method of Prots'ko, Gryshchuk, *The implementation of Montgomery modular
    /// reduction to speed up of modular exponentiation*, CMIS-2024, §5: precomputed A^(2^i)
    /// and period detection.
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
    /// The memory its tables take, for a modulus of k limbs.
    pub memory: &'static str,
}

/// Every exponentiation method.
pub static METHODS: &[MethodInfo] = &[
    MethodInfo {
        name: "auto",
        method: Method::Auto,
        summary: "sliding window with the fastest reducer for the size; even moduli split by CRT",
        memory: "2^(w-1) k limbs (odd powers; w <= 7 by the exponent's size)",
    },
    MethodInfo {
        name: "binary",
        method: Method::Binary,
        summary: "left-to-right square-and-multiply (Koç–Acar–Kaliski 1996 §2, ModExp)",
        memory: "O(k)",
    },
    MethodInfo {
        name: "binary-rl",
        method: Method::BinaryRl,
        summary: "right-to-left square-and-multiply",
        memory: "O(k)",
    },
    MethodInfo {
        name: "window",
        method: Method::Window,
        summary: "fixed m-ary window, default 4 bits = p 16 (Bosselaers et al. 1993 §5)",
        memory: "2^w k limbs (w = 4 unless --window)",
    },
    MethodInfo {
        name: "sliding",
        method: Method::Sliding,
        summary: "sliding window over odd powers, window from the exponent length",
        memory: "2^(w-1) k limbs (w <= 7 by size unless --window)",
    },
    MethodInfo {
        name: "ct",
        method: Method::Ct,
        summary: "constant-time fixed window, masked table scan (odd moduli, constant-time Montgomery reducers)",
        memory: "2^w k limbs (w <= 6 by size unless --window)",
    },
    MethodInfo {
        name: "fixed-base",
        method: Method::FixedBase,
        summary:
            "precomputed A^(2^i) with period detection, set bits split over threads (Prots'ko–Gryshchuk 2024 §5)",
        memory: "2 bits(e) k limbs (the residues A^(2^i), twice with a fused arithmetic)",
    },
    MethodInfo {
        name: "comb",
        method: Method::Comb,
        summary: "Lim-Lee fixed-base comb (table reusable across exponents)",
        memory: "2 (bits(e) + v 2^h) k limbs (h <= 8 teeth, v = 2 tables)",
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

/// Options of [`super::pow_vartime`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PowOptions {
    /// The method.
    pub method: Method,
    /// The reducer; [`ReducerKind::Auto`] picks by size and routes even moduli through
    /// `super::even`.
    pub reducer: ReducerKind,
    /// Window bits (window, sliding, ct), 1..=16, or teeth (comb), 1..=8; `None` picks by
    /// size.
    pub window: Option<usize>,
    /// Worker threads for fixed-base, 1..=[`MAX_THREADS`]; `None` = 1.
    pub threads: Option<usize>,
}

impl Default for PowOptions {
    fn default() -> Self {
        Self {
            method: Method::Auto,
            reducer: ReducerKind::Auto,
            window: None,
            threads: None,
        }
    }
}

impl PowOptions {
    /// Check the window and thread parameters.
    pub fn validate(&self) -> Result<()> {
        self.validate_for(self.method)
    }

    /// [`Self::validate`] for `method` in place of `self.method`.
    fn validate_for(&self, method: Method) -> Result<()> {
        if let Some(w) = self.window {
            if method == Method::Comb && !(1..=tuning::MAX_COMB_TEETH).contains(&w) {
                return Err(Error::InvalidParameter(format!(
                    "comb teeth (window) must be 1..={} (got {w})",
                    tuning::MAX_COMB_TEETH
                )));
            }
            if !(1..=tuning::MAX_WINDOW_BITS).contains(&w) {
                return Err(Error::InvalidParameter(format!(
                    "window must be 1..={} bits (got {w})",
                    tuning::MAX_WINDOW_BITS
                )));
            }
        }
        self.threads.map_or(Ok(()), check_threads)
    }
}

/// Most worker threads a fixed-base exponentiation may ask for (each is an OS thread).
pub const MAX_THREADS: usize = 1024;

/// `threads` checked for fixed-base: 1..=[`MAX_THREADS`].
pub fn check_threads(threads: usize) -> Result<()> {
    if (1..=MAX_THREADS).contains(&threads) {
        Ok(())
    } else {
        Err(Error::InvalidParameter(format!(
            "threads must be 1..={MAX_THREADS} (got {threads})"
        )))
    }
}

/// Bytes of the tables `method` builds for a k-limb modulus and a `bits`-bit exponent with
/// window (or comb teeth) `window` (None: the default for the size), beyond its O(k) working
/// values: the window powers, or the fixed-base and comb residues (counted twice: the fused
/// arithmetic keeps its own copy).
pub(crate) fn table_bytes(method: Method, k: usize, bits: usize, window: Option<usize>) -> u128 {
    let entries = match method {
        Method::Auto | Method::Sliding => {
            1 << (window.unwrap_or_else(|| tuning::sliding_window_bits(bits)) - 1)
        }
        Method::Window => 1 << window.unwrap_or(tuning::FIXED_WINDOW_BITS),
        Method::Ct => 1 << window.unwrap_or_else(|| tuning::ct_window_bits(bits)),
        Method::Binary | Method::BinaryRl => 2,
        Method::FixedBase => 2 * bits.max(1),
        Method::Comb => comb_entries(bits, window),
    };
    bytes_of(&[entries, k, 8])
}

/// Residues a comb for `bits`-bit exponents with `teeth` (None: by size) keeps: the residues
/// A^(2^i) (Prots'ko–Gryshchuk 2024) it is built from and its v 2^h table entries, twice (the
/// fused copy).
pub(crate) fn comb_entries(bits: usize, teeth: Option<usize>) -> usize {
    let bits = bits.max(1);
    let (h, v) = tuning::comb_params(bits);
    let h = teeth.unwrap_or(h);
    let residues = bits.div_ceil(h).saturating_mul(h);
    2usize.saturating_mul(residues.saturating_add(v.saturating_mul(1 << h)))
}

/// Whether `r` runs in time independent of the operand values (needed by `ct`): the reducer's
/// own [`Reducer::is_constant_time`]. This is the list of the reducers `ct` accepts (the other
/// docs and the refusals' messages point here): `montgomery-cios`, `-sos`, `-fips`, `-cihs` and
/// `-bitserial` at every size, and `montgomery-fast` and `-redc` below their schoolbook bound
/// (72 limbs, `tuning::MONT_SCHOOLBOOK_BELOW`), schoolbook or integrated Montgomery products
/// with the masked final subtraction. Never `montgomery-fios` (its ADD carries stop early), nor
/// the division-, Barrett-, table- or special-form reducers (data-dependent corrections).
pub fn is_constant_time<R: Reducer + ?Sized>(r: &R) -> bool {
    r.is_constant_time()
}

/// The reducers `ct` accepts, for the refusals' messages: the list of [`is_constant_time`].
pub(crate) fn ct_reducers() -> String {
    format!(
        "montgomery-cios, -sos, -fips, -cihs, -bitserial, or -fast/-redc below {} limbs",
        tuning::MONT_SCHOOLBOOK_BELOW
    )
}

/// `base^exp mod m` by `method` over reducer `r`, for `base < m` (k limbs): k limbs `< m`.
/// `exp` is little-endian limbs. Errors ([`Error::InvalidParameter`]): options out of range,
/// a base that is not a k-limb residue below m, `ct` over a non-constant-time reducer.
/// Leaks: for `ct`, nothing but the lengths of `base`, `exp` and m and the options, over a
/// constant-time reducer (the base check is a full borrow chain); for every other method
/// variable time, as that method's.
pub fn pow_with<R: Reducer + ?Sized>(
    r: &R,
    method: Method,
    base: &[Limb],
    exp: &[Limb],
    opts: &PowOptions,
) -> Result<Vec<Limb>> {
    pow_with_first(None, r, method, base, exp, opts)
}

/// [`pow_with`], whose `ct` tries the fused constant-time kernel of `first` (another reducer of
/// the same m: a [`super::Modulus`]'s own, see [`super::ct::pow`]) before `r`'s; the
/// other methods ignore `first`.
/// Leaks: as [`pow_with`].
pub(crate) fn pow_with_first<R: Reducer + ?Sized>(
    first: Option<&dyn Reducer>,
    r: &R,
    method: Method,
    base: &[Limb],
    exp: &[Limb],
    opts: &PowOptions,
) -> Result<Vec<Limb>> {
    opts.validate_for(method)?;
    // Constant time: `ct`'s base may be secret; only the answer, an error or not, shows.
    if base.len() != r.len() || !crate::arith::lt_n_ct(base, r.modulus()).to_bool_vartime() {
        return Err(Error::InvalidParameter(format!(
            "base must be a residue below m in {} limbs",
            r.len()
        )));
    }
    // `ct` never looks at the exponent's length in bits (the scan from its top limb would leak
    // its leading zero limbs): its padded length serves every size decision.
    let bits = if method == Method::Ct {
        64 * exp.len()
    } else {
        crate::arith::bit_len(exp)
    };
    ensure_available(
        &format!("the tables of method '{}'", method.name()),
        table_bytes(method, r.len(), bits.max(64 * exp.len()), opts.window),
    )?;
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
                    "method 'ct' needs a constant-time reducer ({}), not '{}'",
                    ct_reducers(),
                    r.name()
                )));
            }
            let exp_bits = bits.max(64 * exp.len());
            ct::pow(
                first,
                r,
                base,
                exp,
                exp_bits,
                opts.window
                    .unwrap_or_else(|| tuning::ct_window_bits(exp_bits)),
            )
        }
        // The residues fall short of the exponent only when `Powers::new` was cancelled.
        Method::FixedBase => {
            let p = Powers::new(r, base, bits);
            fixed_base::pow(r, &p, exp, opts.threads.unwrap_or(1)).ok_or(Error::Cancelled)?
        }
        Method::Comb => {
            let (h, v) = tuning::comb_params(bits);
            let h = opts.window.unwrap_or(h);
            let p = Powers::new(r, base, bits.max(1).div_ceil(h) * h);
            comb::CombTable::new(r, &p, bits, h, v)
                .and_then(|c| c.pow(r, exp))
                .ok_or(Error::Cancelled)?
        }
    })
}
