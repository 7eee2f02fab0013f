"""Issue 16: Ctrl-C during long calls, exceptions raised by __index__, MemoryError for tables
too large for memory."""

import os
import random
import signal
import subprocess
import sys
import textwrap
import threading
import time

import pytest

import modred

# A 4096-bit odd modulus and exponents of its size: about 10 ms per exponentiation.
M4096 = (1 << 4095) + 0x1234567 * 2 + 1
E4096 = (1 << 4095) + 987654321


@pytest.fixture(autouse=True)
def default_sigint():
    """Python's own SIGINT handler for each test: a process started with SIGINT ignored (a
    background job of a non-interactive shell, as CI may run it) inherits SIG_IGN, and Python
    then installs no handler, so the SIGINT these tests send would be dropped."""
    old = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, old)


def interrupt_after(seconds):
    """SIGINT to this process from a timer thread after `seconds`; returns the time sent."""
    sent = []

    def fire():
        sent.append(time.monotonic())
        os.kill(os.getpid(), signal.SIGINT)

    t = threading.Timer(seconds, fire)
    t.start()
    return t, sent


def assert_interrupted(call, limit=0.5):
    """`call()` raises KeyboardInterrupt within `limit` seconds of a SIGINT sent 0.3 s in, and
    no worker keeps computing afterwards."""
    timer, sent = interrupt_after(0.3)
    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        call()
        pytest.fail("the call ended before the interrupt")  # pragma: no cover
    raised = time.monotonic()
    timer.join()
    assert sent, f"the call ended after {raised - start:.2f} s, before the SIGINT"
    delay = raised - sent[0]
    assert delay < limit, f"KeyboardInterrupt {delay:.3f} s after SIGINT"
    # The workers stopped: this process uses (almost) no CPU while the test sleeps.
    cpu = time.process_time()
    time.sleep(0.5)
    assert time.process_time() - cpu < 0.2, "workers still running after the interrupt"


def test_ctrl_c_interrupts_pow_many():
    M = modred.Modulus(M4096)
    bases = [3 + 2 * i for i in range(3000)]  # some 30 s of work
    assert_interrupted(lambda: M.pow_many(bases, E4096))


def test_ctrl_c_interrupts_pow_batch():
    M = modred.Modulus(M4096)
    pairs = [(3 + 2 * i, E4096) for i in range(3000)]
    assert_interrupted(lambda: M.pow_batch(pairs))
    triples = [(3 + 2 * i, E4096, M4096) for i in range(3000)]
    assert_interrupted(lambda: modred.pow_batch(triples))


def test_ctrl_c_interrupts_one_long_powmod():
    # A 2^22-bit exponent over 8192 bits: minutes of work in one exponentiation.
    m = (1 << 8191) + 12345
    e = (1 << (1 << 22)) - 1
    assert_interrupted(lambda: modred.powmod(3, e, m))
    M = modred.Modulus(m)
    for method in ["sliding", "binary", "binary-rl", "window", "ct"]:
        assert_interrupted(lambda: M.pow(3, e, method=method))
    assert_interrupted(lambda: M.pow_ct(3, e))
    # Even moduli: the odd part and the power of two.
    assert_interrupted(lambda: modred.powmod(3, e, m * 2**64))


def test_calls_after_an_interrupt_still_work():
    M = modred.Modulus(M4096)
    assert_interrupted(lambda: M.pow_many([3] * 3000, E4096))
    assert M.pow_many([3, 5], 7) == [pow(3, 7, M4096), pow(5, 7, M4096)]
    assert modred.powmod(3, E4096, M4096) == pow(3, E4096, M4096)


class Raising:
    def __init__(self, exc):
        self.exc = exc

    def __index__(self):
        raise self.exc


@pytest.mark.parametrize("exc", [RuntimeError("boom"), KeyboardInterrupt(), MemoryError(),
                                 OverflowError("big"), TypeError("mine")])
def test_index_exceptions_propagate_unchanged(exc):
    calls = [
        lambda x: modred.powmod(x, 3, 7),
        lambda x: modred.powmod(3, x, 7),
        lambda x: modred.powmod(3, 3, x),
        lambda x: modred.pow_batch([(x, 3, 7)]),
        lambda x: modred.Modulus(x),
        lambda x: modred.Modulus(7).pow(x, 3),
        lambda x: modred.Modulus(7).pow_many([x], 3),
        lambda x: modred.Modulus(7).mul(3, x),
    ]
    for call in calls:
        with pytest.raises(type(exc)) as info:
            call(Raising(exc))
        assert info.value is exc


def test_objects_without_index_are_type_errors():
    for bad in [2.5, "7", None, object()]:
        with pytest.raises(TypeError, match="must be an int"):
            modred.powmod(bad, 3, 7)


