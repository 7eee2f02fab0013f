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
//! materialised only after the size checks. Exponentiation goes through modred's fastest
//! paths: the one-word Montgomery / Barrett kernels for 64-bit moduli, the fused Montgomery
//! kernels (MULX/ADX, AVX-512 IFMA) for odd moduli, the CRT split of `crate::exp::even`
//! for even ones. Variable time, without the `_vartime` suffix: MODEXP's inputs are public by
//! protocol (every node re-executes the call).

pub mod schedule;

use crate::arith;
use crate::exp::{even::EvenCtx, sliding};
use crate::limb::Limb;
use crate::natural::Natural;
use crate::reduce::auto::{self, Workload};
use crate::reduce::classical::Classical;
use crate::reduce::ReducerKind;
use crate::tuning;
use crate::word::{Barrett64, Monty64};
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
    Ok(execute(input, &l))
}

/// [`modexp`] and [`gas`] together: `(output, gas)`.
/// Leaks: as [`modexp`] and [`gas`].
pub fn run(input: &[u8], fork: Fork) -> Result<(Vec<u8>, u64), EvmError> {
    let l = Lengths::decode(input);
    l.check(input, fork)?;
    let price = l.check_price(input, fork)?;
    l.check_memory(input)?;
    Ok((execute(input, &l), price))
}

/// The output for lengths `l` that passed the fork's checks.
fn execute(input: &[u8], l: &Lengths) -> Vec<u8> {
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
        pow_be(base, exp, m_bytes, m_zeros, &mut out);
    }
    out
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

/// `base^exp mod m` into `out` (big-endian, `out.len() >= ` the bytes of m), with
/// `m = m_bytes 256^m_zeros > 0` (`m_bytes` without leading zeros, non-empty).
/// Leaks: variable time (public operands): the sizes choose the path, each path is variable time.
fn pow_be(base: &[u8], exp: &[u8], m_bytes: &[u8], m_zeros: usize, out: &mut [u8]) {
    let m = limbs_be(m_bytes, m_zeros);
    debug_assert!(m.last().is_some_and(|&t| t != 0));
    if m == [1] {
        return; // everything is 0 mod 1
    }
    let exp = limbs_be(strip(exp), 0);
    if exp.is_empty() {
        // b^0 = 1 (0^0 too), and m > 1.
        if let Some(last) = out.last_mut() {
            *last = 1;
        }
        return;
    }
    let mut b = limbs_be(strip(base), 0);
    if arith::cmp(&b, &m).is_ge() {
        b = arith::rem_vartime(&b, &m);
    }
    let b = arith::trim(&b);
    if b.len() <= 1 && b.first().copied().unwrap_or(0) <= 1 {
        // 0^e = 0 and 1^e = 1 for e > 0.
        write_be(b, out);
        return;
    }
    let x = if let [m0] = m[..] {
        vec![pow_word(b[0], &exp, m0)]
    } else if binary_products(&exp) <= tuning::EVM_CLASSICAL_MAX_PRODUCTS {
        pow_classical(b, &exp, &m)
    } else if m[0] & 1 == 1 {
        pow_odd(b, &exp, &m)
    } else {
        pow_even(b, &exp, &m)
    };
    write_be(&x, out);
}

/// `b^e mod m` for one-word `m >= 2`, `b < m`: the one-word Montgomery product of Bloemen,
/// *Montgomery multiplication*, 2014, for odd m, Möller–Granlund Barrett for even m
/// ([`crate::word`]), right to left over the exponent's limbs.
/// Leaks: variable time (public operands): the exponent's bits (a multiplication per set bit).
fn pow_word(b: Limb, e: &[Limb], m: Limb) -> Limb {
    if m & 1 == 1 {
        let c = Monty64::new(m).expect("odd m >= 3");
        c.from_monty(pow_limbs(
            |x, y| c.mul_unchecked(x, y),
            c.one(),
            c.to_monty(b),
            e,
        ))
    } else {
        let c = Barrett64::new(m).expect("m >= 2");
        pow_limbs(|x, y| c.mul_unchecked(x, y), 1, b, e)
    }
}

/// Right-to-left binary exponentiation over a multi-limb exponent: `one * base^e` in the
/// representation `mul` works in (residues below m stay below m). Polls [`crate::cancel`]
/// every 4096 bits (a cancelled result is meaningless).
/// Leaks: variable time (public operands): the exponent's bits (a multiplication per set bit).
#[inline(always)]
fn pow_limbs(mul: impl Fn(Limb, Limb) -> Limb, one: Limb, base: Limb, e: &[Limb]) -> Limb {
    let (mut acc, mut sq) = (one, base);
    let bits = arith::bit_len(e);
    for i in 0..bits {
        if i % 4096 == 0 && crate::cancel::requested() {
            break;
        }
        if arith::bit(e, i) {
            acc = mul(acc, sq);
        }
        if i + 1 < bits {
            sq = mul(sq, sq);
        }
    }
    acc
}

/// Products (squarings and multiplications) of a left-to-right binary exponentiation by `e`.
fn binary_products(e: &[Limb]) -> usize {
    let ones: usize = e.iter().map(|l| l.count_ones() as usize).sum();
    arith::bit_len(e) - 1 + ones - 1
}

/// `b^e mod m` for any m of k >= 2 limbs, `b < m` (trimmed, > 1): left-to-right binary with
/// products of the operands' own lengths and Knuth's division (the `classical` reducer's
/// remainder): no precomputation, for exponents too short to repay a Montgomery context or
/// the CRT split of an even modulus. Returns k limbs. Polls [`crate::cancel`] (a cancelled
/// result is meaningless).
/// Leaks: variable time (public operands): the exponent's bits, the products' lengths and
/// Knuth division.
fn pow_classical(b: &[Limb], e: &[Limb], m: &[Limb]) -> Vec<Limb> {
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
    work
}

