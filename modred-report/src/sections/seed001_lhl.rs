//! Lim, Hwang, Lee, *Fast Modular Reduction With Precomputation*, JW-ISC '97, Tables 2-5
//! (reduction of a 2k-limb argument per method at 512, 768, 1024 and 2048
//! bits) and Tables 6-9 (exponentiation per method, precomputation included), with the
//! paper's columns Montgo, Class, Barret, Table, L1, L2, L224/L624/L1696.
//!
//! The precomputation reducers are discovered at run time in `modred::reduce::REDUCERS`
//! (`table-residue`, `lhl-l1`, `lhl-l2`, every `table-add-*`); the cells of missing methods say
//! n/a. The window exponentiation built only from the table methods
//! (`modred::exp::table_window::pow_window_vartime`) adds a column per table method.

use super::common::{
    build, gmp_mod, gmp_powm, oracle_mod, oracle_powm, ossl_mod_exp, ossl_nnmod, reducer_reduce,
};
use super::mary::{pow16, MaryBuffers};
use crate::data::Rng;
use crate::harness::{measure_row, Competitor};
use crate::table::{Row, Table};
use crate::Ctx;
use modred::reduce::REDUCERS;
use modred::{Limb, Natural};
use std::hint::black_box;

/// (seed column, modred reducer name or None when not on this build).
fn methods() -> Vec<(String, Option<String>)> {
    let has = |n: &str| REDUCERS.iter().any(|r| r.name == n).then(|| n.to_string());
    let mut v = vec![
        ("Montgo".to_string(), has("montgomery-redc")),
        ("Class".into(), has("classical")),
        ("Barret".into(), has("barrett")),
        ("Table".into(), has("table-residue")),
        ("L1".into(), has("lhl-l1")),
        ("L2".into(), has("lhl-l2")),
    ];
    let adds: Vec<&str> = REDUCERS
        .iter()
        .map(|r| r.name)
        .filter(|n| n.starts_with("table-add"))
        .collect();
    if adds.is_empty() {
        v.push(("L224/L624/L1696 (table-add-*)".into(), None));
    } else {
        v.extend(adds.iter().map(|n| (n.to_string(), Some(n.to_string()))));
    }
    v
}

fn column(seed: &str, name: &Option<String>) -> String {
    match name {
        Some(n) if n == seed => n.clone(),
        Some(n) => format!("{seed} ({n})"),
        None => seed.to_string(),
    }
}

const MISSING: &str = "reducer not in modred::reduce::REDUCERS on this build";

/// m-ary (p = 16) exponentiation with reducer `name`, the context built inside every call so
/// the precomputation is timed (as in Lim–Hwang–Lee 1997 Tables 6-9).
fn exp_with_setup<'a>(
    name: &str,
    label: &str,
    b: &Natural,
    e: &Natural,
    m: &Natural,
) -> Competitor<'a> {
    if let Err(e) = build(name, m) {
        return Competitor::na(label, e);
    }
    let name = name.to_string();
    let (m, e) = (m.clone(), e.limbs().to_vec());
    let k = m.len();
    let base = (b % &m).to_padded(k).expect("below m");
    let mut out: Vec<Limb> = vec![0; k];
    Competitor::new(label, move |check| {
        let r = build(&name, &m).expect("built once before");
        let mut buf = MaryBuffers::new(&*r);
        pow16(&*r, &mut out, &base, &e, &mut buf);
        black_box(&out);
        check.then(|| Natural::from_slice(&out))
    })
}

fn window_competitor<'a>(
    name: &str,
    label: &str,
    b: &Natural,
    e: &Natural,
    m: &Natural,
) -> Competitor<'a> {
    use modred::exp::table_window::{pow_window_vartime, WindowMethod};
    let (b, e, m) = (b.clone(), e.clone(), m.clone());
    let checked = name
        .parse::<WindowMethod>()
        .and_then(|method| pow_window_vartime(method, &b, &Natural::one(), &m, 4).map(|_| method));
    let method = match checked {
        Ok(method) => method,
        Err(err) => return Competitor::na(label, super::common::short_reason(&err.to_string())),
    };
    Competitor::new(label, move |check| {
        let r = pow_window_vartime(method, &b, &e, &m, 4).expect("checked above");
        black_box(&r);
        check.then_some(r)
    })
}

