//! End-to-end tests of the `modred` binary: every subcommand (`evm-modexp` on go-ethereum's
//! MODEXP vectors too), exit codes 0/1/2, error messages
//! on stderr, batch ordering with bad lines, hex output, and every reducer name via --reducer.

use num_bigint::BigUint;
use std::io::Write;
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_modred");

fn run(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().expect("spawn modred")
}

fn run_stdin(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn modred");
    // A usage error exits before reading: the write may then meet a closed pipe.
    let written = child.stdin.take().unwrap().write_all(input.as_bytes());
    if let Err(e) = written {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{e}");
    }
    child.wait_with_output().unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

/// Succeeds with exactly `want` (plus newline) on stdout and nothing on stderr.
fn ok(args: &[&str], want: &str) {
    let o = run(args);
    assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
    assert_eq!(stdout(&o), format!("{want}\n"), "{args:?}");
    assert!(o.stderr.is_empty(), "{args:?}: {}", stderr(&o));
}

/// Fails with exit code 2, nothing on stdout, and a stderr message containing each of `needles`.
fn usage_error(args: &[&str], needles: &[&str]) {
    let o = run(args);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stdout(&o));
    assert!(o.stdout.is_empty(), "{args:?} printed {}", stdout(&o));
    let err = stderr(&o);
    for n in needles {
        assert!(err.contains(n), "{args:?}: stderr lacks {n:?}: {err}");
    }
    assert!(!err.contains("panicked"), "{args:?} panicked: {err}");
}

/// Every reducer listed by `modred methods` (the first table, up to the blank line before the
/// exponentiation methods).
fn all_reducer_names() -> Vec<String> {
    let o = run(&["methods"]);
    assert_eq!(o.status.code(), Some(0));
    stdout(&o)
        .lines()
        .skip(2) // title and header
        .take_while(|l| !l.trim().is_empty())
        .map(|l| l.split_whitespace().next().unwrap().to_string())
        .collect()
}

/// The reducers that serve any modulus of their parity (special-form methods excluded; see
/// `special_form_reducer_refuses_other_moduli`).
fn reducer_names() -> Vec<String> {
    all_reducer_names()
        .into_iter()
        .filter(|n| n != "diminished-radix")
        .collect()
}

#[test]
fn special_form_reducer_refuses_other_moduli() {
    assert!(all_reducer_names().iter().any(|n| n == "diminished-radix"));
    let o = run(&["mulmod", "--reducer", "diminished-radix", A, B, M]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("cannot serve this modulus"),
        "{}",
        stderr(&o)
    );
    // 2^255 - 19: served.
    let p = (BigUint::from(1u8) << 255u32) - BigUint::from(19u8);
    let want = (big(A) * big(B)) % &p;
    ok(
        &[
            "mulmod",
            "--reducer",
            "diminished-radix",
            A,
            B,
            &p.to_string(),
        ],
        &want.to_string(),
    );
}

/// Every exponentiation method's name (`modred methods`).
const METHODS: [&str; 8] = [
    "auto",
    "binary",
    "binary-rl",
    "window",
    "sliding",
    "ct",
    "fixed-base",
    "comb",
];

/// m = 1 gives 0 with every reducer (diminished-radix too) and every method (`ct` over a
/// variable-time reducer too), as Python's `pow(b, e, 1)`.
#[test]
fn modulus_one_gives_zero_for_every_reducer_and_method() {
    let methods = METHODS;
    for r in all_reducer_names() {
        ok(&["reduce", "--reducer", &r, "12345", "1"], "0");
        ok(&["mulmod", "--reducer", &r, "5", "6", "1"], "0");
        for m in methods {
            ok(&["pow", "--reducer", &r, "--method", m, "5", "6", "1"], "0");
        }
        ok(&["pow", "--reducer", &r, "5", "-1", "1"], "0");
    }
}

// A 3-limb odd modulus and operands, with expected values from num-bigint.
const M: &str = "0xd1f3a6b2c4e5f7081928374655647382910abcdef123456789abcdef01234567";
const A: &str = "0x1234567890abcdef1234567890abcdef1234567890abcdef1234567890abcdef99";
const B: &str = "98765432109876543210987654321098765432109876543210";

fn big(s: &str) -> BigUint {
    match s.strip_prefix("0x") {
        Some(h) => BigUint::parse_bytes(h.as_bytes(), 16).unwrap(),
        None => s.parse().unwrap(),
    }
}

