//! Lehmer's GCD step with a double-digit leading part, and the cofactor matrices the GCD
//! kernels share (D. H. Lehmer, "Euclid's algorithm for large numbers", *Amer. Math. Monthly*
//! 45, 1938; the double-digit form after T. Jebelean, "A double-digit Lehmer-Euclid algorithm
//! for finding the GCD of long integers", *J. Symbolic Comput.* 19, 1995, and N. Möller, "On
//! Schönhage's algorithm and subquadratic integer GCD computation", *Math. Comp.* 77, 2008,
//! §4 (hgcd2)).
//!
//! Every reduction here keeps a pair of naturals `(a, b)` (trimmed vectors, no order between
//! them) and a matrix `M` with non-negative entries and determinant 1 such that
//! `(A; B) = M (a; b)` for the pair `(A, B)` the reduction started from. A step either
//! subtracts `q b` from `a` (then `M <- M [[1, q], [0, 1]]`: column 1 += q column 0) or `q a`
//! from `b` (column 0 += q column 1), so the determinant stays 1, the diagonal stays >= 1, and
//! `M^-1 = [[m11, -m01], [-m10, m00]]` gives `a = m11 A - m01 B`, `b = m00 B - m10 A`.
//!
//! **The stopping rule** (ours, a product form of Möller's size condition): a reduction with
//! `bound` only takes a step whose result still has `bitlen(a) + bitlen(b) >= bound`. With
//! `bound = bitlen(max(A, B)) + 4` this gives `a b >= 2^(bound - 2) > 4 max(A, B)`, and since
//! `A = m00 a + m01 b >= m01 b` (and so on for the other entries), every entry of a column is
//! at most a quarter of that column's remainder: `m01, m11 <= a / 4` and `m00, m10 <= b / 4`.
//! That is what makes `M` valid for any extension of `(A, B)` by low bits: for
//! `A' = A 2^k + A_lo`, `B' = B 2^k + B_lo` (`A_lo, B_lo < 2^k`),
//! `M^-1 (A'; B') = (a 2^k + m11 A_lo - m01 B_lo; ...)` lies in `((3/4) a 2^k, (5/4) a 2^k)`:
//! non-negative, and at least `bitlen(a) + k - 1` bits long. The double-digit step below uses
//! it on the top 128 bits; the half-GCD (`hgcd`) on the top half of its operands.

use super::{bit_len, cmp, div_rem, mul, trim};
use crate::limb::{Limb, LIMB_BITS};
use core::cmp::Ordering;

/// Drops the most significant zero limbs of `v`.
/// Leaks: variable time: the number of leading zero limbs.
#[inline]
pub fn trim_vec(v: &mut Vec<Limb>) {
    let n = trim(v).len();
    v.truncate(n);
}

/// `x y` as a trimmed vector (empty for zero).
/// Leaks: variable time, as [`mul`].
pub fn nat_mul(x: &[Limb], y: &[Limb]) -> Vec<Limb> {
    let (x, y) = (trim(x), trim(y));
    if x.is_empty() || y.is_empty() {
        return Vec::new();
    }
    let mut r = vec![0; x.len() + y.len()];
    mul(&mut r, x, y);
    trim_vec(&mut r);
    r
}

/// `t += x y` (trimmed vectors in and out).
/// Leaks: variable time, as [`mul`] and the carry propagation.
pub fn nat_add_mul(t: &mut Vec<Limb>, x: &[Limb], y: &[Limb]) {
    let p = nat_mul(x, y);
    nat_add(t, &p);
}

/// `t += x` (trimmed vectors in and out).
/// Leaks: variable time: the carry propagation.
pub fn nat_add(t: &mut Vec<Limb>, x: &[Limb]) {
    let n = t.len().max(x.len()) + 1;
    t.resize(n, 0);
    let c = super::add_in_place(t, x);
    debug_assert_eq!(c, 0, "one spare limb holds the carry");
    trim_vec(t);
}

/// A 2x2 matrix of naturals with determinant 1, or the first row of one, or none of it (a
/// plain GCD keeps no cofactors): `rows[i][j]` is `m_ij`, trimmed vectors. See the module docs
/// for how the reductions update it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Matrix {
    /// The rows kept: 2 (the half-GCD), 1 (the extended GCD needs only row 0) or 0.
    pub rows: Vec<[Vec<Limb>; 2]>,
}

impl Matrix {
    /// The identity (its first `rows` rows).
    pub fn identity(rows: usize) -> Self {
        let all = [[vec![1], vec![]], [vec![], vec![1]]];
        Matrix {
            rows: all.into_iter().take(rows).collect(),
        }
    }

