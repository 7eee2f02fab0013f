//! `diminished-radix`: reduction modulo n = b^k - n' with small n' (Lim, Hwang, Lee, *Fast
//! Modular Reduction With Precomputation*, JW-ISC '97, §3.1, last paragraphs), generalized to
//! pseudo-Mersenne moduli 2^e - c.
//!
//! The modulus is normalized to m_n = m 2^sh = b^k - c' with its top bit set (so 2^e - c with
//! e not a multiple of 64 — 2^255-19, 2^521-1, 2^607-1, 2^1279-1 — folds at the limb boundary
//! after the shift, and z 2^sh mod m_n = (z mod m) 2^sh). Supported: c' < b^(k-1) (the top limb
//! of m_n all ones, i.e. m = 2^e - c with c < 2^(e-64): the top 64 bits of m are ones), or for
//! one-limb moduli c' < 2^32. Since b^k ≡ c' (mod m_n), a digit z_i b^i is replaced by
//! z_i c' b^(i-k):
//! - block mode (c' of d <= k/2 limbs, e.g. 2^255-19, secp256k1, the Mersenne primes):
//!   z = z[0..k] + z[k..] c' repeated while z >= b^k (each pass shrinks z by a factor of about
//!   b^k / c'); two passes for a 2k-limb argument;
//! - digit mode (c' of more limbs, e.g. the RFC 3526 MODP primes): Fig. 4 with δ = 0, digit by
//!   digit from the top, each digit d multiplications (k d = k(k-δ) in all). The window overflow
//!   is fixed by adding c' once more; it cannot recur since the wrapped window plus c' is below
//!   b c' < b^k.
//!
//! Then z < b^k < 2 m_n: one constant-time conditional subtraction, and the shift is undone.
//! Variable time (number of passes, skipped digits, the fix-up) except the const-size fold
//! `fold_fixed`; see [`DiminishedRadix`].

use super::montgomery::fixed::sub_final_fixed;
use super::{check_modulus, check_wide_len, Reducer, ReducerInfo, ReducerKind};
use crate::arith::{
    self, add_1_in_place, add_in_place, addmul_1, karatsuba_scratch_len, mul_1, mul_basecase,
    normalized_len, shl, shr_in_place, sub_mod_final,
};
use crate::error::{Error, Result};
use crate::limb::{adc, mac, mul_wide, Choice, Limb};

/// How the folding is organized (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DrMode {
    /// Whole-block folds z[0..k] + z[k..] c' (c' short).
    Block,
    /// Fig. 4 with δ = 0, digit by digit (c' long).
    Digit,
}

/// A modulus recognized as m = 2^e - c.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DrForm {
    /// e: m = 2^e - c, e = bit length of m.
    pub bits: u32,
    /// c = 2^e - m (trimmed, non-zero).
    pub c: Vec<Limb>,
    /// sh = 64k - e: the normalizing shift.
    pub shift: u32,
    /// c' = c 2^sh = b^k - m 2^sh (trimmed).
    pub c_norm: Vec<Limb>,
    /// Block or digit folding.
    pub mode: DrMode,
}

fn analyze(m: &[Limb]) -> core::result::Result<DrForm, String> {
    let m = arith::trim(m);
    if m.is_empty() {
        return Err("modulus is zero".into());
    }
    let k = m.len();
    let sh = m[k - 1].leading_zeros();
    let mut mn = vec![0; k];
    shl(&mut mn, m, sh);
    // c' = b^k - mn (two's complement; mn != 0).
    let mut cn: Vec<Limb> = mn.iter().map(|&l| !l).collect();
    add_1_in_place(&mut cn, 1);
    let d = normalized_len(&cn);
    let ok = if k == 1 { cn[0] < 1 << 32 } else { d < k };
    if !ok {
        return Err(if k == 1 {
            "a one-limb modulus must be 2^e - c with c < 2^(e-32)".into()
        } else {
            "modulus must be 2^e - c with c < 2^(e-64) (its top 64 bits all ones), e.g. 2^255-19, 2^256-2^32-977, 2^521-1, RFC 3526 MODP primes".into()
        });
    }
    cn.truncate(d);
    let mut c = cn.clone();
    c.push(0);
    shr_in_place(&mut c, sh);
    let c = arith::trim(&c).to_vec();
    let mode = if k == 1 || 2 * d <= k {
        DrMode::Block
    } else {
        DrMode::Digit
    };
    Ok(DrForm {
        bits: 64 * k as u32 - sh,
        c,
        shift: sh,
        c_norm: cn,
        mode,
    })
}