pub fn run(ctx: &mut Ctx) -> Vec<Table> {
    let sizes = ctx.sizes(&[512, 1024, 2048], &[512, 768, 1024, 2048]);
    let methods = methods();
    let mut red = Table::new(
        "seed001-tables2-5",
        "modular reduction of a 2k-limb argument per method",
        "Lim–Hwang–Lee 1997 Tables 2-5",
        "µs per reduction",
        "|n| bits",
    );
    red.columns = methods
        .iter()
        .map(|(s, n)| column(s, n))
        .chain(["GMP mpz_mod".to_string(), "OpenSSL BN_nnmod".into()])
        .collect();
    red.reference = Some(column("Montgo", &methods[0].1));
    let mut exp = Table::new(
        "seed001-tables6-9",
        "modular exponentiation per method (precomputation included)",
        "Lim–Hwang–Lee 1997 Tables 6-9",
        "µs per exponentiation",
        "|n| bits",
    );
    exp.columns = methods
        .iter()
        .map(|(s, n)| format!("m-ary16 {}", column(s, n)))
        .collect();
    let window_methods: Vec<String> = methods
        .iter()
        .filter_map(|(_, n)| n.clone())
        .filter(|n| n.starts_with("table-") || n.starts_with("lhl-"))
        .collect();
    exp.columns
        .extend(window_methods.iter().map(|n| format!("table_window {n}")));
    exp.columns
        .extend(["GMP mpz_powm".to_string(), "OpenSSL BN_mod_exp_mont".into()]);
    exp.reference = Some(exp.columns[0].clone());
    for &bits in &sizes {
        ctx.step(format!("seed001 tables 2-9, {bits} bits"));
        let mut rng = Rng::new(0x1002_0000 + bits as u64);
        let m = rng.odd_modulus(bits);
        let x = &rng.below(&m) * &rng.below(&m);
        let want = oracle_mod(&x, &m);
        let mut comps: Vec<Competitor> = methods
            .iter()
            .map(|(s, n)| match n {
                Some(n) => reducer_reduce(n, &column(s, &Some(n.clone())), &m, &x, false),
                None => Competitor::na(column(s, n), MISSING),
            })
            .collect();
        comps.push(gmp_mod("GMP mpz_mod", &x, &m));
        comps.push(ossl_nnmod("OpenSSL BN_nnmod", &x, &m));
        let cells = measure_row(&ctx.proto, &want, &mut comps, &red);
        red.rows.push(Row {
            label: bits.to_string(),
            x: Some(bits as f64),
            cells,
        });

        let b = rng.below(&m);
        let e = rng.exact(bits);
        let want = oracle_powm(&b, &e, &m);
        let mut comps: Vec<Competitor> = methods
            .iter()
            .map(|(s, n)| {
                let label = format!("m-ary16 {}", column(s, n));
                match n {
                    Some(n) => exp_with_setup(n, &label, &b, &e, &m),
                    None => Competitor::na(label, MISSING),
                }
            })
            .collect();
        comps.extend(
            window_methods
                .iter()
                .map(|n| window_competitor(n, &format!("table_window {n}"), &b, &e, &m)),
        );
        comps.push(gmp_powm("GMP mpz_powm", &b, &e, &m, false));
        comps.push(ossl_mod_exp("OpenSSL BN_mod_exp_mont", &b, &e, &m, false));
        let cells = measure_row(&ctx.proto, &want, &mut comps, &exp);
        exp.rows.push(Row {
            label: bits.to_string(),
            x: Some(bits as f64),
            cells,
        });
    }
    red.note("The paper's rows are machines (SPARC, Pentium, C/assembly); here one machine, so rows are the modulus sizes of its Tables 2 (512), 3 (768), 4 (1024) and 5 (2048 bits). Argument: product of two residues; timed through `Reducer::reduce_wide` (precomputation excluded, as in the paper).");
    red.note("Columns are discovered in `modred::reduce::REDUCERS` at run time: Table = table-residue (Tanaka-Okamoto), L1/L2 = lhl-l1/lhl-l2, L224/L624/L1696 = every table-add-* shape.");
    exp.note("m-ary16 = the report's m-ary loop (p = 16, as the paper's window method) over each reducer, with the reducer's precomputation inside every timed call (the paper's Tables 6-9 include it).");
    vec![red, exp]
}
