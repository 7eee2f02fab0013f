//! Line input of `batch` and `evm-modexp`: stdin read as bytes, in chunks, with a bound on the
//! line length.
//!
//! Each input line gives one [`Line`]: its content (the text before any `#`, trimmed), or the
//! reason it cannot be used — not UTF-8, or longer than the limit (`--max-line-bytes`). A line
//! over the limit is reported as soon as the limit is passed and the rest of it is read and
//! dropped up to its newline, so memory stays bounded by the limit whatever the input (even
//! `/dev/zero`). Only the content before `#` must be UTF-8: a comment is never looked at.

use crate::cli_common::CliError;
use clap::Args as ClapArgs;
use std::io::{self, Read};

/// Default `--max-line-bytes`: 64 MiB (a 2^27-bit number in hex is 32 MiB).
pub const DEFAULT_MAX_LINE_BYTES: usize = 64 << 20;

/// Bytes read from stdin at a time.
const CHUNK: usize = 64 * 1024;

/// The `--max-line-bytes` option of the line-reading subcommands.
#[derive(ClapArgs, Debug, Clone)]
pub struct LineLimit {
    /// Longest input line accepted, in bytes (newline excluded); a longer line prints an
    /// `error:` line and is skipped without being held in memory.
    #[arg(long, value_name = "BYTES", default_value_t = DEFAULT_MAX_LINE_BYTES)]
    pub max_line_bytes: usize,
}

/// One input line.
pub enum Line {
    /// The content before any `#`, without surrounding whitespace; empty for blank and
    /// comment lines (which produce no output).
    Text(String),
    /// Why the line cannot be used (it produces an `error:` line).
    Bad(String),
}

/// The lines of a byte stream.
pub struct Lines<R> {
    input: R,
    chunk: Box<[u8]>,
    /// `chunk[start..end]` is read but not yet consumed.
    start: usize,
    end: usize,
    eof: bool,
    /// The current line's bytes so far (at most `max` of them).
    line: Vec<u8>,
    max: usize,
    /// 1-based number of the line being read.
    number: usize,
    /// The current line is over the limit, already reported: drop bytes up to its newline.
    skipping: bool,
}

impl<R: Read> Lines<R> {
    /// Lines of `input`, each at most `max` bytes.
    pub fn new(input: R, max: usize) -> Self {
        Self {
            input,
            chunk: vec![0; CHUNK].into_boxed_slice(),
            start: 0,
            end: 0,
            eof: false,
            line: Vec::new(),
            max,
            number: 0,
            skipping: false,
        }
    }

    /// The next line, `None` at the end of the input. `before_wait` runs whenever the buffered
    /// input is used up and the next read may block (flush the answers there, so that a reader
    /// waiting for them sees them).
    pub fn next_line(
        &mut self,
        before_wait: &mut dyn FnMut() -> Result<(), CliError>,
    ) -> Result<Option<Line>, CliError> {
        loop {
            if self.start == self.end {
                if self.eof {
                    return Ok(self.take_last());
                }
                before_wait()?;
                self.fill()?;
                continue;
            }
            let avail = &self.chunk[self.start..self.end];
            let newline = avail.iter().position(|&b| b == b'\n');
            let piece = &avail[..newline.unwrap_or(avail.len())];
            self.start += piece.len() + usize::from(newline.is_some());
            if !self.skipping {
                // One byte over the limit is held until the line ends: a CR ending it (CRLF)
                // does not count.
                let held = self.line.len() + piece.len();
                let last = piece.last().or(self.line.last());
                let ended = newline.is_some();
                if held > self.max.saturating_add(1)
                    || (ended && held > self.max && last != Some(&b'\r'))
                {
                    // Report now (the line may never end) and drop the rest of it.
                    let max = self.max;
                    return Ok(Some(self.drop_line(ended, |n| {
                        format!("line {n} is longer than {max} bytes (--max-line-bytes)")
                    })));
                }
                if self.line.try_reserve(piece.len()).is_err() {
                    // Under an address-space limit: the same, for lack of memory.
                    return Ok(Some(self.drop_line(ended, |n| {
                        format!("line {n}: {held} bytes and more cannot be held in memory")
                    })));
                }
                self.line.extend_from_slice(piece);
            }
            if newline.is_some() {
                if self.skipping {
                    self.skipping = false;
                    continue;
                }
                self.number += 1;
                return Ok(Some(self.finish_line()));
            }
        }
    }

    /// The current line as a [`Line::Bad`] with `reason(its number)`, its bytes so far released
    /// and, unless it has `ended`, the rest of it dropped up to its newline.
    fn drop_line(&mut self, ended: bool, reason: impl FnOnce(usize) -> String) -> Line {
        self.line = Vec::new();
        self.skipping = !ended;
        self.number += 1;
        Line::Bad(reason(self.number))
    }

