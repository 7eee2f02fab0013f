//! Batches of exponentiations in the eight lanes of AVX-512 IFMA
//! (`reduce::montgomery::ifma_lanes`, x86-64 only): which items of a batch run eight at a time
//! ([`plan`], [`plan_keyed`]), running the units of a plan in parallel ([`run`]), and one group
//! of up to eight ([`pow`], constant time [`pow_ct_group`]).
//!
//! An item runs in lanes when the tier in use is [`Tier::Ifma`], its modulus is odd and of
//! [`IFMA_LANES_MIN_LIMBS`]..=[`IFMA_LANES_MAX_LIMBS`] limbs, its base has at most as many
//! limbs, and the lanes beat one exponentiation after the other at that size on this CPU
//! ([`lanes_pay`]). Such items are grouped by modulus length, then sorted by exponent length
//! so that the exponents of a group (all read over the longest) are alike; a size's last group
//! runs in lanes, padded, from [`IFMA_LANES_MIN_FILL`] items, else one by one.

use crate::cancel::{self, Token};
use crate::cpu::{self, Tier};
use crate::error::{Error, Result};
use crate::limb::Limb;
use crate::natural::Natural;
use crate::tuning::{
    IFMA_LANES_MAX_LIMBS, IFMA_LANES_MEASURED_FROM_LIMBS, IFMA_LANES_MIN_FILL, IFMA_LANES_MIN_LIMBS,
};
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// Numbers per group.
pub(crate) const LANES: usize = 8;

/// One piece of a batch's work: an item alone, or up to eight items in lanes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Unit {
    One(usize),
    Lanes(Vec<usize>),
}

/// An item: (base, exponent, modulus).
pub(super) type Item<'a> = (&'a Natural, &'a Natural, &'a Natural);

/// Whether the lanes serve `(b, _, m)` on the tier in use and beat one exponentiation after
/// the other at its size (`ct`: the constant-time paths on both sides).
fn in_lanes(&(b, _, m): &Item, ct: bool) -> bool {
    let k = m.limbs().len();
    lanes_pay(k, ct) && m.limbs()[0] & 1 == 1 && b.limbs().len() <= k
}

/// Whether eight exponentiations modulo k-limb moduli
/// ([`IFMA_LANES_MIN_LIMBS`]..=[`IFMA_LANES_MAX_LIMBS`]) run faster in the lanes than one after
/// the other on this CPU, for the constant-time paths (`ct`) or the variable-time ones (never
/// below the IFMA tier or for other sizes). Below
/// [`IFMA_LANES_MEASURED_FROM_LIMBS`] the lanes win on every CPU measured; from there the
/// answer differs between CPUs and is measured once per process, size and kind
/// ([`measure`], about 40 ms at 4096 bits and 20-25 ms at 3072 on a Xeon).
/// Leaks: nothing of any caller's values (the measurement runs on operands of its own).
pub fn lanes_pay(k: usize, ct: bool) -> bool {
    const SIZES: usize = IFMA_LANES_MAX_LIMBS + 1;
    static CHOICE: [[OnceLock<bool>; SIZES]; 2] = [const { [const { OnceLock::new() }; SIZES] }; 2];
    if !cfg!(target_arch = "x86_64")
        || cpu::tier() < Tier::Ifma
        || !(IFMA_LANES_MIN_LIMBS..=IFMA_LANES_MAX_LIMBS).contains(&k)
    {
        return false;
    }
    k < IFMA_LANES_MEASURED_FROM_LIMBS || *CHOICE[usize::from(ct)][k].get_or_init(|| measure(k, ct))
}

/// Exponent lengths of [`measure`]: the difference of their times is the cost of
/// `MEASURE_BITS[1] - MEASURE_BITS[0]` exponent bits, without the set-up both pay.
#[cfg(target_arch = "x86_64")]
const MEASURE_BITS: [usize; 2] = [64, 256];
/// Rounds of [`measure`].
#[cfg(target_arch = "x86_64")]
const MEASURE_ROUNDS: usize = 4;

