//! Seed 003's table: a loop of many 64-bit modular exponentiations run empty, with the `divq`
//! instruction and with single-word Montgomery multiplication (plus modred's Barrett-style
//! `barrett64`), through `modred::word::loops` (built behind the `pending` feature: the word
//! module is on another branch).
//!
//! Expected API: `modred::word::loops::{empty_loop, divq_loop, montgomery_loop, barrett_loop}
//! (n: usize, seed: u64) -> u64`, each running `n` exponentiations on inputs derived from
//! `seed` and returning a checksum of the results (the same for divq, Montgomery and Barrett).

use crate::report::harness::{measure_row, Competitor};
use crate::report::table::{Row, Table};
use crate::report::Ctx;
use modred::word::loops;
use modred::Natural;
use std::hint::black_box;

fn looped<'a>(label: &str, f: fn(usize, u64) -> u64, n: usize) -> Competitor<'a> {
    Competitor::new(label, move |check| {
        let r = black_box(f(black_box(n), black_box(0x5eed)));
        check.then(|| Natural::from(r))
    })
}

pub fn run(ctx: &mut Ctx) -> Vec<Table> {
    let n = if ctx.quick { 1_000 } else { 10_000 };
    ctx.step("seed003 word loops");
    let mut t = Table::new(
        "seed003-table",
        "many 64-bit modular exponentiations: empty loop, divq, Montgomery",
        "seed 003 table",
        "µs per loop",
        "loop",
    );
    t.columns = vec![
        "empty loop".into(),
        "divq".into(),
        "Montgomery".into(),
        "barrett64".into(),
    ];
    t.reference = Some("divq".into());
    // Oracle: the checksum of the divq loop (u128 / the div instruction), which Montgomery
    // and Barrett must reproduce; the empty loop only checks itself.
    let want = Natural::from(loops::divq_loop(n, 0x5eed));
    let empty = Natural::from(loops::empty_loop(n, 0x5eed));
    let mut comps = vec![
        looped("empty loop", loops::empty_loop, n).expecting(empty),
        looped("divq", loops::divq_loop, n),
        looped("Montgomery", loops::montgomery_loop, n),
        looped("barrett64", loops::barrett_loop, n),
    ];
    let cells = measure_row(&ctx.proto, &want, &mut comps, &t);
    t.rows.push(Row {
        label: format!("{n} exponentiations"),
        x: None,
        cells,
    });
    t.note("The seed (2014): empty loop 0.37 s, divq 38.02 s, Montgomery 6.19 s: Montgomery about 6x faster than divq. Ratios here are relative to divq.");
    vec![t]
}
