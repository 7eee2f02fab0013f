//! Exponentiation by a small exponent, without a modulus context: when base^exp stays below m
//! there is nothing to reduce, and when it is at most a few times longer than m one division
//! after the plain powering costs less than a Montgomery set-up (R^2 mod m, -m^{-1} mod R, the
//! conversions), which is a division of 2k limbs and more. So pow(3, 2, m) for a 2^22-bit m
//! is one product of one-limb numbers. An exponent of at most a few products
//! ([`pow_classical`]) runs products and Knuth's division with no precomputation at all.

use crate::arith;
use crate::error::Result;
use crate::limb::Limb;
use crate::natural::Natural;
use crate::reduce::classical::Classical;
use crate::tuning::{CLASSICAL_POW_MAX_PRODUCTS, POW_PLAIN_MAX_RATIO};

/// `base^exp mod m` for `base < m` by plain powering when `exp` fits a limb and the power has
/// at most [`POW_PLAIN_MAX_RATIO`] times the bits of m (bits(base) exp bounds it); with at most
/// bits(m) - 1 bits the power is below m and is the result, else one division. `Ok(None)`
/// otherwise (and for exp = 0 or m <= 1, which the callers handle). `reserve(limbs)` is asked
/// for the power's working memory (its limbs) before it is computed.
/// Leaks: variable time: the operands' bit lengths decide the path, and the powering and
/// division are variable time.
pub(crate) fn pow_plain(
    base: &Natural,
    exp: &Natural,
    m: &Natural,
    reserve: impl Fn(usize) -> Result<()>,
) -> Result<Option<Natural>> {
    debug_assert!(base < m);
    let Some(e) = exp.to_u64() else {
        return Ok(None);
    };
    let m_bits = m.bits() as u128;
    let bound = (base.bits() as u128) * e as u128;
    if e == 0 || m_bits <= 1 || bound > POW_PLAIN_MAX_RATIO as u128 * m_bits {
        return Ok(None);
    }
    reserve((bound / 64) as usize + 1)?;
    let p = power(base.limbs(), e);
    if bound < m_bits {
        debug_assert!(p < *m);
        return Ok(Some(p));
    }
    Ok(Some(&p % m))
}

/// `x^e` for e >= 1, left-to-right square and multiply on the fast products.
/// Leaks: variable time: the bits of `e` and the growing lengths of the powers.
fn power(x: &[Limb], e: u64) -> Natural {
    if x.is_empty() {
        return Natural::zero();
    }
    let mut acc = x.to_vec();
    for i in (0..63 - e.leading_zeros()).rev() {
        let mut sq = vec![0; 2 * acc.len()];
        arith::sqr(&mut sq, &acc);
        sq.truncate(arith::normalized_len(&sq));
        acc = sq;
        if (e >> i) & 1 == 1 {
            let mut pr = vec![0; acc.len() + x.len()];
            arith::mul(&mut pr, &acc, x);
            pr.truncate(arith::normalized_len(&pr));
            acc = pr;
        }
    }
    Natural::from_limbs(acc)
}

/// Products (squarings and multiplications) of a left-to-right binary exponentiation by a
/// trimmed, non-zero `e`.
fn binary_products(e: &[Limb]) -> usize {
    let ones: usize = e.iter().map(|l| l.count_ones() as usize).sum();
    arith::bit_len(e) - 1 + ones - 1
}

/// `b^e mod m` for m of k >= 2 limbs, `b < m` (trimmed, > 1) and a trimmed non-zero `e` of
/// at most [`CLASSICAL_POW_MAX_PRODUCTS`] binary products: left-to-right binary with products of
/// the operands' own lengths and Knuth's division (the `classical` reducer's remainder), no
/// precomputation. Returns k limbs, or `None` for a longer exponent. Polls [`crate::cancel`]
/// (a cancelled result is meaningless).
/// Leaks: variable time: the exponent's bits, the products' lengths and Knuth division.
pub(crate) fn pow_classical(b: &[Limb], e: &[Limb], m: &[Limb]) -> Option<Vec<Limb>> {
    if binary_products(e) > CLASSICAL_POW_MAX_PRODUCTS {
        return None;
    }
    let r = Classical::new(m).expect("m > 1");
    let k = m.len();
    // acc (k), the product (2k) and the division's shifted copy (2k + 1) in one allocation.
    let mut work = vec![0 as Limb; 5 * k + 1];
    let (acc, rest) = work.split_at_mut(k);
    let (prod, u) = rest.split_at_mut(2 * k);
    acc[..b.len()].copy_from_slice(b);
    let mut len = b.len();
    // Invariant: acc[..len] = b^(e >> i) mod m, trimmed; acc[len..] = 0.
    for i in (0..arith::bit_len(e) - 1).rev() {
        if len == 0 {
            break; // 0 stays 0
        }
        if i % crate::scan::CANCEL_CHECK_STEPS == 0 && crate::cancel::requested() {
            break;
        }
        let p = &mut prod[..2 * len];
        arith::sqr(p, &acc[..len]);
        r.rem_into_vartime(acc, p, u);
        len = arith::normalized_len(acc);
        if arith::bit(e, i) && len > 0 {
            let p = &mut prod[..len + b.len()];
            arith::mul(p, &acc[..len], b);
            r.rem_into_vartime(acc, p, u);
            len = arith::normalized_len(acc);
        }
    }
    work.truncate(k);
    Some(work)
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::BigUint;

    fn plain(b: &Natural, e: u64, m: &Natural) -> Option<Natural> {
        pow_plain(b, &Natural::from(e), m, |_| Ok(())).unwrap()
    }

    #[test]
    fn plain_powers_match_num_bigint() {
        let f = Natural::power_of_two(1 << 14).to_biguint() + 1u32;
        let m = Natural::from(&f);
        for (b, e) in [
            (3u64, 2u64),
            (0, 5),
            (1, 1000),
            (u64::MAX, 200),
            (7, 16000),
            (12345, 3),
        ] {
            let got = plain(&Natural::from(b), e, &m);
            let want = BigUint::from(b).modpow(&BigUint::from(e), &f);
            assert_eq!(got.map(|x| x.to_biguint()), Some(want), "{b}^{e}");
        }
        // A power far above m is left to the other paths; so is e = 0.
        assert!(plain(&Natural::from(3u64), 1 << 40, &m).is_none());
        assert!(plain(&Natural::from(3u64), 0, &m).is_none());
        // The memory refusal is passed on before the power is computed.
        let refused = pow_plain(&Natural::from(3u64), &Natural::from(2u64), &m, |_| {
            Err(crate::error::Error::Cancelled)
        });
        assert_eq!(refused, Err(crate::error::Error::Cancelled));
        // Exponents past the plain bound take the modulus context (Montgomery with REDC over
        // full products at this size): the same value.
        let m_big = Natural::from(&(BigUint::from(3u8).pow(10_000) + 2u32));
        let e = Natural::from(u64::MAX - 6);
        let b = Natural::from(123_456_789u64);
        let got = crate::exp::pow_vartime(&b, &e, &m_big, &Default::default()).unwrap();
        let want = b.to_biguint().modpow(&e.to_biguint(), &m_big.to_biguint());
        assert_eq!(got.to_biguint(), want);
        // Even and small moduli too.
        let m2 = Natural::from(1000u64);
        assert_eq!(
            plain(&Natural::from(17u64), 3, &m2),
            Some(Natural::from(4913u64 % 1000))
        );
    }
}
