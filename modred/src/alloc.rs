//! Checked allocation for memory whose size grows with the operands: the size is computed
//! first, without overflow, and reserved with `try_reserve`, so that a size this machine (or
//! its address-space limit) cannot hold is [`Error::TooLarge`] with the bytes it needs, never
//! an abort. Tables (of the table reducers, window tables, comb and fixed-base residues) are
//! checked at their size; every public operation first checks its working memory
//! ([`ensure_work`]) with one trial reservation of a measured bound, so that the many buffers
//! it then allocates (scratch, products, transforms, radix conversion) fit.

use crate::error::{Error, Result};
use crate::limb::Limb;

/// Bytes of `factors` multiplied together (limbs times 8, rows times limbs, ...), exactly.
pub(crate) fn bytes_of(factors: &[usize]) -> u128 {
    factors
        .iter()
        .fold(1u128, |acc, &f| acc.saturating_mul(f as u128))
}

fn too_large(what: &str, bytes: u128) -> Error {
    Error::TooLarge {
        what: what.to_string(),
        bytes,
    }
}

/// An empty vector with room for `n` items, or [`Error::TooLarge`] naming `what`.
pub(crate) fn vec_with_capacity<T>(what: &str, n: usize) -> Result<Vec<T>> {
    let bytes = bytes_of(&[n, core::mem::size_of::<T>()]);
    let mut v = Vec::new();
    v.try_reserve_exact(n).map_err(|_| too_large(what, bytes))?;
    Ok(v)
}

/// `n` zero limbs, or [`Error::TooLarge`] naming `what`.
pub(crate) fn zeroed(what: &str, n: usize) -> Result<Vec<Limb>> {
    let mut v = vec_with_capacity(what, n)?;
    v.resize(n, 0);
    Ok(v)
}

/// The unit of a trial reservation: page-aligned, so that a tool counting heap use (the
/// `mempeak` example) can tell trials from the buffers they guard.
#[repr(C, align(4096))]
pub(crate) struct TrialPage([u8; 4096]);

/// Whether `bytes` could be reserved now, for a structure made of many separate allocations
/// (a table of residues, each its own vector, or an operation's buffers): one trial
/// reservation of the total, released at once. Sizes below [`TRIAL_MIN_BYTES`] are not tried:
/// the trial would cost more than the work it guards.
pub(crate) fn ensure_available(what: &str, bytes: u128) -> Result<()> {
    if bytes < TRIAL_MIN_BYTES {
        return Ok(());
    }
    let pages = usize::try_from(bytes.div_ceil(4096)).map_err(|_| too_large(what, bytes))?;
    let mut trial: Vec<TrialPage> = Vec::new();
    trial
        .try_reserve_exact(pages)
        .map_err(|_| too_large(what, bytes))
}

/// The smallest reservation [`ensure_available`] tries.
const TRIAL_MIN_BYTES: u128 = 64 << 10;

/// What [`ensure_work`] adds to every bound it tries: the fixed part of the working memory
/// (transform tables of a minimum length, radix powers), measured at up to 450 KiB.
const WORK_FIXED_BYTES: u128 = 1 << 20;

/// Operations whose working memory [`ensure_work`] checks, each with its bound in bytes per
/// byte of its largest operand, plus [`WORK_FIXED_BYTES`]. Measured with the `mempeak`
/// example (the peak of live heap bytes during the operation over the operand's bytes, 2^10
/// to 2^22 bits, IFMA, ADX and portable tiers); each bound is above every ratio seen from 2^16
/// bits on, and the fixed part covers the higher ratios of smaller sizes.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Work {
    /// Building a modulus context (reducer constants, cached transforms, the even split):
    /// 67 from 2^18 bits on, 95 at 2^16 (ADX), 223 at 2^14 (IFMA: 446 KiB); on the portable
    /// tier up to 96 at 2^20 where the process's transform tables grow during it (after
    /// 6144-limb work: the 3 2^k transforms' twist tables and longer twiddle tables).
    Context,
    /// A product, square or reduction (products and transforms): 29; 32 reducing a 2k-limb x.
    Product,
    /// An exponentiation with its window table: 36 from 2^16 bits on, 100 at 2^14 with a
    /// full-size exponent.
    Power,
    /// The modular inverse (Lehmer steps and half-GCD: remainders, cofactors, matrices): 16 at
    /// 2^20-2^22 bits, 14 below.
    Inverse,
    /// Printing decimal: 102 from 2^18 bits on, 245 at 2^14 (portable: 490 KiB).
    Print,
    /// Parsing decimal, per byte of the number: 16 (the text's copy apart).
    Parse,
    /// Parsing hexadecimal: the number's limbs only (the text's copy apart).
    ParseHex,
}

impl Work {
    fn name(self) -> &'static str {
        match self {
            Work::Context => "modulus context",
            Work::Product => "product",
            Work::Power => "exponentiation",
            Work::Inverse => "inverse",
            Work::Print => "decimal conversion",
            Work::Parse | Work::ParseHex => "parsing",
        }
    }

    fn bytes_per_byte(self) -> u128 {
        match self {
            Work::Print => 128,
            Work::Context => 112,
            Work::Power => 48,
            Work::Product => 40,
            Work::Parse => 24,
            Work::Inverse => 20,
            Work::ParseHex => 1,
        }
    }
}

/// Whether `work` on operands of at most `limbs` limbs, plus `extra_limbs` (a reducer's own
/// scratch, which for the table reducers grows as k^2), can have the memory it needs:
/// [`ensure_available`] of its measured bound ([`Work`]) when that is at least
/// [`TRIAL_MIN_BYTES`].
pub(crate) fn ensure_work(work: Work, limbs: usize, extra_limbs: usize) -> Result<()> {
    let limb = core::mem::size_of::<Limb>();
    let bytes = bytes_of(&[limbs, limb])
        .saturating_mul(work.bytes_per_byte())
        .saturating_add(bytes_of(&[extra_limbs, limb]));
    if bytes < TRIAL_MIN_BYTES {
        return Ok(());
    }
    ensure_available(
        &format!("the {}'s working memory", work.name()),
        bytes.saturating_add(WORK_FIXED_BYTES),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn impossible_sizes_are_errors() {
        let e = zeroed("test table", usize::MAX / 8).unwrap_err();
        assert!(
            matches!(e, Error::TooLarge { bytes, .. } if bytes == (usize::MAX / 8 * 8) as u128)
        );
        assert!(ensure_available("t", bytes_of(&[usize::MAX, 3])).is_err());
        assert!(ensure_available("t", 1 << 50).is_err()); // 1 PiB
        assert!(ensure_available("t", 100).is_ok());
        assert!(ensure_available("t", 1 << 20).is_ok());
        assert!(ensure_work(Work::Context, usize::MAX / 64, 0).is_err());
        assert!(ensure_work(Work::Product, 1, usize::MAX).is_err());
        assert!(ensure_work(Work::Inverse, 1 << 10, 1 << 10).is_ok());
        assert_eq!(zeroed("t", 5).unwrap(), vec![0; 5]);
    }
}
