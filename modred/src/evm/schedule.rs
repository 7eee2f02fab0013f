//! The MODEXP gas schedules: EIP-198 (Byzantium), EIP-2565 (Berlin), EIP-7883 (Osaka).
//!
//! All three multiply a *multiplication complexity* of `x = max(base_len, mod_len)` bytes by an
//! *iteration count* derived from the exponent's length and its first 32 bytes (EIP-198's
//! "adjusted exponent length", at least 1):
//!
//! | fork      | complexity                                                     | bits per exponent byte past 32 | gas                     |
//! |-----------|----------------------------------------------------------------|-----|-------------------------------------|
//! | Byzantium | x^2 (x <= 64); x^2/4 + 96x - 3072 (x <= 1024); x^2/16 + 480x - 199680 | 8  | floor(c i / 20)            |
//! | Berlin    | ceil(x/8)^2                                                    | 8   | max(200, floor(c i / 3))            |
//! | Osaka     | 16 (x <= 32); 2 ceil(x/8)^2                                    | 16  | max(500, c i)                       |
//!
//! The base and modulus lengths arrive saturated at `u64::MAX` (a declared length of 2^64 or
//! more), the exponent's at `u128::MAX`; every product is taken in `u128` with overflow
//! checks, so the result is exact whenever it fits a `u64` and `u64::MAX` otherwise. The
//! saturation never changes a price below 2^64: a base or modulus length of 2^64 makes the
//! complexity at least 2^124 (Byzantium's x^2 / 16), and an exponent length of 2^128 the
//! iteration count at least 2^131, multiplied by a complexity of at least 1 (or 0, when the
//! exact price is 0 as well) and divided by at most 20.

use super::{Fork, Lengths};

/// EIP-198's adjusted exponent length (EIP-2565 and EIP-7883: the iteration count) before the
/// `max(.., 1)`: for `exp_len <= 32` the index of the exponent's highest set bit (0 for a zero
/// exponent); above, `per_byte (exp_len - 32)` plus that index within the first 32 bytes
/// (0 when they are all zero). `head_bits` is the bit length of those first
/// `min(32, exp_len)` bytes. Saturates at `u128::MAX`.
pub(super) fn adjusted_exp_len(exp_len: u128, head_bits: u32, per_byte: u64) -> u128 {
    let top = u128::from(head_bits.saturating_sub(1));
    if exp_len <= 32 {
        top
    } else {
        u128::from(per_byte)
            .saturating_mul(exp_len - 32)
            .saturating_add(top)
    }
}

