//! End-to-end test of `modred-report` on tiny sizes with few rounds: every section renders,
//! every cell is a number or an explicit "n/a (reason)", the JSON parses and holds every
//! competitor, and every output file is written.

use serde_json::Value;
use std::path::PathBuf;
use std::process::Command;

fn out_dir(name: &str) -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn run_report(dir: &PathBuf, extra: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_modred-report"))
        .args(["--quick", "--sizes", "128,256", "--rounds", "2"])
        .args(["--sample-ms", "0.05", "--no-count-child"])
        .arg("--out")
        .arg(dir)
        .args(extra)
        .output()
        .expect("run modred")
}

/// Cells of one Markdown table line: split on `|` not escaped as `\|`, without the outer pipes.
fn markdown_cells(line: &str) -> usize {
    let inner = line.trim();
    let inner = inner.strip_prefix('|').unwrap_or(inner);
    let inner = inner.strip_suffix('|').unwrap_or(inner);
    let mut cells = 1;
    let mut after_backslash = false;
    for c in inner.chars() {
        if c == '|' && !after_backslash {
            cells += 1;
        }
        after_backslash = c == '\\' && !after_backslash;
    }
    cells
}

/// Every Markdown table (a block of lines starting with `|`) has as many header cells as
/// separator cells and row cells; returns how many tables there were.
fn check_markdown_tables(md: &str) -> Result<usize, String> {
    let lines: Vec<&str> = md.lines().collect();
    let mut tables = 0;
    let mut i = 0;
    while i < lines.len() {
        if !lines[i].starts_with('|') {
            i += 1;
            continue;
        }
        let start = i;
        while i < lines.len() && lines[i].starts_with('|') {
            i += 1;
        }
        let block = &lines[start..i];
        let head = markdown_cells(block[0]);
        let sep = block.get(1).copied().unwrap_or("");
        if !sep
            .split('|')
            .all(|c| c.trim().is_empty() || c.trim().starts_with("---"))
        {
            return Err(format!("no separator under {:?}", block[0]));
        }
        if markdown_cells(sep) != head {
            return Err(format!(
                "{head} header cells, {} separator cells: {:?}",
                markdown_cells(sep),
                block[0]
            ));
        }
        for row in &block[2..] {
            if markdown_cells(row) != head {
                return Err(format!(
                    "{head} header cells, {} in row {row:?}",
                    markdown_cells(row)
                ));
            }
        }
        tables += 1;
    }
    Ok(tables)
}

#[test]
fn markdown_check_catches_an_unescaped_pipe() {
    let unescaped = "| |n| bits | a |\n|---|---|\n| 512 | 1 |\n";
    assert!(check_markdown_tables(unescaped).is_err());
    let escaped = "| \\|n\\| bits | a |\n|---|---|\n| 512 | 1 \\| 2 |\n";
    assert_eq!(check_markdown_tables(escaped), Ok(1));
    assert!(check_markdown_tables("| a | b |\n|---|---|\n| 1 |\n").is_err());
}

/// A cell is fine if it is a finite time/number or an n/a with a reason; WRONG is a failure
/// here because every competitor in the report is expected to be correct.
fn check_cell(table: &str, col: &str, cell: &Value) {
    match cell["kind"].as_str() {
        Some("time") => {
            let med = cell["median_us"].as_f64().unwrap();
            let (lo, hi) = (
                cell["min_us"].as_f64().unwrap(),
                cell["max_us"].as_f64().unwrap(),
            );
            assert!(med.is_finite() && med > 0.0, "{table}/{col}: {cell}");
            assert!(lo <= med && med <= hi, "{table}/{col}: {cell}");
        }
        Some("number") => assert!(cell["value"].as_f64().unwrap().is_finite()),
        Some("not_available") => {
            assert!(
                !cell["reason"].as_str().unwrap().trim().is_empty(),
                "{table}/{col}"
            )
        }
        _ => panic!("{table}/{col}: unexpected cell {cell}"),
    }
}