/// `Some(form)` if `m` is a supported diminished-radix / pseudo-Mersenne modulus.
pub fn detect(m: &[Limb]) -> Option<DrForm> {
    analyze(m).ok()
}

/// Diminished-radix context.
/// Leaks: for 2k-limb arguments and the moduli `fold_fixed` serves (3..=8 limbs, c' of one
/// limb with c 2^(2 sh) < 2^64: 2^255-19, secp256k1, ...) nothing but the lengths (constant
/// time); otherwise variable time (see [`Self::reduce_into_vartime`]). Its `mul`/`sqr` are the
/// [`Reducer`] defaults: schoolbook (constant time) below the Karatsuba threshold.
#[derive(Debug, Clone)]
pub struct DiminishedRadix {
    m: Vec<Limb>,
    mn: Vec<Limb>,
    form: DrForm,
    one: Vec<Limb>,
    /// [`fold_fixed`] applies.
    fixed_fold: bool,
}

impl DiminishedRadix {
    /// Context for a supported modulus; `Error::UnsupportedModulus` (with the reason) otherwise.
    pub fn new(m: &[Limb]) -> Result<Self> {
        let m = check_modulus(INFO.name, false, m)?;
        let form = analyze(m).map_err(|reason| Error::UnsupportedModulus {
            reducer: INFO.name,
            reason,
        })?;
        let k = m.len();
        let mut mn = vec![0; k];
        shl(&mut mn, m, form.shift);
        let mut one = vec![0; k];
        one[0] = 1;
        let fixed_fold = (3..=8).contains(&k)
            && form.c_norm.len() == 1
            && (u128::from(form.c_norm[0]) << form.shift) < 1 << 64;
        Ok(Self {
            m: m.to_vec(),
            mn,
            form,
            one,
            fixed_fold,
        })
    }

    /// The recognized form.
    pub fn form(&self) -> &DrForm {
        &self.form
    }

    /// Block folding of `z` (2k + 1 limbs) until z < b^k; `p` is scratch of k + 1 + d limbs.
    /// Leaks: variable time: the number of passes and each product's length follow the top
    /// non-zero limb of z (an early-exit scan); carries stop when they die.
    fn fold_block(&self, z: &mut [Limb], p: &mut [Limb]) {
        let k = self.m.len();
        let c = &self.form.c_norm;
        let d = c.len();
        let mut passes = 0;
        loop {
            let len = normalized_len(z);
            if len <= k {
                break;
            }
            let h = len - k;
            let p = &mut p[..h + d];
            if d == 1 {
                p[h] = mul_1(&mut p[..h], &z[k..len], c[0]);
            } else {
                mul_basecase(p, &z[k..len], c);
            }
            z[k..len].fill(0);
            // z[0..k] + hi c' < b^k + z / b^(k-d) ... fits z's 2k + 1 limbs.
            let carry = add_in_place(z, p);
            debug_assert_eq!(carry, 0);
            passes += 1;
            debug_assert!(passes <= 64 * (k + 2));
        }
    }

    /// Lim–Hwang–Lee 1997 Fig. 4 with δ = 0 on `z` (any length) down to k limbs.
    /// Leaks: variable time: zero digits are skipped, the carry propagation stops when the carry
    /// dies, and the rare fix-up is a branch.
    fn fold_digits(&self, z: &mut [Limb]) {
        let k = self.m.len();
        let c = &self.form.c_norm;
        let d = c.len();
        let mut i = z.len();
        while i > k {
            i -= 1;
            let zi = z[i];
            z[i] = 0;
            if zi == 0 {
                continue;
            }
            let win = &mut z[i - k..i];
            let carry = addmul_1(&mut win[..d], c, zi);
            if add_1_in_place(&mut win[d..], carry) != 0 {
                // Dropped b^i ≡ c' b^(i-k); the wrapped window + c' < b c' < b^k.
                let c2 = add_in_place(win, c);
                debug_assert_eq!(c2, 0);
            }
        }
    }

