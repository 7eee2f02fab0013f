//! The error type of every fallible modred operation.

use thiserror::Error;

/// Why an operation could not be carried out. Every message names the offending value or
/// restriction, so a CLI or Python user can act on it. New variants may be added.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum Error {
    /// The modulus is zero.
    #[error("modulus must be positive (got 0)")]
    ZeroModulus,
    /// A Montgomery-type method was given an even modulus.
    #[error("reducer '{reducer}' needs an odd modulus (Montgomery requires gcd(m, 2^64) = 1); reducers that accept even moduli: {accepting}")]
    EvenModulus {
        reducer: &'static str,
        accepting: String,
    },
    /// The argument is beyond the method's documented range.
    #[error("argument too large for reducer '{reducer}': {restriction}")]
    ArgumentTooLarge {
        reducer: &'static str,
        restriction: &'static str,
    },
    /// The modulus does not have the form a special-form reducer needs.
    #[error("reducer '{reducer}' cannot serve this modulus: {reason}")]
    UnsupportedModulus {
        reducer: &'static str,
        reason: String,
    },
    /// No reducer or method of that name.
    #[error("unknown {what} '{name}'; known: {known}")]
    UnknownName {
        what: &'static str,
        name: String,
        known: String,
    },
    /// Text that is not a natural number in decimal or 0x-hex.
    #[error("cannot parse '{text}' as a non-negative integer (decimal or 0x-hex): {reason}")]
    Parse { text: String, reason: &'static str },
    /// The element has no inverse modulo m (for negative exponents).
    #[error("base is not invertible modulo m (gcd(base, m) != 1)")]
    NotInvertible,
    /// A parameter (window size, thread count, ...) out of its range.
    #[error("invalid parameter: {0}")]
    InvalidParameter(String),
    /// A precomputation whose size grows with the operands needs more memory than can be
    /// reserved: `bytes` is what it needs.
    #[error("{what} needs {bytes} bytes of memory, more than can be reserved")]
    TooLarge {
        /// What would have been allocated (e.g. "table-residue's table").
        what: String,
        /// The bytes it needs.
        bytes: u128,
    },
    /// Worker threads could not be started (an address-space or thread limit); a later call
    /// tries again.
    #[error("cannot start worker threads: {0}")]
    Threads(String),
    /// The computation was cancelled through [`crate::cancel`] before it finished.
    #[error("cancelled")]
    Cancelled,
    /// An RSA key that cannot be parsed or fails validation ([`crate::rsa`]).
    #[error("invalid RSA key: {0}")]
    InvalidKey(String),
    /// An input outside the range an operation accepts (an RSA input not below n).
    #[error("input out of range: {0}")]
    InputOutOfRange(String),
    /// An RSA private-key result failed its check with the public exponent (a computation
    /// fault, or a key whose primes are not prime): nothing was returned.
    #[error("RSA private-key result failed the check with the public exponent (computation fault or inconsistent key); no result returned")]
    FaultDetected,
    /// The operating system's random number generator failed.
    #[error("the operating system's random number generator failed: {0}")]
    Randomness(String),
}

/// Result with modred's [`enum@Error`].
pub type Result<T> = core::result::Result<T, Error>;
