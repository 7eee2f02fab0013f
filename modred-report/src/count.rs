//! Operation counts measured next to the papers' formulas: Table 1 of Bosselaers, Govaerts,
//! Vandewalle, *Comparison of three modular reduction functions*, CRYPTO '93 (single-precision
//! multiplications and divisions of one reduction of a 2k-limb argument) and Tables 1 and 2 of
//! Koç, Acar, Kaliski, *Analyzing and Comparing Montgomery Multiplication Algorithms*, IEEE
//! Micro 1996 (the five Montgomery products).
//!
//! The counters live in modred behind its `count` feature, which slows every kernel, so timing
//! builds do not have it. Where the counts come from ([`Counter`]):
//! - built with `--features count`: measured in this process;
//! - otherwise the report builds this crate's small `modred-count` binary
//!   (`CHILD_BUILD` in the workspace this binary was built from, only when `cargo` is on
//!   PATH and `--no-count-child` is not given; modred at opt-level 0, the dependencies shared
//!   with the release build) and sends it each operation as one line
//!   ([`crate::opcount::Op`]);
//! - failing that, the formula columns are still filled and the measured cells say
//!   "n/a (reason)".

use super::data::{limbs_for, Rng};
use super::table::{Cell, Row, Table};
use super::Ctx;
use crate::opcount::Op;
use modred::count::{self, OpCounts};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::Instant;

/// Arguments averaged per measured count.
const TRIALS: usize = 16;

/// The counting binary's name and the command that builds it (plus `CHILD_PROFILE`). This
/// crate's own dependency set, so they are reused from the report's release build rather than
/// compiled again; only modred (with its counters) and this crate are.
const CHILD_BIN: &str = "modred-count";
const CHILD_BUILD: [&str; 8] = [
    "build",
    "--release",
    "-p",
    "modred-report",
    "--features",
    "count",
    "--bin",
    CHILD_BIN,
];
/// The counting build compiles modred and this crate unoptimised (counts do not depend on it:
/// every operation bumps a counter) and reuses the release build's dependencies: on 2 cores
/// modred took 4-5 s of CPU against 30 s at the release profile's opt-level 3 (thin LTO, one
/// codegen unit).
const CHILD_PROFILE: [&str; 12] = [
    "--config",
    "profile.release.package.modred.opt-level=0",
    "--config",
    "profile.release.package.modred.codegen-units=16",
    "--config",
    "profile.release.package.modred.debug=0",
    "--config",
    "profile.release.package.modred-report.opt-level=0",
    "--config",
    "profile.release.package.modred-report.codegen-units=16",
    "--config",
    "profile.release.package.modred-report.debug=0",
];

/// Where operation counts come from.
pub enum Counter {
    /// This process has the counters (the `count` feature).
    InProcess,
    /// The `modred-count` child process: one request line, one reply line.
    Child {
        child: Child,
        requests: ChildStdin,
        replies: BufReader<ChildStdout>,
    },
    /// No counts; the reason fills the measured cells.
    Unavailable(String),
}

impl Counter {
    /// In-process when this build counts, otherwise unavailable with instructions.
    pub fn this_build() -> Self {
        if count::ENABLED {
            Counter::InProcess
        } else {
            Counter::Unavailable(
                "this build has no counters: cargo run --release -p modred-report --features count -- --counts"
                    .into(),
            )
        }
    }

    /// Counts of one operation, or why not.
    fn count(&mut self, op: &Op) -> Result<OpCounts, String> {
        match self {
            Counter::InProcess => op.count().map_err(|e| e.to_string()),
            Counter::Unavailable(why) => Err(why.clone()),
            Counter::Child {
                requests, replies, ..
            } => {
                let lost = |e: std::io::Error| format!("{CHILD_BIN}: {e}");
                writeln!(requests, "{}", op.to_line())
                    .and_then(|()| requests.flush())
                    .map_err(lost)?;
                let mut reply = String::new();
                if replies.read_line(&mut reply).map_err(lost)? == 0 {
                    return Err(format!("{CHILD_BIN} exited early"));
                }
                parse_reply(&reply)
            }
        }
    }
}

