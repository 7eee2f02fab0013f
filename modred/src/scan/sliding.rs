//! The sliding-window scan over odd powers (HAC Algorithm 14.85; the method of GMP's
//! `mpz_powm` and OpenSSL's `BN_mod_exp_mont`).
//!
//! Precomputes g, g^3, ..., g^(2^w - 1) (2^(w-1) entries, one squaring and 2^(w-1) - 1
//! multiplications). The exponent is recoded from the top into windows of at most `w` bits,
//! each ending and starting at a set bit: a zero bit between windows costs a squaring, a window
//! its length in squarings and one multiplication by the odd power. The recoding is written
//! out as a schedule of products during the table's products and then run as one flat loop
//! (see `run`). Variable time.

use super::ExpArith;
use crate::arith;
use crate::cancel;
use crate::limb::Limb;
use crate::tuning::{SLIDING_SCHEDULE_MAX_ENTRIES, SLIDING_WINDOWS_PER_TABLE_PRODUCT};

/// A squaring in a [`Schedule`]; any other entry is the odd-power index of a multiplication.
const SQR: u16 = u16::MAX;

const LIMB_BITS: usize = Limb::BITS as usize;

/// The windows of an exponent from the top: a window [s, i] ends at the set bit i, is at most
/// `w` bits long and starts at its lowest set bit s. Each item is (gap, index): the bits from
/// the start of the previous window down to s (a squaring each), and the odd-power index
/// (v - 1) / 2 of the window's value v. Walks a limb at a time with the scanned bits cleared,
/// so each window costs a leading- and a trailing-zero count.
/// Leaks: variable time: the exponent's leading zero limbs, and each window's position and
/// value (loop counts and the yielded indices).
struct Windows<'a> {
    exp: &'a [Limb],
    w: usize,
    /// The limb being scanned, and its bits still to scan (those below `pos`).
    l: usize,
    x: Limb,
    /// Bits below `pos` are still to scan.
    pos: usize,
}

impl<'a> Windows<'a> {
    fn new(exp: &'a [Limb], w: usize) -> Self {
        debug_assert!((1..=16).contains(&w));
        let n = arith::normalized_len(exp);
        Self {
            exp,
            w,
            l: n.saturating_sub(1),
            x: if n == 0 { 0 } else { exp[n - 1] },
            pos: LIMB_BITS * n,
        }
    }
}

impl Iterator for Windows<'_> {
    type Item = (usize, u16);

    #[inline]
    fn next(&mut self) -> Option<(usize, u16)> {
        while self.x == 0 {
            self.l = self.l.checked_sub(1)?;
            self.x = self.exp[self.l];
        }
        let (l, x, w) = (self.l, self.x, self.w);
        // The window's top: bit b of limb l. Its w bits b + 1 - w ..= b reach into limb l - 1
        // (bits below bit 0 read as 0) when b + 1 < w.
        let b = LIMB_BITS - 1 - x.leading_zeros() as usize;
        let mask = (1 << w) - 1;
        let (v, low) = if b + 1 >= w {
            ((x >> (b + 1 - w)) & mask, (b + 1 - w) as isize)
        } else {
            let below = if l > 0 { self.exp[l - 1] } else { 0 };
            let from_below = w - 1 - b;
            (
                ((x << from_below) | (below >> (LIMB_BITS - from_below))) & mask,
                b as isize + 1 - w as isize,
            )
        };
        let zeros = v.trailing_zeros();
        // The start, relative to bit 0 of limb l (negative: in limb l - 1), and absolute.
        let s = low + zeros as isize;
        let start = (LIMB_BITS * l).wrapping_add_signed(s);
        debug_assert!(start < self.pos && (LIMB_BITS * l) as isize + s >= 0);
        let gap = self.pos - start;
        self.pos = start;
        if s > 0 {
            self.x &= (1 << s) - 1;
        } else if l == 0 {
            debug_assert_eq!(s, 0);
            self.x = 0;
        } else {
            self.l = l - 1;
            self.x = self.exp[l - 1] & (Limb::MAX >> (-s) as u32);
        }
        let index = v >> zeros >> 1;
        debug_assert!(index < u64::from(SQR));
        Some((gap, index as u16))
    }
}

/// Products of a sliding-window exponentiation, in order: [`SQR`] or the odd-power index of a
/// multiplication, in a buffer of fixed size that is run and refilled for long exponents. Only
/// multiplications are written; the other entries stay [`SQR`].
struct Schedule {
    ops: Vec<u16>,
    len: usize,
}

