//! End-to-end tests of the `modred` binary under hostile conditions (issue 16): stdout on a
//! full disk, closed, or a pipe whose reader is gone; a full stderr; batch input that is not
//! UTF-8, with lines too long for memory, or with megabyte tokens; negative exponents; tables
//! too large to build. Every case must end with its documented exit code and at most one
//! message, never a panic (101) or an abort.

use std::fs::File;
use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, Output, Stdio};
use std::sync::mpsc;
use std::time::Duration;

const BIN: &str = env!("CARGO_BIN_EXE_modred");

fn modred(args: &[&str]) -> Command {
    let mut c = Command::new(BIN);
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

/// Runs `c` with `input` on stdin (written from a thread, so large inputs cannot deadlock)
/// and stdout captured.
fn with_stdin(mut c: Command, input: Vec<u8>) -> Output {
    c.stdout(Stdio::piped());
    with_stdin_to(c, input)
}

/// [`with_stdin`] with stdout as set on `c`.
fn with_stdin_to(mut c: Command, input: Vec<u8>) -> Output {
    let mut child = c
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn modred");
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input); // the child may stop reading early
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    out
}

fn dev_full() -> Stdio {
    Stdio::from(File::create("/dev/full").expect("/dev/full exists on Linux"))
}

/// Stdout on a full disk: exit 3 and exactly one message, for every kind of output.
#[test]
fn full_disk_is_exit_3_with_one_message() {
    let cases: &[&[&str]] = &[
        &["reduce", "5", "3"],
        &["mulmod", "5", "6", "7"],
        &["pow", "3", "-1", "7"],
        &["methods"],
        &["--help"],
        &["--version"],
        &["reduce", "--help"],
        &["evm-modexp", "0x"],
    ];
    for args in cases {
        let o = modred(args).stdout(dev_full()).output().unwrap();
        no_panic(&o);
        assert_eq!(o.status.code(), Some(3), "{args:?}: {}", stderr(&o));
        let err = stderr(&o);
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains("No space left on device"), "{args:?}: {err}");
    }
    let mut c = modred(&["batch"]);
    c.stdout(dev_full());
    let o = with_stdin_to(c, b"reduce 5 3\n".to_vec());
    no_panic(&o);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
}

/// Stdout on /dev/null opened read-write (`1<>/dev/null`, as Python's `subprocess.DEVNULL`,
/// Go's `os/exec` and systemd start a program) or write-only, and stdout closed (`>&-`, which
/// std reopens as /dev/null read-write, so it cannot be told apart): exit 0, no message.
#[test]
fn dev_null_stdout_is_success() {
    for args in ["reduce 5 3", "--version", "methods", "pow 3 5 7"] {
        for redirect in ["1<>/dev/null", ">/dev/null", ">&-"] {
            let o = Command::new("sh")
                .arg("-c")
                .arg(format!("exec \"$0\" {args} {redirect}"))
                .arg(BIN)
                .output()
                .unwrap();
            no_panic(&o);
            assert_eq!(
                o.status.code(),
                Some(0),
                "{args} {redirect}: {}",
                stderr(&o)
            );
            assert!(o.stderr.is_empty(), "{args} {redirect}: {}", stderr(&o));
        }
    }
    let o = modred(&["reduce", "5", "3"])
        .stdout(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

/// A pipe whose read end is already closed.
fn broken_pipe() -> Stdio {
    let mut fds = [0; 2];
    // SAFETY: pipe fills two new descriptors; the read end is closed at once and the write end
    // is owned by the returned Stdio.
    unsafe {
        assert_eq!(libc::pipe(fds.as_mut_ptr()), 0);
        libc::close(fds[0]);
        Stdio::from(<std::os::fd::OwnedFd as std::os::fd::FromRawFd>::from_raw_fd(fds[1]))
    }
}

/// The reader of stdout is gone: a quiet exit with 141 (as for SIGPIPE), no panic.
#[test]
fn broken_pipe_ends_quietly() {
    let big = format!("0x{}", "f".repeat(40_000));
    let cases: Vec<Vec<&str>> = vec![
        vec![
            "mulmod",
            &big,
            &big,
            "0x1000000000000000000000000000000000000001",
        ],
        vec!["mulmod", &big, "1", &big[..30_000]],
        vec!["methods"],
        vec!["--help"],
    ];
    for args in &cases {
        let o = modred(args).stdout(broken_pipe()).output().unwrap();
        no_panic(&o);
        assert_eq!(o.status.code(), Some(141), "{}", stderr(&o));
        assert!(o.stderr.is_empty(), "not quiet: {}", stderr(&o));
    }
    // batch: many lines into a reader that went away.
    let mut c = modred(&["batch"]);
    c.stdout(broken_pipe());
    let o = with_stdin_to(c, b"reduce 5 3\n".repeat(100_000));
    no_panic(&o);
    assert_eq!(o.status.code(), Some(141), "{}", stderr(&o));
    assert!(o.stderr.is_empty(), "{}", stderr(&o));
}

/// A full stderr does not turn a usage error (2) into a panic (101).
#[test]
fn full_stderr_keeps_the_exit_code() {
    for (args, code) in [
        (&["reduce", "5", "0"][..], 2),
        (&["pow", "2", "-1", "4"], 2),
        (&["no-such-command"], 2),
    ] {
        let o = modred(args).stderr(dev_full()).output().unwrap();
        assert_eq!(o.status.code(), Some(code), "{args:?}");
    }
    // A warning on a full stderr is lost quietly; the result still goes to stdout.
    let o = modred(&["methods"])
        .env("MODRED_CPU", "bogus")
        .stderr(dev_full())
        .output()
        .unwrap();
    no_panic(&o);
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).contains("montgomery"), "{}", stdout(&o));
    let o = modred(&["pow", "3", "5", "7"])
        .env("MODRED_CPU", "bogus")
        .stderr(dev_full())
        .output()
        .unwrap();
    no_panic(&o);
    assert_eq!((o.status.code(), stdout(&o).as_str()), (Some(0), "5\n"));
    // Both full: stdout's error is the exit code, the message is lost quietly.
    let o = modred(&["reduce", "5", "3"])
        .stdout(dev_full())
        .stderr(dev_full())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(3));
}

