//! Throughput: many exponentiations at once (prime testing, servers), per core. Every row runs
//! on a one-thread rayon pool, so modred's batches (which run on the caller's pool) and the
//! loops of the other libraries share one core and its CPU clock.
//!
//! - `throughput-pow`: exponentiations per second of a batch of random triples (b, e, m),
//!   full-length exponents, by modred one by one, modred's batch (`pow_batch_vartime`: eight
//!   moduli at a time in the AVX-512 IFMA lanes where the CPU has them), modred's batch under
//!   one modulus (`pow_many_vartime`), and GMP's `mpz_powm` in a loop; and the constant-time
//!   forms, one by one (`Modulus::pow_ct`) and batched (`pow_batch_ct`).
//! - `throughput-prime`: probable-prime tests of primes (the expensive case: no early
//!   witness; four primes, the time per test) and one next-prime search, against GMP and
//!   OpenSSL. The primes come from GMP.

use super::common::short_reason;
use crate::data::{from_rug, to_bn, to_rug, Rng};
use crate::harness::{measure_row, Competitor, Protocol};
use crate::table::{Cell, Row, Table};
use crate::Ctx;
use modred::exp::{Modulus, PowOptions};
use modred::{Natural, ReducerKind};
use openssl::bn::BigNumContext;
use rug::integer::IsPrime;
use rug::{Assign, Integer};
use std::hint::black_box;

const POW_FULL: [usize; 5] = [512, 1024, 2048, 3072, 4096];
const POW_QUICK: [usize; 2] = [1024, 2048];
const PRIME_FULL: [usize; 4] = [1024, 2048, 3072, 4096];
const PRIME_QUICK: [usize; 2] = [1024, 2048];
const NEXT_FULL: [usize; 2] = [1024, 2048];
const NEXT_QUICK: [usize; 2] = [1024, 2048];
/// Triples per batch: two full groups of the eight IFMA lanes.
const BATCH: usize = 16;
/// Primes per `is_prime` row: two with Selfridge's D = 5 (p = 2, 3 mod 5) and two with another
/// D, the two kinds of strong Lucas chain.
const PRIMES_PER_ROW: usize = 4;
/// GMP's repetitions: `mpz_probab_prime_p(n, 25)` is Baillie–PSW plus one Miller–Rabin round.
const GMP_REPS: u32 = 25;

const ONE: &str = "modred one by one";
const BATCHED: &str = "modred pow_batch_vartime";
const MANY: &str = "modred pow_many_vartime (one modulus)";
const GMP_LOOP: &str = "GMP mpz_powm loop";
const ONE_CT: &str = "modred pow_ct one by one";
const BATCHED_CT: &str = "modred pow_batch_ct";
const MODRED: &str = "modred";
const GMP: &str = "GMP";
const OSSL: &str = "OpenSSL";

/// Results as one number for the cross-check: each result's length in limbs, then its limbs.
fn concat<'a>(results: impl IntoIterator<Item = &'a Natural>) -> Natural {
    let mut limbs = Vec::new();
    for r in results {
        limbs.push(r.len() as u64);
        limbs.extend_from_slice(r.limbs());
    }
    Natural::from_limbs(limbs)
}

/// A competitor running `f` (one batch or call), or n/a with the error of its first run.
fn attempt<'a>(label: &str, mut f: impl FnMut() -> Result<Natural, String> + 'a) -> Competitor<'a> {
    match f() {
        Err(e) => Competitor::na(label, short_reason(&e)),
        Ok(_) => Competitor::new(label, move |check| match f() {
            Ok(r) => check.then_some(r),
            Err(_) => None,
        }),
    }
}

