//! Exponentiation modulo an even m = m_odd 2^t (t >= 1), as GMP's `mpz_powm` does it:
//! x1 = b^e mod m_odd by Montgomery (any method), x2 = b^e mod 2^t by low-half ("mod 2^t")
//! arithmetic, and the Chinese remainder theorem
//!   x = x1 + m_odd ((x2 - x1) m_odd^{-1} mod 2^t),   0 <= x < m.
//!
//! Mod 2^t: an even b with e >= ceil(t / v2(b)) gives 0; an odd b lies in the unit group of
//! order 2^(t-1), so e is reduced mod 2^(t-1) first and costs at most t - 1 truncated squarings.
//! m_odd^{-1} mod 2^t comes from Newton's iteration y <- y (2 - m_odd y). Variable time.

use crate::arith;
use crate::cpu::Tier;
use crate::limb::{adc, mul_wide, neg_inv_newton, Limb};
use crate::natural::Natural;
use crate::reduce::{self, auto::Workload, Reducer, ReducerKind};
use crate::scan::{sliding, ExpArith};
use crate::tuning;
use std::sync::Arc;

/// `r = a b mod 2^(64 n)` (n = r.len(); `a`, `b` at least n limbs): the low half of the product.
/// Leaks: nothing but the length (constant time).
fn mul_lo_n(r: &mut [Limb], a: &[Limb], b: &[Limb]) {
    let n = r.len();
    r.fill(0);
    for i in 0..n {
        // Row i contributes a[0..n-i] * b[i] at offset i; the carry out of limb n-1 is dropped.
        arith::addmul_1(&mut r[i..], &a[..n - i], b[i]);
    }
}

/// `r = a^2 mod 2^(64 n)` (n = r.len(); `a` at least n limbs): the low half of the square, with
/// each off-diagonal product once, then doubled, then the diagonal: about n^2 / 4
/// multiplications against n^2 / 2 for [`mul_lo_n`].
/// Leaks: nothing but the length (constant time).
fn sqr_lo_n(r: &mut [Limb], a: &[Limb]) {
    let n = r.len();
    r.fill(0);
    // Off-diagonal: a_i a_j at i + j for i < j, i + j < n. Row i covers j in i+1..n-i at
    // offsets 2i+1..n; its carry out of limb n - 1 is dropped.
    for i in 0..n {
        let lo = 2 * i + 1;
        if lo >= n {
            break;
        }
        arith::addmul_1(&mut r[lo..], &a[i + 1..n - i], a[i]);
    }
    // Double (the bit shifted out of limb n - 1 is dropped), then add the diagonal a_i^2 at 2i.
    for j in (1..n).rev() {
        r[j] = (r[j] << 1) | (r[j - 1] >> 63);
    }
    r[0] <<= 1;
    let mut carry = 0;
    for i in 0..n.div_ceil(2) {
        let (lo, hi) = mul_wide(a[i], a[i]);
        (r[2 * i], carry) = adc(r[2 * i], lo, carry);
        if 2 * i + 1 < n {
            (r[2 * i + 1], carry) = adc(r[2 * i + 1], hi, carry);
        }
    }
}

/// Arithmetic mod 2^(64 n) for the sliding-window scan of [`EvenCtx::pow_2t`].
struct LowHalf {
    tmp: Vec<Limb>,
}

impl ExpArith for LowHalf {
    type Elem = Vec<Limb>;
    fn sqr_in_place(&mut self, a: &mut Vec<Limb>) {
        sqr_lo_n(&mut self.tmp, a);
        core::mem::swap(a, &mut self.tmp);
    }
    fn mul_in_place(&mut self, a: &mut Vec<Limb>, b: &Vec<Limb>) {
        mul_lo_n(&mut self.tmp, a, b);
        core::mem::swap(a, &mut self.tmp);
    }
}

