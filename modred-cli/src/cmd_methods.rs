//! `modred methods`: every reducer with its restrictions and memory, and every exponentiation
//! method with its tables' memory (k = limbs of m), as aligned tables, then the kernel tier in
//! use.

use crate::cli_common::CliError;
use crate::out::Out;
use clap::Args as ClapArgs;
use modred::REDUCERS;
use std::process::ExitCode;

/// Arguments of `modred methods` (none yet).
#[derive(ClapArgs, Debug)]
pub struct Args {}

/// Render rows as left-aligned columns separated by two spaces.
pub fn table(header: &[&str], rows: &[Vec<String>]) -> String {
    let mut width: Vec<usize> = header.iter().map(|h| h.len()).collect();
    for r in rows {
        for (w, c) in width.iter_mut().zip(r) {
            *w = (*w).max(c.len());
        }
    }
    let mut s = String::new();
    let mut line = |cells: Vec<&str>| {
        let n = cells.len();
        for (i, (c, w)) in cells.iter().zip(&width).enumerate() {
            if i + 1 == n {
                s.push_str(c);
            } else {
                s.push_str(&format!("{c:<w$}  "));
            }
        }
        s.push('\n');
    };
    line(header.to_vec());
    for r in rows {
        line(r.iter().map(String::as_str).collect());
    }
    s
}

/// `kernel tier: <tier> (this CPU: <tiers>)`: the tier in use (the CPU's best, capped by
/// `MODRED_CPU=portable|adx|ifma`) and every tier the CPU has.
pub fn tier_line() -> String {
    let have: Vec<String> = modred::cpu::available()
        .iter()
        .map(ToString::to_string)
        .collect();
    format!(
        "kernel tier: {} (this CPU: {})",
        modred::cpu::tier(),
        have.join(", ")
    )
}

pub fn run(_: Args) -> Result<ExitCode, CliError> {
    let rows: Vec<Vec<String>> = REDUCERS
        .iter()
        .map(|r| {
            vec![
                r.name.to_string(),
                if r.needs_odd { "yes" } else { "no" }.to_string(),
                r.restriction.to_string(),
                r.memory.to_string(),
                r.summary.to_string(),
            ]
        })
        .collect();
    let mut out = Out::new()?;
    out.line("Reducers (--reducer NAME):")?;
    out.text(&table(
        &["NAME", "ODD M ONLY", "RESTRICTION", "MEMORY", "SUMMARY"],
        &rows,
    ))?;
    let rows: Vec<Vec<String>> = modred::exp::METHODS
        .iter()
        .map(|m| {
            vec![
                m.name.to_string(),
                m.memory.to_string(),
                m.summary.to_string(),
            ]
        })
        .collect();
    out.line("")?;
    out.line("Exponentiation methods (pow --method NAME):")?;
    out.text(&table(&["NAME", "MEMORY", "SUMMARY"], &rows))?;
    out.line("")?;
    out.line(tier_line())?;
    out.finish()?;
    Ok(ExitCode::SUCCESS)
}
