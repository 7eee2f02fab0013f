//! `modred pow`: B^E mod M with a chosen exponentiation method and reducer.
//!
//! With `--reducer auto` and `--method auto`, a modulus below 2^64 takes the single-word path
//! (`modred::word`: the Montgomery product of Bloemen, *Montgomery multiplication*, 2014);
//! larger ones take `modred::exp`'s default.

use crate::cli_common::{parse_number, parse_signed, CliError, Common, Signed};
use clap::Args as ClapArgs;
use modred::exp::{self, Method, PowOptions};
use modred::{Natural, ReducerKind};
use std::process::ExitCode;

/// Exponentiation options shared by `pow` and `batch`.
#[derive(ClapArgs, Debug, Clone)]
pub struct PowFlags {
    /// Exponentiation method (see `modred methods`).
    #[arg(long, short = 'M', default_value = "auto", value_name = "NAME")]
    pub method: String,
    /// Window bits (window, sliding, ct) or comb teeth; default picks by size.
    #[arg(long, short = 'w', value_name = "W")]
    pub window: Option<usize>,
    /// Worker threads (fixed-base method).
    #[arg(long, short = 't', value_name = "N")]
    pub threads: Option<usize>,
}

impl PowFlags {
    /// Validated options for `reducer`.
    pub fn options(&self, reducer: ReducerKind) -> Result<PowOptions, CliError> {
        let opts = PowOptions {
            method: Method::from_name(&self.method)?,
            reducer,
            window: self.window,
            threads: self.threads,
        };
        opts.validate()?;
        Ok(opts)
    }
}

/// Arguments of `modred pow`.
#[derive(ClapArgs, Debug)]
pub struct PowArgs {
    #[command(flatten)]
    pub common: Common,
    #[command(flatten)]
    pub flags: PowFlags,
    /// The base.
    #[arg(allow_negative_numbers = true)]
    pub b: String,
    /// The exponent; a negative one raises the inverse of B (Python's `pow`).
    #[arg(allow_negative_numbers = true)]
    pub e: String,
    /// The modulus (> 0).
    #[arg(allow_negative_numbers = true)]
    pub m: String,
}

/// B^E mod M by the options (the library's one-off dispatcher picks the path). A negative E
/// raises the inverse of B (Python's `pow`): an error when B has none modulo M.
pub fn pow(b: &Natural, e: &Signed, m: &Natural, opts: &PowOptions) -> Result<Natural, CliError> {
    Ok(exp::pow_signed_exp_vartime(b, &e.mag, e.negative, m, opts)?)
}

pub fn run(a: PowArgs) -> Result<ExitCode, CliError> {
    let opts = a.flags.options(a.common.reducer)?;
    let b = parse_number("B", &a.b)?;
    let e = parse_signed("E", &a.e)?;
    let m = parse_number("M", &a.m)?;
    let r = pow(&b, &e, &m, &opts)?;
    a.common.print(&r)?;
    Ok(ExitCode::SUCCESS)
}