    /// Fast path for a one-limb c' and k >= 2 (2^521-1 and the other Mersenne primes),
    /// folding at bit e directly (no normalizing shifts), in place on the 2k-limb `x`:
    /// 1. z = (x mod 2^e) + (x >> e) c in one pass (the k + 1 digits of x >> e are assembled
    ///    from two limbs each); the spill above b^k is at most 2^(65+sh);
    /// 2. while z >= 2^e: z = (z mod 2^e) + (z >> e) c (the part above e is below 2^128 and
    ///    shrinks by a factor of at least 2^e / c each time: one or two passes);
    /// 3. z < 2^e = m + c <= 2m: one constant-time conditional subtraction of m.
    ///
    /// 2k + O(1) multiplications instead of Montgomery's k^2 + k. Sizes and forms that
    /// [`fold_fixed`] serves (2^255-19, secp256k1, ...) take that const-size fold instead.
    ///
    /// Leaks: nothing but the lengths through [`fold_fixed`]; otherwise variable time: step 2
    /// loops until nothing is left above bit e, and its carry propagation stops early.
    fn reduce_one_limb(&self, out: &mut [Limb], x: &mut [Limb]) {
        if self.reduce_fixed(out, x) {
            return;
        }
        let k = self.m.len();
        let sh = self.form.shift;
        let r = 64 - sh; // bits of m's top limb
        let mask = if r == 64 { Limb::MAX } else { (1 << r) - 1 };
        let above = |l: Limb| if r == 64 { 0 } else { l >> r };
        let c = self.form.c[0];
        // Digit j of x >> e: bits e + 64 j ..; x[k-1+j] is read before x[j] is written.
        let hi = |x: &[Limb], j: usize| -> Limb {
            let upper = if j < k { x[k + j] } else { 0 };
            if sh == 0 {
                upper
            } else {
                (x[k - 1 + j] >> r) | (upper << sh)
            }
        };
        let mut carry = 0;
        let top_digit = hi(x, k);
        for j in 0..k {
            let h = hi(x, j);
            let lo = if j == k - 1 { x[j] & mask } else { x[j] };
            (x[j], carry) = mac(h, c, lo, carry);
        }
        // Spill at b^k = 2^(e+sh): hi_k c + carry < 2^sh c + b; shifted to bit e it is
        // < 2^(65+sh) <= 2^128.
        let (t0, t1) = mac(top_digit, c, carry, 0);
        let mut top: u128 = ((u128::from(t1) << 64) | u128::from(t0)) << sh;
        loop {
            top += u128::from(above(x[k - 1]));
            x[k - 1] &= mask;
            if top == 0 {
                break;
            }
            // v = top c (three limbs), added at position 0.
            let (v0, h0) = mul_wide(top as Limb, c);
            let (v1, v2) = mac((top >> 64) as Limb, c, h0, 0);
            let v = [v0, v1, v2];
            let mut cy = 0;
            let mut spill: Limb = 0;
            for (j, &vj) in v.iter().enumerate() {
                if j < k {
                    (x[j], cy) = adc(x[j], vj, cy);
                } else {
                    spill += vj; // position >= k: only j = k = 2, v2 < c
                }
            }
            let cy = add_1_in_place(&mut x[3.min(k)..k], cy);
            spill += cy;
            top = u128::from(spill) << sh;
        }
        sub_mod_final(out, &x[..k], 0, &self.m);
    }

    /// [`fold_fixed`] for this modulus when its preconditions hold (c' of one limb,
    /// c 2^(2 sh) < 2^64, 3 <= k <= 8: 2^255-19, secp256k1, ...).
    fn reduce_fixed(&self, out: &mut [Limb], x: &[Limb]) -> bool {
        if !self.fixed_fold {
            return false;
        }
        let (cn, c, sh) = (self.form.c_norm[0], self.form.c[0], self.form.shift);
        let m = &self.m;
        const_dispatch!(m.len(); K in [3, 4, 5, 6, 7, 8] =>
            out.copy_from_slice(&fold_fixed::<K>(x, m, cn, c, sh)); else return false);
        true
    }

    fn one_limb_fast(&self) -> bool {
        self.m.len() >= 2 && self.form.c_norm.len() == 1
    }

    /// `out = x mod m` for `x` of at most 2k limbs; `s` is scratch of 3k + 2 + d limbs.
    /// Leaks: for a 2k-limb `x` and a one-limb c', as `reduce_one_limb` (nothing through
    /// `fold_fixed`); otherwise variable time, `fold_block`'s or `fold_digits`'s (the shifts
    /// and the final masked subtraction leak nothing).
    pub fn reduce_into_vartime(&self, out: &mut [Limb], x: &[Limb], s: &mut [Limb]) {
        let k = self.m.len();
        if self.one_limb_fast() && x.len() == 2 * k {
            let z = &mut s[..2 * k];
            z.copy_from_slice(x);
            return self.reduce_one_limb(out, z);
        }
        let (z, p) = s.split_at_mut(x.len() + 1);
        z[x.len()] = shl(&mut z[..x.len()], x, self.form.shift);
        match self.form.mode {
            DrMode::Block => self.fold_block(z, p),
            DrMode::Digit => self.fold_digits(z),
        }
        debug_assert!(z[k..].iter().all(|&l| l == 0));
        // z < b^k < 2 m_n.
        sub_mod_final(out, &z[..k], 0, &self.mn);
        shr_in_place(out, self.form.shift);
    }
}

