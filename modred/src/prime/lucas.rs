//! The strong Lucas probable-prime test with Selfridge's parameters (Baillie–Wagstaff 1980
//! §5; FIPS 186-5 B.3.3), on the reducer's products on k-limb slices.

use super::Tester;
use crate::arith;
use crate::cancel::{self, Poll};
use crate::cpu::{self, Tier};
use crate::error::{Error, Result};
use crate::limb::{div_wide_hw, sbb, Limb};
use crate::natural::Natural;
#[cfg(target_arch = "x86_64")]
use crate::reduce::montgomery::ifma::SliceProducts;
use crate::reduce::Reducer;
#[cfg(target_arch = "x86_64")]
use crate::tuning::LUCAS_IFMA_MIN_LIMBS;

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

/// Where the chain's products run.
enum Products<'a> {
    /// The tester's reducer (in its representation), with its scratch.
    Reducer {
        r: &'a dyn Reducer,
        scratch: Vec<Limb>,
    },
    /// AVX-512 IFMA almost Montgomery products on limbs (representation x 2^(52 n) mod m).
    #[cfg(target_arch = "x86_64")]
    Ifma(SliceProducts),
}

/// The slices of one Lucas chain modulo m: where its products run, the representation of 1
/// there, and m's top word for [`Chain::mul_small`]. Every value is k limbs, `< m`, in a
/// representation that is linear (repr(x) = x c mod m for a constant c invertible mod m), so
/// sums, differences, word multiples and zero tests need no conversion.
struct Chain<'a> {
    products: Products<'a>,
    m: &'a [Limb],
    /// The representation of 1.
    one: Vec<Limb>,
    /// m's top 64 bits (m normalised), and the shift that normalises it.
    m_top: u64,
    shift: u32,
}

impl<'a> Chain<'a> {
    /// The chain modulo the reducer's modulus: its products on the AVX-512 IFMA kernels when
    /// `tier` (capped by the CPU) is [`Tier::Ifma`] and they serve the size (measured 1.3 to
    /// 2.8 times faster per product than the MULX/ADX kernels at 1024 to 4096 bits), else
    /// on the reducer's.
    fn new(r: &'a dyn Reducer, tier: Tier) -> Self {
        let m = r.modulus();
        let k = m.len();
        let below = if k >= 2 { m[k - 2] } else { 0 };
        let shift = m[k - 1].leading_zeros();
        let m_top = if shift == 0 {
            m[k - 1]
        } else {
            (m[k - 1] << shift) | (below >> (64 - shift))
        };
        #[cfg(target_arch = "x86_64")]
        if let Some(sp) = (k >= LUCAS_IFMA_MIN_LIMBS)
            .then(|| SliceProducts::new(m, tier))
            .flatten()
        {
            return Self {
                one: sp.one().to_vec(),
                products: Products::Ifma(sp),
                m,
                m_top,
                shift,
            };
        }
        let _ = tier;
        Self {
            products: Products::Reducer {
                r,
                scratch: vec![0; r.scratch_len()],
            },
            m,
            one: r.one().to_vec(),
            m_top,
            shift,
        }
    }

    /// `out = a b` in representation, `< m`, for `a, b < m`.
    fn mul(&mut self, out: &mut [Limb], a: &[Limb], b: &[Limb]) {
        match &mut self.products {
            Products::Reducer { r, scratch } => r.mul_unchecked(out, a, b, scratch),
            #[cfg(target_arch = "x86_64")]
            Products::Ifma(sp) => sp.mul(out, a, b),
        }
    }

    /// `out = a^2` in representation, `< m`, for `a < m`.
    fn sqr(&mut self, out: &mut [Limb], a: &[Limb]) {
        match &mut self.products {
            Products::Reducer { r, scratch } => r.sqr_unchecked(out, a, scratch),
            #[cfg(target_arch = "x86_64")]
            Products::Ifma(sp) => sp.sqr(out, a),
        }
    }

