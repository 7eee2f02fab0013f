//! The report's data model: tables of cells, serialised to JSON as is.

use serde::{Deserialize, Serialize};

/// One cell: a timing, a plain number (operation counts), a wrong result, or an explicit
/// "n/a (reason)".
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Cell {
    /// Per-call time in microseconds over the interleaved rounds.
    Time {
        median_us: f64,
        min_us: f64,
        max_us: f64,
        /// median / median of the reference column.
        ratio: Option<f64>,
        samples: usize,
        iters: u64,
    },
    /// A number (an operation count, a formula's value).
    Number { value: f64 },
    /// The competitor's result disagreed with the oracle; it was not timed.
    Wrong { detail: String },
    /// Not applicable / not measured, with the reason.
    NotAvailable { reason: String },
}

impl Cell {
    pub fn na(reason: impl Into<String>) -> Self {
        Cell::NotAvailable {
            reason: reason.into(),
        }
    }

    pub fn number(value: f64) -> Self {
        Cell::Number { value }
    }

    /// The value plotted / exported as the cell's main number.
    pub fn value(&self) -> Option<f64> {
        match self {
            Cell::Time { median_us, .. } => Some(*median_us),
            Cell::Number { value } => Some(*value),
            _ => None,
        }
    }

    /// Markdown / terminal rendering.
    pub fn render(&self) -> String {
        match self {
            Cell::Time {
                median_us,
                min_us,
                max_us,
                ratio,
                ..
            } => {
                let mut s = format!(
                    "{} [{}–{}]",
                    fmt_num(*median_us),
                    fmt_num(*min_us),
                    fmt_num(*max_us)
                );
                if let Some(r) = ratio {
                    s.push_str(&format!(" ×{r:.2}"));
                }
                s
            }
            Cell::Number { value } => fmt_num(*value),
            Cell::Wrong { detail } => format!("WRONG ({detail})"),
            Cell::NotAvailable { reason } => format!("n/a ({reason})"),
        }
    }
}

/// Three significant digits, no exponent for the usual range.
pub fn fmt_num(v: f64) -> String {
    if v == v.trunc() && v.abs() < 1e12 {
        return format!("{v:.0}");
    }
    let a = v.abs();
    if a >= 100.0 {
        format!("{v:.0}")
    } else if a >= 10.0 {
        format!("{v:.1}")
    } else if a >= 1.0 {
        format!("{v:.2}")
    } else if a >= 0.01 {
        format!("{v:.3}")
    } else {
        format!("{v:.2e}")
    }
}

/// One row: a label (size, length, ...), its numeric x for plots, and a cell per column.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Row {
    pub label: String,
    pub x: Option<f64>,
    pub cells: Vec<Cell>,
}

/// How to plot a table (series = columns, points = rows with an x).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct PlotSpec {
    /// File name of the SVG inside the output directory.
    pub file: String,
    pub x_label: String,
    pub y_label: String,
    /// Logarithmic x axis (e.g. modulus sizes doubling).
    pub log_x: bool,
}

/// One table of the report, with the paper's own rows and columns.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Table {
    /// Stable id, also the CSV file name.
    pub id: String,
    pub title: String,
    /// Which paper's table or figure this reproduces, by its short citation (e.g. "Bosselaers
    /// et al. 1993 Table 2"; "headline" for modred's own). The field keeps its name, the key
    /// `seed` of report.json, for the readers of earlier reports.
    pub seed: String,
    /// Unit of the cells ("µs", "operations").
    pub unit: String,
    pub row_header: String,
    pub columns: Vec<String>,
    /// Column that ratios refer to.
    pub reference: Option<String>,
    pub rows: Vec<Row>,
    /// What was measured, how, and what differs from the paper.
    pub notes: Vec<String>,
    pub plot: Option<PlotSpec>,
}

impl Table {
    pub fn new(id: &str, title: &str, seed: &str, unit: &str, row_header: &str) -> Self {
        Self {
            id: id.into(),
            title: title.into(),
            seed: seed.into(),
            unit: unit.into(),
            row_header: row_header.into(),
            columns: Vec::new(),
            reference: None,
            rows: Vec::new(),
            notes: Vec::new(),
            plot: None,
        }
    }

    /// Index of the reference column.
    pub fn reference_index(&self) -> Option<usize> {
        let r = self.reference.as_ref()?;
        self.columns.iter().position(|c| c == r)
    }

    pub fn note(&mut self, s: impl Into<String>) {
        self.notes.push(s.into());
    }
}
