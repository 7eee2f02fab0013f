//! Division by large divisors on the fast product: a Newton reciprocal and Barrett's quotient
//! estimate, block by block.
//!
//! For a normalized n-limb divisor d (top bit set) the reciprocal V = floor(B^2n / d) (n + 1
//! limbs) comes from Newton's iteration x <- x + x (B^2n - x d) / B^2n, which doubles the number
//! of correct limbs: V of the top h ~ n/2 limbs of d, shifted, is correct to about h limbs, one
//! step makes it correct to about n limbs, and a final check (the remainder B^2n - V d must lie
//! in [0, d)) makes it exact. The products have at most n limbs on a side, so the reciprocal
//! costs a few products of size n (Brent and Zimmermann, "Modern Computer Arithmetic", 2010,
//! section 3.4.1; the exact correction as in their Algorithm 3.5's remark).
//!
//! A 2n-by-n quotient then costs two products (Barrett, "Implementing the Rivest Shamir and
//! Adleman public key encryption algorithm on a standard digital signal processor", CRYPTO '86;
//! the bound of Menezes, van Oorschot, Vanstone, "Handbook of Applied Cryptography", 14.42): with
//! W < d B^n, q^ = floor(floor(W / B^(n-1)) V / B^(n+1)) is q - 2 <= q^ <= q, and W - q^ d < 3d
//! leaves at most two subtractions. A longer dividend is processed n limbs at a time, top first.
//!
//! Both methods compute a difference known to be small (B^2n - x d in Newton's step, W - q^ d in
//! Barrett's) from a product whose top limbs cancel: that product is taken mod B^N - 1 for an N
//! of the difference's length, and its lowest limb apart ([`sub_product_wrapped`]; the
//! wrap-around of GMP's `mpn_mu_div_qr` and `mpn_ni_invertappr`), by a cyclic transform or
//! [`mulmod_bnm1`], about half the cost of the full product.
//!
//! Variable time: the kernels trim their operands, compare, and loop on data-dependent
//! corrections.

#[cfg(test)]
use super::divrem_normalized;
use super::mulmod_bnm1::{mulmod_bnm1, mulmod_bnm1_size};
use super::{add_1_in_place, add_mod_bnm1, cmp, mul, ntt, shl, sub_in_place, trim};
use crate::cpu::Tier;
use crate::limb::{Limb, LIMB_BITS};
use core::cmp::Ordering;

/// Divisor size (limbs) from which a one-off division ([`super::div_rem`]) goes through the
/// Newton reciprocal, on the tier in use ([`crate::cpu::tier`]; see [`crate::tuning`]).
pub fn division_threshold() -> usize {
    use crate::tuning::*;
    match crate::cpu::tier() {
        Tier::Ifma => DIV_NEWTON_THRESHOLD_IFMA,
        Tier::Adx => DIV_NEWTON_THRESHOLD_ADX,
        Tier::Portable => DIV_NEWTON_THRESHOLD_PORTABLE,
    }
}

/// Divisor size (limbs) from which a context that divides by one number many times keeps a
/// [`Reciprocal`], on the tier in use ([`crate::cpu::tier`]; see [`crate::tuning`]).
pub fn reuse_threshold() -> usize {
    use crate::tuning::*;
    match crate::cpu::tier() {
        Tier::Ifma => RECIPROCAL_REUSE_THRESHOLD_IFMA,
        Tier::Adx => RECIPROCAL_REUSE_THRESHOLD_ADX,
        Tier::Portable => RECIPROCAL_REUSE_THRESHOLD_PORTABLE,
    }
}

/// floor(B^2n / d) for a normalized n-limb `d` (top bit set), n + 1 limbs (the top one is 1, or
/// 2 when d = B^n / 2): [`reciprocal_approx`], then made exact with one product.
/// Leaks: variable time (module docs): trims, comparisons and the final correction's steps.
pub fn reciprocal(d: &[Limb]) -> Vec<Limb> {
    let mut x = reciprocal_approx(d);
    if d.len() >= crate::tuning::RECIPROCAL_BASECASE.max(8) {
        x.resize(d.len() + 2, 0);
        correct(&mut x, d);
        x.truncate(d.len() + 1);
    }
    x
}

