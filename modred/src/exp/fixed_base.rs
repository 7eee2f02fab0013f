//! `fixed-base`: right-to-left binary exponentiation of a fixed base with precomputed residues
//! r_i = A^(2^i) mod m and period detection (seed 004, section 4, Fig. 6: `precompute()`,
//! `find_remainders()`, `update_remainers()`), multi-threaded over the exponent's set bits
//! (seed 004 section 5: split the bits among threads, multiply the partial products).
//!
//! The sequence r_0, r_1, ... (r_{i+1} = r_i^2) is eventually periodic: once some r_j equals an
//! earlier r_u, r_{i} = r_{u + (i - u) mod T'} for all i >= u with period T' = j - u. [`Powers`]
//! stores r_0..r_{j-1} and (u, T') when a repetition shows up within the precomputed length, so
//! exponents of any length are then served by the short table. Each exponentiation costs one
//! multiplication per set bit, no squaring. Variable time.

use super::Ops;
use crate::arith;
use crate::limb::Limb;
use crate::reduce::Reducer;
use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};

/// The residues A^(2^i) in the reducer's representation, with the detected period.
#[derive(Clone, Debug)]
pub struct Powers {
    residues: Vec<Vec<Limb>>,
    /// (offset u, period T') when the sequence repeated within the computed length.
    period: Option<(usize, usize)>,
}

impl Powers {
    /// Residues r_0 .. r_{bits-1} of `base < m` (k limbs), stopping early at the first repetition.
    pub fn new<R: Reducer + ?Sized>(r: &R, base: &[Limb], bits: usize) -> Self {
        let mut ops = Ops::new(r);
        let bits = bits.max(1);
        let mut residues: Vec<Vec<Limb>> = Vec::with_capacity(bits);
        let mut seen: HashMap<u64, Vec<usize>> = HashMap::new();
        let mut cur = ops.enter(base);
        let mut period = None;
        for i in 0..bits {
            let mut h = DefaultHasher::new();
            cur.hash(&mut h);
            let slot = seen.entry(h.finish()).or_default();
            // Representations are bijective, so equal representations mean equal residues.
            if let Some(&u) = slot.iter().find(|&&u| residues[u] == cur) {
                period = Some((u, i - u));
                break;
            }
            slot.push(i);
            let mut next = vec![0; r.len()];
            if i + 1 < bits {
                ops.sqr(&mut next, &cur);
            }
            residues.push(core::mem::replace(&mut cur, next));
        }
        Self { residues, period }
    }

    /// The detected (offset u, period T'), if the sequence repeated.
    pub fn period(&self) -> Option<(usize, usize)> {
        self.period
    }

    /// How many residues are stored.
    pub fn stored(&self) -> usize {
        self.residues.len()
    }

    /// A^(2^i) in representation, if known (always when a period was found).
    pub fn get(&self, i: usize) -> Option<&[Limb]> {
        if i < self.residues.len() {
            return Some(&self.residues[i]);
        }
        let (u, t) = self.period?;
        Some(&self.residues[u + (i - u) % t])
    }

    /// Whether every bit position below `bits` is served.
    pub fn covers(&self, bits: usize) -> bool {
        self.period.is_some() || bits <= self.residues.len()
    }
}

/// Product of the residues of the set bits `bits` (in representation), `None` if empty.
fn partial<R: Reducer + ?Sized>(r: &R, p: &Powers, bits: &[usize]) -> Option<Vec<Limb>> {
    let (&first, rest) = bits.split_first()?;
    let mut ops = Ops::new(r);
    let mut acc = p.get(first).expect("covered").to_vec();
    for &i in rest {
        ops.mul_in_place(&mut acc, p.get(i).expect("covered"));
    }
    Some(acc)
}

/// `A^exp mod m` (k limbs, < m) from the precomputed residues, splitting the set bits of `exp`
/// among `threads` scoped threads. `None` if `exp` is longer than the residues cover.
/// Variable time.
pub fn pow<R: Reducer + ?Sized>(
    r: &R,
    p: &Powers,
    exp: &[Limb],
    threads: usize,
) -> Option<Vec<Limb>> {
    let nbits = arith::bit_len(exp);
    if !p.covers(nbits) {
        return None;
    }
    let set: Vec<usize> = (0..nbits).filter(|&i| arith::bit(exp, i)).collect();
    let threads = threads.clamp(1, set.len().max(1));
    let parts: Vec<Option<Vec<Limb>>> = if threads == 1 {
        vec![partial(r, p, &set)]
    } else {
        let chunk = set.len().div_ceil(threads);
        std::thread::scope(|s| {
            let handles: Vec<_> = set
                .chunks(chunk)
                .map(|c| s.spawn(move || partial(r, p, c)))
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("worker panicked"))
                .collect()
        })
    };
    let mut ops = Ops::new(r);
    let mut acc: Option<Vec<Limb>> = None;
    for part in parts.into_iter().flatten() {
        match acc.as_mut() {
            None => acc = Some(part),
            Some(a) => ops.mul_in_place(a, &part),
        }
    }
    Some(match acc {
        Some(a) => ops.leave(&a),
        None => ops.one_plain(),
    })
}