    /// Whether this is (the first rows of) the identity.
    /// Leaks: variable time: the entries' lengths.
    pub fn is_identity(&self) -> bool {
        self.rows.iter().enumerate().all(|(i, r)| {
            let one = |x: &[Limb]| x == [1];
            let zero = |x: &[Limb]| x.is_empty();
            if i == 0 {
                one(&r[0]) && zero(&r[1])
            } else {
                zero(&r[0]) && one(&r[1])
            }
        })
    }

    /// `M <- M S` for a matrix `S` of [`hgcd2`] (entries below [`ENTRY_LIMIT`]): each row
    /// `(x, y)` becomes `(s00 x + s10 y, s01 x + s11 y)`, both in one pass over the row.
    /// Leaks: variable time: the entries' lengths.
    pub fn mul_small(&mut self, s: &[[Limb; 2]; 2]) {
        debug_assert!(s.iter().flatten().all(|&e| e < ENTRY_LIMIT));
        let [s00, s01, s10, s11] = [s[0][0], s[0][1], s[1][0], s[1][1]].map(u128::from);
        for row in &mut self.rows {
            let [x, y] = row;
            let n = x.len().max(y.len());
            x.resize(n, 0);
            y.resize(n, 0);
            let (mut cx, mut cy) = (0u128, 0u128);
            for (xi, yi) in x.iter_mut().zip(y.iter_mut()) {
                let (u, v) = (u128::from(*xi), u128::from(*yi));
                // Two products below 2^126 and a carry below 2^63: no overflow, and the next
                // carry is below 2^63 again.
                let nx = s00 * u + s10 * v + cx;
                let ny = s01 * u + s11 * v + cy;
                (*xi, *yi) = (nx as Limb, ny as Limb);
                (cx, cy) = (nx >> LIMB_BITS, ny >> LIMB_BITS);
            }
            debug_assert!(cx >> 63 == 0 && cy >> 63 == 0);
            x.push(cx as Limb);
            y.push(cy as Limb);
            trim_vec(x);
            trim_vec(y);
        }
    }

    /// Column `to` += `q` times column `1 - to` (a division step with quotient `q`).
    /// Leaks: variable time, as [`mul`].
    pub fn add_column_mul(&mut self, to: usize, q: &[Limb]) {
        for row in &mut self.rows {
            let from = row[1 - to].clone();
            nat_add_mul(&mut row[to], &from, q);
        }
    }

    /// `M <- M N` for a full matrix `N` (two rows): each row `(x, y)` becomes
    /// `(x n00 + y n10, x n01 + y n11)`.
    /// Leaks: variable time, as [`mul`].
    pub fn mul_assign(&mut self, n: &Matrix) {
        debug_assert_eq!(n.rows.len(), 2);
        for row in &mut self.rows {
            let [x, y] = &*row;
            let mut c0 = nat_mul(x, &n.rows[0][0]);
            nat_add_mul(&mut c0, y, &n.rows[1][0]);
            let mut c1 = nat_mul(x, &n.rows[0][1]);
            nat_add_mul(&mut c1, y, &n.rows[1][1]);
            *row = [c0, c1];
        }
    }
}

/// Bits `k .. k + 128` of `a` (zeros above its length).
/// Leaks: the index `k` (which limbs are read); nothing else.
#[inline]
pub fn top_bits(a: &[Limb], k: usize) -> u128 {
    let (w, s) = (k / LIMB_BITS as usize, (k % LIMB_BITS as usize) as u32);
    let get = |i: usize| a.get(i).copied().unwrap_or(0) as u128;
    let lo = get(w) | (get(w + 1) << 64);
    if s == 0 {
        lo
    } else {
        (lo >> s) | (get(w + 2) << (128 - s))
    }
}

/// Bit length of a `u128`.
#[inline]
fn bits128(x: u128) -> usize {
    (128 - x.leading_zeros()) as usize
}

