//! MULX/ADX Montgomery kernels for 9 to 128 limbs (beyond the source papers): the exponentiation
//! engine of `montgomery-fast` on x86-64 CPUs with BMI2 and ADX but without AVX-512 IFMA, and
//! its single products.
//!
//! The kernels are x86-64 assembly generated at build time for each modulus size k
//! (`build/adx_mont.rs`): an integrated product (CIOS, the a b_i row and the q_i m row
//! interleaved in blocks of four limbs on the ADCX and ADOX carry chains) and a dedicated
//! square (triangle, doubling with the diagonal, reduction rows). Every pass is straight-line
//! code for its k. From `tuning::ADX_MONT_TILED_MIN_LIMBS` limbs (multiples of 8) the square's
//! reduction, and the product as a product and a reduction, run in 8 x 8 tiles with the partial
//! sums in registers.
//!
//! Both compute the almost-Montgomery product (Gueron, J. Cryptogr. Eng. 2012): for
//! a, b < R = 2^(64k), out = a b R^{-1} mod m up to one m, with out < R: m is subtracted
//! under the mask of the product's carry out of R. Residues therefore stay below R, not
//! below m, through an exponentiation, which brings its result below m once at the end.
//! Constant time with [`Finish::Masked`]: no branch or memory index depends on operand values.

use super::{redc, MontParams};
use crate::cpu::Tier;
use crate::limb::Limb;
use crate::scan::{ExpArith, FusedArith, FusedPow};
use crate::tuning::ADX_POW_SQR_OVER_PRODUCTS_MIN_LIMBS;

type MulFn = unsafe extern "sysv64" fn(*mut u64, *const u64, *const u64, *const u64, u64, u64);
type SqrFn = unsafe extern "sysv64" fn(*mut u64, *const u64, *const u64, u64, u64);

include!(concat!(env!("OUT_DIR"), "/adx_mont_decls.rs"));
core::arch::global_asm!(include_str!(concat!(env!("OUT_DIR"), "/adx_mont.s")));

/// The generated kernels for one modulus: `mul` and `sqr` for its size, the modulus and n'0,
/// and how their results are brought below R. They exist only for contexts on the
/// [`Tier::Adx`] tier or above (see [`Kernels::new`]), so on CPUs with BMI2 and ADX.
#[derive(Clone, Copy)]
pub(crate) struct Kernels<'a> {
    mul: MulFn,
    sqr: SqrFn,
    m: &'a [Limb],
    n0: Limb,
    /// 1: subtract m only when the product carries out of R, by a branch (variable time);
    /// 0: subtract m under a mask of the carry (constant time).
    lazy: u64,
}

/// How the kernels' results are brought below R.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Finish {
    /// By a branch on the carry out of R: variable time (skips the subtraction in most
    /// products).
    LazyVartime,
    /// By a mask of the carry: constant time.
    Masked,
}

impl<'a> Kernels<'a> {
    /// The kernels for the modulus of `p`, or `None` when the context is below the
    /// [`Tier::Adx`] tier or none were generated for its size.
    pub(crate) fn new(p: &'a MontParams, finish: Finish) -> Option<Self> {
        if p.tier() < Tier::Adx {
            return None;
        }
        let k = p.k();
        Some(Self {
            mul: (*MUL.get(k)?)?,
            sqr: (*SQR.get(k)?)?,
            m: &p.m,
            n0: p.n0,
            lazy: u64::from(finish == Finish::LazyVartime),
        })
    }

    /// `out = a b R^{-1} mod m` up to one m, `out < R`, for `a, b < R` (k limbs each). `out`
    /// may be `a` or `b` (see [`Self::mul_in_place`]).
    /// Leaks: nothing but the lengths (constant time) with [`Finish::Masked`]; with
    /// [`Finish::LazyVartime`] the final subtraction's branch on the carry out of R.
    #[inline]
    pub(crate) fn mul(&self, out: &mut [Limb], a: &[Limb], b: &[Limb]) {
        let k = self.m.len();
        assert!(out.len() == k && a.len() == k && b.len() == k);
        // SAFETY: the kernel reads k limbs of a, b and m and writes k limbs of out, all
        // checked above; `Kernels` exist only on CPUs with BMI2 and ADX (`Kernels::new`).
        unsafe {
            (self.mul)(
                out.as_mut_ptr(),
                a.as_ptr(),
                b.as_ptr(),
                self.m.as_ptr(),
                self.n0,
                self.lazy,
            )
        }
    }