/// A non-UTF-8 line is one error line; the lines after it are still answered.
#[test]
fn batch_non_utf8_line_is_one_error_line() {
    let input =
        b"reduce 10 7\nreduce 1\xff0 7\n\xc3\x28\nreduce 11 7 # caf\xe9\nmulmod 3 4 5\n".to_vec();
    let o = with_stdin(modred(&["batch"]), input);
    no_panic(&o);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 5, "{out}");
    assert_eq!(lines[0], "3");
    assert!(lines[1].starts_with("error: line 2 is not valid UTF-8 (byte 0xff at column 9)"));
    assert!(lines[2].starts_with("error: line 3 is not valid UTF-8"));
    assert_eq!(lines[3], "4", "a bad byte in a comment is ignored");
    assert_eq!(lines[4], "2");
    // evm-modexp reads its lines the same way.
    let o = with_stdin(modred(&["evm-modexp"]), b"0x\n\xfe\n0x\n".to_vec());
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert!(lines[1].starts_with("error: line 2 is not valid UTF-8"));
    assert_eq!(lines[0], lines[2]);
}

/// Runs `c` with its address space limited to `bytes` (RLIMIT_AS): an unbounded buffer would
/// abort the process.
fn limit_memory(c: &mut Command, bytes: u64) {
    // SAFETY: setrlimit is async-signal-safe, as pre_exec requires; nothing else runs there.
    unsafe {
        c.pre_exec(move || {
            let lim = libc::rlimit {
                rlim_cur: bytes,
                rlim_max: bytes,
            };
            if libc::setrlimit(libc::RLIMIT_AS, &lim) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
}

/// A line over the limit (64 MiB by default) is an error line, without being held in memory:
/// a 300 MiB line under a 256 MiB address-space limit.
#[test]
fn batch_huge_line_under_a_memory_limit() {
    let mut input = b"reduce 10 7\n".to_vec();
    input.extend(std::iter::repeat_n(b'9', 300 << 20));
    input.extend_from_slice(b"\nreduce 12 7\n");
    let mut c = modred(&["batch"]);
    limit_memory(&mut c, 256 << 20);
    let o = with_stdin(c, input);
    no_panic(&o);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "3\nerror: line 2 is longer than 67108864 bytes (--max-line-bytes)\n5\n"
    );
}

/// `--max-line-bytes` sets the limit; a line that never ends (as /dev/zero) is reported as
/// soon as it passes the limit.
#[test]
fn max_line_bytes_option_and_endless_line() {
    let mut input = b"reduce 10 7\n".to_vec();
    input.extend(std::iter::repeat_n(b'1', 5000));
    input.extend_from_slice(b"\nreduce 12 7\n");
    let o = with_stdin(modred(&["batch", "--max-line-bytes", "4096"]), input);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stdout(&o),
        "3\nerror: line 2 is longer than 4096 bytes (--max-line-bytes)\n5\n"
    );

    // An endless line: the error line arrives while the input is still coming.
    let mut child = modred(&["batch", "--max-line-bytes", "1000"])
        .stdin(File::open("/dev/zero").unwrap())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let first = first_line_within(&mut child, Duration::from_secs(20));
    child.kill().unwrap();
    child.wait().unwrap();
    assert_eq!(
        first.as_deref(),
        Some("error: line 1 is longer than 1000 bytes (--max-line-bytes)")
    );
}

/// The first stdout line of `child`, or `None` if none came within `limit`.
fn first_line_within(child: &mut Child, limit: Duration) -> Option<String> {
    let out = child.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = BufReader::new(out).read_line(&mut line);
        let _ = tx.send(line.trim_end().to_string());
    });
    rx.recv_timeout(limit).ok()
}

