//! `Natural`: an owned non-negative integer on u64 limbs, the typed wrapper over `crate::arith`.

use crate::alloc::{self, Work};
use crate::arith;
use crate::error::{Error, Result};
use crate::limb::{Limb, LIMB_BITS};
use core::cmp::Ordering;
use core::fmt;
use core::str::FromStr;
use num_bigint::BigUint;

/// A natural number, little-endian limbs with no most-significant zero limb (zero is empty).
///
/// Leaks: variable time throughout: the length of the representation is the value's size in
/// limbs, and its comparisons, arithmetic (`+`, `*`, `%`, shifts) and conversions run the
/// variable-time `arith` kernels (early exits, trims, division).
#[derive(Clone, Default, PartialEq, Eq, Hash)]
pub struct Natural {
    limbs: Vec<Limb>,
}

mod radix;

impl Natural {
    /// Zero.
    pub fn zero() -> Self {
        Self { limbs: Vec::new() }
    }

    /// One.
    pub fn one() -> Self {
        Self::from(1u64)
    }

    /// From little-endian limbs (leading zeros are dropped).
    pub fn from_limbs(mut limbs: Vec<Limb>) -> Self {
        limbs.truncate(arith::normalized_len(&limbs));
        Self { limbs }
    }

    /// From a little-endian limb slice.
    pub fn from_slice(limbs: &[Limb]) -> Self {
        Self::from_limbs(arith::trim(limbs).to_vec())
    }

    /// The little-endian limbs, without leading zeros.
    pub fn limbs(&self) -> &[Limb] {
        &self.limbs
    }

    /// The value as one `u64`, or `None` if it needs more than one limb.
    pub fn to_u64(&self) -> Option<u64> {
        match self.limbs[..] {
            [] => Some(0),
            [x] => Some(x),
            _ => None,
        }
    }

    /// The limbs zero-padded to `len`; `None` if the value needs more limbs ([`Self::len`]).
    pub fn to_padded(&self, len: usize) -> Option<Vec<Limb>> {
        if len < self.limbs.len() {
            return None;
        }
        let mut v = self.limbs.clone();
        v.resize(len, 0);
        Some(v)
    }

    /// Number of limbs (zero has none; see [`Self::is_zero`]).
    #[allow(clippy::len_without_is_empty)]
    pub fn len(&self) -> usize {
        self.limbs.len()
    }

    /// Whether this is zero.
    pub fn is_zero(&self) -> bool {
        self.limbs.is_empty()
    }

    /// Whether this is one.
    pub fn is_one(&self) -> bool {
        self.limbs == [1]
    }

    /// Whether this is odd.
    pub fn is_odd(&self) -> bool {
        self.limbs.first().is_some_and(|&l| l & 1 == 1)
    }

    /// Number of significant bits (0 for zero).
    pub fn bits(&self) -> usize {
        arith::bit_len(&self.limbs)
    }

    /// Bit `i`.
    pub fn bit(&self, i: usize) -> bool {
        arith::bit(&self.limbs, i)
    }

    /// Number of trailing zero bits (None for zero).
    pub fn trailing_zeros_vartime(&self) -> Option<usize> {
        let i = self.limbs.iter().position(|&l| l != 0)?;
        Some(i * LIMB_BITS as usize + self.limbs[i].trailing_zeros() as usize)
    }

    /// 2^k.
    pub fn power_of_two(k: usize) -> Self {
        let mut limbs = vec![0; k / LIMB_BITS as usize + 1];
        limbs[k / LIMB_BITS as usize] = 1 << (k % LIMB_BITS as usize);
        Self { limbs }
    }

