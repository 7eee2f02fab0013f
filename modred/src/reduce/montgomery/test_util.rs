//! Shared helpers of the Montgomery kernels' tests: conversions to and from num-bigint (the
//! oracle) and the list of fused scans every fused engine is checked with.

use crate::limb::Limb;
use crate::scan::FusedPow;
use num_bigint::BigUint;

/// `x` (little-endian limbs) as a num-bigint value.
pub(crate) fn big(x: &[Limb]) -> BigUint {
    crate::natural::Natural::from_limbs(x.to_vec()).to_biguint()
}

/// `x < 2^(64k)` as exactly `k` limbs.
pub(crate) fn limbs(x: &BigUint, k: usize) -> Vec<Limb> {
    let mut d = x.to_u64_digits();
    d.resize(k, 0);
    d
}

/// Every fused scan (5-bit sliding, right-to-left, binary, 4-bit window, 4-bit `ct`), for an
/// exponent of `exp_limbs` limbs.
pub(crate) fn every_scan(exp_limbs: usize) -> [FusedPow; 5] {
    [
        FusedPow::Sliding { w: 5 },
        FusedPow::RightToLeft,
        FusedPow::Binary,
        FusedPow::Window { w: 4 },
        FusedPow::Ct {
            exp_bits: 64 * exp_limbs,
            w: 4,
        },
    ]
}
