//! `table-constant`: Kawamura's constant-multiplication table (Lim, Hwang, Lee, *Fast Modular
//! Reduction With Precomputation*, JW-ISC '97, §2.4, after Kawamura–Takabayashi–Shimbo).
//!
//! For a fixed c < m, precompute `c[j]` = c b^j mod m for 0 <= j < k. Then for any k-limb x,
//! c x = sum_j x_j `c[j]` (mod m): the sum is below k b^(k+1) (k + 2 limbs, the paper's "k + 1
//! digits plus log2 k bits"), finished by the classical algorithm. k^2 multiplications and two
//! classical quotient steps; no separate reduction of a 2k-limb product.
//!
//! [`FixedMultiplier`] is the reusable context (the window exponentiation keeps one per
//! precomputed power). The reducer `table-constant` exists so the generic suites exercise the
//! same code: its `mul(a, b)` builds the table of `a` in scratch (k - 1 one-digit shifts, each
//! reduced classically) and then multiplies — correct but slower than any other method for
//! one-off products. Its `reduce_wide` uses the table of c = b^k mod m: x = x_lo + c x_hi.

use super::classical::Classical;
use super::{
    check_len, check_modulus, check_table, check_wide_len, Reducer, ReducerInfo, ReducerKind,
};
use crate::alloc::{self, bytes_of};
use crate::arith::{self, add_1_in_place, addmul_1};
use crate::error::Result;
use crate::limb::Limb;

/// `acc = sum_j x_j table[j]` (rows of k limbs, `x.len() <= rows`), `acc` k + 2 limbs.
/// Leaks: variable time only in each row's carry into the top two limbs, which stops when it
/// dies; the rows are read in a fixed order.
fn accumulate(acc: &mut [Limb], table: &[Limb], x: &[Limb], k: usize) {
    debug_assert!(acc.len() == k + 2 && table.len() >= x.len() * k);
    acc.fill(0);
    for (j, &xj) in x.iter().enumerate() {
        let c = addmul_1(&mut acc[..k], &table[j * k..(j + 1) * k], xj);
        // Each term < b^(k+1); k terms < k b^(k+1) < b^(k+2): no carry out.
        let top = add_1_in_place(&mut acc[k..], c);
        debug_assert_eq!(top, 0);
    }
}

/// Fill `table` (rows of k = `c.len()` limbs) with c b^j mod m, j = 0, 1, ..., from `c < m`;
/// `u` has 2k + 3 limbs. One quotient digit per row: O(k) each.
/// Leaks: variable time: each row is [`Classical::rem_into_vartime`].
pub(crate) fn build_rows(table: &mut [Limb], c: &[Limb], classical: &Classical, u: &mut [Limb]) {
    let k = c.len();
    let rows = table.len() / k;
    table[..k].copy_from_slice(c);
    for j in 1..rows {
        let (prev, next) = table[(j - 1) * k..(j + 1) * k].split_at_mut(k);
        // prev * b as k + 1 limbs, reduced classically (one quotient digit).
        let (shifted, u) = u.split_at_mut(k + 1);
        shifted[0] = 0;
        shifted[1..].copy_from_slice(prev);
        classical.rem_into_vartime(next, shifted, u);
    }
}

/// Fixed multiplier c mod m: `c[j] = c b^j mod m`, k rows of k limbs (k^2 limbs).
/// Leaks: variable time: the classical tail of [`Self::mul_into_vartime`].
#[derive(Debug, Clone)]
pub struct FixedMultiplier {
    m: Vec<Limb>,
    table: Vec<Limb>,
    classical: Classical,
}

impl FixedMultiplier {
    /// Table for `c` (any size; reduced mod m first) and modulus `m` (non-zero, at most
    /// `crate::tuning::TABLE_MAX_BITS` bits; the k^2 limbs must be reservable).
    pub fn new(c: &[Limb], m: &[Limb]) -> Result<Self> {
        let m = check_modulus(INFO.name, false, m)?;
        let k = m.len();
        check_table(INFO.name, m, bytes_of(&[k, k]))?;
        let classical = Classical::new(m)?;
        Self::with_classical(c, classical)
    }

    fn with_classical(c: &[Limb], classical: Classical) -> Result<Self> {
        let m = classical.modulus().to_vec();
        let k = m.len();
        let mut c = arith::rem_vartime(c, &m);
        c.resize(k, 0);
        let mut table = alloc::zeroed("table-constant's table", k * k)?;
        let mut u = vec![0; 2 * k + 3];
        build_rows(&mut table, &c, &classical, &mut u);
        Ok(Self {
            m,
            table,
            classical,
        })
    }

    /// Scratch limbs [`Self::mul_into_vartime`] needs.
    pub fn scratch_len(&self) -> usize {
        2 * self.m.len() + 5
    }

