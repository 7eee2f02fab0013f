//! Memcheck's client requests (valgrind/memcheck.h), for the constant-time check on the machine
//! code (`scripts/ctgrind.sh`, `examples/ctgrind/main.rs`): mark secrets undefined, so memcheck
//! reports every branch and memory address that depends on them, and declassify the verdicts
//! that are public by design ([`crate::limb::Choice::declassify`], in the `ctgrind` build).
//! Outside valgrind each request is a no-op. Not an API (the `internals` feature).

/// VG_USERREQ_TOOL_BASE('M', 'C') + n.
const MAKE_MEM_UNDEFINED: u64 = 0x4d43_0001;
const MAKE_MEM_DEFINED: u64 = 0x4d43_0002;
/// VG_USERREQ__RUNNING_ON_VALGRIND.
const RUNNING_ON_VALGRIND: u64 = 0x1001;

/// A client request (valgrind.h's amd64 magic sequence: four rotations of rdi by 64 bits in
/// total, a no-op, then `xchg rbx, rbx`); returns `default` when not under valgrind.
#[cfg(target_arch = "x86_64")]
fn client_request(request: u64, a1: u64, a2: u64, default: u64) -> u64 {
    let args: [u64; 6] = [request, a1, a2, 0, 0, 0];
    let mut result = default;
    // SAFETY: the sequence leaves every register but rdx (the result) unchanged outside
    // valgrind; under valgrind it is the documented request interface and only reads `args`.
    unsafe {
        core::arch::asm!(
            "rol rdi, 3",
            "rol rdi, 13",
            "rol rdi, 61",
            "rol rdi, 51",
            "xchg rbx, rbx",
            inout("rdx") result,
            in("rax") args.as_ptr(),
            out("rdi") _,
            options(nostack, preserves_flags),
        );
    }
    result
}

#[cfg(not(target_arch = "x86_64"))]
fn client_request(_request: u64, _a1: u64, _a2: u64, default: u64) -> u64 {
    default
}

fn mark<T>(request: u64, x: &[T]) {
    client_request(
        request,
        x.as_ptr() as u64,
        core::mem::size_of_val(x) as u64,
        0,
    );
}

/// Whether the program runs under valgrind.
pub fn running_on_valgrind() -> bool {
    client_request(RUNNING_ON_VALGRIND, 0, 0, 0) != 0
}

/// Marks `x` secret: memcheck reports any branch or address computed from it.
pub fn mark_secret<T>(x: &[T]) {
    mark(MAKE_MEM_UNDEFINED, x);
}

/// Marks `x` public again (a result that is revealed by design).
pub fn mark_public<T>(x: &[T]) {
    mark(MAKE_MEM_DEFINED, x);
}

/// `x`, marked public: stored, marked, and read back from memory (a copy left in a register
/// would keep its undefined shadow).
#[cfg(feature = "ctgrind")]
pub(crate) fn declassify_limb(x: u64) -> u64 {
    let stored = x;
    mark_public(core::slice::from_ref(&stored));
    // SAFETY: a read of a live local.
    unsafe { core::ptr::read_volatile(&stored) }
}
