//! Pieces shared by the subcommands: the common options, number parsing, context building and
//! output formatting.

use crate::out::Out;
use clap::Args as ClapArgs;
use modred::reduce::auto::{choose, Workload};
use modred::{Modulus, Natural, ReducerKind};
use std::fmt;
use std::io;

/// An error that ends the command.
#[derive(Debug)]
pub enum CliError {
    /// Bad arguments: exit code 2, the message on stderr.
    Usage(String),
    /// Writing stdout failed: see [`crate::out`] for the exit code.
    Output(io::Error),
}

impl CliError {
    /// A usage error (exit code 2) with this message.
    pub fn usage(msg: impl Into<String>) -> Self {
        CliError::Usage(msg.into())
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Usage(msg) => f.write_str(msg),
            CliError::Output(e) => write!(f, "writing standard output: {e}"),
        }
    }
}

impl From<modred::Error> for CliError {
    fn from(e: modred::Error) -> Self {
        CliError::Usage(e.to_string())
    }
}

/// Options every arithmetic subcommand takes.
#[derive(ClapArgs, Debug, Clone)]
pub struct Common {
    /// Reduction method (see `modred methods`); `auto` picks the fastest correct one.
    #[arg(long, short = 'r', default_value = "auto", value_name = "NAME")]
    pub reducer: ReducerKind,
    /// Print results as 0x-prefixed hexadecimal instead of decimal.
    #[arg(long)]
    pub hex: bool,
}

impl Common {
    /// Print one result in the requested base as the command's whole output.
    pub fn print(&self, x: &Natural) -> Result<(), CliError> {
        let mut out = Out::new()?;
        out.line(self.format(x)?)?;
        out.finish()
    }

    /// A result in the requested base (decimal conversion checks its memory first).
    pub fn format(&self, x: &Natural) -> Result<String, CliError> {
        Ok(if self.hex {
            x.to_hex()
        } else {
            x.to_decimal()?
        })
    }
}

/// Parse a command-line number (decimal or 0x-hex, non-negative); `what` names the operand.
pub fn parse_number(what: &str, text: &str) -> Result<Natural, CliError> {
    Natural::parse(text).map_err(|e| CliError::usage(format!("{what}: {e}")))
}

/// A signed number: `-` then a natural (only exponents take a sign, as in Python's `pow`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Signed {
    /// Below zero (never for zero).
    pub negative: bool,
    /// The absolute value.
    pub mag: Natural,
}

/// Parse an optionally negative command-line number; `what` names the operand.
pub fn parse_signed(what: &str, text: &str) -> Result<Signed, CliError> {
    let t = text.trim();
    let (negative, digits) = match t.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, t),
    };
    if negative && digits.starts_with(['-', '+']) {
        return Err(CliError::usage(format!(
            "{what}: cannot parse {} as an integer",
            quote(t)
        )));
    }
    let mag = parse_number(what, digits)?;
    Ok(Signed {
        negative: negative && !mag.is_zero(),
        mag,
    })
}

/// Longest part of a user's token quoted in a message (a bad token may be megabytes long).
pub const QUOTE_CHARS: usize = 80;

/// `text` in single quotes for an error message: at most [`QUOTE_CHARS`] characters (then
/// `...` and the total length), control characters escaped.
pub fn quote(text: &str) -> String {
    let mut q = String::from("'");
    for c in text.chars().take(QUOTE_CHARS) {
        q.extend(c.escape_debug());
    }
    q.push('\'');
    if text.chars().nth(QUOTE_CHARS).is_some() {
        q.push_str(&format!("... ({} bytes)", text.len()));
    }
    q
}

/// `msg` with its control characters escaped as [`char::escape_debug`] does (`\0`, `\t`,
/// `\u{1b}`), printable text (any UTF-8) as is: an `error:` line echoes the user's text and
/// must stay one line without raw control bytes.
pub fn escape_controls(msg: &str) -> String {
    let mut s = String::with_capacity(msg.len());
    for c in msg.chars() {
        if c.is_control() {
            s.extend(c.escape_debug());
        } else {
            s.push(c);
        }
    }
    s
}

/// The context for `reducer` and modulus `m`. `auto` resolves to the method
/// [`choose`] picks for `workload`; a single operation gets the classical method (no
/// precomputation pays off and its argument size is unrestricted).
pub fn context(reducer: ReducerKind, m: &Natural, workload: Workload) -> Result<Modulus, CliError> {
    if m.is_zero() {
        return Err(modred::Error::ZeroModulus.into());
    }
    let kind = match reducer {
        ReducerKind::Auto => choose(m.limbs(), workload).kind,
        kind => kind,
    };
    Ok(Modulus::new(m, kind)?)
}

/// Bytes of a hex string with an optional `0x` prefix: big-endian, two digits a byte. With
/// `odd_ok` an odd number of digits reads as if a leading 0 were there (an integer); without
/// it, an odd count is an error (call data).
pub fn parse_hex(text: &str, odd_ok: bool) -> Result<Vec<u8>, String> {
    let digits = text
        .strip_prefix("0x")
        .or_else(|| text.strip_prefix("0X"))
        .unwrap_or(text);
    if digits.len() % 2 == 1 && !odd_ok {
        return Err(format!(
            "odd number of hex digits ({}) in the input",
            digits.len()
        ));
    }
    let nibble = |c: u8| match c {
        b'0'..=b'9' => Ok(c - b'0'),
        b'a'..=b'f' => Ok(c - b'a' + 10),
        b'A'..=b'F' => Ok(c - b'A' + 10),
        _ => Err(format!(
            "{} is not a hex digit",
            quote(&(c as char).to_string())
        )),
    };
    let bytes = digits.as_bytes();
    let (head, rest) = bytes.split_at(bytes.len() % 2);
    let mut out = Vec::with_capacity(bytes.len().div_ceil(2));
    if let [c] = head {
        out.push(nibble(*c)?);
    }
    for p in rest.chunks(2) {
        out.push(nibble(p[0])? << 4 | nibble(p[1])?);
    }
    Ok(out)
}

/// `0x` and the bytes in lowercase hex.
pub fn hex_string(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(2 + 2 * bytes.len());
    s.push_str("0x");
    for b in bytes {
        s.push_str(&format!("{b:02x}"));
    }
    s
}
