//! The headline table: modred's default `pow` and constant-time `ct` against GMP `mpz_powm` /
//! `mpz_powm_sec` and OpenSSL `BN_mod_exp_mont` / `BN_mod_exp_mont_consttime`, full-length
//! random base and exponent, random odd modulus with its top bit set, 256-4096 bits, as ratios
//! to `mpz_powm`.
//! An extra column times the report's own m-ary loop over the `auto` reducer.

use super::common::{gmp_powm, oracle_powm, ossl_mod_exp};
use super::mary;
use crate::data::Rng;
use crate::harness::{measure_row, Competitor};
use crate::table::{PlotSpec, Row, Table};
use crate::Ctx;
use modred::Natural;

const POW: &str = "modred pow (auto)";
const CT: &str = "modred ct";
const INTERIM: &str = "m-ary16 over reducer auto";

fn exp_competitor<'a>(
    label: &str,
    method: modred::exp::Method,
    b: &Natural,
    e: &Natural,
    m: &Natural,
) -> Competitor<'a> {
    use std::hint::black_box;
    let opts = modred::exp::PowOptions {
        method,
        reducer: modred::ReducerKind::Auto,
        window: None,
        threads: None,
    };
    if let Err(err) = modred::exp::pow_vartime(b, e, m, &opts) {
        return Competitor::na(label, super::common::short_reason(&err.to_string()));
    }
    let (b, e, m) = (b.clone(), e.clone(), m.clone());
    Competitor::new(label, move |check| {
        let r = modred::exp::pow_vartime(&b, &e, &m, &opts).expect("succeeded once");
        black_box(&r);
        check.then_some(r)
    })
}

fn modred_columns<'a>(b: &Natural, e: &Natural, m: &Natural) -> [Competitor<'a>; 2] {
    [
        exp_competitor(POW, modred::exp::Method::Auto, b, e, m),
        exp_competitor(CT, modred::exp::Method::Ct, b, e, m),
    ]
}

pub fn run(ctx: &mut Ctx) -> Vec<Table> {
    let sizes = ctx.sizes(
        &[256, 1024, 2048, 4096],
        &[256, 512, 768, 1024, 1536, 2048, 3072, 4096],
    );
    let mut t = Table::new(
        "headline",
        "modular exponentiation: modred vs GMP and OpenSSL",
        "headline",
        "µs per exponentiation",
        "modulus bits",
    );
    t.columns = vec![
        POW.into(),
        CT.into(),
        INTERIM.into(),
        "GMP mpz_powm".into(),
        "GMP mpz_powm_sec".into(),
        "OpenSSL BN_mod_exp_mont".into(),
        "OpenSSL BN_mod_exp_mont_consttime".into(),
    ];
    t.reference = Some("GMP mpz_powm".into());
    for &bits in &sizes {
        ctx.step(format!("headline {bits} bits"));
        let mut rng = Rng::new(0x4ead_0000 + bits as u64);
        let m = rng.odd_modulus(bits);
        let b = rng.below(&m);
        let e = rng.exact(bits);
        let want = oracle_powm(&b, &e, &m);
        let mut comps: Vec<Competitor> = modred_columns(&b, &e, &m).into();
        comps.push(mary::competitor("auto", INTERIM, &b, &e, &m));
        comps.push(gmp_powm("GMP mpz_powm", &b, &e, &m, false));
        comps.push(gmp_powm("GMP mpz_powm_sec", &b, &e, &m, true));
        comps.push(ossl_mod_exp("OpenSSL BN_mod_exp_mont", &b, &e, &m, false));
        comps.push(ossl_mod_exp(
            "OpenSSL BN_mod_exp_mont_consttime",
            &b,
            &e,
            &m,
            true,
        ));
        let cells = measure_row(&ctx.proto, &want, &mut comps, &t);
        t.rows.push(Row {
            label: bits.to_string(),
            x: Some(bits as f64),
            cells,
        });
    }
    t.plot = Some(PlotSpec {
        file: "headline.svg".into(),
        x_label: "modulus bits".into(),
        y_label: "µs per exponentiation".into(),
        log_x: true,
    });
    t.note("Full-length random base and exponent, random odd modulus with its top bit set; every call includes the library's per-call setup (Montgomery context, conversions), as `mpz_powm` and `BN_mod_exp` do. OpenSSL's constant-time path is `BN_mod_exp` with BN_FLG_CONSTTIME on the exponent, which dispatches to `BN_mod_exp_mont_consttime`.");
    t.note(format!("`{INTERIM}`: the report's own m-ary (p = 16) loop (Bosselaers et al. 1993 §5) over the reducer `auto` picks (`montgomery-fast` for odd moduli), for comparison with `modred::exp`'s sliding window."));
    vec![t]
}
