#!/usr/bin/env python3
"""Benchmark modred.powmod against the built-in pow and gmpy2.powmod.

For each size: random moduli of exactly that many bits (odd, top bit set), bases below them and
full-length random exponents, the same inputs for every contender. Python ints go in and the
contender's result comes out, so conversion costs are included (gmpy2 returns an mpz, which is
not converted back: that favours gmpy2). Rounds are interleaved (every contender once per round,
in a shuffled order) so drifts of the shared machine hit all of them alike; each round times a
batch of calls sized to take about --target-ms; the table reports the median time per call and
the ratios of the medians.

Usage: python bench.py [--sizes 256,512,1024,2048,4096] [--rounds 9] [--target-ms 40]
Prints a Markdown table. Needs gmpy2 (pip install gmpy2); without it that column is skipped.
"""

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

# Benchmark the installed package, never the source tree beside this script (python/modred
# holds no compiled extension): drop the script's own directory from the import path.
sys.path = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

import modred  # noqa: E402

try:
    import gmpy2
except ImportError:  # the benchmark still runs, without that column
    gmpy2 = None

INPUTS_PER_SIZE = 4


def make_inputs(bits, rng):
    out = []
    for _ in range(INPUTS_PER_SIZE):
        m = rng.getrandbits(bits) | (1 << (bits - 1)) | 1
        b = rng.randrange(2, m)
        e = rng.getrandbits(bits) | (1 << (bits - 1))
        out.append((b, e, m))
    return out


def contenders():
    c = {"pow": pow, "modred.powmod": modred.powmod}
    if gmpy2 is not None:
        c["gmpy2.powmod"] = gmpy2.powmod
    return c


def time_batch(f, inputs, reps):
    t0 = time.perf_counter_ns()
    for _ in range(reps):
        for b, e, m in inputs:
            f(b, e, m)
    return (time.perf_counter_ns() - t0) / (reps * len(inputs))


def calibrate(f, inputs, target_ns):
    """Repetitions of the input list that take about target_ns."""
    one = time_batch(f, inputs, 1)
    return max(1, int(target_ns / (one * len(inputs))))


def bench_size(bits, rounds, target_ns, rng):
    inputs = make_inputs(bits, rng)
    cs = contenders()
    for b, e, m in inputs:  # all agree before anything is timed
        want = pow(b, e, m)
        for name, f in cs.items():
            got = int(f(b, e, m))
            if got != want:
                raise SystemExit(f"{name} wrong at {bits} bits: {got} != {want}")
    reps = {name: calibrate(f, inputs, target_ns) for name, f in cs.items()}
    samples = {name: [] for name in cs}
    order = list(cs)
    for _ in range(rounds):
        rng.shuffle(order)
        for name in order:
            samples[name].append(time_batch(cs[name], inputs, reps[name]))
    return {name: statistics.median(v) for name, v in samples.items()}


def fmt_us(ns):
    us = ns / 1000
    return f"{us:.1f}" if us < 1000 else f"{us:,.0f}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="256,512,1024,2048,4096")
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--target-ms", type=float, default=40.0)
    ap.add_argument("--seed", type=int, default=20261122)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    sizes = [int(s) for s in args.sizes.split(",")]

    have_gmp = gmpy2 is not None
    print(f"modred {modred.__version__}, Python {sys.version.split()[0]}"
          + (f", gmpy2 {gmpy2.version()} ({gmpy2.mp_version()})" if have_gmp else ", no gmpy2")
          + f"; {args.rounds} interleaved rounds, median time per call, full-length exponents")
    print()
    head = "| bits | pow (µs) |"
    rule = "|---:|---:|"
    if have_gmp:
        head += " gmpy2.powmod (µs) |"
        rule += "---:|"
    head += " modred.powmod (µs) | pow / modred |"
    rule += "---:|---:|"
    if have_gmp:
        head += " gmpy2 / modred |"
        rule += "---:|"
    print(head)
    print(rule)
    for bits in sizes:
        med = bench_size(bits, args.rounds, args.target_ms * 1e6, rng)
        mr = med["modred.powmod"]
        row = f"| {bits} | {fmt_us(med['pow'])} |"
        if have_gmp:
            row += f" {fmt_us(med['gmpy2.powmod'])} |"
        row += f" {fmt_us(mr)} | {med['pow'] / mr:.2f}x |"
        if have_gmp:
            row += f" {med['gmpy2.powmod'] / mr:.2f}x |"
        print(row, flush=True)
    print()
    print("Ratios above 1 mean modred is faster. Targets: pow / modred >= 8 at 2048 bits; "
          "gmpy2 / modred >= 1 at 1024-4096 bits.")


if __name__ == "__main__":
    main()