/// The gas of an input with lengths `l` and exponent head of `head_bits` bits under `fork`,
/// saturated at `u64::MAX` (see the module docs).
pub(super) fn price(l: &Lengths, head_bits: u32, fork: Fork) -> u64 {
    let x = u128::from(l.base.max(l.modulus));
    // x < 2^64: x^2 < 2^128 and every complexity below fits a u128.
    let words = x.div_ceil(8);
    let (complexity, per_byte) = match fork {
        Fork::Byzantium => (
            if x <= 64 {
                x * x
            } else if x <= 1024 {
                x * x / 4 + 96 * x - 3072
            } else {
                x * x / 16 + 480 * x - 199_680
            },
            8,
        ),
        Fork::Berlin => (words * words, 8),
        Fork::Osaka => (if x <= 32 { 16 } else { 2 * words * words }, 16),
    };
    let iterations = adjusted_exp_len(l.exp_wide, head_bits, per_byte).max(1);
    let Some(product) = complexity.checked_mul(iterations) else {
        // complexity >= 1 here (0 times anything fits), so the price is above 2^128 / 20.
        return u64::MAX;
    };
    let (divisor, minimum) = match fork {
        Fork::Byzantium => (20, 0),
        Fork::Berlin => (3, 200),
        Fork::Osaka => (1, 500),
    };
    // A u64 division where the product fits one (a u128 division is a slow library call).
    match u64::try_from(product) {
        Ok(p) => p / divisor,
        Err(_) => u64::try_from(product / u128::from(divisor)).unwrap_or(u64::MAX),
    }
    .max(minimum)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lengths(base: u64, exp: u64, modulus: u64) -> Lengths {
        Lengths {
            base,
            exp,
            modulus,
            exp_wide: u128::from(exp),
        }
    }

    /// EIP-198's worked examples of the adjusted exponent length.
    #[test]
    fn eip198_adjusted_exponent_examples() {
        // 1 -> 0, 2 -> 1, 3 -> 1, 255 -> 7, 256 -> 8 (one- and two-byte exponents).
        for (bits, want) in [(1, 0), (2, 1), (2, 1), (8, 7), (9, 8)] {
            assert_eq!(adjusted_exp_len(2, bits, 8), want);
        }
        // "EXPONENT = \x00\x00\x01\x00 ... with one hundred bytes": 8 (100 - 32) + 253 = 797.
        assert_eq!(adjusted_exp_len(100, 254, 8), 797);
        // First 32 bytes zero: exactly 8 (exp_len - 32).
        assert_eq!(adjusted_exp_len(100, 0, 8), 544);
        assert_eq!(adjusted_exp_len(100, 0, 16), 1088);
        assert_eq!(adjusted_exp_len(0, 0, 8), 0);
        assert_eq!(adjusted_exp_len(u128::MAX, 256, 16), u128::MAX);
    }

    /// The minimums, the zero complexity of Byzantium and saturation at the extremes.
    #[test]
    fn minimums_and_saturation() {
        let max = u64::MAX;
        assert_eq!(price(&lengths(0, 0, 0), 0, Fork::Byzantium), 0);
        assert_eq!(price(&lengths(0, 0, 0), 0, Fork::Berlin), 200);
        assert_eq!(price(&lengths(0, 0, 0), 0, Fork::Osaka), 500);
        // No base or modulus bytes: any exponent length is free under Byzantium and the
        // minimum under Berlin (complexity 0).
        assert_eq!(price(&lengths(0, max, 0), 256, Fork::Byzantium), 0);
        assert_eq!(price(&lengths(0, max, 0), 256, Fork::Berlin), 200);
        assert_eq!(price(&lengths(0, max, 0), 256, Fork::Osaka), max);
        for fork in [Fork::Byzantium, Fork::Berlin, Fork::Osaka] {
            assert_eq!(price(&lengths(max, 0, 0), 0, fork), max, "{fork:?}");
            assert_eq!(price(&lengths(0, 0, max), 0, fork), max, "{fork:?}");
            assert!(price(&lengths(1, max, 1), 0, fork) > 1 << 60, "{fork:?}");
            assert_eq!(price(&lengths(max, max, max), 256, fork), max, "{fork:?}");
        }
        // An exponent length of 2^64 with a one-byte modulus stays below 2^64 gas under
        // Byzantium: floor((8 (2^64 - 32) + 248) / 20) with a 249-bit head, one more than
        // with the length saturated at 2^64 - 1 (the Python property test's find).
        let l = Lengths {
            exp_wide: 1 << 64,
            ..lengths(0, max, 1)
        };
        assert_eq!(price(&l, 249, Fork::Byzantium), 7_378_697_629_483_820_646);
        assert_eq!(
            price(&lengths(0, max, 1), 249, Fork::Byzantium),
            7_378_697_629_483_820_645
        );
        let l = Lengths {
            exp_wide: 5 << 63, // 2.5 2^64: 8 (2^65 5/4 - 32) / 20 < 2^64 still
            ..lengths(0, max, 1)
        };
        assert_eq!(
            u128::from(price(&l, 0, Fork::Byzantium)),
            8 * ((5u128 << 63) - 32) / 20
        );
        let l = Lengths {
            exp_wide: u128::MAX,
            ..lengths(0, max, 0)
        };
        assert_eq!(price(&l, 0, Fork::Byzantium), 0);
        // Just below and above u64::MAX under Berlin: words^2 i / 3 with words = 2^32 - 1.
        let x = 8 * ((1u64 << 32) - 1);
        let w2 = ((1u128 << 32) - 1).pow(2);
        let i = 3u128; // exp_len 1, head 0b1000 -> index 3
        assert_eq!(
            u128::from(price(&lengths(x, 1, 0), 4, Fork::Berlin)),
            w2 * i / 3
        );
        assert_eq!(price(&lengths(x, 40, 0), 4, Fork::Berlin), max);
    }
}
