//! Timing helpers shared by the comparison examples (`gcd`, `oneoff`).

use std::time::{Duration, Instant};

/// The median of `v` (reordered).
pub fn median(v: &mut [f64]) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

/// Runs `f` enough times to fill `min` and returns the time per run in seconds.
pub fn time(min: Duration, mut f: impl FnMut()) -> f64 {
    let mut reps = 0u32;
    let start = Instant::now();
    loop {
        f();
        reps += 1;
        let t = start.elapsed();
        if t >= min {
            return t.as_secs_f64() / reps as f64;
        }
    }
}
