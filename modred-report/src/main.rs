//! `modred-report`: the comparison report (see the crate's documentation). Writes every format
//! to `--out` and prints `--format` on stdout; `--counts` prints the operation-count tables alone.
//!
//! Exit codes: 0 success; 1 the report could not be built or written; 2 bad arguments (refused
//! before any section runs); 3 stdout could not be written; 141 (as for SIGPIPE) the reader of
//! stdout went away, quietly. Messages on a full stderr are dropped, never a panic.

use clap::Parser;
use modred_report::{build, check_args, count, output, sections, tiers, ReportArgs};
use std::fmt::Display;
use std::io::{self, Write};
use std::process::ExitCode;

/// How the run ended, when not with success.
enum Failure {
    /// Bad arguments: exit 2.
    Usage(String),
    /// The report could not be built or written: exit 1.
    Failed(String),
    /// Writing stdout failed: exit 3 (141 for a reader gone away).
    Output(io::Error),
}

/// One line on stderr, prefixed with the program's name; a failing stderr is ignored.
fn warn(msg: impl Display) {
    let _ = writeln!(io::stderr().lock(), "modred-report: {msg}");
}

/// `text` on stdout, flushed: exit code 0 means every byte was written.
fn print(text: &str) -> Result<(), Failure> {
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(Failure::Output)
}

fn run(args: &ReportArgs) -> Result<(), Failure> {
    if args.counts {
        if !modred::count::ENABLED && args.no_count_child {
            return Err(Failure::Usage(
                "--counts needs the operation counters: drop --no-count-child (the counting \
                 binary is built with cargo), or run: cargo run --release -p modred-report \
                 --features count -- --counts"
                    .to_string(),
            ));
        }
        let tables = count::tables_standalone().map_err(Failure::Failed)?;
        return print(&output::render_tables(&tables, args.format));
    }
    if let Some(tier) = &args.tier_child {
        let json = tiers::child_main(args, tier).map_err(Failure::Failed)?;
        return print(&(json + "\n"));
    }
    check_args(args).map_err(Failure::Usage)?;
    if args.only.iter().any(|o| o == "list") {
        let list: String = sections::all()
            .iter()
            .map(|s| format!("{:<24} {}\n", s.id, s.title))
            .collect();
        return print(&list);
    }
    // Before any section runs (a full report takes hours): exit 2 at once if unwritable.
    output::check_dir(&args.out).map_err(Failure::Usage)?;
    let report = build(args).map_err(Failure::Failed)?;
    output::write_all(&report, &args.out).map_err(Failure::Failed)?;
    print(&output::render(&report, args.format))?;
    for w in &report.header.warnings {
        warn(format_args!("warning: {w}"));
    }
    warn(format_args!(
        "wrote {} ({} tables, {:.0} s)",
        args.out.display(),
        report.tables.len(),
        report.header.wall_seconds
    ));
    Ok(())
}

fn main() -> ExitCode {
    let args = match ReportArgs::try_parse() {
        Ok(args) => args,
        Err(e) if e.use_stderr() => {
            let _ = e.print();
            return ExitCode::from(2);
        }
        // --help and --version.
        Err(e) => {
            return match print(&e.render().to_string()) {
                Ok(()) => ExitCode::SUCCESS,
                Err(Failure::Output(e)) => output_error(&e),
                Err(_) => ExitCode::FAILURE,
            }
        }
    };
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Usage(msg)) => {
            warn(format_args!("error: {msg}"));
            ExitCode::from(2)
        }
        Err(Failure::Failed(msg)) => {
            warn(format_args!("error: {msg}"));
            ExitCode::FAILURE
        }
        Err(Failure::Output(e)) => output_error(&e),
    }
}

/// The exit code for a write error of stdout, after reporting it (quietly for EPIPE).
fn output_error(e: &io::Error) -> ExitCode {
    if e.kind() == io::ErrorKind::BrokenPipe {
        return ExitCode::from(128 + 13);
    }
    warn(format_args!("error: writing standard output: {e}"));
    ExitCode::from(3)
}