/// Whether, on eight pseudo-random odd k-limb moduli, bases and exponents of its own, an
/// exponent bit costs less in the lanes than in eight exponentiations one after the other:
/// both sides timed at the two [`MEASURE_BITS`] lengths, interleaved, [`MEASURE_ROUNDS`]
/// rounds, the fastest time of each kept (a shared machine only ever adds time). Every side
/// uses the window of a full-length exponent: `ct` times the constant-time scan of
/// `Modulus::pow_ct` one by one, else `pow_vartime`'s sliding window.
/// Leaks: nothing of any caller's values.
#[cfg(target_arch = "x86_64")]
fn measure(k: usize, ct: bool) -> bool {
    use crate::reduce::montgomery::ifma_lanes::LanesCtx;
    use crate::scan::ct::NoTrace;
    use std::time::{Duration, Instant};
    let mut state = 0x9e37_79b9_7f4a_7c15_u64 ^ k as u64;
    let mut number = |limbs: usize, top: Limb, low: Limb| -> Vec<Limb> {
        let mut x: Vec<Limb> = (0..limbs)
            .map(|_| crate::limb::xorshift64(&mut state))
            .collect();
        x[0] |= low;
        x[limbs - 1] = x[limbs - 1] & (top - 1) | top;
        x
    };
    let m: [Vec<Limb>; LANES] = core::array::from_fn(|_| number(k, 1 << 63, 1));
    // Bases below m (top bit clear), exponents of exactly MEASURE_BITS[i] bits.
    let b: [Vec<Limb>; LANES] = core::array::from_fn(|_| number(k, 1 << 62, 0));
    let e: [[Vec<Limb>; LANES]; 2] =
        MEASURE_BITS.map(|bits| core::array::from_fn(|_| number(bits / 64, 1 << 63, 0)));
    let Some(ctx) = LanesCtx::new(core::array::from_fn(|l| &m[l][..]), cpu::tier()) else {
        return false;
    };
    let w = crate::tuning::ct_window_bits(64 * k);
    let lanes = |i: usize| {
        let (b, e) = (
            core::array::from_fn(|l| &b[l][..]),
            core::array::from_fn(|l| &e[i][l][..]),
        );
        std::hint::black_box(if ct {
            ctx.pow_ct(b, e, MEASURE_BITS[i], w, &mut NoTrace)
        } else {
            ctx.pow_vartime(b, e, MEASURE_BITS[i], w)
        });
    };
    let naturals = |x: &[Vec<Limb>; LANES]| x.clone().map(Natural::from_limbs);
    let (mn, bn, en) = (naturals(&m), naturals(&b), e.each_ref().map(naturals));
    let contexts: Vec<super::Modulus> = mn
        .iter()
        .filter_map(|m| super::Modulus::new(m, crate::ReducerKind::Auto).ok())
        .collect();
    if contexts.len() < LANES {
        return false;
    }
    // The sliding window of a full-length exponent, as the lanes' window is (the difference
    // of the two times then holds no table).
    let opts = super::PowOptions {
        window: Some(crate::tuning::sliding_window_bits(64 * k)),
        ..Default::default()
    };
    let one_by_one = |i: usize| {
        for l in 0..LANES {
            if ct {
                if let Ok(r) = contexts[l].ct_reducer() {
                    let x = super::ct::pow(
                        contexts[l].ct_first(),
                        &*r,
                        &b[l],
                        &e[i][l],
                        MEASURE_BITS[i],
                        w,
                    );
                    std::hint::black_box(x);
                }
            } else {
                std::hint::black_box(super::pow_vartime(&bn[l], &en[i][l], &mn[l], &opts).ok());
            }
        }
    };
    let time = |f: &dyn Fn(usize), i: usize| {
        let t = Instant::now();
        f(i);
        t.elapsed()
    };
    let mut best = [[Duration::MAX; 2]; 2];
    for _ in 0..MEASURE_ROUNDS {
        for i in 0..2 {
            best[0][i] = best[0][i].min(time(&lanes, i));
            best[1][i] = best[1][i].min(time(&one_by_one, i));
        }
    }
    let per_bits = |t: [Duration; 2]| t[1].saturating_sub(t[0]);
    per_bits(best[0]) < per_bits(best[1])
}

/// See the x86-64 version: the lanes run nowhere else.
#[cfg(not(target_arch = "x86_64"))]
fn measure(_k: usize, _ct: bool) -> bool {
    false
}

/// The units of a batch: every index of `items` in exactly one unit.
pub(super) fn plan(items: &[Item]) -> Vec<Unit> {
    let mut units = Vec::new();
    let mut by_size: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for (i, it) in items.iter().enumerate() {
        if in_lanes(it, false) {
            by_size.entry(it.2.limbs().len()).or_default().push(i);
        } else {
            units.push(Unit::One(i));
        }
    }
    for mut group in by_size.into_values() {
        group.sort_by_key(|&i| items[i].1.bits());
        units.extend(chunk(&group));
    }
    units
}

