//! `comb`: the Lim–Lee fixed-base comb (C. H. Lim, P. J. Lee, "More flexible exponentiation
//! with precomputation", CRYPTO '94; HAC Algorithm 14.117). Beyond the seeds.
//!
//! For exponents of at most `bits = h a` bits, write bit p = i a + s b + t (tooth i < h, table
//! s < v, column t < b = ceil(a / v)). Table s holds, for every h-bit index j, the product of
//! A^(2^(i a + s b)) over the set bits i of j. Then
//!   acc = 1; for t = b-1 .. 0 { acc = acc^2; for s in 0..v { acc *= G[s][column index] } }
//! costs b squarings and at most a v = a multiplications, against about `bits` squarings for
//! sliding windows. The tables (v 2^h entries) are built once per base from the seed-004
//! residues [`super::fixed_base::Powers`] and reused for every exponent. Variable time.

use super::fixed_base::Powers;
use super::Ops;
use crate::arith;
use crate::limb::Limb;
use crate::reduce::Reducer;

/// Precomputed comb tables of one base.
#[derive(Clone, Debug)]
pub struct CombTable {
    h: usize,
    v: usize,
    a: usize,
    b: usize,
    tables: Vec<Vec<Vec<Limb>>>,
}

impl CombTable {
    /// Tables for exponents of up to `bits` bits with `h` teeth (1..=16) and `v` tables (>= 1),
    /// from the residues `p` (which must cover `bits`).
    pub fn new<R: Reducer + ?Sized>(r: &R, p: &Powers, bits: usize, h: usize, v: usize) -> Self {
        assert!((1..=16).contains(&h) && v >= 1);
        let bits = bits.max(1);
        let a = bits.div_ceil(h);
        let v = v.min(a);
        let b = a.div_ceil(v);
        assert!(p.covers(h * a), "residues do not cover the comb");
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
        Self { h, v, a, b, tables }
    }

    /// The longest exponent (bits) the tables serve.
    pub fn bits(&self) -> usize {
        self.h * self.a
    }

    /// `A^exp mod m` (k limbs, < m), `None` if `exp` is longer than [`Self::bits`].
    pub fn pow<R: Reducer + ?Sized>(&self, r: &R, exp: &[Limb]) -> Option<Vec<Limb>> {
        if arith::bit_len(exp) > self.bits() {
            return None;
        }
        let mut ops = Ops::new(r);
        let mut acc: Option<Vec<Limb>> = None;
        // Invariant: after column t, acc = prod over processed bits p of A^(2^(p - t)).
        for t in (0..self.b).rev() {
            if let Some(x) = acc.as_mut() {
                ops.sqr_in_place(x);
            }
            for s in 0..self.v {
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
                        None => acc = Some(self.tables[s][idx].clone()),
                        Some(x) => ops.mul_in_place(x, &self.tables[s][idx]),
                    }
                }
            }
        }
        Some(match acc {
            Some(x) => ops.leave(&x),
            None => ops.one_plain(),
        })
    }
}
