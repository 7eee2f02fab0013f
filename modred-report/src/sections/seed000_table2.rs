//! Table 2 of Bosselaers, Govaerts, Vandewalle, *Comparison of three modular reduction
//! functions*, CRYPTO '93: time to reduce a 2k-limb argument (the product of two residues) by the
//! classical, Barrett and Montgomery reductions, next to the k x k multiplication, at 128-1024
//! bits and beyond; plus GMP `mpz_mod`/`mpz_mul` and OpenSSL `BN_nnmod`.

use super::common::{gmp_mod, gmp_mul, oracle_mod, ossl_nnmod, reducer_reduce};
use crate::data::{limbs_for, Rng};
use crate::harness::{measure_row, Competitor};
use crate::table::{PlotSpec, Row, Table};
use crate::Ctx;
use modred::arith;
use modred::{Limb, Natural};
use std::hint::black_box;

const REDUCERS: [&str; 3] = ["classical", "barrett", "montgomery-redc"];

/// modred's k x k product (`arith::mul_karatsuba`: schoolbook below the Karatsuba threshold).
fn modred_mul<'a>(a: &Natural, b: &Natural, k: usize) -> Competitor<'a> {
    let pad = |x: &Natural| x.to_padded(k).expect("operands of k limbs");
    let (a, b) = (pad(a), pad(b));
    let mut r: Vec<Limb> = vec![0; 2 * k];
    let mut scratch: Vec<Limb> = vec![0; arith::karatsuba_scratch_len(k)];
    Competitor::new("modred multiplication", move |check| {
        arith::mul_karatsuba(&mut r, &a, &b, &mut scratch);
        black_box(&r);
        check.then(|| Natural::from_slice(&r))
    })
}

pub fn run(ctx: &mut Ctx) -> Vec<Table> {
    let sizes = ctx.sizes(
        &[128, 256, 512, 1024, 2048],
        &[128, 256, 512, 768, 1024, 1536, 2048, 3072, 4096, 8192],
    );
    let mut t = Table::new(
        "seed000-table2",
        "reduction of a 2k-limb argument, and the multiplication",
        "Bosselaers et al. 1993 Table 2",
        "µs per operation",
        "modulus bits",
    );
    t.columns = vec![
        "classical".into(),
        "barrett".into(),
        "montgomery-redc".into(),
        "modred multiplication".into(),
        "GMP mpz_mod".into(),
        "OpenSSL BN_nnmod".into(),
        "GMP mpz_mul".into(),
    ];
    t.reference = Some("GMP mpz_mod".into());
    for &bits in &sizes {
        ctx.step(format!("seed000-table2 {bits} bits"));
        let mut rng = Rng::new(0x0002_0000 + bits as u64);
        let m = rng.odd_modulus(bits);
        let (a, b) = (rng.below(&m), rng.below(&m));
        let x = &a * &b;
        let want = oracle_mod(&x, &m);
        let k = limbs_for(bits);
        let mut comps: Vec<Competitor> = REDUCERS
            .iter()
            .map(|&n| reducer_reduce(n, n, &m, &x, false))
            .collect();
        comps.push(modred_mul(&a, &b, k).expecting(x.clone()));
        comps.push(gmp_mod("GMP mpz_mod", &x, &m));
        comps.push(ossl_nnmod("OpenSSL BN_nnmod", &x, &m));
        comps.push(gmp_mul("GMP mpz_mul", &a, &b).expecting(x.clone()));
        let cells = measure_row(&ctx.proto, &want, &mut comps, &t);
        t.rows.push(Row {
            label: bits.to_string(),
            x: Some(bits as f64),
            cells,
        });
    }
    t.plot = Some(PlotSpec {
        file: "seed000-table2.svg".into(),
        x_label: "modulus bits".into(),
        y_label: "µs".into(),
        log_x: true,
    });
    t.note("Argument: the product of two random residues of a random odd modulus with its top bit set (so it satisfies every method's restriction). Radix b = 2^64 here (the paper used b = 2^16), so k = bits/64.");
    t.note("modred reducers are timed through `Reducer::reduce_wide` with preallocated scratch; each timed call includes copying the 2k-limb argument into the buffer the method destroys. The montgomery-redc result is x R^-1 mod m; the cross-check converts it back outside timing.");
    t.note("The multiplication column is modred's k x k product (`arith::mul_karatsuba`, schoolbook below the library's Karatsuba threshold), the paper's reference operation.");
    vec![t]
}