/// The units of `len` items grouped by `key`: items without a key run alone, items of one key
/// (which share a schedule and a length the lanes serve) eight per group, a key's last group in
/// lanes from [`IFMA_LANES_MIN_FILL`] items, else one by one.
pub(super) fn plan_keyed<K: Ord>(len: usize, key: impl Fn(usize) -> Option<K>) -> Vec<Unit> {
    let mut units = Vec::new();
    let mut by_key: BTreeMap<K, Vec<usize>> = BTreeMap::new();
    for i in 0..len {
        match key(i) {
            Some(k) => by_key.entry(k).or_default().push(i),
            None => units.push(Unit::One(i)),
        }
    }
    units.extend(by_key.into_values().flat_map(|group| chunk(&group)));
    units
}

/// The key of a constant-time item the lanes serve on the tier in use: its modulus length in
/// limbs and the public length its exponent is scanned over (`Modulus::pow_ct`'s), or `None`.
pub(super) fn ct_key(it: &Item) -> Option<(usize, usize)> {
    let (_, e, m) = *it;
    in_lanes(it, true).then(|| (m.len(), super::modulus::ct_scan_bits(m.len(), e)))
}

/// `group` as units of up to eight; the last in lanes from [`IFMA_LANES_MIN_FILL`] items.
fn chunk(group: &[usize]) -> Vec<Unit> {
    let mut units = Vec::new();
    for part in group.chunks(LANES) {
        if part.len() >= IFMA_LANES_MIN_FILL {
            units.push(Unit::Lanes(part.to_vec()));
        } else {
            units.extend(part.iter().map(|&i| Unit::One(i)));
        }
    }
    units
}

/// The results of `plan`'s units, each computed by `f` (one result per index of the unit, in
/// its order), in parallel on the current rayon pool, put back in item order (`len` items).
pub(super) fn run<F>(plan: &[Unit], len: usize, f: F) -> Vec<Result<Natural>>
where
    F: Fn(&Unit) -> Vec<Result<Natural>> + Sync,
{
    let mut indexed: Vec<(usize, Result<Natural>)> = plan
        .par_iter()
        .flat_map_iter(|unit| {
            let indices = match unit {
                Unit::One(i) => vec![*i],
                Unit::Lanes(group) => group.clone(),
            };
            indices.into_iter().zip(f(unit))
        })
        .collect();
    debug_assert_eq!(indexed.len(), len);
    indexed.sort_unstable_by_key(|&(i, _)| i);
    indexed.into_iter().map(|(_, r)| r).collect()
}

/// `b^e mod m` for the items `group` (1..=8 indices of `items`, each served by the lanes, of
/// one modulus length) in one pass of the lanes, under the caller's cancellation `token`.
/// Leaks: the lengths, the longest exponent's bit length and the exponents' digits (the table
/// entries read).
pub(super) fn pow(token: Token, items: &[Item], group: &[usize]) -> Vec<Result<Natural>> {
    debug_assert!((1..=LANES).contains(&group.len()));
    token.install(|| {
        let cancelled = || group.iter().map(|_| Err(Error::Cancelled)).collect();
        if cancel::requested() {
            return cancelled();
        }
        let results = pow_lanes(items, group);
        if cancel::requested() {
            return cancelled();
        }
        results
    })
}

#[cfg(target_arch = "x86_64")]
fn pow_lanes(items: &[Item], group: &[usize]) -> Vec<Result<Natural>> {
    use crate::arith;
    use crate::reduce::montgomery::ifma_lanes::LanesCtx;
    // Lane l runs item group[l], the unused lanes repeat the first item.
    let lane: [Item; LANES] = core::array::from_fn(|l| items[group[l.min(group.len() - 1)]]);
    let Some(ctx) = LanesCtx::new(lane.map(|(_, _, m)| m.limbs()), cpu::tier()) else {
        return pow_one_by_one(items, group);
    };
    let bases: [Vec<u64>; LANES] = lane.map(|(b, _, m)| {
        if arith::cmp(b.limbs(), m.limbs()).is_lt() {
            b.limbs().to_vec()
        } else {
            arith::rem_vartime(b.limbs(), m.limbs())
        }
    });
    let exp_bits = lane.iter().map(|(_, e, _)| e.bits()).max().unwrap_or(0);
    let w = crate::tuning::ct_window_bits(exp_bits);
    let out = ctx.pow_vartime(
        core::array::from_fn(|l| &bases[l][..]),
        lane.map(|(_, e, _)| e.limbs()),
        exp_bits,
        w,
    );
    out.into_iter()
        .take(group.len())
        .map(|x| Ok(Natural::from_limbs(x)))
        .collect()
}

