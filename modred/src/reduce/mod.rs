//! Modular reduction methods behind one interface.
//!
//! A [`Reducer`] is a modulus context: built once per modulus (its precomputation), then used to
//! reduce, multiply and square many times. Each method works in its own *representation* of the
//! residues (Montgomery form x R mod m for the Montgomery family, the plain residue for the
//! others); [`Reducer::to_repr`] / [`Reducer::from_repr`] convert. Values in representation are
//! always k-limb slices holding a fully reduced residue (< m), k = number of limbs of m.
//!
//! The kernels take caller-provided scratch (`scratch.len() >= scratch_len()`) so hot loops
//! never allocate. [`crate::exp::Modulus`] wraps a reducer with allocation and checks for use
//! on [`Natural`]s.
//!
//! Every method is listed in [`REDUCERS`] with its name, restrictions and constructor; the CLI,
//! the tests and the benchmarks all iterate that table.

pub mod auto;
pub mod barrett;
pub mod classical;
pub mod diminished_radix;
pub mod lhl_l1;
pub mod lhl_l2;
pub mod montgomery;
pub mod table_add;
pub mod table_constant;
pub mod table_residue;

use crate::arith;
use crate::cpu::{self, Tier};
use crate::error::{Error, Result};
use crate::limb::Limb;
use crate::natural::Natural;
pub use crate::scan::{FusedArith, FusedPow};
use core::fmt;
use core::str::FromStr;

/// What a method's [`Reducer::reduce_wide`] computes, for callers converting back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WideResult {
    /// `x mod m`.
    Residue,
    /// `x R^{-1} mod m` with R = b^k (Montgomery reduction).
    MontgomeryReduced,
}

/// A modulus context for one reduction method. See the module docs for the conventions.
/// Each implementing type's doc has a `Leaks:` line for its `reduce_wide`, `mul` and `sqr`
/// (trait methods carry no `_vartime` suffix); [`Self::is_constant_time`] tells at run time.
/// (`len` is the modulus size in limbs, never zero, so there is no `is_empty`; `from_repr` is
/// the inverse of `to_repr`, hence its name.)
///
/// Panics: the kernels check the lengths of their slices (O(1)) and panic unless every value
/// in or out has k limbs and `reduce_wide`'s argument 2k (any length for `classical` and
/// `lhl-l1`). That values are below m is the caller's to keep (checking it would cost O(k)).
#[allow(clippy::len_without_is_empty, clippy::wrong_self_convention)]
pub trait Reducer: Send + Sync + fmt::Debug {
    /// The method's name (as listed in [`REDUCERS`] and accepted by the CLI).
    fn name(&self) -> &'static str;

    /// The modulus, k limbs with a non-zero top limb.
    fn modulus(&self) -> &[Limb];

    /// k, the modulus length in limbs.
    fn len(&self) -> usize {
        self.modulus().len()
    }

    /// Scratch limbs every kernel of this context needs.
    fn scratch_len(&self) -> usize;

    /// The representation of 1.
    fn one(&self) -> &[Limb];

    /// `out = repr(x)` for `x < m` (k limbs). Default: the plain residue itself (every method
    /// but the Montgomery family).
    fn to_repr(&self, out: &mut [Limb], x: &[Limb], _scratch: &mut [Limb]) {
        check_len(self.len(), &[out, x]);
        out.copy_from_slice(x)
    }

    /// `out = x` for `x` in representation (inverse of [`Self::to_repr`]).
    fn from_repr(&self, out: &mut [Limb], x: &[Limb], _scratch: &mut [Limb]) {
        check_len(self.len(), &[out, x]);
        out.copy_from_slice(x)
    }

    /// `out = a * b` in representation (for Montgomery: a b R^{-1} mod m). All k limbs, < m.
    /// Default: the separated method — the k x k product into `scratch[..2k]` (Karatsuba from
    /// its threshold), then [`Self::reduce_wide`] with the rest of the scratch, so
    /// `scratch_len()` must cover 2k limbs plus the larger of the Karatsuba scratch and what
    /// `reduce_wide` needs.
    /// Leaks (this default): what [`Self::reduce_wide`] leaks; the product is constant time
    /// below the Karatsuba threshold of the tier in use (`crate::arith::karatsuba_threshold`),
    /// variable time from it (Karatsuba
    /// branches on the signs of the half differences, found by an early-exit comparison, and its
    /// carries stop when they die; so does Toom-3 above it).
    fn mul(&self, out: &mut [Limb], a: &[Limb], b: &[Limb], scratch: &mut [Limb]) {
        check_len(self.len(), &[out, a, b]);
        let (t, rest) = scratch.split_at_mut(2 * self.len());
        arith::mul_karatsuba(t, a, b, rest);
        self.reduce_wide(out, t, rest);
    }