impl Schedule {
    fn with_capacity(entries: usize) -> Self {
        Self {
            ops: vec![SQR; entries.max(1)],
            len: 0,
        }
    }

    /// Appends `squarings` squarings and, if given, a multiplication, when they fit.
    #[inline]
    fn try_push(&mut self, squarings: usize, index: Option<u16>) -> bool {
        let needed = squarings + usize::from(index.is_some());
        if needed > self.ops.len() - self.len {
            return false;
        }
        self.len += squarings;
        if let Some(index) = index {
            self.ops[self.len] = index;
            self.len += 1;
        }
        true
    }

    /// Runs the entries on `acc` as one flat loop and empties the buffer; whether the
    /// computation is cancelled (then the entries were skipped: the result is discarded).
    /// Leaks: variable time: each entry's kind (a branch) and odd-power index (a table address).
    #[inline(always)]
    fn run<A: ExpArith>(&mut self, a: &mut A, acc: &mut A::Elem, odd: &[A::Elem]) -> bool {
        let cancelled = cancel::requested();
        let ops = if cancelled { 0 } else { self.len };
        for &op in &self.ops[..ops] {
            if op == SQR {
                a.sqr_in_place(acc);
            } else {
                a.mul_in_place(acc, &odd[usize::from(op)]);
            }
        }
        self.ops[..self.len].fill(SQR);
        self.len = 0;
        cancelled
    }

    /// Appends `squarings` squarings and the multiplication `index`, running the buffer first
    /// when they do not fit (and a zero run longer than the buffer directly); whether the
    /// computation is cancelled (the caller stops scanning the exponent).
    #[inline(always)]
    fn push_or_run<A: ExpArith>(
        &mut self,
        a: &mut A,
        acc: &mut A::Elem,
        odd: &[A::Elem],
        squarings: usize,
        index: Option<u16>,
    ) -> bool {
        if self.try_push(squarings, index) {
            return false;
        }
        if self.run(a, acc, odd) {
            return true;
        }
        if !self.try_push(squarings, index) {
            for _ in 0..squarings {
                a.sqr_in_place(acc);
            }
            let pushed = self.try_push(0, index);
            debug_assert!(pushed);
        }
        false
    }
}

/// The odd powers g, g^3, ... the windows of `exp` read: all 2^(w-1) when the exponent has more
/// than 2^w set bits (then nearly every entry is read: the table's products overlap the scan in
/// [`run`]); otherwise up to the largest window value found by scanning the windows first, so
/// that a sparse exponent does not pay for entries it never reads (65537 reads g alone: no
/// squaring of g, no table product).
/// Leaks: variable time: the exponent's set bits and windows.
fn table_entries(exp: &[Limb], w: usize) -> usize {
    let full = 1 << (w - 1);
    let ones: u32 = exp.iter().map(|l| l.count_ones()).sum();
    if ones as usize > 2 * full {
        return full;
    }
    Windows::new(exp, w)
        .map(|(_, index)| usize::from(index) + 1)
        .max()
        .unwrap_or(1)
}

/// g^exp with windows of at most `w` bits; `None` for exp = 0. Builds the odd powers
/// g, g^3, ..., g^(2^w - 1) (one squaring, 2^(w-1) - 1 multiplications; fewer for a sparse
/// exponent: [`table_entries`]) while writing the exponent's windows into a [`Schedule`] of
/// products, then runs the schedule as one flat loop: a window [s, i] costs i - s + 1
/// squarings and one multiplication, a zero bit between windows one squaring. The exponent is
/// scanned a few windows after each table product ([`SLIDING_WINDOWS_PER_TABLE_PRODUCT`]), so
/// that the out-of-order core overlaps the scan with the products.
/// Leaks: variable time: the exponent's length and windows (the number and order of the
/// products, and the table entries read), plus the arithmetic's own.
#[inline(always)]
pub(crate) fn run<A: ExpArith>(a: &mut A, g: A::Elem, exp: &[Limb], w: usize) -> Option<A::Elem> {
    run_with_capacity(a, g, exp, w, SLIDING_SCHEDULE_MAX_ENTRIES)
}