    /// At the end of the input: the last line if it has no newline.
    fn take_last(&mut self) -> Option<Line> {
        if self.line.is_empty() {
            return None;
        }
        if self.line.len() > self.max && self.line.last() != Some(&b'\r') {
            let max = self.max;
            return Some(self.drop_line(true, |n| {
                format!("line {n} is longer than {max} bytes (--max-line-bytes)")
            }));
        }
        self.number += 1;
        Some(self.finish_line())
    }

    fn fill(&mut self) -> Result<(), CliError> {
        loop {
            match self.input.read(&mut self.chunk) {
                Ok(n) => {
                    (self.start, self.end, self.eof) = (0, n, n == 0);
                    return Ok(());
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    return Err(CliError::usage(format!("reading standard input: {e}")));
                }
            }
        }
    }

    /// The current line as a [`Line`], leaving the buffer empty (its capacity kept).
    fn finish_line(&mut self) -> Line {
        let bytes = &self.line[..];
        let content = &bytes[..bytes.iter().position(|&b| b == b'#').unwrap_or(bytes.len())];
        let line = match std::str::from_utf8(content) {
            // A long line is moved out, not copied (memory may hold only one copy).
            Ok(s) if s.len() > CHUNK => {
                let (start, len) = (s.len() - s.trim_start().len(), s.trim().len());
                let mut text = std::mem::take(&mut self.line);
                text.truncate(start + len);
                text.drain(..start);
                Line::Text(String::from_utf8(text).expect("checked above"))
            }
            Ok(s) => Line::Text(s.trim().to_string()),
            Err(e) => {
                let at = e.valid_up_to();
                Line::Bad(format!(
                    "line {} is not valid UTF-8 (byte 0x{:02x} at column {})",
                    self.number,
                    content[at],
                    at + 1
                ))
            }
        };
        self.line.clear();
        if self.line.capacity() > CHUNK * 16 {
            self.line = Vec::new(); // do not keep a huge line's buffer for the rest of the run
        }
        line
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(input: &[u8], max: usize) -> Vec<String> {
        let mut lines = Lines::new(input, max);
        let mut out = Vec::new();
        while let Some(l) = lines.next_line(&mut || Ok(())).unwrap() {
            out.push(match l {
                Line::Text(t) => t,
                Line::Bad(b) => format!("BAD {b}"),
            });
        }
        out
    }

    #[test]
    fn splits_strips_comments_and_whitespace() {
        assert_eq!(
            all(b"a b\r\n  # c\n\n x # y\nlast", 100),
            ["a b", "", "", "x", "last"]
        );
        assert!(all(b"", 100).is_empty());
    }

    #[test]
    fn bad_utf8_and_long_lines_are_one_error_each() {
        let got = all(b"ok\n\xff\x80\nok2 # caf\xe9\n0123456789abc\nend", 10);
        assert_eq!(got[0], "ok");
        assert!(got[1].starts_with("BAD line 2 is not valid UTF-8 (byte 0xff at column 1)"));
        assert_eq!(got[2], "ok2");
        assert!(got[3].starts_with("BAD line 4 is longer than 10 bytes"));
        assert_eq!(got[4], "end");
        assert_eq!(got.len(), 5);
    }

    #[test]
    fn long_lines_across_chunks_and_at_the_end() {
        let mut input = vec![b'7'; 3 * CHUNK + 5];
        input.extend_from_slice(b"\nnext\n");
        input.extend(vec![b'1'; 2 * CHUNK]); // unterminated and too long
        let got = all(&input, CHUNK);
        assert_eq!(got.len(), 3, "{got:?}");
        assert!(got[0].starts_with("BAD line 1 is longer"));
        assert_eq!(got[1], "next");
        assert!(got[2].starts_with("BAD line 3 is longer"));
        // Exactly at the limit is fine.
        let exact = vec![b'5'; CHUNK + 3];
        assert_eq!(all(&exact, CHUNK + 3), [String::from_utf8(exact).unwrap()]);
    }

    /// Input read one byte at a time: a CR and its LF in different reads.
    struct Trickle<'a>(&'a [u8]);

    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = self.0.len().min(buf.len()).min(1);
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    /// The CR of a CRLF line (or one ending the input) does not count toward the limit; any
    /// other byte over it does.
    #[test]
    fn crlf_does_not_count_toward_the_limit() {
        let input = b"12345\r\n123456\r\n1234\r\r\n12\r456\n12345\r";
        let want = ["12345", "BAD line 2", "1234", "BAD line 4", "12345"];
        for trickle in [false, true] {
            let mut lines = if trickle {
                Lines::new(Box::new(Trickle(input)) as Box<dyn Read>, 5)
            } else {
                Lines::new(Box::new(&input[..]) as Box<dyn Read>, 5)
            };
            let mut got = Vec::new();
            while let Some(l) = lines.next_line(&mut || Ok(())).unwrap() {
                got.push(match l {
                    Line::Text(t) => t,
                    Line::Bad(b) => format!("BAD {b}"),
                });
            }
            assert_eq!(got.len(), want.len(), "{got:?}");
            for (g, w) in got.iter().zip(want) {
                assert!(g.starts_with(w), "trickle {trickle}: {got:?}");
            }
        }
    }
}
