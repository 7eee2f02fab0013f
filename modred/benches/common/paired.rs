//! Paired, interleaved timing for the benches: A B A B ..., the median of the ratios, which
//! cancels the drift of a shared, noisy machine better than separate runs.

/// A piece of work to time.
pub type Job<'a> = Box<dyn FnMut() + 'a>;

/// Prints the median (and quartiles) over `rounds` of the ratio time(a) / time(b), after one
/// warm-up of each.
pub fn paired(name: &str, rounds: usize, mut a: Job<'_>, mut b: Job<'_>) {
    let time = |f: &mut Job<'_>| {
        let t = std::time::Instant::now();
        f();
        t.elapsed().as_secs_f64()
    };
    time(&mut a);
    time(&mut b);
    let mut r: Vec<f64> = (0..rounds)
        .map(|i| {
            // Alternate the order so neither side always runs first.
            if i % 2 == 0 {
                let ta = time(&mut a);
                ta / time(&mut b)
            } else {
                let tb = time(&mut b);
                time(&mut a) / tb
            }
        })
        .collect();
    r.sort_by(|x, y| x.partial_cmp(y).unwrap());
    println!(
        "ratio {name:<40} median {:.3}  (q1 {:.3}, q3 {:.3}, {rounds} rounds)",
        r[rounds / 2],
        r[rounds / 4],
        r[3 * rounds / 4]
    );
}
