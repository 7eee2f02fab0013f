//! Fig. 3 of Bosselaers, Govaerts, Vandewalle, *Comparison of three modular reduction functions*,
//! CRYPTO '93: exponentiation time vs the base's length (512-bit modulus and exponent): with
//! classical or Barrett reduction, short bases give short table entries and shorter products, so
//! small bases are faster; Montgomery works on full-length residues regardless.

use super::common::{gmp_powm, oracle_powm, ossl_mod_exp};
use super::mary;
use crate::data::Rng;
use crate::harness::measure_row;
use crate::table::{PlotSpec, Row, Table};
use crate::Ctx;

pub fn run(ctx: &mut Ctx) -> Vec<Table> {
    let bits = 512;
    let lengths: &[usize] = if ctx.quick {
        &[2, 64, 128, 256, 512]
    } else {
        &[2, 32, 64, 128, 192, 256, 384, 512]
    };
    let mut t = Table::new(
        "seed000-fig3",
        "m-ary (p = 16) exponentiation vs base length, 512-bit modulus and exponent",
        "Bosselaers et al. 1993 Fig. 3",
        "µs per exponentiation",
        "base bits",
    );
    t.columns = vec![
        "m-ary16 classical".into(),
        "m-ary16 barrett".into(),
        "m-ary16 montgomery-redc".into(),
        "m-ary16 classical, trimmed operands".into(),
        "GMP mpz_powm".into(),
        "OpenSSL BN_mod_exp_mont".into(),
    ];
    t.reference = Some("m-ary16 montgomery-redc".into());
    let mut rng = Rng::new(0xf163);
    let m = rng.odd_modulus(bits);
    let e = rng.exact(bits);
    for &len in lengths {
        ctx.step(format!("seed000-fig3 base {len} bits"));
        let b = rng.exact(len);
        let b = if len >= bits { &b % &m } else { b };
        let want = oracle_powm(&b, &e, &m);
        let mut comps = vec![
            mary::competitor("classical", "m-ary16 classical", &b, &e, &m),
            mary::competitor("barrett", "m-ary16 barrett", &b, &e, &m),
            mary::competitor("montgomery-redc", "m-ary16 montgomery-redc", &b, &e, &m),
            mary::classical_trimmed("m-ary16 classical, trimmed operands", &b, &e, &m),
            gmp_powm("GMP mpz_powm", &b, &e, &m, false),
            ossl_mod_exp("OpenSSL BN_mod_exp_mont", &b, &e, &m, false),
        ];
        let cells = measure_row(&ctx.proto, &want, &mut comps, &t);
        t.rows.push(Row {
            label: len.to_string(),
            x: Some(len as f64),
            cells,
        });
    }
    t.plot = Some(PlotSpec {
        file: "seed000-fig3.svg".into(),
        x_label: "base length (bits)".into(),
        y_label: "µs per exponentiation".into(),
        log_x: false,
    });
    t.note("The `Reducer` trait multiplies full k-limb values, so the first three columns cannot profit from a short base; the `trimmed operands` column runs the same loop with `arith::mul` on trimmed operands and `Classical::rem_into_vartime` on the product's own length, so that multiplications by short table entries are cheaper, as in the paper's C code.");
    vec![t]
}
