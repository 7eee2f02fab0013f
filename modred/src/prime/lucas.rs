//! The strong Lucas probable-prime test with Selfridge's parameters (Baillie–Wagstaff 1980
//! §5; FIPS 186-5 B.3.3), on the reducer's products on k-limb slices.

use super::Tester;
use crate::arith;
use crate::cancel::{self, Poll};
use crate::error::{Error, Result};
use crate::limb::{div_wide_hw, Limb};
use crate::natural::Natural;
use crate::reduce::Reducer;

/// The Jacobi symbol (a/m) for odd `m >= 1` (Cohen, *A Course in Computational Algebraic
/// Number Theory*, 1993, Algorithm 1.4.10, on words).
/// Leaks: variable time (Euclid's steps).
pub(crate) fn jacobi(mut a: u64, mut m: u64) -> i32 {
    debug_assert!(m & 1 == 1);
    a %= m;
    let mut t = 1;
    // Invariant: the answer is t (a/m).
    while a != 0 {
        let z = a.trailing_zeros();
        a >>= z;
        // (2/m) = -1 iff m = 3, 5 mod 8.
        if z & 1 == 1 && (m & 7 == 3 || m & 7 == 5) {
            t = -t;
        }
        // Quadratic reciprocity for odd a, m: a sign change iff both are 3 mod 4.
        if a & 3 == 3 && m & 3 == 3 {
            t = -t;
        }
        (a, m) = (m % a, a);
    }
    if m == 1 {
        t
    } else {
        0
    }
}

/// The Jacobi symbol (D/n) for a small odd |D| and odd n: (sign/n)(|D|/n), with
/// (-1/n) = -1 iff n = 3 mod 4 and (|D|/n) = (n mod |D| / |D|) times the reciprocity sign.
fn jacobi_big(d: i64, n: &Natural) -> i32 {
    let ad = d.unsigned_abs();
    debug_assert!(ad & 1 == 1);
    let n0 = n.limbs()[0];
    let r = arith::div_rem_1(None, n.limbs(), ad);
    let mut j = jacobi(r, ad);
    if ad & 3 == 3 && n0 & 3 == 3 {
        j = -j;
    }
    if d < 0 && n0 & 3 == 3 {
        j = -j;
    }
    j
}

/// Whether `n` is a perfect square, by Newton's iteration for floor(sqrt(n)) from above
/// (Crandall–Pomerance Algorithm 9.2.11) after a filter by the squares modulo 64, 63 and 65.
/// Leaks: variable time.
pub(crate) fn is_square_vartime(n: &Natural) -> bool {
    let n0 = n.limbs().first().copied().unwrap_or(0);
    // Squares mod 64 are 0, 1, 4, 9, 16, 17, 25, 33, 36, 41, 49, 57.
    const SQ64: u64 = (1 << 0)
        | (1 << 1)
        | (1 << 4)
        | (1 << 9)
        | (1 << 16)
        | (1 << 17)
        | (1 << 25)
        | (1 << 33)
        | (1 << 36)
        | (1 << 41)
        | (1 << 49)
        | (1 << 57);
    if SQ64 >> (n0 & 63) & 1 == 0 {
        return false;
    }
    let r = arith::div_rem_1(None, n.limbs(), 63 * 65);
    let sq = |m: u64| (0..m).any(|x| x * x % m == r % m);
    if !sq(63) || !sq(65) {
        return false;
    }
    if n.is_zero() {
        return true;
    }
    // x0 = 2^ceil(bits/2) >= sqrt(n); x_{i+1} = (x_i + n / x_i) / 2 decreases to floor(sqrt(n)).
    let mut x = Natural::power_of_two(n.bits().div_ceil(2));
    loop {
        let q = n.div_rem_vartime(&x).expect("x > 0").0;
        let y = &(&x + &q) >> 1;
        if y >= x {
            break;
        }
        x = y;
    }
    &x * &x == *n
}

/// Selfridge's method A (Baillie–Wagstaff 1980 §5, after Pomerance–Selfridge–Wagstaff 1980):
/// the first D of 5, -7, 9, -11, ... with (D/n) = -1, for odd n >= 3. `None` when n is
/// composite on the way: (D/n) = 0 with |D| != n (a common factor), or n is a perfect square
/// (checked once the search passes a few values, since no such D exists for a square).
fn selfridge_d(n: &Natural) -> Option<i64> {
    let mut d: i64 = 5;
    for tries in 0.. {
        match jacobi_big(d, n) {
            -1 => return Some(d),
            0 if n.to_u64() != Some(d.unsigned_abs()) => return None,
            _ => {}
        }
        if tries == 8 && is_square_vartime(n) {
            return None;
        }
        d = if d > 0 { -(d + 2) } else { -d + 2 };
    }
    unreachable!("the loop returns")
}

