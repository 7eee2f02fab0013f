//! The exponentiation scans, generic over the arithmetic they run on: the bottom half of every
//! exponentiation method, shared by the reducer-generic methods of [`crate::exp`] and by the
//! fused fixed-size kernels of [`crate::reduce`].
//!
//! A scan walks the exponent and issues squarings and multiplications on an `ExpArith`:
//! [`sliding`] (windows over odd powers), [`binary`] (left to right), [`binary_rl`] (right to
//! left), [`window`] (fixed digits) and [`ct`] (constant time); [`FusedPow`] names one of them
//! with its parameters and runs it. The scans see only values of the arithmetic's element type,
//! so one body serves `Vec<Limb>` residues behind a [`crate::Reducer`], `[Limb; N]` in
//! registers and radix-2^52 digit vectors alike.
//!
//! This module depends on `limb`, `arith`, `tuning` and `cancel` only: `reduce` and `exp`
//! both use it, and it uses neither.

pub mod binary;
pub mod binary_rl;
pub mod ct;
pub mod sliding;
pub mod window;

use crate::limb::Limb;

/// The scans ([`binary`], [`binary_rl`], [`window`], [`ct`]) check for cancellation
/// ([`crate::cancel`]) once per this many steps (bits or digits); [`sliding`] once per run of
/// its schedule. At one limb a step is a few nanoseconds, so the check is lost in the noise;
/// at 64 limbs (the largest fused size) 64 steps take about a millisecond. Beyond, `exp::Ops`
/// checks per product.
pub(crate) const CANCEL_CHECK_STEPS: usize = 64;

/// The arithmetic the exponentiation scans need, on values of type `Elem` in some
/// representation: implemented by the reducer-generic `exp::Ops` (`Vec<Limb>`), by fixed-size
/// fused kernels (`[Limb; N]` Montgomery in `reduce::montgomery::fast`) and by every
/// [`FusedArith`].
pub(crate) trait ExpArith {
    /// A value in representation.
    type Elem: Clone;
    /// `a = a^2`.
    fn sqr_in_place(&mut self, a: &mut Self::Elem);
    /// `a = a b`.
    fn mul_in_place(&mut self, a: &mut Self::Elem, b: &Self::Elem);
}

/// A reducer's own product arithmetic in a representation of its choosing (e.g. radix-2^52
/// digits for AVX-512 IFMA), for the table-based methods (comb, fixed-base), whose tables are
/// imported once and reused. Obtained from [`crate::Reducer::fused_arith`]; elements are
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

/// Which scan an exponentiation runs, with its parameters: the argument of a reducer's fused
/// fixed-size exponentiation ([`crate::Reducer::pow_fused`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FusedPow {
    /// `sliding` windows of at most `w` bits (1 <= w <= 16).
    Sliding {
        /// Window bits.
        w: usize,
    },
    /// `binary_rl`: right to left, the multiplications off the squarings' dependency chain.
    RightToLeft,
    /// `binary`: left-to-right square-and-multiply.
    Binary,
    /// `window`: fixed `w`-bit digits (1 <= w <= 16).
    Window {
        /// Digit bits.
        w: usize,
    },
    /// `binary` over a public exponent on the constant-time arithmetic: constant time in the
    /// base, variable time in the exponent only (an RSA public exponent applied to a secret
    /// value, as in the fault check of a private-key operation).
    PublicExp,
    /// `ct`: the constant-time fixed window over `exp_bits` (>= the exponent's length)
    /// with `w`-bit digits; the fused kernel must be constant time too.
    Ct {
        /// Exponent bits scanned.
        exp_bits: usize,
        /// Window bits.
        w: usize,
    },
}

impl FusedPow {
    /// Whether the arithmetic must be constant time: for the constant-time scan, and for
    /// [`FusedPow::PublicExp`] (whose scan leaks only the exponent).
    pub(crate) fn is_constant_time(self) -> bool {
        matches!(self, FusedPow::Ct { .. } | FusedPow::PublicExp)
    }

    /// Panics unless the parameters are in range: a window of 1..=16 bits, and for `Ct` an
    /// `exp_bits` of at least the exponent's bit length (read only when its padded length
    /// `64 exp.len()` is longer, so the usual call leaks nothing). Outside them the scans
    /// would compute a wrong power (or divide by zero), and [`crate::Reducer::pow_fused`] is
    /// public.
    fn check(self, exp: &[Limb]) {
        let w = match self {
            FusedPow::Sliding { w } | FusedPow::Window { w } | FusedPow::Ct { w, .. } => w,
            FusedPow::RightToLeft | FusedPow::Binary | FusedPow::PublicExp => return,
        };
        assert!(
            (1..=crate::tuning::MAX_WINDOW_BITS).contains(&w),
            "FusedPow: window of {w} bits, not 1..={}",
            crate::tuning::MAX_WINDOW_BITS
        );
        if let FusedPow::Ct { exp_bits, .. } = self {
            assert!(
                ct::exp_bits_cover(exp, exp_bits),
                "FusedPow::Ct: exp_bits {exp_bits} below the exponent's length"
            );
        }
    }

    /// `g^exp` by this scan on the arithmetic `ar`, with `one` the representation of 1
    /// (returned for a zero exponent). Panics on parameters out of range (see `check`).
    /// Leaks: as the scan's: variable time in the exponent, except `Ct` (nothing but the
    /// lengths, `exp_bits` and `w`, over constant-time arithmetic); `PublicExp` leaks the
    /// exponent only.
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
        self.check(exp);
        match self {
            FusedPow::Sliding { w } => sliding::run(ar, g, exp, w).unwrap_or(one),
            FusedPow::RightToLeft => binary_rl::scan(ar, g, exp).unwrap_or(one),
            FusedPow::Binary | FusedPow::PublicExp => binary::scan(ar, g, exp).unwrap_or(one),
            FusedPow::Window { w } => window::scan(ar, one.clone(), g, exp, w).unwrap_or(one),
            FusedPow::Ct { exp_bits, w } => {
                ct::scan(ar, one, g, exp, exp_bits, w, &mut ct::FusedTrace)
            }
        }
    }
}