/// Computes the odd part: `(reducer, base < m_odd as k limbs, exponent limbs) -> k limbs`.
pub type OddPow<'a> = dyn Fn(&dyn Reducer, &[Limb], &[Limb]) -> crate::Result<Vec<Limb>> + 'a;

/// Precomputation for an even modulus.
/// Leaks: variable time (module docs): the base's parity and 2-adic valuation, the exponent's
/// length and windows, the odd part's method's own leaks, and the recombination's.
#[derive(Clone, Debug)]
pub struct EvenCtx {
    t: usize,
    n: usize,
    m_odd: Natural,
    /// Reducer for m_odd (None when m_odd = 1).
    odd: Option<Arc<dyn Reducer>>,
    /// m_odd^{-1} mod 2^(64 n), n = ceil(t / 64).
    inv: Vec<Limb>,
}

impl EvenCtx {
    /// Context for the even modulus `m` (>= 2); the odd part gets `reducer` ("auto" picks the
    /// fastest Montgomery method) on the kernels of `tier` (see [`reduce::build_with_tier`]).
    pub fn new(m: &Natural, reducer: ReducerKind, tier: Tier) -> crate::Result<Self> {
        let t = m.trailing_zeros_vartime().expect("m != 0");
        debug_assert!(t >= 1);
        let m_odd = m >> t;
        let n = t.div_ceil(64);
        let odd = if m_odd.is_one() {
            None
        } else if reducer == ReducerKind::Auto {
            let info = reduce::auto::choose(m_odd.limbs(), Workload::Repeated);
            Some(Arc::from((info.build)(m_odd.limbs(), tier)?))
        } else {
            Some(Arc::from(reduce::build_with_tier(reducer, &m_odd, tier)?))
        };
        // Newton: y0 = m_odd^{-1} mod 2^64; each step doubles the correct bits, so it works
        // modulo 2^(64 len) with len doubling up to n: the steps cost about two truncated
        // products at full length in all (at full length every step, a 1024-byte power of two
        // spent 64 us of a 65 us MODEXP here on an inverse that is 1).
        let mo = m_odd
            .to_padded(n.max(m_odd.len()))
            .expect("at least its own length");
        let mut inv = vec![0; n];
        inv[0] = neg_inv_newton(mo[0]).wrapping_neg();
        let mut len = 1;
        let mut p = vec![0; n];
        let mut q = vec![0; n];
        while len < n && !m_odd.is_one() {
            // Invariant: inv[..len] = m_odd^{-1} mod 2^(64 len), inv[len..] = 0.
            len = (2 * len).min(n);
            mul_lo_n(&mut p[..len], &mo[..len], &inv[..len]); // m y
                                                              // q = 2 - m y mod 2^(64 len)
            q[..len].fill(0);
            q[0] = 2;
            arith::sub_n_in_place(&mut q[..len], &p[..len]);
            let y = inv[..len].to_vec();
            mul_lo_n(&mut inv[..len], &y, &q[..len]);
        }
        Ok(Self {
            t,
            n,
            m_odd,
            odd,
            inv,
        })
    }

    /// Keep the low t bits of an n-limb value.
    fn mask(&self, x: &mut [Limb]) {
        let rem = self.t % 64;
        if rem != 0 {
            x[self.n - 1] &= (1u64 << rem) - 1;
        }
    }

