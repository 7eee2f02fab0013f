//! # modred — fast multi-precision modular reduction, multiplication and exponentiation
//!
//! Layers, bottom up; each uses only the layers before it in this list, and the modules of one
//! layer are independent of each other (the leaves [`error`] and `tuning` hold the error
//! type and every threshold):
//! - `count`, [`cancel`], `valgrind`: operation counters (feature `count`), cooperative
//!   cancellation, memcheck's client requests for the `ctgrind` build;
//! - `limb`: the digit type and single-precision primitives (the only place that multiplies
//!   or divides digits, so `count` can count every operation);
//! - `alloc` (checked allocation and working-memory trials) and [`cpu`] (the kernel tiers:
//!   portable, MULX/ADX, AVX-512 IFMA, detected once and capped by `MODRED_CPU`);
//! - `arith`: kernels on `&[Limb]` slices (add, sub, mul, Karatsuba, Toom, NTT, division);
//! - [`natural::Natural`]: an owned natural number with parsing, printing and conversions;
//! - `scan`: the exponentiation scans (sliding, binary, window, constant-time), generic over
//!   the arithmetic they run on; [`word`]: single-word moduli;
//! - [`reduce`]: every reduction method behind the [`reduce::Reducer`] interface, listed in
//!   [`reduce::REDUCERS`], with the fused kernels that run the scans on fixed sizes;
//! - [`exp`]: exponentiation methods over any reducer, and the [`exp::Modulus`] context;
//! - [`evm`]: the Ethereum MODEXP precompile (EIP-198 input, every gas schedule), and
//!   [`prime`]: probable-prime tests (Baillie–PSW, Miller–Rabin) and the prime search, over
//!   [`exp`];
//! - [`rsa`]: RSA private- and public-key operations (keys from PEM/DER, CRT with both halves
//!   in one pass, blinding, the fault check) and key generation (over [`prime`]).
//!
//! `tests/layers.rs` checks this order on the source. `limb`, `count`, `arith` and the asm
//! kernels (`adx4`, `adx_cios`, `adx_mont`, `ifma` under `reduce::montgomery`) are private to
//! the crate; the hidden `internals` feature makes the first three public, without any
//! stability promise, for the benches and the report crate (`modred-report`, which also holds
//! the operation-count child and Bloemen's benchmark loops). The API
//! is [`Modulus`] (with [`ReducerKind`] and [`exp::PowOptions`]), [`Natural`], [`Reducer`] for
//! the methods themselves, [`word`], [`evm`] and [`rsa`]; errors are [`Error`].
//!
//! ## Example
//!
//! ```
//! use modred::exp::PowOptions;
//! use modred::{Modulus, Natural, ReducerKind};
//!
//! # fn main() -> modred::Result<()> {
//! let m = Natural::parse("0xffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff61")?;
//! let md = Modulus::new(&m, ReducerKind::Auto)?; // built once, shared across threads
//! let (b, e) = (Natural::from(3u64), Natural::parse("65537")?);
//! let x = md.pow_vartime(&b, &e, &PowOptions::default())?; // fastest; time depends on e
//! let y = md.pow_ct(&b, &e)?; // constant time in the base and the exponent
//! assert_eq!(x, y);
//! assert_eq!(
//!     x.to_decimal()?,
//!     "54128599004952394019573613335979161018785071370609101223596118484763459026988"
//! );
//! # Ok(())
//! # }
//! ```
//!
//! Every kernel's documentation has a `Leaks:` line: what its running time depends on besides
//! the operand lengths (nothing, for the constant-time ones). Every public function and
//! inherent method whose time depends on operand values ends in `_vartime`, as in crypto-bigint;
//! constructors (the modulus is public here), trait methods, operators and [`evm`] carry no
//! suffix and say their timing in their docs.
//!
//! ## Errors and panics
//!
//! The checked entry points ([`Modulus`], the functions of [`exp`], [`Natural`]'s parsing and
//! conversions, the reducers' constructors, `word::{pow_mod, mul_mod, inv_mod,
//! residue}_vartime`, [`evm`]) answer a bad value the caller chose (a zero or even modulus
//! where it cannot be, a window, a table shape, `exp_bits`, bad bytes, a size that grows with
//! the input, a cancellation) with an [`Error`] ([`evm`]: an `EvmError`), never a panic.
//! The raw kernels beneath them (a [`Reducer`]'s products on `k`-limb slices, the products of
//! `word::Monty64` and `word::Barrett64` on residues, the `word::divq` kernels) state
//! preconditions; a call that breaks one panics with a message naming the kernel, as the
//! standard library's slice methods do, instead of reading the operand as another number. The
//! exponentiation loops call unchecked forms, so a check costs one branch per call, not per
//! product.
//!
//! ## References
//!
//! The sources behind the kernels. A file's comments cite a paper once in long form (authors,
//! title, venue) and after that by the short name in the first column, with the section,
//! algorithm, figure or table meant:
//!
//! | Cited as | Reference |
//! | --- | --- |
//! | Bosselaers et al. 1993 | A. Bosselaers, R. Govaerts, J. Vandewalle, "Comparison of three modular reduction functions", *Advances in Cryptology — CRYPTO '93*, LNCS 773, Springer, 1994, pp. 175–186 (classical, Barrett, Montgomery; operation counts) |
//! | Lim–Hwang–Lee 1997 | C. H. Lim, H. S. Hwang, P. J. Lee, "Fast Modular Reduction With Precomputation", *Proceedings of the Korea–Japan Joint Workshop on Information Security and Cryptology (JW-ISC '97)*, 1997 (table methods, L1/L2, diminished radix) |
//! | Koç–Acar–Kaliski 1996 | Ç. K. Koç, T. Acar, B. S. Kaliski Jr., "Analyzing and Comparing Montgomery Multiplication Algorithms", *IEEE Micro* 16(3), 1996, pp. 26–33 (SOS, CIOS, FIOS, FIPS, CIHS) |
//! | Bloemen 2014 | R. Bloemen, "Montgomery multiplication", web article, 2014 (single-word Montgomery against `divq`) |
//! | Prots'ko–Gryshchuk 2024 | I. Prots'ko, O. Gryshchuk, "The implementation of Montgomery modular reduction to speed up of modular exponentiation", *CMIS-2024: Seventh International Workshop on Computer Modeling and Intelligent Systems*, CEUR Workshop Proceedings, 2024 (radix-2 Montgomery, fixed-base exponentiation) |
//! | HAC | A. J. Menezes, P. C. van Oorschot, S. A. Vanstone, *Handbook of Applied Cryptography*, CRC Press, 1996, chapter 14 (sliding windows, Algorithm 14.85) |

