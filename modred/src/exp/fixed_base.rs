//! `fixed-base`: right-to-left binary exponentiation of a fixed base with precomputed residues
//! r_i = A^(2^i) mod m and period detection (Prots'ko, Gryshchuk, *The implementation of
//! Montgomery modular reduction to speed up of modular exponentiation*, CMIS-2024, §5, Fig. 6:
//! `precompute()`, `find_remainders()`, `update_remainers()`), multi-threaded over the
//! exponent's set bits (Prots'ko–Gryshchuk 2024 §5: split the bits among threads, multiply the
//! partial products).
//!
//! The sequence r_0, r_1, ... (r_{i+1} = r_i^2) is eventually periodic: once some r_j equals an
//! earlier r_u, r_{i} = r_{u + (i - u) mod T'} for all i >= u with period T' = j - u. [`Powers`]
//! stores r_0..r_{j-1} and (u, T') when a repetition shows up within the precomputed length, so
//! exponents of any length are then served by the short table. Each exponentiation costs one
//! multiplication per set bit, no squaring. Where the reducer has a fused arithmetic
//! ([`Reducer::fused_arith`], e.g. IFMA) the residues are also imported into it and the
//! products run there. Variable time.

use super::Ops;
use crate::arith;
use crate::limb::Limb;
use crate::reduce::Reducer;
use crate::scan::ExpArith;
use crate::tuning;
use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The residues A^(2^i) in the reducer's representation, with the detected period.
/// Leaks: variable time: the precomputation stops at the first repetition, found by hashing and
/// comparing the residues, so its length and time depend on the base; plus the reducer's own.
#[derive(Clone, Debug)]
pub struct Powers {
    residues: Vec<Vec<Limb>>,
    /// (offset u, period T') when the sequence repeated within the computed length.
    period: Option<(usize, usize)>,
    /// The residues in the reducer's fused arithmetic, when it has one.
    fused: Option<Vec<Vec<u64>>>,
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
            if i % crate::scan::CANCEL_CHECK_STEPS == 0 && crate::cancel::requested() {
                break; // cancelled: the result is discarded
            }
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
        let fused = r
            .fused_arith()
            .map(|mut f| residues.iter().map(|x| f.import(x)).collect());
        Self {
            residues,
            period,
            fused,
        }
    }

    /// The detected (offset u, period T'), if the sequence repeated.
    pub fn period(&self) -> Option<(usize, usize)> {
        self.period
    }

    /// How many residues are stored.
    #[cfg(test)]
    pub fn stored(&self) -> usize {
        self.residues.len()
    }

    /// A^(2^i) in representation, if known (always when a period was found).
    pub fn get(&self, i: usize) -> Option<&[Limb]> {
        self.slot(i).map(|j| self.residues[j].as_slice())
    }

    /// Where A^(2^i) is stored.
    fn slot(&self, i: usize) -> Option<usize> {
        if i < self.residues.len() {
            return Some(i);
        }
        let (u, t) = self.period?;
        Some(u + (i - u) % t)
    }

    /// Whether every bit position below `bits` is served.
    pub fn covers(&self, bits: usize) -> bool {
        self.period.is_some() || bits <= self.residues.len()
    }
}

/// Product of `table[slot]` over the chunks of `slots` this thread claims from `next` (a shared
/// counter of chunks of `chunk` slots), `None` if it claimed none.
/// Leaks: variable time: the number of slots (set bits) and the table entries read.
fn claimed<A: ExpArith>(
    ar: &mut A,
    table: &[A::Elem],
    slots: &[usize],
    chunk: usize,
    next: &AtomicUsize,
) -> Option<A::Elem> {
    let mut acc: Option<A::Elem> = None;
    loop {
        if crate::cancel::requested() {
            return acc; // the result is discarded
        }
        let start = next.fetch_add(1, Ordering::Relaxed).saturating_mul(chunk);
        let Some(mine) = slots.get(start..slots.len().min(start.saturating_add(chunk))) else {
            return acc;
        };
        for &j in mine {
            match acc.as_mut() {
                Some(a) => ar.mul_in_place(a, &table[j]),
                None => acc = Some(table[j].clone()),
            }
        }
    }
}

