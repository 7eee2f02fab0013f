//! Batch exponentiation over all cores with rayon: many (base, exponent) pairs under one
//! modulus whose context is built once ([`pow_many_vartime`]), and many independent triples
//! ([`pow_batch_vartime`], constant time [`pow_batch_ct`]). Under [`crate::cancel::with_flag`]
//! the workers see the caller's flag: once it is set, the items not yet started give
//! [`Error::Cancelled`] at once.
//!
//! The work runs on the rayon pool the caller runs in (so `ThreadPool::install` chooses the
//! threads), else on modred's own pool, started on first use. Not on rayon's global pool: if
//! its threads cannot be started (an address-space or thread limit), rayon's global pool stays
//! unusable for the rest of the process, while here that call fails with
//! [`Error::Threads`] and the next one tries again.

use super::even::reduce_below;
use super::lanes;
use super::{pow_vartime, Modulus, PowOptions};
use crate::cancel::{self, Token};
use crate::error::{Error, Result};
use crate::natural::Natural;
use crate::reduce::ReducerKind;
use crate::tuning::IFMA_LANES_MIN_FILL;
use rayon::prelude::*;
use std::sync::{Arc, Mutex};

/// modred's worker pool, once started.
static POOL: Mutex<Option<Arc<rayon::ThreadPool>>> = Mutex::new(None);

/// Runs `f` (which uses rayon's parallel iterators) on the caller's rayon pool if it runs in
/// one, else on modred's pool, starting it if need be ([`Error::Threads`] if it cannot start).
pub(crate) fn on_pool<T: Send>(f: impl FnOnce() -> T + Send) -> Result<T> {
    if rayon::current_thread_index().is_some() {
        return Ok(f());
    }
    let pool = {
        // A panic elsewhere while holding the lock leaves a valid Option behind.
        let mut slot = POOL.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        match &*slot {
            Some(pool) => Arc::clone(pool),
            None => {
                let pool = rayon::ThreadPoolBuilder::new()
                    .thread_name(|i| format!("modred-{i}"))
                    .build()
                    .map_err(|e| Error::Threads(e.to_string()))?;
                Arc::clone(slot.insert(Arc::new(pool)))
            }
        }
    };
    Ok(pool.install(f))
}

/// `f()` on a worker, under the caller's cancellation `token`; [`Error::Cancelled`] without
/// running it once cancelled.
fn item(token: Token, f: impl FnOnce() -> Result<Natural>) -> Result<Natural> {
    token.install(|| {
        if cancel::requested() {
            Err(Error::Cancelled)
        } else {
            f()
        }
    })
}

/// `b^e mod m` for every pair, sharing the context `m`, in parallel: one result per pair, or
/// [`Error::Threads`] if no worker thread could be started. On the IFMA tier, an odd modulus of
/// 512 to 4096 bits runs eight pairs at a time in the lanes of AVX-512 IFMA
/// (`tuning::IFMA_LANES_MIN_LIMBS`), pairs of similar exponent lengths together, where the
/// lanes beat one by one on this CPU (measured once per size from 2560 bits).
/// Leaks: variable time, as [`Modulus::pow_vartime`] with the default options (the lanes'
/// products follow the exponent length only; their table reads follow the exponents' digits).
pub fn pow_many_vartime(m: &Modulus, pairs: &[(Natural, Natural)]) -> Result<Vec<Result<Natural>>> {
    let opts = PowOptions::default();
    let token = Token::current();
    let items: Vec<(&Natural, &Natural, &Natural)> =
        pairs.iter().map(|(b, e)| (b, e, m.modulus())).collect();
    let plan = lanes::plan(&items);
    on_pool(|| {
        lanes::run(&plan, items.len(), |unit| match *unit {
            lanes::Unit::One(i) => vec![item(token, || {
                m.pow_vartime(&pairs[i].0, &pairs[i].1, &opts)
            })],
            lanes::Unit::Lanes(ref group) => lanes::pow(token, &items, group),
        })
    })
}