    /// `x = (x - y) mod m` in place for `x, y < m`: m is added back when the subtraction
    /// borrows. Leaks: variable time (that branch).
    fn sub(&self, x: &mut [Limb], y: &[Limb]) {
        if arith::sub_n_in_place(x, y) != 0 {
            arith::add_n_in_place(x, self.m);
        }
        debug_assert!(arith::cmp_n(x, self.m).is_lt());
    }

    /// `x = (x - 2y) mod m` for `x, y < m`.
    fn sub2(&self, x: &mut [Limb], y: &[Limb]) {
        self.sub(x, y);
        self.sub(x, y);
    }

    /// `x = -x mod m` in place for `x < m` (m - x for x > 0).
    /// Leaks: variable time (the zero test).
    fn neg(&self, x: &mut [Limb]) {
        if arith::is_zero(x) {
            return;
        }
        let mut borrow = 0;
        for (xi, &mi) in x.iter_mut().zip(self.m) {
            (*xi, borrow) = sbb(mi, *xi, borrow);
        }
        debug_assert_eq!(borrow, 0);
    }

    /// `out = c x mod m` for `x < m` and a word `c < 2^63` (representations are linear, so
    /// this is repr(c X) for x = repr(X)): `t = c x < c m` (k + 1 limbs), then the quotient
    /// estimate `q = floor(t_top / (m_top + 1))` from the top 128 bits of t and the top 64 of
    /// m at the same alignment, which is at most the true quotient and at most 2 below it
    /// (m_top >= 2^63 and q < 2^63), then at most 3 subtractions of m (the estimate of Knuth,
    /// *The Art of Computer Programming* vol. 2, §4.3.1, Algorithm D step D3, from below).
    /// Leaks: variable time (the correction steps).
    fn mul_small(&self, out: &mut [Limb], x: &[Limb], c: u64) {
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
    /// Leaks: variable time.
    fn mul_signed(&self, out: &mut [Limb], x: &[Limb], q: i64) {
        self.mul_small(out, x, q.unsigned_abs());
        if q < 0 {
            self.neg(out);
        }
    }
}

/// Q^j along the chain. For Q = -1 (D = 5, about half of all n; Q = 1 never occurs in
/// Selfridge's sequence) Q^j = ±1 by the parity of j, so it costs no square and its word
/// products are the precomputed representations of ±1 and ±2; for any other Q it is a
/// residue, squared at every bit.
enum QPower {
    /// Q = -1: whether j is odd (Q^j = -1), and repr(1), repr(-1), repr(2), repr(-2).
    MinusOne {
        odd: bool,
        one: Vec<Limb>,
        minus_one: Vec<Limb>,
        two: Vec<Limb>,
        minus_two: Vec<Limb>,
    },
    /// Another Q: Q^j in representation, the word Q, and scratch for Q^{j+1} and (Q^j)^2.
    Other {
        qj: Vec<Limb>,
        q: i64,
        tmp: Vec<Limb>,
    },
}

impl QPower {
    /// Q^1 = Q (`q != 1`) on the chain `c`.
    fn new(c: &Chain, q: i64) -> Self {
        let k = c.m.len();
        let one = c.one.clone();
        if q == -1 {
            let mut minus_one = one.clone();
            c.neg(&mut minus_one);
            let mut two = vec![0; k];
            c.mul_small(&mut two, &one, 2);
            let mut minus_two = two.clone();
            c.neg(&mut minus_two);
            QPower::MinusOne {
                odd: true,
                one,
                minus_one,
                two,
                minus_two,
            }
        } else {
            let mut qj = vec![0; k];
            c.mul_signed(&mut qj, &one, q);
            QPower::Other {
                qj,
                q,
                tmp: vec![0; k],
            }
        }
    }

    /// Q^j in representation (`< m`).
    fn qj(&self) -> &[Limb] {
        match self {
            QPower::MinusOne {
                odd: true,
                minus_one,
                ..
            } => minus_one,
            QPower::MinusOne { one, .. } => one,
            QPower::Other { qj, .. } => qj,
        }
    }

