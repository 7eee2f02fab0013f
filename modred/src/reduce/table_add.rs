//! `table-add-*`: addition-only lookup-table reduction (Lim, Hwang, Lee, *Fast Modular Reduction
//! With Precomputation*, JW-ISC '97, §3.2, Fig. 5), adapted to 64-bit limbs.
//!
//! The modulus is first normalized: m_n = m 2^sh with its top bit set (z 2^sh mod m_n =
//! (z mod m) 2^sh), so that a k-limb value below b^k is below 2 m_n. A shape splits a digit
//! into `t` fields of `s` bits (the top field keeps the remaining 64 - (t-1)s bits). Tables:
//! field f < t - 1: `T_f[j]` = j 2^(s f) b^k mod m_n for j < 2^s; top field:
//! `T_top[j]` = j 2^(s (t-1)) b^k mod m_n for j < (t + 1) 2^(64 - s(t-1)), which also absorbs the
//! carry digit z_{i+1} <= t left by the previous step (the paper's "four possible carries");
//! carry table `C[c]` = c b^k mod m_n for c <= t.
//!
//! Reduction, for i = L-1 down to k: take the fields of z_i (the top field index is
//! z_{i+1} 2^(topbits) + (z_i >> s(t-1))), clear z_i, z_{i+1}, and add the t rows into the
//! window z[i-k..i] (t long additions with carry chains). The window plus t rows
//! is below (t + 1) b^k, so the new z_i <= t. Finally z = z[0..k] + z_k b^k is folded by C until
//! no carry is left (at most twice), one conditional subtraction of m_n gives z < m_n, and the
//! shift is undone. t additions of k-limb rows per digit, no multiplications; the tables take
//! `rows * k` limbs. Variable time (table indices are data-dependent: cache-timing leaks).

use super::{check_modulus, check_table, check_wide_len, Reducer, ReducerInfo, ReducerKind};
use crate::alloc::{self, bytes_of};
use crate::arith::{self, add_mod, karatsuba_scratch_len, shl, shr_in_place, sub_mod_final};
use crate::error::{Error, Result};
use crate::limb::Limb;

/// A table shape: `fields` fields of `bits` bits per 64-bit digit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// Bits per field (the top field may be shorter).
    pub bits: u32,
    /// Number of fields t (t additions per digit), at most 16.
    pub fields: usize,
}

impl Shape {
    /// Bits of the top field (0 when the other fields leave none of the 64).
    pub fn top_bits(&self) -> u32 {
        u32::try_from(self.fields.saturating_sub(1))
            .ok()
            .and_then(|f| self.bits.checked_mul(f))
            .and_then(|b| 64u32.checked_sub(b))
            .unwrap_or(0)
    }

    /// Rows of k limbs in all tables: (t-1) 2^s + (t+1) 2^topbits + (t+1) (saturated at
    /// `usize::MAX`).
    pub fn rows(&self) -> usize {
        let t = self.fields;
        let pow2 = |b: u32| 1usize.checked_shl(b).unwrap_or(usize::MAX);
        t.saturating_sub(1)
            .saturating_mul(pow2(self.bits))
            .saturating_add((t.saturating_add(1)).saturating_mul(pow2(self.top_bits())))
            .saturating_add(t.saturating_add(1))
    }
}

/// 16 fields of 4 bits: 529 rows (4232 k bytes), 16 additions per digit.
pub const SHAPE_16X16: Shape = Shape {
    bits: 4,
    fields: 16,
};
/// 8 fields of 8 bits: 4105 rows (32840 k bytes), 8 additions per digit.
pub const SHAPE_8X256: Shape = Shape { bits: 8, fields: 8 };
/// 6 fields of 11 bits (top 9): 13831 rows (110648 k bytes), 6 additions per digit.
pub const SHAPE_6X2048: Shape = Shape {
    bits: 11,
    fields: 6,
};

/// Addition-only table reduction context.
/// Leaks: variable time: [`Self::reduce_into_vartime`]'s table indices, and its `mul`/`sqr` are the
/// [`Reducer`] defaults (Karatsuba from its threshold).
#[derive(Debug, Clone)]
pub struct TableAdd {
    name: &'static str,
    shape: Shape,
    m: Vec<Limb>,
    /// m << sh, top bit set.
    mn: Vec<Limb>,
    sh: u32,
    /// All rows, k limbs each: fields 0..t-1, then top, then carry table.
    table: Vec<Limb>,
    /// First row of each field's table (index t - 1 is the top field, index t the carry table).
    start: Vec<usize>,
    one: Vec<Limb>,
}