/// `modred methods` ends with the kernel tier in use and the CPU's tiers; `MODRED_CPU` caps the
/// tier, and an unknown value is reported and read as `portable`.
#[test]
fn methods_ends_with_the_kernel_tier() {
    let last_line = |envs: &[(&str, &str)]| {
        let o = Command::new(BIN)
            .arg("methods")
            .env_remove("MODRED_NO_ASM")
            .env_remove("MODRED_CPU")
            .envs(envs.iter().copied())
            .output()
            .expect("spawn modred");
        assert_eq!(o.status.code(), Some(0));
        let out = stdout(&o);
        let line = out.lines().last().unwrap_or_default().to_string();
        (line, String::from_utf8_lossy(&o.stderr).into_owned())
    };
    let (line, _) = last_line(&[]);
    let cpu = line
        .strip_prefix("kernel tier: ")
        .and_then(|rest| rest.split_once(" (this CPU: "))
        .map(|(tier, have)| (tier.to_string(), have.trim_end_matches(')').to_string()));
    let (best, have) = cpu.unwrap_or_else(|| panic!("last line: {line:?}"));
    assert!(
        have.starts_with("portable") && have.ends_with(&best),
        "{line}"
    );
    let (line, _) = last_line(&[("MODRED_CPU", "portable")]);
    assert!(
        line.starts_with("kernel tier: portable (this CPU: "),
        "{line}"
    );
    let (line, err) = last_line(&[("MODRED_CPU", "sse9")]);
    assert!(line.starts_with("kernel tier: portable "), "{line}");
    assert!(err.contains("MODRED_CPU") && err.contains("sse9"), "{err}");
    let (line, _) = last_line(&[("MODRED_NO_ASM", "1"), ("MODRED_CPU", "ifma")]);
    assert!(line.starts_with("kernel tier: portable "), "{line}");
}

#[test]
fn methods_lists_every_reducer_aligned() {
    let o = run(&["methods"]);
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    let names = reducer_names();
    for want in [
        "auto",
        "classical",
        "barrett",
        "montgomery-redc",
        "montgomery-sos",
        "montgomery-cios",
        "montgomery-fios",
        "montgomery-fips",
        "montgomery-cihs",
        "montgomery-bitserial",
    ] {
        assert!(names.iter().any(|n| n == want), "methods lacks {want}");
    }
    // The restriction column starts at the same offset on every row.
    let rows: Vec<&str> = out
        .lines()
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .collect();
    let col = rows[0].find("RESTRICTION").unwrap();
    for r in &rows[1..] {
        assert!(r[..col].ends_with("  "), "misaligned: {r}");
    }
    assert!(out.contains("x < b^(2k)"), "Barrett restriction missing");
    assert!(out.contains("x < m*R"), "Montgomery restriction missing");
}

#[test]
fn reduce_and_mulmod_small_values() {
    ok(&["reduce", "100", "7"], "2");
    ok(&["reduce", "0", "7"], "0");
    ok(&["reduce", "6", "7"], "6");
    ok(&["reduce", "12345", "1"], "0");
    ok(&["mulmod", "6", "7", "10"], "2");
    ok(&["mulmod", "0xff", "0x3", "10", "--hex"], "0x5");
    ok(
        &[
            "reduce",
            "--hex",
            "0x1_0000_0000_0000_0000",
            "0x1_0000_0000_0000_0001",
        ],
        "0x10000000000000000",
    );
    ok(
        &["reduce", "18446744073709551616", "18446744073709551615"],
        "1",
    );
}

#[test]
fn every_reducer_name_via_reducer_flag() {
    let (m, a, b) = (big(M), big(A), big(B));
    let want_mul = (&a * &b) % &m;
    let want_red = &a % &m;
    for name in reducer_names() {
        ok(
            &["mulmod", "--reducer", &name, A, B, M],
            &want_mul.to_string(),
        );
        ok(
            &["mulmod", "--reducer", &name, "--hex", A, B, M],
            &format!("0x{}", want_mul.to_str_radix(16)),
        );
        ok(&["reduce", "-r", &name, A, M], &want_red.to_string());
        // An even modulus: accepted by the even-capable methods, exit 2 for Montgomery.
        let even = "1000000000000000000000000000000000000000";
        let o = run(&["mulmod", "--reducer", &name, A, B, even]);
        if name.starts_with("montgomery") {
            assert_eq!(o.status.code(), Some(2), "{name}");
            let err = stderr(&o);
            assert!(err.contains("odd") && err.contains(&name), "{err}");
            assert!(
                err.contains("classical") && err.contains("barrett"),
                "{err}"
            );
        } else {
            assert_eq!(o.status.code(), Some(0), "{name}: {}", stderr(&o));
            let want = (&a * &b) % big(even);
            assert_eq!(stdout(&o), format!("{want}\n"), "{name}");
        }
    }
}