    /// `x = (x - 2 Q^j) mod m`, or `(x - 2 Q^{j+1}) mod m` when `next`, for `x < m`: for
    /// Q = -1 one subtraction of repr(±2); else two of Q^j, or of Q^{j+1} = Q^j Q (a word
    /// product).
    /// Leaks: variable time (the subtractions' branches).
    fn sub_two_q(&mut self, c: &Chain, x: &mut [Limb], next: bool) {
        match self {
            QPower::MinusOne {
                odd,
                two,
                minus_two,
                ..
            } => c.sub(x, if *odd != next { minus_two } else { two }),
            QPower::Other { qj, q, tmp } if next => {
                c.mul_signed(tmp, qj, *q);
                c.sub2(x, tmp);
            }
            QPower::Other { qj, .. } => c.sub2(x, qj),
        }
    }

    /// j becomes 2j + `bit`: for Q = -1 the parity, else Q^{2j} = (Q^j)^2 times Q for a 1 bit.
    fn advance(&mut self, c: &mut Chain, bit: bool) {
        match self {
            QPower::MinusOne { odd, .. } => *odd = bit,
            QPower::Other { qj, q, tmp } => {
                c.sqr(tmp, qj);
                if bit {
                    c.mul_signed(qj, tmp, *q);
                } else {
                    core::mem::swap(qj, tmp);
                }
                debug_assert!(arith::cmp_n(qj, c.m).is_lt());
            }
        }
    }
}

/// Whether odd `n >= 3` (the tester's) is a strong Lucas probable prime with
/// Selfridge's parameters D, P = 1, Q = (1 - D)/4 (Baillie–Wagstaff 1980 §5; FIPS 186-5
/// B.3.3): with n + 1 = d 2^s, d odd, n passes if U_d = 0 or V_{d 2^r} = 0 (mod n) for some
/// 0 <= r < s. `false` when the parameter search finds n composite (a perfect square, or a
/// factor of D or Q). The products run on the AVX-512 IFMA kernels on that tier (see
/// [`strong_lucas_on`]).
/// Errors: [`Error::Cancelled`] (polled in the chain).
/// Leaks: variable time (the bits of n, the early exits).
pub(crate) fn strong_lucas(t: &Tester) -> Result<bool> {
    strong_lucas_on(t, cpu::tier())
}

/// [`strong_lucas`] with the chain's products on the AVX-512 IFMA kernels when `tier` (capped
/// by the CPU) is [`Tier::Ifma`] and they serve n's size, else on the tester's reducer (the
/// answer is the same; the tests run both).
///
/// The chain computes V_d, V_{d+1} and Q^d left to right over the bits of d (Crandall–
/// Pomerance §3.6.1): from (V_j, V_{j+1}, Q^j),
/// V_{2j+1} = V_j V_{j+1} - P Q^j, and V_{2j} = V_j^2 - 2 Q^j with Q^{2j} = (Q^j)^2 for a
/// 0 bit, or V_{2j+2} = V_{j+1}^2 - 2 Q^{j+1} with Q^{2j+1} = (Q^j)^2 Q for a 1 bit: one
/// product and two squares per bit, the products by Q being word multiplications. For
/// Q = -1, Q^j = (-1)^j needs no square ([`QPower`]): one product and one square per bit.
/// Then U_d = 0 iff 2 V_{d+1} = P V_d (as D U_j = 2 V_{j+1} - P V_j and gcd(D, n) = 1), and
/// V_{2j} = V_j^2 - 2 Q^j gives the V_{d 2^r}. Errors: [`Error::Cancelled`] (polled in the
/// chain).
/// Leaks: variable time (the bits of n, the early exits, whether Q = -1).
pub(crate) fn strong_lucas_on(t: &Tester, tier: Tier) -> Result<bool> {
    let n = t.n();
    let Some(d_param) = selfridge_d(n) else {
        return Ok(false);
    };
    // Q = (1 - D)/4: D = 1 mod 4 for both signs of Selfridge's sequence.
    let q = (1 - d_param) / 4;
    debug_assert!(q != 1, "D = -3 is not in Selfridge's sequence");
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
    let mut c = Chain::new(r, tier);
    let n_plus_1 = n + &Natural::one();
    let s = n_plus_1.trailing_zeros_vartime().expect("n + 1 > 0");
    let d = &n_plus_1 >> s;
    // j = 1: V_1 = P = 1, V_2 = P^2 - 2Q = 1 - 2Q, Q^1 = Q (d's top bit is 1).
    let mut qpow = QPower::new(&c, q);
    let mut vj = c.one.clone();
    let mut vj1 = c.one.clone();
    qpow.sub_two_q(&c, &mut vj1, false);
    let (mut t1, mut t2) = (vec![0; k], vec![0; k]);
    let mut poll = Poll::for_limbs(k);
    // Invariant: (vj, vj1) = (V_j, V_{j+1}) in representation, j = d >> (i + 1), and qpow
    // holds Q^j.
    for i in (0..d.bits() - 1).rev() {
        if poll.stop() {
            return Err(Error::Cancelled);
        }
        let bit = d.bit(i);
        // t1 = V_{2j+1} = V_j V_{j+1} - Q^j (P = 1).
        c.mul(&mut t1, &vj, &vj1);
        c.sub(&mut t1, qpow.qj());
        if bit {
            // t2 = V_{2j+2} = V_{j+1}^2 - 2 Q^{j+1}.
            c.sqr(&mut t2, &vj1);
            qpow.sub_two_q(&c, &mut t2, true);
            core::mem::swap(&mut vj, &mut t1);
            core::mem::swap(&mut vj1, &mut t2);
        } else {
            // t2 = V_{2j} = V_j^2 - 2 Q^j.
            c.sqr(&mut t2, &vj);
            qpow.sub_two_q(&c, &mut t2, false);
            core::mem::swap(&mut vj, &mut t2);
            core::mem::swap(&mut vj1, &mut t1);
        }
        qpow.advance(&mut c, bit);
        debug_assert!(arith::cmp_n(&vj, c.m).is_lt() && arith::cmp_n(&vj1, c.m).is_lt());
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
    // V_{d 2^r} for r = 1..s-1. Invariant: vj = V_j and qpow holds Q^j, j = d 2^(r - 1)
    // (Q^j is not advanced past the last step).
    for r_step in 1..s {
        c.sqr(&mut t2, &vj);
        qpow.sub_two_q(&c, &mut t2, false);
        if r_step + 1 < s {
            qpow.advance(&mut c, false);
        }
        core::mem::swap(&mut vj, &mut t2);
        if arith::is_zero(&vj) {
            return Ok(true);
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

#[cfg(test)]
mod tests {
    use super::*;
    use rug::integer::IsPrime;
    use rug::rand::RandState;
    use rug::Integer;

    /// The strong Lucas test with Selfridge's parameters on rug integers, by another chain than
    /// the one under test: (U_j, V_j, Q^j) doubled by U_{2j} = U_j V_j, V_{2j} = V_j^2 - 2 Q^j,
    /// and stepped by U_{j+1} = (P U_j + V_j)/2, V_{j+1} = (D U_j + P V_j)/2 (Crandall–
    /// Pomerance §3.6.1), then the same pass condition.
    fn oracle(n: &Integer) -> bool {
        if n.is_perfect_square() {
            return false;
        }
        let mut d: i64 = 5;
        loop {
            match Integer::from(d).jacobi(n) {
                -1 => break,
                0 if *n != d.unsigned_abs() => return false,
                _ => {}
            }
            d = if d > 0 { -(d + 2) } else { -d + 2 };
        }
        let q = (1 - d) / 4;
        if Integer::from(q).gcd(n) != 1 {
            return false;
        }
        let half = |x: Integer| -> Integer {
            let x = x.modulo(n);
            if x.is_odd() {
                (x + n) >> 1
            } else {
                x >> 1
            }
        };
        let np1 = Integer::from(n + 1);
        let s = np1.find_one(0).expect("n + 1 > 0");
        let e = Integer::from(&np1 >> s);
        let (mut u, mut v, mut qk) = (
            Integer::from(1),
            Integer::from(1),
            Integer::from(q).modulo(n),
        );
        for i in (0..e.significant_bits() - 1).rev() {
            u = (u * &v).modulo(n);
            v = (Integer::from(v.square_ref()) - Integer::from(2 * &qk)).modulo(n);
            qk = Integer::from(qk.square_ref()).modulo(n);
            if e.get_bit(i) {
                let (u1, v1) = (half(Integer::from(&u + &v)), half(d * u + v));
                (u, v) = (u1, v1);
                qk = (qk * q).modulo(n);
            }
        }
        if u == 0 || v == 0 {
            return true;
        }
        for _ in 1..s {
            v = (Integer::from(v.square_ref()) - Integer::from(2 * &qk)).modulo(n);
            qk = Integer::from(qk.square_ref()).modulo(n);
            if v == 0 {
                return true;
            }
        }
        false
    }

    fn nat(x: &Integer) -> Natural {
        Natural::parse(&x.to_string()).expect("decimal")
    }

    /// Both product paths (the AVX-512 IFMA slices where the CPU has them, and the tester's
    /// reducer) against the rug oracle: Selfridge-parameter strong Lucas pseudoprimes (OEIS
    /// A217255; 5777 has D = 5, 5459 D = -7), and at 1536 to 4096 bits (the IFMA sizes) GMP
    /// primes and products of two primes, each with D = 5 (Q = -1) and with another D, and
    /// random odd numbers.
    #[test]
    fn q_minus_one_and_other_q_match_an_independent_oracle() {
        let slprp = [
            5459u64, 5777, 10877, 16109, 18971, 22499, 24569, 25199, 40309, 58519, 75077, 97439,
        ];
        let mut cases: Vec<Integer> = slprp.iter().map(|&x| Integer::from(x)).collect();
        cases.extend([3u32, 5, 7, 9, 11, 13, 15, 21, 25, 49].map(Integer::from));
        let mut rng = RandState::new();
        rng.seed(&Integer::from(0x1ca5));
        let (mut d5, mut other) = (0, 0);
        for bits in [1536u32, 2048, 4096] {
            let want_each = if bits == 4096 { 1 } else { 2 };
            let (mut p5, mut po, mut c5, mut co) = (0, 0, 0, 0);
            while p5 < want_each || po < want_each || c5 < want_each || co < want_each {
                let mut x = Integer::from(Integer::random_bits(bits, &mut rng));
                x.set_bit(bits - 1, true);
                let p = x.next_prime();
                let mut y = Integer::from(Integer::random_bits(bits / 2, &mut rng));
                y.set_bit(bits / 2 - 1, true);
                let pq = Integer::from(&p >> (bits / 2)).next_prime() * y.next_prime();
                for (z, is_p) in [(p, true), (pq, false)] {
                    let five = z.jacobi(&Integer::from(5)) == -1;
                    let slot = match (is_p, five) {
                        (true, true) => &mut p5,
                        (true, false) => &mut po,
                        (false, true) => &mut c5,
                        (false, false) => &mut co,
                    };
                    if *slot < want_each {
                        *slot += 1;
                        cases.push(z);
                    }
                }
            }
            let odd = Integer::from(Integer::random_bits(bits, &mut rng)) | 1u32;
            cases.push(odd);
        }
        for z in &cases {
            let n = nat(z);
            let t = Tester::new(&n).expect("tester");
            let want = oracle(z);
            if z.is_probably_prime(25) != IsPrime::No {
                assert!(want, "the oracle fails the prime {z}");
            }
            for tier in [Tier::Ifma, Tier::Adx, Tier::Portable] {
                assert_eq!(strong_lucas_on(&t, tier), Ok(want), "{z} on {tier:?}");
            }
            if z.jacobi(&Integer::from(5)) == -1 {
                d5 += 1;
            } else {
                other += 1;
            }
        }
        assert!(d5 >= 10 && other >= 10, "{d5} with D = 5, {other} others");
        for x in slprp {
            assert!(oracle(&Integer::from(x)), "{x}");
        }
    }
}