/// Each answer is written before batch waits for more input (a coprocess can converse).
#[test]
fn batch_answers_before_waiting_for_input() {
    let mut child = modred(&["batch"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"reduce 100 7\n").unwrap();
    stdin.flush().unwrap();
    let first = first_line_within(&mut child, Duration::from_secs(20));
    drop(stdin);
    child.wait().unwrap();
    assert_eq!(first.as_deref(), Some("2"));
}

/// Error lines quote at most about 80 characters of a bad token.
#[test]
fn error_lines_quote_a_short_prefix() {
    let long = "z".repeat(10 << 20);
    let input = format!("{long} 1 2\nreduce 1{long} 7\nreduce 5 7\n").into_bytes();
    let o = with_stdin(modred(&["batch"]), input);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3);
    assert!(lines[0].starts_with("error: unknown operation 'zzz"));
    assert!(lines[0].contains("... (10485760 bytes)"), "{}", lines[0]);
    assert!(lines[1].starts_with("error: X: cannot parse '1zzz"));
    assert!(lines[0].len() < 200 && lines[1].len() < 300, "{out:.400}");
    assert_eq!(lines[2], "5");
    // The same for a command-line argument.
    let o = modred(&["pow", "2", "3", &format!("0x{}", "g".repeat(100_000))])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(o.stderr.len() < 400, "{}", stderr(&o));
}

/// Negative exponents follow Python's `pow`: the inverse raised to |e|.
#[test]
fn negative_exponents() {
    let ok = |args: &[&str], want: &str| {
        let o = modred(args).output().unwrap();
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
        assert_eq!(stdout(&o), format!("{want}\n"), "{args:?}");
    };
    ok(&["pow", "3", "-1", "7"], "5");
    ok(&["pow", "3", "-2", "7"], "4"); // 5^2 = 25 = 4 mod 7
    ok(&["pow", "3", "-0", "7"], "1");
    ok(&["pow", "0", "-1", "1"], "0"); // Python: pow(0, -1, 1) == 0
    ok(
        &["pow", "--method", "binary", "3", "-3", "1000003"],
        "740743",
    );
    ok(
        &[
            "pow",
            "--hex",
            "2",
            "-1",
            "0xffffffffffffffffffffffffffffff61",
        ],
        "0x7fffffffffffffffffffffffffffffb1",
    );
    // Even modulus, odd base: inverse then the CRT path.
    ok(
        &["pow", "3", "-5", "1024"],
        &modinv_pow(3, 5, 1024).to_string(),
    );
    let o = modred(&["pow", "2", "-1", "4"]).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("not invertible"), "{}", stderr(&o));
    let o = modred(&["pow", "2", "--1", "7"]).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    no_panic(&o);

    let o = with_stdin(
        modred(&["batch"]),
        b"pow 3 -1 7\npow 6 -1 9\npow 10 -2 13\n".to_vec(),
    );
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "5");
    assert!(
        lines[1].starts_with("error: base is not invertible"),
        "{out}"
    );
    assert_eq!(lines[2], modinv_pow(10, 2, 13).to_string());
}

/// b^(-e) mod m by brute force (small m).
fn modinv_pow(b: u64, e: u32, m: u64) -> u64 {
    let inv = (1..m).find(|x| b * x % m == 1).expect("invertible");
    (0..e).fold(1 % m, |acc, _| acc * inv % m)
}