#[test]
fn bad_arguments_exit_2_with_a_message() {
    usage_error(
        &["reduce", "--reducer", "nope", "5", "7"],
        &["unknown reducer 'nope'", "classical"],
    );
    usage_error(&["reduce", "12x", "7"], &["cannot parse '12x'"]);
    usage_error(&["reduce", "5", "0xzz"], &["cannot parse '0xzz'"]);
    usage_error(&["reduce", "-5", "7"], &["negative"]);
    usage_error(&["mulmod", "2", "3", "-7"], &["negative"]);
    usage_error(&["reduce", "5", "0"], &["modulus must be positive"]);
    usage_error(
        &["mulmod", "5", "6", "0", "--reducer", "barrett"],
        &["modulus must be positive"],
    );
    usage_error(
        &["reduce", "--reducer", "montgomery-cios", "5", "8"],
        &["odd modulus", "classical"],
    );
    // Beyond the restriction: Barrett x < b^2k, Montgomery x < m R.
    usage_error(
        &[
            "reduce",
            "--reducer",
            "barrett",
            "0x100000000000000000000000000000000",
            "7",
        ],
        &["argument too large", "barrett"],
    );
    usage_error(
        &[
            "reduce",
            "--reducer",
            "montgomery-redc",
            "0x70000000000000000",
            "7",
        ],
        &["argument too large", "montgomery-redc"],
    );
    // Usage errors from the parser also exit 2.
    usage_error(&["reduce", "5"], &["required"]);
    usage_error(&["frobnicate"], &["frobnicate"]);
    usage_error(&[], &["Usage"]);
}

/// Underscores in numbers follow Python's `int()`: single, between digits or after `0x`.
#[test]
fn underscores_only_between_digits() {
    ok(&["reduce", "1_000", "0x_3_e9"], "1000");
    for bad in ["_1", "1_", "1__0", "0x__1", "0x1_"] {
        usage_error(
            &["reduce", bad, "7"],
            &["'_' is allowed only between digits"],
        );
    }
    let o = run_stdin(&["batch"], "reduce 1__0 7\npow 2 1_0 1_0_0_0\n");
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with("error: X:"), "{out}");
    assert_eq!(lines[1], "24");
}

#[test]
fn classical_and_auto_accept_any_argument_size() {
    let x = format!("0x{}", "f".repeat(200));
    let want = big(&x) % 7u32;
    ok(&["reduce", &x, "7"], &want.to_string());
    ok(
        &["reduce", "--reducer", "classical", &x, "7"],
        &want.to_string(),
    );
}

#[test]
fn batch_keeps_order_reports_bad_lines_and_exits_1() {
    let input = "\
# a comment line
reduce 100 7

mulmod 6 7 10   # trailing comment
reduce -1 5
frobnicate 1 2
reduce 1 2 3
mulmod 2 3 0
reduce 0x10 0x7
mulmod 2 3 4 5
reduce 12z 5
   reduce   9   4
";
    let o = run_stdin(&["batch"], input);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let lines: Vec<String> = stdout(&o).lines().map(String::from).collect();
    assert_eq!(lines.len(), 10, "{lines:?}");
    assert_eq!(lines[0], "2");
    assert_eq!(lines[1], "2");
    assert!(
        lines[2].starts_with("error: ") && lines[2].contains("negative"),
        "{}",
        lines[2]
    );
    assert!(lines[3].starts_with("error: ") && lines[3].contains("unknown operation 'frobnicate'"));
    assert!(lines[4].starts_with("error: ") && lines[4].contains("takes 2 numbers"));
    assert!(lines[5].starts_with("error: ") && lines[5].contains("modulus must be positive"));
    assert_eq!(lines[6], "2");
    assert!(lines[7].starts_with("error: ") && lines[7].contains("takes 3 numbers"));
    assert!(lines[8].starts_with("error: ") && lines[8].contains("12z"));
    assert_eq!(lines[9], "1");
}

