//! `modred-report` under hostile conditions: argument errors are usage errors (exit 2) refused
//! before any section runs; a full stderr (progress lines) and a full stdout change nothing
//! but the exit code, never a panic.

use std::process::{Command, Output, Stdio};

fn report(args: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_modred-report"));
    c.args(args);
    c
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn no_panic(o: &Output) {
    let err = stderr(o);
    assert!(!err.contains("panicked"), "panicked: {err}");
    assert_ne!(o.status.code(), Some(101), "exit 101: {err}");
    assert_ne!(o.status.code(), None, "killed by a signal: {err}");
}

fn dev_full() -> Stdio {
    Stdio::from(
        std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .expect("/dev/full"),
    )
}

/// `report` argument errors are usage errors (2), as documented.
#[test]
fn report_argument_errors_exit_2() {
    // An --out below a regular file cannot be created (whatever the user's rights).
    let file = std::env::temp_dir().join(format!("modred-report-file-{}", std::process::id()));
    std::fs::write(&file, b"x").unwrap();
    let below = file.join("out");
    let below = below.to_str().unwrap();
    // Small sizes: without the early checks the section would run (and fail late).
    let tiny = ["--only", "seed002-table3", "--sizes", "128", "--rounds"];
    let out_args = [&tiny[..], &["1", "--out", below]].concat();
    let out_needle = format!("--out {below}");
    for (args, needle) in [
        (&["--sizes", "0"][..], "--sizes"),
        (&["--only", "no-such-section"], "no such section"),
        (&[&tiny[..], &["0"]].concat(), "--rounds must be at least 1"),
        (&out_args, out_needle.as_str()),
        (&["--tiers", "fast"], "--tiers fast: not a kernel tier"),
        (&["--tiers", "ifma"], "--tiers ifma"),
        (&["--tiers", "none,adx"], "--tiers none"),
    ] {
        let o = report(args).output().unwrap();
        no_panic(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(o.stdout.is_empty());
        assert!(stderr(&o).contains(needle), "{args:?}: {}", stderr(&o));
        // Refused before any section runs.
        assert!(
            !stderr(&o).contains("section 1/"),
            "{args:?}: {}",
            stderr(&o)
        );
    }
    std::fs::remove_file(&file).unwrap();
}

/// The report's progress lines on a full stderr are dropped quietly: the section still runs
/// and its tables still go to stdout.
#[test]
fn report_on_a_full_stderr() {
    let dir = std::env::temp_dir().join(format!("modred-report-full-{}", std::process::id()));
    let o = report(&["--no-count-child", "--only", "seed003", "--quick"])
        .args(["--rounds", "1", "--out"])
        .arg(&dir)
        .stderr(dev_full())
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    no_panic(&o);
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).contains("Bloemen"), "{}", stdout(&o));
}
