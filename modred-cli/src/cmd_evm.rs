//! `modred evm-modexp`: the Ethereum MODEXP precompile (address 0x05) on hex inputs.
//!
//! Each input is the precompile's call data in hex (`0x` optional): three 32-byte lengths,
//! then the base, exponent and modulus (EIP-198). Each result line is `0x<output> <gas>`: the
//! output as exactly `mod_len` bytes in hex (`0x` alone when it is empty) and the gas under
//! `--fork`. With HEX on the command line, that one input; otherwise one input per stdin
//! line (blank lines are skipped and `#` starts a comment, as in `batch`; `0x` alone is the
//! empty input; lines are bytes, bounded by `--max-line-bytes`: see [`crate::lines`]). An input that is not hex, or that the fork rejects (EIP-7823's 1024-byte
//! cap under osaka), prints `error: <reason>` in its place; the exit code is then 1.

use crate::cli_common::{escape_controls, hex_string, parse_hex, CliError};
use crate::lines::{Line, LineLimit, Lines};
use crate::out::Out;
use clap::Args as ClapArgs;
use modred::evm::{self, Fork};
use std::io;
use std::process::ExitCode;

/// Arguments of `modred evm-modexp`.
#[derive(ClapArgs, Debug)]
pub struct Args {
    /// Gas schedule and length rules: byzantium (EIP-198), berlin (EIP-2565) or osaka
    /// (EIP-7883 and EIP-7823's 1024-byte cap).
    #[arg(long, default_value = "osaka", value_parser = parse_fork)]
    pub fork: Fork,
    /// The call data in hex (`0x` optional); without it, one input per stdin line.
    pub hex: Option<String>,
    #[command(flatten)]
    pub limit: LineLimit,
}

fn parse_fork(name: &str) -> Result<Fork, String> {
    Fork::from_name(name).map_err(|e| e.to_string())
}

/// The result line of one input: `0x<output> <gas>`, or the reason it fails.
fn result_line(text: &str, fork: Fork) -> Result<String, String> {
    let input = parse_hex(text, false)?;
    let (out, gas) = evm::run(&input, fork).map_err(|e| e.to_string())?;
    Ok(format!("{} {gas}", hex_string(&out)))
}

pub fn run(args: Args) -> Result<ExitCode, CliError> {
    let mut out = Out::new()?;
    let mut failed = 0usize;
    let mut emit = |line: Result<String, String>, out: &mut Out| match line {
        Ok(line) => out.line(line),
        Err(e) => {
            failed += 1;
            out.line(format_args!("error: {}", escape_controls(&e)))
        }
    };
    match &args.hex {
        Some(hex) => emit(result_line(hex.trim(), args.fork), &mut out)?,
        None => {
            let mut lines = Lines::new(io::stdin().lock(), args.limit.max_line_bytes);
            while let Some(line) = lines.next_line(&mut || out.flush())? {
                match line {
                    Line::Text(content) if content.is_empty() => {}
                    Line::Text(content) => emit(result_line(&content, args.fork), &mut out)?,
                    Line::Bad(reason) => emit(Err(reason), &mut out)?,
                }
            }
        }
    }
    out.finish()?;
    Ok(if failed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