/// The slices of one Lucas chain: k-limb buffers and the reducer's scratch, allocated once.
struct Chain<'a> {
    r: &'a dyn Reducer,
    m: &'a [Limb],
    scratch: Vec<Limb>,
    tmp: Vec<Limb>,
    /// m's top 64 bits (m normalised), and the shift that normalises it.
    m_top: u64,
    shift: u32,
}

impl<'a> Chain<'a> {
    fn new(r: &'a dyn Reducer) -> Self {
        let m = r.modulus();
        let k = m.len();
        let below = if k >= 2 { m[k - 2] } else { 0 };
        let shift = m[k - 1].leading_zeros();
        let m_top = if shift == 0 {
            m[k - 1]
        } else {
            (m[k - 1] << shift) | (below >> (64 - shift))
        };
        Self {
            r,
            m,
            scratch: vec![0; r.scratch_len()],
            tmp: vec![0; k],
            m_top,
            shift,
        }
    }

    /// `out = a b` in representation.
    fn mul(&mut self, out: &mut [Limb], a: &[Limb], b: &[Limb]) {
        self.r.mul_unchecked(out, a, b, &mut self.scratch);
    }

    /// `out = a^2` in representation.
    fn sqr(&mut self, out: &mut [Limb], a: &[Limb]) {
        self.r.sqr_unchecked(out, a, &mut self.scratch);
    }

    /// `x = (x - y) mod m` for `x, y < m`.
    fn sub(&mut self, x: &mut [Limb], y: &[Limb]) {
        self.tmp.copy_from_slice(x);
        arith::sub_mod(x, &self.tmp, y, self.m);
    }

    /// `x = (x - 2y) mod m` for `x, y < m`.
    fn sub2(&mut self, x: &mut [Limb], y: &[Limb]) {
        self.sub(x, y);
        self.sub(x, y);
    }

    /// `out = c x mod m` for `x < m` and a word `c < 2^63` (representations are linear, so
    /// this is repr(c X) for x = repr(X)): `t = c x < c m` (k + 1 limbs), then the quotient
    /// estimate `q = floor(t_top / (m_top + 1))` from the top 128 bits of t and the top 64 of
    /// m at the same alignment, which is at most the true quotient and at most 2 below it
    /// (m_top >= 2^63 and q < 2^63), then at most 3 subtractions of m (the estimate of Knuth,
    /// *The Art of Computer Programming* vol. 2, §4.3.1, Algorithm D step D3, from below).
    /// Leaks: variable time (the correction steps).
    fn mul_small(&mut self, out: &mut [Limb], x: &[Limb], c: u64) {
        let k = self.m.len();
        let mut hi = arith::mul_1(out, x, c);
        // t >> (64 (k - 2) - shift): the top 128 bits aligned with m_top (for k = 1,
        // t << shift, which fits as t < 2^63 m).
        let t0 = if k >= 2 { out[k - 2] } else { 0 };
        let (t2, t1) = (hi, out[k - 1]);
        let (top_hi, top_lo) = if self.shift == 0 {
            (t2, t1)
        } else {
            (
                (t2 << self.shift) | (t1 >> (64 - self.shift)),
                (t1 << self.shift) | (t0 >> (64 - self.shift)),
            )
        };
        // top_hi < m_top + 1 (as t < c m < 2^63 m), so the quotient fits a word.
        let q = if self.m_top == u64::MAX {
            top_hi
        } else {
            div_wide_hw(top_hi, top_lo, self.m_top + 1).0
        };
        let borrow = arith::submul_1(out, self.m, q);
        hi = hi.wrapping_sub(borrow);
        // Invariant: (hi, out) = t - q' m >= 0 for the quotient q' taken so far.
        let mut steps = 0;
        while hi != 0 || arith::cmp_n(out, self.m).is_ge() {
            let b = arith::sub_n_in_place(out, self.m);
            hi = hi.wrapping_sub(b);
            steps += 1;
            debug_assert!(steps <= 3, "quotient estimate off by more than 3");
        }
    }

    /// `out = q x mod m` for `x < m` and the signed word `q` (|q| < 2^63).
    fn mul_signed(&mut self, out: &mut [Limb], x: &[Limb], q: i64) {
        self.mul_small(out, x, q.unsigned_abs());
        if q < 0 && !arith::is_zero(out) {
            // -y = m - y for 0 < y < m.
            self.tmp.copy_from_slice(out);
            arith::sub_n(out, self.m, &self.tmp);
        }
    }
}

