//! SVG line plots of a table: one series per column, one point per row with an x value.
//! The y axis switches to log10 when the data span more than a decade, the x axis is log2 when
//! the table asks for it (sizes doubling); ticks are labelled with the real values.

use super::table::{fmt_num, PlotSpec, Table};
use plotters::prelude::*;
use std::path::Path;

const COLORS: [RGBColor; 10] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
];

/// (column name, points) for every column with at least one plottable value.
pub fn series(t: &Table) -> Vec<(String, Vec<(f64, f64)>)> {
    t.columns
        .iter()
        .enumerate()
        .filter_map(|(i, name)| {
            let pts: Vec<(f64, f64)> = t
                .rows
                .iter()
                .filter_map(|r| Some((r.x?, r.cells.get(i)?.value()?)))
                .filter(|&(_, y)| y > 0.0 && y.is_finite())
                .collect();
            (!pts.is_empty()).then(|| (name.clone(), pts))
        })
        .collect()
}

/// Render `t` to the SVG file `path`.
pub fn svg(t: &Table, spec: &PlotSpec, path: &Path) -> Result<(), String> {
    let data = series(t);
    let err = |e: &dyn std::fmt::Display| format!("plot {}: {e}", path.display());
    let all: Vec<(f64, f64)> = data.iter().flat_map(|(_, p)| p.iter().copied()).collect();
    let root = SVGBackend::new(path, (900, 560)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    if all.is_empty() {
        root.titled(&format!("{} (no data)", t.title), ("sans-serif", 18))
            .map_err(|e| err(&e))?;
        return root.present().map_err(|e| err(&e));
    }
    let (ymin, ymax) = all
        .iter()
        .fold((f64::MAX, f64::MIN), |(a, b), &(_, y)| (a.min(y), b.max(y)));
    let log_y = ymax / ymin > 10.0;
    let log_x = spec.log_x && all.iter().all(|&(x, _)| x > 0.0);
    let tx = |x: f64| if log_x { x.log2() } else { x };
    let ty = |y: f64| if log_y { y.log10() } else { y };
    let (xmin, xmax) = all
        .iter()
        .fold((f64::MAX, f64::MIN), |(a, b), &(x, _)| (a.min(x), b.max(x)));
    let (x0, x1) = (tx(xmin), tx(xmax));
    let xpad = ((x1 - x0) * 0.03).max(1e-9);
    let (y0, y1) = if log_y {
        (ymin.log10() - 0.05, ymax.log10() + 0.05)
    } else {
        (0.0, ymax * 1.08)
    };
    let mut chart = ChartBuilder::on(&root)
        .caption(format!("{} — {}", t.seed, t.title), ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(45)
        .y_label_area_size(70)
        .build_cartesian_2d((x0 - xpad)..(x1 + xpad), y0..y1)
        .map_err(|e| err(&e))?;
    let xf = |v: &f64| fmt_num(if log_x { 2f64.powf(*v) } else { *v });
    // On log axes, one tick per power (of 2 for x, of 10 for y) when that gives enough ticks.
    let x_ticks = if log_x && x1 - x0 >= 2.0 {
        (x1 - x0).round() as usize + 1
    } else {
        10
    };
    let y_ticks = if log_y && y1 - y0 >= 2.5 {
        (y1 - y0).ceil() as usize + 1
    } else {
        10
    };
    let yf = |v: &f64| fmt_num(if log_y { 10f64.powf(*v) } else { *v });
    chart
        .configure_mesh()
        .x_desc(format!(
            "{}{}",
            spec.x_label,
            if log_x { " (log scale)" } else { "" }
        ))
        .y_desc(format!(
            "{}{}",
            spec.y_label,
            if log_y { " (log scale)" } else { "" }
        ))
        .x_labels(x_ticks)
        .y_labels(y_ticks)
        .x_label_formatter(&xf)
        .y_label_formatter(&yf)
        .draw()
        .map_err(|e| err(&e))?;
    for (i, (name, pts)) in data.iter().enumerate() {
        let color = COLORS[i % COLORS.len()];
        let mapped: Vec<(f64, f64)> = pts.iter().map(|&(x, y)| (tx(x), ty(y))).collect();
        chart
            .draw_series(LineSeries::new(mapped.clone(), color.stroke_width(2)))
            .map_err(|e| err(&e))?
            .label(name.clone())
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 18, y)], color.stroke_width(2))
            });
        chart
            .draw_series(mapped.iter().map(|&p| Circle::new(p, 3, color.filled())))
            .map_err(|e| err(&e))?;
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()
        .map_err(|e| err(&e))?;
    root.present().map_err(|e| err(&e))
}