def run_limited(code, limit_mib, at_start=True):
    """Run `code` in a child Python whose address space is limited to its size at start-up plus
    `limit_mib` MiB, from the start (soft and hard limit) or, with `at_start=False`, where
    `code` calls `limit()` (the soft limit only: `lift()` removes it); returns its stdout."""
    prog = textwrap.dedent(f"""
        import resource
        with open("/proc/self/status") as f:
            vm = next(int(l.split()[1]) for l in f if l.startswith("VmSize:")) * 1024
        hard = resource.getrlimit(resource.RLIMIT_AS)[1]
        def limit(hard_too=False):
            lim = vm + {limit_mib} * 2**20
            resource.setrlimit(resource.RLIMIT_AS, (lim, lim if hard_too else hard))
        def lift():
            resource.setrlimit(resource.RLIMIT_AS, (hard, hard))
        if {at_start}:
            limit(hard_too=True)
    """) + textwrap.dedent(code)
    # From / so that `import modred` finds the installed package, not python/modred/.
    out = subprocess.run([sys.executable, "-c", prog], capture_output=True, text=True,
                         timeout=120, cwd="/")
    assert out.returncode == 0, out.stderr
    return out.stdout


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_AS and /proc")
def test_tables_beyond_memory_raise_memory_error():
    out = run_limited("""
        import modred
        m = (1 << 60000) + 1
        for reducer in ["table-add-6x2048", "table-add-8x256", "table-constant"]:
            try:
                modred.Modulus(m, reducer)
                print(reducer, "built")
            except MemoryError as e:
                print(reducer, "MemoryError", e)
        M = modred.Modulus((1 << 4095) + 1)
        try:
            M.pow(3, 1 << (1 << 20), method="fixed-base")
        except MemoryError as e:
            print("fixed-base MemoryError", e)
        print(pow(3, 5, 7) == modred.powmod(3, 5, 7))
    """, limit_mib=24)
    lines = out.splitlines()
    assert lines[0].startswith("table-add-6x2048 MemoryError"), out
    assert "bytes" in lines[0], out
    assert lines[1].startswith("table-add-8x256 MemoryError"), out
    assert lines[2].startswith("table-constant MemoryError") or lines[2] == "table-constant built"
    assert lines[3].startswith("fixed-base MemoryError"), out
    assert lines[-1] == "True", out


def test_tables_beyond_their_range_are_value_errors():
    m = (1 << 4_000_000) + 1
    for reducer in ["table-residue", "table-constant", "table-add-16x16", "table-add-8x256",
                    "table-add-6x2048"]:
        start = time.monotonic()
        with pytest.raises(ValueError, match=f"{reducer}.*at most 65536 bits"):
            modred.Modulus(m, reducer)
        assert time.monotonic() - start < 5


# Issue 29: the big inverse and the EVM path stop at Ctrl-C too.
def test_ctrl_c_interrupts_the_inverse():
    # The half-GCD on 2^24-bit numbers: well over the 0.3 s before the SIGINT (2^22 bits took
    # 0.3 s on Zen 4); a base with a long remainder sequence, not one close to a power of two.
    m = (1 << (1 << 24)) + 1
    b = random.Random(29).getrandbits(1 << 24)
    assert_interrupted(lambda: modred.powmod(b, -1, m))
    M = modred.Modulus(m)
    assert_interrupted(lambda: M.inverse(b))
    assert M.inverse(3) == pow(3, -1, m)


def test_ctrl_c_interrupts_evm_modexp():
    # berlin: a 48-byte modulus with a 25 MB exponent (2.4e9 gas): 2^28 modular squarings.
    exp_len = 25_000_000
    data = ((1).to_bytes(32, "big") + exp_len.to_bytes(32, "big") + (48).to_bytes(32, "big")
            + b"\x03" + b"\xff" * exp_len + b"\xfb" * 48)
    assert_interrupted(lambda: modred.evm_modexp(data, "berlin"))


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_AS and /proc")
def test_worker_threads_that_cannot_start_are_memory_error_then_work():
    out = run_limited("""
        import modred
        M = modred.Modulus(2**127 - 1)
        limit()
        for call in [lambda: M.pow_many([3, 5], [7, 11]),
                     lambda: modred.pow_batch([(3, 7, 2**127 - 1)])]:
            try:
                call()
                print("computed")
            except MemoryError as e:
                print("MemoryError", e)
        lift()
        print(M.pow_many([3, 5], [7, 11]) == [pow(3, 7, 2**127 - 1), pow(5, 11, 2**127 - 1)])
        print(modred.pow_batch([(3, 7, 2**127 - 1)]) == [pow(3, 7, 2**127 - 1)])
    """, limit_mib=2, at_start=False)
    lines = out.splitlines()
    assert lines[0].startswith("MemoryError") and "worker threads" in lines[0], out
    assert lines[1].startswith("MemoryError"), out
    assert lines[2:] == ["True", "True"], out


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_AS and /proc")
def test_operations_beyond_memory_raise_memory_error():
    # A 65,536-bit modulus with table-constant (an 8 MiB table, k^2 limbs of scratch per
    # product) and a 2^22-bit product, at growing limits: each call either answers right or
    # raises MemoryError, and the interpreter survives every limit.
    code = """
        import modred
        m = (1 << 65535) + 0x1234567 * 2 + 1
        big = (1 << (1 << 22)) - 3
        want = [(m - 2) * 3 % m, pow(3, 5, m), big - 125, 35]  # (-5)^3, (-5)(-7)
        calls = [
            lambda: modred.Modulus(m, "table-constant").mul(m - 2, 3),
            lambda: modred.Modulus(m, "table-constant").pow(3, 5),
            lambda: modred.powmod(big - 5, 3, big),
            lambda: modred.Modulus(big).mul(big - 5, big - 7),
        ]
        results = []
        limit()
        for call, w in zip(calls, want):
            try:
                results.append("ok" if call() == w else "WRONG")
            except MemoryError:
                results.append("MemoryError")
        lift()
        print(" ".join(results))
    """
    seen = set()
    for mib in range(8, 120, 8):
        out = run_limited(code, limit_mib=mib, at_start=False).split()
        assert "WRONG" not in out, (mib, out)
        seen.update(out)
    assert seen == {"ok", "MemoryError"}, seen
