//! `modred batch`: one operation per stdin line, one result per stdout line, in order.
//!
//! Input lines: `reduce X M`, `mulmod A B M` or `pow B E M` (numbers decimal or 0x-hex, separated by
//! whitespace). Blank lines are skipped and `#` starts a comment running to the end of the
//! line; neither produces output. A line that fails prints `error: <reason>` in its place and
//! processing continues; the exit code is then 1. The `--reducer`, `--hex`, `--method`,
//! `--window` and `--threads` options apply to every line. Add an operation by extending [`Op`] and [`Op::parse`] / [`Op::run`].

use crate::cli_common::{context, parse_number, CliError, Common};
use clap::Args as ClapArgs;
use modred::reduce::auto::Workload;
use modred::reduce::ModContext;
use modred::Natural;
use std::io::{self, BufRead, BufWriter, Write};
use std::process::ExitCode;

/// Arguments of `modred batch`.
#[derive(ClapArgs, Debug)]
pub struct Args {
    #[command(flatten)]
    pub common: Common,
    #[command(flatten)]
    pub flags: crate::cmd_pow::PowFlags,
}

/// One parsed input line.
enum Op {
    Reduce { x: Natural, m: Natural },
    Mulmod { a: Natural, b: Natural, m: Natural },
    Pow { b: Natural, e: Natural, m: Natural },
}

impl Op {
    fn parse(words: &[&str]) -> Result<Op, CliError> {
        let (op, args) = words.split_first().expect("non-empty line");
        let want = |n: usize, usage: &str| {
            if args.len() == n {
                Ok(())
            } else {
                Err(CliError(format!(
                    "'{op}' takes {n} numbers ({usage}), got {}",
                    args.len()
                )))
            }
        };
        match *op {
            "reduce" => {
                want(2, "X M")?;
                Ok(Op::Reduce {
                    x: parse_number("X", args[0])?,
                    m: parse_number("M", args[1])?,
                })
            }
            "mulmod" => {
                want(3, "A B M")?;
                Ok(Op::Mulmod {
                    a: parse_number("A", args[0])?,
                    b: parse_number("B", args[1])?,
                    m: parse_number("M", args[2])?,
                })
            }
            "pow" => {
                want(3, "B E M")?;
                Ok(Op::Pow {
                    b: parse_number("B", args[0])?,
                    e: parse_number("E", args[1])?,
                    m: parse_number("M", args[2])?,
                })
            }
            other => Err(CliError(format!(
                "unknown operation '{other}' (expected: reduce X M | mulmod A B M | pow B E M)"
            ))),
        }
    }

    fn modulus(&self) -> &Natural {
        match self {
            Op::Reduce { m, .. } | Op::Mulmod { m, .. } | Op::Pow { m, .. } => m,
        }
    }

    fn run(&self, ctx: &mut ModContext) -> Result<Natural, CliError> {
        match self {
            Op::Reduce { x, .. } => Ok(ctx.reduce(x)?),
            Op::Mulmod { a, b, .. } => Ok(ctx.mulmod(a, b)),
            Op::Pow { .. } => unreachable!("pow lines are run by run_line"),
        }
    }
}

/// The context of the previous line, reused while the modulus stays the same.
struct Cache {
    m: Natural,
    ctx: ModContext,
}

fn run_line(
    line: &str,
    common: &Common,
    common_pow: &crate::cmd_pow::PowFlags,
    cache: &mut Option<Cache>,
) -> Result<Natural, CliError> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let op = Op::parse(&words)?;
    if let Op::Pow { b, e, m } = &op {
        let opts = common_pow.options(&common.reducer)?;
        return crate::cmd_pow::pow(b, e, m, &opts);
    }
    if let (Op::Mulmod { a, b, m }, true) = (&op, common.reducer == "auto") {
        return crate::cmd_single::mulmod("auto", a, b, m);
    }
    let m = op.modulus();
    if cache.as_ref().map(|c| &c.m) != Some(m) {
        *cache = None; // never keep a context for a different modulus
        let ctx = context(&common.reducer, m, Workload::Single)?;
        *cache = Some(Cache { m: m.clone(), ctx });
    }
    op.run(&mut cache.as_mut().expect("just built").ctx)
}

pub fn run(args: Args) -> Result<ExitCode, CliError> {
    args.common.check_reducer()?;
    args.flags.options(&args.common.reducer)?; // bad --method/--window/--threads: exit 2
    let stdin = io::stdin();
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let mut failed = 0usize;
    let mut cache = None;
    let io_err = |e: io::Error| CliError(format!("I/O error: {e}"));
    for line in stdin.lock().lines() {
        let line = line.map_err(io_err)?;
        let content = line.split('#').next().unwrap_or("").trim();
        if content.is_empty() {
            continue;
        }
        match run_line(content, &args.common, &args.flags, &mut cache) {
            Ok(r) => writeln!(out, "{}", args.common.format(&r)),
            Err(e) => {
                failed += 1;
                writeln!(out, "error: {e}")
            }
        }
        .map_err(io_err)?;
    }
    out.flush().map_err(io_err)?;
    Ok(if failed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