impl TableAdd {
    /// Context for `shape` and any non-zero modulus of at most
    /// `crate::tuning::TABLE_MAX_BITS` bits (`shape.rows()` rows of k limbs, which must be
    /// reservable).
    pub fn new(name: &'static str, shape: Shape, m: &[Limb]) -> Result<Self> {
        let m = check_modulus(name, false, m)?;
        if !(2..=16).contains(&shape.fields) || shape.bits == 0 || shape.top_bits() == 0 {
            return Err(Error::InvalidParameter(format!(
                "{name}: a table shape needs 2..=16 fields of at least one bit each, the top \
                 one included (got {} fields of {} bits)",
                shape.fields, shape.bits
            )));
        }
        let k = m.len();
        check_table(name, m, bytes_of(&[shape.rows(), k]))?;
        let sh = m[k - 1].leading_zeros();
        let mut mn = vec![0; k];
        shl(&mut mn, m, sh);
        let t = shape.fields;
        let mut table = alloc::vec_with_capacity(&format!("{name}'s table"), shape.rows() * k)?;
        let mut start = Vec::with_capacity(t + 1);
        let mut tmp = vec![0; k];
        let mut row = vec![0; k];
        for f in 0..=t {
            // base = 2^(s f) b^k mod m_n (f = t: the carry table, base b^k).
            let e = if f == t { 0 } else { shape.bits as usize * f };
            let rows = if f == t {
                t + 1
            } else if f == t - 1 {
                (t + 1) << shape.top_bits()
            } else {
                1 << shape.bits
            };
            let mut p = vec![0; k + 1 + e / 64 + 1];
            p[k + e / 64] = 1 << (e % 64);
            let mut base = arith::rem_vartime(&p, &mn);
            base.resize(k, 0);
            start.push(table.len() / k);
            row.fill(0);
            let mut prev = vec![0; k];
            for _ in 0..rows {
                table.extend_from_slice(&row);
                prev.copy_from_slice(&row);
                add_mod(&mut row, &prev, &base, &mn, &mut tmp);
            }
        }
        debug_assert_eq!(table.len(), shape.rows() * k);
        let mut one = vec![0; k];
        one[0] = u64::from(m != [1]);
        Ok(Self {
            name,
            shape,
            m: m.to_vec(),
            mn,
            sh,
            table,
            start,
            one,
        })
    }

    /// The shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// Table memory in limbs (rows * k).
    pub fn table_limbs(&self) -> usize {
        self.table.len()
    }

    fn row(&self, r: usize) -> &[Limb] {
        let k = self.m.len();
        &self.table[r * k..(r + 1) * k]
    }

    /// `out = x mod m` for any `x` with at most 2k limbs; `z` is scratch of 2k + 1 limbs.
    /// Additions, shifts and table look-ups only.
    /// Leaks: variable time: every digit's fields index the tables (cache timing), and the final
    /// carry fold loops until no carry is left (up to three times).
    pub fn reduce_into_vartime(&self, out: &mut [Limb], x: &[Limb], z: &mut [Limb]) {
        let k = self.m.len();
        let len = x.len() + 1;
        let z = &mut z[..len];
        z[x.len()] = shl(&mut z[..x.len()], x, self.sh);
        let (s, t) = (self.shape.bits, self.shape.fields);
        let mask: Limb = (1 << s) - 1;
        let top_shift = s * (t as u32 - 1);
        let mut rows = [0usize; 16];
        let mut i = len;
        // z[i] (the carry digit above the current one) is 0 at the start.
        let mut carry: Limb = 0;
        while i > k {
            i -= 1;
            let zi = z[i];
            z[i] = 0;
            for (f, r) in rows.iter_mut().enumerate().take(t - 1) {
                *r = self.start[f] + ((zi >> (s * f as u32)) & mask) as usize;
            }
            debug_assert!(carry <= t as Limb);
            rows[t - 1] =
                self.start[t - 1] + ((carry << self.shape.top_bits()) | (zi >> top_shift)) as usize;
            // t long additions into the window: window + t rows < (t + 1) b^k, so the
            // carries out of the window sum to at most t.
            let lo = i - k;
            let mut out_carry: Limb = 0;
            for &r in &rows[..t] {
                out_carry += arith::add_n_in_place(&mut z[lo..i], &self.table[r * k..(r + 1) * k]);
            }
            carry = out_carry;
        }
        // z = z[0..k] + carry b^k, carry <= t: fold with C[carry] until no carry is left.
        let zk = &mut z[..k];
        let mut folds = 0;
        while carry != 0 {
            let c = arith::add_n_in_place(zk, self.row(self.start[t] + carry as usize));
            carry = c;
            folds += 1;
            debug_assert!(folds <= 3);
        }
        // z < b^k < 2 m_n.
        let (zk, tmp) = z.split_at_mut(k);
        tmp[..k].copy_from_slice(zk);
        sub_mod_final(zk, &tmp[..k], 0, &self.mn);
        shr_in_place(zk, self.sh);
        out.copy_from_slice(zk);
    }
}