// Kernels follow the papers' indexed pseudocode (t[i+j], a[j]*b[i]); keep the indices visible.
#![allow(clippy::needless_range_loop)]
// Every unsafe operation sits in its own block with the reason it is sound.
#![deny(unsafe_op_in_unsafe_fn, clippy::undocumented_unsafe_blocks)]

/// `match n { K => body, ... }` over the listed sizes, with `K` a `const usize` in `body`:
/// one monomorphised copy of a const-generic fixed-size kernel per size; `default` otherwise.
macro_rules! const_dispatch {
    ($n:expr; $K:ident in [$($k:literal),+ $(,)?] => $body:expr; else $default:expr) => {
        match $n {
            $($k => {
                const $K: usize = $k;
                $body
            })+
            _ => $default,
        }
    };
}

pub(crate) mod alloc;
pub mod cancel;

// Crate-private modules, public (and `#[doc(hidden)]`, without any stability promise) only with
// the `internals` feature, which the benches, the operation-count tests and the CLI's report use.
// Written out, not generated by a macro: rustfmt does not follow modules declared in one.
#[cfg(feature = "internals")]
#[doc(hidden)]
pub mod arith;
#[cfg(not(feature = "internals"))]
#[allow(dead_code, unused_imports)]
pub(crate) mod arith;
#[cfg(feature = "internals")]
#[doc(hidden)]
pub mod count;
#[cfg(not(feature = "internals"))]
#[allow(dead_code, unused_imports)]
pub(crate) mod count;
#[cfg(feature = "internals")]
#[doc(hidden)]
pub mod limb;
#[cfg(not(feature = "internals"))]
#[allow(dead_code, unused_imports)]
pub(crate) mod limb;
#[cfg(feature = "internals")]
#[doc(hidden)]
pub mod scan;
#[cfg(not(feature = "internals"))]
#[allow(dead_code, unused_imports)]
pub(crate) mod scan;
#[cfg(feature = "internals")]
#[doc(hidden)]
pub mod tuning;
#[cfg(not(feature = "internals"))]
#[allow(dead_code, unused_imports)]
pub(crate) mod tuning;

pub mod cpu;
pub mod error;
pub mod evm;
pub mod exp;
pub mod natural;
pub mod prime;
pub mod reduce;
pub mod rsa;
#[cfg(feature = "internals")]
#[doc(hidden)]
pub mod valgrind;
pub mod word;

pub use error::{Error, Result};
pub use exp::Modulus;
pub use limb::Limb;
pub use natural::Natural;
pub use reduce::{Reducer, ReducerKind, REDUCERS};
