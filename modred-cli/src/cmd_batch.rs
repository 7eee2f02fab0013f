//! `modred batch`: one operation per stdin line, one result per stdout line, in order.
//!
//! Input lines: `reduce X M`, `mulmod A B M` or `pow B E M` (numbers decimal or 0x-hex, separated by
//! whitespace; E may be negative, as in Python's `pow`), and `isprime N` / `nextprime N`
//! (see [`crate::cmd_prime`]). Blank lines are skipped and `#` starts
//! a comment running to the end of the line; neither produces output. A line that fails (bad
//! numbers, not UTF-8, longer than `--max-line-bytes`: see [`crate::lines`]) prints
//! `error: <reason>` in its place and processing continues; the exit code is then 1. The `--reducer`, `--hex`, `--method`,
//! `--window` and `--threads` options apply to every line. Add an operation by extending [`Op`] and [`Op::parse`] / [`Op::run`].

use crate::cli_common::{
    context, escape_controls, parse_number, parse_signed, quote, CliError, Common, Signed,
};
use crate::lines::{Line, LineLimit, Lines};
use crate::out::Out;
use clap::Args as ClapArgs;
use modred::exp::PowOptions;
use modred::reduce::auto::Workload;
use modred::{Modulus, Natural, ReducerKind};
use std::io;
use std::process::ExitCode;

/// Arguments of `modred batch`.
#[derive(ClapArgs, Debug)]
pub struct Args {
    #[command(flatten)]
    pub common: Common,
    #[command(flatten)]
    pub flags: crate::cmd_pow::PowFlags,
    #[command(flatten)]
    pub limit: LineLimit,
}

/// One parsed input line.
enum Op {
    Reduce { x: Natural, m: Natural },
    Mulmod { a: Natural, b: Natural, m: Natural },
    Pow { b: Natural, e: Signed, m: Natural },
}

impl Op {
    fn parse(line: &str) -> Result<Op, CliError> {
        // ASCII whitespace separates the words: the Unicode-aware split decodes every character
        // of a line that may hold megabytes of digits (5% of a one-off 2^18-bit `mulmod`).
        let mut words = line.split_ascii_whitespace();
        let op = words.next().unwrap_or("");
        // At most three numbers are kept; the rest are only counted (a long line of words
        // must not become a vector of pointers eight times its size).
        let mut args = [""; 3];
        let mut count = 0usize;
        for w in words {
            if let Some(slot) = args.get_mut(count) {
                *slot = w;
            }
            count += 1;
        }
        let want = |n: usize, usage: &str| {
            if count == n {
                Ok(())
            } else {
                Err(CliError::usage(format!(
                    "'{op}' takes {n} numbers ({usage}), got {count}"
                )))
            }
        };
        match op {
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
                    e: parse_signed("E", args[1])?,
                    m: parse_number("M", args[2])?,
                })
            }
            other => Err(CliError::usage(format!(
                "unknown operation {} (expected: reduce X M|mulmod A B M|pow B E M|isprime N|nextprime N)",
                quote(other)
            ))),
        }
    }

    fn modulus(&self) -> &Natural {
        match self {
            Op::Reduce { m, .. } | Op::Mulmod { m, .. } | Op::Pow { m, .. } => m,
        }
    }

    fn run(&self, ctx: &Modulus) -> Result<Natural, CliError> {
        match self {
            Op::Reduce { x, .. } => Ok(ctx.try_reduce_vartime(x)?),
            Op::Mulmod { a, b, .. } => Ok(ctx.mul_vartime(a, b)?),
            Op::Pow { .. } => unreachable!("pow lines are run by run_line"),
        }
    }
}

/// The previous line's modulus and the contexts built for it, reused while the lines keep it
/// (the options are the same for every line): 256-bit `pow` lines with one modulus took 5.6
/// µs each with a context built per line, 5.3 µs with it reused.
struct Cache {
    m: Natural,
    /// For reduce and mulmod (`Workload::Single`: classical under `auto`), from the modulus'
    /// second line on: the first is one division without a context.
    single: Option<Modulus>,
    /// For pow (`opts.reducer`, as `exp::pow_vartime` builds it), from the modulus' second
    /// line on: the first takes `modred pow`'s path (and its shortcuts) as it is.
    pow: Option<Modulus>,
}

fn run_line(
    line: &str,
    reducer: ReducerKind,
    opts: &PowOptions,
    cache: &mut Option<Cache>,
) -> Result<Natural, CliError> {
    let op = Op::parse(line)?;
    let m = op.modulus();
    let repeat = cache.as_ref().is_some_and(|c| &c.m == m);
    if !repeat {
        // Never keep a context for a different modulus.
        *cache = Some(Cache {
            m: m.clone(),
            single: None,
            pow: None,
        });
    }
    let c = cache.as_mut().expect("just set");
    match &op {
        // A new modulus: the one-off dispatcher (no context kept).
        Op::Pow { b, e, m } if !repeat => crate::cmd_pow::pow(b, e, m, opts),
        Op::Pow { b, e, m } => {
            if c.pow.is_none() {
                c.pow = Some(Modulus::new(m, opts.reducer)?);
            }
            let ctx = c.pow.as_ref().expect("just built");
            Ok(ctx.pow_signed_vartime(b, &e.mag, e.negative, opts)?)
        }
        // A new modulus under `auto`: one division, no context (as `modred reduce|mulmod`).
        Op::Reduce { x, m } if reducer == ReducerKind::Auto && !repeat => {
            crate::cmd_single::reduce(reducer, x, m)
        }
        Op::Mulmod { a, b, m } if reducer == ReducerKind::Auto && (!repeat || m.len() <= 1) => {
            crate::cmd_single::mulmod(reducer, a, b, m)
        }
        _ => {
            if c.single.is_none() {
                c.single = Some(context(reducer, m, Workload::Single)?);
            }
            op.run(c.single.as_ref().expect("just built"))
        }
    }
}

pub fn run(args: Args) -> Result<ExitCode, CliError> {
    let opts = args.flags.options(args.common.reducer)?; // bad --method/--window/--threads: exit 2
    let mut out = Out::new()?;
    let mut lines = Lines::new(io::stdin().lock(), args.limit.max_line_bytes);
    let mut failed = 0usize;
    let mut cache = None;
    while let Some(line) = lines.next_line(&mut || out.flush())? {
        let result = match line {
            Line::Text(content) if content.is_empty() => continue,
            Line::Text(content) => crate::cmd_prime::batch_line(&content, &args.common)
                .unwrap_or_else(|| {
                    run_line(&content, args.common.reducer, &opts, &mut cache)
                        .and_then(|r| args.common.format(&r))
                }),
            Line::Bad(reason) => Err(CliError::Usage(reason)),
        };
        match result {
            Ok(text) => out.line(text)?,
            Err(e @ CliError::Output(_)) => return Err(e),
            Err(e) => {
                failed += 1;
                out.line(format_args!("error: {}", escape_controls(&e.to_string())))?;
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
