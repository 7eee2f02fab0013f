//! Pieces shared by the subcommands: the common options, number parsing, context building and
//! output formatting.

use clap::Args as ClapArgs;
use modred::reduce::auto::{choose, Workload};
use modred::reduce::{self, ModContext};
use modred::Natural;
use std::fmt;

/// An error that ends the command with exit code 2 (its message goes to stderr).
#[derive(Debug)]
pub struct CliError(pub String);

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<modred::Error> for CliError {
    fn from(e: modred::Error) -> Self {
        CliError(e.to_string())
    }
}

/// Options every arithmetic subcommand takes.
#[derive(ClapArgs, Debug, Clone)]
pub struct Common {
    /// Reduction method (see `modred methods`); `auto` picks the fastest correct one.
    #[arg(long, short = 'r', default_value = "auto", value_name = "NAME")]
    pub reducer: String,
    /// Print results as 0x-prefixed hexadecimal instead of decimal.
    #[arg(long)]
    pub hex: bool,
}

impl Common {
    /// Fail early (exit 2) on an unknown reducer name.
    pub fn check_reducer(&self) -> Result<(), CliError> {
        reduce::info(&self.reducer)?;
        Ok(())
    }

    /// A result in the requested base.
    pub fn format(&self, x: &Natural) -> String {
        if self.hex {
            x.to_hex()
        } else {
            x.to_decimal()
        }
    }
}

/// Parse a command-line number (decimal or 0x-hex, non-negative); `what` names the operand.
pub fn parse_number(what: &str, text: &str) -> Result<Natural, CliError> {
    Natural::parse(text).map_err(|e| CliError(format!("{what}: {e}")))
}

/// The context for `reducer` and modulus `m`. `auto` resolves to the method
/// [`choose`] picks for `workload`; a single operation gets the classical method (no
/// precomputation pays off and its argument size is unrestricted).
pub fn context(reducer: &str, m: &Natural, workload: Workload) -> Result<ModContext, CliError> {
    reduce::info(reducer)?;
    if m.is_zero() {
        return Err(modred::Error::ZeroModulus.into());
    }
    let name = if reducer == "auto" {
        choose(m.limbs(), workload).name
    } else {
        reducer
    };
    Ok(ModContext::new(name, m)?)
}
