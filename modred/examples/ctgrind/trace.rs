//! Constant time on the IFMA tier, checked on the machine code by its control flow: valgrind
//! cannot run AVX-512 (scripts/ctgrind.sh covers the portable and ADX tiers), so this runs the
//! RSA private operation in a child process single-stepped by `ptrace` and records the address
//! of every instruction it executes in the library's own code (the executable's text; libc's
//! `malloc` and the kernel are left out). Two keys of the same size with different secrets
//! (p, q, d, dp, dq, qinv), different inputs and different blinding factors must execute the
//! same instruction sequence, instruction for instruction: a branch, a loop count or a call
//! that depended on a secret would make the sequences differ.
//!
//! What it does not see: memory addresses (a table read indexed by a secret runs the same
//! instructions); on the IFMA tier the table selection reads every entry under masks, and the
//! portable and ADX tiers' addresses are checked by memcheck. Run by scripts/ctgrind.sh on
//! x86-64 Linux (a CPU without IFMA checks its own best tier). Self-check: a variable-time
//! exponentiation with two exponents of the same length must give different sequences.
//!
//! Usage: `ctgrind trace [BITS...] [many BITS...]` (default 1024 2048 4096); sizes after `many`
//! trace `private_op_many` of four inputs (the eight-lane IFMA pass) instead of `private_op`.
//! With `CTRACE_DUMP=DIR`, each trace's addresses (offsets into the executable's text mapping)
//! go to a file in DIR, for finding where two traces part.

use modred::rsa::PrivateKey;
use modred::{Modulus, Natural, ReducerKind};

/// What one traced run executed: the number of instructions and a hash of their addresses.
#[derive(Debug, PartialEq, Eq, Clone, Copy)]
struct Trace {
    steps: u64,
    hash: u64,
}

/// The start and end of the executable's text, from /proc/PID/maps.
fn text_range(pid: libc::pid_t) -> (u64, u64) {
    let maps = std::fs::read_to_string(format!("/proc/{pid}/maps")).expect("maps");
    let exe = std::fs::read_link(format!("/proc/{pid}/exe")).expect("exe");
    let exe = exe.to_str().expect("utf-8 path");
    let line = maps
        .lines()
        .find(|l| l.contains(" r-xp ") && l.ends_with(exe))
        .expect("text mapping");
    let range = line.split(' ').next().expect("range");
    let (lo, hi) = range.split_once('-').expect("lo-hi");
    let hex = |s: &str| u64::from_str_radix(s, 16).expect("hex");
    (hex(lo), hex(hi))
}

fn wait_stop(pid: libc::pid_t) -> Option<i32> {
    let mut status = 0;
    // SAFETY: waitpid on our own child with a valid status pointer.
    let r = unsafe { libc::waitpid(pid, &mut status, 0) };
    assert_eq!(r, pid, "waitpid");
    if libc::WIFSTOPPED(status) {
        Some(libc::WSTOPSIG(status))
    } else {
        None
    }
}

fn ptrace(request: libc::c_uint, pid: libc::pid_t, data: usize) {
    // SAFETY: requests on a stopped child we trace.
    let r = unsafe { libc::ptrace(request, pid, 0usize, data) };
    assert!(r >= 0, "ptrace {request}");
}

/// Runs `work` in a child process and traces the part between its `SIGUSR1` and `SIGUSR2`
/// (what `work` does between `start()` and `stop()`).
fn traced(work: impl FnOnce()) -> Trace {
    // SAFETY: the parent is single-threaded here; the child only runs `work` and exits.
    let pid = unsafe { libc::fork() };
    assert!(pid >= 0, "fork");
    if pid == 0 {
        // SAFETY: the standard tracee start: ask to be traced, stop until the parent waits.
        unsafe {
            libc::ptrace(libc::PTRACE_TRACEME, 0, 0usize, 0usize);
            libc::raise(libc::SIGSTOP);
        }
        work();
        // SAFETY: leave without running the parent's exit handlers.
        unsafe { libc::_exit(0) };
    }
    assert_eq!(wait_stop(pid), Some(libc::SIGSTOP));
    let (lo, hi) = text_range(pid);
    // Run freely to the start mark.
    ptrace(libc::PTRACE_CONT, pid, 0);
    assert_eq!(
        wait_stop(pid),
        Some(libc::SIGUSR1),
        "child did not reach start()"
    );
    let mut dump = std::env::var_os("CTRACE_DUMP").map(|_| Vec::new());
    let mut trace = Trace {
        steps: 0,
        hash: 0xcbf2_9ce4_8422_2325,
    };
    loop {
        ptrace(libc::PTRACE_SINGLESTEP, pid, 0);
        match wait_stop(pid) {
            Some(libc::SIGTRAP) => {}
            Some(libc::SIGUSR2) => break,
            other => panic!("child stopped by {other:?} while traced"),
        }
        // SAFETY: a zeroed register block for GETREGS to fill.
        let mut regs: libc::user_regs_struct = unsafe { core::mem::zeroed() };
        // SAFETY: the child is stopped; regs is a valid block.
        let r = unsafe {
            libc::ptrace(
                libc::PTRACE_GETREGS,
                pid,
                0usize,
                &mut regs as *mut libc::user_regs_struct,
            )
        };
        assert!(r >= 0, "GETREGS");
        if (lo..hi).contains(&regs.rip) {
            if let Some(d) = dump.as_mut() {
                d.push(regs.rip - lo);
            }
            trace.steps += 1;
            trace.hash = (trace.hash ^ (regs.rip - lo)).wrapping_mul(0x100_0000_01b3);
        }
    }
    if let (Some(d), Some(dir)) = (dump, std::env::var_os("CTRACE_DUMP")) {
        let text: String = d.iter().map(|a| format!("{a:x}\n")).collect();
        std::fs::write(
            std::path::Path::new(&dir).join(format!("{:x}", trace.hash)),
            text,
        )
        .expect("dump");
    }
    ptrace(libc::PTRACE_CONT, pid, 0);
    assert_eq!(wait_stop(pid), None, "child exits");
    trace
}

