//! The Ethereum MODEXP precompile (address 0x05): exact EIP-198 semantics, the gas of every
//! schedule, and modred's fastest exponentiation behind it.
//!
//! Input (EIP-198): three 32-byte big-endian lengths `base_len`, `exp_len`, `mod_len`, then
//! the base, exponent and modulus as big-endian numbers of those lengths. The input is read
//! as if right-padded with zero bytes forever; bytes past the three numbers are ignored. The
//! output is `base^exp mod modulus` as exactly `mod_len` big-endian bytes (all zero when the
//! modulus is 0; empty when `mod_len` is 0).
//!
//! - [`gas`]: the price under a [`Fork`]'s schedule ([`schedule`]: EIP-198, EIP-2565,
//!   EIP-7883), without touching the numbers; clients charge it before executing.
//! - [`modexp`]: the output. [`Fork::Osaka`] also enforces EIP-7823: a length over
//!   [`OSAKA_MAX_LEN`] (1024) bytes fails, as it fails the call (all gas consumed).
//! - [`run`]: both, decoding once.
//!
//! Decoding never allocates a declared length: each number is read from the bytes present
//! (a length of 2^255 costs nothing), and a modulus cut short by the end of the input is
//! materialised only after the size checks. Exponentiation is the one-off dispatcher's
//! (`exp::pow_vartime` with the default options: the one-word kernels for 64-bit moduli,
//! products and division for the shortest exponents, the fused Montgomery kernels (MULX/ADX,
//! AVX-512 IFMA) for odd moduli, the CRT split for even ones). Variable time, without the
//! `_vartime` suffix: MODEXP's inputs are public by protocol (every node re-executes the call).

pub mod schedule;

use crate::arith;
use crate::error::Error;
use crate::exp;
use crate::limb::Limb;
use crate::natural::Natural;
use core::fmt;
use core::str::FromStr;
use thiserror::Error;

/// The largest `base_len`, `exp_len` or `mod_len` [`Fork::Osaka`] accepts (EIP-7823).
pub const OSAKA_MAX_LEN: u64 = 1024;

/// The most gas an input may cost under the uncapped schedules ([`Fork::Byzantium`],
/// [`Fork::Berlin`]) for [`modexp`] to execute it: 2^32, over 70 blocks of 60 million gas.
/// Clients charge [`gas`] first and never execute what the caller cannot pay for; the bound
/// keeps a direct call from running for minutes or allocating without limit on an input no
/// block can pay for (a 2^32-gas input takes at most seconds: under both schedules the gas
/// grows at least as the squared modulus length times the exponent bits, which is the work).
pub const MAX_EXECUTED_GAS: u64 = 1 << 32;

/// Bytes of each length word.
const WORD: u64 = 32;
/// Bytes of the three length words.
const HEADER: u64 = 3 * WORD;

/// A gas schedule and its length rules: the fork that introduced them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Fork {
    /// EIP-198's price (Byzantium through Istanbul): `floor(mult_complexity(x) * max(adjusted
    /// exponent length, 1) / 20)`.
    Byzantium,
    /// EIP-2565 (Berlin through Prague): `max(200, floor(ceil(x/8)^2 * iterations / 3))`.
    Berlin,
    /// EIP-7883 and EIP-7823 (Osaka onward): `max(500, complexity * iterations)` with 16
    /// iterations per exponent byte past 32, and every length at most 1024 bytes.
    #[default]
    Osaka,
}

impl Fork {
    /// Every fork, oldest first.
    pub const ALL: [Fork; 3] = [Fork::Byzantium, Fork::Berlin, Fork::Osaka];

    /// The lowercase name (`byzantium`, `berlin`, `osaka`).
    pub fn name(self) -> &'static str {
        match self {
            Fork::Byzantium => "byzantium",
            Fork::Berlin => "berlin",
            Fork::Osaka => "osaka",
        }
    }

    /// The fork called `name` (case-insensitive).
    pub fn from_name(name: &str) -> Result<Fork, EvmError> {
        Fork::ALL
            .into_iter()
            .find(|f| f.name().eq_ignore_ascii_case(name))
            .ok_or_else(|| EvmError::UnknownFork(name.to_string()))
    }

    /// Whether EIP-7823 caps the lengths.
    fn caps_lengths(self) -> bool {
        self == Fork::Osaka
    }
}