    /// `out = a^2` in representation. Default: the symmetric square, then
    /// [`Self::reduce_wide`] (as [`Self::mul`]).
    /// Leaks (this default): as [`Self::mul`]'s, with
    /// the squaring threshold.
    fn sqr(&self, out: &mut [Limb], a: &[Limb], scratch: &mut [Limb]) {
        check_len(self.len(), &[out, a]);
        let (t, rest) = scratch.split_at_mut(2 * self.len());
        arith::sqr_karatsuba(t, a, rest);
        self.reduce_wide(out, t, rest);
    }

    /// [`Self::mul`] without its O(1) length checks, for the library's exponentiation loops,
    /// whose buffers have k limbs by construction (a wrong length computes a wrong value).
    /// Default: [`Self::mul`].
    #[doc(hidden)]
    fn mul_unchecked(&self, out: &mut [Limb], a: &[Limb], b: &[Limb], scratch: &mut [Limb]) {
        self.mul(out, a, b, scratch)
    }

    /// [`Self::sqr`] without its length checks (see [`Self::mul_unchecked`]).
    #[doc(hidden)]
    fn sqr_unchecked(&self, out: &mut [Limb], a: &[Limb], scratch: &mut [Limb]) {
        self.sqr(out, a, scratch)
    }

    /// Reduce the 2k-limb argument `x` (destroyed), the operation the source papers' reduction
    /// tables time. Writes k limbs < m: `x mod m`, or `x R^{-1} mod m` for the Montgomery family
    /// (see [`Self::wide_result`]). `x` must pass [`Self::check_wide`].
    fn reduce_wide(&self, out: &mut [Limb], x: &mut [Limb], scratch: &mut [Limb]);

    /// Whether `mul`, `sqr`, `to_repr` and `from_repr` run in time independent of the operand
    /// values (only the modulus size may matter). Required by constant-time exponentiation.
    fn is_constant_time(&self) -> bool {
        false
    }

    /// `base^exp mod m` (plain residues, `base < m`, k limbs out, `< m`) by the scan `alg`
    /// (`crate::scan`), computed by a fused kernel specialised for this modulus size — the
    /// same algorithm as the scan over [`Self::mul`] and [`Self::sqr`] without the per-product
    /// dynamic dispatch and slice handling — or `None` when the reducer has none for this size
    /// (the default). Variable time, except `FusedPow::Ct`, which must keep constant time, and
    /// `FusedPow::PublicExp`, whose arithmetic must (it shows the exponent only).
    /// Panics if `alg`'s window is outside 1..=16 bits or `FusedPow::Ct`'s `exp_bits` is below
    /// the exponent's bit length.
    fn pow_fused(&self, _base: &[Limb], _exp: &[Limb], _alg: FusedPow) -> Option<Vec<Limb>> {
        None
    }

    /// The reducer's fused product arithmetic for this modulus on this CPU, for the
    /// table-based methods, or `None` (the default). Variable time is allowed.
    fn fused_arith(&self) -> Option<Box<dyn FusedArith>> {
        None
    }

    /// The kernel tier this context's products run on: the Montgomery family's chosen at
    /// construction, the others' the tier in use ([`cpu::tier`], the default).
    fn tier(&self) -> Tier {
        cpu::tier()
    }

    /// What [`Self::reduce_wide`] returns.
    fn wide_result(&self) -> WideResult {
        WideResult::Residue
    }

    /// Whether `x` (any length, trimmed or not) is within what [`Self::reduce_wide`] accepts
    /// after zero-padding to 2k limbs. `Err` carries the human-readable restriction.
    /// Leaks (this default): variable time: the scan for the top non-zero limb stops at it.
    fn check_wide(&self, x: &[Limb]) -> core::result::Result<(), &'static str> {
        if arith::normalized_len(x) <= 2 * self.len() {
            Ok(())
        } else {
            Err("x must be below b^(2k) (2k limbs, k = limbs of m)")
        }
    }
}

/// Panics unless every slice of `values` has `k` limbs: the O(1) entry check of the
/// [`Reducer`] kernels, which would otherwise read a slice of another length as another number.
#[inline(always)]
#[track_caller]
pub(crate) fn check_len(k: usize, values: &[&[Limb]]) {
    // One branch for all of them.
    let differ = values.iter().fold(0, |acc, v| acc | (v.len() ^ k));
    assert!(differ == 0, "Reducer: values must have k = {k} limbs");
}

/// Panics unless `out` has `k` limbs and `x` 2k: the entry check of [`Reducer::reduce_wide`].
#[inline(always)]
#[track_caller]
pub(crate) fn check_wide_len(k: usize, out: &[Limb], x: &[Limb]) {
    assert!(
        out.len() == k && x.len() == 2 * k,
        "Reducer::reduce_wide: needs k = {k} limbs out and 2k in"
    );
}

