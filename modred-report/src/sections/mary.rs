//! The report's own m-ary exponentiation with p = 16 (Bosselaers, Govaerts, Vandewalle,
//! *Comparison of three modular reduction functions*, CRYPTO '93, §5), written over the
//! `Reducer` trait so that each reduction method can be timed inside the same exponentiation,
//! as the paper's Table 3 and Fig. 3 do. This is a measurement driver, not modred's `pow` (that
//! is `modred::exp`): left-to-right, a table of a^0..a^15 in the method's representation, then
//! per 4-bit exponent digit 4 squarings and one multiplication by the table entry (skipped for
//! a zero digit, as the paper's "optimized" variant: variable time).

use crate::harness::Competitor;
use crate::sections::common::build;
use modred::arith;
use modred::reduce::classical::Classical;
use modred::reduce::Reducer;
use modred::{Limb, Natural};
use std::hint::black_box;

/// Buffers for one exponentiation with a k-limb modulus.
pub struct MaryBuffers {
    table: Vec<Limb>,
    acc: Vec<Limb>,
    tmp: Vec<Limb>,
    scratch: Vec<Limb>,
}

impl MaryBuffers {
    pub fn new(r: &dyn Reducer) -> Self {
        let k = r.len();
        Self {
            table: vec![0; 16 * k],
            acc: vec![0; k],
            tmp: vec![0; k],
            scratch: vec![0; r.scratch_len()],
        }
    }
}

/// 4-bit digit `i` of `e` (digit 0 = least significant).
fn digit(e: &[Limb], i: usize) -> usize {
    let bit = 4 * i;
    ((e[bit / 64] >> (bit % 64)) & 15) as usize
}

/// `out = base^e mod m` with `base < m` given as k limbs; `e` trimmed. No allocation.
pub fn pow16(r: &dyn Reducer, out: &mut [Limb], base: &[Limb], e: &[Limb], buf: &mut MaryBuffers) {
    let k = r.len();
    let MaryBuffers {
        table,
        acc,
        tmp,
        scratch,
    } = buf;
    let nd = arith::bit_len(e).div_ceil(4);
    if nd == 0 {
        r.from_repr(out, r.one(), scratch);
        return;
    }
    // table[j] = a^j in representation.
    table[..k].copy_from_slice(r.one());
    r.to_repr(&mut table[k..2 * k], base, scratch);
    for j in 2..16 {
        let (done, rest) = table.split_at_mut(j * k);
        r.mul(
            &mut rest[..k],
            &done[(j - 1) * k..],
            &done[k..2 * k],
            scratch,
        );
    }
    let top = digit(e, nd - 1);
    acc.copy_from_slice(&table[top * k..(top + 1) * k]);
    for i in (0..nd - 1).rev() {
        for _ in 0..4 {
            r.sqr(tmp, acc, scratch);
            core::mem::swap(acc, tmp);
        }
        let d = digit(e, i);
        if d != 0 {
            r.mul(tmp, acc, &table[d * k..(d + 1) * k], scratch);
            core::mem::swap(acc, tmp);
        }
    }
    r.from_repr(out, acc, scratch);
}

/// Competitor: [`pow16`] with reducer `name`.
pub fn competitor<'a>(
    name: &str,
    label: &str,
    b: &Natural,
    e: &Natural,
    m: &Natural,
) -> Competitor<'a> {
    let r = match build(name, m) {
        Ok(r) => r,
        Err(e) => return Competitor::na(label, e),
    };
    let k = r.len();
    let base = (b % m).to_padded(k).expect("below m");
    let e = e.limbs().to_vec();
    let mut buf = MaryBuffers::new(&*r);
    let mut out: Vec<Limb> = vec![0; k];
    Competitor::new(label, move |check| {
        pow16(&*r, &mut out, &base, &e, &mut buf);
        black_box(&out);
        check.then(|| Natural::from_slice(&out))
    })
}