/// floor(B^2n / d) within a few units (exact below [`crate::tuning::RECIPROCAL_BASECASE`]
/// limbs, by one schoolbook division), n + 1 limbs: Newton's iteration (module docs) without
/// the exact correction, here or in the recursive calls. A Barrett step that checks its
/// remainder in both directions ([`Reciprocal::div_rem`]) needs no more.
/// Leaks: variable time, as [`reciprocal`].
pub fn reciprocal_approx(d: &[Limb]) -> Vec<Limb> {
    let n = d.len();
    debug_assert!(n >= 1 && d[n - 1] >> (LIMB_BITS - 1) == 1);
    if n < crate::tuning::RECIPROCAL_BASECASE.max(8) {
        let mut u = vec![0; 2 * n + 1];
        u[2 * n] = 1;
        let (mut q, _) = super::div_rem(&u, d);
        q.resize(n + 1, 0);
        return q;
    }
    // x0 = vh B^(n-h), vh within c units of floor(B^2h / dh) for the top h limbs dh (c a few
    // units: this function's own bound one level down): relative error below (3 + c) B^-h.
    // Newton's step x1 = x0 + x0 (B^2n - x0 d) / B^2n leaves V eps^2 < 2 (3 + c)^2 B^(n-2h) < 1
    // with 2h >= n + 3, plus a few units from the floors below.
    let h = n / 2 + 2;
    let vh = reciprocal_approx(&d[n - h..]);
    // B^2n - x0 d = B^(n-h) e with e = B^(n+h) - vh d (signed). x0 d = B^2n (1 - eps) with
    // |eps| < (3 + c) B^-h, so |e| = B^(n+h) |eps| < (3 + c) B^n.
    let mut pow = vec![0; n + h + 1];
    pow[n + h] = 1;
    let (e_neg, e) = sub_product_wrapped(&pow, &vh, d, n).unwrap_or_else(|| {
        let mut p = vec![0; h + 1 + n];
        mul(&mut p, &vh, d);
        sub_from_power(&p, n + h)
    });
    // x1 - x0 = vh e / B^2h. Only e's limbs from h - 1 up matter: dropping the rest changes the
    // quotient by less than vh B^(h-1) / B^2h < 2 / B.
    let e_top = if e.len() > h - 1 {
        &e[h - 1..]
    } else {
        &[][..]
    };
    let mut delta = vec![0; vh.len() + e_top.len()];
    if !e_top.is_empty() {
        mul(&mut delta, &vh, e_top);
    }
    let shift = h + 1; // 2h - (h - 1)
    let delta = if delta.len() > shift {
        trim(&delta[shift..]).to_vec()
    } else {
        Vec::new()
    };
    let mut x = vec![0; n + 2];
    x[n - h..n - h + vh.len()].copy_from_slice(&vh);
    if e_neg {
        let b = sub_in_place(&mut x, &delta);
        debug_assert_eq!(b, 0);
    } else {
        let c = super::add_in_place(&mut x, &delta);
        debug_assert_eq!(c, 0);
    }
    debug_assert!(
        x[n + 1] == 0 && x[n] <= 2,
        "reciprocal estimate out of range"
    );
    x.truncate(n + 1);
    x
}

/// `(negative, |B^k - p|)` for a natural `p` (any length), trimmed.
/// Leaks: variable time: `p`'s leading zero limbs, a comparison and its branch.
fn sub_from_power(p: &[Limb], k: usize) -> (bool, Vec<Limb>) {
    let p = trim(p);
    let mut pow = vec![0; k + 1];
    pow[k] = 1;
    match cmp(p, &pow) {
        Ordering::Greater => {
            let mut e = p.to_vec();
            let b = sub_in_place(&mut e, &pow);
            debug_assert_eq!(b, 0);
            (true, trim(&e).to_vec())
        }
        _ => {
            let b = sub_in_place(&mut pow, p);
            debug_assert_eq!(b, 0);
            (false, trim(&pow).to_vec())
        }
    }
}