/// `measure_row` on a one-thread rayon pool (the competitors are built there by `comps`).
fn measure_on_one_core<'a>(
    proto: &Protocol,
    t: &Table,
    want: &Natural,
    comps: impl FnOnce() -> Vec<Competitor<'a>> + Send,
) -> Result<Vec<Cell>, String> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .thread_name(|_| "report-throughput".into())
        .build()
        .map_err(|e| format!("one-thread rayon pool: {e}"))?;
    Ok(pool.install(|| {
        let mut comps = comps();
        measure_row(proto, want, &mut comps, t)
    }))
}

/// `n / median` of a time cell (µs per batch of `n`) in operations per second.
fn rate(c: &Cell, n: usize) -> Cell {
    match c {
        Cell::Time { median_us, .. } if *median_us > 0.0 => {
            Cell::number(n as f64 / (median_us * 1e-6))
        }
        Cell::Time { .. } => Cell::na("no time measured"),
        other => other.clone(),
    }
}

/// `a / b` of two number or time cells.
fn quotient(a: &Cell, b: &Cell) -> Cell {
    match (a.value(), b.value()) {
        (Some(x), Some(y)) if y > 0.0 => Cell::number(x / y),
        _ => Cell::na("a column has no value"),
    }
}

fn pow_table(ctx: &mut Ctx, sizes: &[usize]) -> Table {
    let mut t = Table::new(
        "throughput-pow",
        "exponentiations per second on one core: one by one, batched, GMP",
        "throughput",
        "exponentiations per second (one core)",
        "bits",
    );
    t.columns = [
        ONE,
        BATCHED,
        MANY,
        GMP_LOOP,
        ONE_CT,
        BATCHED_CT,
        "batch / one by one",
        "batch / GMP",
        "batch ct / one by one ct",
    ]
    .map(String::from)
    .to_vec();
    let opts = PowOptions::default();
    for &bits in sizes {
        ctx.step(format!("throughput pow {bits} bits"));
        let mut rng = Rng::new(0x7470_0000 + bits as u64);
        let triples: Vec<(Natural, Natural, Natural)> = (0..BATCH)
            .map(|_| {
                let m = rng.odd_modulus(bits);
                (rng.below(&m), rng.exact(bits), m)
            })
            .collect();
        let m0 = triples[0].2.clone();
        let pairs: Vec<(Natural, Natural)> = triples
            .iter()
            .map(|(_, e, _)| (rng.below(&m0), e.clone()))
            .collect();
        let powm = |b: &Natural, e: &Natural, m: &Natural| {
            to_rug(b)
                .pow_mod(&to_rug(e), &to_rug(m))
                .map(|r| from_rug(&r))
                .map_err(|_| "mpz_powm: negative exponent".to_string())
        };
        let oracle = |it: &mut dyn Iterator<Item = Result<Natural, String>>| {
            it.collect::<Result<Vec<_>, String>>()
                .map(|v| concat(v.iter()))
        };
        let want = oracle(&mut triples.iter().map(|(b, e, m)| powm(b, e, m)));
        let want_many = oracle(&mut pairs.iter().map(|(b, e)| powm(b, e, &m0)));
        let (want, want_many) = match (want, want_many) {
            (Ok(w), Ok(wm)) => (w, wm),
            (Err(e), _) | (_, Err(e)) => {
                t.rows.push(Row {
                    label: bits.to_string(),
                    x: Some(bits as f64),
                    cells: vec![Cell::na(format!("oracle: {e}")); t.columns.len()],
                });
                continue;
            }
        };
        let (triples, pairs, opts, m0) = (&triples, &pairs, &opts, &m0);
        let comps = || {
            let rug_triples: Vec<(Integer, Integer, Integer)> = triples
                .iter()
                .map(|(b, e, m)| (to_rug(b), to_rug(e), to_rug(m)))
                .collect();
            let mut r = Integer::with_capacity(bits + 64);
            vec![
                attempt(ONE, move || {
                    let mut out = Vec::with_capacity(BATCH);
                    for (b, e, m) in triples {
                        let md = Modulus::new(m, ReducerKind::Auto).map_err(|e| e.to_string())?;
                        out.push(md.pow_vartime(b, e, opts).map_err(|e| e.to_string())?);
                    }
                    black_box(&out);
                    Ok(concat(&out))
                }),
                attempt(BATCHED, move || {
                    let out = modred::exp::pow_batch_vartime(triples)
                        .and_then(|v| v.into_iter().collect::<modred::Result<Vec<_>>>())
                        .map_err(|e| e.to_string())?;
                    black_box(&out);
                    Ok(concat(&out))
                }),
                attempt(MANY, move || {
                    let md = Modulus::new(m0, ReducerKind::Auto).map_err(|e| e.to_string())?;
                    let out = md
                        .pow_many_vartime(pairs)
                        .and_then(|v| v.into_iter().collect::<modred::Result<Vec<_>>>())
                        .map_err(|e| e.to_string())?;
                    black_box(&out);
                    Ok(concat(&out))
                })
                .expecting(want_many.clone()),
                Competitor::new(GMP_LOOP, move |check| {
                    let mut out = Vec::new();
                    for (b, e, m) in &rug_triples {
                        // A non-negative exponent: pow_mod_ref cannot fail.
                        if let Some(p) = b.pow_mod_ref(e, m) {
                            r.assign(p);
                        }
                        black_box(&r);
                        if check {
                            out.push(from_rug(&r));
                        }
                    }
                    check.then(|| concat(&out))
                }),
                attempt(ONE_CT, move || {
                    let mut out = Vec::with_capacity(BATCH);
                    for (b, e, m) in triples {
                        let md = Modulus::new(m, ReducerKind::Auto).map_err(|e| e.to_string())?;
                        out.push(md.pow_ct(b, e).map_err(|e| e.to_string())?);
                    }
                    black_box(&out);
                    Ok(concat(&out))
                }),
                attempt(BATCHED_CT, move || {
                    let out = modred::exp::pow_batch_ct(triples)
                        .and_then(|v| v.into_iter().collect::<modred::Result<Vec<_>>>())
                        .map_err(|e| e.to_string())?;
                    black_box(&out);
                    Ok(concat(&out))
                }),
            ]
        };
        let cells = match measure_on_one_core(&ctx.proto, &t, &want, comps) {
            Ok(cells) => {
                let mut v: Vec<Cell> = cells.iter().map(|c| rate(c, BATCH)).collect();
                v.push(quotient(&v[1], &v[0]));
                v.push(quotient(&v[1], &v[3]));
                v.push(quotient(&v[5], &v[4]));
                v
            }
            Err(e) => vec![Cell::na(e); t.columns.len()],
        };
        t.rows.push(Row {
            label: bits.to_string(),
            x: Some(bits as f64),
            cells,
        });
    }
    t.note(format!("{BATCH} random triples per row: modulus odd with its top bit set, base below it, exponent of the modulus's length (top bit set); each cell is {BATCH} / the median time of one batch over the interleaved rounds, on a one-thread rayon pool (`ThreadPoolBuilder::new().num_threads(1)`, `install`), so per core. `{ONE}`: `Modulus::new(m)` then `pow_vartime` per triple; `{BATCHED}`: `modred::exp::pow_batch_vartime(&triples)` (on the IFMA tier eight moduli of the same size at a time in the AVX-512 IFMA lanes, else one by one); `{MANY}`: `Modulus::new(m)` once then `pow_many_vartime` of {BATCH} (base, exponent) pairs under the first modulus (another workload, checked against GMP on its own pairs); `{GMP_LOOP}`: `mpz_powm` per triple; `{ONE_CT}` and `{BATCHED_CT}`: the same in constant time (`Modulus::pow_ct` per triple; `modred::exp::pow_batch_ct`, eight moduli of one size in the lanes). Every batch is cross-checked against GMP before timing (a mismatch is WRONG and never timed). The ratio columns divide the rates."));
    t.note(format!("modred kernel tier: {}.", modred::cpu::tier()));
    t
}

