//! `table-residue`: Tanaka–Okamoto's residue table (Lim, Hwang, Lee, *Fast Modular Reduction
//! With Precomputation*, JW-ISC '97, §2.4).
//!
//! Precalculation: `n[j]` = b^(k+j) mod m for 0 < j < k (k - 1 values of k limbs). A 2k-limb
//! z is reduced as z' = z[0..=k] + sum_{j=1}^{k-1} z_{k+j} `n[j]`, which is below
//! b^(k+1) + (k - 1) b^(k+1) = k b^(k+1), i.e. at most k + 2 limbs (the paper's "k + 1 digits
//! plus log2 k bits"); the classical algorithm then reduces those k + 2 limbs (two quotient
//! digits). About k^2 - k multiplications plus two classical quotient steps.

use super::classical::Classical;
use super::table_constant::build_rows;
use super::{check_modulus, check_table, check_wide_len, Reducer, ReducerInfo, ReducerKind};
use crate::alloc::{self, bytes_of};
use crate::arith::{self, add_1_in_place, addmul_1, karatsuba_scratch_len};
use crate::error::Result;
use crate::limb::Limb;

/// Residue-table context: the modulus, n[1..k] and a classical context for the last digits.
/// Leaks: variable time: [`Self::reduce_into_vartime`]'s, and its `mul`/`sqr` are the [`Reducer`]
/// defaults (Karatsuba from its threshold).
#[derive(Debug, Clone)]
pub struct TableResidue {
    m: Vec<Limb>,
    /// n[j] = b^(k+j) mod m for j = 1..k, row j-1 at `[(j-1) k .. j k]`.
    table: Vec<Limb>,
    classical: Classical,
}

impl TableResidue {
    /// Context for any non-zero modulus of at most `crate::tuning::TABLE_MAX_BITS` bits
    /// (k - 1 table rows of k limbs; [`crate::Error::TooLarge`] if they cannot be reserved).
    /// Each row is the previous one shifted by a digit and reduced (one quotient digit): O(k^2).
    pub fn new(m: &[Limb]) -> Result<Self> {
        let m = check_modulus(INFO.name, false, m)?;
        let k = m.len();
        let rows = k.saturating_sub(1);
        check_table(INFO.name, m, bytes_of(&[rows, k]))?;
        let classical = Classical::new(m)?;
        let mut table = alloc::zeroed("table-residue's table", rows * k)?;
        if rows > 0 {
            // n[1] = b^(k+1) mod m, then n[j+1] = n[j] b mod m.
            let mut p = vec![0; k + 2];
            p[k + 1] = 1;
            let mut first = arith::rem_vartime(&p, m);
            first.resize(k, 0);
            let mut u = vec![0; 2 * k + 3];
            build_rows(&mut table, &first, &classical, &mut u);
        }
        Ok(Self {
            m: m.to_vec(),
            table,
            classical,
        })
    }

    /// Row `n[j]` = b^(k+j) mod m, 0 < j < k.
    pub fn row(&self, j: usize) -> &[Limb] {
        let k = self.m.len();
        &self.table[(j - 1) * k..j * k]
    }

    /// `acc = z[0..=k] + sum_{j=1}^{k-1} z[k+j] n[j]` for a 2k-limb `z`; `acc` has k + 2 limbs
    /// and the sum fits (it is < k b^(k+1)). k(k - 1) multiplications.
    /// Leaks: variable time only in each row's carry into the top two limbs, which stops when it
    /// dies; the rows are read in a fixed order.
    pub fn fold_into_vartime(&self, acc: &mut [Limb], z: &[Limb]) {
        let k = self.m.len();
        debug_assert!(z.len() == 2 * k && acc.len() == k + 2);
        acc[..=k].copy_from_slice(&z[..=k]);
        acc[k + 1] = 0;
        for j in 1..k {
            let c = addmul_1(&mut acc[..k], self.row(j), z[k + j]);
            // acc[k..k+2] < k b + ... never overflows k + 2 limbs (bound above).
            let top = add_1_in_place(&mut acc[k..], c);
            debug_assert_eq!(top, 0);
        }
    }

    /// `out = z mod m` for a 2k-limb `z`. `scratch` needs `2k + 3` limbs.
    /// Leaks: variable time: [`Self::fold_into_vartime`]'s carries, then the classical tail's
    /// ([`Classical::rem_into_vartime`]).
    pub fn reduce_into_vartime(&self, out: &mut [Limb], z: &[Limb], scratch: &mut [Limb]) {
        let k = self.m.len();
        let (acc, u) = scratch.split_at_mut(k + 2);
        self.fold_into_vartime(acc, z);
        self.classical.rem_into_vartime(out, acc, u);
    }
}

impl Reducer for TableResidue {
    fn name(&self) -> &'static str {
        INFO.name
    }
    fn modulus(&self) -> &[Limb] {
        &self.m
    }
    fn scratch_len(&self) -> usize {
        let k = self.m.len();
        // product 2k + accumulator (k + 2) + classical (k + 3) + Karatsuba
        4 * k + 5 + karatsuba_scratch_len(k)
    }
    fn one(&self) -> &[Limb] {
        self.classical.one()
    }
    fn reduce_wide(&self, out: &mut [Limb], x: &mut [Limb], scratch: &mut [Limb]) {
        check_wide_len(self.m.len(), out, x);
        self.reduce_into_vartime(out, x, scratch);
    }
}

fn build(m: &[Limb], _tier: crate::cpu::Tier) -> Result<Box<dyn Reducer>> {
    Ok(Box::new(TableResidue::new(m)?))
}

/// Listing of `table-residue`.
pub const INFO: ReducerInfo = ReducerInfo {
    kind: ReducerKind::TableResidue,
    name: "table-residue",
    needs_odd: false,
    restriction: "x < b^(2k) (b = 2^64, k = limbs of m)",
    summary: "Tanaka-Okamoto residue table n[j] = b^(k+j) mod m, (k-1)k limbs, classical tail; Lim–Hwang–Lee 1997 §2.4",
    memory: "(k-1)k limbs: 8 MiB at 65,536 bits, its largest modulus",
    build,
};