/// `(negative, |c - a b|)` (trimmed) for a difference v = c - a b known to satisfy
/// |v| < 2^32 B^`k`, from a b mod B^N - 1 with N >= k ([`wrapped_len`]) and v mod B: the
/// residue x = v mod B^N - 1 in [0, B^N - 1] gives v = x + j (B^N - 1) for an integer j with
/// |j| <= 2^32 + 1, and mod B that is v = x - j, so j = x_0 - v_0 mod B taken signed (the CRT of
/// B^N - 1 and B). `None` below the sizes where that pays ([`wrapped_len`]), or when j is out of
/// that range (the bound does not hold); the caller then takes the full product.
/// Leaks: variable time: the lengths, the carries and the sign.
fn sub_product_wrapped(c: &[Limb], a: &[Limb], b: &[Limb], k: usize) -> Option<(bool, Vec<Limb>)> {
    let (len, cyclic) = wrapped_len(a.len(), b.len(), k)?;
    let mut x = vec![0; len + 1];
    match cyclic {
        true => ntt::Transformed::new_cyclic(a, len)?.mul_cyclic(&mut x[..len], b),
        false => mulmod_bnm1(&mut x[..len], a, b),
    }
    // c + (B^N - 1 - x), B^N - 1 - x being x's complement.
    x[..len].iter_mut().for_each(|l| *l = !*l);
    add_mod_bnm1(&mut x[..len], c);
    let first = |v: &[Limb]| v.first().copied().unwrap_or(0);
    let v0 = first(c).wrapping_sub(first(a).wrapping_mul(first(b)));
    let j = x[0].wrapping_sub(v0) as i64;
    if j.unsigned_abs() > (1 << 32) + 1 {
        debug_assert!(false, "wrapped difference out of its bound");
        return None;
    }
    let (negative, v) = if j >= 0 {
        // v = x + j B^N - j >= 0, and x + j B^N >= j.
        x[len] = j as Limb;
        super::sub_1_in_place(&mut x, j as Limb);
        (false, x)
    } else {
        // |v| = |j| (B^N - 1) - x >= 0.
        let mut t = vec![0; len + 1];
        t[len] = j.unsigned_abs();
        super::sub_1_in_place(&mut t, j.unsigned_abs());
        let borrow = sub_in_place(&mut t, &x[..len]);
        debug_assert_eq!(borrow, 0);
        (true, t)
    };
    let v = trim(&v).to_vec();
    Some((negative && !v.is_empty(), v))
}

/// The length N >= `min` of the products mod B^N - 1 that stand in for a full product of
/// operands of `na` and `nb` limbs ([`sub_product_wrapped`]), and whether a cyclic transform
/// computes them. Where the full product would take
/// the transform ([`ntt::pays`]): the shortest cyclic transform, if it is a power of two and
/// shorter than the full product's (a 3 2^k length brings radix-3 tables of its own, which a
/// one-off division builds for that one product: at 2^20 bits they cost more than the shorter
/// transforms save). Else [`mulmod_bnm1_size`]. `None` below
/// [`crate::tuning::MULMOD_BNM1_THRESHOLD`] limbs, where the full product costs as little.
fn wrapped_len(na: usize, nb: usize, min: usize) -> Option<(usize, bool)> {
    let limbs = na.max(nb);
    if limbs < crate::tuning::MULMOD_BNM1_THRESHOLD {
        return None;
    }
    match ntt::pays(limbs, false) {
        true => ntt::cyclic_len(min.max(limbs))
            .filter(|&n| {
                n.is_power_of_two() && ntt::product_len(na, nb).is_some_and(|full| n < full)
            })
            .map(|n| (n, true)),
        false => Some((mulmod_bnm1_size(min.max(limbs)), false)),
    }
}

/// Steps `q` and the remainder `r` = |W - q d| (negative when `negative`) until 0 <= r < d:
/// down while negative, up while r >= d, in at most `max_steps` steps (checked in debug builds).
/// Returns r.
/// Leaks: variable time: the number of steps and the comparisons.
fn settle(
    q: &mut [Limb],
    mut negative: bool,
    mut r: Vec<Limb>,
    d: &[Limb],
    max_steps: usize,
) -> Vec<Limb> {
    let mut steps = 0;
    while negative {
        // q -= 1, r += d
        super::sub_1_in_place(q, 1);
        if cmp(&r, d).is_le() {
            let mut t = d.to_vec();
            sub_in_place(&mut t, &r);
            r = trim(&t).to_vec();
            negative = false;
        } else {
            sub_in_place(&mut r, d);
            r = trim(&r).to_vec();
            negative = !r.is_empty();
        }
        steps += 1;
    }
    while cmp(&r, d).is_ge() {
        add_1_in_place(q, 1);
        sub_in_place(&mut r, d);
        r = trim(&r).to_vec();
        steps += 1;
    }
    debug_assert!(steps <= max_steps, "off by {steps}");
    r
}