/// The constructor of a [`ReducerInfo`]: modulus (trimmed, non-zero) and kernel tier.
pub type BuildFn = fn(&[Limb], Tier) -> Result<Box<dyn Reducer>>;

/// A reduction method: the typed key of [`REDUCERS`], whose names `FromStr` and `Display` use
/// (`"auto"`, `"montgomery-fast"`, ...).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum ReducerKind {
    /// `auto`: the fastest correct method for the modulus and workload ([`auto::choose`]).
    #[default]
    Auto,
    /// `classical`: Knuth's algorithm D.
    Classical,
    /// `barrett`.
    Barrett,
    /// `montgomery-redc`: product, then word-by-word REDC.
    MontgomeryRedc,
    /// `montgomery-sos`: Separated Operand Scanning.
    MontgomerySos,
    /// `montgomery-cios`: Coarsely Integrated Operand Scanning.
    MontgomeryCios,
    /// `montgomery-fast`: modred's default Montgomery arithmetic.
    MontgomeryFast,
    /// `montgomery-fios`: Finely Integrated Operand Scanning.
    MontgomeryFios,
    /// `montgomery-fips`: Finely Integrated Product Scanning.
    MontgomeryFips,
    /// `montgomery-cihs`: Coarsely Integrated Hybrid Scanning.
    MontgomeryCihs,
    /// `montgomery-bitserial`: the radix-2 reference.
    MontgomeryBitserial,
    /// `table-residue`: the residue table of Tanaka and Okamoto.
    TableResidue,
    /// `table-constant`: Kawamura's constant-multiplication table.
    TableConstant,
    /// `lhl-l1`: Lim–Hwang–Lee L1.
    LhlL1,
    /// `lhl-l2`: Lim–Hwang–Lee L2.
    LhlL2,
    /// `table-add-16x16`: addition-only lookup table.
    TableAdd16x16,
    /// `table-add-8x256`: addition-only lookup table.
    TableAdd8x256,
    /// `table-add-6x2048`: addition-only lookup table.
    TableAdd6x2048,
    /// `diminished-radix`: moduli 2^e - c.
    DiminishedRadix,
}

impl ReducerKind {
    /// The method's listing in [`REDUCERS`].
    pub fn info(self) -> &'static ReducerInfo {
        match self {
            ReducerKind::Auto => &auto::INFO,
            ReducerKind::Classical => &classical::INFO,
            ReducerKind::Barrett => &barrett::INFO,
            ReducerKind::MontgomeryRedc => &montgomery::redc::INFO,
            ReducerKind::MontgomerySos => &montgomery::sos::INFO,
            ReducerKind::MontgomeryCios => &montgomery::cios::INFO,
            ReducerKind::MontgomeryFast => &montgomery::fast::INFO,
            ReducerKind::MontgomeryFios => &montgomery::fios::INFO,
            ReducerKind::MontgomeryFips => &montgomery::fips::INFO,
            ReducerKind::MontgomeryCihs => &montgomery::cihs::INFO,
            ReducerKind::MontgomeryBitserial => &montgomery::bitserial::INFO,
            ReducerKind::TableResidue => &table_residue::INFO,
            ReducerKind::TableConstant => &table_constant::INFO,
            ReducerKind::LhlL1 => &lhl_l1::INFO,
            ReducerKind::LhlL2 => &lhl_l2::INFO,
            ReducerKind::TableAdd16x16 => &table_add::INFO_16X16,
            ReducerKind::TableAdd8x256 => &table_add::INFO_8X256,
            ReducerKind::TableAdd6x2048 => &table_add::INFO_6X2048,
            ReducerKind::DiminishedRadix => &diminished_radix::INFO,
        }
    }

    /// The method's name.
    pub fn name(self) -> &'static str {
        self.info().name
    }
}

impl fmt::Display for ReducerKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for ReducerKind {
    type Err = Error;
    /// The method listed as `name` in [`REDUCERS`].
    fn from_str(name: &str) -> Result<ReducerKind> {
        REDUCERS
            .iter()
            .find(|r| r.name == name)
            .map(|r| r.kind)
            .ok_or_else(|| Error::UnknownName {
                what: "reducer",
                name: name.to_string(),
                known: REDUCERS
                    .iter()
                    .map(|r| r.name)
                    .collect::<Vec<_>>()
                    .join(", "),
            })
    }
}