/// A table method at a size it was never meant for is a clear error, at once: no abort, no
/// minutes of building. (Through batch: a 4,000,000-bit number is longer than an argument may
/// be.)
#[test]
fn huge_tables_are_refused() {
    let m = format!("0x1{}", "0".repeat(999_999)); // 4,000,001 bits
    for reducer in [
        "table-residue",
        "table-constant",
        "table-add-16x16",
        "table-add-8x256",
        "table-add-6x2048",
    ] {
        let mut c = modred(&["batch", "--reducer", reducer]);
        limit_memory(&mut c, 1 << 30);
        let t = std::time::Instant::now();
        let o = with_stdin(c, format!("reduce 5 {m}\nreduce 5 7\n").into_bytes());
        no_panic(&o);
        assert_eq!(o.status.code(), Some(1), "{reducer}: {}", stderr(&o));
        let out = stdout(&o);
        let lines: Vec<&str> = out.lines().collect();
        assert!(
            lines[0].starts_with("error: ") && lines[0].contains(reducer),
            "{out}"
        );
        assert_eq!(lines[1], "5");
        assert!(
            t.elapsed() < Duration::from_secs(30),
            "{reducer} took {:?}",
            t.elapsed()
        );
    }
    // The fixed-base tables grow with the exponent: a 2^22-bit exponent over a 16,385-bit
    // modulus would need 2^22 residues of 2 KiB, 8 GiB.
    let e = format!("0x1{}", "0".repeat(1 << 20));
    let m = format!("0x1{}1", "0".repeat(1 << 12));
    let mut c = modred(&["batch", "--method", "fixed-base"]);
    limit_memory(&mut c, 1 << 30);
    let o = with_stdin(c, format!("pow 3 {e} {m}\n").into_bytes());
    no_panic(&o);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stdout(&o).contains("bytes"), "{}", stdout(&o));
}

/// Reading a directory as stdin is an input error (2), not a panic.
#[test]
fn unreadable_stdin_is_a_usage_error() {
    let o = modred(&["batch"])
        .stdin(File::open("/").unwrap())
        .output()
        .unwrap();
    no_panic(&o);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let mut s = String::new();
    let _ = (&o.stdout[..]).read_to_string(&mut s);
    assert!(s.is_empty());
}

/// `MODRED_NO_ASM` takes true and false values: 0 leaves the tier alone, 1 caps it.
#[test]
fn no_asm_reads_true_and_false() {
    // (the `kernel tier:` line of `modred methods`, stderr) with MODRED_NO_ASM set to `value`.
    let tier = |value: Option<&str>| {
        let mut c = modred(&["methods"]);
        c.env_remove("MODRED_CPU").env_remove("MODRED_NO_ASM");
        if let Some(v) = value {
            c.env("MODRED_NO_ASM", v);
        }
        let o = c.output().unwrap();
        no_panic(&o);
        let line = stdout(&o)
            .lines()
            .find(|l| l.starts_with("kernel tier:"))
            .expect("tier line")
            .to_string();
        (line, stderr(&o))
    };
    let unset = tier(None);
    for off in ["0", "false", "off", ""] {
        assert_eq!(tier(Some(off)), unset, "MODRED_NO_ASM={off:?}");
    }
    for on in ["1", "TRUE", "yes"] {
        let (line, err) = tier(Some(on));
        assert!(line.starts_with("kernel tier: portable"), "{on}: {line}");
        assert!(err.is_empty(), "{on}: {err}");
    }
    let (line, err) = tier(Some("maybe"));
    assert!(line.starts_with("kernel tier: portable"), "{line}");
    assert!(err.contains("MODRED_NO_ASM"), "{err}");
}

/// The smallest address-space limit, in MiB, under which `modred reduce 5 7` runs.
fn smallest_working_limit_mib() -> u64 {
    (4..256)
        .find(|&mib| {
            let mut c = modred(&["reduce", "5", "7"]);
            limit_memory(&mut c, mib << 20);
            c.output().is_ok_and(|o| o.status.success())
        })
        .expect("modred runs in 256 MiB")
}

