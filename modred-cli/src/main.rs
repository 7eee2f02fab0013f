//! The `modred` command. This branch carries only `report` and `count`; the other subcommands
//! live on the CLI branch and are merged with these.

mod report;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "modred",
    version,
    about = "Fast multi-precision modular arithmetic"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// The comparison report: the seeds' tables and figures next to GMP and OpenSSL.
    Report(report::ReportArgs),
    /// The operation-count tables (seed 000 Table 1, seed 002 Tables 1-2); needs the `count`
    /// feature.
    Count(report::CountArgs),
}

fn main() -> ExitCode {
    match Cli::parse().command {
        Command::Report(args) => match report::run(args) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("modred report: {e}");
                ExitCode::FAILURE
            }
        },
        Command::Count(args) => ExitCode::from(report::run_count(args) as u8),
    }
}