    /// `out = c x mod m` for any `x` of at most k limbs (not necessarily < m). Output < m.
    /// Leaks: variable time: the accumulation's carries, then the classical tail
    /// ([`Classical::rem_into_vartime`]).
    pub fn mul_into_vartime(&self, out: &mut [Limb], x: &[Limb], scratch: &mut [Limb]) {
        let k = self.m.len();
        let (acc, u) = scratch.split_at_mut(k + 2);
        accumulate(acc, &self.table, x, k);
        self.classical.rem_into_vartime(out, acc, u);
    }

    /// `c x mod m` on [`crate::Natural`]-free limbs of any length, allocating (convenience).
    /// Leaks: as [`Self::mul_into_vartime`].
    pub fn mul_vartime(&self, x: &[Limb]) -> Vec<Limb> {
        let k = self.m.len();
        // `mul_into` takes at most k limbs: a longer x is reduced first.
        let reduced;
        let x = if arith::normalized_len(x) > k {
            reduced = arith::rem_vartime(x, &self.m);
            &reduced[..]
        } else {
            &x[..x.len().min(k)]
        };
        let mut out = vec![0; k];
        let mut s = vec![0; self.scratch_len()];
        self.mul_into_vartime(&mut out, x, &mut s);
        out
    }

    /// The table's memory, in limbs (k^2).
    pub fn table_limbs(&self) -> usize {
        self.table.len()
    }
}

/// The `table-constant` reducer (see the module docs).
/// Leaks: variable time: `mul` and `sqr` build the table of `a` row by row with
/// [`Classical::rem_into_vartime`], and every operation ends with the accumulation's carries and the
/// classical tail.
#[derive(Debug, Clone)]
pub struct TableConstant {
    /// Multiplier by b^k mod m, for `reduce_wide`.
    bk: FixedMultiplier,
}

impl TableConstant {
    /// Context for any non-zero modulus of at most `crate::tuning::TABLE_MAX_BITS` bits (the
    /// table and the scratch of `mul` take k^2 limbs each).
    pub fn new(m: &[Limb]) -> Result<Self> {
        let m = check_modulus(INFO.name, false, m)?;
        let k = m.len();
        check_table(INFO.name, m, bytes_of(&[2, k, k]))?;
        let mut bk = vec![0; k + 1];
        bk[k] = 1;
        Ok(Self {
            bk: FixedMultiplier::with_classical(&bk, Classical::new(m)?)?,
        })
    }
}

impl Reducer for TableConstant {
    fn name(&self) -> &'static str {
        INFO.name
    }
    fn modulus(&self) -> &[Limb] {
        &self.bk.m
    }
    fn scratch_len(&self) -> usize {
        let k = self.bk.m.len();
        // table k^2 + accumulator k + 2 + classical 2k + 3
        k * k + 3 * k + 5
    }
    fn one(&self) -> &[Limb] {
        self.bk.classical.one()
    }
    /// Builds the table of `a` in scratch, then accumulates rows by the digits of `b`.
    fn mul(&self, out: &mut [Limb], a: &[Limb], b: &[Limb], scratch: &mut [Limb]) {
        let k = self.bk.m.len();
        check_len(k, &[out, a, b]);
        let (table, rest) = scratch.split_at_mut(k * k);
        build_rows(table, a, &self.bk.classical, rest);
        let (acc, u) = rest.split_at_mut(k + 2);
        accumulate(acc, table, b, k);
        self.bk.classical.rem_into_vartime(out, acc, u);
    }
    /// [`Self::mul`] with b = a: the table of `a`, multiplied by `a`.
    fn sqr(&self, out: &mut [Limb], a: &[Limb], scratch: &mut [Limb]) {
        self.mul(out, a, a, scratch) // the table of a, multiplied by a
    }
    /// x = x_lo + (b^k mod m) x_hi by the table of b^k mod m, then the classical tail on
    /// k + 2 limbs (x_lo folded into the accumulator).
    fn reduce_wide(&self, out: &mut [Limb], x: &mut [Limb], scratch: &mut [Limb]) {
        let k = self.bk.m.len();
        check_wide_len(k, out, x);
        let (acc, u) = scratch.split_at_mut(k + 2);
        accumulate(acc, &self.bk.table, &x[k..2 * k], k);
        let c = arith::add_n_in_place(&mut acc[..k], &x[..k]);
        let top = add_1_in_place(&mut acc[k..], c);
        debug_assert_eq!(top, 0);
        self.bk.classical.rem_into_vartime(out, acc, u);
    }
}

fn build(m: &[Limb], _tier: crate::cpu::Tier) -> Result<Box<dyn Reducer>> {
    Ok(Box::new(TableConstant::new(m)?))
}

/// Listing of `table-constant`.
pub const INFO: ReducerInfo = ReducerInfo {
    kind: ReducerKind::TableConstant,
    name: "table-constant",
    needs_odd: false,
    restriction: "x < b^(2k) (b = 2^64, k = limbs of m)",
    summary: "Kawamura constant-multiplication table c[j] = c b^j mod m, k^2 limbs per constant; mul builds the table per call (slow one-off); Lim–Hwang–Lee 1997 §2.4",
    memory: "2k^2 limbs (table and mul's scratch): 16 MiB at 65,536 bits, its largest modulus",
    build,
};
