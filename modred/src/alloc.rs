//! Checked allocation for precomputations whose size grows with the operands (tables of the
//! table reducers, window tables, comb and fixed-base residues): the size is computed first,
//! without overflow, and reserved with `try_reserve`, so that a size this machine cannot hold
//! is [`Error::TooLarge`] with the bytes it needs, never an abort.

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

/// Whether `bytes` could be reserved now, for a structure made of many separate allocations
/// (a table of residues, each its own vector): one trial reservation of the total, released at
/// once. Sizes below 16 MiB are not tried (they cost the trial more than they risk).
pub(crate) fn ensure_available(what: &str, bytes: u128) -> Result<()> {
    if bytes < 16 << 20 {
        return Ok(());
    }
    let n = usize::try_from(bytes).map_err(|_| too_large(what, bytes))?;
    let mut trial: Vec<u8> = Vec::new();
    trial
        .try_reserve_exact(n)
        .map_err(|_| too_large(what, bytes))
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
        assert_eq!(zeroed("t", 5).unwrap(), vec![0; 5]);
    }
}
