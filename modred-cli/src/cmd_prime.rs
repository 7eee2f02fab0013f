//! `modred prime N`: `prime` or `composite` (the Baillie–PSW probable-prime test,
//! `modred::prime::is_probable_prime_vartime`: exact below 2^64, no known counterexample
//! above); `modred prime --next N`: the least (probable) prime above N. Exit code 0 either
//! way; a bad N (not a natural number) is exit 2 with a message.
//!
//! In `modred batch`, the lines `isprime N` and `nextprime N` do the same ([`batch_line`]).

use crate::cli_common::{parse_number, CliError, Common};
use crate::out::Out;
use clap::Args as ClapArgs;
use modred::prime::{is_probable_prime_vartime, next_prime_vartime};
use modred::Natural;
use std::process::ExitCode;

/// Arguments of `modred prime`.
#[derive(ClapArgs, Debug)]
pub struct Args {
    /// Print the least prime above N instead of testing N.
    #[arg(long)]
    pub next: bool,
    /// Print the next prime as 0x-prefixed hexadecimal instead of decimal.
    #[arg(long)]
    pub hex: bool,
    /// The number (decimal or 0x-hex).
    pub n: String,
}

/// `prime` or `composite`.
fn verdict(n: &Natural) -> Result<String, CliError> {
    Ok(if is_probable_prime_vartime(n)? {
        "prime"
    } else {
        "composite"
    }
    .to_string())
}

pub fn run(args: Args) -> Result<ExitCode, CliError> {
    let n = parse_number("N", &args.n)?;
    let text = if args.next {
        let fmt = Common {
            reducer: modred::ReducerKind::Auto,
            hex: args.hex,
        };
        fmt.format(&next_prime_vartime(&n)?)?
    } else {
        verdict(&n)?
    };
    let mut out = Out::new()?;
    out.line(text)?;
    out.finish()?;
    Ok(ExitCode::SUCCESS)
}

/// The result of a `batch` line `isprime N` or `nextprime N` (`None` for any other line):
/// `prime`/`composite`, or the next prime in `common`'s base.
pub fn batch_line(line: &str, common: &Common) -> Option<Result<String, CliError>> {
    let mut words = line.split_ascii_whitespace(); // as `batch`'s other lines
    let op = words.next()?;
    if op != "isprime" && op != "nextprime" {
        return None;
    }
    let (Some(n), None) = (words.next(), words.next()) else {
        return Some(Err(CliError::usage(format!("'{op}' takes 1 number (N)"))));
    };
    Some(parse_number("N", n).and_then(|n| {
        if op == "isprime" {
            verdict(&n)
        } else {
            common.format(&next_prime_vartime(&n)?)
        }
    }))
}