    /// `b^e mod 2^t` as n limbs.
    /// Leaks: variable time: the base's parity and trailing zeros choose the path, and the
    /// sliding-window scan follows the exponent.
    fn pow_2t(&self, base: &Natural, exp: &Natural) -> Vec<Limb> {
        let n = self.n;
        let mut b: Vec<Limb> = base
            .limbs()
            .iter()
            .copied()
            .chain(core::iter::repeat(0))
            .take(n)
            .collect();
        self.mask(&mut b);
        let mut one = vec![0; n];
        one[0] = 1;
        self.mask(&mut one); // 1 mod 2^t (t >= 1, so stays 1)
        if exp.is_zero() {
            return one;
        }
        let e: Vec<Limb> = if b[0] & 1 == 1 {
            // Odd: the unit group mod 2^t has order 2^(t-1).
            let keep = self.t - 1;
            let mut e = exp
                .limbs()
                .iter()
                .copied()
                .chain(core::iter::repeat(0))
                .take(keep.div_ceil(64).max(1))
                .collect::<Vec<_>>();
            if !keep.is_multiple_of(64) {
                let last = e.len() - 1;
                e[last] &= (1u64 << (keep % 64)) - 1;
            } else if keep == 0 {
                e[0] = 0;
            }
            e
        } else {
            let v = match Natural::from_slice(&b).trailing_zeros_vartime() {
                None => return vec![0; n], // b = 0 mod 2^t, e >= 1
                Some(v) => v,
            };
            // b^e has at least e v factors of two.
            if exp.bits() > 64 || (exp.limbs()[0] as u128) * (v as u128) >= self.t as u128 {
                return vec![0; n];
            }
            exp.limbs().to_vec()
        };
        // Sliding windows over truncated products (squares by sqr_lo_n: an odd 2048-bit base
        // and 256-bit exponent mod 2^2047 took 130 us with left-to-right binary on mul_lo_n,
        // 1.84x GMP's mpz_powm).
        let w = tuning::sliding_window_bits(arith::bit_len(&e));
        let mut arith = LowHalf { tmp: vec![0; n] };
        let Some(mut acc) = sliding::run(&mut arith, b, &e, w) else {
            return one; // e reduced to 0 (an odd base to a multiple of the group order)
        };
        self.mask(&mut acc);
        acc
    }

    /// `b^e mod m`; `odd_pow(r, base_k, exp)` computes the odd part with the chosen method
    /// (`base_k < m_odd`, k limbs, plain residue in and out).
    /// Leaks: variable time, as [`EvenCtx`].
    pub fn pow(
        &self,
        base: &Natural,
        exp: &Natural,
        odd_pow: &OddPow<'_>,
    ) -> crate::Result<Natural> {
        let x2 = self.pow_2t(base, exp);
        let x1 = match &self.odd {
            None => Natural::zero(),
            Some(r) => {
                let b = reduce_below(base, r.modulus());
                Natural::from_limbs(odd_pow(&**r, &b, exp.limbs())?)
            }
        };
        // y = (x2 - x1) m_odd^{-1} mod 2^t.
        let n = self.n;
        let x1_lo: Vec<Limb> = x1
            .limbs()
            .iter()
            .copied()
            .chain(core::iter::repeat(0))
            .take(n)
            .collect();
        let mut d = x2;
        arith::sub_n_in_place(&mut d, &x1_lo);
        let mut y = if self.m_odd.is_one() {
            d // the inverse is 1
        } else {
            let mut y = vec![0; n];
            mul_lo_n(&mut y, &d, &self.inv);
            y
        };
        self.mask(&mut y);
        Ok(&x1 + &(&self.m_odd * &Natural::from_limbs(y)))
    }
}

/// `base mod m` as k = m.len() limbs.
/// Leaks: the base's length in limbs and whether it is below m (a base of m's length is
/// compared by a full borrow chain, [`arith::lt_n_ct`], with no early exit); a base `>= m`
/// adds a variable-time division.
pub(crate) fn reduce_below(base: &Natural, m: &[Limb]) -> Vec<Limb> {
    let k = m.len();
    let x = base.limbs();
    let below = match m.last() {
        Some(&top) if top != 0 && x.len() <= k => {
            x.len() < k || arith::lt_n_ct(x, m).to_bool_vartime()
        }
        _ => arith::cmp(x, m).is_lt(),
    };
    let mut v = if below {
        base.limbs().to_vec()
    } else {
        arith::rem_vartime(base.limbs(), m)
    };
    v.resize(k, 0);
    v
}