/// [`Modulus::pow_ct`] of every pair, in parallel: one result per pair, or [`Error::Threads`]
/// if no worker thread could be started. On the IFMA tier, for an odd modulus of 512 to 4096
/// bits, pairs whose exponents have the same public scan length ([`Modulus::pow_ct`]'s: n's
/// bits or the exponent's limbs) run eight at a time in the lanes of AVX-512 IFMA where they
/// beat one by one on this CPU (measured once per size from 2560 bits), constant time like
/// `pow_ct` (a size's last group of fewer than `tuning::IFMA_LANES_MIN_FILL` runs one
/// by one).
/// Leaks: as [`Modulus::pow_ct`] for each pair, and how the pairs group (their exponents'
/// lengths in limbs).
pub fn pow_many_ct(m: &Modulus, pairs: &[(Natural, Natural)]) -> Result<Vec<Result<Natural>>> {
    let token = Token::current();
    let one = |i: usize| item(token, || m.pow_ct(&pairs[i].0, &pairs[i].1));
    // `FixedLanes::new` asks whether the lanes pay at this size (`lanes::lanes_pay`).
    let fixed = m.ct_reducer().ok().and_then(|_| {
        (pairs.len() >= IFMA_LANES_MIN_FILL)
            .then(|| lanes::FixedLanes::new([m.modulus().limbs(); lanes::LANES]))
            .flatten()
    });
    let Some(fixed) = fixed else {
        return on_pool(|| (0..pairs.len()).into_par_iter().map(one).collect());
    };
    let plan = lanes::plan_keyed(pairs.len(), |i| Some(m.ct_exp_bits(&pairs[i].1)));
    on_pool(|| {
        lanes::run(&plan, pairs.len(), |unit| match unit {
            lanes::Unit::One(i) => vec![one(*i)],
            lanes::Unit::Lanes(group) => lanes::pow_ct_group(
                token,
                &fixed,
                group,
                |i| {
                    m.ensure_power_work(&pairs[i].0)?;
                    Ok(m.residue_for_ct(&pairs[i].0))
                },
                |i| pairs[i].1.limbs(),
                m.ct_exp_bits(&pairs[group[0]].1),
            ),
        })
    })
}

/// `b^e mod m` for every independent triple (b, e, m), in parallel, with default options: one
/// result per triple, or [`Error::Threads`] if no worker thread could be started. On the IFMA
/// tier, odd moduli of 512 to 4096 bits run eight at a time in the lanes of AVX-512 IFMA,
/// grouped by limb count and then exponent length (the moduli of a group may differ), where
/// the lanes beat one by one on this CPU (measured once per size from 2560 bits).
/// Leaks: variable time, as [`pow_vartime`] with the default options (the lanes' products
/// follow the exponent length only; their table reads follow the exponents' digits).
pub fn pow_batch_vartime(triples: &[(Natural, Natural, Natural)]) -> Result<Vec<Result<Natural>>> {
    let opts = PowOptions::default();
    let token = Token::current();
    let items: Vec<(&Natural, &Natural, &Natural)> =
        triples.iter().map(|(b, e, m)| (b, e, m)).collect();
    let plan = lanes::plan(&items);
    on_pool(|| {
        lanes::run(&plan, items.len(), |unit| match *unit {
            lanes::Unit::One(i) => {
                let (b, e, m) = items[i];
                vec![item(token, || pow_vartime(b, e, m, &opts))]
            }
            lanes::Unit::Lanes(ref group) => lanes::pow(token, &items, group),
        })
    })
}

/// [`Modulus::pow_ct`] of every independent triple (b, e, m), its context built for it
/// (`Modulus::new(m, ReducerKind::Auto)`), in parallel: one result per triple (an even m is an
/// error, m = 1 gives 0), or [`Error::Threads`] if no worker thread could be started. On the
/// IFMA tier, triples with odd moduli of 512 to 4096 bits, bases no longer than their moduli
/// and the same public lengths (the modulus's limbs and `pow_ct`'s scan length) run eight at a
/// time in the lanes of AVX-512 IFMA where they beat one by one on this CPU (measured once per
/// size from 2560 bits; the moduli of a group may differ; a length's last group of fewer than
/// `tuning::IFMA_LANES_MIN_FILL` runs one by one).
/// Leaks: as [`Modulus::new`] and [`Modulus::pow_ct`] for each triple (the modulus, the
/// lengths), and how the triples group (those lengths).
pub fn pow_batch_ct(triples: &[(Natural, Natural, Natural)]) -> Result<Vec<Result<Natural>>> {
    let token = Token::current();
    let one = |i: usize| {
        let (b, e, m) = &triples[i];
        item(token, || Modulus::new(m, ReducerKind::Auto)?.pow_ct(b, e))
    };
    let plan = lanes::plan_keyed(triples.len(), |i| {
        let (b, e, m) = &triples[i];
        lanes::ct_key(&(b, e, m))
    });
    on_pool(|| {
        lanes::run(&plan, triples.len(), |unit| match unit {
            lanes::Unit::One(i) => vec![one(*i)],
            lanes::Unit::Lanes(group) => {
                let modulus = |l: usize| triples[group[l.min(group.len() - 1)]].2.limbs();
                let Some(fixed) = lanes::FixedLanes::new(core::array::from_fn(modulus)) else {
                    return group.iter().map(|&i| one(i)).collect();
                };
                let (_, e, m) = &triples[group[0]];
                lanes::pow_ct_group(
                    token,
                    &fixed,
                    group,
                    |i| Ok(reduce_below(&triples[i].0, triples[i].2.limbs())),
                    |i| triples[i].1.limbs(),
                    super::modulus::ct_scan_bits(m.len(), e),
                )
            }
        })
    })
}