/// [`run`] with a schedule of at most `capacity` entries.
/// Leaks: variable time, as [`run`].
#[inline(always)]
fn run_with_capacity<A: ExpArith>(
    a: &mut A,
    g: A::Elem,
    exp: &[Limb],
    w: usize,
    capacity: usize,
) -> Option<A::Elem> {
    let entries = table_entries(exp, w);
    let mut windows = Windows::new(exp, w);
    let (_, first) = windows.next()?;
    // At most pos squarings and as many multiplications (a window per set bit at most).
    let mut schedule = Schedule::with_capacity((2 * windows.pos).min(capacity));
    let mut g2 = g.clone();
    if entries > 1 {
        a.sqr_in_place(&mut g2);
    }
    let mut odd = Vec::with_capacity(entries);
    odd.push(g);
    // A window scanned during the table that did not fit the schedule.
    let mut left_over = None;
    for i in 1..entries {
        let mut t = odd[i - 1].clone();
        a.mul_in_place(&mut t, &g2);
        odd.push(t);
        if left_over.is_none() {
            for (gap, index) in windows.by_ref().take(SLIDING_WINDOWS_PER_TABLE_PRODUCT) {
                if !schedule.try_push(gap, Some(index)) {
                    left_over = Some((gap, index));
                    break;
                }
            }
        }
    }
    let mut acc = odd[usize::from(first)].clone();
    for (gap, index) in left_over.into_iter().chain(windows.by_ref()) {
        if schedule.push_or_run(a, &mut acc, &odd, gap, Some(index)) {
            return Some(acc); // cancelled: no need to scan the rest of the exponent
        }
    }
    // The bits below the last window.
    schedule.push_or_run(a, &mut acc, &odd, windows.pos, None);
    schedule.run(a, &mut acc, &odd);
    Some(acc)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limb::xorshift64 as rng;
    use crate::natural::Natural;
    use num_bigint::BigUint;

    /// The products [`Windows`] gives for `exp`: the top window's index, then each window's
    /// squarings and multiplication, then the squarings of the bits below the last window.
    fn schedule_of(exp: &[Limb], w: usize) -> Option<(usize, Vec<u16>)> {
        let mut windows = Windows::new(exp, w);
        let (_, first) = windows.next()?;
        let mut ops = vec![];
        for (gap, index) in windows.by_ref() {
            ops.extend(std::iter::repeat_n(SQR, gap));
            ops.push(index);
        }
        ops.extend(std::iter::repeat_n(SQR, windows.pos));
        Some((usize::from(first), ops))
    }

    /// HAC 14.85 one bit at a time: a zero bit is a squaring, a set bit i opens the window
    /// [j, i] of at most w bits that starts at a set bit.
    fn bitwise(exp: &[Limb], w: usize) -> Option<(usize, Vec<u16>)> {
        let bit = |i: usize| arith::bit(exp, i);
        let window = |i: usize| {
            let mut j = (i + 1).saturating_sub(w);
            while !bit(j) {
                j += 1;
            }
            let v = (j..=i).rev().fold(0, |v, t| 2 * v + usize::from(bit(t)));
            (j, v)
        };
        let (mut j, top) = window(arith::bit_len(exp).checked_sub(1)?);
        let mut ops = vec![];
        while j > 0 {
            let i = j - 1;
            if bit(i) {
                let (start, v) = window(i);
                ops.extend(std::iter::repeat_n(SQR, i - start + 1));
                ops.push((v >> 1) as u16);
                j = start;
            } else {
                ops.push(SQR);
                j = i;
            }
        }
        Some((top >> 1, ops))
    }

    /// The exponent a schedule computes: the top window, doubled per squaring, plus the odd
    /// value of each multiplication.
    fn replay(first: usize, ops: &[u16]) -> BigUint {
        ops.iter().fold(BigUint::from(2 * first + 1), |e, &op| {
            if op == SQR {
                e << 1u32
            } else {
                e + (2 * u32::from(op) + 1)
            }
        })
    }

    #[test]
    fn schedule_matches_the_bitwise_scan_and_replays_to_the_exponent() {
        let mut s = 0x0123_4567_89ab_cdef;
        let mut exps: Vec<Vec<Limb>> = vec![
            vec![1],
            vec![2],
            vec![3],
            vec![0, 1],
            vec![1, 0, 0],
            vec![1 << 63],
            vec![Limb::MAX; 3],
            vec![(1 << 63) | 1, 1, (1 << 63) | 1],
            vec![0x5555_5555_5555_5555, 0xaaaa_aaaa_aaaa_aaaa],
            vec![0x8000_0000_0000_0001, 0, 0x8000_0000_0000_0001],
            vec![0xffff, 0, 1 << 7],
        ];
        for len in 1..=5 {
            for _ in 0..40 {
                exps.push((0..len).map(|_| rng(&mut s)).collect());
                // sparse: a few set bits, runs of zero limbs
                exps.push(
                    (0..len)
                        .map(|_| rng(&mut s) & rng(&mut s) & rng(&mut s) & rng(&mut s))
                        .collect(),
                );
            }
        }
        for exp in &exps {
            let value = Natural::from_limbs(exp.to_vec()).to_biguint();
            for w in 1..=16 {
                let got = schedule_of(exp, w);
                assert_eq!(got, bitwise(exp, w), "exp={exp:x?} w={w}");
                match got {
                    Some((first, ops)) => assert_eq!(replay(first, &ops), value, "w={w}"),
                    None => assert_eq!(value, BigUint::from(0u32)),
                }
            }
        }
        assert_eq!(schedule_of(&[0, 0], 5), None);
        assert_eq!(schedule_of(&[], 5), None);
        assert!(exps.iter().filter(|e| e.iter().any(|&l| l != 0)).count() > 300);
    }

    /// Exponent arithmetic: an element is the exponent e of g^e, so a squaring doubles it and
    /// a multiplication adds. `run` on it must give back the exponent itself.
    struct Exponents;

    impl ExpArith for Exponents {
        type Elem = BigUint;
        fn sqr_in_place(&mut self, a: &mut BigUint) {
            *a <<= 1u32;
        }
        fn mul_in_place(&mut self, a: &mut BigUint, b: &BigUint) {
            *a += b;
        }
    }

    /// `run` computes g^exp for every window size and for schedules so small that they are run
    /// and refilled many times, including zero runs longer than the whole schedule.
    #[test]
    fn run_gives_the_exponent_with_any_schedule_size() {
        let mut s = 0x3c6e_f372_fe94_f82b;
        let mut exps: Vec<Vec<Limb>> = vec![
            vec![1],
            vec![1 << 63],
            vec![1, 0, 0, 1 << 63],
            vec![Limb::MAX; 3],
            vec![0x8000_0000_0000_0001, 0, 0x8000_0000_0000_0001],
        ];
        for len in 1..=4 {
            for _ in 0..10 {
                exps.push((0..len).map(|_| rng(&mut s)).collect());
            }
        }
        for exp in &exps {
            let value = Natural::from_limbs(exp.to_vec()).to_biguint();
            for w in 1..=8 {
                for capacity in [1, 2, 3, 5, 17, 64, SLIDING_SCHEDULE_MAX_ENTRIES] {
                    let got =
                        run_with_capacity(&mut Exponents, BigUint::from(1u32), exp, w, capacity);
                    assert_eq!(
                        got.as_ref(),
                        Some(&value),
                        "exp={exp:x?} w={w} capacity={capacity}"
                    );
                }
            }
        }
        assert_eq!(run(&mut Exponents, BigUint::from(1u32), &[0], 5), None);
    }

    /// Exponent arithmetic ([`Exponents`]) that counts the products.
    struct Counting {
        squarings: usize,
        products: usize,
    }

    impl ExpArith for Counting {
        type Elem = BigUint;
        fn sqr_in_place(&mut self, a: &mut BigUint) {
            self.squarings += 1;
            *a <<= 1u32;
        }
        fn mul_in_place(&mut self, a: &mut BigUint, b: &BigUint) {
            self.products += 1;
            *a += b;
        }
    }

    /// A sparse exponent builds only the odd powers its windows read: 65537 costs 16
    /// squarings and one multiplication whatever the window; a dense one the whole table.
    #[test]
    fn sparse_exponents_build_only_the_odd_powers_they_read() {
        let count = |exp: &[Limb], w: usize| {
            let mut c = Counting {
                squarings: 0,
                products: 0,
            };
            let got = run(&mut c, BigUint::from(1u32), exp, w);
            assert_eq!(got, Some(Natural::from_limbs(exp.to_vec()).to_biguint()));
            (c.squarings, c.products)
        };
        for w in 1..=8 {
            assert_eq!(count(&[65537], w), (16, 1), "w={w}");
            assert_eq!(count(&[1 << 40], w), (40, 0), "w={w}");
        }
        // 0b1011 0000 0001: windows 1011 (index 5) and 1 at w = 4: g^2 and five table products
        // (g^3 .. g^11), then 8 squarings and one multiplication.
        assert_eq!(count(&[0b1011_0000_0001], 4), (1 + 8, 5 + 1));
        // 24 set bits > 2^4: the full table of 8 entries (g^2, then 7 products).
        let dense = 0xff_ffff_u64;
        let (squarings, products) = count(&[dense], 4);
        assert_eq!((squarings, products), (1 + 20, 7 + 5));
    }
}
