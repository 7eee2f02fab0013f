//! End-to-end tests of `modred evm-modexp`: go-ethereum's vectors through stdin and as an
//! argument under each fork, the output format (`0x` alone for an empty output), error lines
//! with exit code 1 (bad hex, EIP-7823's cap), and usage errors with exit code 2.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_modred");

fn run(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn modred");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

/// (name, input hex, expected output hex, gas) of a vendored go-ethereum file.
fn vectors(file: &str) -> Vec<(String, String, String, u64)> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
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
        let cases = vectors(file);
        let mut input = String::from("# go-ethereum vectors\n\n");
        for (i, (_, hex, _, _)) in cases.iter().enumerate() {
            let prefix = if i % 2 == 0 { "0x" } else { "" };
            input.push_str(&format!("{prefix}{hex}\n"));
        }
        let o = run(&["evm-modexp", "--fork", fork], &input);
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
    let (_, hex, want, gas) = vectors("go-ethereum-modexp_eip7883.json")
        .into_iter()
        .find(|c| c.0 == "marius-1-even")
        .unwrap();
    let o = run(&["evm-modexp", &hex], "");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), format!("0x{want} {gas}\n"));
    // The same input under berlin: same output, EIP-2565's price.
    let o = run(&["evm-modexp", "--fork", "berlin", &format!("0x{hex}")], "");
    assert_eq!(o.status.code(), Some(0));
    let line = stdout(&o);
    let (out, berlin_gas) = line.trim().split_once(' ').unwrap();
    assert_eq!(out, format!("0x{want}"));
    assert_ne!(berlin_gas.parse::<u64>().unwrap(), gas);
}

/// An empty output prints `0x` alone; the empty input is `0x` (every length zero).
#[test]
fn empty_output() {
    let o = run(&["evm-modexp", "--fork", "berlin", "0x"], "");
    assert_eq!(stdout(&o), "0x 200\n");
    let o = run(&["evm-modexp"], "0x\n");
    assert_eq!(stdout(&o), "0x 500\n");
    let o = run(&["evm-modexp", "--fork", "byzantium"], "0x\n");
    assert_eq!(stdout(&o), "0x 0\n");
}

/// Bad hex and inputs over EIP-7823's cap print `error: ...` in their place, the other lines
/// still run, and the exit code is 1.
#[test]
fn error_lines_and_exit_code() {
    let over_cap = format!("{:064x}{:064x}{:064x}", 1025, 1, 1);
    let ok = format!("{:064x}{:064x}{:064x}030507", 1, 1, 1); // 3^5 mod 7 = 5
    let input = format!("zz\n{ok}\n0x123\n{over_cap}\n{ok}\n");
    let o = run(&["evm-modexp"], &input);
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
    let o = run(&["evm-modexp", "--fork", "berlin", &over_cap], "");
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    // Modulus bytes absent: zero. Gas: ceil(1025 / 8)^2 / 3 = 129^2 / 3.
    assert_eq!(stdout(&o), "0x00 5547\n");
    // One bad argument: its error line, exit 1.
    let o = run(&["evm-modexp", "0xabc"], "");
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).starts_with("error: "));
}

/// An unknown fork is a usage error (exit 2, message on stderr naming the forks).
#[test]
fn unknown_fork_is_usage_error() {
    let o = run(&["evm-modexp", "--fork", "prague", "0x"], "");
    assert_eq!(o.status.code(), Some(2));
    assert!(o.stdout.is_empty());
    assert!(
        stderr(&o).contains("byzantium, berlin or osaka"),
        "{}",
        stderr(&o)
    );
}
