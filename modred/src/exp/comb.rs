//! `comb`: the Lim–Lee fixed-base comb (C. H. Lim, P. J. Lee, "More flexible exponentiation
//! with precomputation", CRYPTO '94; HAC Algorithm 14.117). Beyond the source papers.
//!
//! For exponents of at most `bits = h a` bits, write bit p = i a + s b + t (tooth i < h, table
//! s < v, column t < b = ceil(a / v)). Table s holds, for every h-bit index j, the product of
//! A^(2^(i a + s b)) over the set bits i of j. Then
//!   acc = 1; for t = b-1 .. 0 { acc = acc^2; for s in 0..v { acc *= G[s][column index] } }
//! costs b squarings and at most a v = a multiplications, against about `bits` squarings for
//! sliding windows. The tables (v 2^h entries) are built once per base from the residues
//! A^(2^i) of Prots'ko, Gryshchuk, *The implementation of Montgomery modular reduction to speed
//! up of modular exponentiation*, CMIS-2024 ([`super::fixed_base::Powers`]) and reused for
//! every exponent; where the reducer has a fused arithmetic ([`Reducer::fused_arith`], e.g.
//! IFMA) the tables are also imported into it and the exponentiations run there. Variable time.

use super::fixed_base::Powers;
use super::Ops;
use crate::arith;
use crate::limb::Limb;
use crate::reduce::Reducer;
use crate::scan::ExpArith;

/// Precomputed comb tables of one base.
/// Leaks: building them, nothing beyond the reducer's own (the products depend on `h`, `v` and
/// `bits` only); [`Self::pow`] is variable time.
#[derive(Clone, Debug)]
pub struct CombTable {
    h: usize,
    a: usize,
    b: usize,
    tables: Vec<Vec<Vec<Limb>>>,
    /// The tables in the reducer's fused arithmetic, when it has one.
    fused: Option<Vec<Vec<Vec<u64>>>>,
}

impl CombTable {
    /// Tables for exponents of up to `bits` bits with `h` teeth (1..=16; options allow 1..=8) and `v` tables (>= 1),
    /// from the residues `p`; `None` if they do not cover the `h ceil(bits / h)` bits the comb
    /// needs (which happens only when [`Powers::new`] was cancelled).
    pub fn new<R: Reducer + ?Sized>(
        r: &R,
        p: &Powers,
        bits: usize,
        h: usize,
        v: usize,
    ) -> Option<Self> {
        // The callers pass `PowOptions::validate`d teeth or `tuning::comb_params`.
        debug_assert!((1..=16).contains(&h) && v >= 1);
        let bits = bits.max(1);
        let a = bits.div_ceil(h);
        let v = v.min(a);
        let b = a.div_ceil(v);
        if !p.covers(h * a) {
            return None;
        }
        let mut ops = Ops::new(r);
        let mut tables = Vec::with_capacity(v);
        for s in 0..v {
            let mut g: Vec<Vec<Limb>> = Vec::with_capacity(1 << h);
            g.push(r.one().to_vec());
            for j in 1usize..1 << h {
                let top = usize::BITS as usize - 1 - j.leading_zeros() as usize;
                let res = p.get(top * a + s * b).expect("covered");
                let rest = j ^ (1 << top);
                if rest == 0 {
                    g.push(res.to_vec());
                } else {
                    let mut t = vec![0; r.len()];
                    ops.mul(&mut t, &g[rest], res);
                    g.push(t);
                }
            }
            tables.push(g);
        }
        let fused = r.fused_arith().map(|mut f| {
            let import = |g: &Vec<Vec<Limb>>| g.iter().map(|x| f.import(x)).collect();
            tables.iter().map(import).collect()
        });
        Some(Self {
            h,
            a,
            b,
            tables,
            fused,
        })
    }

    /// The longest exponent (bits) the tables serve.
    pub fn bits(&self) -> usize {
        self.h * self.a
    }

    /// `A^exp mod m` (k limbs, < m), `None` if `exp` is longer than [`Self::bits`].
    /// Leaks: variable time: the exponent's bit length and its comb columns (a table index
    /// each; zero columns skip their multiplication), plus the reducer's own.
    pub fn pow<R: Reducer + ?Sized>(&self, r: &R, exp: &[Limb]) -> Option<Vec<Limb>> {
        if arith::bit_len(exp) > self.bits() {
            return None;
        }
        let mut ops = Ops::new(r);
        let acc = match (&self.fused, r.fused_arith()) {
            (Some(tables), Some(mut f)) => {
                self.scan(&mut f, tables, exp).map(|x| f.export_plain(&x))
            }
            _ => self
                .scan(&mut ops, &self.tables, exp)
                .map(|x| ops.leave(&x)),
        };
        Some(acc.unwrap_or_else(|| ops.one_plain()))
    }

    /// The comb scan on `ar` over `tables` (these tables in `ar`'s representation); `None`
    /// for a zero exponent.
    /// Leaks: variable time, as [`Self::pow`].
    fn scan<A: ExpArith>(
        &self,
        ar: &mut A,
        tables: &[Vec<A::Elem>],
        exp: &[Limb],
    ) -> Option<A::Elem> {
        let mut acc: Option<A::Elem> = None;
        // Invariant: after column t, acc = prod over processed bits p of A^(2^(p - t)).
        for t in (0..self.b).rev() {
            if t % crate::scan::CANCEL_CHECK_STEPS == 0 && crate::cancel::requested() {
                break; // the result is discarded
            }
            if let Some(x) = acc.as_mut() {
                ar.sqr_in_place(x);
            }
            for (s, table) in tables.iter().enumerate() {
                let col = s * self.b + t;
                if col >= self.a {
                    continue;
                }
                let mut idx = 0usize;
                for i in 0..self.h {
                    idx |= (arith::bit(exp, i * self.a + col) as usize) << i;
                }
                if idx != 0 {
                    match acc.as_mut() {
                        None => acc = Some(table[idx].clone()),
                        Some(x) => ar.mul_in_place(x, &table[idx]),
                    }
                }
            }
        }
        acc
    }
}
