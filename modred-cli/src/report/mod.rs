//! `modred report`: the source papers' tables and figures measured on this machine, side by side
//! with GMP (`rug`) and OpenSSL; and `modred count`: the operation-count tables alone.
//!
//! Layout: [`harness`] (the measurement protocol), [`table`] (data model), [`sections`] (one
//! file per paper's table or figure, listed by [`sections::all`]), [`output`] (Markdown, JSON,
//! CSV), [`plot`] (SVG), [`mod@env`] (the header: CPU, versions, date), [`progress`] (bar or
//! plain lines on stderr), [`count`] (operation counts, in-process with the `count` feature or
//! through the core crate's small `modred-count` binary).

pub mod count;
pub mod data;
pub mod env;
pub mod harness;
pub mod output;
pub mod plot;
pub mod progress;
pub mod sections;
pub mod table;

use crate::cli_common::CliError;
use crate::out::Out;
use harness::Protocol;
use progress::Progress;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use std::time::{Duration, Instant};
use table::Table;

/// Output printed on stdout (all formats are always written to the output directory).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum, Default)]
pub enum Format {
    #[default]
    Md,
    Json,
    Csv,
}

/// `modred report`.
#[derive(Clone, Debug, clap::Args)]
pub struct ReportArgs {
    /// Fewer sizes and rounds: finishes in a few minutes.
    #[arg(long)]
    pub quick: bool,
    /// Modulus sizes in bits for the size-indexed tables (e.g. 512,1024,2048).
    #[arg(long, value_delimiter = ',')]
    pub sizes: Option<Vec<usize>>,
    /// Run only the sections whose id starts with this (e.g. `seed000`, `seed002-table3`);
    /// repeatable. `--only list` prints the section ids.
    #[arg(long)]
    pub only: Vec<String>,
    /// Output directory (report.md, report.json, one CSV per table, SVG plots).
    #[arg(long, default_value = "report-out")]
    pub out: PathBuf,
    /// What to print on stdout.
    #[arg(long, value_enum, default_value_t = Format::Md)]
    pub format: Format,
    /// Interleaved rounds per cell (default 7 with --quick, 21 otherwise).
    #[arg(long)]
    pub rounds: Option<usize>,
    /// Minimum sample duration in milliseconds (default 1).
    #[arg(long)]
    pub sample_ms: Option<f64>,
    /// Clock the samples are read from: the measuring thread's CPU time (robust on a shared
    /// machine) or the wall clock.
    #[arg(long, value_enum, default_value_t = harness::Clock::Cpu)]
    pub clock: harness::Clock,
    /// Do not build the counting binary (`modred-count`, the core crate with `--features
    /// count`) for the count tables when this binary has no counters; their cells then say n/a.
    #[arg(long)]
    pub no_count_child: bool,
}

impl Default for ReportArgs {
    fn default() -> Self {
        Self {
            quick: false,
            sizes: None,
            only: Vec::new(),
            out: PathBuf::from("report-out"),
            format: Format::Md,
            rounds: None,
            sample_ms: None,
            clock: harness::Clock::Cpu,
            no_count_child: false,
        }
    }
}

/// `modred count`.
#[derive(Clone, Debug, clap::Args)]
pub struct CountArgs {
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Md)]
    pub format: Format,
}

/// What every section gets: the protocol, the sizes, the progress display.
pub struct Ctx {
    pub quick: bool,
    pub proto: Protocol,
    /// `--sizes`, if given.
    pub sizes: Option<Vec<usize>>,
    pub no_count_child: bool,
    pub progress: Progress,
    /// Count tables, computed once per report (see [`count`]).
    pub count_tables: Option<Vec<Table>>,
}

impl Ctx {
    /// The sizes a size-indexed table uses: `--sizes` if given, else the quick or full default.
    pub fn sizes(&self, quick: &[usize], full: &[usize]) -> Vec<usize> {
        match &self.sizes {
            Some(s) => s.clone(),
            None if self.quick => quick.to_vec(),
            None => full.to_vec(),
        }
    }

