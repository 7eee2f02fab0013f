//! Reproducible inputs and conversions between modred, GMP (rug) and OpenSSL numbers.

use modred::{Limb, Natural};
use openssl::bn::BigNum;
use rug::integer::Order;
use rug::Integer;

/// SplitMix64: a small deterministic generator, so every run times the same inputs.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Self(seed ^ 0x9e37_79b9_7f4a_7c15)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform `bits`-bit limbs (top bit not forced).
    pub fn limbs(&mut self, bits: usize) -> Vec<Limb> {
        let n = bits.div_ceil(64);
        let mut v: Vec<Limb> = (0..n).map(|_| self.next_u64()).collect();
        if !bits.is_multiple_of(64) {
            if let Some(top) = v.last_mut() {
                *top &= (1u64 << (bits % 64)) - 1;
            }
        }
        v
    }

    /// A number of exactly `bits` bits (top bit set).
    pub fn exact(&mut self, bits: usize) -> Natural {
        assert!(bits >= 1);
        let mut v = self.limbs(bits);
        let top = (bits - 1) % 64;
        *v.last_mut().unwrap() |= 1 << top;
        Natural::from_limbs(v)
    }

    /// An odd modulus of exactly `bits` bits (top bit set), as the papers' random moduli.
    pub fn odd_modulus(&mut self, bits: usize) -> Natural {
        let mut v = self.exact(bits).limbs().to_vec();
        v[0] |= 1;
        Natural::from_limbs(v)
    }

    /// A value below `m`, full length in practice.
    pub fn below(&mut self, m: &Natural) -> Natural {
        let r = Natural::from_limbs(self.limbs(m.bits()));
        &r % m
    }
}

pub fn to_rug(n: &Natural) -> Integer {
    Integer::from_digits(n.limbs(), Order::Lsf)
}

pub fn from_rug(i: &Integer) -> Natural {
    let mut v = vec![0u64; i.significant_digits::<u64>()];
    i.write_digits(&mut v, Order::Lsf);
    Natural::from_limbs(v)
}

pub fn to_bn(n: &Natural) -> BigNum {
    BigNum::from_slice(&n.to_be_bytes()).expect("BN_bin2bn")
}

pub fn from_bn(b: &BigNum) -> Natural {
    Natural::from_be_bytes(&b.to_vec())
}

/// Number of limbs of a `bits`-bit modulus.
pub fn limbs_for(bits: usize) -> usize {
    bits.div_ceil(64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conversions_round_trip() {
        let mut r = Rng::new(1);
        for bits in [1, 63, 64, 65, 512, 1000] {
            let x = r.exact(bits);
            assert_eq!(x.bits(), bits);
            assert_eq!(from_rug(&to_rug(&x)), x);
            assert_eq!(from_bn(&to_bn(&x)), x);
            assert_eq!(to_rug(&x).to_string(), x.to_decimal().unwrap());
        }
        let m = r.odd_modulus(256);
        assert!(m.is_odd() && m.bits() == 256);
        let b = r.below(&m);
        assert!(to_rug(&b) < to_rug(&m));
    }
}