/// Make `x` (an approximation of floor(B^2n / d) within a few units) exact: with
/// r = B^2n - x d, step x down while r < 0 and up while r >= d.
/// Leaks: variable time: the number of steps and the comparisons.
fn correct(x: &mut [Limb], d: &[Limb]) {
    let n = d.len();
    let mut p = vec![0; trim(x).len().max(1) + n];
    let xt = trim(x).to_vec();
    if !xt.is_empty() {
        mul(&mut p, &xt, d);
    }
    let (neg, r) = sub_from_power(&p, 2 * n);
    settle(x, neg, r, d, 16);
}

/// A divisor prepared for many divisions: normalized (shifted left so its top bit is set) with
/// its reciprocal.
/// Leaks: variable time (module docs): the divisor's and dividend's lengths without leading
/// zeros, and each block's correction steps.
#[derive(Clone, Debug)]
pub struct Reciprocal {
    /// d << shift, n limbs, top bit set.
    d: Vec<Limb>,
    shift: u32,
    /// floor(B^2n / (d << shift)), n + 1 limbs: exact from [`Self::new`], within a few units
    /// from [`Self::one_off`] (the steps check their remainders either way).
    v: Vec<Limb>,
}

impl Reciprocal {
    /// The reciprocal of `d` (trimmed or not; must be non-zero), exact: for many divisions.
    pub fn new(d: &[Limb]) -> Self {
        Self::build(d, reciprocal)
    }

    /// The reciprocal of `d` within a few units, one product cheaper than [`Self::new`]: for a
    /// single division, where the exact correction would cost as much as it saves.
    pub fn one_off(d: &[Limb]) -> Self {
        Self::build(d, reciprocal_approx)
    }

    fn build(d: &[Limb], recip: fn(&[Limb]) -> Vec<Limb>) -> Self {
        let d = trim(d);
        assert!(!d.is_empty(), "division by zero");
        let shift = d[d.len() - 1].leading_zeros();
        let mut dn = vec![0; d.len()];
        shl(&mut dn, d, shift);
        let v = recip(&dn);
        Self { d: dn, shift, v }
    }

    /// Limbs of the divisor.
    pub fn len(&self) -> usize {
        self.d.len()
    }

    /// Whether the divisor is empty (never: kept for clippy's `len` convention).
    pub fn is_empty(&self) -> bool {
        self.d.is_empty()
    }

    /// `(floor(u / d), u mod d)`, trimmed. With `want_q` false the quotient is empty.
    /// Leaks: variable time, as [`Reciprocal`].
    pub fn div_rem(&self, u: &[Limb], want_q: bool) -> (Vec<Limb>, Vec<Limb>) {
        let n = self.d.len();
        let u = trim(u);
        // u << shift, one limb longer.
        let mut un = vec![0; u.len() + 1];
        un[u.len()] = shl(&mut un[..u.len()], u, self.shift);
        let un = trim(&un);
        if un.len() < n || (un.len() == n && cmp(un, &self.d).is_lt()) {
            let mut r = un.to_vec();
            super::shr_in_place(&mut r, self.shift);
            return (Vec::new(), trim(&r).to_vec());
        }
        let m = un.len();
        let mut q = if want_q { vec![0; m] } else { Vec::new() };
        // r: the running remainder (< d), n limbs; chunks of the dividend from the top.
        let mut r = vec![0; n];
        // The top chunk (k <= n limbs) is below B^k, so below 2d: its remainder is itself or
        // itself minus d, and its quotient digit 0 or 1; no Barrett step.
        let k = match m % n {
            0 => n,
            k => k,
        };
        let mut end = m - k;
        r[..k].copy_from_slice(&un[end..]);
        if cmp(&r, &self.d).is_ge() {
            sub_in_place(&mut r, &self.d);
            if want_q {
                q[end] = 1;
            }
        }
        // Then n limbs at a time: W = r B^n + un[start..end] < d B^n.
        let mut w = vec![0; 2 * n];
        while end > 0 {
            let start = end - n;
            w[..n].copy_from_slice(&un[start..end]);
            w[n..].copy_from_slice(&r);
            let (qq, rr) = self.step(&w);
            r = rr;
            if want_q {
                q[start..end].copy_from_slice(&qq);
            }
            end = start;
        }
        super::shr_in_place(&mut r, self.shift);
        (trim(&q).to_vec(), trim(&r).to_vec())
    }