fn start() {
    // SAFETY: raising a signal the tracer intercepts (and does not deliver).
    unsafe { libc::raise(libc::SIGUSR1) };
}

fn stop() {
    // SAFETY: as `start`.
    unsafe { libc::raise(libc::SIGUSR2) };
}

/// The private operation on a fresh `bits`-bit key (OpenSSL's generator, e = 65537) and
/// a random input, traced after a first call (which draws the blinding factor: its
/// modular inverse is variable time in a value independent of the factor).
fn rsa(bits: u32) -> Trace {
    let ossl = openssl::rsa::Rsa::generate(bits).expect("openssl keygen");
    let pem = ossl.private_key_to_pem().expect("pem");
    let key = PrivateKey::from_pem_or_der(&pem).expect("key");
    let size = key.public_key().size();
    let mut input = vec![0u8; size];
    openssl::rand::rand_bytes(&mut input[1..]).expect("rand");
    traced(|| {
        let first = key.private_op_bytes(&input).expect("private_op");
        start();
        let again = key.private_op_bytes(&input);
        stop();
        assert_eq!(again.ok(), Some(first), "same result");
    })
}

/// `private_op_many` of four random inputs on a fresh `bits`-bit key, on a one-thread
/// rayon pool made of the calling thread (so the traced thread does the work): on the IFMA
/// tier their eight CRT halves run in the eight lanes of one pass. Traced after a first
/// call, as [`rsa`].
fn rsa_many(bits: u32) -> Trace {
    let ossl = openssl::rsa::Rsa::generate(bits).expect("openssl keygen");
    let pem = ossl.private_key_to_pem().expect("pem");
    let key = PrivateKey::from_pem_or_der(&pem).expect("key");
    let size = key.public_key().size();
    let inputs: Vec<Natural> = (0..4)
        .map(|_| {
            let mut input = vec![0u8; size];
            openssl::rand::rand_bytes(&mut input[1..]).expect("rand");
            Natural::from_be_bytes(&input)
        })
        .collect();
    traced(|| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .use_current_thread()
            .build()
            .expect("a pool of the current thread");
        pool.install(|| {
            let first = key.private_op_many(&inputs).expect("the pool runs");
            start();
            let again = key.private_op_many(&inputs);
            stop();
            let same = again.is_ok_and(|again| again == first);
            assert!(same, "same results");
        });
    })
}

/// A variable-time exponentiation (sliding window) with a random full-length exponent:
/// two of them must trace differently.
fn leaky() -> Trace {
    let mut bytes = [0u8; 64];
    openssl::rand::rand_bytes(&mut bytes).expect("rand");
    bytes[0] |= 0x80;
    let e = Natural::from_be_bytes(&bytes);
    let m = Modulus::new(&Natural::from(0xffff_ffff_ffff_ffc5u64), ReducerKind::Auto).expect("odd");
    traced(|| {
        start();
        let x = m.pow_vartime(&Natural::from(3u64), &e, &Default::default());
        stop();
        assert!(x.is_ok());
    })
}

/// `ctgrind trace ARGS`: traces each size twice and compares; the process exit code.
pub fn run(mut args: Vec<String>) -> i32 {
    if args.is_empty() {
        args = ["1024", "2048", "4096"].map(String::from).to_vec();
    }
    if let Some(bad) = args
        .iter()
        .find(|a| *a != "many" && a.parse::<u32>().is_err())
    {
        eprintln!("ctgrind trace: '{bad}' is neither a key size in bits nor 'many'");
        return 2;
    }
    if leaky() == leaky() {
        eprintln!(
            "ctgrind trace: two variable-time exponentiations traced alike: the check is blind"
        );
        return 1;
    }
    let tier = modred::cpu::tier();
    let mut failed = false;
    // Sizes after the word `many` trace private_op_many of four inputs instead.
    let mut many = false;
    for arg in args {
        let Ok(b) = arg.parse::<u32>() else {
            many = arg == "many";
            continue;
        };
        let t0 = std::time::Instant::now();
        let trace_once = if many { rsa_many } else { rsa };
        let (first, second) = (trace_once(b), trace_once(b));
        let verdict = if first == second {
            "same"
        } else {
            failed = true;
            "DIFFERENT"
        };
        let what = if many {
            "private_op_many of 4"
        } else {
            "private_op"
        };
        println!(
            "ctgrind trace: RSA-{b} {what} on tier {tier}, two keys: {} and {} instructions, {verdict} sequence ({:.1} s)",
            first.steps,
            second.steps,
            t0.elapsed().as_secs_f64()
        );
    }
    i32::from(failed)
}