/// A random prime of `bits` bits by GMP (`mpz_nextprime` of a random number with its top bit
/// set): never by modred, the code under test.
fn gmp_prime(rng: &mut Rng, bits: usize) -> Natural {
    from_rug(&to_rug(&rng.exact(bits)).next_prime())
}

fn truth(b: bool) -> Natural {
    Natural::from(u64::from(b))
}

/// [`PRIMES_PER_ROW`] GMP primes of `bits` bits, two of each kind (see there).
fn row_primes(rng: &mut Rng, bits: usize) -> Vec<Natural> {
    let (mut d5, mut other) = (Vec::new(), Vec::new());
    while d5.len() + other.len() < PRIMES_PER_ROW {
        let p = gmp_prime(rng, bits);
        let kind = if matches!(p.limbs()[0] % 5, 2 | 3) {
            &mut d5
        } else {
            &mut other
        };
        if kind.len() < PRIMES_PER_ROW / 2 {
            kind.push(p);
        }
    }
    d5.into_iter().chain(other).collect()
}

/// A time cell of a call over `n` items as the time per item.
fn per_item(c: Cell, n: usize) -> Cell {
    match c {
        Cell::Time {
            median_us,
            min_us,
            max_us,
            ratio,
            samples,
            iters,
        } => Cell::Time {
            median_us: median_us / n as f64,
            min_us: min_us / n as f64,
            max_us: max_us / n as f64,
            ratio,
            samples,
            iters,
        },
        other => other,
    }
}