#[test]
fn batch_all_good_exits_0_with_hex_and_every_reducer() {
    let (m, a, b) = (big(M), big(A), big(B));
    let input = format!("mulmod {A} {B} {M}\nreduce {A} {M}\nmulmod 3 5 7\n");
    for name in reducer_names() {
        let o = run_stdin(&["batch", "--reducer", &name, "--hex"], &input);
        assert_eq!(o.status.code(), Some(0), "{name}: {}", stdout(&o));
        let want = format!(
            "0x{}\n0x{}\n0x1\n",
            ((&a * &b) % &m).to_str_radix(16),
            (&a % &m).to_str_radix(16)
        );
        assert_eq!(stdout(&o), want, "{name}");
    }
    // Montgomery on an even modulus inside a batch: that line fails, the rest continue.
    let o = run_stdin(
        &["batch", "--reducer", "montgomery-cios"],
        "mulmod 3 5 8\nmulmod 3 5 7\n",
    );
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with("error: ") && lines[0].contains("odd"));
    assert_eq!(lines[1], "1");
}

#[test]
fn batch_rejects_bad_options_before_reading() {
    let o = run_stdin(&["batch", "--reducer", "nope"], "reduce 1 2\n");
    assert_eq!(o.status.code(), Some(2));
    assert!(o.stdout.is_empty());
    assert!(stderr(&o).contains("unknown reducer"));
    let o = run_stdin(&["batch"], "");
    assert_eq!(o.status.code(), Some(0));
    assert!(o.stdout.is_empty());
}

/// `--threads` and comb teeth have the library's limits (those of the Python package too):
/// threads 1..=1024, comb teeth 1..=8 as `modred methods` says; beyond them, exit 2.
#[test]
fn threads_and_comb_teeth_limits_exit_2() {
    let fb = ["pow", "--method", "fixed-base"];
    usage_error(
        &[&fb[..], &["--threads", "100000", "2", "3", "1000003"]].concat(),
        &["threads must be 1..=1024 (got 100000)"],
    );
    usage_error(
        &[&fb[..], &["--threads", "0", "2", "3", "1000003"]].concat(),
        &["threads must be 1..=1024 (got 0)"],
    );
    ok(
        &[&fb[..], &["--threads", "1024", "2", "10", "1000003"]].concat(),
        "1024",
    );
    let o = run_stdin(&["batch", "--threads", "1025"], "pow 2 3 5\n");
    assert_eq!(o.status.code(), Some(2));
    assert!(o.stdout.is_empty());
    assert!(
        stderr(&o).contains("threads must be 1..=1024"),
        "{}",
        stderr(&o)
    );
    let comb = ["pow", "--method", "comb", "--window"];
    for w in ["9", "16"] {
        usage_error(
            &[&comb[..], &[w, "2", "10", "1000003"]].concat(),
            &[&format!("comb teeth (window) must be 1..=8 (got {w})")],
        );
    }
    ok(&[&comb[..], &["8", "2", "10", "1000003"]].concat(), "1024");
    // The window methods keep their 16 bits.
    ok(
        &[
            "pow", "--method", "window", "--window", "16", "2", "10", "1000003",
        ],
        "1024",
    );
}

/// The CR of a CRLF line does not count toward `--max-line-bytes` (batch, evm-modexp).
#[test]
fn crlf_lines_at_the_limit() {
    let o = run_stdin(
        &["batch", "--max-line-bytes", "11"],
        "reduce 10 7\r\nreduce 100 7\r\n",
    );
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "3", "{out}");
    assert!(
        lines[1].starts_with("error: line 2 is longer than 11 bytes"),
        "{out}"
    );
    let o = run_stdin(&["evm-modexp", "--max-line-bytes", "2"], "0x\r\n");
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
}

