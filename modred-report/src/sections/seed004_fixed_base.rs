//! Fig. 7 / Table 1 of Prots'ko, Gryshchuk, *The implementation of Montgomery modular reduction to
//! speed up of modular exponentiation*, CMIS-2024: modular exponentiation at 1024 and 2048 bits by
//! the plain (binary) method, modred's default method, the fixed-base method with precomputed
//! residues A^(2^i) mod m on one and on all cores, and a comb table precomputed once for the base,
//! next to GMP `mpz_powm` and OpenSSL `BN_mod_exp_mont`.

use super::common::{gmp_powm, oracle_powm, ossl_mod_exp, short_reason};
use crate::data::Rng;
use crate::harness::{measure_row, Competitor};
use crate::table::{Row, Table};
use crate::Ctx;
use modred::exp::{Method, Modulus, PowOptions};
use modred::Natural;
use std::hint::black_box;

fn pow_competitor<'a>(
    label: &str,
    method: Method,
    threads: Option<usize>,
    b: &Natural,
    e: &Natural,
    m: &Natural,
) -> Competitor<'a> {
    let opts = PowOptions {
        method,
        reducer: modred::ReducerKind::Auto,
        window: None,
        threads,
    };
    if let Err(err) = modred::exp::pow_vartime(b, e, m, &opts) {
        return Competitor::na(label, short_reason(&err.to_string()));
    }
    let (b, e, m) = (b.clone(), e.clone(), m.clone());
    Competitor::new(label, move |check| {
        let r = modred::exp::pow_vartime(&b, &e, &m, &opts).expect("succeeded once");
        black_box(&r);
        check.then_some(r)
    })
}

/// `Modulus::fixed_base` (a Lim-Lee comb table for the base, owning its modulus context) built
/// once; only the per-exponent work is timed.
fn comb_precomputed<'a>(label: &str, b: &Natural, e: &Natural, m: &Natural) -> Competitor<'a> {
    let md = match Modulus::new(m, modred::ReducerKind::Auto) {
        Ok(md) => md,
        Err(err) => return Competitor::na(label, short_reason(&err.to_string())),
    };
    let fb = match md.fixed_base(b) {
        Ok(fb) => fb,
        Err(err) => return Competitor::na(label, short_reason(&err.to_string())),
    };
    let e = e.clone();
    Competitor::new(label, move |check| {
        let r = fb.pow_vartime(&e).expect("pow");
        black_box(&r);
        check.then_some(r)
    })
}

pub fn run(ctx: &mut Ctx) -> Vec<Table> {
    let threads = std::thread::available_parallelism()
        .map_or(2, |n| n.get())
        .max(2);
    let mut t = Table::new(
        "seed004-fig7",
        "modexp by plain, Montgomery, fixed-base and multithreaded methods",
        "Prots'ko–Gryshchuk 2024 Fig. 7 / Table 1",
        "µs per exponentiation",
        "bits",
    );
    let st = "modred fixed-base (1 thread)".to_string();
    let mt = format!("modred fixed-base ({threads} threads)");
    let comb = "modred comb, precomputed table".to_string();
    t.columns = vec![
        "modred binary".into(),
        "modred pow (auto)".into(),
        st.clone(),
        mt.clone(),
        comb.clone(),
        "GMP mpz_powm".into(),
        "OpenSSL BN_mod_exp_mont".into(),
    ];
    t.reference = Some("GMP mpz_powm".into());
    for bits in [1024usize, 2048] {
        ctx.step(format!("seed004 {bits} bits"));
        let mut rng = Rng::new(0x4004_0000 + bits as u64);
        let m = rng.odd_modulus(bits);
        let b = rng.below(&m);
        let e = rng.exact(bits);
        let want = oracle_powm(&b, &e, &m);
        let mut comps = vec![
            pow_competitor("modred binary", Method::Binary, None, &b, &e, &m),
            pow_competitor("modred pow (auto)", Method::Auto, None, &b, &e, &m),
            pow_competitor(&st, Method::FixedBase, Some(1), &b, &e, &m),
            pow_competitor(&mt, Method::FixedBase, Some(threads), &b, &e, &m).multithreaded(),
            comb_precomputed(&comb, &b, &e, &m),
            gmp_powm("GMP mpz_powm", &b, &e, &m, false),
            ossl_mod_exp("OpenSSL BN_mod_exp_mont", &b, &e, &m, false),
        ];
        let cells = measure_row(&ctx.proto, &want, &mut comps, &t);
        t.rows.push(Row {
            label: bits.to_string(),
            x: Some(bits as f64),
            cells,
        });
    }
    t.note("fixed-base = Prots'ko–Gryshchuk 2024's right-to-left method over precomputed residues A^(2^i) mod m with period detection (`Method::FixedBase`), its precomputation inside every call; the multithreaded column splits the exponent's bits over the machine's cores and is timed on the wall clock. comb = `Modulus::fixed_base(b)` built once, then `pow_vartime(e)` per exponent (the precomputed-base use case of Prots'ko–Gryshchuk 2024, by Lim-Lee's comb).");
    t.note("The paper (i9-10980XE, 12 threads): mpz_powm 301/2088 µs, precomputed Montgomery fixed-base 251/1223 µs (1024/2048 bits). Here the machine's own core count is used for the multithreaded column.");
    vec![t]
}