#[test]
fn quick_tiny_report_renders_every_section() {
    let dir = out_dir("report-tiny");
    let out = run_report(&dir, &["--format", "json"]);
    assert!(
        out.status.success(),
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    // stdout is the JSON report; the file too.
    let doc: Value = serde_json::from_slice(&out.stdout).expect("stdout is JSON");
    let file: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("report.json")).unwrap()).unwrap();
    assert_eq!(doc["tables"], file["tables"]);
    let header = &doc["header"];
    for key in ["cpu", "gmp", "openssl", "modred", "date_utc", "protocol"] {
        assert!(
            !header[key].as_str().unwrap_or("").is_empty(),
            "header {key}"
        );
    }
    assert!(header["gmp"].as_str().unwrap().contains("GMP 6."));
    assert!(header["openssl"].as_str().unwrap().contains("OpenSSL"));

    let tables = doc["tables"].as_array().unwrap();
    let ids: Vec<&str> = tables.iter().map(|t| t["id"].as_str().unwrap()).collect();
    for want in [
        "headline",
        "seed000-table1",
        "seed000-table2",
        "seed000-fig1",
        "seed000-fig2",
        "seed000-table3",
        "seed000-fig3",
        "seed001-table1",
        "seed001-tables2-5",
        "seed001-tables6-9",
        "seed002-table1",
        "seed002-table2",
        "seed002-table3",
        "seed003-table",
        "seed004-fig7",
        "scaling-mul",
        "throughput-pow",
        "throughput-prime",
    ] {
        assert!(ids.contains(&want), "missing table {want}: {ids:?}");
    }
    // The default child tiers (adx on an IFMA machine) add the tier-dependent tables.
    let child_tiers = modred_report::tiers::select(None).unwrap();
    for tier in &child_tiers {
        for id in [
            "scaling-mul",
            "scaling-reduce",
            "scaling-pow",
            "throughput-pow",
        ] {
            let want = format!("{id}-{tier}");
            assert!(ids.contains(&want.as_str()), "missing {want}: {ids:?}");
        }
    }
    assert_eq!(
        header["child_tiers"].as_array().map(Vec::len),
        Some(child_tiers.len())
    );
    assert_eq!(header["warnings"], serde_json::json!([]));
    let md = std::fs::read_to_string(dir.join("report.md")).unwrap();
    let md_tables = check_markdown_tables(&md).unwrap_or_else(|e| panic!("report.md: {e}"));
    for t in tables {
        let id = t["id"].as_str().unwrap();
        let cols: Vec<&str> = t["columns"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_str().unwrap())
            .collect();
        let rows = t["rows"].as_array().unwrap();
        assert!(!rows.is_empty(), "{id} has no rows");
        for r in rows {
            let cells = r["cells"].as_array().unwrap();
            assert_eq!(cells.len(), cols.len(), "{id}: every competitor has a cell");
            for (c, col) in cells.iter().zip(&cols) {
                check_cell(id, col, c);
            }
        }
        // every competitor appears in the Markdown header row and the CSV
        let csv = std::fs::read_to_string(dir.join(format!("{id}.csv"))).unwrap();
        for col in &cols {
            assert!(md.contains(col), "{id}: column {col} not in report.md");
            assert!(
                csv.lines().next().unwrap().contains(col),
                "{id}: {col} not in CSV"
            );
        }
        assert_eq!(csv.lines().count(), rows.len() + 1, "{id}.csv rows");
        if let Some(p) = t["plot"]["file"].as_str() {
            let svg = std::fs::read_to_string(dir.join(p)).unwrap();
            assert!(svg.starts_with("<svg") && svg.contains("polyline"), "{p}");
        }
    }
    assert_eq!(md_tables, tables.len(), "one Markdown table per JSON table");
    // The libraries appear as competitors with real timings in the timed tables.
    let t2 = tables.iter().find(|t| t["id"] == "seed000-table2").unwrap();
    for name in [
        "classical",
        "barrett",
        "montgomery-redc",
        "GMP mpz_mod",
        "OpenSSL BN_nnmod",
    ] {
        let i = t2["columns"]
            .as_array()
            .unwrap()
            .iter()
            .position(|c| c == name)
            .unwrap();
        for r in t2["rows"].as_array().unwrap() {
            assert_eq!(r["cells"][i]["kind"], "time", "{name} timed");
        }
    }
}

#[test]
fn only_selects_and_formats_render() {
    let dir = out_dir("report-only");
    let out = run_report(&dir, &["--only", "seed002-table3", "--format", "md"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let md = String::from_utf8(out.stdout).unwrap();
    assert!(md.contains("# modred comparison report"));
    assert!(md.contains("Koç–Acar–Kaliski 1996 Table 3"));
    assert!(!md.contains("Bosselaers et al. 1993 Table 2"));
    assert!(md.contains("| 128 |") && md.contains("montgomery-cios"));

    let out = run_report(&dir, &["--only", "seed002-table3", "--format", "csv"]);
    let csv = String::from_utf8(out.stdout).unwrap();
    assert!(csv.starts_with("# seed002-table3\nbits,x,montgomery-sos value"));

    let bad = run_report(&dir, &["--only", "nope"]);
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("no such section"));
}

#[test]
fn counts_without_counters_or_child_exit_2_with_instructions() {
    let out = Command::new(env!("CARGO_BIN_EXE_modred-report"))
        .args(["--counts", "--no-count-child"])
        .output()
        .unwrap();
    if cfg!(feature = "count") {
        assert!(out.status.success());
    } else {
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("cargo run --release -p modred-report --features count -- --counts"));
    }
}