    /// Progress message for the row being measured.
    pub fn step(&self, msg: impl Into<String>) {
        self.progress.step(&msg.into());
    }
}

/// The whole report: header plus tables (the JSON document).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Report {
    pub header: env::Header,
    pub tables: Vec<Table>,
}

/// Check the arguments: `--only` names existing sections, `--sizes` are within range and
/// `--rounds` is at least 1. The message is a usage error (exit code 2).
pub fn check_args(args: &ReportArgs) -> Result<(), String> {
    if args.rounds == Some(0) {
        return Err("--rounds must be at least 1".to_string());
    }
    if let Some(s) = &args.sizes {
        if let Some(bad) = s.iter().find(|&&b| !(64..=16384).contains(&b)) {
            return Err(format!("--sizes: {bad} bits is outside 64..=16384"));
        }
    }
    if !args.only.iter().any(|o| o == "list") {
        sections::select(&args.only)?;
    }
    Ok(())
}

/// Build the report in memory (no files written).
pub fn build(args: &ReportArgs) -> Result<Report, String> {
    check_args(args)?;
    let selected = sections::select(&args.only)?;
    let proto = Protocol {
        rounds: args.rounds.unwrap_or(if args.quick { 7 } else { 21 }),
        target_sample: Duration::from_secs_f64(args.sample_ms.unwrap_or(1.0) / 1e3),
        clock: args.clock,
    };
    let progress = Progress::for_stderr(selected.len());
    let mut ctx = Ctx {
        quick: args.quick,
        proto,
        sizes: args.sizes.clone(),
        no_count_child: args.no_count_child,
        progress,
        count_tables: None,
    };
    let started = Instant::now();
    let mut tables = Vec::new();
    let mut section_seconds = Vec::new();
    for (i, s) in selected.iter().enumerate() {
        ctx.progress.section(i, selected.len(), s.id);
        let t0 = Instant::now();
        tables.extend((s.run)(&mut ctx));
        section_seconds.push((s.id.to_string(), t0.elapsed().as_secs_f64()));
    }
    ctx.progress.finish();
    let header = env::Header::collect(&proto, args.quick, started.elapsed(), section_seconds);
    Ok(Report { header, tables })
}

/// `modred report`: build, write every format to `--out`, print `--format` on stdout. Bad
/// arguments are [`CliError::Usage`] (exit code 2), a failed run [`CliError::Failed`].
pub fn run(args: ReportArgs) -> Result<(), CliError> {
    check_args(&args).map_err(CliError::Usage)?;
    let mut out = Out::new()?;
    if args.only.iter().any(|o| o == "list") {
        for s in sections::all() {
            out.line(format_args!("{:<24} {}", s.id, s.title))?;
        }
        return out.finish();
    }
    // Before any section runs (a full report takes hours): exit 2 at once if unwritable.
    output::check_dir(&args.out).map_err(CliError::Usage)?;
    let report = build(&args).map_err(CliError::Failed)?;
    output::write_all(&report, &args.out).map_err(CliError::Failed)?;
    out.text(&output::render(&report, args.format))?;
    out.finish()?;
    crate::out::warn(format_args!(
        "report: wrote {} ({} tables, {:.0} s)",
        args.out.display(),
        report.tables.len(),
        report.header.wall_seconds
    ));
    Ok(())
}

/// `modred count`: the operation-count tables (needs the `count` feature; a build without
/// counters is a usage error).
pub fn run_count(args: CountArgs) -> Result<(), CliError> {
    if !modred::count::ENABLED {
        return Err(CliError::usage(
            "modred count needs the operation counters, which this build does not have.\n\
             Run: cargo run --release -p modred-cli --features count -- count",
        ));
    }
    let tables = count::tables_in_process();
    let text: String = match args.format {
        Format::Json => serde_json::to_string_pretty(&tables).expect("tables serialise"),
        Format::Md => tables.iter().map(output::markdown_table).collect(),
        Format::Csv => tables
            .iter()
            .map(|t| format!("# {}\n{}\n", t.id, output::csv_table(t)))
            .collect(),
    };
    let mut out = Out::new()?;
    out.line(text)?;
    out.finish()
}
