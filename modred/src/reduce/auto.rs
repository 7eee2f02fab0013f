//! `auto`: picks the fastest correct method for the modulus and the workload, by the measured
//! thresholds in `crate::tuning`.

use super::diminished_radix::{self, DrMode};
use super::{barrett, check_modulus, classical, montgomery, Reducer, ReducerInfo, ReducerKind};
use crate::cpu::Tier;
use crate::error::Result;
use crate::limb::Limb;
use crate::tuning::{DR_AUTO_MAX_C_LIMBS, FIXED_CIOS_MAX_LIMBS};

/// How a context will be used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Workload {
    /// One reduction or multiplication: no precomputation pays off (Bosselaers, Govaerts,
    /// Vandewalle, *Comparison of three modular reduction functions*, CRYPTO '93, §3: "for a
    /// single modular reduction the classical algorithm is the obvious choice").
    Single,
    /// Many operations with the same modulus (exponentiation, batches).
    Repeated,
}

/// The method `auto` stands for, for modulus `m` (trimmed, non-zero) and `workload`.
pub fn choose(m: &[Limb], workload: Workload) -> &'static ReducerInfo {
    let odd = m.first().is_some_and(|&l| l & 1 == 1);
    // Only above the unrolled sizes is a diminished-radix modulus worth looking for.
    let short_dr = m.len() > FIXED_CIOS_MAX_LIMBS
        && diminished_radix::detect(m)
            .is_some_and(|f| f.mode == DrMode::Block && f.c_norm.len() <= DR_AUTO_MAX_C_LIMBS);
    match workload {
        Workload::Single => &classical::INFO,
        Workload::Repeated if short_dr => &diminished_radix::INFO,
        Workload::Repeated if !odd => &barrett::INFO,
        Workload::Repeated => &montgomery::fast::INFO,
    }
}

fn build(m: &[Limb], tier: Tier) -> Result<Box<dyn Reducer>> {
    let m = check_modulus("auto", false, m)?;
    (choose(m, Workload::Repeated).build)(m, tier)
}

/// Listing of `auto`.
pub const INFO: ReducerInfo = ReducerInfo {
    kind: ReducerKind::Auto,
    name: "auto",
    needs_odd: false,
    restriction: "none beyond the chosen method's (classical for one-off operations)",
    summary: "fastest correct choice by measured thresholds (see tuning.rs)",
    memory: "that of the reducer it picks",
    build,
};