#[test]
fn progress_lines_when_stderr_is_a_file() {
    let dir = out_dir("report-progress");
    std::fs::create_dir_all(&dir).unwrap();
    let log = dir.join("stderr.log");
    let status = Command::new(env!("CARGO_BIN_EXE_modred-report"))
        .args(["--only", "seed002-table3", "--sizes", "128,192"])
        .args(["--rounds", "2", "--sample-ms", "0.05", "--out"])
        .arg(dir.join("out"))
        .stdout(std::process::Stdio::null())
        .stderr(std::fs::File::create(&log).unwrap())
        .status()
        .expect("run modred");
    assert!(status.success());
    let text = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    // One line per section and per size, each with the elapsed time; no terminal control codes.
    for want in [
        "section 1/1: seed002-table3",
        "seed002-table3 128 bits",
        "seed002-table3 192 bits",
    ] {
        let line = lines
            .iter()
            .find(|l| l.contains(want))
            .unwrap_or_else(|| panic!("no progress line {want:?} in {text:?}"));
        assert!(
            line.starts_with("report [") && line.contains(" s] "),
            "{line}"
        );
    }
    assert!(!text.contains('\u{1b}'), "escape codes in {text:?}");
}

#[test]
fn only_list_names_the_sections() {
    let out = Command::new(env!("CARGO_BIN_EXE_modred-report"))
        .args(["--only", "list"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let list = String::from_utf8(out.stdout).unwrap();
    let ids: Vec<&str> = list.lines().filter_map(|l| l.split(' ').next()).collect();
    for want in ["headline", "scaling", "throughput", "rsa"] {
        assert!(ids.contains(&want), "{want} not in {list}");
    }
}

/// The child of `--tiers`: tables as JSON on stdout, only at the tier `MODRED_CPU` gives it.
#[test]
fn tier_child_prints_its_tables_as_json() {
    let child = |cpu: Option<&str>, only: &str| {
        let mut c = Command::new(env!("CARGO_BIN_EXE_modred-report"));
        c.args(["--tier-child", "portable", "--only", only, "--quick"])
            .args(["--sizes", "128", "--rounds", "1", "--sample-ms", "0.05"])
            .env_remove("MODRED_NO_ASM");
        match cpu {
            Some(v) => c.env("MODRED_CPU", v),
            None => c.env_remove("MODRED_CPU"),
        };
        c.output().expect("run modred-report")
    };
    let out = child(Some("portable"), "scaling");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: Value = serde_json::from_slice(&out.stdout).expect("stdout is JSON");
    assert_eq!(doc["tier"], "portable");
    let ids: Vec<&str> = doc["tables"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["scaling-mul", "scaling-reduce", "scaling-pow"]);
    // Progress stays on stderr.
    assert!(String::from_utf8_lossy(&out.stderr).contains("scaling mul 128 bits"));

    let wrong = child(Some("portable"), "headline");
    assert_eq!(wrong.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&wrong.stderr).contains("tier-dependent"));
    if modred::cpu::detected() > modred::cpu::Tier::Portable {
        let uncapped = child(None, "scaling");
        assert_eq!(uncapped.status.code(), Some(1));
        assert!(String::from_utf8_lossy(&uncapped.stderr).contains("MODRED_CPU=portable"));
    }
}

/// `--tiers portable` re-runs the section in a child: its tables suffixed and titled with the
/// tier, the tier in the header; `--tiers none` runs no child.
#[test]
fn tiers_add_the_child_tables() {
    if modred::cpu::tier() == modred::cpu::Tier::Portable {
        return; // no tier below this process's own
    }
    let dir = out_dir("report-tiers");
    let out = run_report(
        &dir,
        &[
            "--only",
            "throughput",
            "--tiers",
            "portable",
            "--format",
            "json",
        ],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: Value = serde_json::from_slice(&out.stdout).expect("stdout is JSON");
    assert_eq!(
        doc["header"]["child_tiers"],
        serde_json::json!(["portable"])
    );
    let tables = doc["tables"].as_array().unwrap();
    let ids: Vec<&str> = tables.iter().map(|t| t["id"].as_str().unwrap()).collect();
    assert_eq!(
        ids,
        [
            "throughput-pow",
            "throughput-prime",
            "throughput-pow-portable",
            "throughput-prime-portable"
        ]
    );
    for t in &tables[2..] {
        assert!(t["title"].as_str().unwrap().ends_with("portable tier"));
        assert!(t["notes"][0]
            .as_str()
            .unwrap()
            .contains("MODRED_CPU=portable"));
        for r in t["rows"].as_array().unwrap() {
            for c in r["cells"].as_array().unwrap() {
                check_cell(t["id"].as_str().unwrap(), "", c);
            }
        }
    }
    assert!(dir.join("throughput-pow-portable.csv").exists());

    let out = run_report(
        &dir,
        &[
            "--only",
            "throughput",
            "--tiers",
            "none",
            "--format",
            "json",
        ],
    );
    let doc: Value = serde_json::from_slice(&out.stdout).expect("stdout is JSON");
    assert_eq!(doc["tables"].as_array().map(Vec::len), Some(2));
    assert_eq!(doc["header"]["child_tiers"], serde_json::json!([]));
}
