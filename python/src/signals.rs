//! Long computations that Ctrl-C can interrupt.
//!
//! Python runs signal handlers (KeyboardInterrupt for SIGINT) only on the main thread, between
//! bytecodes or when native code calls `PyErr_CheckSignals`. A computation that releases the
//! GIL and runs for seconds would otherwise hold Ctrl-C back until it ends. [`compute`] runs a
//! long one on a worker thread under a [`modred::cancel`] flag while the calling thread waits,
//! checking for signals every [`POLL`]: when a handler raises, the flag stops the worker (the
//! scans poll it every few products; the batch calls skip the items not yet started and their
//! rayon workers stop too) and the exception propagates unchanged. Short computations (below
//! [`LONG_WORK`]) run on the calling thread with the GIL released: they end before a signal
//! would be noticed anyway.

use pyo3::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::Duration;

/// How often the waiting thread checks for signals (Ctrl-C takes effect within about this
/// plus the worker's stop, a few milliseconds).
const POLL: Duration = Duration::from_millis(50);

/// Work (in limb products: limbs(m)^2 times exponent bits, see [`work`]) from which a call runs
/// on a worker thread: about 30 ms at 2048 bits. Starting the worker costs some 50 µs.
pub const LONG_WORK: u128 = 1 << 25;

/// A rough cost of `b^e mod m` in limb products: k^2 per product, one product per exponent bit.
pub fn work(m: &modred::Natural, e_bits: usize) -> u128 {
    let k = m.len().max(1) as u128;
    k * k * (e_bits.max(1) as u128)
}

/// Bits of exponent whose work ([`work`]) stands for a modular inverse (Euclid's algorithm,
/// quadratic): with it, an inverse modulo a number of 724 limbs or more (46,000 bits, tens of
/// milliseconds) runs interruptibly.
pub const INVERSE_BITS: usize = 64;

/// The job, if still there.
fn take<F>(job: &Mutex<Option<F>>) -> Option<F> {
    job.lock().unwrap_or_else(|e| e.into_inner()).take()
}

/// Set when the worker is done.
struct Done {
    flag: Mutex<bool>,
    cv: Condvar,
}

impl Done {
    fn set(&self) {
        *self.flag.lock().unwrap_or_else(|e| e.into_inner()) = true;
        self.cv.notify_all();
    }

    /// Waits up to `d`; whether the worker is done.
    fn wait(&self, d: Duration) -> bool {
        let g = self.flag.lock().unwrap_or_else(|e| e.into_inner());
        let (g, _) = self
            .cv
            .wait_timeout_while(g, d, |done| !*done)
            .unwrap_or_else(|e| e.into_inner());
        *g
    }
}

/// Sets [`Done`] when dropped (also when the worker panics).
struct SetOnDrop<'a>(&'a Done);

impl Drop for SetOnDrop<'_> {
    fn drop(&mut self) {
        self.0.set();
    }
}

/// Runs `f` with the GIL released: on the calling thread if `long` is false, else on a worker
/// thread while this one checks for signals (see the module docs). A signal handler's
/// exception (KeyboardInterrupt) is returned unchanged; modred's errors come back as `Err` in
/// the inner result.
pub fn compute<T: Send>(py: Python<'_>, long: bool, f: impl FnOnce() -> T + Send) -> PyResult<T> {
    if !long {
        return Ok(py.allow_threads(f));
    }
    let cancel = AtomicBool::new(false);
    let done = Done {
        flag: Mutex::new(false),
        cv: Condvar::new(),
    };
    // The worker takes `f` from here; if no thread can be started it is still here.
    let job = Mutex::new(Some(f));
    let (cancel, done, job) = (&cancel, &done, &job);
    std::thread::scope(|s| {
        let worker = std::thread::Builder::new()
            .name("modred-compute".into())
            .spawn_scoped(s, move || {
                let _done = SetOnDrop(done);
                take(job).map(|f| modred::cancel::with_flag(cancel, f))
            });
        let worker = match worker {
            Ok(w) => w,
            // No thread to be had: compute here (not interruptible, but correct).
            Err(_) => {
                let f = take(job).expect("the worker never started");
                return Ok(py.allow_threads(f));
            }
        };
        loop {
            if py.allow_threads(|| done.wait(POLL)) {
                break;
            }
            if let Err(e) = py.check_signals() {
                cancel.store(true, Ordering::Release);
                // The worker stops within a few products; wait for it without the GIL.
                let _ = py.allow_threads(|| worker.join());
                return Err(e);
            }
        }
        match py.allow_threads(|| worker.join()) {
            Ok(Some(Ok(x))) => Ok(x),
            // Only this thread sets the flag, and it returns at once when it does.
            Ok(_) => Err(pyo3::exceptions::PyKeyboardInterrupt::new_err(())),
            Err(panic) => std::panic::resume_unwind(panic),
        }
    })
}
