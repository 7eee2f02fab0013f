//! Batch exponentiation over all cores with rayon: many (base, exponent) pairs under one
//! modulus whose context is built once ([`pow_many_vartime`]), and many independent triples
//! ([`pow_batch_vartime`]). Under [`crate::cancel::with_flag`] the workers see the caller's flag: once
//! it is set, the items not yet started give [`Error::Cancelled`] at once.

use super::{pow_vartime, Modulus, PowOptions};
use crate::cancel::{self, Token};
use crate::error::{Error, Result};
use crate::natural::Natural;
use rayon::prelude::*;

/// `f()` on a worker, under the caller's cancellation `token`; [`Error::Cancelled`] without
/// running it once cancelled.
fn item(token: Token, f: impl FnOnce() -> Result<Natural>) -> Result<Natural> {
    token.install(|| {
        if cancel::requested() {
            Err(Error::Cancelled)
        } else {
            f()
        }
    })
}

/// `b^e mod m` for every pair, sharing the context `m`, in parallel.
/// Leaks: variable time, as [`Modulus::pow_vartime`] with the default options.
pub fn pow_many_vartime(m: &Modulus, pairs: &[(Natural, Natural)]) -> Vec<Result<Natural>> {
    let opts = PowOptions::default();
    let token = Token::current();
    pairs
        .par_iter()
        .map(|(b, e)| item(token, || m.pow_vartime(b, e, &opts)))
        .collect()
}

/// `b^e mod m` for every independent triple (b, e, m), in parallel, with default options.
/// Leaks: variable time, as [`pow_vartime`] with the default options.
pub fn pow_batch_vartime(triples: &[(Natural, Natural, Natural)]) -> Vec<Result<Natural>> {
    let opts = PowOptions::default();
    let token = Token::current();
    triples
        .par_iter()
        .map(|(b, e, m)| item(token, || pow_vartime(b, e, m, &opts)))
        .collect()
}