impl Reducer for DiminishedRadix {
    fn name(&self) -> &'static str {
        INFO.name
    }
    fn modulus(&self) -> &[Limb] {
        &self.m
    }
    fn scratch_len(&self) -> usize {
        let k = self.m.len();
        // product 2k + shifted argument 2k + 1 + fold product k + 1 + d, or Karatsuba
        2 * k + (2 * k + 1 + k + 1 + self.form.c_norm.len()).max(karatsuba_scratch_len(k))
    }
    fn one(&self) -> &[Limb] {
        &self.one
    }
    fn reduce_wide(&self, out: &mut [Limb], x: &mut [Limb], scratch: &mut [Limb]) {
        check_wide_len(self.m.len(), out, x);
        if self.one_limb_fast() {
            return self.reduce_one_limb(out, x);
        }
        self.reduce_into_vartime(out, x, scratch);
    }
}

/// `x mod m` for a 2K-limb `x` (3 <= K <= 8) and m = 2^e - c (K limbs) whose c' = c 2^sh
/// (sh = 64K - e) fits one limb with c 2^(2 sh) < 2^64, so b^K ≡ c' (mod m):
/// 1. z + w b^K = x[0..K] + x[K..2K] c' (K multiplications; the carry word w <= c');
/// 2. the part above bit e, t = w 2^sh + (z >> e) < 2^64, folds as t c (< 2^128) onto
///    z mod 2^e, leaving z < 2^e + 2^128 <= 2m (e >= 129); for sh = 0 that sum may pass b^K,
///    and the dropped b^K folds once more as c' (the wrapped z is below 2^128);
/// 3. one masked subtraction of m: the result is `< m`.
///
/// K + 1 multiplications against Montgomery's K^2 + K.
/// Leaks: nothing but the lengths (constant time; the branch on sh is on the modulus).
#[inline(always)]
fn fold_fixed<const K: usize>(x: &[Limb], m: &[Limb], cn: Limb, c: Limb, sh: u32) -> [Limb; K] {
    const { assert!(K >= 3 && K <= 8) };
    debug_assert!(x.len() == 2 * K && m.len() == K);
    let mut z = [0 as Limb; K];
    let mut w = 0;
    for j in 0..K {
        (z[j], w) = mac(x[K + j], cn, x[j], w);
    }
    debug_assert!(w <= cn && (u128::from(w) << sh) < 1 << 64);
    let top = if sh == 0 {
        w
    } else {
        let t = (w << sh) | (z[K - 1] >> (64 - sh));
        z[K - 1] &= Limb::MAX >> sh;
        t
    };
    let (v0, v1) = mul_wide(top, c);
    let mut cy;
    (z[0], cy) = adc(z[0], v0, 0);
    (z[1], cy) = adc(z[1], v1, cy);
    for zj in z.iter_mut().skip(2) {
        (*zj, cy) = adc(*zj, 0, cy);
    }
    // Only with sh = 0 can the sum pass b^K; the wrapped z is then below 2^128, and adding c'
    // for the dropped b^K (masked, no branch) cannot wrap again.
    debug_assert!(cy == 0 || sh == 0);
    let (z0, mut cy2) = adc(z[0], cn & Choice::from_bit(cy).mask(), 0);
    z[0] = z0;
    for zj in z.iter_mut().skip(1) {
        (*zj, cy2) = adc(*zj, 0, cy2);
    }
    debug_assert_eq!(cy2, 0);
    let m: &[Limb; K] = m.try_into().expect("K limbs");
    sub_final_fixed(&z, 0, m)
}

fn build(m: &[Limb], _tier: crate::cpu::Tier) -> Result<Box<dyn Reducer>> {
    Ok(Box::new(DiminishedRadix::new(m)?))
}

/// Listing of `diminished-radix`.
pub const INFO: ReducerInfo = ReducerInfo {
    kind: ReducerKind::DiminishedRadix,
    name: "diminished-radix",
    needs_odd: false,
    restriction: "modulus 2^e - c with c < 2^(e-64) (top 64 bits ones; one limb: c < 2^(e-32)); x < b^(2k)",
    summary: "diminished-radix / pseudo-Mersenne folding b^k ≡ c' (2^255-19, secp256k1, Mersenne, MODP), k(k-δ) mults; Lim–Hwang–Lee 1997 §3.1",
    memory: "O(k): c' (at most k limbs)",
    build,
};