impl fmt::Display for Fork {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Fork {
    type Err = EvmError;
    fn from_str(s: &str) -> Result<Fork, EvmError> {
        Fork::from_name(s)
    }
}

/// Why an input is refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum EvmError {
    /// EIP-7823 ([`Fork::Osaka`]): a length over [`OSAKA_MAX_LEN`] bytes. The call fails and
    /// consumes all its gas.
    #[error("{field} length {len} is over the {limit}-byte limit of EIP-7823 (osaka)")]
    LengthOverLimit {
        /// `base`, `exponent` or `modulus`.
        field: &'static str,
        /// The declared length, in decimal (up to 2^256 - 1).
        len: String,
        /// [`OSAKA_MAX_LEN`].
        limit: u64,
    },
    /// The input costs more than [`MAX_EXECUTED_GAS`] under a schedule without length caps:
    /// no block can pay for it, so [`modexp`] does not execute it.
    #[error("input costs {gas} gas under {fork}, over the {limit} modred executes (no block can pay for it)")]
    GasOverLimit {
        /// The price ([`gas`], saturated at 2^64 - 1).
        gas: u64,
        /// The schedule.
        fork: Fork,
        /// [`MAX_EXECUTED_GAS`].
        limit: u64,
    },
    /// The computation's working memory cannot be reserved (an address-space limit).
    #[error("the computation needs {bytes} bytes of memory, more than can be reserved")]
    TooLarge {
        /// The bytes it needs.
        bytes: u128,
    },
    /// [`Fork::from_name`] of an unknown name.
    #[error("unknown fork '{0}' (expected byzantium, berlin or osaka)")]
    UnknownFork(String),
}

/// The three declared lengths, each saturated at `u64::MAX` (2^64 bytes or more lie past any
/// input), and the exponent's once more, saturated at `u128::MAX`, for the price: a base or
/// modulus length of 2^64 prices beyond 2^64 gas under every schedule, but an exponent
/// length between 2^64 and 2.5 2^64 with a one-byte base and modulus does not under EIP-198's
/// (`8 (exp_len - 32) / 20`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Lengths {
    base: u64,
    exp: u64,
    modulus: u64,
    exp_wide: u128,
}

impl Lengths {
    /// Whether the working memory of [`execute`] can be reserved: an exponentiation over the
    /// modulus or the base (the bytes present in the input), whichever is longer, plus copies
    /// of the base and exponent.
    fn check_memory(&self, input: &[u8]) -> Result<(), EvmError> {
        let base = present(input, HEADER, self.base).len();
        let exp = present(input, self.exp_offset(), self.exp).len();
        let limbs = (self.modulus as usize).max(base) / 8 + 1;
        let extra = (base + exp) / 8 + 1;
        crate::alloc::ensure_work(crate::alloc::Work::Power, limbs, extra).map_err(|e| {
            // ensure_work fails only with TooLarge.
            let bytes = match e {
                crate::error::Error::TooLarge { bytes, .. } => bytes,
                _ => 0,
            };
            EvmError::TooLarge { bytes }
        })
    }
}

/// The bytes of `input[offset..offset + len]` that exist; the rest reads as zeros.
fn present(input: &[u8], offset: u64, len: u64) -> &[u8] {
    let end = input.len() as u64;
    let start = offset.min(end) as usize;
    let stop = offset.saturating_add(len).min(end) as usize;
    &input[start..stop]
}

/// Big-endian bytes without their leading zeros.
fn strip(bytes: &[u8]) -> &[u8] {
    let first = bytes.iter().position(|&b| b != 0).unwrap_or(bytes.len());
    &bytes[first..]
}

/// Length word `i` (0 base, 1 exponent, 2 modulus) as its full 32 bytes.
fn length_word(input: &[u8], i: u64) -> [u8; 32] {
    let mut w = [0u8; 32];
    let p = present(input, i * WORD, WORD);
    w[..p.len()].copy_from_slice(p);
    w
}

