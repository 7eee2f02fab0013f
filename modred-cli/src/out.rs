//! Standard output and error for every subcommand, with write errors handled.
//!
//! `println!` panics when stdout fails (exit 101 on a full disk or a closed pipe). A stdout
//! closed at start-up (`>&-`) is reopened as /dev/null by std before `main`, and then cannot
//! be told apart from /dev/null opened read-write (Python's `subprocess.DEVNULL`, Go's
//! `os/exec`, systemd's `StandardOutput=null`): both are written to and exit 0. [`Out`] is the locked,
//! buffered stdout every subcommand writes through instead: each write error becomes
//! [`CliError::Output`], and [`Out::finish`] flushes so that exit code 0 means every byte was
//! written. `main` then ends a broken pipe quietly with [`EXIT_BROKEN_PIPE`] (what a shell
//! reports for a process killed by SIGPIPE, as `cat` or `yes` would be) and any other write
//! error with one message on stderr and [`EXIT_OUTPUT`]. [`warn`] writes that message without
//! ever panicking, even on a full stderr.

use crate::cli_common::CliError;
use std::fmt::Display;
use std::io::{self, BufWriter, IsTerminal, StdoutLock, Write};

/// Exit code when stdout could not be written (full disk, closed stdout, I/O error).
pub const EXIT_OUTPUT: u8 = 3;
/// Exit code when the reader of stdout went away (EPIPE): 128 + SIGPIPE, no message.
pub const EXIT_BROKEN_PIPE: u8 = 128 + 13;

/// Locked, buffered stdout whose write errors are [`CliError::Output`].
pub struct Out {
    w: BufWriter<StdoutLock<'static>>,
}

impl Out {
    /// Stdout (a `Result` so that every subcommand's output set-up reads alike).
    pub fn new() -> Result<Self, CliError> {
        Ok(Self {
            w: BufWriter::with_capacity(64 * 1024, io::stdout().lock()),
        })
    }

    /// `text` and a newline.
    pub fn line(&mut self, text: impl Display) -> Result<(), CliError> {
        writeln!(self.w, "{text}").map_err(CliError::Output)
    }

    /// `text` as is.
    pub fn text(&mut self, text: &str) -> Result<(), CliError> {
        self.w.write_all(text.as_bytes()).map_err(CliError::Output)
    }

    /// Push what is buffered to stdout (before waiting for input, so an interactive reader
    /// sees each answer).
    pub fn flush(&mut self) -> Result<(), CliError> {
        self.w.flush().map_err(CliError::Output)
    }

    /// Flush and report whether everything was written.
    pub fn finish(mut self) -> Result<(), CliError> {
        self.flush()
    }

    /// Whether stdout is a terminal.
    pub fn is_terminal(&self) -> bool {
        io::stdout().is_terminal()
    }
}

/// One message on stderr, prefixed with `modred: `; a failing stderr is ignored (there is
/// nowhere left to report it), never a panic.
pub fn warn(msg: impl Display) {
    let _ = writeln!(io::stderr().lock(), "modred: {msg}");
}

/// The exit code for a write error of stdout, after reporting it (quietly for EPIPE).
pub fn output_error_code(e: &io::Error) -> u8 {
    if e.kind() == io::ErrorKind::BrokenPipe {
        return EXIT_BROKEN_PIPE;
    }
    warn(format_args!("error: writing standard output: {e}"));
    EXIT_OUTPUT
}
