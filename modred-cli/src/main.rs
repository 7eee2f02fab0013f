//! The `modred` command: modular reduction and multiplication with every reducer of the
//! library (and, as they land, exponentiation, reports and operation counts).
//!
//! Exit codes: 0 success; 1 some `batch` or `evm-modexp` lines failed (each printed
//! `error: <reason>`);
//! 2 bad arguments (unknown reducer, unparsable or negative number, zero modulus, even modulus
//! for a Montgomery reducer, argument beyond a method's restriction, usage errors).
//!
//! Each subcommand lives in its own module (`cmd_*.rs`) exposing an `Args` struct and
//! `run(args) -> Result<ExitCode, CliError>`; add a subcommand by adding a module and one
//! variant to [`Command`].

mod cli_common;
mod cmd_batch;
mod cmd_evm;
mod cmd_methods;
mod cmd_pow;
mod cmd_single;
mod report;

use clap::{Parser, Subcommand};
use cli_common::CliError;
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
    /// Read `reduce X M` / `mulmod A B M` / `pow B E M` lines from stdin, print one result per
    /// line.
    Batch(cmd_batch::Args),
    /// The Ethereum MODEXP precompile: `0x<output> <gas>` per hex input (argument or stdin
    /// lines).
    EvmModexp(cmd_evm::Args),
    /// List every reducer with its restrictions.
    Methods(cmd_methods::Args),
    /// The comparison report: the seeds' tables and figures next to GMP and OpenSSL.
    Report(report::ReportArgs),
    /// The operation-count tables (seed 000 Table 1, seed 002 Tables 1-2); needs the `count`
    /// feature.
    Count(report::CountArgs),
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
        Command::Methods(a) => cmd_methods::run(a),
        Command::Report(a) => match report::run(a) {
            Ok(()) => Ok(ExitCode::SUCCESS),
            Err(e) => {
                eprintln!("modred report: {e}");
                Ok(ExitCode::FAILURE)
            }
        },
        Command::Count(a) => Ok(ExitCode::from(report::run_count(a) as u8)),
    }
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // --help / --version print to stdout and succeed; usage errors exit 2.
            let _ = e.print();
            return if e.use_stderr() {
                ExitCode::from(EXIT_USAGE)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    match run(cli.command) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("modred: error: {e}");
            ExitCode::from(EXIT_USAGE)
        }
    }
}