#[cfg(not(target_arch = "x86_64"))]
fn pow_lanes(items: &[Item], group: &[usize]) -> Vec<Result<Natural>> {
    pow_one_by_one(items, group)
}

/// The items of `group` one after the other (where no lanes can be built).
fn pow_one_by_one(items: &[Item], group: &[usize]) -> Vec<Result<Natural>> {
    let opts = super::PowOptions::default();
    group
        .iter()
        .map(|&i| super::pow_vartime(items[i].0, items[i].1, items[i].2, &opts))
        .collect()
}

/// Constant-time `b^e mod m` for the items `group` (1..=8 indices) in one pass of `fixed`
/// (lane l runs item group[l], the unused lanes repeat the first), under the caller's
/// cancellation `token`: `residue(i)` is item i's base below its modulus, or the error that
/// fails the whole group; `exp(i)` its exponent, every exponent scanned over `exp_bits`.
/// Leaks: the lengths, `exp_bits`, and what `residue` leaks (constant time otherwise).
pub(super) fn pow_ct_group<'a>(
    token: Token,
    fixed: &FixedLanes,
    group: &[usize],
    residue: impl Fn(usize) -> Result<Vec<Limb>>,
    exp: impl Fn(usize) -> &'a [Limb],
    exp_bits: usize,
) -> Vec<Result<Natural>> {
    debug_assert!((1..=LANES).contains(&group.len()));
    token.install(|| {
        if cancel::requested() {
            return group.iter().map(|_| Err(Error::Cancelled)).collect();
        }
        let lane = |l: usize| group[l.min(group.len() - 1)];
        let mut bases: [Vec<Limb>; LANES] = Default::default();
        for (l, base) in bases.iter_mut().enumerate() {
            match residue(lane(l)) {
                Ok(b) => *base = b,
                Err(err) => return group.iter().map(|_| Err(err.clone())).collect(),
            }
        }
        let out = fixed.pow_ct(
            core::array::from_fn(|l| &bases[l][..]),
            core::array::from_fn(|l| exp(lane(l))),
            exp_bits,
        );
        out.into_iter()
            .take(group.len())
            .map(|x| Ok(Natural::from_limbs(x)))
            .collect()
    })
}

/// Eight constant-time exponentiations under eight fixed odd moduli, their constants computed
/// once for repeated use (an RSA key's CRT halves, four inputs at a time).
#[derive(Clone, Debug)]
pub(crate) struct FixedLanes {
    #[cfg(target_arch = "x86_64")]
    ctx: crate::reduce::montgomery::ifma_lanes::LanesCtx,
    /// Off x86-64 no value exists.
    #[cfg(not(target_arch = "x86_64"))]
    never: core::convert::Infallible,
}

impl FixedLanes {
    /// The lanes for the trimmed moduli `m`, or `None` where they do not run: below the IFMA
    /// tier, off x86-64, for an even modulus or a length they do not serve, or where running
    /// one after the other is faster on this CPU ([`lanes_pay`]).
    /// Leaks: the moduli (divisions).
    #[cfg(target_arch = "x86_64")]
    pub(crate) fn new(m: [&[Limb]; LANES]) -> Option<Self> {
        // The choice first: the constants cost a division per modulus.
        let k = m.iter().map(|m| m.len()).max().unwrap_or(0);
        if !lanes_pay(k, true) {
            return None;
        }
        crate::reduce::montgomery::ifma_lanes::LanesCtx::new(m, cpu::tier()).map(|ctx| Self { ctx })
    }

    /// See the x86-64 version: the lanes run nowhere else.
    #[cfg(not(target_arch = "x86_64"))]
    pub(crate) fn new(_m: [&[Limb]; LANES]) -> Option<Self> {
        None
    }

    /// `base[l]^exp[l] mod m[l]` for the eight lanes, each exponent scanned over `exp_bits`
    /// (which must cover it), `base[l] < m[l]`; results `< m[l]`, of m[l]'s length.
    /// Leaks: nothing but the lengths and `exp_bits` (constant time).
    pub(crate) fn pow_ct(
        &self,
        base: [&[Limb]; LANES],
        exp: [&[Limb]; LANES],
        exp_bits: usize,
    ) -> [Vec<Limb>; LANES] {
        let w = crate::tuning::ct_window_bits(exp_bits);
        #[cfg(target_arch = "x86_64")]
        {
            self.ctx
                .pow_ct(base, exp, exp_bits, w, &mut crate::scan::ct::NoTrace)
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = (base, exp, w);
            match self.never {}
        }
    }
}