/// Lines sharing a modulus reuse its contexts: every answer stays the one-line command's,
/// across modulus changes, negative exponents, errors and each operation.
#[test]
fn batch_reuses_the_modulus_context() {
    let m2 = "0xd1f3a6b2c4e5f7081928374655647382910abcdef123456789abcdef01234568";
    let lines = [
        format!("pow 3 {A} {M}"),
        format!("pow 5 {A} {M}"),
        format!("pow {B} -7 {M}"),
        format!("mulmod {A} {B} {M}"),
        format!("mulmod {B} {B} {M}"),
        format!("reduce {A} {M}"),
        format!("pow 3 {A} {m2}"),
        format!("pow 3 {A} {m2}"),
        format!("pow 2 -1 {m2}"),
        format!("pow 3 {A} {M}"),
        "pow 3 5 0".to_string(),
        "pow 3 5 0".to_string(),
        "pow 3 5 1".to_string(),
        "pow 3 5 1".to_string(),
    ];
    for flags in [&[][..], &["--reducer", "barrett"], &["--method", "window"]] {
        let args = [&["batch"][..], flags].concat();
        let o = run_stdin(&args, &(lines.join("\n") + "\n"));
        let out = stdout(&o);
        let got: Vec<&str> = out.lines().collect();
        assert_eq!(got.len(), lines.len(), "{flags:?}: {out}");
        for (line, got) in lines.iter().zip(got) {
            let mut w: Vec<&str> = line.split(' ').collect();
            if w[0] == "pow" || flags.first() == Some(&"--reducer") {
                w.splice(1..1, flags.iter().copied()); // --method is pow's only
            }
            let one = run(&w);
            let want = if one.status.success() {
                stdout(&one).trim().to_string()
            } else {
                format!(
                    "error: {}",
                    stderr(&one).trim().trim_start_matches("modred: error: ")
                )
            };
            assert_eq!(got, want, "{flags:?} {line}");
        }
    }
}

#[test]
fn help_and_version_succeed() {
    for args in [
        &["--help"][..],
        &["--version"],
        &["batch", "--help"],
        &["reduce", "--help"],
    ] {
        let o = run(args);
        assert_eq!(o.status.code(), Some(0), "{args:?}");
        assert!(!o.stdout.is_empty());
    }
}

#[test]
fn pow_every_method_and_the_word_path() {
    let (m, a) = (big(M), big(A));
    let e = big(B);
    let want = a.modpow(&e, &m);
    for method in METHODS {
        ok(&["pow", "--method", method, A, B, M], &want.to_string());
    }
    ok(
        &[
            "pow", "--method", "window", "--window", "5", "--hex", A, B, M,
        ],
        &format!("0x{}", want.to_str_radix(16)),
    );
    ok(
        &["pow", "--method", "fixed-base", "--threads", "2", A, B, M],
        &want.to_string(),
    );
    // Moduli below 2^64 (odd and even) take the single-word path.
    for m64 in [18446744073709551557u64, 1 << 63, 1000000007, 1] {
        let want = a.modpow(&e, &BigUint::from(m64));
        ok(&["pow", A, B, &m64.to_string()], &want.to_string());
    }
    // Even multi-limb modulus (CRT split) and e = 0.
    let even = big("0x1000000000000000000000000000000000000000000000000002");
    ok(
        &["pow", A, B, &even.to_string()],
        &a.modpow(&e, &even).to_string(),
    );
    ok(&["pow", A, "0", M], "1");
    // Bad flags and operands: exit 2 with a message.
    for bad in [
        vec!["pow", "--method", "nope", "2", "3", "5"],
        vec!["pow", "--window", "0", "2", "3", "5"],
        vec!["pow", "--threads", "0", "2", "3", "5"],
        vec!["pow", "2", "3", "0"],
        vec!["pow", "-2", "3", "5"], // negative bases are refused (exponents: tests/failures.rs)
        vec!["pow", "--method", "ct", "2", "3", "8"],
    ] {
        let o = run(&bad);
        assert_eq!(o.status.code(), Some(2), "{bad:?}: {}", stdout(&o));
        assert!(!stderr(&o).is_empty());
    }
}

#[test]
fn batch_pow_lines() {
    let (m, a, e) = (big(M), big(A), big(B));
    let input = format!("pow {A} {B} {M}\npow 2 10 1000\npow 2 x 7\nmulmod 3 4 5\n");
    let o = run_stdin(&["batch", "--method", "sliding"], &input);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], a.modpow(&e, &m).to_string());
    assert_eq!(lines[1], "24");
    assert!(lines[2].starts_with("error: "), "{}", lines[2]);
    assert_eq!(lines[3], "2");
}

// `modred evm-modexp`: go-ethereum's vectors through stdin and as an argument under each fork,
// the output format (`0x` alone for an empty output), error lines with exit code 1 (bad hex,
// EIP-7823's cap), and usage errors with exit code 2.

/// (name, input hex, expected output hex, gas) of a vendored go-ethereum file.
fn evm_vectors(file: &str) -> Vec<(String, String, String, u64)> {
    let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../modred/tests/vectors")
        .join(file);
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).expect("vector file")).unwrap();
    json.as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["Name"].as_str().unwrap().to_string(),
                c["Input"].as_str().unwrap().to_string(),
                c["Expected"].as_str().unwrap().to_string(),
                c["Gas"].as_u64().unwrap(),
            )
        })
        .collect()
}

