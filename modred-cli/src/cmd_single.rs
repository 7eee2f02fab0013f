//! `modred reduce` and `modred mulmod`: one operation, result on stdout.

use crate::cli_common::{context, parse_number, CliError, Common};
use clap::Args as ClapArgs;
use modred::reduce::auto::Workload;
use modred::{Natural, ReducerKind};
use std::process::ExitCode;

/// Arguments of `modred reduce`.
#[derive(ClapArgs, Debug)]
pub struct ReduceArgs {
    #[command(flatten)]
    pub common: Common,
    /// The number to reduce.
    #[arg(allow_negative_numbers = true)]
    pub x: String,
    /// The modulus (> 0).
    #[arg(allow_negative_numbers = true)]
    pub m: String,
}

/// Arguments of `modred mulmod`.
#[derive(ClapArgs, Debug)]
pub struct MulmodArgs {
    #[command(flatten)]
    pub common: Common,
    /// First factor.
    #[arg(allow_negative_numbers = true)]
    pub a: String,
    /// Second factor.
    #[arg(allow_negative_numbers = true)]
    pub b: String,
    /// The modulus (> 0).
    #[arg(allow_negative_numbers = true)]
    pub m: String,
}

pub fn run_reduce(a: ReduceArgs) -> Result<ExitCode, CliError> {
    let x = parse_number("X", &a.x)?;
    let m = parse_number("M", &a.m)?;
    let r = reduce(a.common.reducer, &x, &m)?;
    a.common.print(&r)?;
    Ok(ExitCode::SUCCESS)
}

/// X mod M by `reducer`; with `auto` one division, no context (`Natural::rem_vartime`).
pub fn reduce(reducer: ReducerKind, x: &Natural, m: &Natural) -> Result<Natural, CliError> {
    if reducer == ReducerKind::Auto {
        return Ok(x.rem_vartime(m)?);
    }
    let ctx = context(reducer, m, Workload::Single)?;
    Ok(ctx.try_reduce_vartime(x)?)
}

/// A*B mod M by `reducer`; with `auto` the product and one division, no context
/// (`exp::mul_mod_vartime`: single words for a one-limb M).
pub fn mulmod(
    reducer: ReducerKind,
    a: &Natural,
    b: &Natural,
    m: &Natural,
) -> Result<Natural, CliError> {
    if reducer == ReducerKind::Auto {
        return Ok(modred::exp::mul_mod_vartime(a, b, m)?);
    }
    let ctx = context(reducer, m, Workload::Single)?;
    Ok(ctx.mul_vartime(a, b)?)
}

pub fn run_mulmod(a: MulmodArgs) -> Result<ExitCode, CliError> {
    let x = parse_number("A", &a.a)?;
    let y = parse_number("B", &a.b)?;
    let m = parse_number("M", &a.m)?;
    let r = mulmod(a.common.reducer, &x, &y, &m)?;
    a.common.print(&r)?;
    Ok(ExitCode::SUCCESS)
}
