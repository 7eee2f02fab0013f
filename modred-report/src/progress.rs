//! Progress on stderr: an indicatif bar on a terminal, plain lines otherwise (a log file, CI),
//! so a redirected run still shows which section and size it is at and for how long it ran.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

/// Where progress goes.
pub enum Progress {
    /// A bar redrawn in place (stderr is a terminal).
    Bar(ProgressBar),
    /// One line per step, with the time since the start.
    Lines { started: Instant },
}

impl Progress {
    /// A bar over `sections` sections when stderr is a terminal, plain lines otherwise.
    pub fn for_stderr(sections: usize) -> Self {
        if !std::io::stderr().is_terminal() {
            return Progress::Lines {
                started: Instant::now(),
            };
        }
        let pb = ProgressBar::with_draw_target(Some(sections as u64), ProgressDrawTarget::stderr());
        pb.set_style(
            ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {pos}/{len} {msg}")
                .expect("static template")
                .progress_chars("=> "),
        );
        pb.enable_steady_tick(Duration::from_millis(200));
        Progress::Bar(pb)
    }

    /// Section `index` (from 0) of `total` starts.
    pub fn section(&self, index: usize, total: usize, id: &str) {
        match self {
            Progress::Bar(pb) => {
                pb.set_position(index as u64);
                pb.set_message(id.to_string());
            }
            Progress::Lines { .. } => self.line(&format!("section {}/{total}: {id}", index + 1)),
        }
    }

    /// The row (size, length, ...) being measured, or another step.
    pub fn step(&self, msg: &str) {
        match self {
            Progress::Bar(pb) => pb.set_message(msg.to_string()),
            Progress::Lines { .. } => self.line(&format!("  {msg}")),
        }
    }

    /// Remove the bar (the lines stay).
    pub fn finish(&self) {
        if let Progress::Bar(pb) = self {
            pb.finish_and_clear();
        }
    }

    fn line(&self, msg: &str) {
        if let Progress::Lines { started } = self {
            // A failing stderr loses the progress line, never the report.
            let _ = writeln!(
                std::io::stderr().lock(),
                "report [{:>6.1} s] {msg}",
                started.elapsed().as_secs_f64()
            );
        }
    }
}
