use modred::{reduce::ModContext, Natural, REDUCERS};
use num_bigint::{BigUint, RandBigInt};
use rand::{rngs::StdRng, SeedableRng};

#[test]
fn smoke_all_reducers() {
    let mut rng = StdRng::seed_from_u64(1);
    for limbs in [
        1usize, 2, 3, 4, 5, 8, 17, 31, 32, 33, 47, 48, 49, 64, 65, 100,
    ] {
        for _ in 0..3 {
            let mut m: BigUint = rng.gen_biguint(64 * limbs as u64);
            m |= BigUint::from(1u8) << (64 * limbs - 1 - (limbs % 7));
            for odd in [true, false] {
                let m = if odd {
                    &m | BigUint::from(1u8)
                } else {
                    (&m >> 1u32 << 1u32) | BigUint::from(2u8)
                };
                let a = rng.gen_biguint_below(&m);
                let b = rng.gen_biguint_below(&m);
                let x = &a * &b;
                let mn = Natural::from(&m);
                for info in REDUCERS {
                    if info.needs_odd && !odd {
                        continue;
                    }
                    if info.name == "montgomery-bitserial" && limbs > 17 {
                        continue;
                    }
                    let mut ctx = match ModContext::new(info.name, &mn) {
                        // Special-form methods (diminished-radix) refuse other moduli.
                        Err(modred::Error::UnsupportedModulus { .. }) => continue,
                        r => r.unwrap(),
                    };
                    let r = ctx.reduce(&Natural::from(&x)).unwrap();
                    assert_eq!(
                        r.to_biguint(),
                        &x % &m,
                        "reduce {} limbs={limbs}",
                        info.name
                    );
                    let r = ctx.mulmod(&Natural::from(&a), &Natural::from(&b));
                    assert_eq!(
                        r.to_biguint(),
                        &x % &m,
                        "mulmod {} limbs={limbs}",
                        info.name
                    );
                    let r = ctx.sqrmod(&Natural::from(&a));
                    assert_eq!(
                        r.to_biguint(),
                        (&a * &a) % &m,
                        "sqrmod {} limbs={limbs}",
                        info.name
                    );
                }
            }
        }
    }
}
