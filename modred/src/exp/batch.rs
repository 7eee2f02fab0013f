//! Batch exponentiation over all cores with rayon: many (base, exponent) pairs under one
//! modulus whose context is built once ([`pow_many`]), and many independent triples
//! ([`pow_batch`]).

use super::{pow, Modulus, PowOptions};
use crate::error::Result;
use crate::natural::Natural;
use rayon::prelude::*;

/// `b^e mod m` for every pair, sharing the context `m`, in parallel.
pub fn pow_many(m: &Modulus, pairs: &[(Natural, Natural)]) -> Vec<Result<Natural>> {
    let opts = PowOptions::default();
    pairs.par_iter().map(|(b, e)| m.pow(b, e, &opts)).collect()
}

/// `b^e mod m` for every independent triple (b, e, m), in parallel, with default options.
pub fn pow_batch(triples: &[(Natural, Natural, Natural)]) -> Vec<Result<Natural>> {
    let opts = PowOptions::default();
    triples
        .par_iter()
        .map(|(b, e, m)| pow(b, e, m, &opts))
        .collect()
}
