//! The measurement protocol shared by every timed table.
//!
//! For one row (one input), given the competitors and the expected result from an independent
//! oracle:
//! 1. **Cross-check**: each competitor runs once and its result is compared with the expected
//!    value. A mismatch makes the cell `WRONG (...)`; that competitor is never timed.
//! 2. **Calibration / warm-up**: each remaining competitor's iteration count is doubled (or
//!    scaled) until one sample of `iters` back-to-back calls takes at least the target sample
//!    time (about 1 ms), which also warms caches and branch predictors.
//! 3. **Interleaved rounds**: `rounds` times, every competitor takes one sample in turn
//!    (A B C A B C ...), so drifts of the machine hit all columns alike.
//! 4. **Statistics**: per cell the median and the min-max of the per-call times over the rounds,
//!    and the ratio of the median to the reference column's median.

use super::table::{Cell, Table};
use modred::Natural;
use std::hint::black_box;
use std::time::{Duration, Instant};

/// Which clock a sample is read from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Clock {
    /// CPU time of the measuring thread (`CLOCK_THREAD_CPUTIME_ID`): time slices lost to
    /// other processes on a shared machine are not counted. Multithreaded competitors are
    /// always read from the wall clock.
    Cpu,
    /// Wall-clock time (`Instant`).
    Wall,
}

impl Clock {
    /// Seconds on this clock since an arbitrary origin.
    pub fn now(self, t0: Instant) -> f64 {
        match self {
            Clock::Wall => t0.elapsed().as_secs_f64(),
            Clock::Cpu => thread_cpu_seconds().unwrap_or_else(|| t0.elapsed().as_secs_f64()),
        }
    }
}

/// CPU time of the calling thread, where the platform has it.
#[cfg(unix)]
fn thread_cpu_seconds() -> Option<f64> {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec; the clock id is a constant.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    (rc == 0).then_some(ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9)
}

#[cfg(not(unix))]
fn thread_cpu_seconds() -> Option<f64> {
    None
}

/// How many rounds, how long each sample is, and which clock.
#[derive(Clone, Copy, Debug)]
pub struct Protocol {
    /// Interleaved rounds (samples per cell).
    pub rounds: usize,
    /// Minimum duration of one sample (iterations are batched up to it).
    pub target_sample: Duration,
    pub clock: Clock,
}

impl Protocol {
    /// One-line description for the report header.
    pub fn describe(&self) -> String {
        format!(
            "cross-check of every result against an independent oracle (GMP via rug) before timing \
             (a mismatch is reported as WRONG and never timed); warm-up and calibration so each \
             sample batches calls up to >= {:.1} ms; {} interleaved rounds (A B C A B C ...); \
             per cell the median and min-max of the per-call time in microseconds, read from {}; \
             ratios are median / median of the table's reference column",
            self.target_sample.as_secs_f64() * 1e3,
            self.rounds,
            match self.clock {
                Clock::Cpu => "the measuring thread's CPU clock (CLOCK_THREAD_CPUTIME_ID, so \
                               time slices taken by other processes do not count; \
                               multithreaded competitors use the wall clock)",
                Clock::Wall => "the wall clock",
            }
        )
    }
}

/// A competitor's operation. Called with `true` it must return the result (for the
/// cross-check; conversions are allowed there); with `false` it only performs the operation
/// (the timed path) and returns `None`.
pub type RunFn<'a> = Box<dyn FnMut(bool) -> Option<Natural> + 'a>;

/// One column of a row: a runnable operation, or the reason it cannot run.
pub struct Competitor<'a> {
    pub name: String,
    pub op: Result<RunFn<'a>, String>,
    /// Expected result when it differs from the row's (e.g. a product column next to
    /// reductions, or a Montgomery product a b R^-1).
    pub expected: Option<Natural>,
    /// Runs several threads: always timed on the wall clock.
    pub multithreaded: bool,
}

impl<'a> Competitor<'a> {
    /// A runnable competitor.
    pub fn new(name: impl Into<String>, f: impl FnMut(bool) -> Option<Natural> + 'a) -> Self {
        Self {
            name: name.into(),
            op: Ok(Box::new(f)),
            expected: None,
            multithreaded: false,
        }
    }

    /// Mark as multithreaded (timed on the wall clock whatever the protocol's clock).
    pub fn multithreaded(mut self) -> Self {
        self.multithreaded = true;
        self
    }

    /// Override the expected result of this competitor.
    pub fn expecting(mut self, n: Natural) -> Self {
        self.expected = Some(n);
        self
    }

