//! Single-precision operation counters (cargo feature `count`).
//!
//! With the feature on, every [`crate::limb::mul_wide`], [`crate::limb::mul_lo`],
//! [`crate::limb::mac`] and [`crate::limb::div_wide`] call bumps a thread-local counter, so tests
//! and `modred-report --counts` can check the papers' operation-count formulas (Bosselaers, Govaerts,
//! Vandewalle, *Comparison of three modular reduction functions*, CRYPTO '93, Table 1; Koç, Acar,
//! Kaliski, *Analyzing and Comparing Montgomery Multiplication Algorithms*, IEEE Micro 1996,
//! Table 1). With the feature off the hooks are empty inline functions and cost nothing.

/// Multiplications and divisions counted on this thread since the last [`reset`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OpCounts {
    pub muls: u64,
    pub divs: u64,
}

#[cfg(feature = "count")]
mod imp {
    use super::OpCounts;
    use std::cell::Cell;
    thread_local! {
        static MULS: Cell<u64> = const { Cell::new(0) };
        static DIVS: Cell<u64> = const { Cell::new(0) };
    }
    #[inline(always)]
    pub fn mul() {
        MULS.with(|c| c.set(c.get() + 1));
    }
    #[inline(always)]
    pub fn div() {
        DIVS.with(|c| c.set(c.get() + 1));
    }
    pub fn reset() {
        MULS.with(|c| c.set(0));
        DIVS.with(|c| c.set(0));
    }
    pub fn get() -> OpCounts {
        OpCounts {
            muls: MULS.with(|c| c.get()),
            divs: DIVS.with(|c| c.get()),
        }
    }
}

#[cfg(not(feature = "count"))]
mod imp {
    use super::OpCounts;
    #[inline(always)]
    pub fn mul() {}
    #[inline(always)]
    pub fn div() {}
    pub fn reset() {}
    pub fn get() -> OpCounts {
        OpCounts::default()
    }
}

pub(crate) use imp::{div, mul};

/// Whether this build counts operations (the `count` feature).
pub const ENABLED: bool = cfg!(feature = "count");

/// Zero this thread's counters.
pub fn reset() {
    imp::reset()
}

/// This thread's counters (all zero when [`ENABLED`] is false).
pub fn get() -> OpCounts {
    imp::get()
}

/// Run `f` and return its result with the operations it performed on this thread.
pub fn measure<T>(f: impl FnOnce() -> T) -> (T, OpCounts) {
    reset();
    let r = f();
    (r, get())
}
