//! Markdown, JSON and CSV renderings, and writing the output directory.

use super::table::{Cell, Table};
use super::{plot, Format, Report};
use std::fmt::Write as _;
use std::path::Path;

/// The Markdown report: header, then every table with its notes and plot link.
pub fn markdown(r: &Report) -> String {
    let h = &r.header;
    let mut s = String::new();
    let _ = writeln!(s, "# modred comparison report\n");
    let _ = writeln!(s, "- **CPU**: {} ({} cores)", h.cpu, h.cores);
    let _ = writeln!(
        s,
        "- **Kernel tier**: {} (this CPU: {}; CPU flags used: {})",
        h.kernel_tier,
        h.cpu_tiers.join(", "),
        if h.cpu_flags.is_empty() {
            "none".to_string()
        } else {
            h.cpu_flags.join(" ")
        }
    );
    if !h.child_tiers.is_empty() {
        let _ = writeln!(
            s,
            "- **Child tiers**: {} (the tier-dependent sections again in child processes with \
             `MODRED_CPU=<tier>`: tables `<id>-<tier>`)",
            h.child_tiers.join(", ")
        );
    }
    let _ = writeln!(s, "- **Libraries**: {}; {}; {}", h.modred, h.gmp, h.openssl);
    let _ = writeln!(
        s,
        "- **Date**: {}; build: {}; mode: {}; wall time {:.1} s",
        h.date_utc,
        h.profile,
        if h.quick { "--quick" } else { "full" },
        h.wall_seconds
    );
    let _ = writeln!(s, "- **Protocol**: {}.", h.protocol);
    let per: Vec<String> = h
        .section_seconds
        .iter()
        .map(|(id, t)| format!("{id} {t:.1}"))
        .collect();
    let _ = writeln!(s, "- **Section wall times (s)**: {}.", per.join(", "));
    for w in &h.warnings {
        let _ = writeln!(s, "- **Warning**: {w}");
    }
    let _ = writeln!(
        s,
        "- **Cells**: `median [min–max] ×ratio`; `WRONG (...)` = result disagreed with the \
         oracle and was not timed; `n/a (reason)` = not applicable or not measured.\n"
    );
    for t in &r.tables {
        s.push_str(&markdown_table(t));
    }
    s
}

/// One table in Markdown.
pub fn markdown_table(t: &Table) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "## {} — {}\n", t.seed, t.title);
    let mut unit = format!("Unit: {}", t.unit);
    if let Some(r) = &t.reference {
        let _ = write!(unit, "; ratios relative to **{r}**");
    }
    let _ = writeln!(s, "{unit}. Data: `{}.csv`.\n", t.id);
    let header: Vec<String> = t.columns.iter().map(|c| md_cell(c)).collect();
    let _ = writeln!(s, "| {} | {} |", md_cell(&t.row_header), header.join(" | "));
    let _ = writeln!(s, "|{}|", vec!["---"; t.columns.len() + 1].join("|"));
    for row in &t.rows {
        let cells: Vec<String> = row.cells.iter().map(|c| md_cell(&c.render())).collect();
        let _ = writeln!(s, "| {} | {} |", md_cell(&row.label), cells.join(" | "));
    }
    s.push('\n');
    if let Some(p) = &t.plot {
        let _ = writeln!(s, "![{}]({})\n", t.title, p.file);
    }
    for n in &t.notes {
        let _ = writeln!(s, "- {n}");
    }
    if !t.notes.is_empty() {
        s.push('\n');
    }
    s
}

/// Text as one Markdown table cell: `|` escaped (a bare one would split the cell, as in
/// `|n| bits`), line breaks as spaces.
fn md_cell(v: &str) -> String {
    v.replace('|', "\\|").replace(['\n', '\r'], " ")
}

fn csv_escape(v: &str) -> String {
    if v.contains([',', '"', '\n']) {
        format!("\"{}\"", v.replace('"', "\"\""))
    } else {
        v.to_string()
    }
}

/// One table as CSV: per column the median/value, min, max, ratio and status.
pub fn csv_table(t: &Table) -> String {
    let mut s = String::new();
    let mut head = vec![csv_escape(&t.row_header), "x".to_string()];
    for c in &t.columns {
        for suffix in ["value", "min", "max", "ratio", "status"] {
            head.push(csv_escape(&format!("{c} {suffix}")));
        }
    }
    let _ = writeln!(s, "{}", head.join(","));
    for row in &t.rows {
        let mut f = vec![
            csv_escape(&row.label),
            row.x.map(|x| x.to_string()).unwrap_or_default(),
        ];
        for c in &row.cells {
            let (v, lo, hi, ratio, status) = match c {
                Cell::Time {
                    median_us,
                    min_us,
                    max_us,
                    ratio,
                    ..
                } => (
                    median_us.to_string(),
                    min_us.to_string(),
                    max_us.to_string(),
                    ratio.map(|r| r.to_string()).unwrap_or_default(),
                    "ok".to_string(),
                ),
                Cell::Number { value } => (
                    value.to_string(),
                    String::new(),
                    String::new(),
                    String::new(),
                    "ok".into(),
                ),
                other => (
                    String::new(),
                    String::new(),
                    String::new(),
                    String::new(),
                    other.render(),
                ),
            };
            f.extend([v, lo, hi, ratio, csv_escape(&status)]);
        }
        let _ = writeln!(s, "{}", f.join(","));
    }
    s
}

/// What `--format` prints.
pub fn render(r: &Report, f: Format) -> String {
    match f {
        Format::Md => markdown(r),
        Format::Json => serde_json::to_string_pretty(r).expect("report serialises") + "\n",
        Format::Csv => r
            .tables
            .iter()
            .map(|t| format!("# {}\n{}\n", t.id, csv_table(t)))
            .collect(),
    }
}

/// What `--format` prints for tables without a report's header (`--counts`).
pub fn render_tables(tables: &[Table], f: Format) -> String {
    match f {
        Format::Json => serde_json::to_string_pretty(tables).expect("tables serialise") + "\n",
        Format::Md => tables.iter().map(markdown_table).collect(),
        Format::Csv => tables
            .iter()
            .map(|t| format!("# {}\n{}\n", t.id, csv_table(t)))
            .collect(),
    }
}

/// Write report.md, report.json, `<table id>.csv` and the SVG plots into `dir`.
/// `dir` created if missing and a file written to it and removed: whether `--out` can take
/// the report.
pub fn check_dir(dir: &Path) -> Result<(), String> {
    let io = |e: std::io::Error| format!("--out {}: {e}", dir.display());
    std::fs::create_dir_all(dir).map_err(io)?;
    let probe = dir.join(".modred-write-test");
    std::fs::write(&probe, b"").map_err(io)?;
    std::fs::remove_file(&probe).map_err(io)
}

pub fn write_all(r: &Report, dir: &Path) -> Result<(), String> {
    let io = |e: std::io::Error| format!("{}: {e}", dir.display());
    std::fs::create_dir_all(dir).map_err(io)?;
    std::fs::write(dir.join("report.md"), markdown(r)).map_err(io)?;
    std::fs::write(dir.join("report.json"), render(r, Format::Json)).map_err(io)?;
    for t in &r.tables {
        std::fs::write(dir.join(format!("{}.csv", t.id)), csv_table(t)).map_err(io)?;
        if let Some(p) = &t.plot {
            plot::svg(t, p, &dir.join(&p.file))?;
        }
    }
    Ok(())
}