/// Product of `table[slot]` over `slots` on `ar`, shared among `threads` threads: the calling
/// one (with `ar`) and parked [`super::helpers`], each with its own arithmetic from `make`;
/// `None` if `slots` is empty. The threads claim small chunks from a shared counter rather than
/// a fixed share each, so a helper that wakes late or runs on a busy CPU takes fewer chunks
/// instead of delaying the result.
/// Leaks: variable time, as [`claimed`] (and the threads' scheduling).
fn product<A: ExpArith>(
    ar: &mut A,
    make: impl Fn() -> A + Sync,
    table: &[A::Elem],
    slots: &[usize],
    threads: usize,
) -> Option<A::Elem>
where
    A::Elem: Send + Sync,
{
    let next = AtomicUsize::new(0);
    if threads <= 1 {
        // One chunk: the whole product on this thread.
        return claimed(ar, table, slots, slots.len().max(1), &next);
    }
    let chunk = slots
        .len()
        .div_ceil(threads * tuning::FIXED_BASE_CHUNKS_PER_THREAD)
        .max(1);
    let (make, next) = (&make, &next);
    let token = crate::cancel::Token::current();
    let jobs: Vec<Box<dyn FnOnce() -> Option<A::Elem> + Send + '_>> = (1..threads)
        .map(|_| {
            Box::new(move || token.install(|| claimed(&mut make(), table, slots, chunk, next)))
                as Box<_>
        })
        .collect();
    let (first, rest) = super::helpers::run_all(|| claimed(ar, table, slots, chunk, next), jobs);
    first
        .into_iter()
        .chain(rest.into_iter().flatten())
        .reduce(|mut a, b| {
            ar.mul_in_place(&mut a, &b);
            a
        })
}

/// `A^exp mod m` (k limbs, < m) from the precomputed residues, splitting the set bits of `exp`
/// among `threads` threads (the calling one included; see `product`). `None` if `exp` is
/// longer than the residues cover.
/// Leaks: variable time: the exponent's bit length and set bits (one multiplication per set
/// bit, each reading the residue of its position), plus the reducer's own.
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
    let slots: Vec<usize> = (0..nbits)
        .filter(|&i| arith::bit(exp, i))
        .filter_map(|i| p.slot(i))
        .collect();
    let threads = threads.clamp(1, slots.len().max(1));
    let mut ops = Ops::new(r);
    let acc = match (&p.fused, r.fused_arith()) {
        (Some(table), Some(mut f)) => {
            let make = || r.fused_arith().expect("the reducer gave one above");
            product(&mut f, make, table, &slots, threads).map(|x| f.export_plain(&x))
        }
        _ => product(&mut ops, || Ops::new(r), &p.residues, &slots, threads).map(|x| ops.leave(&x)),
    };
    Some(acc.unwrap_or_else(|| ops.one_plain()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::natural::Natural;
    use crate::reduce::{self, ReducerKind};

    /// Stored residues stop at the repetition of 2^(2^i) mod 1000005 (the period itself is
    /// checked against num-bigint in tests/exp.rs, through `Modulus::fixed_base_bits`).
    #[test]
    fn stored_residues_stop_at_the_period() {
        let m = Natural::from(1_000_005u64);
        let r = reduce::build(ReducerKind::MontgomeryCios, &m).unwrap();
        let p = Powers::new(&*r, &[2], 10_000);
        let (u, t) = p.period().unwrap();
        assert_eq!(p.stored(), u + t);
        assert_eq!(p.get(u).unwrap(), p.get(u + t).unwrap());
        assert_eq!(p.get(u + 1).unwrap(), p.get(u + 5 * t + 1).unwrap());
    }
}