/// Whether odd `n >= 3` (the tester's) is a strong Lucas probable prime with
/// Selfridge's parameters D, P = 1, Q = (1 - D)/4 (Baillie–Wagstaff 1980 §5; FIPS 186-5
/// B.3.3): with n + 1 = d 2^s, d odd, n passes if U_d = 0 or V_{d 2^r} = 0 (mod n) for some
/// 0 <= r < s. `false` when the parameter search finds n composite (a perfect square, or a
/// factor of D or Q).
///
/// The chain computes V_d, V_{d+1} and Q^d left to right over the bits of d (Crandall–
/// Pomerance §3.6.1): from (V_j, V_{j+1}, Q^j),
/// V_{2j+1} = V_j V_{j+1} - P Q^j, and V_{2j} = V_j^2 - 2 Q^j with Q^{2j} = (Q^j)^2 for a
/// 0 bit, or V_{2j+2} = V_{j+1}^2 - 2 Q^{j+1} with Q^{2j+1} = (Q^j)^2 Q for a 1 bit: one
/// product and two squares per bit, the products by Q being word multiplications. Then
/// U_d = 0 iff 2 V_{d+1} = P V_d (as D U_j = 2 V_{j+1} - P V_j and gcd(D, n) = 1), and
/// V_{2j} = V_j^2 - 2 Q^j gives the V_{d 2^r}. Errors: [`Error::Cancelled`] (polled in the
/// chain).
/// Leaks: variable time (the bits of n, the early exits).
pub(crate) fn strong_lucas(t: &Tester) -> Result<bool> {
    let n = t.n();
    let Some(d_param) = selfridge_d(n) else {
        return Ok(false);
    };
    // Q = (1 - D)/4: D = 1 mod 4 for both signs of Selfridge's sequence.
    let q = (1 - d_param) / 4;
    // gcd(Q, n) > 1 means composite: n does not divide Q, or D = 1 - 4Q = 1 mod n would give
    // (D/n) = 1.
    let qa = q.unsigned_abs();
    if qa > 1 {
        let r = arith::div_rem_1(None, n.limbs(), qa);
        if gcd(r, qa) != 1 {
            return Ok(false);
        }
    }
    let r = t.reducer();
    let k = r.len();
    let mut c = Chain::new(r);
    let n_plus_1 = n + &Natural::one();
    let s = n_plus_1.trailing_zeros_vartime().expect("n + 1 > 0");
    let d = &n_plus_1 >> s;

    // j = 1: V_1 = P = 1, V_2 = P^2 - 2Q = 1 - 2Q, Q^1 = Q (d's top bit is 1).
    let one = r.one().to_vec();
    let mut vj = one.clone();
    let mut qj = vec![0; k];
    c.mul_signed(&mut qj, &one, q);
    let mut vj1 = one;
    c.sub2(&mut vj1, &qj);
    let (mut t1, mut t2, mut t3) = (vec![0; k], vec![0; k], vec![0; k]);
    let mut poll = Poll::for_limbs(k);
    // Invariant: (vj, vj1, qj) = (V_j, V_{j+1}, Q^j) in representation, j = d >> (i + 1).
    for i in (0..d.bits() - 1).rev() {
        if poll.stop() {
            return Err(Error::Cancelled);
        }
        // t1 = V_{2j+1} = V_j V_{j+1} - Q^j (P = 1).
        c.mul(&mut t1, &vj, &vj1);
        c.sub(&mut t1, &qj);
        if d.bit(i) {
            // t2 = V_{2j+2} = V_{j+1}^2 - 2 Q^{j+1}, with t3 = Q^{j+1}.
            c.mul_signed(&mut t3, &qj, q);
            c.sqr(&mut t2, &vj1);
            c.sub2(&mut t2, &t3);
            // Q^{2j+1} = (Q^j)^2 Q.
            c.sqr(&mut t3, &qj);
            c.mul_signed(&mut qj, &t3, q);
            core::mem::swap(&mut vj, &mut t1);
            core::mem::swap(&mut vj1, &mut t2);
        } else {
            // t2 = V_{2j} = V_j^2 - 2 Q^j; Q^{2j} = (Q^j)^2.
            c.sqr(&mut t2, &vj);
            c.sub2(&mut t2, &qj);
            c.sqr(&mut t3, &qj);
            core::mem::swap(&mut qj, &mut t3);
            core::mem::swap(&mut vj, &mut t2);
            core::mem::swap(&mut vj1, &mut t1);
        }
        debug_assert!(arith::cmp_n(&vj, c.m).is_lt() && arith::cmp_n(&vj1, c.m).is_lt());
        debug_assert!(arith::cmp_n(&qj, c.m).is_lt());
    }
    if cancel::requested() {
        return Err(Error::Cancelled);
    }
    // U_d = 0 iff 2 V_{d+1} - V_d = 0.
    let mut u = vj1.clone();
    c.sub(&mut u, &vj);
    arith::add_mod(&mut t2, &u, &vj1, c.m, &mut t1);
    if arith::is_zero(&t2) || arith::is_zero(&vj) {
        return Ok(true);
    }
    // V_{d 2^r} for r = 1..s-1.
    for r_step in 1..s {
        c.sqr(&mut t2, &vj);
        c.sub2(&mut t2, &qj);
        core::mem::swap(&mut vj, &mut t2);
        if arith::is_zero(&vj) {
            return Ok(true);
        }
        if r_step + 1 < s {
            c.sqr(&mut t2, &qj);
            core::mem::swap(&mut qj, &mut t2);
        }
    }
    Ok(false)
}

/// gcd of two words (Euclid).
fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}
