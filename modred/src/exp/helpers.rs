//! Parked helper threads for short parallel jobs that borrow from the caller (the
//! multi-threaded fixed-base method of Prots'ko, Gryshchuk, *The implementation of Montgomery
//! modular reduction to speed up of modular exponentiation*, CMIS-2024, §5).
//!
//! Why not `std::thread::scope` or rayon: on the 2-vCPU test machine, spawning and joining a
//! scoped thread took a median 42 µs after idle (up to ~100 µs), and `rayon::join` from outside
//! its pool 54 µs, against 6 µs to wake a parked thread through a channel. A 2048-bit
//! fixed-base exponentiation on IFMA is ~360 µs of work, so that overhead decided whether two
//! threads paid off at all. Helpers are created on demand, one per concurrently running job at
//! the peak, and then stay for the life of the process: after a job a helper polls for the next
//! one for [`crate::tuning::HELPER_POLL_BEFORE_PARKING`], then parks.

use crate::tuning::HELPER_POLL_BEFORE_PARKING;
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::sync::mpsc::{channel, Receiver, Sender, TryRecvError};
use std::sync::Mutex;
use std::time::Instant;

/// A job for a helper. Its argument puts the helper back on the idle list; the job calls it
/// just before sending its result, so a caller that submits again as soon as it has the result
/// finds the helper idle instead of starting another thread.
type Job = JobFor<'static>;

/// [`Job`] borrowing for `'a`.
type JobFor<'a> = Box<dyn FnOnce(&dyn Fn()) + Send + 'a>;

/// Senders of the helpers that are parked, waiting for a job.
static IDLE: Mutex<Vec<Sender<Job>>> = Mutex::new(Vec::new());

fn idle() -> std::sync::MutexGuard<'static, Vec<Sender<Job>>> {
    // A job never panics while holding the lock (jobs run outside it), so poisoning cannot
    // leave the list inconsistent.
    IDLE.lock().unwrap_or_else(|e| e.into_inner())
}

/// Hands `job` to a parked helper, starting a new one if none is idle. Returns the job if no
/// thread could take it (the OS refused a new thread).
fn submit(mut job: Job) -> Result<(), Job> {
    loop {
        let Some(tx) = idle().pop() else { break };
        match tx.send(job) {
            Ok(()) => return Ok(()),
            Err(e) => job = e.0, // that helper is gone; try another
        }
    }
    let (tx, rx) = channel::<Job>();
    let back = tx.clone();
    let spawned = std::thread::Builder::new()
        .name("modred-helper".into())
        .spawn(move || {
            // Polling first, a caller in a loop hands over its next job without a wake-up
            // (which costs microseconds and may put the helper on the caller's CPU).
            while let Some(job) = recv_polling(&rx) {
                job(&|| idle().push(back.clone()));
            }
        });
    match spawned {
        Ok(_) => tx.send(job).map_err(|e| e.0),
        Err(_) => Err(job),
    }
}

/// Runs `mine` on the calling thread and every job of `jobs` on a helper thread, and returns
/// their results (the jobs' in order). Returns only when every job has finished; a panic in
/// any of them is resumed on the caller after that.
pub(crate) fn run_all<'a, T: Send + 'a, U>(
    mine: impl FnOnce() -> U,
    jobs: Vec<Box<dyn FnOnce() -> T + Send + 'a>>,
) -> (U, Vec<T>) {
    let (tx, rx) = channel::<(usize, std::thread::Result<T>)>();
    let mut results: Vec<Option<std::thread::Result<T>>> = Vec::new();
    for (i, job) in jobs.into_iter().enumerate() {
        results.push(None);
        let tx = tx.clone();
        let wrapped: JobFor<'a> = Box::new(move |now_idle| {
            let r = catch_unwind(AssertUnwindSafe(job));
            now_idle();
            let _ = tx.send((i, r));
        });
        // SAFETY: the job may borrow data of lifetime 'a. It is erased to 'static only to
        // cross the channel: this function does not return (nor unwind: the caller's own job
        // runs under catch_unwind) before receiving the job's result, which the job sends as
        // its last action, after its borrowed captures were consumed. A job that never
        // reached a helper is run here instead.
        let wrapped: Job = unsafe { core::mem::transmute::<JobFor<'a>, Job>(wrapped) };
        if let Err(job) = submit(wrapped) {
            job(&|| ()); // sends its result like a helper would
        }
    }
    let mine = catch_unwind(AssertUnwindSafe(mine));
    drop(tx);
    // Every job holds a sender until it has sent its result: the loop ends when all are done.
    // The helpers usually finish within microseconds of the caller, so poll for a while
    // before parking (being woken costs another cross-CPU wake-up).
    while let Some((i, r)) = recv_polling(&rx) {
        results[i] = Some(r);
    }
    let theirs = results
        .into_iter()
        .map(|r| resume(r.expect("every job reports")))
        .collect();
    (resume(mine), theirs)
}

/// The next message of `rx`, polling for up to [`HELPER_POLL_BEFORE_PARKING`] before parking;
/// `None` once every sender is gone.
fn recv_polling<T>(rx: &Receiver<T>) -> Option<T> {
    let until = Instant::now() + HELPER_POLL_BEFORE_PARKING;
    loop {
        match rx.try_recv() {
            Ok(x) => return Some(x),
            // Yielding, not spinning: if the other thread waits for this CPU (the host gave
            // this guest one vCPU for now), it runs instead.
            Err(TryRecvError::Empty) if Instant::now() < until => std::thread::yield_now(),
            Err(TryRecvError::Empty) => return rx.recv().ok(),
            Err(TryRecvError::Disconnected) => return None,
        }
    }
}

/// The value, or the panic resumed.
fn resume<X>(r: std::thread::Result<X>) -> X {
    r.unwrap_or_else(|panic| resume_unwind(panic))
}

#[cfg(test)]
mod tests {
    use super::run_all;

    #[test]
    fn results_in_order_with_borrowed_data() {
        let data: Vec<u64> = (0..1000).collect();
        for round in 0..20 {
            let mut chunks = data.chunks(1 + round * 37);
            let first = chunks.next().unwrap();
            let jobs: Vec<Box<dyn FnOnce() -> u64 + Send + '_>> = chunks
                .map(|c| Box::new(move || c.iter().sum::<u64>()) as Box<dyn FnOnce() -> u64 + Send>)
                .collect();
            let (mine, theirs) = run_all(|| first.iter().sum::<u64>(), jobs);
            assert_eq!(mine + theirs.iter().sum::<u64>(), 499_500);
            let want: Vec<u64> = data
                .chunks(1 + round * 37)
                .skip(1)
                .map(|c| c.iter().sum())
                .collect();
            assert_eq!(theirs, want);
        }
    }

    #[test]
    fn a_panicking_job_resumes_on_the_caller_after_all_finish() {
        let r = std::panic::catch_unwind(|| {
            run_all::<u32, u32>(|| 1, vec![Box::new(|| panic!("boom")), Box::new(|| 3)])
        });
        assert!(r.is_err());
        let r = std::panic::catch_unwind(|| {
            run_all::<u32, u32>(|| panic!("mine"), vec![Box::new(|| 2)])
        });
        assert!(r.is_err());
        // The helpers are reusable afterwards.
        assert_eq!(
            run_all::<u32, u32>(|| 1, vec![Box::new(|| 2), Box::new(|| 3)]),
            (1, vec![2, 3])
        );
    }
}
