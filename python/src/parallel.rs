//! Fork safety of the batch calls.
//!
//! `pow_many` / `pow_batch` run on rayon's global thread pool. A process forked after that pool
//! started (multiprocessing's "fork" start method, the default on Linux before Python 3.14)
//! inherits the pool's state but none of its threads, so using it there would hang forever. The
//! batch calls therefore remember which process started the pool and, in any other process,
//! compute sequentially on the calling thread (the right thing in a pool worker anyway).

use std::sync::atomic::{AtomicU32, Ordering};

/// Id of the process that first used rayon's global pool (0: none yet).
static POOL_PID: AtomicU32 = AtomicU32::new(0);

/// Whether rayon's global pool is usable in this process; claims it on first use.
pub fn pool_usable() -> bool {
    let me = std::process::id();
    match POOL_PID.compare_exchange(0, me, Ordering::SeqCst, Ordering::SeqCst) {
        Ok(_) => true,
        Err(owner) => owner == me,
    }
}