/// Issue 29: under every address-space limit from the smallest that runs modred up, each
/// operation on large operands either answers as without a limit or fails with a message
/// naming the bytes it needs (exit 2, or 1 with an `error:` line in batch): never an abort.
#[test]
fn memory_limits_give_errors_never_aborts() {
    // From 1 MiB above the smallest limit `modred reduce 5 7` runs under: at that limit the
    // heap may have no room left even for std's copy of a 16 KB argument (the process's own
    // small allocations, which abort in std when they fail, before modred's code runs).
    let base = smallest_working_limit_mib() + 1;
    let m64k = format!("0x{}", "f".repeat(16384 - 1) + "b"); // 65,536 bits, odd
    let a64k = format!("0x{}", "e".repeat(16383));
    let hex = |bits: usize, digit: char| format!("0x{}", digit.to_string().repeat(bits / 4));
    let (m4m, a4m) = (hex(1 << 22, 'd'), hex((1 << 22) - 4, '9'));
    // F_18 = 2^(2^18) + 1 (factors 1 mod 2^20: 7 is invertible).
    let (m18, a18) = (
        format!("0x1{}1", "0".repeat((1 << 16) - 1)),
        hex((1 << 18) - 8, '7'),
    );
    let (m20, a20) = (hex(1 << 20, 'b'), hex((1 << 20) - 4, '5'));
    // 3^400 (trial division answers; the small-prime table, ~2 MiB, is built first) and
    // a 512-bit start for the next prime (its sieve uses the table too).
    let three_400 = format!(
        "0x{}",
        num_bigint::BigUint::from(3u32).pow(400).to_str_radix(16)
    );
    let start512 = hex(512, 'a');
    // (arguments, stdin lines, MiB above the base to sweep, step)
    let cases: Vec<(Vec<&str>, String, u64, u64)> = vec![
        (
            vec!["mulmod", "-r", "table-constant", &a64k, "3", &m64k],
            String::new(),
            24,
            1,
        ),
        (
            vec!["pow", "-M", "window", "3", "5", &m64k],
            String::new(),
            16,
            2,
        ),
        (
            vec!["pow", "-M", "ct", "3", "5", &m64k],
            String::new(),
            16,
            2,
        ),
        (
            vec!["pow", "-M", "comb", "3", "5", &m64k],
            String::new(),
            16,
            2,
        ),
        (
            vec!["pow", "-M", "fixed-base", "3", "5", &m64k],
            String::new(),
            16,
            2,
        ),
        (
            vec!["batch", "--hex"],
            format!("pow {a4m} 3 {m4m}\n"),
            96,
            6,
        ),
        (
            vec!["batch", "--hex"],
            format!("pow {a18} -1 {m18}\n"),
            16,
            2,
        ),
        (vec!["prime", &three_400], String::new(), 8, 1),
        (vec!["prime", "--next", &start512], String::new(), 8, 1),
        // Decimal output of a 2^20-bit number.
        (vec!["batch"], format!("reduce {a20} {m20}\n"), 32, 2),
    ];
    for (args, input, span, step) in cases {
        let run = |limit: Option<u64>| {
            let mut c = modred(&args);
            if let Some(mib) = limit {
                limit_memory(&mut c, mib << 20);
            }
            with_stdin(c, input.clone().into_bytes())
        };
        let free = run(None);
        assert!(
            free.status.success(),
            "{args:?}: {}{}",
            stdout(&free),
            stderr(&free)
        );
        let mut answered = 0;
        for mib in (base..=base + span).step_by(step as usize) {
            let o = run(Some(mib));
            no_panic(&o);
            let what = format!("{args:?} at {mib} MiB");
            match o.status.code() {
                Some(0) => {
                    assert_eq!(o.stdout, free.stdout, "{what}");
                    answered += 1;
                }
                Some(1) => assert!(stdout(&o).contains("bytes"), "{what}: {}", stdout(&o)),
                Some(2) => assert!(stderr(&o).contains("bytes"), "{what}: {}", stderr(&o)),
                other => panic!("{what}: exit {other:?}: {}", stderr(&o)),
            }
        }
        assert!(
            answered > 0,
            "{args:?}: no answer up to {} MiB",
            base + span
        );
    }
}

/// montgomery-bitserial (one bit per step) refuses moduli beyond its range, naming it.
#[test]
fn bitserial_refuses_huge_moduli() {
    let m = format!("0x1{}1", "0".repeat(4095)); // 16,389 bits
    let o = modred(&["reduce", "-r", "montgomery-bitserial", "5", &m])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("at most 16384 bits"), "{}", stderr(&o));
    let m = format!("0x8{}1", "0".repeat(4094)); // 2^16383 + 1: 16,384 bits
    let o = modred(&["reduce", "-r", "montgomery-bitserial", "5", &m])
        .output()
        .unwrap();
    assert_eq!(stdout(&o), "5\n", "{}", stderr(&o));
}