fn is_prime_comps(ns: &[Natural]) -> Vec<Competitor<'_>> {
    let g: Vec<Integer> = ns.iter().map(to_rug).collect();
    let bn: Vec<_> = ns.iter().map(to_bn).collect();
    let ossl = match BigNumContext::new() {
        Ok(mut bctx) => attempt(OSSL, move || {
            let mut r = Vec::with_capacity(bn.len());
            for n in &bn {
                r.push(truth(black_box(
                    n.is_prime_fasttest(0, &mut bctx, true)
                        .map_err(|e| e.to_string())?,
                )));
            }
            Ok(concat(&r))
        }),
        Err(e) => Competitor::na(OSSL, short_reason(&e.to_string())),
    };
    vec![
        attempt(MODRED, move || {
            let mut r = Vec::with_capacity(ns.len());
            for n in ns {
                let p = modred::prime::is_probable_prime_vartime(n).map_err(|e| e.to_string())?;
                r.push(truth(black_box(p)));
            }
            Ok(concat(&r))
        }),
        Competitor::new(GMP, move |check| {
            let r: Vec<Natural> = g
                .iter()
                .map(|n| truth(black_box(n.is_probably_prime(GMP_REPS) != IsPrime::No)))
                .collect();
            check.then(|| concat(&r))
        }),
        ossl,
    ]
}

fn next_prime_comps<'a>(x: &'a Natural) -> Vec<Competitor<'a>> {
    let g = to_rug(x);
    let mut r = Integer::with_capacity(x.bits() + 64);
    vec![
        attempt(MODRED, move || {
            let p = modred::prime::next_prime_vartime(x).map_err(|e| e.to_string())?;
            Ok(black_box(p))
        }),
        Competitor::new(GMP, move |check| {
            r.assign(g.next_prime_ref());
            black_box(&r);
            check.then(|| from_rug(&r))
        }),
        Competitor::na(
            OSSL,
            "OpenSSL has no next-prime search (BN_generate_prime_ex draws random primes)",
        ),
    ]
}

