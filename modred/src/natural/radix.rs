//! Decimal conversion by divide and conquer over the powers P_j = 10^(19 2^j) (Knuth, TAOCP
//! vol. 2, 4.4, exercise 14; Brent and Zimmermann, "Modern Computer Arithmetic", 2010, section
//! 1.7, Algorithms 1.25 and 1.26).
//!
//! A decimal number is a string of base-10^19 digits (19 decimal digits fill a limb). Parsing
//! joins halves as hi P_j + lo, printing splits x into (x div P_j, x mod P_j); both run on the
//! fast product ([`arith::mul`], [`arith::sqr`]) and the Newton division
//! ([`arith::div_newton::Reciprocal`], one per level, reused by every split at that level), so
//! they cost O(M(n) log n) instead of the n^2 of digit-by-digit conversion. Small pieces take
//! the quadratic loops, which are faster there.
//!
//! Variable time (the values' lengths, early-exit carries, division), as [`crate::Natural`].

use crate::arith::{self, div_newton::Reciprocal};
use crate::limb::Limb;

/// 10^19, the largest power of 10 in a limb.
pub(crate) const CHUNK: Limb = 10_000_000_000_000_000_000;
/// Decimal digits per base-10^19 digit.
pub(crate) const CHUNK_DIGITS: usize = 19;
/// Pieces of at most this many base-10^19 digits are converted by the quadratic loops.
const BASECASE_CHUNKS: usize = 32;

/// P_0 = 10^19, P_1 = P_0^2, ..., P_`top`.
fn powers(top: usize) -> Vec<Vec<Limb>> {
    let mut p = vec![vec![CHUNK]];
    while p.len() <= top {
        p.push(square(p.last().expect("non-empty")));
    }
    p
}

fn square(x: &[Limb]) -> Vec<Limb> {
    let mut sq = vec![0; 2 * x.len()];
    arith::sqr(&mut sq, x);
    sq.truncate(arith::normalized_len(&sq));
    sq
}

/// The value of base-10^19 digits `d` (least significant first), by splitting at the largest
/// power of two below the length: value = value(hi) P_j + value(lo) with lo the low 2^j digits.
/// Leaks: variable time: trims, early-exit carries and the products' own.
fn join(d: &[Limb], p: &[Vec<Limb>]) -> Vec<Limb> {
    if d.len() <= BASECASE_CHUNKS {
        let mut x: Vec<Limb> = Vec::with_capacity(d.len());
        for &c in d.iter().rev() {
            let carry = arith::mul_1_in_place(&mut x, CHUNK);
            let carry = carry + arith::add_1_in_place(&mut x, c);
            if carry != 0 {
                x.push(carry);
            } else if x.is_empty() && c != 0 {
                x.push(c);
            }
        }
        x.truncate(arith::normalized_len(&x));
        return x;
    }
    let j = (usize::BITS - 1 - (d.len() - 1).leading_zeros()) as usize; // 2^j < len <= 2^(j+1)
    let (lo, hi) = d.split_at(1 << j);
    let (lo, hi) = (join(lo, p), join(hi, p));
    let pj = &p[j];
    let mut x = vec![0; pj.len() + hi.len().max(1) + 1];
    if !hi.is_empty() {
        arith::mul(&mut x[..pj.len() + hi.len()], &hi, pj);
    }
    if !lo.is_empty() {
        let c = arith::add_in_place(&mut x, &lo);
        debug_assert_eq!(c, 0);
    }
    x.truncate(arith::normalized_len(&x));
    x
}

/// Parse ASCII decimal digits (already checked to be digits; leading zeros allowed).
/// Leaks: variable time, as [`join`].
pub(crate) fn parse_decimal(digits: &[u8]) -> Vec<Limb> {
    // Base-10^19 digits, least significant first: 19 decimal digits each from the right.
    let mut d: Vec<Limb> = digits
        .rchunks(CHUNK_DIGITS)
        .map(|c| c.iter().fold(0, |a, &x| a * 10 + (x - b'0') as Limb))
        .collect();
    d.truncate(arith::normalized_len(&d));
    if d.len() <= BASECASE_CHUNKS {
        return join(&d, &[]);
    }
    // join splits at 2^j < len: levels up to floor(log2(len - 1)).
    let top = (usize::BITS - 1 - (d.len() - 1).leading_zeros()) as usize;
    join(&d, &powers(top))
}

/// The powers and, for the levels long enough to gain from it, their reciprocals.
struct Divisors {
    p: Vec<Vec<Limb>>,
    inv: Vec<Option<Reciprocal>>,
}

/// Append the base-10^19 digits of `x < P_(j+1)` to `out`, most significant first: exactly
/// 2^(j+1) of them when `pad` (leading zeros included), else without leading zeros.
/// Leaks: variable time: divisions, trims and the values' lengths.
fn split(x: &[Limb], j: usize, pad: bool, dv: &Divisors, out: &mut Vec<Limb>) {
    let x = arith::trim(x);
    let count = 2usize << j;
    if count <= BASECASE_CHUNKS {
        let mut x = x.to_vec();
        let mut digits = Vec::with_capacity(count);
        while !x.is_empty() {
            let src = x.clone();
            let r = arith::div_rem_1(Some(&mut x), &src, CHUNK);
            x.truncate(arith::normalized_len(&x));
            digits.push(r);
        }
        if pad {
            debug_assert!(digits.len() <= count);
            digits.resize(count, 0);
        }
        out.extend(digits.iter().rev());
        return;
    }
    let (q, r) = match &dv.inv[j] {
        Some(inv) => inv.div_rem(x, true),
        None => arith::div_rem(x, &dv.p[j]),
    };
    if pad || !q.is_empty() {
        split(&q, j - 1, pad, dv, out);
        split(&r, j - 1, true, dv, out);
    } else {
        split(&r, j - 1, false, dv, out);
    }
}

/// The decimal digits of `x` (no leading zeros; "0" for zero).
/// Leaks: variable time, as [`split`].
pub(crate) fn to_decimal(x: &[Limb]) -> String {
    let x = arith::trim(x);
    // Powers up to the first P_J > x; then x < P_J = P_(J-1)^2.
    let mut p = vec![vec![CHUNK]];
    while arith::cmp(x, p.last().expect("non-empty")).is_ge() {
        let next = square(p.last().expect("non-empty"));
        p.push(next);
    }
    let mut chunks = Vec::new();
    if p.len() == 1 {
        chunks.push(x.first().copied().unwrap_or(0));
    } else {
        let inv = p
            .iter()
            .map(|pj| {
                (pj.len() >= arith::div_newton::reuse_threshold()).then(|| Reciprocal::new(pj))
            })
            .collect();
        let top = p.len() - 2;
        split(x, top, false, &Divisors { p, inv }, &mut chunks);
    }
    let mut s = String::with_capacity(chunks.len() * CHUNK_DIGITS);
    let mut digits = chunks.iter().skip_while(|&&c| c == 0);
    match digits.next() {
        None => s.push('0'),
        Some(c) => s.push_str(&c.to_string()),
    }
    for &c in digits {
        push_padded(&mut s, c);
    }
    s
}

/// Append `c < 10^19` as exactly 19 decimal digits.
fn push_padded(s: &mut String, mut c: Limb) {
    let mut buf = [b'0'; CHUNK_DIGITS];
    for b in buf.iter_mut().rev() {
        *b = b'0' + (c % 10) as u8;
        c /= 10;
    }
    s.push_str(core::str::from_utf8(&buf).expect("ASCII digits"));
}