impl Reducer for TableAdd {
    fn name(&self) -> &'static str {
        self.name
    }
    fn modulus(&self) -> &[Limb] {
        &self.m
    }
    fn scratch_len(&self) -> usize {
        let k = self.m.len();
        // product 2k + shifted argument 2k + 1 (>= 2k for the final copy) + Karatsuba
        4 * k + 1 + karatsuba_scratch_len(k)
    }
    fn one(&self) -> &[Limb] {
        &self.one
    }
    fn reduce_wide(&self, out: &mut [Limb], x: &mut [Limb], scratch: &mut [Limb]) {
        check_wide_len(self.m.len(), out, x);
        self.reduce_into_vartime(out, x, scratch);
    }
}

fn build_16x16(m: &[Limb], _tier: crate::cpu::Tier) -> Result<Box<dyn Reducer>> {
    Ok(Box::new(TableAdd::new(INFO_16X16.name, SHAPE_16X16, m)?))
}
fn build_8x256(m: &[Limb], _tier: crate::cpu::Tier) -> Result<Box<dyn Reducer>> {
    Ok(Box::new(TableAdd::new(INFO_8X256.name, SHAPE_8X256, m)?))
}
fn build_6x2048(m: &[Limb], _tier: crate::cpu::Tier) -> Result<Box<dyn Reducer>> {
    Ok(Box::new(TableAdd::new(INFO_6X2048.name, SHAPE_6X2048, m)?))
}

/// Listing of `table-add-16x16`.
pub const INFO_16X16: ReducerInfo = ReducerInfo {
    kind: ReducerKind::TableAdd16x16,
    name: "table-add-16x16",
    needs_odd: false,
    restriction: "x < b^(2k) (b = 2^64, k = limbs of m)",
    summary: "addition-only lookup table, 16 fields x 16 rows (529 rows = 4232k bytes), 16 adds/limb; Lim–Hwang–Lee 1997 §3.2, Fig. 5",
    memory: "529k limbs: 4.1 MiB at 65,536 bits, its largest modulus",
    build: build_16x16,
};
/// Listing of `table-add-8x256`.
pub const INFO_8X256: ReducerInfo = ReducerInfo {
    kind: ReducerKind::TableAdd8x256,
    name: "table-add-8x256",
    needs_odd: false,
    restriction: "x < b^(2k) (b = 2^64, k = limbs of m)",
    summary: "addition-only lookup table, 8 fields x 256 rows (4105 rows = 32840k bytes), 8 adds/limb; Lim–Hwang–Lee 1997 §3.2, Fig. 5",
    memory: "4105k limbs: 32 MiB at 65,536 bits, its largest modulus",
    build: build_8x256,
};
/// Listing of `table-add-6x2048`.
pub const INFO_6X2048: ReducerInfo = ReducerInfo {
    kind: ReducerKind::TableAdd6x2048,
    name: "table-add-6x2048",
    needs_odd: false,
    restriction: "x < b^(2k) (b = 2^64, k = limbs of m)",
    summary: "addition-only lookup table, 6 fields x 2048 rows (13831 rows = 110648k bytes), 6 adds/limb; Lim–Hwang–Lee 1997 §3.2, Fig. 5",
    memory: "13831k limbs: 108 MiB at 65,536 bits, its largest modulus",
    build: build_6x2048,
};