fn prime_table(ctx: &mut Ctx, is_prime_sizes: &[usize], next_sizes: &[usize]) -> Table {
    let mut t = Table::new(
        "throughput-prime",
        "probable-prime test of a prime, and next prime: modred vs GMP and OpenSSL",
        "throughput",
        "µs per test or search (ratio columns: time / time)",
        "operation, bits",
    );
    t.columns = [MODRED, GMP, OSSL, "modred / GMP", "modred / OpenSSL"]
        .map(String::from)
        .to_vec();
    let rows = is_prime_sizes
        .iter()
        .map(|&b| (false, b))
        .chain(next_sizes.iter().map(|&b| (true, b)));
    for (next, bits) in rows {
        let op = if next { "next_prime" } else { "is_prime" };
        ctx.step(format!("throughput {op} {bits} bits"));
        let mut rng = Rng::new(0x7471_0000 + bits as u64 + if next { 1 << 20 } else { 0 });
        let (ns, want) = if next {
            let x = rng.exact(bits);
            let p = from_rug(&to_rug(&x).next_prime());
            (vec![x], p)
        } else {
            let ps = row_primes(&mut rng, bits);
            let gmp_says: Vec<Natural> = ps
                .iter()
                .map(|p| truth(to_rug(p).is_probably_prime(GMP_REPS) != IsPrime::No))
                .collect();
            (ps, concat(&gmp_says))
        };
        let ns = &ns;
        let comps = move || {
            if next {
                next_prime_comps(&ns[0])
            } else {
                is_prime_comps(ns)
            }
        };
        let cells = match measure_on_one_core(&ctx.proto, &t, &want, comps) {
            Ok(cells) => {
                let mut cells: Vec<Cell> =
                    cells.into_iter().map(|c| per_item(c, ns.len())).collect();
                let (by_gmp, by_ossl) = (
                    quotient(&cells[0], &cells[1]),
                    quotient(&cells[0], &cells[2]),
                );
                cells.push(by_gmp);
                cells.push(match &cells[2] {
                    Cell::NotAvailable { .. } => Cell::na("no OpenSSL time"),
                    _ => by_ossl,
                });
                cells
            }
            Err(e) => vec![Cell::na(e); t.columns.len()],
        };
        t.rows.push(Row {
            label: format!("{op} {bits}"),
            x: Some(bits as f64),
            cells,
        });
    }
    t.note(format!("is_prime: {PRIMES_PER_ROW} random primes of the row's size (GMP's `mpz_nextprime` of a random number with its top bit set, never modred's; two with Selfridge's D = 5, two with another D), the expensive case, tested one after the other in each call, the time divided by {PRIMES_PER_ROW}; every answer is checked against GMP's before timing. modred: `prime::is_probable_prime_vartime` (trial division, Baillie–PSW); GMP: `mpz_probab_prime_p(n, {GMP_REPS})` (trial division, Baillie–PSW, then {} Miller–Rabin round{}); OpenSSL ({}): `BN_is_prime_fasttest_ex(n, BN_prime_checks, ctx, trial division on)`, which in OpenSSL 3 runs at least 64 Miller–Rabin rounds (128 above 2048 bits) for its 2^-128 error bound, so it does many times the work of the Baillie–PSW tests.", GMP_REPS - 24, if GMP_REPS - 24 == 1 { "" } else { "s" }, openssl::version::version()));
    t.note("next_prime: the least prime above a random number with its top bit set (the same inputs every run, so the same gap); modred: `prime::next_prime_vartime` (sieved windows, Baillie–PSW); GMP: `mpz_nextprime` (checked equal). Both on a one-thread rayon pool, per call.");
    t.note(format!("modred kernel tier: {}.", modred::cpu::tier()));
    t
}

pub fn run(ctx: &mut Ctx) -> Vec<Table> {
    let pow_sizes = ctx.sizes(&POW_QUICK, &POW_FULL);
    let prime_sizes = ctx.sizes(&PRIME_QUICK, &PRIME_FULL);
    let next_sizes = ctx.sizes(&NEXT_QUICK, &NEXT_FULL);
    vec![
        pow_table(ctx, &pow_sizes),
        prime_table(ctx, &prime_sizes, &next_sizes),
    ]
}