    /// A competitor that does not apply to this input (e.g. Montgomery with an even modulus).
    pub fn na(name: impl Into<String>, reason: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            op: Err(reason.into()),
            expected: None,
            multithreaded: false,
        }
    }
}

/// Short hex rendering for WRONG cells.
fn short(n: &Natural) -> String {
    let h = n.to_hex();
    if h.len() > 18 {
        format!("{}…{}", &h[..10], &h[h.len() - 6..])
    } else {
        h
    }
}

/// Time `iters` calls on `clock`; seconds per call.
fn sample(f: &mut RunFn<'_>, iters: u64, clock: Clock) -> f64 {
    let t0 = Instant::now();
    let start = clock.now(t0);
    for _ in 0..iters {
        black_box(f(false));
    }
    (clock.now(t0) - start).max(0.0) / iters as f64
}

/// Iterations per sample so that one sample lasts at least `target` (also the warm-up).
fn calibrate(f: &mut RunFn<'_>, target: Duration, clock: Clock) -> u64 {
    let target = target.as_secs_f64();
    let mut iters = 1u64;
    loop {
        let per_call = sample(f, iters, clock);
        let total = per_call * iters as f64;
        // Aim 20% above the target, so warmer later samples still reach it.
        let want = (target * 1.2 / per_call.max(1e-12)).ceil() as u64;
        if total >= target || iters >= 1 << 30 {
            return want.clamp(iters, 1 << 30);
        }
        iters = want.clamp(iters * 2, iters * 1000);
    }
}

