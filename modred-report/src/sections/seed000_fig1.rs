//! Fig. 1 of Bosselaers, Govaerts, Vandewalle, *Comparison of three modular reduction
//! functions*, CRYPTO '93: reduction time vs argument length for a 512-bit modulus (classical
//! and Barrett grow with the length, Montgomery is flat).

use super::common::{oracle_mod, seed000_reduction_competitors, SEED000_REDUCTION_COLUMNS};
use crate::data::Rng;
use crate::harness::measure_row;
use crate::table::{PlotSpec, Row, Table};
use crate::Ctx;

pub fn run(ctx: &mut Ctx) -> Vec<Table> {
    let bits = 512;
    let step = if ctx.quick { 128 } else { 32 };
    let mut t = Table::new(
        "seed000-fig1",
        "reduction time vs argument length, 512-bit modulus",
        "Bosselaers et al. 1993 Fig. 1",
        "µs per reduction",
        "argument bits",
    );
    t.columns = SEED000_REDUCTION_COLUMNS.map(String::from).to_vec();
    t.reference = Some("montgomery-redc".into());
    let mut rng = Rng::new(0xf161);
    let m = rng.odd_modulus(bits);
    let full = &rng.below(&m) * &rng.below(&m);
    for len in (step..=2 * bits).step_by(step) {
        ctx.step(format!("seed000-fig1 {len} bits"));
        // The top `len` bits of a product of two residues: below m R for every length.
        let x = &full >> (full.bits().saturating_sub(len));
        let want = oracle_mod(&x, &m);
        let mut comps = seed000_reduction_competitors(&m, &x);
        let cells = measure_row(&ctx.proto, &want, &mut comps, &t);
        t.rows.push(Row {
            label: len.to_string(),
            x: Some(len as f64),
            cells,
        });
    }
    t.plot = Some(PlotSpec {
        file: "seed000-fig1.svg".into(),
        x_label: "argument length (bits)".into(),
        y_label: "µs per reduction".into(),
        log_x: false,
    });
    t.note("Modulus: random odd 512-bit (k = 8 limbs). Argument of length L: the top L bits of a product of two residues.");
    t.note("classical gets the argument at its own length (its `reduce_wide` accepts any length, so Algorithm D runs L/64 - k steps); barrett and montgomery-redc get it zero-padded to 2k limbs as the `Reducer` trait specifies, so their time does not depend on L here (modred's Barrett has no short-argument shortcut).");
    vec![t]
}
