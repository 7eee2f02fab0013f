//! Fig. 2 of Bosselaers, Govaerts, Vandewalle, *Comparison of three modular reduction
//! functions*, CRYPTO '93: special arguments. For the classical algorithm and Barrett,
//! x = g m b^(k-n) + h (0 < g < b^n, 0 <= h < m) has a quotient with k - n zero digits, so only
//! n steps of Algorithm D are non-void. For Montgomery, x = h b^k + (b^k - sum_{i<n} t_i m b^i
//! mod b^k) makes the low k digits vanish after n steps (all later t_i are zero).

use super::common::{
    oracle_mod, reducer_reduce, seed000_reduction_competitors, SEED000_REDUCTION_COLUMNS,
};
use crate::data::Rng;
use crate::harness::measure_row;
use crate::table::{PlotSpec, Row, Table};
use crate::Ctx;
use modred::Natural;

/// The Montgomery-special argument for `n` steps (see the module docs).
fn montgomery_special(rng: &mut Rng, m: &Natural, k: usize, n: usize) -> Natural {
    let bk = Natural::power_of_two(64 * k);
    let mut s = Natural::zero();
    for i in 0..n {
        let t = Natural::from(rng.next_u64() | 1);
        s = &s + &(&(&t * m) << (64 * i));
    }
    let low = (&bk
        .checked_sub_vartime(&(&s % &bk))
        .expect("s mod b^k < b^k"))
        % &bk;
    let h = rng.below(m);
    &(&h << (64 * k)) + &low
}

pub fn run(ctx: &mut Ctx) -> Vec<Table> {
    let bits = 512;
    let k = bits / 64;
    let mut t = Table::new(
        "seed000-fig2",
        "special arguments: time vs number of non-void steps n",
        "Bosselaers et al. 1993 Fig. 2",
        "µs per reduction",
        "steps n",
    );
    t.columns = SEED000_REDUCTION_COLUMNS.map(String::from).to_vec();
    t.columns
        .push("montgomery-redc (Montgomery-special x)".into());
    t.reference = Some("montgomery-redc".into());
    let mut rng = Rng::new(0xf162);
    let m = rng.odd_modulus(bits);
    for n in 1..=k {
        ctx.step(format!("seed000-fig2 n = {n}"));
        let g = Natural::from_limbs(rng.limbs(64 * n));
        let g = if g.is_zero() { Natural::one() } else { g };
        let h = rng.below(&m);
        let x = &(&(&g * &m) << (64 * (k - n))) + &h;
        let want = oracle_mod(&x, &m);
        let xm = montgomery_special(&mut rng, &m, k, n);
        let want_m = oracle_mod(&xm, &m);
        let mut comps = seed000_reduction_competitors(&m, &x);
        comps.push(
            reducer_reduce(
                "montgomery-redc",
                "montgomery-redc (Montgomery-special x)",
                &m,
                &xm,
                false,
            )
            .expecting(want_m),
        );
        let cells = measure_row(&ctx.proto, &want, &mut comps, &t);
        t.rows.push(Row {
            label: n.to_string(),
            x: Some(n as f64),
            cells,
        });
    }
    t.plot = Some(PlotSpec {
        file: "seed000-fig2.svg".into(),
        x_label: "steps n".into(),
        y_label: "µs per reduction".into(),
        log_x: false,
    });
    t.note("512-bit modulus, k = 8 limbs of 64 bits (the paper: k = 32 digits of 16 bits), so n = 1..8. Columns 1-5 reduce x = g m b^(k-n) + h; the last column reduces the Montgomery-special argument of the same n.");
    t.note("modred's reductions are not data-dependent shortcuts: Algorithm D still runs its k steps (with zero quotient digits) and REDC is constant time, so flat lines here are the expected finding, unlike the paper's 1993 C code.");
    vec![t]
}
