//! The section registry: one file per seed table or figure. Each section returns its tables;
//! `--only` selects sections by id prefix.
//!
//! Sections that need APIs from other branches (`modred::exp`, `modred::word`,
//! `modred::table_window`) are behind the `pending` cargo feature of modred-cli: either whole
//! files (`seed003_word.rs`, `seed004_fixed_base.rs`) or extra columns inside a compiled
//! section (`headline.rs`, `seed001_lhl.rs`), whose cells otherwise say n/a with the reason.

pub mod common;
pub mod mary;

mod headline;
mod scaling;
mod seed000_fig1;
mod seed000_fig2;
mod seed000_fig3;
mod seed000_table2;
mod seed000_table3;
mod seed001_lhl;
mod seed001_table1;
mod seed002_table3;
#[cfg(feature = "pending")]
mod seed003_word;
#[cfg(feature = "pending")]
mod seed004_fixed_base;

use super::table::Table;
use super::Ctx;

/// One section of the report.
pub struct Section {
    pub id: &'static str,
    pub title: &'static str,
    pub run: fn(&mut Ctx) -> Vec<Table>,
}

/// Every section, in report order.
pub fn all() -> Vec<Section> {
    let mut v = vec![
        Section {
            id: "headline",
            title: "default pow / ct vs GMP and OpenSSL, 256-4096 bits",
            run: headline::run,
        },
        Section {
            id: "seed000-table1",
            title: "operation counts of the reductions vs the formulas",
            run: super::count::run_seed000,
        },
        Section {
            id: "seed000-table2",
            title: "reduction of a 2k-limb argument, and multiplication",
            run: seed000_table2::run,
        },
        Section {
            id: "seed000-fig1",
            title: "reduction time vs argument length, 512-bit modulus",
            run: seed000_fig1::run,
        },
        Section {
            id: "seed000-fig2",
            title: "special arguments x = g m b^(k-n) + h",
            run: seed000_fig2::run,
        },
        Section {
            id: "seed000-table3",
            title: "m-ary (p = 16) exponentiation per reduction",
            run: seed000_table3::run,
        },
        Section {
            id: "seed000-fig3",
            title: "exponentiation time vs base length, 512 bits",
            run: seed000_fig3::run,
        },
        Section {
            id: "seed001-table1",
            title: "multiplication and squaring, schoolbook vs Karatsuba",
            run: seed001_table1::run,
        },
        Section {
            id: "seed001-tables2-9",
            title: "reduction and exponentiation per method incl. LHL precomputation",
            run: seed001_lhl::run,
        },
        Section {
            id: "seed002-table1",
            title: "operation counts of the five Montgomery products",
            run: super::count::run_seed002,
        },
        Section {
            id: "seed002-table3",
            title: "timing of the five Montgomery products",
            run: seed002_table3::run,
        },
        Section {
            id: "scaling",
            title: "mul, 2k-limb reduction and 256-bit-exponent pow vs GMP, 4096 bits to 2^20",
            run: scaling::run,
        },
    ];
    #[cfg(feature = "pending")]
    {
        v.push(Section {
            id: "seed003",
            title: "single-word loop: empty, divq, Montgomery",
            run: seed003_word::run,
        });
        v.push(Section {
            id: "seed004",
            title: "fixed-base and multithreaded modexp, 1024/2048 bits",
            run: seed004_fixed_base::run,
        });
    }
    #[cfg(not(feature = "pending"))]
    {
        v.push(Section {
            id: "seed003",
            title: "single-word loop (pending: modred::word)",
            run: pending_seed003,
        });
        v.push(Section {
            id: "seed004",
            title: "fixed-base modexp (pending: modred::exp)",
            run: pending_seed004,
        });
    }
    v
}

#[cfg(not(feature = "pending"))]
fn pending_table(id: &str, seed: &str, title: &str, columns: &[&str], api: &str) -> Table {
    let mut t = Table::new(id, title, seed, "µs", "row");
    t.columns = columns.iter().map(|c| c.to_string()).collect();
    let reason = format!("{api} not on this build (enable feature `pending` after merge)");
    t.rows.push(super::table::Row {
        label: "all".into(),
        x: None,
        cells: columns
            .iter()
            .map(|_| super::table::Cell::na(&reason))
            .collect(),
    });
    t.note(format!(
        "Pending: implemented in sections/{}.rs behind the `pending` feature of modred-cli.",
        if id.starts_with("seed003") {
            "seed003_word"
        } else {
            "seed004_fixed_base"
        }
    ));
    t
}

#[cfg(not(feature = "pending"))]
fn pending_seed003(_: &mut Ctx) -> Vec<Table> {
    vec![pending_table(
        "seed003-table",
        "seed 003 table",
        "many 64-bit modular exponentiations: empty loop, divq, Montgomery",
        &["empty loop", "divq", "Montgomery", "barrett64"],
        "modred::word::loops",
    )]
}

#[cfg(not(feature = "pending"))]
fn pending_seed004(_: &mut Ctx) -> Vec<Table> {
    vec![pending_table(
        "seed004-fig7",
        "seed 004 Fig. 7 / Table 1",
        "modexp by plain, Montgomery, fixed-base and multithreaded methods",
        &[
            "modred binary",
            "modred fixed-base (1 thread)",
            "modred fixed-base (2 threads)",
            "GMP mpz_powm",
            "OpenSSL BN_mod_exp_mont",
        ],
        "modred::exp",
    )]
}

/// The sections selected by `--only` prefixes (all when empty).
pub fn select(only: &[String]) -> Result<Vec<Section>, String> {
    let all = all();
    if only.is_empty() {
        return Ok(all);
    }
    for o in only {
        if !all.iter().any(|s| s.id.starts_with(o.as_str())) {
            return Err(format!(
                "--only {o}: no such section; known: {}",
                all.iter().map(|s| s.id).collect::<Vec<_>>().join(", ")
            ));
        }
    }
    Ok(all
        .into_iter()
        .filter(|s| only.iter().any(|o| s.id.starts_with(o.as_str())))
        .collect())
}
