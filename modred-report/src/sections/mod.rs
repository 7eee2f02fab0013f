//! The section registry: one file per table or figure of the source papers (listed in the
//! References of `modred`'s crate docs). Each section returns its tables; `--only` selects
//! sections by id prefix (the ids keep the papers' numbers: `seed000` is Bosselaers et al.
//! 1993, `seed001` Lim–Hwang–Lee 1997, `seed002` Koç–Acar–Kaliski 1996, `seed003` Bloemen
//! 2014, `seed004` Prots'ko–Gryshchuk 2024).

pub mod common;
pub mod mary;

mod headline;
mod rsa;
mod scaling;
mod seed000_fig1;
mod seed000_fig2;
mod seed000_fig3;
mod seed000_table2;
mod seed000_table3;
mod seed001_lhl;
mod seed001_table1;
mod seed002_table3;
mod seed003_word;
mod seed004_fixed_base;
mod throughput;

use super::table::Table;
use super::Ctx;

/// One section of the report.
pub struct Section {
    pub id: &'static str,
    pub title: &'static str,
    pub run: fn(&mut Ctx) -> Vec<Table>,
    /// Depends on the kernel tier: runs again at each child tier of `--tiers`
    /// ([`crate::tiers`]).
    pub tiers: bool,
}

/// Every section, in report order.
pub fn all() -> Vec<Section> {
    let mut v = vec![
        Section {
            id: "headline",
            title: "default pow / ct vs GMP and OpenSSL, 256-4096 bits",
            run: headline::run,
            tiers: false,
        },
        Section {
            id: "seed000-table1",
            title: "Bosselaers et al. 1993: operation counts of the reductions vs the formulas",
            run: super::count::run_seed000,
            tiers: false,
        },
        Section {
            id: "seed000-table2",
            title: "Bosselaers et al. 1993: reduction of a 2k-limb argument, and multiplication",
            run: seed000_table2::run,
            tiers: false,
        },
        Section {
            id: "seed000-fig1",
            title: "Bosselaers et al. 1993: reduction time vs argument length, 512-bit modulus",
            run: seed000_fig1::run,
            tiers: false,
        },
        Section {
            id: "seed000-fig2",
            title: "Bosselaers et al. 1993: special arguments x = g m b^(k-n) + h",
            run: seed000_fig2::run,
            tiers: false,
        },
        Section {
            id: "seed000-table3",
            title: "Bosselaers et al. 1993: m-ary (p = 16) exponentiation per reduction",
            run: seed000_table3::run,
            tiers: false,
        },
        Section {
            id: "seed000-fig3",
            title: "Bosselaers et al. 1993: exponentiation time vs base length, 512 bits",
            run: seed000_fig3::run,
            tiers: false,
        },
        Section {
            id: "seed001-table1",
            title: "Lim–Hwang–Lee 1997: multiplication and squaring, schoolbook vs Karatsuba",
            run: seed001_table1::run,
            tiers: false,
        },
        Section {
            id: "seed001-tables2-9",
            title: "Lim–Hwang–Lee 1997: reduction and exponentiation per method incl. LHL precomputation",
            run: seed001_lhl::run,
            tiers: false,
        },
        Section {
            id: "seed002-table1",
            title: "Koç–Acar–Kaliski 1996: operation counts of the five Montgomery products",
            run: super::count::run_seed002,
            tiers: false,
        },
        Section {
            id: "seed002-table3",
            title: "Koç–Acar–Kaliski 1996: timing of the five Montgomery products",
            run: seed002_table3::run,
            tiers: false,
        },
        Section {
            id: "scaling",
            title: "mul, 2k-limb reduction and 256-bit-exponent pow vs GMP, 4096 bits to 2^20",
            run: scaling::run,
            tiers: true,
        },
    ];
    v.push(Section {
        id: "seed003",
        title: "Bloemen 2014: single-word loop: empty, divq, Montgomery",
        run: seed003_word::run,
        tiers: false,
    });
    v.push(Section {
        id: "seed004",
        title: "Prots'ko–Gryshchuk 2024: fixed-base and multithreaded modexp, 1024/2048 bits",
        run: seed004_fixed_base::run,
        tiers: false,
    });
    v.push(Section {
        id: "throughput",
        title: "exponentiations per second on one core (one by one, batch, GMP) and prime tests",
        run: throughput::run,
        tiers: true,
    });
    v.push(Section {
        id: "rsa",
        title: "RSA-2048/3072/4096 private and public operation vs OpenSSL",
        run: rsa::run,
        tiers: false,
    });
    v
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