/// Euclid's step on 128 bits: `(x / y, x mod y)` for `x >= y > 0` (and `x >= 2^64` if
/// `x_wide`, which skips that check). q = 1 by one subtraction (41.5% of Euclid's quotients:
/// Knuth, TAOCP vol. 2, §4.5.3, the Gauss–Kuzmin distribution); one 64-bit division when `x`
/// fits a limb; for q < 2^31, one 64-bit division of the leading 64 bits of both (q or q + 1)
/// and one correction (a shift-and-subtract loop, as GMP's `div2`, mispredicts its exit about
/// once per quotient); else the 128-bit division (a library call).
/// Leaks: variable time: whether q = 1, the quotient's size and the operands' lengths.
#[inline(always)]
pub fn euclid_div(x: u128, y: u128, x_wide: bool) -> (u128, u128) {
    debug_assert!(x >= y && y != 0 && (!x_wide || x >> 64 != 0));
    let r = x - y;
    if r < y {
        return (1, r);
    }
    if !x_wide && x >> 64 == 0 {
        let (x, y) = (x as u64, y as u64);
        return ((x / y) as u128, (x % y) as u128);
    }
    // q < 2^(d + 1).
    let d = y.leading_zeros() - x.leading_zeros();
    if d < 31 {
        // xh = x >> u (2^63 <= xh < 2^64) and yh = y >> u (yh >= 2^(63 - d)), u = 64 - lz(x).
        // x >= q y >= q yh 2^u gives q' = xh / yh >= q; yh > (y >> u) (1 - 2^(d - 63)) and
        // x / y < 2^(d + 1) give xh / yh < x / y + 2^(2d - 62) (1 + 2^-32) < q + 1 + 1/4, so
        // q' <= q + 1. x >= 2^64: u >= 1, a funnel shift of the two halves by t = 64 - u.
        let t = x.leading_zeros();
        let top = |v: u128| ((v >> 64) as u64) << t | ((v as u64) >> 1) >> (63 - t);
        let (xh, yh) = (top(x), top(y));
        debug_assert!(xh >> 63 == 1 && yh >> (63 - d) != 0);
        // q' - 1 <= q: r = x - (q' - 1) y is in [0, 2y), and almost always at least y.
        let mut q = (xh / yh - 1) as u128;
        let mut r = x - q * y;
        if r >= y {
            (q, r) = (q + 1, r - y);
        }
        debug_assert!(r < y);
        (q, r)
    } else {
        (x / y, x % y)
    }
}

/// The bound on the entries of an [`hgcd2`] matrix: products by them then fit 126 bits, and
/// [`apply_small_inverse`] and [`Matrix::mul_small`] update both numbers of a pair in one pass
/// with 128-bit sums. (The stopping rule keeps entries below 2^62 but for unbalanced leading
/// parts.)
pub const ENTRY_LIMIT: Limb = 1 << 62;

/// `q m + c` if it is below [`ENTRY_LIMIT`]: one widening product and an add, both checked.
#[inline(always)]
fn entry(q: u128, m: Limb, c: Limb) -> Option<Limb> {
    Limb::try_from(q)
        .ok()?
        .checked_mul(m)?
        .checked_add(c)
        .filter(|&e| e < ENTRY_LIMIT)
}

/// The double-digit Lehmer matrix: Euclid's steps on the 128-bit leading parts `x, y` of a
/// pair, as long as the result keeps `bitlen(x) + bitlen(y) >= need` and the matrix entries
/// stay below [`ENTRY_LIMIT`]. Returns the single-limb matrix `S` (determinant 1, non-negative
/// entries, `(x0; y0) = S (x; y)`), or `None` when not one step qualifies (a first quotient
/// too large, or the bound already reached).
///
/// With `need >= bitlen(max(x0, y0)) + 4` the result is valid for the whole numbers whose top
/// bits `x0, y0` are (module docs: each column's entries are below a quarter of its remainder).
/// `exact`: `x0, y0` are the whole numbers (no bits below), so the 128-bit steps run to the
/// end without the second phase; without it, `need > bitlen(max(x0, y0))` is required (no
/// step then leaves a zero). Two phases otherwise, as GMP's `mpn_hgcd2`: on 128 bits while
/// either is at least 2^96, then on their top 64 bits (`x >> 32`, `y >> 32`), where a step
/// is taken if it keeps `bitlen(x2) + bitlen(y2) >= bitlen(max(x2, y2) at the switch) + 4`
/// (valid for the 32 bits below, by the same rule) and `>= need - 62` (each 128-bit remainder
/// is then at least `bitlen(x2) + 31` bits long, so the product rule for `need` holds on the
/// 128-bit values).
/// Loop invariant: `(x0; y0) = S (x; y)` (phase 2: up to the dropped low bits), every entry of
/// `S` below [`ENTRY_LIMIT`] (checked before a step is taken).
/// Leaks: variable time: the number of steps and their quotients (the operands' values).
/// Reference: Jebelean 1995 (double digits), Möller 2008 §4 (hgcd2); the stopping rule is the
/// module's product form instead of their conditions on quotient sequences.
pub fn hgcd2(x: u128, y: u128, need: usize, exact: bool) -> Option<[[Limb; 2]; 2]> {
    if x == 0 || y == 0 {
        return None;
    }
    if exact {
        hgcd2_steps::<true>(x, y, need)
    } else {
        hgcd2_steps::<false>(x, y, need)
    }
}