impl Drop for Counter {
    fn drop(&mut self) {
        if let Counter::Child { child, .. } = self {
            // Its stdin closes with this value, so it sees EOF and exits.
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// `MULS DIVS`, or the child's `error: ...` line.
fn parse_reply(line: &str) -> Result<OpCounts, String> {
    let line = line.trim();
    if let Some(e) = line.strip_prefix("error: ") {
        return Err(format!("{CHILD_BIN}: {e}"));
    }
    let nums: Vec<u64> = line.split(' ').filter_map(|w| w.parse().ok()).collect();
    match nums[..] {
        [muls, divs] => Ok(OpCounts { muls, divs }),
        _ => Err(format!("{CHILD_BIN}: unreadable reply '{line}'")),
    }
}

/// Mean multiplications and divisions of an operation over `TRIALS` random inputs, or why not.
type Measured = Result<(f64, f64), String>;

fn mean_counts(counter: &mut Counter, mut op: impl FnMut(&mut Rng) -> Op) -> Measured {
    if let Counter::Unavailable(why) = counter {
        return Err(why.clone());
    }
    let mut rng = Rng::new(0xc0);
    let (mut muls, mut divs) = (0u64, 0u64);
    for _ in 0..TRIALS {
        let c = counter.count(&op(&mut rng))?;
        muls += c.muls;
        divs += c.divs;
    }
    Ok((muls as f64 / TRIALS as f64, divs as f64 / TRIALS as f64))
}

fn cell(m: &Measured, pick: impl Fn(&(f64, f64)) -> f64) -> Cell {
    match m {
        Ok(v) => Cell::number(pick(v)),
        Err(w) => Cell::na(w.clone()),
    }
}

/// Counts of one `reduce_wide` of a product of two residues by `name`, modulus of `k` limbs.
fn reduction_counts(counter: &mut Counter, name: &str, k: usize) -> Measured {
    mean_counts(counter, |rng| {
        let m = rng.odd_modulus(64 * k);
        let x = &rng.below(&m) * &rng.below(&m);
        Op::Reduction {
            name: name.into(),
            m,
            x,
        }
    })
}

/// Counts of one `Reducer::mul` (a Montgomery product for the Montgomery family).
fn product_counts(counter: &mut Counter, name: &str, k: usize) -> Measured {
    mean_counts(counter, |rng| {
        let m = rng.odd_modulus(64 * k);
        let (a, b) = (rng.below(&m), rng.below(&m));
        Op::Product {
            name: name.into(),
            m,
            a,
            b,
        }
    })
}

/// Counts of the k x k schoolbook product (the paper's reference operation).
fn multiplication_counts(counter: &mut Counter, k: usize) -> Measured {
    mean_counts(counter, |rng| Op::Schoolbook {
        limbs: k,
        a: modred::Natural::from_limbs(rng.limbs(64 * k)),
        b: modred::Natural::from_limbs(rng.limbs(64 * k)),
    })
}

/// Bosselaers et al. 1993 Table 1 with measured columns next to the formulas.
pub fn seed000_table1(counter: &mut Counter) -> Table {
    let mut t = Table::new(
        "seed000-table1",
        "single-precision multiplications and divisions per reduction of a 2k-limb argument",
        "Bosselaers et al. 1993 Table 1",
        "operations",
        "k (limbs)",
    );
    t.columns = [
        "classical mul",
        "classical mul formula k(k+2.5)",
        "classical div",
        "classical div formula k",
        "barrett mul",
        "barrett mul formula k(k+4)",
        "barrett div",
        "montgomery-redc mul",
        "montgomery-redc mul formula k(k+1)",
        "montgomery-redc div",
        "multiplication mul",
        "multiplication formula k^2",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    for bits in [128, 256, 512, 768, 1024, 2048] {
        let k = limbs_for(bits);
        let kf = k as f64;
        let c = reduction_counts(counter, "classical", k);
        let b = reduction_counts(counter, "barrett", k);
        let m = reduction_counts(counter, "montgomery-redc", k);
        let x = multiplication_counts(counter, k);
        t.rows.push(Row {
            label: format!("{k} ({bits} bits)"),
            x: Some(kf),
            cells: vec![
                cell(&c, |v| v.0),
                Cell::number(kf * (kf + 2.5)),
                cell(&c, |v| v.1),
                Cell::number(kf),
                cell(&b, |v| v.0),
                Cell::number(kf * (kf + 4.0)),
                cell(&b, |v| v.1),
                cell(&m, |v| v.0),
                Cell::number(kf * (kf + 1.0)),
                cell(&m, |v| v.1),
                cell(&x, |v| v.0),
                Cell::number(kf * kf),
            ],
        });
    }
    t.note(format!("Measured: mean over {TRIALS} random products of two residues of random odd moduli, counted by modred's `count` feature (every `mul_wide`, `mul_lo`, `mac` and `div_wide` is one operation). Radix b = 2^64, so k = bits/64 (the paper: b = 2^16)."));
    t.note("The paper's classical count k(k+2.5) includes normalizing the argument; modred's Algorithm D needs k(k+2) (k+2 per quotient digit: k for q m, 2 for the 3-by-2 estimate check). Barrett's k(k+4) is an upper bound of the partial products. Precalculation, argument transformation and postcalculation are not counted, as in the paper.");
    t
}

/// Koç–Acar–Kaliski 1996 Table 1: multiplications measured vs 2s^2 + s, and the other formulas.
pub fn seed002_table1(counter: &mut Counter) -> Table {
    let mut t = Table::new(
        "seed002-table1",
        "time and space requirements of the Montgomery products",
        "Koç–Acar–Kaliski 1996 Table 1",
        "operations",
        "method, s",
    );
    t.columns = [
        "multiplications measured",
        "multiplications formula 2s^2+s",
        "additions formula",
        "reads formula",
        "writes formula",
        "space formula (words)",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    type F = fn(f64) -> f64;
    let methods: [(&str, [F; 4]); 5] = [
        (
            "montgomery-sos",
            [
                |s| 4.0 * s * s + 4.0 * s + 2.0,
                |s| 6.0 * s * s + 7.0 * s + 3.0,
                |s| 2.0 * s * s + 6.0 * s + 2.0,
                |s| 2.0 * s + 2.0,
            ],
        ),
        (
            "montgomery-cios",
            [
                |s| 4.0 * s * s + 4.0 * s + 2.0,
                |s| 6.0 * s * s + 7.0 * s + 2.0,
                |s| 2.0 * s * s + 5.0 * s + 1.0,
                |s| s + 3.0,
            ],
        ),
        (
            "montgomery-fios",
            [
                |s| 5.0 * s * s + 3.0 * s + 2.0,
                |s| 7.0 * s * s + 5.0 * s + 2.0,
                |s| 3.0 * s * s + 4.0 * s + 1.0,
                |s| s + 3.0,
            ],
        ),
        (
            "montgomery-fips",
            [
                |s| 6.0 * s * s + 2.0 * s + 2.0,
                |s| 9.0 * s * s + 8.0 * s + 2.0,
                |s| 5.0 * s * s + 8.0 * s + 1.0,
                |s| s + 3.0,
            ],
        ),
        (
            "montgomery-cihs",
            [
                |s| 4.0 * s * s + 4.0 * s + 2.0,
                |s| 6.5 * s * s + 6.5 * s + 2.0,
                |s| 3.0 * s * s + 5.0 * s + 1.0,
                |s| s + 3.0,
            ],
        ),
    ];
    for (name, f) in methods {
        for s in [8usize, 16, 32] {
            let sf = s as f64;
            let m = product_counts(counter, name, s);
            let mut cells = vec![cell(&m, |v| v.0), Cell::number(2.0 * sf * sf + sf)];
            cells.extend(f.iter().map(|g| Cell::number(g(sf))));
            t.rows.push(Row {
                label: format!(
                    "{} s={s}",
                    name.trim_start_matches("montgomery-").to_uppercase()
                ),
                x: Some(sf),
                cells,
            });
        }
    }
    t.note("Measured: single-precision multiplications of one `Reducer::mul` (the MonPro) per method, mean over random operands, by the `count` feature. modred counts multiplications and divisions only, so additions, reads, writes and space are the paper's formulas (s = limbs of 64 bits; the paper used 32-bit words). modred's SOS squares nothing here (a != b), so 2s^2 + s applies to every method.");
    t
}

/// Koç–Acar–Kaliski 1996 Table 2: the CIOS operation count statement by statement, evaluated at
/// s = 16, with the measured multiplication total.
pub fn seed002_table2(counter: &mut Counter) -> Table {
    let s = 16usize;
    let sf = s as f64;
    let mut t = Table::new(
        "seed002-table2",
        "calculating the operations of the CIOS method (s = 16)",
        "Koç–Acar–Kaliski 1996 Table 2",
        "operations",
        "statement",
    );
    t.columns = ["Mult", "Add", "Read", "Write", "Iterations"]
        .iter()
        .map(|c| c.to_string())
        .collect();
    // (statement, mult, add, read, write per iteration, iterations)
    let rows: [(&str, f64, f64, f64, f64, f64); 14] = [
        ("C := 0", 0., 0., 0., 0., sf),
        ("(C,S) := t[j] + b[j]*a[i] + C", 1., 2., 3., 0., sf * sf),
        ("t[j] := S", 0., 0., 0., 1., sf * sf),
        ("(C,S) := t[s] + C", 0., 1., 1., 0., sf),
        ("t[s] := S", 0., 0., 0., 1., sf),
        ("t[s+1] := C", 0., 0., 0., 1., sf),
        ("m := t[0]*n'[0] mod W", 1., 0., 2., 1., sf),
        ("(C,S) := t[0] + m*n[0]", 1., 1., 3., 0., sf),
        ("(C,S) := t[j] + m*n[j] + C", 1., 2., 3., 0., sf * (sf - 1.)),
        ("t[j-1] := S", 0., 0., 0., 1., sf * (sf - 1.)),
        ("(C,S) := t[s] + C (second)", 0., 1., 1., 0., sf),
        ("t[s-1] := S", 0., 0., 0., 1., sf),
        ("t[s] := t[s+1] + C", 0., 1., 1., 1., sf),
        (
            "final subtraction",
            0.,
            2. * (sf + 1.),
            2. * (sf + 1.),
            sf + 1.,
            1.,
        ),
    ];
    let mut tot = [0f64; 4];
    for &(st, mu, ad, rd, wr, it) in rows.iter() {
        let v = [mu * it, ad * it, rd * it, wr * it];
        for (a, b) in tot.iter_mut().zip(v) {
            *a += b;
        }
        let mut cells: Vec<Cell> = v.iter().map(|&x| Cell::number(x)).collect();
        cells.push(Cell::number(it));
        t.rows.push(Row {
            label: st.into(),
            x: None,
            cells,
        });
    }
    let mut cells: Vec<Cell> = tot.iter().map(|&x| Cell::number(x)).collect();
    cells.push(Cell::na("sum of the rows above"));
    t.rows.push(Row {
        label: "total (formula: 2s^2+s, 4s^2+4s+2, 6s^2+7s+2, 2s^2+5s+1)".into(),
        x: None,
        cells,
    });
    let m = product_counts(counter, "montgomery-cios", s);
    let uncounted = "modred counts multiplications and divisions only";
    t.rows.push(Row {
        label: "measured (montgomery-cios, count feature)".into(),
        x: None,
        cells: vec![
            cell(&m, |v| v.0),
            Cell::na(uncounted),
            Cell::na(uncounted),
            Cell::na(uncounted),
            Cell::number(1.0),
        ],
    });
    t.note("Rows: the paper's statements with per-iteration operations times iterations, evaluated at s = 16 (1024 bits with 64-bit limbs).");
    t
}

/// All count tables measured in this process (all measured cells n/a without the feature).
pub fn tables_in_process() -> Vec<Table> {
    tables_with(&mut Counter::this_build())
}

/// The count tables alone (`modred-report --counts`): in this process with feature `count`,
/// else from the `modred-count` child (an error saying why when it cannot be built).
pub fn tables_standalone() -> Result<Vec<Table>, String> {
    if count::ENABLED {
        return Ok(tables_in_process());
    }
    let mut counter = spawn_child()?;
    Ok(tables_with(&mut counter))
}

fn tables_with(counter: &mut Counter) -> Vec<Table> {
    vec![
        seed000_table1(counter),
        seed002_table1(counter),
        seed002_table2(counter),
    ]
}

/// Build the `modred-count` binary and start it, or say why not.
fn spawn_child() -> Result<Counter, String> {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    if !std::path::Path::new(root).join("Cargo.toml").exists() {
        return Err("workspace sources not found for the counting build".into());
    }
    let has_cargo = Command::new("cargo")
        .arg("--version")
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false);
    if !has_cargo {
        return Err("no `cargo` on PATH to build the counting binary".into());
    }
    // The JSON messages name the executable wherever the target directory is.
    let out = Command::new("cargo")
        .current_dir(root)
        .args(CHILD_BUILD)
        .args(CHILD_PROFILE)
        .args(["--message-format", "json-render-diagnostics", "-q"])
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cargo {}: {e}", CHILD_BUILD.join(" ")))?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        return Err(format!(
            "counting build failed: {}",
            err.lines().last().unwrap_or("").trim()
        ));
    }
    let exe = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .find(|m| m["reason"] == "compiler-artifact" && m["target"]["name"] == CHILD_BIN)
        .and_then(|m| m["executable"].as_str().map(String::from))
        .ok_or_else(|| format!("cargo did not report the {CHILD_BIN} executable"))?;
    let mut child = Command::new(&exe)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| format!("{exe}: {e}"))?;
    let (Some(requests), Some(replies)) = (child.stdin.take(), child.stdout.take()) else {
        let _ = child.kill();
        return Err(format!("{exe}: no pipes"));
    };
    Ok(Counter::Child {
        child,
        requests,
        replies: BufReader::new(replies),
    })
}

