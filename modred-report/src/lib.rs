//! The comparison report of modred (binary `modred-report`): the source papers' tables and
//! figures measured on this machine, side by side with GMP (`rug`) and OpenSSL; with
//! `--counts`, the operation-count tables alone. The only crate that uses modred's `internals`.
//!
//! Layout: [`harness`] (the measurement protocol), [`table`] (data model), [`sections`] (one
//! file per paper's table or figure, listed by [`sections::all`]), [`output`] (Markdown, JSON,
//! CSV), [`plot`] (SVG), [`mod@env`] (the header: CPU, versions, date), [`progress`] (bar or
//! plain lines on stderr), [`count`] (operation counts, in-process with the `count` feature or
//! through this crate's small `modred-count` binary), [`opcount`] (the operations counted, as
//! text lines), [`word_loops`] (Bloemen's single-word benchmark loops) and [`tiers`] (the
//! tier-dependent sections again in child processes capped to lower kernel tiers).

pub mod count;
pub mod data;
pub mod env;
pub mod harness;
pub mod opcount;
pub mod output;
pub mod plot;
pub mod progress;
pub mod sections;
pub mod table;
pub mod tiers;
pub mod word_loops;

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

/// The arguments of `modred-report`.
#[derive(Clone, Debug, clap::Parser)]
#[command(name = "modred-report", version, about, long_about = None)]
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
    /// Print only the operation-count tables (Bosselaers et al. 1993 Table 1, Koç–Acar–Kaliski
    /// 1996 Tables 1-2), counted in this process with feature `count`, else by `modred-count`.
    #[arg(long)]
    pub counts: bool,
    /// Kernel tiers below this process's own to re-run the tier-dependent sections (scaling,
    /// throughput) at, each in a child process with `MODRED_CPU=<tier>`: a list of `adx`,
    /// `portable`, or `none`. Default: every tier below the own one except portable (`adx` on
    /// an AVX-512 IFMA machine).
    #[arg(long, value_delimiter = ',')]
    pub tiers: Option<Vec<String>>,
    /// Internal: run as the child of `--tiers` at this tier (the sections of `--only`, tables
    /// as JSON on stdout).
    #[arg(long, hide = true)]
    pub tier_child: Option<String>,
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
            counts: false,
            tiers: None,
            tier_child: None,
        }
    }
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

/// Check the arguments: `--only` names existing sections, `--sizes` are within range,
/// `--rounds` is at least 1 and `--tiers` names tiers below this process's own. The message is
/// a usage error (exit code 2).
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
    tiers::select(args.tiers.as_deref())?;
    Ok(())
}

/// The measurement context of `args` for `sections` sections.
pub fn context(args: &ReportArgs, sections: usize) -> Ctx {
    let proto = Protocol {
        rounds: args.rounds.unwrap_or(if args.quick { 7 } else { 21 }),
        target_sample: Duration::from_secs_f64(args.sample_ms.unwrap_or(1.0) / 1e3),
        clock: args.clock,
    };
    Ctx {
        quick: args.quick,
        proto,
        sizes: args.sizes.clone(),
        no_count_child: args.no_count_child,
        progress: Progress::for_stderr(sections),
        count_tables: None,
    }
}

/// Build the report in memory (no files written). A tier-dependent section runs again at each
/// child tier of `--tiers` right after it ([`tiers`]); a child that fails is a warning of the
/// header (and its tables are missing), not an error.
pub fn build(args: &ReportArgs) -> Result<Report, String> {
    check_args(args)?;
    let selected = sections::select(&args.only)?;
    let child_tiers = tiers::select(args.tiers.as_deref())?;
    let mut ctx = context(args, selected.len());
    let own = modred::cpu::tier();
    let started = Instant::now();
    let mut tables = Vec::new();
    let mut section_seconds = Vec::new();
    let mut warnings = Vec::new();
    // The child tiers that gave tables, in `--tiers` order.
    let mut tiers_run = Vec::new();
    for (i, s) in selected.iter().enumerate() {
        ctx.progress.section(i, selected.len(), s.id);
        let t0 = Instant::now();
        let mut own_tables = (s.run)(&mut ctx);
        section_seconds.push((s.id.to_string(), t0.elapsed().as_secs_f64()));
        if !s.tiers || child_tiers.is_empty() {
            tables.append(&mut own_tables);
            continue;
        }
        for t in &mut own_tables {
            t.title = format!("{} — {own} tier", t.title);
        }
        tables.append(&mut own_tables);
        for &tier in &child_tiers {
            ctx.step(format!("{} at tier {tier} (child process)", s.id));
            let t0 = Instant::now();
            match tiers::run_section(args, &ctx, tier, s.id) {
                Ok(mut child) => {
                    tables.append(&mut child);
                    if !tiers_run.contains(&tier) {
                        tiers_run.push(tier);
                    }
                }
                Err(e) => {
                    let msg = format!("{} at tier {tier}: {e}", s.id);
                    ctx.step(format!("warning: {msg}"));
                    warnings.push(msg);
                }
            }
            section_seconds.push((format!("{} ({tier})", s.id), t0.elapsed().as_secs_f64()));
        }
    }
    ctx.progress.finish();
    let mut header =
        env::Header::collect(&ctx.proto, args.quick, started.elapsed(), section_seconds);
    tiers_run.sort_by(|a, b| b.cmp(a));
    header.child_tiers = tiers_run.iter().map(ToString::to_string).collect();
    header.warnings = warnings;
    Ok(Report { header, tables })
}