    /// Parse decimal, or hexadecimal with a `0x`/`0X` prefix. Surrounding whitespace and single
    /// `_` separators between digits (or right after `0x`) are allowed, as in Python's `int()`;
    /// signs and any other character are rejected.
    /// Leaks: variable time: the text's length, where the first bad character is, and the
    /// digits (the decimal conversion's products and carries); do not parse secrets with it.
    pub fn parse(text: &str) -> Result<Self> {
        let err = |reason| Error::Parse {
            text: text.chars().take(80).collect(),
            reason,
        };
        let t = text.trim();
        if t.starts_with('-') {
            return Err(err("negative numbers are not accepted"));
        }
        let (digits, radix) = match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
            Some(h) => (h, 16),
            None => (t, 10),
        };
        // The number has at most len/16 + 1 limbs; a copy of the digits may be made first.
        let work = if radix == 16 {
            Work::ParseHex
        } else {
            Work::Parse
        };
        alloc::ensure_work(work, t.len() / 16 + 1, t.len() / 8)?;
        // Python's rule: an underscore follows a digit or the base prefix, and precedes a digit.
        const UNDERSCORE: &str = "'_' is allowed only between digits (or right after 0x)";
        let mut after_digit = radix == 16;
        let kept;
        let digits = if digits.contains('_') {
            let mut k = Vec::with_capacity(digits.len());
            for c in digits.bytes() {
                if c != b'_' {
                    k.push(c);
                    after_digit = true;
                } else if after_digit {
                    after_digit = false;
                } else {
                    return Err(err(UNDERSCORE));
                }
            }
            kept = k;
            &kept[..]
        } else {
            after_digit |= !digits.is_empty();
            digits.as_bytes()
        };
        if !after_digit && !digits.is_empty() {
            return Err(err(UNDERSCORE));
        }
        if digits.is_empty() {
            return Err(err("no digits"));
        }
        if radix == 16 {
            Self::from_hex_digits(digits).ok_or_else(|| err("invalid hexadecimal digit"))
        } else {
            Self::from_dec_digits(digits).ok_or_else(|| err("invalid decimal digit"))
        }
    }

    /// Sixteen digits a limb, from the low end; `None` at a character that is not a hex digit.
    fn from_hex_digits(d: &[u8]) -> Option<Self> {
        let mut limbs = Vec::with_capacity(d.len().div_ceil(16));
        for chunk in d.rchunks(16) {
            let mut limb: Limb = 0;
            let mut bad = 0u8;
            for &c in chunk {
                let v = HEX_VALUE[c as usize];
                bad |= v;
                limb = limb << 4 | (v & 15) as Limb;
            }
            if bad & 0x80 != 0 {
                return None;
            }
            limbs.push(limb);
        }
        Some(Self::from_limbs(limbs))
    }

    /// Lowercase hex digits without a prefix ("0" for zero).
    fn hex_digits(&self) -> String {
        let Some((top, rest)) = self.limbs.split_last() else {
            return "0".into();
        };
        let top_digits = (Limb::BITS - top.leading_zeros()).div_ceil(4).max(1) as usize;
        let mut s = Vec::with_capacity(top_digits + 16 * rest.len());
        let mut push = |l: Limb, digits: usize| {
            for i in (0..digits).rev() {
                s.push(b"0123456789abcdef"[(l >> (4 * i)) as usize & 15]);
            }
        };
        push(*top, top_digits);
        for &l in rest.iter().rev() {
            push(l, 16);
        }
        String::from_utf8(s).expect("ASCII digits")
    }

    fn from_dec_digits(d: &[u8]) -> Option<Self> {
        if !d.iter().all(u8::is_ascii_digit) {
            return None;
        }
        Some(Self::from_limbs(radix::parse_decimal(d)))
    }

    /// Decimal digits (divide and conquer on the fast product and division, see `radix`), or
    /// [`Error::TooLarge`] when the working memory cannot be reserved (`Display` writes the
    /// same digits without that check).
    /// Leaks: variable time: the value's length and its digits (divisions by powers of ten).
    pub fn to_decimal(&self) -> Result<String> {
        alloc::ensure_work(Work::Print, self.limbs.len(), 0)?;
        Ok(radix::to_decimal(&self.limbs))
    }

    /// `0x`-prefixed lowercase hexadecimal.
    pub fn to_hex(&self) -> String {
        format!("0x{}", self.hex_digits())
    }

    /// From big-endian bytes (any length, leading zeros allowed).
    pub fn from_be_bytes(bytes: &[u8]) -> Self {
        let mut limbs = vec![0; bytes.len().div_ceil(8)];
        for (i, &b) in bytes.iter().rev().enumerate() {
            limbs[i / 8] |= (b as Limb) << (8 * (i % 8));
        }
        Self::from_limbs(limbs)
    }

    /// Minimal big-endian bytes (empty for zero).
    pub fn to_be_bytes(&self) -> Vec<u8> {
        let nbytes = self.bits().div_ceil(8);
        self.to_be_bytes_padded(nbytes).expect("length is exact")
    }

    /// Big-endian bytes left-padded with zeros to `len`; `None` if the value needs more bytes.
    pub fn to_be_bytes_padded(&self, len: usize) -> Option<Vec<u8>> {
        if self.bits().div_ceil(8) > len {
            return None;
        }
        let mut out = vec![0u8; len];
        for i in 0..len.min(self.limbs.len() * 8) {
            out[len - 1 - i] = (self.limbs[i / 8] >> (8 * (i % 8))) as u8;
        }
        Some(out)
    }

    /// Conversion to num-bigint.
    pub fn to_biguint(&self) -> BigUint {
        BigUint::from_slice(
            &self
                .limbs
                .iter()
                .flat_map(|&l| [l as u32, (l >> 32) as u32])
                .collect::<Vec<_>>(),
        )
    }

    /// Quotient and remainder; `None` when dividing by zero.
    /// Leaks: variable time (Knuth or Newton division: the values' lengths, branches on their
    /// digits, x86 `div` latency).
    pub fn div_rem_vartime(&self, d: &Natural) -> Option<(Natural, Natural)> {
        if d.is_zero() {
            return None;
        }
        let (q, r) = arith::div_rem(&self.limbs, &d.limbs);
        Some((Natural::from_limbs(q), Natural::from_limbs(r)))
    }

    /// `self mod m`. Errors: `m = 0` ([`Error::ZeroModulus`]), [`Error::TooLarge`] when the
    /// division's working memory cannot be reserved.
    /// Leaks: variable time, as [`Self::div_rem_vartime`] (none below m: a comparison).
    pub fn rem_vartime(&self, m: &Natural) -> Result<Natural> {
        if m.is_zero() {
            return Err(Error::ZeroModulus);
        }
        alloc::ensure_work(Work::Product, self.limbs.len(), 0)?;
        if self < m {
            return Ok(self.clone());
        }
        Ok(Natural::from_limbs(arith::div_rem(&self.limbs, &m.limbs).1))
    }

    /// `self - other`, or `None` if that would be negative.
    /// Leaks: variable time: the comparison's early exit and the borrow propagation.
    pub fn checked_sub_vartime(&self, other: &Natural) -> Option<Natural> {
        if *self < *other {
            return None;
        }
        let mut r = self.limbs.clone();
        arith::sub_in_place(&mut r, &other.limbs);
        Some(Natural::from_limbs(r))
    }
}

