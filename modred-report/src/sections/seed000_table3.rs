//! Table 3 of Bosselaers, Govaerts, Vandewalle, *Comparison of three modular reduction
//! functions*, CRYPTO '93: full-length m-ary (p = 16) modular exponentiation with each reduction
//! (the report's own loop over the `Reducer` trait, see `mary.rs`), next to GMP `mpz_powm` and
//! OpenSSL `BN_mod_exp_mont`.

use super::common::{gmp_powm, oracle_powm, ossl_mod_exp};
use super::mary;
use crate::data::Rng;
use crate::harness::measure_row;
use crate::table::{Row, Table};
use crate::Ctx;

const REDUCERS: [&str; 4] = ["classical", "barrett", "montgomery-redc", "montgomery-cios"];

pub fn run(ctx: &mut Ctx) -> Vec<Table> {
    let sizes = ctx.sizes(
        &[128, 256, 512, 1024],
        &[128, 256, 512, 768, 1024, 2048, 4096],
    );
    let mut t = Table::new(
        "seed000-table3",
        "m-ary (p = 16) exponentiation per reduction, full-length base and exponent",
        "Bosselaers et al. 1993 Table 3",
        "µs per exponentiation",
        "modulus bits",
    );
    t.columns = REDUCERS
        .iter()
        .map(|r| format!("m-ary16 {r}"))
        .chain(["GMP mpz_powm".to_string(), "OpenSSL BN_mod_exp_mont".into()])
        .collect();
    t.reference = Some("GMP mpz_powm".into());
    for &bits in &sizes {
        ctx.step(format!("seed000-table3 {bits} bits"));
        let mut rng = Rng::new(0x0003_0000 + bits as u64);
        let m = rng.odd_modulus(bits);
        let b = rng.below(&m);
        let e = rng.exact(bits);
        let want = oracle_powm(&b, &e, &m);
        let mut comps: Vec<_> = REDUCERS
            .iter()
            .map(|&r| mary::competitor(r, &format!("m-ary16 {r}"), &b, &e, &m))
            .collect();
        comps.push(gmp_powm("GMP mpz_powm", &b, &e, &m, false));
        comps.push(ossl_mod_exp("OpenSSL BN_mod_exp_mont", &b, &e, &m, false));
        let cells = measure_row(&ctx.proto, &want, &mut comps, &t);
        t.rows.push(Row {
            label: bits.to_string(),
            x: Some(bits as f64),
            cells,
        });
    }
    t.note("m-ary16 = the report's own left-to-right m-ary loop with p = 16 (Bosselaers et al. 1993 §5: table a^0..a^15, 4 squarings and 1 multiplication per 4-bit digit, zero digits skipped) over each `Reducer`; it is a measurement driver, not modred's `pow` (see the headline table for that). Times include the table precomputation and the conversions in and out of Montgomery form.");
    t.note("The paper reports seconds on a 33 MHz 80386; here microseconds.");
    vec![t]
}
