//! Cooperative cancellation of long computations (for Ctrl-C in the Python package).
//!
//! [`with_flag`] runs a computation with a cancellation flag installed on the calling thread;
//! another thread sets the flag to stop it. The exponentiation scans poll the flag every few
//! products (through `Poll`, a countdown, so the check costs nothing measurable) and, once
//! it is set, skip the rest of their work; the batch and multi-threaded methods carry the flag
//! to their worker threads and skip the items not yet started. A cancelled computation's
//! result is meaningless, so [`with_flag`] discards it and returns [`Error::Cancelled`].

use crate::error::{Error, Result};
use core::cell::Cell;
use std::sync::atomic::{AtomicBool, Ordering};

thread_local! {
    /// The flag of the innermost [`with_flag`] running on this thread (null: none).
    static FLAG: Cell<*const AtomicBool> = const { Cell::new(core::ptr::null()) };
}

/// The flag installed on a thread, carried to the worker threads of a computation.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Token(*const AtomicBool);

// SAFETY: the pointer is only dereferenced while the `with_flag` call that installed it is
// running (it outlives every worker job, which its caller waits for), and AtomicBool is Sync.
unsafe impl Send for Token {}
// SAFETY: as above.
unsafe impl Sync for Token {}

/// Restores the previous flag when dropped (also on unwinding).
struct Restore(*const AtomicBool);

impl Drop for Restore {
    fn drop(&mut self) {
        FLAG.with(|f| f.set(self.0));
    }
}

/// Runs `f` with `flag` as this thread's cancellation flag. [`Error::Cancelled`] if the flag
/// was set when `f` returned (its result is then discarded: once set, the flag must stay set
/// until this returns); else `f`'s result.
pub fn with_flag<T>(flag: &AtomicBool, f: impl FnOnce() -> T) -> Result<T> {
    let token = Token(flag);
    let out = token.install(f);
    if flag.load(Ordering::Acquire) {
        Err(Error::Cancelled)
    } else {
        Ok(out)
    }
}

impl Token {
    /// The calling thread's token (possibly none).
    pub(crate) fn current() -> Token {
        Token(FLAG.with(Cell::get))
    }

    /// Runs `f` with this token installed on the calling thread (a worker of the computation
    /// that took [`Token::current`]).
    pub(crate) fn install<T>(self, f: impl FnOnce() -> T) -> T {
        let _restore = Restore(FLAG.with(|c| c.replace(self.0)));
        f()
    }
}

/// Whether the computation running on this thread has been cancelled.
#[inline]
pub(crate) fn requested() -> bool {
    let p = FLAG.with(Cell::get);
    // SAFETY: a non-null pointer is the flag of a `with_flag` call still running on this
    // thread, or on the thread that lent it through a Token and waits for this one.
    !p.is_null() && unsafe { (*p).load(Ordering::Relaxed) }
}

/// A countdown that checks [`requested`] once every `every` calls of [`Poll::stop`]: a hot
/// loop pays a decrement and a predictable branch per call.
pub(crate) struct Poll {
    left: u32,
    every: u32,
    stopped: bool,
}

impl Poll {
    /// Checks once per `every` (>= 1) calls.
    pub(crate) fn every(every: u32) -> Self {
        Self {
            left: every.max(1),
            every: every.max(1),
            stopped: false,
        }
    }

    /// A poll whose period suits products of `k` limbs: about every microsecond's work or
    /// more (every product from 64 limbs on, where one takes microseconds).
    pub(crate) fn for_limbs(k: usize) -> Self {
        Self::every((4096 / (k.max(1) * k.max(1))).clamp(1, 256) as u32)
    }

    /// Whether to stop (sticky once true).
    #[inline(always)]
    pub(crate) fn stop(&mut self) -> bool {
        self.left -= 1;
        if self.left == 0 {
            self.left = self.every;
            self.stopped = self.stopped || requested();
        }
        self.stopped
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flag_is_seen_inside_and_restored_after() {
        let flag = AtomicBool::new(false);
        assert!(!requested());
        let r = with_flag(&flag, || {
            assert!(!requested());
            flag.store(true, Ordering::Relaxed);
            let t = Token::current();
            let seen = std::thread::scope(|s| s.spawn(move || t.install(requested)).join());
            (requested(), seen.unwrap())
        });
        assert_eq!(r, Err(Error::Cancelled));
        assert!(!requested());
        let other = AtomicBool::new(false);
        assert_eq!(with_flag(&other, || 5), Ok(5));
    }

    #[test]
    fn poll_checks_periodically() {
        let flag = AtomicBool::new(false);
        let _ = with_flag(&flag, || {
            let mut p = Poll::every(4);
            assert!(!(0..10).any(|_| p.stop()));
            flag.store(true, Ordering::Relaxed);
            let first = (1..=4).find(|_| p.stop());
            assert!(first.is_some());
            assert!(p.stop(), "sticky");
        });
    }
}
