//! The `modred` command: modular reduction, multiplication and exponentiation with every
//! reducer and method of the library, the EVM's MODEXP and RSA. It depends on the library and
//! clap alone; the comparison report is the `modred-report` crate.
//!
//! Exit codes: 0 success; 1 some `batch`, `evm-modexp` or `rsa` lines failed (each printed
//! `error: <reason>`), or `report` could not finish;
//! 2 bad arguments (unknown reducer, unparsable number, negative number other than an
//! exponent, zero modulus, even modulus for a Montgomery reducer, argument beyond a method's
//! restriction, no inverse for a negative exponent, a table too large, usage errors);
//! 3 stdout could not be written (one message on stderr); 141 (as for SIGPIPE) the reader of
//! stdout went away, quietly. See [`out`].
//!
//! Each subcommand lives in its own module (`cmd_*.rs`) exposing an `Args` struct and
//! `run(args) -> Result<ExitCode, CliError>`; add a subcommand by adding a module and one
//! variant to [`Command`].

mod cli_common;
mod cmd_batch;
mod cmd_evm;
mod cmd_methods;
mod cmd_pow;
mod cmd_prime;
mod cmd_rsa;
mod cmd_single;
mod lines;
mod out;

use clap::{Parser, Subcommand};
use cli_common::CliError;
use out::Out;
use std::process::ExitCode;

/// Fast multi-precision modular reduction and multiplication.
///
/// Numbers are decimal or 0x-prefixed hexadecimal; results are decimal (--hex for 0x-hex).
#[derive(Parser, Debug)]
#[command(name = "modred", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Print X mod M.
    Reduce(cmd_single::ReduceArgs),
    /// Print A*B mod M.
    Mulmod(cmd_single::MulmodArgs),
    /// Print B^E mod M.
    Pow(cmd_pow::PowArgs),
    /// Read `reduce X M` / `mulmod A B M` / `pow B E M` / `isprime N` / `nextprime N` lines
    /// from stdin, print one result per line.
    Batch(cmd_batch::Args),
    /// The Ethereum MODEXP precompile: `0x<output> <gas>` per hex input (argument or stdin
    /// lines).
    EvmModexp(cmd_evm::Args),
    /// RSA without padding: `rsa private --key FILE [HEX]` (c^d mod n) and `rsa public --key
    /// FILE [HEX]` (x^e mod n); without HEX, one hex input per stdin line.
    Rsa(cmd_rsa::Args),
    /// Print `prime` or `composite` for N (Baillie–PSW), or with --next the least prime above N.
    Prime(cmd_prime::Args),
    /// List every reducer with its restrictions.
    Methods(cmd_methods::Args),
}

/// Exit code for bad arguments.
pub const EXIT_USAGE: u8 = 2;

fn run(command: Command) -> Result<ExitCode, CliError> {
    match command {
        Command::Reduce(a) => cmd_single::run_reduce(a),
        Command::Mulmod(a) => cmd_single::run_mulmod(a),
        Command::Pow(a) => cmd_pow::run(a),
        Command::Batch(a) => cmd_batch::run(a),
        Command::EvmModexp(a) => cmd_evm::run(a),
        Command::Rsa(a) => cmd_rsa::run(a),
        Command::Prime(a) => cmd_prime::run(a),
        Command::Methods(a) => cmd_methods::run(a),
    }
}

/// `--help` / `--version` (clap's "error" that goes to stdout), written and flushed through
/// [`Out`] so that a write error is not exit code 0.
fn print_help(e: &clap::Error) -> Result<(), CliError> {
    let mut out = Out::new()?;
    let text = if out.is_terminal() {
        e.render().ansi().to_string()
    } else {
        e.render().to_string()
    };
    out.text(&text)?;
    out.finish()
}

fn main() -> ExitCode {
    let result = match Cli::try_parse() {
        Ok(cli) => run(cli.command),
        // Usage errors go to stderr (a failure to write them is ignored: exit 2 regardless).
        Err(e) if e.use_stderr() => {
            let _ = e.print();
            return ExitCode::from(EXIT_USAGE);
        }
        Err(e) => print_help(&e).map(|()| ExitCode::SUCCESS),
    };
    match result {
        Ok(code) => code,
        Err(CliError::Output(e)) => ExitCode::from(out::output_error_code(&e)),
        Err(e @ CliError::Usage(_)) => {
            let e = cli_common::escape_controls(&e.to_string());
            out::warn(format_args!("error: {e}"));
            ExitCode::from(EXIT_USAGE)
        }
    }
}