/// The count tables for the report (cached in the context: one counting build per report).
fn cached(ctx: &mut Ctx) -> Vec<Table> {
    if let Some(t) = &ctx.count_tables {
        return t.clone();
    }
    let tables = if count::ENABLED {
        tables_in_process()
    } else if ctx.no_count_child {
        tables_with(&mut Counter::Unavailable(
            "no counters in this build; --no-count-child given".into(),
        ))
    } else {
        ctx.step(format!(
            "building the counting binary: cargo {} (modred at opt-level 0)",
            CHILD_BUILD.join(" ")
        ));
        let t0 = Instant::now();
        let mut counter = spawn_child().unwrap_or_else(Counter::Unavailable);
        if let Counter::Unavailable(why) = &counter {
            ctx.step(format!("no counting binary: {why}"));
        } else {
            ctx.step(format!(
                "counting binary built in {:.0} s; counting",
                t0.elapsed().as_secs_f64()
            ));
        }
        let mut t = tables_with(&mut counter);
        if matches!(counter, Counter::Child { .. }) {
            for table in &mut t {
                table.note(format!(
                    "Counts from the `{CHILD_BIN}` binary (`cargo {}`): this report's binary has no counters.",
                    CHILD_BUILD.join(" ")
                ));
            }
        }
        t
    };
    ctx.count_tables = Some(tables.clone());
    tables
}