    /// One Barrett step: for W (2n limbs) < d B^n, `(floor(W / d), W mod d)` with n limbs each.
    /// With V = t B^n + V_lo (t = 1, or 2 when d = B^n / 2) and W_hi = floor(W / B^n) < d, the
    /// estimate q^ = t W_hi + floor(W_hi V_lo / B^n) takes one n-by-n product; with an exact V
    /// it is at most q and at least q - 4 (dropping W's low half and V's fraction each costs
    /// under 2, the floors 1). The remainder W - q^ d is then corrected in whichever direction
    /// it is off, so a V a few units off (from [`Self::one_off`]) only adds a few steps.
    /// Leaks: variable time: trims, and the corrections' count and comparisons.
    fn step(&self, w: &[Limb]) -> (Vec<Limb>, Vec<Limb>) {
        let n = self.d.len();
        debug_assert_eq!(w.len(), 2 * n);
        let (v_lo, t) = (&self.v[..n], self.v[n]);
        let w_hi = trim(&w[n..]);
        let mut qh = vec![0; n + 1];
        if !w_hi.is_empty() {
            let mut p = vec![0; w_hi.len() + n];
            mul(&mut p, w_hi, v_lo);
            if p.len() > n {
                qh[..p.len() - n].copy_from_slice(&p[n..]);
            }
            for _ in 0..t {
                let c = super::add_in_place(&mut qh, w_hi);
                debug_assert_eq!(c, 0);
            }
        }
        // q < B^n: a larger estimate (an inexact V) is clamped.
        if qh[n] != 0 {
            qh.fill(Limb::MAX);
            qh[n] = 0;
        }
        qh.truncate(n);
        // R = W - q^ d: |R| < 65 d < 65 B^n (q^ is within a few units of q, more only when V
        // is; the steps below check 64).
        let qt = trim(&qh);
        let (negative, r) = match qt.is_empty() {
            true => (false, trim(w).to_vec()),
            false => sub_product_wrapped(w, qt, &self.d, n).unwrap_or_else(|| {
                let mut p = vec![0; qt.len() + n];
                mul(&mut p, qt, &self.d);
                let mut r = vec![0; 2 * n];
                let negative = super::mul::abs_diff(&mut r, w, &p);
                (negative, trim(&r).to_vec())
            }),
        };
        let mut r = settle(&mut qh, negative, r, &self.d, 64);
        debug_assert!(r.len() <= n);
        r.resize(n, 0);
        (qh, r)
    }
}

/// `m^{-1} mod B^k` for an odd `m` (its low `k` limbs are used), by Newton–Hensel lifting:
/// x <- x (2 - m x) mod B^2j doubles the number of correct low limbs j (the 2-adic Newton
/// iteration; Brent and Zimmermann 2010, section 2.4), starting from the one-limb inverse. Costs
/// a few products of at most k limbs.
/// Leaks: variable time: the products' (above the Karatsuba threshold) and the early-exit
/// carries of the `+ 2`.
pub fn inverse_mod_power(m: &[Limb], k: usize) -> Vec<Limb> {
    assert!(
        k >= 1 && m.first().is_some_and(|&l| l & 1 == 1),
        "needs an odd m"
    );
    let mut x = vec![crate::limb::neg_inv_newton(m[0]).wrapping_neg()];
    let limb = |i: usize| m.get(i).copied().unwrap_or(0);
    while x.len() < k {
        let j = x.len();
        let jj = (2 * j).min(k);
        // t = m x mod B^jj; then x (2 - t) mod B^jj.
        let ml: Vec<Limb> = (0..jj).map(limb).collect();
        let mut t = vec![0; jj + j];
        mul(&mut t, &ml, &x);
        t.truncate(jj);
        // 2 - t mod B^jj: the two's complement of t, plus 2.
        for l in t.iter_mut() {
            *l = !*l;
        }
        add_1_in_place(&mut t, 1);
        add_1_in_place(&mut t, 2);
        let mut y = vec![0; jj + j];
        mul(&mut y, &t, &x);
        y.truncate(jj);
        x = y;
    }
    x
}