/// `b^e mod m` for odd m of k >= 2 limbs, `b < m` (k limbs out): the fused sliding-window
/// kernels of the reducer `auto` picks.
/// Leaks: variable time (public operands): the sliding window follows the exponent.
fn pow_odd(b: &[Limb], e: &[Limb], m: &[Limb]) -> Vec<Limb> {
    let r = (auto::choose(m, Workload::Repeated).build)(m, crate::cpu::tier()).expect("m odd, > 1");
    let mut base = b.to_vec();
    base.resize(m.len(), 0);
    sliding::pow(&*r, &base, e, window(e))
}

/// `b^e mod m` for even m of k >= 2 limbs, `b < m` (trimmed): the Chinese remainder theorem
/// over m = m_odd 2^t, as [`EvenCtx`] (which serves t > 64) but in single words for the power
/// of two: x2 = b^e mod 2^t, x1 = b^e mod m_odd, x = x1 + m_odd ((x2 - x1) m_odd^{-1} mod 2^t).
/// Leaks: variable time (public operands): as its two halves'.
fn pow_even(b: &[Limb], e: &[Limb], m: &[Limb]) -> Vec<Limb> {
    let t = m[0].trailing_zeros() as usize + 64 * m.iter().take_while(|&&l| l == 0).count();
    if t > 64 {
        return pow_even_ctx(b, e, m);
    }
    let mut m_odd = m[t / 64..].to_vec();
    arith::shr_in_place(&mut m_odd, (t % 64) as u32);
    let m_odd = arith::trim(&m_odd);
    let x2 = pow_2t(b.first().copied().unwrap_or(0), e, t as u32);
    if m_odd == [1] {
        return vec![x2];
    }
    let x1 = pow_residue(b, e, m_odd);
    // y = (x2 - x1) m_odd^{-1} mod 2^t; m_odd^{-1} mod 2^64 from Newton's iteration.
    let inv = crate::limb::neg_inv_newton(m_odd[0]).wrapping_neg();
    let y = x2.wrapping_sub(x1[0]).wrapping_mul(inv) & low_bits(t as u32);
    // x = x1 + m_odd y < m_odd 2^t = m.
    let kx = m_odd.len();
    let mut x = vec![0 as Limb; kx + 1];
    x[kx] = arith::mul_1(&mut x[..kx], m_odd, y);
    let carry = arith::add_in_place(&mut x, &x1);
    debug_assert_eq!(carry, 0);
    debug_assert!(arith::cmp(&x, m).is_lt());
    x
}

/// Mask of the low `t <= 64` bits.
fn low_bits(t: u32) -> Limb {
    if t >= 64 {
        Limb::MAX
    } else {
        (1 << t) - 1
    }
}

/// `b^e mod 2^t` for 1 <= t <= 64 and `e > 0` (trimmed): wrapping single-word products. An odd b
/// lies in the unit group of order 2^(t-1), so only e mod 2^(t-1) matters; an even b with
/// e v >= t (v = the twos in b mod 2^t) gives 0.
/// Leaks: variable time (public operands): the base's parity and twos, the exponent's bits.
fn pow_2t(b: Limb, e: &[Limb], t: u32) -> Limb {
    let mask = low_bits(t);
    let b = b & mask;
    let e_low = if b & 1 == 1 {
        e[0] & low_bits(t - 1)
    } else if b == 0 || e.len() > 1 || e[0] >= u64::from(t.div_ceil(b.trailing_zeros())) {
        // b^e has at least e v >= t factors of two (v = trailing zeros of b; none left for 0).
        return 0;
    } else {
        e[0]
    };
    pow_limbs(Limb::wrapping_mul, 1, b, &[e_low]) & mask
}

/// `b^e mod m` (k' limbs out) for odd m >= 3 of any size and any `b` below 2^(64 k) with
/// k >= k' limbs: reduces b, then the one-word, classical or Montgomery path.
/// Leaks: variable time (public operands): a division, the sizes choose the path.
fn pow_residue(b: &[Limb], e: &[Limb], m: &[Limb]) -> Vec<Limb> {
    let reduced;
    let b = if arith::cmp(b, m).is_ge() {
        reduced = arith::rem_vartime(b, m);
        arith::trim(&reduced)
    } else {
        b
    };
    if let [m0] = m[..] {
        return vec![pow_word(b.first().copied().unwrap_or(0), e, m0)];
    }
    if b.is_empty() {
        return vec![0; m.len()];
    }
    if binary_products(e) <= tuning::EVM_CLASSICAL_MAX_PRODUCTS {
        pow_classical(b, e, m)
    } else {
        pow_odd(b, e, m)
    }
}

/// `b^e mod m` for even m with more than 64 trailing zero bits: [`EvenCtx`].
/// Leaks: variable time (public operands): as [`EvenCtx`]'s.
fn pow_even_ctx(b: &[Limb], e: &[Limb], m: &[Limb]) -> Vec<Limb> {
    let ctx = EvenCtx::new(
        &Natural::from_slice(m),
        ReducerKind::Auto,
        crate::cpu::tier(),
    )
    .expect("m even, > 1");
    let w = window(e);
    ctx.pow(
        &Natural::from_slice(b),
        &Natural::from_slice(e),
        &|r, b, e| Ok(sliding::pow(r, b, e, w)),
    )
    .expect("sliding windows of at most 7 bits: no table too large")
    .limbs()
    .to_vec()
}

/// The sliding window for exponent `e`.
fn window(e: &[Limb]) -> usize {
    tuning::sliding_window_bits(arith::bit_len(e))
}