/// Measure one row of `table`: the competitors must be the table's columns in order (a prefix of
/// them: trailing derived columns are allowed); ratios refer to the table's reference column.
pub fn measure_row(
    proto: &Protocol,
    expected: &Natural,
    competitors: &mut [Competitor<'_>],
    table: &Table,
) -> Vec<Cell> {
    for (i, c) in competitors.iter().enumerate() {
        assert_eq!(
            table.columns.get(i),
            Some(&c.name),
            "table {}: competitor {i} does not match its column",
            table.id
        );
    }
    measure(proto, expected, competitors, table.reference_index())
}

/// Measure one row: cross-check, calibrate, interleave, summarise. `reference` is the index of
/// the column ratios are taken against.
pub fn measure(
    proto: &Protocol,
    expected: &Natural,
    competitors: &mut [Competitor<'_>],
    reference: Option<usize>,
) -> Vec<Cell> {
    let n = competitors.len();
    let mut cells: Vec<Option<Cell>> = (0..n).map(|_| None).collect();
    let mut iters = vec![0u64; n];
    // 1. Cross-check.
    for (i, c) in competitors.iter_mut().enumerate() {
        let expected = c.expected.as_ref().unwrap_or(expected);
        match &mut c.op {
            Err(reason) => cells[i] = Some(Cell::na(reason.clone())),
            Ok(f) => match f(true) {
                Some(got) if &got == expected => {}
                Some(got) => {
                    cells[i] = Some(Cell::Wrong {
                        detail: format!("got {}, expected {}", short(&got), short(expected)),
                    })
                }
                None => {
                    cells[i] = Some(Cell::Wrong {
                        detail: "no result returned for the cross-check".into(),
                    })
                }
            },
        }
    }
    let clock_of = |c: &Competitor<'_>| {
        if c.multithreaded {
            Clock::Wall
        } else {
            proto.clock
        }
    };
    // 2. Calibrate the correct ones.
    for (i, c) in competitors.iter_mut().enumerate() {
        let clock = clock_of(c);
        if cells[i].is_none() {
            if let Ok(f) = &mut c.op {
                iters[i] = calibrate(f, proto.target_sample, clock);
            }
        }
    }
    // 3. Interleaved rounds.
    let mut samples: Vec<Vec<f64>> = vec![Vec::with_capacity(proto.rounds); n];
    for _ in 0..proto.rounds.max(1) {
        for (i, c) in competitors.iter_mut().enumerate() {
            let clock = clock_of(c);
            if cells[i].is_none() {
                if let Ok(f) = &mut c.op {
                    samples[i].push(sample(f, iters[i], clock));
                }
            }
        }
    }
    // 4. Statistics.
    for i in 0..n {
        if cells[i].is_none() {
            let s = &mut samples[i];
            s.sort_by(|a, b| a.total_cmp(b));
            let median = if s.len() % 2 == 1 {
                s[s.len() / 2]
            } else {
                (s[s.len() / 2 - 1] + s[s.len() / 2]) / 2.0
            };
            cells[i] = Some(Cell::Time {
                median_us: median * 1e6,
                min_us: s[0] * 1e6,
                max_us: s[s.len() - 1] * 1e6,
                ratio: None,
                samples: s.len(),
                iters: iters[i],
            });
        }
    }
    let mut cells: Vec<Cell> = cells.into_iter().map(Option::unwrap).collect();
    set_ratios(&mut cells, reference);
    cells
}

/// Fill the ratio of every time cell against the reference column (if it is a time).
pub fn set_ratios(cells: &mut [Cell], reference: Option<usize>) {
    let Some(r) = reference else { return };
    let Some(Cell::Time {
        median_us: base, ..
    }) = cells.get(r).cloned()
    else {
        return;
    };
    for c in cells.iter_mut() {
        if let Cell::Time {
            median_us, ratio, ..
        } = c
        {
            *ratio = Some(*median_us / base);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiny() -> Protocol {
        Protocol {
            rounds: 3,
            // Long enough that the calibration's last sample is warm: at 50 us a warmer
            // sample measured 35.7 us (1052 calls of 0.034 us) on a 2-vCPU VM.
            target_sample: Duration::from_millis(1),
            clock: Clock::Cpu,
        }
    }

    #[test]
    fn wrong_competitor_is_caught_and_not_timed() {
        let expected = Natural::from(42u64);
        let timed_wrong = std::cell::Cell::new(0u32);
        let mut comps = vec![
            Competitor::new("right", |want| want.then(|| Natural::from(42u64))),
            Competitor::new("wrong", |want| {
                if !want {
                    timed_wrong.set(timed_wrong.get() + 1);
                }
                want.then(|| Natural::from(43u64))
            }),
            Competitor::na("absent", "does not apply"),
        ];
        let cells = measure(&tiny(), &expected, &mut comps, Some(0));
        assert!(matches!(cells[0], Cell::Time { ratio: Some(r), .. } if r == 1.0));
        match &cells[1] {
            Cell::Wrong { detail } => assert!(detail.contains("got 0x2b"), "{detail}"),
            other => panic!("wrong competitor not caught: {other:?}"),
        }
        assert_eq!(
            timed_wrong.get(),
            0,
            "a wrong competitor must never be timed"
        );
        assert!(cells[1].render().starts_with("WRONG ("));
        assert_eq!(cells[2].render(), "n/a (does not apply)");
    }

    #[test]
    fn samples_are_batched_and_ordered() {
        let mut comps = vec![Competitor::new("spin", |want| {
            black_box((0..100u64).sum::<u64>());
            want.then(Natural::zero)
        })];
        let cells = measure(&tiny(), &Natural::zero(), &mut comps, None);
        match cells[0] {
            Cell::Time {
                median_us,
                min_us,
                max_us,
                samples,
                iters,
                ratio,
            } => {
                assert!(min_us <= median_us && median_us <= max_us);
                assert_eq!(samples, 3);
                assert!(iters > 1, "fast calls must be batched");
                assert!(ratio.is_none());
                // one sample lasts about the target (calibrated 20% above it; warmer samples
                // may run faster)
                let target_us = tiny().target_sample.as_secs_f64() * 1e6;
                assert!(
                    median_us * iters as f64 >= 0.8 * target_us,
                    "{median_us} x {iters}"
                );
            }
            ref other => panic!("{other:?}"),
        }
    }

    #[cfg(unix)]
    #[test]
    fn cpu_clock_ignores_waiting_and_multithreaded_uses_wall() {
        let proto = Protocol {
            rounds: 3,
            target_sample: Duration::from_micros(500),
            clock: Clock::Cpu,
        };
        let sleeper = || {
            std::thread::sleep(Duration::from_millis(2));
            None
        };
        let wrap = |f: fn() -> Option<Natural>| {
            move |want: bool| {
                let r = f();
                want.then(Natural::zero).or(r)
            }
        };
        let mut comps = vec![
            Competitor::new("cpu", wrap(sleeper)),
            Competitor::new("wall", wrap(sleeper)).multithreaded(),
        ];
        let cells = measure(&proto, &Natural::zero(), &mut comps, None);
        let cpu = cells[0].value().unwrap();
        let wall = cells[1].value().unwrap();
        assert!(wall >= 2000.0, "wall clock must see the sleep: {wall} µs");
        assert!(
            cpu < 1000.0,
            "thread CPU time must not count the sleep: {cpu} µs"
        );
    }
}
