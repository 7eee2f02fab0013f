//! `modred rsa private|public --key FILE [HEX]`: the raw RSA operations (RSADP/RSASP1 and
//! RSAEP/RSAVP1 of RFC 8017, no padding) with a key from a PEM or DER file.
//!
//! `private` needs a private key (PKCS#1 "RSA PRIVATE KEY" or PKCS#8 "PRIVATE KEY", PEM or
//! DER, unencrypted); `public` takes a private or a public key ("RSA PUBLIC KEY", "PUBLIC
//! KEY"). With HEX on the command line, that one input; otherwise one input per stdin line
//! (`0x` optional; blank lines skipped, `#` starts a comment, as in `batch`; lines bounded by
//! `--max-line-bytes`). Each result is `0x` and lowercase hex, zero-padded to the modulus
//! length in bytes. An input that is not hex or is not below n prints `error: <reason>` in its
//! place; the exit code is then 1. A key that cannot be read or is invalid: exit code 2.

use crate::cli_common::{escape_controls, hex_string, parse_hex, CliError};
use crate::lines::{Line, LineLimit, Lines};
use crate::out::Out;
use clap::{Args as ClapArgs, Subcommand};
use modred::rsa::{PrivateKey, PublicKey};
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Largest key file read (a 16384-bit private key in PEM is about 12 KiB).
const MAX_KEY_FILE_BYTES: u64 = 1 << 20;

/// Arguments of `modred rsa`.
#[derive(ClapArgs, Debug)]
pub struct Args {
    #[command(subcommand)]
    pub op: Op,
}

/// The operation.
#[derive(Subcommand, Debug)]
pub enum Op {
    /// c^d mod n with a private key (CRT, blinding, checked with e; constant time).
    Private(OpArgs),
    /// x^e mod n with a public (or private) key.
    Public(OpArgs),
}

/// Arguments of `modred rsa private` and `modred rsa public`.
#[derive(ClapArgs, Debug)]
pub struct OpArgs {
    /// The key file: PEM or DER.
    #[arg(long, value_name = "FILE")]
    pub key: PathBuf,
    /// The input in hex (`0x` optional); without it, one input per stdin line.
    pub hex: Option<String>,
    #[command(flatten)]
    pub limit: LineLimit,
}

/// The key file's bytes (at most [`MAX_KEY_FILE_BYTES`]).
fn read_key_file(path: &Path) -> Result<Vec<u8>, CliError> {
    let fail =
        |e: io::Error| CliError::usage(format!("cannot read key file {}: {e}", path.display()));
    let file = std::fs::File::open(path).map_err(fail)?;
    let mut data = Vec::new();
    file.take(MAX_KEY_FILE_BYTES + 1)
        .read_to_end(&mut data)
        .map_err(fail)?;
    if data.len() as u64 > MAX_KEY_FILE_BYTES {
        return Err(CliError::usage(format!(
            "key file {} is larger than {MAX_KEY_FILE_BYTES} bytes: not a key",
            path.display()
        )));
    }
    Ok(data)
}

/// A loaded key: what the operation needs.
enum Key {
    Private(Box<PrivateKey>),
    Public(PublicKey),
}

impl Key {
    fn size(&self) -> usize {
        match self {
            Key::Private(k) => k.public_key().size(),
            Key::Public(k) => k.size(),
        }
    }

    /// The result line of one input, or the reason it fails.
    fn result_line(&self, text: &str) -> Result<String, String> {
        let x = parse_hex(text, true)?;
        let out = match self {
            Key::Private(k) => k.private_op_bytes(&x),
            Key::Public(k) => k.public_op_bytes(&x),
        }
        .map_err(|e| e.to_string())?;
        debug_assert_eq!(out.len(), self.size());
        Ok(hex_string(&out))
    }
}

pub fn run(args: Args) -> Result<ExitCode, CliError> {
    let (a, key) = match args.op {
        Op::Private(a) => {
            let data = read_key_file(&a.key)?;
            let key = PrivateKey::from_pem_or_der(&data)
                .map_err(|e| CliError::usage(format!("{}: {e}", a.key.display())))?;
            (a, Key::Private(Box::new(key)))
        }
        Op::Public(a) => {
            let data = read_key_file(&a.key)?;
            let key = PublicKey::from_pem_or_der(&data)
                .map_err(|e| CliError::usage(format!("{}: {e}", a.key.display())))?;
            (a, Key::Public(key))
        }
    };
    let mut out = Out::new()?;
    let mut failed = 0usize;
    let mut emit = |line: Result<String, String>, out: &mut Out| match line {
        Ok(line) => out.line(line),
        Err(e) => {
            failed += 1;
            out.line(format_args!("error: {}", escape_controls(&e)))
        }
    };
    match &a.hex {
        Some(hex) => emit(key.result_line(hex.trim()), &mut out)?,
        None => {
            let mut lines = Lines::new(io::stdin().lock(), a.limit.max_line_bytes);
            while let Some(line) = lines.next_line(&mut || out.flush())? {
                match line {
                    Line::Text(content) if content.is_empty() => {}
                    Line::Text(content) => emit(key.result_line(&content), &mut out)?,
                    Line::Bad(reason) => emit(Err(reason), &mut out)?,
                }
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
