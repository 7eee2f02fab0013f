//! Table 3 of Koç, Acar, Kaliski, *Analyzing and Comparing Montgomery Multiplication Algorithms*,
//! IEEE Micro 1996: one Montgomery product MonPro(a, b) = a b R^-1 mod m by each of the five
//! methods (SOS, CIOS, FIOS, FIPS, CIHS) at 512, 1024, 1536 and 2048 bits, through `Reducer::mul`;
//! plus modred's separated product+REDC and the libraries' a b mod m.

use super::common::{gmp_mulmod, ossl_mod_mul, reducer_mul};
use crate::data::{from_rug, limbs_for, to_rug, Rng};
use crate::harness::measure_row;
use crate::table::{Row, Table};
use crate::Ctx;
use modred::Natural;
use rug::Integer;

const METHODS: [&str; 6] = [
    "montgomery-sos",
    "montgomery-cios",
    "montgomery-fios",
    "montgomery-fips",
    "montgomery-cihs",
    "montgomery-redc",
];

/// a b R^-1 mod m with R = 2^(64k), by GMP.
pub fn monpro_oracle(a: &Natural, b: &Natural, m: &Natural, k: usize) -> Natural {
    let mr = to_rug(m);
    let r = Integer::from(1) << (64 * k as u32);
    let rinv = r.invert(&mr).expect("odd modulus: R invertible");
    from_rug(&(to_rug(a) * to_rug(b) * rinv).modulo(&mr))
}

pub fn run(ctx: &mut Ctx) -> Vec<Table> {
    let sizes = ctx.sizes(&[512, 1024, 2048], &[512, 1024, 1536, 2048]);
    let mut t = Table::new(
        "seed002-table3",
        "timing of one Montgomery product MonPro(a, b)",
        "Koç–Acar–Kaliski 1996 Table 3",
        "µs per product",
        "bits",
    );
    t.columns = METHODS
        .iter()
        .map(|m| m.to_string())
        .chain([
            "GMP mpz_mul + mpz_mod".to_string(),
            "OpenSSL BN_mod_mul".into(),
        ])
        .collect();
    t.reference = Some("montgomery-cios".into());
    for &bits in &sizes {
        ctx.step(format!("seed002-table3 {bits} bits"));
        let k = limbs_for(bits);
        let mut rng = Rng::new(0x2003_0000 + bits as u64);
        let m = rng.odd_modulus(bits);
        let (a, b) = (rng.below(&m), rng.below(&m));
        let want = monpro_oracle(&a, &b, &m, k);
        let plain = &(&a * &b) % &m;
        let mut comps: Vec<_> = METHODS
            .iter()
            .map(|&n| reducer_mul(n, n, &m, &a, &b))
            .collect();
        comps.push(gmp_mulmod("GMP mpz_mul + mpz_mod", &a, &b, &m).expecting(plain.clone()));
        comps.push(ossl_mod_mul("OpenSSL BN_mod_mul", &a, &b, &m).expecting(plain));
        let cells = measure_row(&ctx.proto, &want, &mut comps, &t);
        t.rows.push(Row {
            label: bits.to_string(),
            x: Some(bits as f64),
            cells,
        });
    }
    t.note("Operands: two random residues of a random odd modulus, used directly as Montgomery representations; every method's output is checked against a b R^-1 mod m (R = 2^(64k)) from GMP. The paper timed C and 386 assembly on a Pentium-60 in milliseconds (32-bit words, s = 16..64); here 64-bit limbs, s = 8..32, microseconds.");
    t.note("GMP and OpenSSL columns compute the plain a b mod m (neither library exposes its Montgomery product through these bindings: rug has no mpn_redc, the openssl crate no BN_mod_mul_montgomery), so they are a reference point, not the same operation.");
    vec![t]
}