    /// `a = a b R^{-1}` (as [`Self::mul`]).
    /// Leaks: as [`Self::mul`].
    #[inline]
    pub(crate) fn mul_in_place(&self, a: &mut [Limb], b: &[Limb]) {
        let k = self.m.len();
        assert!(a.len() == k && b.len() == k);
        let p = a.as_mut_ptr();
        // SAFETY: as `mul`; the kernel writes `out` only after its last read of the inputs,
        // so out = a is allowed.
        unsafe { (self.mul)(p, p, b.as_ptr(), self.m.as_ptr(), self.n0, self.lazy) }
    }

    /// `a = a^2 R^{-1} mod m` up to one m, `< R`, for `a < R`.
    /// Leaks: as [`Self::mul`].
    #[inline]
    pub(crate) fn sqr_in_place(&self, a: &mut [Limb]) {
        assert_eq!(a.len(), self.m.len());
        let p = a.as_mut_ptr();
        // SAFETY: as `mul_in_place`.
        unsafe { (self.sqr)(p, p, self.m.as_ptr(), self.n0, self.lazy) }
    }

    /// `out = a^2 R^{-1}` (as [`Self::sqr_in_place`]) into a separate buffer.
    /// Leaks: as [`Self::mul`].
    #[inline]
    pub(crate) fn sqr(&self, out: &mut [Limb], a: &[Limb]) {
        let k = self.m.len();
        assert!(out.len() == k && a.len() == k);
        // SAFETY: as `mul`.
        unsafe {
            (self.sqr)(
                out.as_mut_ptr(),
                a.as_ptr(),
                self.m.as_ptr(),
                self.n0,
                self.lazy,
            )
        }
    }
}

/// [`ExpArith`] on almost-Montgomery residues (k limbs, `< R`) with the generated kernels; with
/// `products`, the multiplications (not the squares) by a product and the REDC over products.
/// Leaks: as [`Kernels::mul`] with its finish; variable time with `products`.
struct AdxArith<'a> {
    kernels: Kernels<'a>,
    products: Option<Products<'a>>,
}

/// The multiplications of [`AdxArith`] by [`crate::arith::mul_n`] (Karatsuba at 65-128 limbs)
/// and [`super::redc_n::RedcN::reduce_vartime`], with the 2k-limb product buffer and the
/// reduction's scratch; the squares too with `squares`.
struct Products<'a> {
    redc: &'a super::redc_n::RedcN,
    product: Vec<Limb>,
    scratch: Vec<Limb>,
    squares: bool,
}

impl ExpArith for AdxArith<'_> {
    type Elem = Vec<Limb>;
    #[inline(always)]
    fn sqr_in_place(&mut self, a: &mut Vec<Limb>) {
        match &mut self.products {
            // a < R: as in `mul_in_place`.
            Some(Products {
                redc,
                product,
                scratch,
                squares: true,
            }) => {
                crate::arith::sqr(product, a);
                redc.reduce_vartime(a, product, self.kernels.m, scratch);
            }
            _ => self.kernels.sqr_in_place(a),
        }
    }
    #[inline(always)]
    fn mul_in_place(&mut self, a: &mut Vec<Limb>, b: &Vec<Limb>) {
        match &mut self.products {
            // a, b < R: the product is below R^2, not m R as `reduce_vartime` asks for an
            // output below m, but (a b + q m) / R < R + m still, so the one subtraction it
            // makes leaves a residue below R, as the kernels' (almost-Montgomery) results.
            Some(Products {
                redc,
                product,
                scratch,
                ..
            }) => {
                crate::arith::mul_n(product, a, b);
                redc.reduce_vartime(a, product, self.kernels.m, scratch);
            }
            None => self.kernels.mul_in_place(a, b),
        }
    }
}

