"""Sharing across threads and processes: thread safety, the GIL, pickling to pool workers."""

import multiprocessing
import random
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import _workers
import pytest

import modred

RNG = random.Random(7)
M2048 = RNG.getrandbits(2048) | (1 << 2047) | 1


def test_threads_share_one_modulus():
    m = M2048
    M = modred.Modulus(m)
    F = M.fixed_base(3)
    jobs = [(RNG.getrandbits(2100) * RNG.choice([1, -1]), RNG.getrandbits(300), i % 5)
            for i in range(60)]

    def work(job):
        b, e, kind = job
        if kind == 0:
            return M.pow(b, e)
        if kind == 1:
            return M.pow(b, e, "window", window=3)
        if kind == 2:
            return M.mul(b, e) - b * e % m + pow(b, e, m)  # == pow(b, e, m)
        if kind == 3:
            return F.pow(e) - pow(3, e, m) + pow(b, e, m)
        return M.pow_many([b, b + 1], e)[0]

    with ThreadPoolExecutor(max_workers=8) as ex:
        got = list(ex.map(work, jobs))
    assert got == [pow(b, e, m) for b, e, _ in jobs]


def test_pow_releases_the_gil():
    # While a long pow runs in a worker thread, the main thread must keep executing Python
    # code: count main-thread iterations inside the middle half of the call.
    m = RNG.getrandbits(4096) | (1 << 4095) | 1
    M = modred.Modulus(m)
    b, e = RNG.getrandbits(4096) % m, RNG.getrandbits(4096)
    window = {}

    def worker():
        t0 = time.perf_counter()
        M.pow(b, e)
        M.pow(b, e)
        window["t"] = (t0, time.perf_counter())

    th = threading.Thread(target=worker)
    stamps = []
    th.start()
    while th.is_alive():
        stamps.append(time.perf_counter())
    th.join()
    t0, t1 = window["t"]
    lo, hi = t0 + (t1 - t0) / 4, t1 - (t1 - t0) / 4
    inside = sum(lo < s < hi for s in stamps)
    assert inside > 100, f"main thread ran {inside} times during a {t1 - t0:.3f} s call"


def test_pow_many_and_pow_batch_match_pow():
    m = M2048 >> 700 | 1
    M = modred.Modulus(m)
    bases = [RNG.getrandbits(1400) - (1 << 1399) for _ in range(40)]
    exps = [RNG.getrandbits(RNG.choice([0, 1, 64, 1348])) for _ in range(40)]
    want = [pow(b, e, m) for b, e in zip(bases, exps)]
    assert M.pow_many(bases, exps) == want
    assert M.pow_many(iter(bases), tuple(exps)) == want
    assert M.pow_batch(zip(bases, exps)) == want
    assert M.pow_many(bases, 65537) == [pow(b, 65537, m) for b in bases]
    assert M.pow_many([], []) == []
    # Negative exponents invert; a non-invertible base names its index.
    assert M.pow_many([2, 3], [-1, -5]) == [pow(2, -1, m), pow(3, -5, m)]
    E = modred.Modulus(2**64)
    with pytest.raises(ValueError, match=r"pow_many\(\): item 1: base is not invertible"):
        E.pow_many([3, 2], [-1, -1])


def test_pow_many_ct_matches_pow():
    # 1348 bits: the IFMA lanes serve it (eight pairs of one exponent length per pass); bases of
    # every sign and size, exponents of four lengths so that the pairs form several groups.
    m = M2048 >> 700 | 1
    M = modred.Modulus(m)
    bases = [RNG.getrandbits(1400) - (1 << 1399) for _ in range(40)] + [0, 1, m - 1, m]
    exps = [RNG.getrandbits(RNG.choice([0, 1, 64, 1348])) for _ in range(44)]
    want = [pow(b, e, m) for b, e in zip(bases, exps)]
    assert M.pow_many_ct(bases, exps) == want
    assert M.pow_many_ct(bases, 65537) == [pow(b, 65537, m) for b in bases]
    assert M.pow_many_ct([], []) == []
    with pytest.raises(ValueError, match=r"pow_many_ct\(\): exponent 1 is negative"):
        M.pow_many_ct([2, 3], [1, -1])
    with pytest.raises(ValueError, match=r"pow_many_ct\(\): item 0: .*odd modulus"):
        modred.Modulus(10).pow_many_ct([3], [5])
    with pytest.raises(ValueError, match=r"pow_many_ct\(\): 2 bases but 1 exponents"):
        M.pow_many_ct([2, 3], [1])


def test_pow_batch_ct_matches_pow():
    # Moduli of 1348 and 1024 bits (the IFMA lanes serve both: eight triples of one modulus
    # length and exponent length per pass, the moduli differing), negative bases and moduli,
    # |m| = 1, exponents of several lengths.
    triples = []
    for i in range(44):
        m = RNG.getrandbits(RNG.choice([1348, 1024])) | 1 << 1023 | 1
        m = -m if i % 7 == 3 else m
        b = RNG.getrandbits(1400) - (1 << 1399) if i % 5 else RNG.choice([0, 1, m - 1])
        triples.append((b, RNG.getrandbits(RNG.choice([0, 1, 64, 1348])), m))
    triples += [(5, 3, 1), (5, 3, -1), (2, 10, 1_000_003)]
    want = [pow(b, e, m) for b, e, m in triples]
    assert modred.pow_batch_ct(triples) == want
    assert modred.pow_batch_ct([]) == []
    with pytest.raises(ValueError, match=r"pow_batch_ct\(\): item 1: exponent is negative"):
        modred.pow_batch_ct([(2, 3, 7), (2, -1, 7)])
    with pytest.raises(ValueError, match=r"pow_batch_ct\(\): item 0: .*odd modulus"):
        modred.pow_batch_ct([(3, 5, 10)])
    with pytest.raises(ValueError, match=r"pow_batch_ct\(\): item 0: 3rd argument cannot be 0"):
        modred.pow_batch_ct([(3, 5, 0)])


# Forking a process that runs threads warns on Python >= 3.12: that is the situation tested.
@pytest.mark.filterwarnings("ignore:This process .* is multi-threaded:DeprecationWarning")
@pytest.mark.parametrize("start", ["fork", "spawn", "forkserver"])
def test_multiprocessing_pool_pow_many(start):
    m = M2048
    M = modred.Modulus(m, "montgomery-cios")
    chunks = [([RNG.getrandbits(2048) for _ in range(4)], [RNG.getrandbits(256) for _ in range(4)])
              for _ in range(4)]
    # The parent uses the thread pool first: a forked child must not deadlock on it.
    assert M.pow_many([2, 3], [5, 7]) == [pow(2, 5, m), pow(3, 7, m)]
    assert modred.pow_batch([(2, 5, m)]) == [pow(2, 5, m)]
    ctx = multiprocessing.get_context(start)
    with ctx.Pool(2) as pool:
        got_batch = pool.map(_workers.pow_batch_in_worker, [[(3, 5, 7), (2, 100, m)]] * 2)
        got = pool.map(_workers.pow_many_in_worker, [(M, bs, es) for bs, es in chunks])
        fb = M.fixed_base(5)
        got_fb = pool.map(_workers.fixed_base_in_worker, [(fb, [1, 2, 2**300 + 1])] * 2)
    assert got == [[pow(b, e, m) for b, e in zip(bs, es)] for bs, es in chunks]
    assert got_batch == [[pow(3, 5, 7), pow(2, 100, m)]] * 2
    assert got_fb == [[pow(5, e, m) for e in [1, 2, 2**300 + 1]]] * 2