impl Lengths {
    fn decode(input: &[u8]) -> Self {
        let len = |i| {
            let w = length_word(input, i);
            if w[..24].iter().any(|&b| b != 0) {
                u64::MAX
            } else {
                u64::from_be_bytes(w[24..].try_into().expect("8 bytes"))
            }
        };
        let e = length_word(input, 1);
        let exp_wide = if e[..16].iter().any(|&b| b != 0) {
            u128::MAX
        } else {
            u128::from_be_bytes(e[16..].try_into().expect("16 bytes"))
        };
        Lengths {
            base: len(0),
            exp: len(1),
            modulus: len(2),
            exp_wide,
        }
    }

    /// EIP-7823 under `fork`: every length at most [`OSAKA_MAX_LEN`].
    fn check(&self, input: &[u8], fork: Fork) -> Result<(), EvmError> {
        if !fork.caps_lengths() {
            return Ok(());
        }
        let fields = [
            ("base", self.base),
            ("exponent", self.exp),
            ("modulus", self.modulus),
        ];
        for (i, (field, len)) in fields.into_iter().enumerate() {
            if len > OSAKA_MAX_LEN {
                return Err(EvmError::LengthOverLimit {
                    field,
                    len: Natural::from_be_bytes(&length_word(input, i as u64)).to_string(),
                    limit: OSAKA_MAX_LEN,
                });
            }
        }
        Ok(())
    }

    fn exp_offset(&self) -> u64 {
        HEADER.saturating_add(self.base)
    }

    fn mod_offset(&self) -> u64 {
        self.exp_offset().saturating_add(self.exp)
    }

    /// The bit length of the exponent's first `min(32, exp_len)` bytes.
    fn head_bits(&self, input: &[u8]) -> u32 {
        let head_len = self.exp.min(WORD);
        let p = present(input, self.exp_offset(), head_len);
        match p.iter().position(|&b| b != 0) {
            // The missing bytes after p are zeros: they count as low bits.
            Some(i) => (head_len as u32 - i as u32) * 8 - p[i].leading_zeros(),
            None => 0,
        }
    }

    fn price(&self, input: &[u8], fork: Fork) -> u64 {
        schedule::price(self, self.head_bits(input), fork)
    }

    /// The price, or [`EvmError::GasOverLimit`] above [`MAX_EXECUTED_GAS`] for the uncapped
    /// schedules.
    fn check_price(&self, input: &[u8], fork: Fork) -> Result<u64, EvmError> {
        let price = self.price(input, fork);
        if !fork.caps_lengths() && price > MAX_EXECUTED_GAS {
            return Err(EvmError::GasOverLimit {
                gas: price,
                fork,
                limit: MAX_EXECUTED_GAS,
            });
        }
        Ok(price)
    }
}

/// The gas of `input` under `fork` (saturated at `u64::MAX`; exact whenever below it).
/// Errors: [`EvmError::LengthOverLimit`] under [`Fork::Osaka`]. Reads only the lengths and
/// the exponent's first 32 bytes.
/// Leaks: variable time (public operands): the lengths and the exponent head's bit length.
pub fn gas(input: &[u8], fork: Fork) -> Result<u64, EvmError> {
    let l = Lengths::decode(input);
    l.check(input, fork)?;
    Ok(l.price(input, fork))
}

/// The precompile's output for `input` under `fork`: `base^exp mod modulus` as exactly
/// `mod_len` big-endian bytes (zeros for a zero modulus). Errors:
/// [`EvmError::LengthOverLimit`] under [`Fork::Osaka`]; [`EvmError::GasOverLimit`] for an
/// input costing more than [`MAX_EXECUTED_GAS`] under the other schedules.
/// Leaks: variable time (public operands): the path and every step depend on the numbers.
pub fn modexp(input: &[u8], fork: Fork) -> Result<Vec<u8>, EvmError> {
    let l = Lengths::decode(input);
    l.check(input, fork)?;
    if !fork.caps_lengths() {
        l.check_price(input, fork)?;
    }
    l.check_memory(input)?;
    execute(input, &l)
}