/// [`hgcd2`] for non-zero `x, y`, compiled once per `EXACT`. Without it, no remainder of a
/// step taken is zero (`need > bitlen(divisor)`), so only the exact steps check for one.
#[inline(always)]
fn hgcd2_steps<const EXACT: bool>(mut x: u128, mut y: u128, need: usize) -> Option<[[Limb; 2]; 2]> {
    debug_assert!(x != 0 && y != 0 && (EXACT || need > bits128(x.max(y))));
    let (mut m00, mut m01, mut m10, mut m11): (Limb, Limb, Limb, Limb) = (1, 0, 0, 1);
    let mut stepped = false;
    // Whether a remainder r by a divisor d > r keeps the bound. A remainder of at least 2^96
    // keeps any bound up to 194 (d > r: both have at least 97 bits) without counting bits.
    let wide_keeps = need <= 194;
    let keeps = |r: u128, d: u128| (wide_keeps && r >> 96 != 0) || bits128(r) + bits128(d) >= need;
    // Phase 1: 128-bit steps while either is at least 2^96 (to the end if `EXACT`); the
    // dividend is then the larger one, at least 2^96.
    let done = loop {
        if !EXACT && (x | y) >> 96 == 0 {
            break false;
        }
        if EXACT && (x == 0 || y == 0) {
            break true;
        }
        let divide = |a, b| euclid_div(a, b, !EXACT);
        let taken = if x >= y {
            matrix_step(&mut x, y, [&mut m01, &mut m11], [m00, m10], divide, keeps)
        } else {
            matrix_step(&mut y, x, [&mut m00, &mut m10], [m01, m11], divide, keeps)
        };
        if !taken {
            break true;
        }
        debug_assert!(EXACT || (x != 0 && y != 0));
        stepped = true;
    };
    if !done {
        // Phase 2: the top 64 bits of each (both below 2^96 now). A step taken leaves a
        // remainder with bitlen(r) >= need2 - bitlen(divisor) > 0.
        let (mut x2, mut y2) = ((x >> 32) as u64, (y >> 32) as u64);
        let bits = |v: u64| (64 - v.leading_zeros()) as usize;
        let need2 = (bits(x2.max(y2)) + 4).max(need.saturating_sub(62));
        let keeps2 = |r, d| bits(r) + bits(d) >= need2;
        if x2 != 0 && y2 != 0 {
            loop {
                let taken = if x2 >= y2 {
                    matrix_step(
                        &mut x2,
                        y2,
                        [&mut m01, &mut m11],
                        [m00, m10],
                        divq64,
                        keeps2,
                    )
                } else {
                    matrix_step(
                        &mut y2,
                        x2,
                        [&mut m00, &mut m10],
                        [m01, m11],
                        divq64,
                        keeps2,
                    )
                };
                if !taken {
                    break;
                }
                stepped = true;
            }
        }
    }
    stepped.then_some([[m00, m01], [m10, m11]])
}

/// One Euclid step of [`hgcd2`] on `big >= small > 0`: `big <- big mod small` and the matrix
/// column of `big` (`to`) gains `q` times the other (`from`), if the remainder `keeps` the
/// bound with `small` and the new entries stay below [`ENTRY_LIMIT`]; else nothing changes.
/// The x and y halves of both phases are this step with the roles swapped. Returns whether
/// the step was taken.
/// Leaks: variable time: the operands' values.
#[inline(always)]
fn matrix_step<T: Copy>(
    big: &mut T,
    small: T,
    to: [&mut Limb; 2],
    from: [Limb; 2],
    divide: impl Fn(T, T) -> (u128, T),
    keeps: impl Fn(T, T) -> bool,
) -> bool {
    let (q, r) = divide(*big, small);
    if !keeps(r, small) {
        return false;
    }
    let [to0, to1] = to;
    let (Some(n0), Some(n1)) = (entry(q, from[0], *to0), entry(q, from[1], *to1)) else {
        return false;
    };
    (*to0, *to1, *big) = (n0, n1, r);
    true
}

/// `(x / y, x mod y)` for `x >= y > 0` on one limb: q = 1 by one subtraction (41.5% of
/// Euclid's quotients), else the hardware division.
/// Leaks: variable time: the quotient.
#[inline(always)]
fn divq64(x: u64, y: u64) -> (u128, u64) {
    let r = x - y;
    if r < y {
        (1, r)
    } else {
        ((x / y) as u128, x % y)
    }
}