impl From<u64> for Natural {
    fn from(v: u64) -> Self {
        Self::from_limbs(vec![v])
    }
}

impl From<u128> for Natural {
    fn from(v: u128) -> Self {
        Self::from_limbs(vec![v as u64, (v >> 64) as u64])
    }
}

impl From<&BigUint> for Natural {
    fn from(v: &BigUint) -> Self {
        Self::from_limbs(v.to_u64_digits())
    }
}

impl From<BigUint> for Natural {
    fn from(v: BigUint) -> Self {
        Self::from(&v)
    }
}

impl From<&Natural> for BigUint {
    fn from(v: &Natural) -> Self {
        v.to_biguint()
    }
}

impl FromStr for Natural {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        Self::parse(s)
    }
}

impl fmt::Display for Natural {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad_integral(true, "", &radix::to_decimal(&self.limbs))
    }
}

impl fmt::Debug for Natural {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self:#x}")
    }
}

impl fmt::LowerHex for Natural {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad_integral(true, "0x", &self.hex_digits())
    }
}

/// The value of each byte as a hex digit; 0x80 marks a byte that is not one.
const HEX_VALUE: [u8; 256] = {
    let mut t = [0x80u8; 256];
    let mut i = 0;
    while i < 10 {
        t[b'0' as usize + i] = i as u8;
        i += 1;
    }
    let mut i = 0;
    while i < 6 {
        t[b'a' as usize + i] = 10 + i as u8;
        t[b'A' as usize + i] = 10 + i as u8;
        i += 1;
    }
    t
};

impl Ord for Natural {
    fn cmp(&self, other: &Self) -> Ordering {
        arith::cmp(&self.limbs, &other.limbs)
    }
}