/// `(floor(u / v), u mod v)` for large divisors (trimmed results): [`Reciprocal`] for one use.
/// Leaks: variable time, as [`Reciprocal`].
pub fn div_rem_newton(u: &[Limb], v: &[Limb]) -> (Vec<Limb>, Vec<Limb>) {
    Reciprocal::one_off(v).div_rem(u, true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limb::xorshift64;

    /// floor(B^2n / d) by one schoolbook division: the reference.
    fn schoolbook_reciprocal(d: &[Limb]) -> Vec<Limb> {
        let n = d.len();
        let mut u = vec![0; 2 * n + 1];
        u[2 * n] = 1;
        let mut q = vec![0; n + 1];
        divrem_normalized(&mut u, d, Some(&mut q));
        q
    }

    #[test]
    fn inverse_mod_power_inverts() {
        let mut s = 0x5555_0123_4567_89ab;
        for k in [1, 2, 3, 5, 8, 13, 64, 100] {
            let mut m: Vec<Limb> = (0..k + 2).map(|_| xorshift64(&mut s)).collect();
            m[0] |= 1;
            let x = inverse_mod_power(&m, k);
            assert_eq!(x.len(), k);
            let mut p = vec![0; 2 * k];
            mul(&mut p, &m[..k], &x);
            let mut one = vec![0; k];
            one[0] = 1;
            assert_eq!(&p[..k], &one[..], "k={k}");
        }
    }

    /// The Barrett steps with a reciprocal a few units off either way (as [`Reciprocal::one_off`]
    /// may leave it), and the one-off reciprocal itself, against Knuth's division.
    #[test]
    fn inexact_reciprocals_still_divide_exactly() {
        let mut s = 0x0f1e_2d3c_4b5a_6978;
        // 40 and up take the wrapped products (mulmod_bnm1), 512 the cyclic transform where the
        // tier's full products take one, 600 there the full product (its cyclic length is not a
        // power of two).
        for n in [8, 13, 40, crate::tuning::RECIPROCAL_BASECASE + 5, 512, 600] {
            let mut d: Vec<Limb> = (0..n).map(|_| xorshift64(&mut s)).collect();
            d[n - 1] |= 1 << 63;
            let exact = Reciprocal::new(&d);
            let approx = reciprocal_approx(&d);
            let (mut diff, smaller) = if cmp(&approx, &exact.v).is_ge() {
                (approx.clone(), &exact.v)
            } else {
                (exact.v.clone(), &approx)
            };
            sub_in_place(&mut diff, smaller);
            assert!(
                trim(&diff).len() <= 1 && diff[0] <= 16,
                "n={n}: off by {diff:?}"
            );
            for delta in [-20i64, -3, -1, 0, 1, 3, 20] {
                let mut r = exact.clone();
                if delta < 0 {
                    super::super::sub_1_in_place(&mut r.v, delta.unsigned_abs());
                } else {
                    add_1_in_place(&mut r.v, delta as Limb);
                }
                for len in [n, n + 1, 2 * n, 3 * n + 2] {
                    let mut u: Vec<Limb> = (0..len).map(|_| xorshift64(&mut s)).collect();
                    if delta == 20 {
                        u.iter_mut().for_each(|x| *x = Limb::MAX);
                    }
                    let (q, rem) = r.div_rem(&u, true);
                    let mut un = u.clone();
                    un.push(0);
                    let mut qq = vec![0; un.len() - n];
                    divrem_normalized(&mut un, &d, Some(&mut qq));
                    assert_eq!(q, trim(&qq), "n={n} delta={delta} len={len}");
                    assert_eq!(rem, trim(&un[..n]), "n={n} delta={delta} len={len}");
                }
            }
        }
    }

    #[test]
    fn newton_reciprocal_is_exact() {
        let mut s = 0x0123_4567_89ab_cdef;
        let b = crate::tuning::RECIPROCAL_BASECASE;
        for n in [8, 9, 17, 64, b - 1, b, b + 1, 2 * b + 3] {
            for case in 0..4 {
                let mut d: Vec<Limb> = (0..n).map(|_| xorshift64(&mut s)).collect();
                match case {
                    0 => d[n - 1] |= 1 << 63,
                    1 => d.iter_mut().for_each(|x| *x = Limb::MAX),
                    2 => {
                        d.iter_mut().for_each(|x| *x = 0);
                        d[n - 1] = 1 << 63;
                    }
                    _ => {
                        d[n - 1] = 1 << 63;
                        d[0] |= 1;
                    }
                }
                assert_eq!(
                    reciprocal(&d),
                    schoolbook_reciprocal(&d),
                    "n={n} case={case}"
                );
            }
        }
    }
}