/// How a method is listed: the CLI's `modred methods`, the test suite and the benches use this.
pub struct ReducerInfo {
    /// The method.
    pub kind: ReducerKind,
    /// Name accepted by `--reducer` (the [`ReducerKind`]'s name).
    pub name: &'static str,
    /// Needs an odd modulus (Montgomery family).
    pub needs_odd: bool,
    /// Human-readable restriction on the argument of `reduce`.
    pub restriction: &'static str,
    /// One line: what the method is and where it comes from.
    pub summary: &'static str,
    /// The memory its context takes, for a modulus of k limbs (`modred methods` lists it).
    pub memory: &'static str,
    /// Build a context for modulus `m` (trimmed, non-zero) whose kernels run on the given tier
    /// (capped by the CPU; only the Montgomery family keeps one of its own, the others run on
    /// [`cpu::tier`]).
    pub build: BuildFn,
}

/// Every reduction method modred implements.
pub static REDUCERS: &[ReducerInfo] = &[
    auto::INFO,
    classical::INFO,
    barrett::INFO,
    montgomery::redc::INFO,
    montgomery::sos::INFO,
    montgomery::cios::INFO,
    montgomery::fast::INFO,
    montgomery::fios::INFO,
    montgomery::fips::INFO,
    montgomery::cihs::INFO,
    montgomery::bitserial::INFO,
    table_residue::INFO,
    table_constant::INFO,
    lhl_l1::INFO,
    lhl_l2::INFO,
    table_add::INFO_16X16,
    table_add::INFO_8X256,
    table_add::INFO_6X2048,
    diminished_radix::INFO,
];

/// Names of the methods that accept even moduli (for error messages).
pub fn even_capable_names() -> String {
    REDUCERS
        .iter()
        .filter(|r| !r.needs_odd)
        .map(|r| r.name)
        .collect::<Vec<_>>()
        .join(", ")
}

/// Validate a modulus for method `name`: non-zero, odd if the method needs it. Returns it
/// trimmed.
pub(crate) fn check_modulus<'a>(
    name: &'static str,
    needs_odd: bool,
    m: &'a [Limb],
) -> Result<&'a [Limb]> {
    let m = arith::trim(m);
    if m.is_empty() {
        return Err(Error::ZeroModulus);
    }
    if needs_odd && m[0] & 1 == 0 {
        return Err(Error::EvenModulus {
            reducer: name,
            accepting: even_capable_names(),
        });
    }
    Ok(m)
}

/// For the table reducers: a modulus (trimmed, non-zero) beyond [`crate::tuning::TABLE_MAX_BITS`]
/// is refused with [`Error::UnsupportedModulus`] naming the range, before anything is built;
/// within it, `table_limbs` (the table's size, computed without overflow by the caller) must
/// be reservable ([`Error::TooLarge`] otherwise).
pub(crate) fn check_table(name: &'static str, m: &[Limb], table_limbs: u128) -> Result<()> {
    let bits = arith::bit_len(m);
    let max = crate::tuning::TABLE_MAX_BITS;
    let bytes = table_limbs.saturating_mul(8);
    if bits > max {
        return Err(Error::UnsupportedModulus {
            reducer: name,
            reason: format!(
                "its table serves moduli of at most {max} bits (this one has {bits}; the table \
                 would take {bytes} bytes and long to build); use barrett or a montgomery method"
            ),
        });
    }
    crate::alloc::ensure_available(&format!("{name}'s table"), bytes)
}

/// Build the reducer `kind` for modulus `m` on the tier in use ([`cpu::tier`]).
pub fn build(kind: ReducerKind, m: &Natural) -> Result<Box<dyn Reducer>> {
    build_with_tier(kind, m, cpu::tier())
}

/// Build the reducer `kind` for modulus `m` with the kernels of `tier`, capped by what this
/// CPU has ([`cpu::cap`]; not by `MODRED_CPU`): tests run every tier of [`cpu::available`].
pub fn build_with_tier(kind: ReducerKind, m: &Natural, tier: Tier) -> Result<Box<dyn Reducer>> {
    let info = kind.info();
    let m = check_modulus(info.name, info.needs_odd, m.limbs())?;
    (info.build)(m, tier)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every listed method has its own kind, whose listing and name are its own, and the
    /// names parse back.
    #[test]
    fn kinds_and_names_match_the_listing() {
        for (i, r) in REDUCERS.iter().enumerate() {
            assert_eq!(r.kind.info().name, r.name);
            assert_eq!(r.kind.to_string(), r.name);
            assert_eq!(r.name.parse::<ReducerKind>(), Ok(r.kind));
            assert!(REDUCERS[..i]
                .iter()
                .all(|q| q.kind != r.kind && q.name != r.name));
        }
        assert!("no-such".parse::<ReducerKind>().is_err());
        assert_eq!(ReducerKind::default(), ReducerKind::Auto);
    }
}