/// Section `seed000-table1`.
pub fn run_seed000(ctx: &mut Ctx) -> Vec<Table> {
    cached(ctx)
        .into_iter()
        .filter(|t| t.id.starts_with("seed000"))
        .collect()
}

/// Section `seed002-table1` (Tables 1 and 2).
pub fn run_seed002(ctx: &mut Ctx) -> Vec<Table> {
    cached(ctx)
        .into_iter()
        .filter(|t| t.id.starts_with("seed002"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formulas_and_measured_cells() {
        let tables = tables_in_process();
        assert_eq!(tables.len(), 3);
        let t0 = &tables[0];
        // k = 8: k(k+2.5) = 84, k(k+4) = 96, k(k+1) = 72, k^2 = 64.
        let row = t0.rows.iter().find(|r| r.x == Some(8.0)).unwrap();
        assert_eq!(row.cells[1], Cell::number(84.0));
        assert_eq!(row.cells[5], Cell::number(96.0));
        assert_eq!(row.cells[8], Cell::number(72.0));
        assert_eq!(row.cells[11], Cell::number(64.0));
        // CIOS total row equals the paper's closed forms at s = 16.
        let t2 = &tables[2];
        let total = &t2.rows[t2.rows.len() - 2];
        assert_eq!(total.cells[0], Cell::number(2.0 * 256.0 + 16.0));
        assert_eq!(total.cells[1], Cell::number(4.0 * 256.0 + 64.0 + 2.0));
        assert_eq!(total.cells[2], Cell::number(6.0 * 256.0 + 112.0 + 2.0));
        assert_eq!(total.cells[3], Cell::number(2.0 * 256.0 + 80.0 + 1.0));
        if count::ENABLED {
            // Measured: the multiplication is exactly k^2, Montgomery REDC exactly k(k+1).
            assert_eq!(row.cells[10], Cell::number(64.0));
            assert_eq!(row.cells[7], Cell::number(72.0));
            assert_eq!(row.cells[9], Cell::number(0.0));
            let cios = tables[1]
                .rows
                .iter()
                .find(|r| r.label == "CIOS s=16")
                .unwrap();
            assert_eq!(cios.cells[0], Cell::number(2.0 * 256.0 + 16.0));
        } else {
            assert!(matches!(row.cells[0], Cell::NotAvailable { .. }));
        }
    }

    #[test]
    fn every_cell_is_number_or_reasoned_na() {
        for t in tables_in_process() {
            for r in &t.rows {
                assert_eq!(r.cells.len(), t.columns.len(), "{} {}", t.id, r.label);
                for c in &r.cells {
                    match c {
                        Cell::Number { value } => assert!(value.is_finite()),
                        Cell::NotAvailable { reason } => assert!(!reason.is_empty()),
                        other => panic!("{other:?}"),
                    }
                }
            }
        }
    }
}
