//! Peak heap use of each operation, as a multiple of its operand's bytes: the measurements
//! behind the working-memory bounds of `modred/src/alloc.rs` (`Work`). For each size it prints
//! `op peak/trial`: the peak of live heap bytes during the operation over the modulus' bytes,
//! and the trial reservation the library made for it (0: none, the size is below the trial
//! threshold). A peak above its trial is a bound to raise.
//!
//! `cargo run --release -p modred --example mempeak [REDUCER]` (MODRED_CPU caps the tier).

use modred::exp::{Modulus, PowOptions};
use modred::{Natural, ReducerKind};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

/// Counts live bytes and their peak; trial reservations (page-aligned) are kept apart.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);
static TRIAL: AtomicUsize = AtomicUsize::new(0);

// SAFETY: forwards to the system allocator; the counters do not affect the allocations.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        // SAFETY: as the caller's contract for `l`.
        let p = unsafe { System.alloc(l) };
        if !p.is_null() {
            if l.align() == 4096 {
                TRIAL.fetch_max(l.size(), Relaxed);
            } else {
                let now = LIVE.fetch_add(l.size(), Relaxed) + l.size();
                PEAK.fetch_max(now, Relaxed);
            }
        }
        p
    }

    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        // SAFETY: `p` came from `alloc` with `l`.
        unsafe { System.dealloc(p, l) };
        if l.align() != 4096 {
            LIVE.fetch_sub(l.size(), Relaxed);
        }
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

/// `f()`, its peak heap bytes above those live before it, and its largest trial reservation.
fn measure<T>(f: impl FnOnce() -> T) -> (T, usize, usize) {
    let base = LIVE.load(Relaxed);
    PEAK.store(base, Relaxed);
    TRIAL.store(0, Relaxed);
    let t = f();
    (t, PEAK.load(Relaxed) - base, TRIAL.load(Relaxed))
}

fn main() {
    let reducer: ReducerKind = match std::env::args().nth(1).unwrap_or("auto".into()).parse() {
        Ok(r) => r,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let mut seed = 0x1234_5678_9abc_def1u64;
    let mut random = |n: usize| -> Natural {
        Natural::from_limbs(
            (0..n)
                .map(|_| {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    seed
                })
                .collect(),
        )
    };
    let opts = PowOptions::default();
    for log_bits in [10usize, 12, 14, 16, 18, 20, 22] {
        let k = (1 << log_bits) / 64;
        let mut m = random(k).limbs().to_vec();
        m[0] |= 1;
        m[k - 1] |= 1 << 63;
        let mut even = m.clone();
        even[0] &= !1;
        let (m, even) = (Natural::from_limbs(m), Natural::from_limbs(even));
        let a = random(k - 1);
        let x = random(2 * k);
        let small = Natural::from(65537u64);
        // Full-size exponents only where they take seconds at most.
        let e = if log_bits <= 14 { random(k) } else { random(2) };
        let mut row = vec![];
        let mut note = |name: &str, (_, peak, trial): ((), usize, usize)| {
            let b = (k * 8) as f64;
            row.push(format!(
                "{name} {:.0}/{:.0}",
                peak as f64 / b,
                trial as f64 / b
            ));
        };
        let (md, peak, trial) = measure(|| Modulus::new(&m, reducer));
        let Ok(md) = md else {
            println!(
                "2^{log_bits}: {}",
                md.err().map(|e| e.to_string()).unwrap_or_default()
            );
            continue;
        };
        note("new", ((), peak, trial));
        note("mul", measure(|| drop(md.mul_vartime(&a, &a))));
        note("reduce", measure(|| drop(md.reduce_vartime(&x))));
        note(
            "pow65537",
            measure(|| drop(md.pow_vartime(&a, &small, &opts))),
        );
        note("pow", measure(|| drop(md.pow_vartime(&a, &e, &opts))));
        note(
            "plain3",
            measure(|| drop(modred::exp::pow_vartime(&a, &3u64.into(), &m, &opts))),
        );
        note(
            "even",
            measure(|| {
                drop(
                    Modulus::new(&even, ReducerKind::Auto)
                        .map(|c| c.pow_vartime(&a, &small, &opts)),
                )
            }),
        );
        note("inverse", measure(|| drop(md.inverse_vartime(&a))));
        note("parsehex", measure(|| drop(Natural::parse(&a.to_hex()))));
        if log_bits <= 20 {
            let (dec, peak, trial) = measure(|| a.to_decimal());
            note("print", ((), peak, trial));
            let dec = dec.unwrap_or_default();
            note("parsedec", measure(|| drop(Natural::parse(&dec))));
        }
        println!("2^{log_bits}: {}", row.join("  "));
    }
}