/// The same m-ary loop with the classical reduction on *trimmed* operands: products of short
/// table entries are short and Algorithm D then runs fewer steps, the effect Bosselaers et al.
/// 1993 Fig. 3 shows for small bases. (The `Reducer` trait works on full k-limb values, so this
/// variant calls `arith::mul` on the trimmed operands and `Classical::rem_into_vartime` on the product's
/// own length. No allocation below the Karatsuba threshold.)
pub fn classical_trimmed<'a>(label: &str, b: &Natural, e: &Natural, m: &Natural) -> Competitor<'a> {
    let c = match Classical::new(m.limbs()) {
        Ok(c) => c,
        Err(err) => return Competitor::na(label, err.to_string()),
    };
    let k = m.len();
    let base = (b % m).to_padded(k).expect("below m");
    let one = &Natural::one() % m;
    let one = one.to_padded(k).expect("below m");
    let e = e.limbs().to_vec();
    let mut u: Vec<Limb> = vec![0; 2 * k + 1];
    let mut prod: Vec<Limb> = vec![0; 2 * k];
    let mut table: Vec<Limb> = vec![0; 16 * k];
    let mut acc: Vec<Limb> = vec![0; k];
    let mut tmp: Vec<Limb> = vec![0; k];
    // out = a b mod m on the trimmed operands.
    let mut mulmod = move |out: &mut [Limb], a: &[Limb], b: &[Limb], u: &mut [Limb]| {
        let (a, b) = (arith::trim(a), arith::trim(b));
        if a.is_empty() || b.is_empty() {
            out.fill(0);
            return;
        }
        let p = &mut prod[..a.len() + b.len()];
        arith::mul(p, a, b);
        c.rem_into_vartime(out, p, u);
    };
    Competitor::new(label, move |check| {
        let nd = arith::bit_len(&e).div_ceil(4);
        if nd == 0 {
            acc.copy_from_slice(&one);
        } else {
            table[..k].copy_from_slice(&one);
            table[k..2 * k].copy_from_slice(&base);
            for j in 2..16 {
                let (done, rest) = table.split_at_mut(j * k);
                mulmod(
                    &mut rest[..k],
                    &done[(j - 1) * k..],
                    &done[k..2 * k],
                    &mut u,
                );
            }
            let top = digit(&e, nd - 1);
            acc.copy_from_slice(&table[top * k..(top + 1) * k]);
            for i in (0..nd - 1).rev() {
                for _ in 0..4 {
                    mulmod(&mut tmp, &acc, &acc, &mut u);
                    core::mem::swap(&mut acc, &mut tmp);
                }
                let d = digit(&e, i);
                if d != 0 {
                    mulmod(&mut tmp, &acc, &table[d * k..(d + 1) * k], &mut u);
                    core::mem::swap(&mut acc, &mut tmp);
                }
            }
        }
        black_box(&acc);
        check.then(|| Natural::from_slice(&acc))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::Rng;
    use crate::sections::common::oracle_powm;

    #[test]
    fn pow16_matches_gmp_for_every_reducer_kind() {
        let mut rng = Rng::new(7);
        for bits in [64, 130, 512] {
            let m = rng.odd_modulus(bits);
            let b = rng.below(&m);
            for e in [
                Natural::zero(),
                Natural::one(),
                Natural::from(16u64),
                rng.exact(bits),
            ] {
                let want = oracle_powm(&b, &e, &m);
                for name in ["classical", "barrett", "montgomery-redc", "montgomery-cios"] {
                    let mut c = competitor(name, name, &b, &e, &m);
                    let got = (c.op.as_mut().unwrap())(true).unwrap();
                    assert_eq!(got, want, "{name} {bits} bits e={e}");
                }
                let mut c = classical_trimmed("t", &b, &e, &m);
                assert_eq!((c.op.as_mut().unwrap())(true).unwrap(), want);
                let short = Natural::from(3u64);
                let mut c = classical_trimmed("t", &short, &e, &m);
                assert_eq!(
                    (c.op.as_mut().unwrap())(true).unwrap(),
                    oracle_powm(&short, &e, &m)
                );
            }
        }
    }
}