/// `(a; b) <- S^-1 (a; b)` for a matrix `S` of [`hgcd2`] (determinant 1, entries below
/// [`ENTRY_LIMIT`]) whose result is known to be non-negative: `a <- s11 a - s01 b`,
/// `b <- s00 b - s10 a`, both in one pass, in place. Both results are at most their inputs (the
/// diagonal is >= 1), so they fit the longer length.
/// Leaks: variable time: the lengths of `a` and `b`.
pub fn apply_small_inverse(a: &mut Vec<Limb>, b: &mut Vec<Limb>, s: &[[Limb; 2]; 2]) {
    debug_assert!(s.iter().flatten().all(|&e| e < ENTRY_LIMIT));
    let [s00, s01, s10, s11] = [s[0][0], s[0][1], s[1][0], s[1][1]].map(i128::from);
    let n = a.len().max(b.len());
    a.resize(n, 0);
    b.resize(n, 0);
    let (mut ca, mut cb) = (0i128, 0i128);
    for (x, y) in a.iter_mut().zip(b.iter_mut()) {
        let (u, v) = (i128::from(*x), i128::from(*y));
        // Each product is below 2^126 and each signed carry at most 2^62 + 1 in size: the sums
        // fit an i128, and their high halves are the next carries.
        let na = s11 * u - s01 * v + ca;
        let nb = s00 * v - s10 * u + cb;
        (*x, *y) = (na as Limb, nb as Limb);
        (ca, cb) = (na >> LIMB_BITS, nb >> LIMB_BITS);
    }
    debug_assert!(ca == 0 && cb == 0, "both results are in [0, B^n)");
    trim_vec(a);
    trim_vec(b);
}

/// One exact Euclid step on the whole numbers: the larger of `a, b` is replaced by its
/// remainder by the smaller, and `m` takes the quotient, if the result keeps
/// `bitlen(a) + bitlen(b) >= bound`. Returns whether the step was taken (never for a zero).
/// Leaks: variable time, as [`div_rem`].
pub fn div_step(a: &mut Vec<Limb>, b: &mut Vec<Limb>, m: &mut Matrix, bound: usize) -> bool {
    if a.is_empty() || b.is_empty() {
        return false;
    }
    let a_larger = cmp(a, b) != Ordering::Less;
    let (big, small) = if a_larger { (&*a, &*b) } else { (&*b, &*a) };
    let (q, r) = div_rem(big, small);
    if bit_len(&r) + bit_len(small) < bound {
        return false;
    }
    if a_larger {
        *a = r;
        m.add_column_mul(1, &q);
    } else {
        *b = r;
        m.add_column_mul(0, &q);
    }
    true
}

/// One Lehmer step: the [`hgcd2`] matrix of the top 128 bits of the pair (at the bit position
/// of the longer one's top), applied to the whole numbers by [`apply_small_inverse`] and
/// accumulated into `m`; when the leading parts give no step (a quotient of more than a limb,
/// or operands of very different lengths), one exact [`div_step`]. Only steps keeping
/// `bitlen(a) + bitlen(b) >= bound` are taken (`bound = 0`: every step, down to a zero).
/// Returns whether a step was taken: always, for `bound = 0` and both non-zero.
/// Leaks: variable time: the operands' values.
pub fn lehmer_step(a: &mut Vec<Limb>, b: &mut Vec<Limb>, m: &mut Matrix, bound: usize) -> bool {
    let (la, lb) = (bit_len(a), bit_len(b));
    if la == 0 || lb == 0 {
        return false;
    }
    let top = la.max(lb);
    let k = top.saturating_sub(128);
    let (x, y) = (top_bits(a, k), top_bits(b, k));
    // k = 0: the leading parts are the numbers. Else the module's rule for top bits (4 bits of
    // margin over the leading part, 128 bits) and the outer bound: each result is at least
    // bitlen(x') + k - 1 bits long.
    let need = if k == 0 {
        bound
    } else {
        (bits128(x.max(y)) + 4).max((bound + 2).saturating_sub(2 * k))
    };
    match hgcd2(x, y, need, k == 0) {
        Some(s) => {
            apply_small_inverse(a, b, &s);
            m.mul_small(&s);
            debug_assert!(bit_len(a) + bit_len(b) >= bound);
            true
        }
        None => div_step(a, b, m, bound),
    }
}

/// Lehmer steps until none qualifies under `bound` (or a cancellation, polled every step:
/// the state stays consistent, only less reduced).
/// Leaks: variable time: the operands' values.
pub fn reduce_lehmer(a: &mut Vec<Limb>, b: &mut Vec<Limb>, m: &mut Matrix, bound: usize) {
    while !crate::cancel::requested() && lehmer_step(a, b, m, bound) {}
}
