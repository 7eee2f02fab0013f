//! `modred-count`: counts the single-precision multiplications and divisions of operations
//! read from stdin, one per line (`reduce NAME M X`, `mul NAME M A B`, `schoolbook LIMBS A B`;
//! see [`modred_report::opcount::Op`]), and prints `MULS DIVS` per line, or `error: REASON` for a bad
//! line. Built only with the `count` feature; `modred-report` builds it unoptimised and runs it
//! when its own build has no counters (a counting build of modred slows every kernel).

use modred_report::opcount::Op;
use std::io::{BufRead, Write};

fn main() {
    let stdin = std::io::stdin().lock();
    let mut stdout = std::io::stdout().lock();
    for line in stdin.lines() {
        let Ok(line) = line else {
            eprintln!("modred-count: stdin is not UTF-8 text");
            std::process::exit(2);
        };
        let reply = match Op::parse_line(&line).and_then(|op| op.count()) {
            Ok(c) => format!("{} {}", c.muls, c.divs),
            Err(e) => format!("error: {e}"),
        };
        // One reply per request, flushed at once: the caller waits for it before the next.
        if writeln!(stdout, "{reply}")
            .and_then(|()| stdout.flush())
            .is_err()
        {
            return; // the reader has gone away
        }
    }
}