/// `base^exp mod m` (`base < m`, result `< m`) by the scan `alg` on the generated kernels, or
/// `None` below the [`Tier::Adx`] tier or when none exist for this size. The variable-time scans
/// on the adx tier multiply by products and the REDC over products from
/// `tuning::ADX_POW_MUL_OVER_PRODUCTS_MIN_LIMBS` limbs (`MontParams::pow_mul_redc`), and
/// square so from `tuning::ADX_POW_SQR_OVER_PRODUCTS_MIN_LIMBS`.
/// Leaks: variable time (the scan's branches, the lazy finish, those products) except
/// `FusedPow::Ct`, which scans its table with masks on masked kernels: then nothing but the
/// lengths (of m and of the exponent).
pub(crate) fn pow(p: &MontParams, base: &[Limb], exp: &[Limb], alg: FusedPow) -> Option<Vec<Limb>> {
    let kernels = Kernels::new(
        p,
        if alg.is_constant_time() {
            Finish::Masked
        } else {
            Finish::LazyVartime
        },
    )?;
    // Every CPU with ADX has AVX2 too (Intel from Broadwell, AMD from Zen), but check: the
    // scans compiled for AVX2 vectorize ct's masked table reads four limbs at a time.
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: AVX2 checked.
        Some(unsafe { pow_avx2(p, kernels, base, exp, alg) })
    } else {
        Some(pow_with(p, kernels, base, exp, alg))
    }
}

/// [`pow_with`] compiled with AVX2.
///
/// # Safety
/// The CPU must support AVX2 (and BMI2/ADX for the kernels).
#[target_feature(enable = "avx2")]
unsafe fn pow_avx2(
    p: &MontParams,
    kernels: Kernels<'_>,
    base: &[Limb],
    exp: &[Limb],
    alg: FusedPow,
) -> Vec<Limb> {
    pow_with(p, kernels, base, exp, alg)
}

/// The body of [`pow`].
#[inline(always)]
fn pow_with(
    p: &MontParams,
    kernels: Kernels<'_>,
    base: &[Limb],
    exp: &[Limb],
    alg: FusedPow,
) -> Vec<Limb> {
    let products = match p.pow_mul_redc() {
        Some(redc) if !alg.is_constant_time() => Some(Products {
            redc,
            product: vec![0; 2 * p.k()],
            scratch: vec![0; super::redc_n::RedcN::scratch_len(p.k())],
            squares: p.k() >= ADX_POW_SQR_OVER_PRODUCTS_MIN_LIMBS,
        }),
        _ => None,
    };
    let mut ar = AdxArith { kernels, products };
    let mut g = base.to_vec();
    ar.mul_in_place(&mut g, &p.r2);
    let acc = alg.run(&mut ar, g, p.one.clone(), exp);
    leave(p, &acc)
}

/// The plain residue `< m` of the almost-Montgomery value `acc < R`: acc R^{-1} mod m by
/// Montgomery reduction alone (the MULX/ADX rows of [`redc::redc`]: k^2 products, half of a
/// kernel product with 1; acc < R < m R as it needs).
/// Leaks: nothing but the lengths (constant time).
fn leave(p: &MontParams, acc: &[Limb]) -> Vec<Limb> {
    let k = p.k();
    let mut x = vec![0; 2 * k];
    x[..k].copy_from_slice(acc);
    let mut out = vec![0; k];
    redc::redc(p, &mut out, &mut x);
    out
}

/// The generated kernels as [`FusedArith`] for the table-based methods (comb, fixed-base):
/// elements are almost-Montgomery residues (k limbs, `< R`).
/// Leaks: variable time (the kernels' lazy finish branches on the carry out of R).
pub(crate) struct Session {
    p: MontParams,
}