impl PartialOrd for Natural {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl core::ops::Add for &Natural {
    type Output = Natural;
    fn add(self, rhs: &Natural) -> Natural {
        let (a, b) = if self.len() >= rhs.len() {
            (self, rhs)
        } else {
            (rhs, self)
        };
        let mut r = a.limbs.clone();
        r.push(0);
        arith::add_in_place(&mut r, &b.limbs);
        Natural::from_limbs(r)
    }
}

impl core::ops::Mul for &Natural {
    type Output = Natural;
    fn mul(self, rhs: &Natural) -> Natural {
        if self.is_zero() || rhs.is_zero() {
            return Natural::zero();
        }
        let mut r = vec![0; self.len() + rhs.len()];
        arith::mul(&mut r, &self.limbs, &rhs.limbs);
        Natural::from_limbs(r)
    }
}

impl core::ops::Rem for &Natural {
    type Output = Natural;
    /// Panics on a zero divisor, like the integer types; use [`Natural::div_rem_vartime`] to check.
    fn rem(self, rhs: &Natural) -> Natural {
        self.div_rem_vartime(rhs).expect("remainder by zero").1
    }
}

impl core::ops::Shl<usize> for &Natural {
    type Output = Natural;
    fn shl(self, k: usize) -> Natural {
        let (w, b) = (k / LIMB_BITS as usize, (k % LIMB_BITS as usize) as u32);
        let mut r = vec![0; w];
        r.extend_from_slice(&self.limbs);
        r.push(0);
        arith::shl_in_place(&mut r[w..], b);
        Natural::from_limbs(r)
    }
}

impl core::ops::Shr<usize> for &Natural {
    type Output = Natural;
    fn shr(self, k: usize) -> Natural {
        let w = k / LIMB_BITS as usize;
        if w >= self.len() {
            return Natural::zero();
        }
        let mut r = self.limbs[w..].to_vec();
        arith::shr_in_place(&mut r, (k % LIMB_BITS as usize) as u32);
        Natural::from_limbs(r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_print() {
        for s in [
            "0",
            "1",
            "18446744073709551615",
            "18446744073709551616",
            "123456789012345678901234567890123456789012345678901234567890",
        ] {
            let n = Natural::parse(s).unwrap();
            assert_eq!(n.to_decimal().unwrap(), s);
            assert_eq!(n.to_biguint().to_string(), s);
            assert_eq!(Natural::parse(&n.to_hex()).unwrap(), n);
        }
        assert_eq!(
            Natural::parse("0x1_0000_0000_0000_0000").unwrap().limbs(),
            &[0, 1]
        );
        assert_eq!(Natural::parse(" 0xFF ").unwrap(), Natural::from(255u64));
        assert_eq!(Natural::parse("0000123").unwrap(), Natural::from(123u64));
        for bad in ["", "-1", "12a", "0x", "0xg", "1.5", "+3", " "] {
            assert!(Natural::parse(bad).is_err(), "{bad:?} accepted");
        }
    }

    /// Underscores as Python's `int()` takes them: single, between digits or right after 0x.
    #[test]
    fn underscores_only_between_digits() {
        for (good, v) in [
            ("1_0", 10u64),
            ("0x_1", 1),
            ("0X_f_f", 255),
            (" 1_2_3 ", 123),
        ] {
            assert_eq!(Natural::parse(good), Ok(Natural::from(v)), "{good:?}");
        }
        for bad in [
            "_1", "1_", "1__0", "0x__1", "0x1_", "0x_", "_", "0_x1", "_0x1",
        ] {
            assert!(Natural::parse(bad).is_err(), "{bad:?} accepted");
        }
    }

    /// Decimal parse and print by divide and conquer against num-bigint's `to_str_radix` and
    /// parser, at sizes around the base case and large ones, with leading zeros, powers of
    /// 10^19 and all-nines strings.
    #[test]
    fn decimal_round_trips_at_large_sizes() {
        let mut s = 0x1234_5678_9abc_def0;
        for limbs in [1, 15, 16, 17, 33, 64, 200, 1000, 3000] {
            let x: Vec<Limb> = (0..limbs)
                .map(|_| crate::limb::xorshift64(&mut s))
                .collect();
            let n = Natural::from_limbs(x);
            let b = n.to_biguint();
            let dec = n.to_decimal().unwrap();
            assert_eq!(dec, b.to_str_radix(10), "print {limbs} limbs");
            assert_eq!(Natural::parse(&dec).unwrap(), n, "parse {limbs} limbs");
            assert_eq!(format!("{n}"), dec);
            let padded = format!("000{dec}");
            assert_eq!(padded.parse::<Natural>().unwrap(), n);
        }
        for digits in [19, 38, 19 * 32, 19 * 33, 19 * 1000 + 1, 50_000] {
            let nines = "9".repeat(digits);
            let n = Natural::parse(&nines).unwrap();
            assert_eq!(
                n.to_biguint(),
                nines.parse::<BigUint>().unwrap(),
                "{digits} nines"
            );
            assert_eq!(n.to_decimal().unwrap(), nines);
            let p10 = format!("1{}", "0".repeat(digits));
            assert_eq!(Natural::parse(&p10).unwrap().to_decimal().unwrap(), p10);
        }
    }

    #[test]
    fn to_u64_fits_one_limb_only() {
        assert_eq!(Natural::zero().to_u64(), Some(0));
        assert_eq!(Natural::from(u64::MAX).to_u64(), Some(u64::MAX));
        assert_eq!(Natural::power_of_two(64).to_u64(), None);
        assert_eq!(Natural::from_limbs(vec![7, 0, 0]).to_u64(), Some(7));
    }

    #[test]
    fn bytes_round_trip() {
        let n = Natural::parse("0x0102030405060708090a").unwrap();
        assert_eq!(n.to_be_bytes(), (1u8..=10).collect::<Vec<_>>());
        assert_eq!(Natural::from_be_bytes(&n.to_be_bytes()), n);
        assert_eq!(n.to_be_bytes_padded(12).unwrap()[..2], [0, 0]);
        assert!(n.to_be_bytes_padded(9).is_none());
        assert_eq!(n.to_padded(3), Some(vec![0x0304_0506_0708_090a, 0x0102, 0]));
        assert_eq!(n.to_padded(1), None);
        assert_eq!(Natural::zero().to_padded(0), Some(vec![]));
        assert!(Natural::zero().to_be_bytes().is_empty());
    }
}
