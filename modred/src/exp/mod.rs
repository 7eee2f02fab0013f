//! Modular exponentiation: every method of the source papers and beyond, over any [`Reducer`].
//!
//! Each method lives in its own file and is generic over `R: Reducer + ?Sized`, working in the
//! reducer's representation (`to_repr`, `mul`, `sqr`, `from_repr`), so every reduction method —
//! and any faster kernel implementing the trait — plugs in:
//! `binary` (left-to-right: ModExp of Koç, Acar, Kaliski, *Analyzing and Comparing Montgomery
//! Multiplication Algorithms*, IEEE Micro 1996, §2), `binary_rl`, `window` (m-ary: Bosselaers,
//! Govaerts, Vandewalle, *Comparison of three modular reduction functions*, CRYPTO '93, §5),
//! `sliding`, [`ct`] (constant time), `fixed_base` (Prots'ko, Gryshchuk, *The implementation of
//! Montgomery modular reduction to speed up of modular exponentiation*, CMIS-2024, §5,
//! multi-threaded), `comb` (Lim–Lee), `even` (even moduli by CRT), [`batch`] (rayon),
//! [`inverse`](mod@inverse).
//!
//! The public entry points follow Python's `pow(b, e, m)` for naturals: m = 0 is an error,
//! m = 1 gives 0, e = 0 gives 1 mod m, any base (0, >= m) works, and a negative exponent
//! ([`pow_signed_exp_vartime`]) uses the modular inverse.

pub mod batch;
pub(crate) mod binary;
pub(crate) mod binary_rl;
pub(crate) mod comb;
pub mod ct;
mod ct_pair;
pub(crate) mod even;
pub(crate) mod fixed_base;
mod helpers;
pub mod inverse;
pub(crate) mod lanes;
mod method;
mod modulus;
mod oneoff;
pub(crate) mod sliding;
mod small_exp;
pub mod table_window;
pub(crate) mod window;

pub use batch::{pow_batch_ct, pow_batch_vartime};
pub use ct_pair::CtPair;
pub use inverse::{gcd_vartime, inverse_vartime};
/// The batches' lanes-or-one-by-one choice per size, for the benches.
#[cfg(feature = "internals")]
#[doc(hidden)]
pub use lanes::lanes_pay;
pub use method::{
    check_threads, is_constant_time, pow_with, Method, MethodInfo, PowOptions, MAX_THREADS, METHODS,
};
pub use modulus::{FixedBase, Modulus};
pub(crate) use oneoff::pow_auto_reserved_vartime;
pub use oneoff::{mul_mod_vartime, pow_signed_exp_vartime, pow_vartime};

use crate::cancel::Poll;
use crate::limb::Limb;
use crate::reduce::Reducer;
use crate::scan::{ExpArith, FusedPow};

/// Scratch-owning helper the methods share: the reducer's operations on owned buffers (of k
/// limbs, so the products skip the reducer's length checks).
/// Once the computation is cancelled ([`crate::cancel`]), its products do nothing, so any scan
/// over it runs out at once (the scans also check every
/// [`crate::scan::CANCEL_CHECK_STEPS`] steps, which the fused kernels rely on).
/// Leaks: the reducer's own (the cancellation poll reads a public flag).
pub(crate) struct Ops<'a, R: ?Sized> {
    r: &'a R,
    scratch: Vec<Limb>,
    tmp: Vec<Limb>,
    poll: Poll,
}

impl<'a, R: Reducer + ?Sized> Ops<'a, R> {
    pub(crate) fn new(r: &'a R) -> Self {
        Self {
            r,
            scratch: vec![0; r.scratch_len()],
            tmp: vec![0; r.len()],
            poll: Poll::for_limbs(r.len()),
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
        if !self.poll.stop() {
            self.r.mul_unchecked(out, a, b, &mut self.scratch);
        }
    }
    pub(crate) fn sqr(&mut self, out: &mut [Limb], a: &[Limb]) {
        if !self.poll.stop() {
            self.r.sqr_unchecked(out, a, &mut self.scratch);
        }
    }
    /// `acc = acc * b`.
    pub(crate) fn mul_in_place(&mut self, acc: &mut Vec<Limb>, b: &[Limb]) {
        if !self.poll.stop() {
            self.r
                .mul_unchecked(&mut self.tmp, acc, b, &mut self.scratch);
            core::mem::swap(acc, &mut self.tmp);
        }
    }
    /// `acc = acc^2`.
    pub(crate) fn sqr_in_place(&mut self, acc: &mut Vec<Limb>) {
        if !self.poll.stop() {
            self.r.sqr_unchecked(&mut self.tmp, acc, &mut self.scratch);
            core::mem::swap(acc, &mut self.tmp);
        }
    }
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

/// `base^exp mod m` (`base < m`, k limbs; returns k limbs `< m`) by the scan `alg`: the
/// reducer's fused path ([`Reducer::pow_fused`]) when it has one, else the same scan over
/// [`Ops`]. The shared body of [`sliding::pow`], [`binary::pow`], [`binary_rl::pow`] and
/// [`window::pow`].
/// Leaks: variable time, as the scan's (`alg`), plus the reducer's own.
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
