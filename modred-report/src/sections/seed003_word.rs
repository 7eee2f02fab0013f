//! The table of Bloemen, *Montgomery multiplication*, 2014: a loop of many 64-bit modular
//! exponentiations run empty, with the `divq` instruction and with single-word Montgomery
//! multiplication (plus the u128 remainder, the article's own `mul_monty`, and modred's
//! `barrett64`), through `crate::word_loops`.
//!
//! API used: `crate::word_loops::{cases, empty_loop, divq_loop, divq_u128_loop,
//! montgomery_seed_loop, montgomery_loop, barrett_loop}`; each loop runs `n` cases drawn from
//! `seed` and returns the wrapping sum of (R^2 mod m) ^ (R^-1 mod m) (the common Montgomery
//! conversion work) plus, except for the empty loop, b^e mod m.

use crate::data::from_rug;
use crate::harness::{measure_row, Competitor};
use crate::table::{Row, Table};
use crate::word_loops as loops;
use crate::Ctx;
use modred::Natural;
use rug::Integer;
use std::hint::black_box;

const SEED: u64 = 0x5eed;

fn looped<'a>(label: &str, f: fn(usize, u64) -> u64, n: usize) -> Competitor<'a> {
    Competitor::new(label, move |check| {
        let r = black_box(f(black_box(n), black_box(SEED)));
        check.then(|| Natural::from(r))
    })
}

/// The loops' checksums computed independently with GMP on the same cases:
/// (empty loop, every other loop).
fn oracle(n: usize) -> (Natural, Natural) {
    let r: Integer = Integer::from(1) << 64u32;
    let (mut empty, mut full) = (0u64, 0u64);
    for c in loops::cases(n, SEED) {
        let m = Integer::from(c.m);
        let r2 = Integer::from(&r * &r).modulo(&m);
        let rinv = r.clone().invert(&m).expect("odd modulus");
        let fold = r2.to_u64().unwrap() ^ rinv.to_u64().unwrap();
        let p = Integer::from(c.b)
            .pow_mod(&Integer::from(c.e), &m)
            .expect("non-negative exponent");
        empty = empty.wrapping_add(fold);
        full = full
            .wrapping_add(fold)
            .wrapping_add(from_rug(&p).limbs().first().copied().unwrap_or(0));
    }
    (Natural::from(empty), Natural::from(full))
}

pub fn run(ctx: &mut Ctx) -> Vec<Table> {
    let n = if ctx.quick { 1_000 } else { 10_000 };
    ctx.step("seed003 word loops");
    let mut t = Table::new(
        "seed003-table",
        "many 64-bit modular exponentiations: empty loop, divq, Montgomery",
        "Bloemen 2014 table",
        "µs per loop",
        "loop",
    );
    t.columns = vec![
        "empty loop".into(),
        "divq".into(),
        "divq (u128 %)".into(),
        "Montgomery (Bloemen's mul_monty)".into(),
        "Montgomery".into(),
        "barrett64".into(),
    ];
    t.reference = Some("divq".into());
    let (empty, want) = oracle(n);
    let mut comps = vec![
        looped("empty loop", loops::empty_loop, n).expecting(empty),
        looped("divq", loops::divq_loop, n),
        looped("divq (u128 %)", loops::divq_u128_loop, n),
        looped(
            "Montgomery (Bloemen's mul_monty)",
            loops::montgomery_seed_loop,
            n,
        ),
        looped("Montgomery", loops::montgomery_loop, n),
        looped("barrett64", loops::barrett_loop, n),
    ];
    let cells = measure_row(&ctx.proto, &want, &mut comps, &t);
    t.rows.push(Row {
        label: format!("{n} exponentiations"),
        x: None,
        cells,
    });
    t.note("Cases: odd 64-bit moduli with the top bit set, 64-bit bases and exponents (`loops::cases`); every loop also builds the Montgomery context, as the article's loops do. Checksums are checked against GMP on the same cases.");
    t.note("The article (Bloemen 2014): empty loop 0.37 s, divq 38.02 s, Montgomery 6.19 s: Montgomery about 6x faster than divq. Ratios here are relative to divq.");
    vec![t]
}