/// Every case of the three files through stdin, one line each (with and without `0x`, a
/// comment and blank lines in between), under the fork of the file's gas.
#[test]
fn vectors_through_stdin() {
    for (file, fork) in [
        ("go-ethereum-modexp.json", "byzantium"),
        ("go-ethereum-modexp_eip2565.json", "berlin"),
        ("go-ethereum-modexp_eip7883.json", "osaka"),
    ] {
        let cases = evm_vectors(file);
        let mut input = String::from("# go-ethereum vectors\n\n");
        for (i, (_, hex, _, _)) in cases.iter().enumerate() {
            let prefix = if i % 2 == 0 { "0x" } else { "" };
            input.push_str(&format!("{prefix}{hex}\n"));
        }
        let o = run_stdin(&["evm-modexp", "--fork", fork], &input);
        assert_eq!(o.status.code(), Some(0), "{file}: {}", stderr(&o));
        let lines: Vec<String> = stdout(&o).lines().map(String::from).collect();
        assert_eq!(lines.len(), cases.len(), "{file}");
        for (line, (name, _, want, gas)) in lines.iter().zip(&cases) {
            assert_eq!(line, &format!("0x{want} {gas}"), "{file} {name}");
        }
    }
}

/// The default fork is osaka; a single input as the argument.
#[test]
fn argument_and_default_fork() {
    let (_, hex, want, gas) = evm_vectors("go-ethereum-modexp_eip7883.json")
        .into_iter()
        .find(|c| c.0 == "marius-1-even")
        .unwrap();
    let o = run(&["evm-modexp", &hex]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), format!("0x{want} {gas}\n"));
    // The same input under berlin: same output, EIP-2565's price.
    let o = run(&["evm-modexp", "--fork", "berlin", &format!("0x{hex}")]);
    assert_eq!(o.status.code(), Some(0));
    let line = stdout(&o);
    let (out, berlin_gas) = line.trim().split_once(' ').unwrap();
    assert_eq!(out, format!("0x{want}"));
    assert_ne!(berlin_gas.parse::<u64>().unwrap(), gas);
}

/// An empty output prints `0x` alone; the empty input is `0x` (every length zero).
#[test]
fn empty_output() {
    let o = run(&["evm-modexp", "--fork", "berlin", "0x"]);
    assert_eq!(stdout(&o), "0x 200\n");
    let o = run_stdin(&["evm-modexp"], "0x\n");
    assert_eq!(stdout(&o), "0x 500\n");
    let o = run_stdin(&["evm-modexp", "--fork", "byzantium"], "0x\n");
    assert_eq!(stdout(&o), "0x 0\n");
}

/// Bad hex and inputs over EIP-7823's cap print `error: ...` in their place, the other lines
/// still run, and the exit code is 1.
#[test]
fn error_lines_and_exit_code() {
    let over_cap = format!("{:064x}{:064x}{:064x}", 1025, 1, 1);
    let ok = format!("{:064x}{:064x}{:064x}030507", 1, 1, 1); // 3^5 mod 7 = 5
    let input = format!("zz\n{ok}\n0x123\n{over_cap}\n{ok}\n");
    let o = run_stdin(&["evm-modexp"], &input);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 5, "{out}");
    assert!(lines[0].starts_with("error: ") && lines[0].contains("hex digit"));
    assert_eq!(lines[1], "0x05 500");
    assert!(lines[2].starts_with("error: ") && lines[2].contains("odd number"));
    assert!(lines[3].starts_with("error: ") && lines[3].contains("1025"));
    assert!(lines[3].contains("EIP-7823"));
    assert_eq!(lines[4], "0x05 500");
    // The same over-cap input is accepted by berlin.
    let o = run(&["evm-modexp", "--fork", "berlin", &over_cap]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    // Modulus bytes absent: zero. Gas: ceil(1025 / 8)^2 / 3 = 129^2 / 3.
    assert_eq!(stdout(&o), "0x00 5547\n");
    // One bad argument: its error line, exit 1.
    let o = run(&["evm-modexp", "0xabc"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).starts_with("error: "));
}

/// An unknown fork is a usage error (exit 2, message on stderr naming the forks).
#[test]
fn unknown_fork_is_usage_error() {
    usage_error(
        &["evm-modexp", "--fork", "prague", "0x"],
        &["byzantium, berlin or osaka"],
    );
}