/// [`modexp`] and [`gas`] together: `(output, gas)`.
/// Leaks: as [`modexp`] and [`gas`].
pub fn run(input: &[u8], fork: Fork) -> Result<(Vec<u8>, u64), EvmError> {
    let l = Lengths::decode(input);
    l.check(input, fork)?;
    let price = l.check_price(input, fork)?;
    l.check_memory(input)?;
    Ok((execute(input, &l)?, price))
}

/// The output for lengths `l` that passed the fork's checks.
fn execute(input: &[u8], l: &Lengths) -> Result<Vec<u8>, EvmError> {
    // Every length is now below 2^21 bytes: Osaka's cap, or the price bound (Berlin
    // ceil(x/8)^2 / 3 <= 2^32 gives x < 2^20; Byzantium x^2 / 320 <= 2^32, x < 2^21).
    let mut out = vec![0u8; l.modulus as usize];
    let modulus = present(input, l.mod_offset(), l.modulus);
    let m_bytes = strip(modulus);
    if !m_bytes.is_empty() {
        // The modulus starts inside the input, so the base and the exponent lie wholly in it.
        let base = present(input, HEADER, l.base);
        let exp = present(input, l.exp_offset(), l.exp);
        debug_assert_eq!((base.len() as u64, exp.len() as u64), (l.base, l.exp));
        // A modulus cut short by the end of the input ends in zero bytes.
        let m_zeros = (l.modulus - modulus.len() as u64) as usize;
        let m = Natural::from_limbs(limbs_be(m_bytes, m_zeros));
        let x = exp::pow_auto_reserved_vartime(
            &Natural::from_limbs(limbs_be(strip(base), 0)),
            &Natural::from_limbs(limbs_be(strip(exp), 0)),
            &m,
        )
        .map_err(|e| match e {
            Error::TooLarge { bytes, .. } => EvmError::TooLarge { bytes },
            // m > 0 (strip left a byte), and `check_memory` reserved the working memory: a
            // reducer's own trial is the only way left to fail.
            other => unreachable!("MODEXP on a non-zero modulus: {other}"),
        })?;
        write_be(x.limbs(), &mut out);
    }
    Ok(out)
}

/// Limbs of the big-endian `bytes` followed by `zeros` zero bytes, least significant first.
fn limbs_be(bytes: &[u8], zeros: usize) -> Vec<Limb> {
    let total = bytes.len() + zeros;
    let mut limbs = vec![0 as Limb; total.div_ceil(8)];
    if zeros.is_multiple_of(8) {
        // Whole limbs from the end, eight bytes at a time.
        let limbs = &mut limbs[zeros / 8..];
        let mut chunks = bytes.rchunks_exact(8);
        for (l, c) in limbs.iter_mut().zip(&mut chunks) {
            *l = Limb::from_be_bytes(c.try_into().expect("8 bytes"));
        }
        let top = chunks.remainder();
        if !top.is_empty() {
            limbs[bytes.len() / 8] = top.iter().fold(0, |x, &b| x << 8 | Limb::from(b));
        }
    } else {
        for (i, &b) in bytes.iter().rev().enumerate() {
            let at = i + zeros;
            limbs[at / 8] |= Limb::from(b) << (8 * (at % 8));
        }
    }
    limbs
}

/// `x` (limbs, `x < 256^out.len()`) as big-endian bytes filling `out` (which is zeroed).
fn write_be(x: &[Limb], out: &mut [u8]) {
    debug_assert!(arith::bit_len(x).div_ceil(8) <= out.len());
    let mut chunks = out.rchunks_exact_mut(8);
    let mut limbs = x.iter();
    for (c, &l) in (&mut chunks).zip(&mut limbs) {
        c.copy_from_slice(&l.to_be_bytes());
    }
    let top = chunks.into_remainder();
    if let Some(&l) = limbs.next() {
        let n = top.len();
        top.copy_from_slice(&l.to_be_bytes()[8 - n..]);
    }
}
