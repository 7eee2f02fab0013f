//! `modred reduce` and `modred mulmod`: one operation, result on stdout.

use crate::cli_common::{context, parse_number, CliError, Common};
use clap::Args as ClapArgs;
use modred::reduce::auto::Workload;
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
    a.common.check_reducer()?;
    let x = parse_number("X", &a.x)?;
    let m = parse_number("M", &a.m)?;
    let mut ctx = context(&a.common.reducer, &m, Workload::Single)?;
    let r = ctx.reduce(&x)?;
    println!("{}", a.common.format(&r));
    Ok(ExitCode::SUCCESS)
}

pub fn run_mulmod(a: MulmodArgs) -> Result<ExitCode, CliError> {
    a.common.check_reducer()?;
    let x = parse_number("A", &a.a)?;
    let y = parse_number("B", &a.b)?;
    let m = parse_number("M", &a.m)?;
    let mut ctx = context(&a.common.reducer, &m, Workload::Single)?;
    let r = ctx.mulmod(&x, &y);
    println!("{}", a.common.format(&r));
    Ok(ExitCode::SUCCESS)
}