impl Session {
    /// A session for the modulus of `p` when kernels exist for it (see [`Kernels::new`]).
    pub(crate) fn new(p: &MontParams) -> Option<Self> {
        Kernels::new(p, Finish::LazyVartime)?;
        Some(Self { p: p.clone() })
    }

    fn kernels(&self) -> Kernels<'_> {
        Kernels::new(&self.p, Finish::LazyVartime).expect("checked in Session::new")
    }
}

impl FusedArith for Session {
    fn import(&mut self, x: &[Limb]) -> Vec<u64> {
        // Montgomery form already (R = 2^(64k) as in MontParams): the same values.
        x.to_vec()
    }
    fn export_plain(&mut self, x: &[u64]) -> Vec<Limb> {
        leave(&self.p, x)
    }
    fn mul(&mut self, a: &mut Vec<u64>, b: &[u64]) {
        self.kernels().mul_in_place(a, b)
    }
    fn sqr(&mut self, a: &mut Vec<u64>) {
        self.kernels().sqr_in_place(a)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limb::xorshift64 as rng;
    use crate::reduce::montgomery::test_util::{big, every_scan, limbs};
    use crate::tuning;
    use num_bigint::BigUint;

    /// Moduli of every shape the kernels must handle, for k limbs.
    fn moduli(k: usize, s: &mut u64) -> Vec<Vec<Limb>> {
        let mut out = vec![vec![Limb::MAX; k]]; // b^k - 1
        let mut top1: Vec<Limb> = (0..k).map(|_| rng(s)).collect();
        top1[0] |= 1;
        top1[k - 1] = 1; // top limb 1: R much larger than m
        out.push(top1);
        for shape in 0..3 {
            let mut m: Vec<Limb> = (0..k).map(|_| rng(s)).collect();
            m[0] |= 1;
            m[k - 1] = match shape {
                0 => m[k - 1] | 1 << 63,
                1 => m[k - 1] >> 1 | 1,
                _ => Limb::MAX,
            };
            out.push(m);
        }
        let mut bk1 = vec![0; k]; // b^(k-1) + 1
        bk1[0] = 1;
        bk1[k - 1] = 1;
        out.push(bk1);
        out
    }

    /// Operands below R: random, all ones, m - 1, and values at least m (lazy residues).
    fn operands(m: &[Limb], s: &mut u64) -> Vec<Vec<Limb>> {
        let k = m.len();
        let r = BigUint::from(1u8) << (64 * k);
        let mb = big(m);
        let mut out = vec![vec![Limb::MAX; k], limbs(&(&mb - 1u8), k), vec![0; k]];
        out.push(limbs(&(&mb + (&r - &mb) / 2u8), k)); // between m and R
        out.push(limbs(&(&r - 1u8 - (&mb >> 1)), k));
        for _ in 0..3 {
            out.push((0..k).map(|_| rng(s)).collect());
        }
        out
    }

    /// Every generated size, product and square, against num-bigint: the result is below R and
    /// congruent to a b R^{-1} mod m.
    #[test]
    fn kernels_match_num_bigint() {
        if crate::cpu::detected() < Tier::Adx {
            eprintln!("skipped: this CPU has no BMI2/ADX");
            return;
        }
        let mut s = 0x1234_5678_9abc_def1;
        let mut checked = 0;
        for (k, finish) in (tuning::ADX_MONT_MIN_LIMBS..=tuning::ADX_MONT_MAX_LIMBS)
            .flat_map(|k| [(k, Finish::Masked), (k, Finish::LazyVartime)])
        {
            for m in moduli(k, &mut s) {
                let p = MontParams::with_tier(&m, Tier::Adx);
                let kern =
                    Kernels::new(&p, finish).expect("generated for every size in the tuning range");
                let mb = big(&m);
                let r = BigUint::from(1u8) << (64 * k);
                let rinv = r.modinv(&mb).expect("m odd");
                let ops = operands(&m, &mut s);
                for (i, a) in ops.iter().enumerate() {
                    let b = &ops[(i * 3 + 1) % ops.len()];
                    let mut out = vec![0; k];
                    kern.mul(&mut out, a, b);
                    let o = big(&out);
                    assert!(o < r, "mul k={k} {finish:?}: out >= R");
                    assert_eq!(
                        &o % &mb,
                        big(a) * big(b) % &mb * &rinv % &mb,
                        "mul k={k} i={i}"
                    );
                    kern.sqr(&mut out, a);
                    let o = big(&out);
                    assert!(o < r, "sqr k={k} {finish:?}: out >= R");
                    assert_eq!(
                        &o % &mb,
                        big(a) * big(a) % &mb * &rinv % &mb,
                        "sqr k={k} i={i}"
                    );
                    let mut x = a.clone();
                    kern.mul_in_place(&mut x, b);
                    assert_eq!(
                        &big(&x) % &mb,
                        big(a) * big(b) % &mb * &rinv % &mb,
                        "in place"
                    );
                    checked += 1;
                }
            }
        }
        let sizes = tuning::ADX_MONT_MAX_LIMBS - tuning::ADX_MONT_MIN_LIMBS + 1;
        assert_eq!(checked, 2 * sizes * 6 * 8);
    }

    /// Exponentiation on the kernels against num-bigint's `modpow`: sliding windows and `ct` at
    /// every size listed, every scan (and the base m - 1) from one limb below the size where the
    /// variable-time scans multiply by products and the REDC over products
    /// (`tuning::ADX_POW_MUL_OVER_PRODUCTS_MIN_LIMBS`) and around the size where they square
    /// so too (`tuning::ADX_POW_SQR_OVER_PRODUCTS_MIN_LIMBS`), with the moduli whose residues
    /// below R go furthest above m (top limb 1).
    #[test]
    fn pow_matches_num_bigint() {
        if crate::cpu::detected() < Tier::Adx {
            eprintln!("skipped: this CPU has no BMI2/ADX");
            return;
        }
        let mut s = 0x0bad_cafe_dead_beef;
        let (t, t_sqr) = (
            tuning::ADX_POW_MUL_OVER_PRODUCTS_MIN_LIMBS,
            tuning::ADX_POW_SQR_OVER_PRODUCTS_MIN_LIMBS,
        );
        let mut sizes = vec![
            9, 12, 16, 17, 24, 31, 32, 33, 48, 63, 64, 65, 66, 72, 73, 96, 127, 128,
        ];
        sizes.extend(
            [t - 1, t, t + 1, t_sqr - 1, t_sqr, t_sqr + 1]
                .into_iter()
                .filter(|&k| k <= tuning::ADX_MONT_MAX_LIMBS),
        );
        sizes.sort_unstable();
        sizes.dedup();
        for k in sizes {
            let products = k >= tuning::ADX_POW_MUL_OVER_PRODUCTS_MIN_LIMBS;
            let every = k + 1 >= tuning::ADX_POW_MUL_OVER_PRODUCTS_MIN_LIMBS;
            for m in moduli(k, &mut s) {
                let p = MontParams::with_tier(&m, Tier::Adx);
                assert_eq!(p.pow_mul_redc().is_some(), products, "k={k}");
                let mb = big(&m);
                let random = limbs(
                    &(big(&(0..k).map(|_| rng(&mut s)).collect::<Vec<_>>()) % &mb),
                    k,
                );
                let m_minus_1 = limbs(&(&mb - 1u32), k);
                let e: Vec<Limb> = (0..3).map(|_| rng(&mut s)).collect();
                let algs = if every {
                    every_scan(3).to_vec()
                } else {
                    vec![FusedPow::Sliding { w: 5 }, every_scan(3)[4]]
                };
                let bases = if every {
                    vec![random, m_minus_1]
                } else {
                    vec![random]
                };
                for b in &bases {
                    let want = big(b).modpow(&big(&e), &mb);
                    for &alg in &algs {
                        let got = pow(&p, b, &e, alg).expect("generated size");
                        assert_eq!(big(&got), want, "k={k} {alg:?}");
                    }
                }
            }
        }
    }
}