// `modred rsa`: the project's RSA vectors (modred/tests/vectors/rsa/) through stdin and as an
// argument, private and public keys in every encoding, bad inputs and keys.

fn rsa_vector_path(name: &str) -> String {
    format!(
        "{}/../modred/tests/vectors/rsa/{name}",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// (input, private, public) hex of the first 16 cases of the vector key `file`.
fn rsa_cases(file: &str) -> Vec<[String; 3]> {
    let json: serde_json::Value = serde_json::from_slice(
        &std::fs::read(rsa_vector_path("rsa-raw.json")).expect("rsa-raw.json"),
    )
    .expect("json");
    let key = json["keys"]
        .as_array()
        .expect("keys")
        .iter()
        .find(|k| k["key"] == file)
        .expect("key listed");
    key["cases"]
        .as_array()
        .expect("cases")
        .iter()
        .map(|c| ["input", "private", "public"].map(|f| c[f].as_str().expect(f).to_string()))
        .collect()
}

/// The result as the CLI prints it: 0x and lowercase hex of `bytes` bytes.
fn padded_hex(hex: &str, bytes: usize) -> String {
    format!(
        "0x{:0>width$}",
        hex.trim_start_matches('0'),
        width = 2 * bytes
    )
}

#[test]
fn rsa_vectors_through_stdin_and_arguments() {
    for (file, bytes) in [
        ("rsa1024-pkcs1.pem", 128),
        ("rsa2048-pkcs8.pem", 256),
        ("rsa2048-e3-pkcs1.pem", 256),
    ] {
        let key = rsa_vector_path(file);
        let cases = rsa_cases(&file.replace("pkcs8", "pkcs1"));
        let input: String = cases
            .iter()
            .map(|[x, _, _]| format!("0x{x}  # a comment\n\n"))
            .collect();
        for (op, col) in [("private", 1), ("public", 2)] {
            let o = run_stdin(&["rsa", op, "--key", &key], &input);
            assert_eq!(o.status.code(), Some(0), "{file} {op}: {}", stderr(&o));
            let want: String = cases
                .iter()
                .map(|c| padded_hex(&c[col], bytes) + "\n")
                .collect();
            assert_eq!(stdout(&o), want, "{file} {op}");
        }
        let [x, private, public] = &cases[7];
        ok(
            &["rsa", "private", "--key", &key, x],
            &padded_hex(private, bytes),
        );
        ok(
            &[
                "rsa",
                "public",
                "--key",
                &key,
                &format!("0X{}", x.to_uppercase()),
            ],
            &padded_hex(public, bytes),
        );
    }
}

#[test]
fn rsa_public_accepts_public_key_files() {
    let dir = std::env::temp_dir().join(format!("modred-cli-rsa-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let pem = std::fs::read(rsa_vector_path("rsa2048-pkcs1.pem")).expect("key");
    let ossl = openssl::rsa::Rsa::private_key_from_pem(&pem).expect("openssl");
    let files = [
        ("spki.pem", ossl.public_key_to_pem().expect("pem")),
        (
            "pkcs1-public.der",
            ossl.public_key_to_der_pkcs1().expect("der"),
        ),
        ("private.der", ossl.private_key_to_der().expect("der")),
    ];
    let [x, private, public] = &rsa_cases("rsa2048-pkcs1.pem")[9];
    for (name, data) in &files {
        let path = dir.join(name);
        std::fs::write(&path, data).expect("write");
        let path = path.to_str().expect("utf-8 path");
        ok(
            &["rsa", "public", "--key", path, x],
            &padded_hex(public, 256),
        );
        if name.starts_with("private") {
            ok(
                &["rsa", "private", "--key", path, x],
                &padded_hex(private, 256),
            );
        } else {
            usage_error(&["rsa", "private", "--key", path, x], &["invalid RSA key"]);
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// A control character in a bad line is escaped in its `error:` line (printable UTF-8 kept):
/// `batch`, `evm-modexp` and `rsa` alike.
#[test]
fn control_characters_in_error_lines_are_escaped() {
    let key = rsa_vector_path("rsa1024-pkcs1.pem");
    let cases: [(&[&str], &str, &str); 4] = [
        (
            &["batch"],
            "reduce 1\x002\x1b\u{9b}é 7\n",
            r"'1\02\u{1b}\u{9b}é'",
        ),
        (&["batch"], "pow 2 3\x07 5\n", r"'3\u{7}'"),
        (&["evm-modexp"], "0x0\x01\n", r"'\u{1}'"),
        (&["rsa", "public", "--key", &key], "0x\x00\n", r"'\0'"),
    ];
    for (args, input, want) in cases {
        let o = run_stdin(args, input);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {}", stderr(&o));
        let out = stdout(&o);
        assert!(
            out.starts_with("error: ") && out.contains(want),
            "{args:?}: {out:?}"
        );
        let body = out.strip_suffix('\n').unwrap();
        assert!(!body.chars().any(char::is_control), "{args:?}: {out:?}");
    }
}

#[test]
fn rsa_bad_inputs_are_error_lines_and_bad_keys_exit_2() {
    let key = rsa_vector_path("rsa1024-pkcs1.pem");
    let n_hex = rsa_cases("rsa1024-pkcs1.pem")[3][0].clone(); // n - 1
    let input = format!("5\nzz\n0x{n_hex}ff\n0x\n0x{n_hex}\n");
    let o = run_stdin(&["rsa", "private", "--key", &key], &input);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 5, "{lines:?}");
    assert!(lines[0].starts_with("0x") && lines[0].len() == 2 + 256);
    assert_eq!(lines[1], "error: 'z' is not a hex digit");
    assert!(
        lines[2].starts_with("error: input out of range"),
        "{}",
        lines[2]
    );
    assert_eq!(lines[3], padded_hex("0", 128), "0x alone is 0");
    assert!(lines[4].starts_with("0x"));
    let o = run(&["rsa", "public", "--key", &key, "0xgg"]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout(&o), "error: 'g' is not a hex digit\n");
    usage_error(
        &["rsa", "private", "--key", "/nonexistent/key.pem", "5"],
        &["cannot read key file"],
    );
    usage_error(
        &["rsa", "private", "--key", "/etc/hostname", "5"],
        &["invalid RSA key"],
    );
    usage_error(
        &["rsa", "private", "--key", "/dev/zero", "5"],
        &["larger than"],
    );
    usage_error(&["rsa", "private", "5"], &["--key"]);
    usage_error(
        &["rsa", "sign", "--key", &key],
        &["unrecognized subcommand"],
    );
}

/// `modred prime N` (`prime`/`composite`, exit 0), `--next` (decimal or `--hex`), bad input
/// exit 2; `isprime` / `nextprime` lines in `batch`.
#[test]
fn prime_and_next_prime() {
    let m127 = "170141183460469231731687303715884105727"; // 2^127 - 1, prime
    let m67 = "147573952589676412927"; // 2^67 - 1 = 193707721 * 761838257287
    for (n, want) in [
        ("0", "composite"),
        ("1", "composite"),
        ("2", "prime"),
        ("97", "prime"),
        ("561", "composite"),
        ("3825123056546413051", "composite"),
        ("18446744073709551557", "prime"),
        (m127, "prime"),
        (m67, "composite"),
        ("0x7fffffffffffffffffffffffffffffff", "prime"),
    ] {
        ok(&["prime", n], want);
    }
    ok(&["prime", "--next", "0"], "2");
    ok(
        &["prime", "--next", "18446744073709551557"],
        "18446744073709551629",
    );
    ok(
        &["prime", "--next", "100000000000000000000"],
        "100000000000000000039",
    );
    ok(&["prime", "--next", "--hex", "0x10"], "0x11");
    usage_error(&["prime", "-5"], &["N"]);
    usage_error(&["prime", "12z"], &["12z"]);
    usage_error(&["prime"], &["N"]);
    let input = format!(
        "isprime 97\nnextprime 100000000000000000000\nisprime {m67}\nisprime\nnextprime x\nisprime 1 2\nreduce 100 7\n"
    );
    let o = run_stdin(&["batch"], &input);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let lines: Vec<String> = stdout(&o).lines().map(String::from).collect();
    assert_eq!(lines.len(), 7, "{lines:?}");
    assert_eq!(lines[0], "prime");
    assert_eq!(lines[1], "100000000000000000039");
    assert_eq!(lines[2], "composite");
    assert!(lines[3].starts_with("error: ") && lines[3].contains("takes 1 number"));
    assert!(
        lines[4].starts_with("error: ") && lines[4].contains("'x'"),
        "{}",
        lines[4]
    );
    assert!(lines[5].starts_with("error: ") && lines[5].contains("takes 1 number"));
    assert_eq!(lines[6], "2");
    let o = run_stdin(&["batch", "--hex"], "nextprime 0x10\n");
    assert_eq!(stdout(&o), "0x11\n");
}
