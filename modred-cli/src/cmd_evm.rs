//! `modred evm-modexp`: the Ethereum MODEXP precompile (address 0x05) on hex inputs.
//!
//! Each input is the precompile's call data in hex (`0x` optional): three 32-byte lengths,
//! then the base, exponent and modulus (EIP-198). Each result line is `0x<output> <gas>`: the
//! output as exactly `mod_len` bytes in hex (`0x` alone when it is empty) and the gas under
//! `--fork`. With HEX on the command line, that one input; otherwise one input per stdin
//! line (blank lines are skipped and `#` starts a comment, as in `batch`; `0x` alone is the
//! empty input). An input that is not hex, or that the fork rejects (EIP-7823's 1024-byte
//! cap under osaka), prints `error: <reason>` in its place; the exit code is then 1.

use crate::cli_common::CliError;
use clap::Args as ClapArgs;
use modred::evm::{self, Fork};
use std::io::{self, BufRead, BufWriter, Write};
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
}

fn parse_fork(name: &str) -> Result<Fork, String> {
    Fork::from_name(name).map_err(|e| e.to_string())
}

/// Bytes of a hex string with an optional `0x` prefix.
fn parse_hex(text: &str) -> Result<Vec<u8>, String> {
    let digits = text
        .strip_prefix("0x")
        .or_else(|| text.strip_prefix("0X"))
        .unwrap_or(text);
    if digits.len() % 2 == 1 {
        return Err(format!(
            "odd number of hex digits ({}) in the input",
            digits.len()
        ));
    }
    let nibble = |c: u8| match c {
        b'0'..=b'9' => Ok(c - b'0'),
        b'a'..=b'f' => Ok(c - b'a' + 10),
        b'A'..=b'F' => Ok(c - b'A' + 10),
        _ => Err(format!("'{}' is not a hex digit", c as char)),
    };
    digits
        .as_bytes()
        .chunks(2)
        .map(|p| Ok(nibble(p[0])? << 4 | nibble(p[1])?))
        .collect()
}

/// The result line of one input: `0x<output> <gas>`, or the reason it fails.
fn result_line(text: &str, fork: Fork) -> Result<String, String> {
    let input = parse_hex(text)?;
    let (out, gas) = evm::run(&input, fork).map_err(|e| e.to_string())?;
    let mut line = String::with_capacity(2 * out.len() + 24);
    line.push_str("0x");
    for b in &out {
        line.push_str(&format!("{b:02x}"));
    }
    line.push_str(&format!(" {gas}"));
    Ok(line)
}

pub fn run(args: Args) -> Result<ExitCode, CliError> {
    let io_err = |e: io::Error| CliError(format!("I/O error: {e}"));
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let mut failed = 0usize;
    let mut emit = |text: &str, out: &mut BufWriter<io::StdoutLock<'_>>| {
        match result_line(text, args.fork) {
            Ok(line) => writeln!(out, "{line}"),
            Err(e) => {
                failed += 1;
                writeln!(out, "error: {e}")
            }
        }
        .map_err(io_err)
    };
    match &args.hex {
        Some(hex) => emit(hex.trim(), &mut out)?,
        None => {
            for line in io::stdin().lock().lines() {
                let line = line.map_err(io_err)?;
                let content = line.split('#').next().unwrap_or("").trim();
                if !content.is_empty() {
                    emit(content, &mut out)?;
                }
            }
        }
    }
    out.flush().map_err(io_err)?;
    Ok(if failed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
