"""Modular exponentiations with one modulus spread over Dask workers, with modred.

Many ``pow(b, e, m)`` for one ``m`` (an RSA or Diffie-Hellman modulus, say) are split into
chunks; each chunk is one Dask task running ``Modulus.pow_batch`` on a worker, which computes
it on that worker's cores with the GIL released. The ``modred.Modulus`` is sent to every
worker once (``client.scatter(..., broadcast=True)``); tasks refer to it by its key instead of
carrying a pickled copy each.

    python dask_powmod.py                         # LocalCluster, one worker per core
    python dask_powmod.py --workers 2 --threads 1 --bits 2048 --count 4000
    python dask_powmod.py --scheduler tcp://10.0.0.5:8786   # an existing cluster

Needs ``pip install "dask[distributed]"`` and modred (``pip install ./python``) on every
worker. Prints the throughput, and with ``--check`` compares every result with ``pow``.
"""

import argparse
import os
import random
import sys
import time

import modred


def scatter_modulus(client, modulus):
    """Send ``modulus`` (a ``modred.Modulus``) to every worker once; returns its future.

    The scheduler's Active Memory Manager (on by default) may later drop copies no waiting task
    needs; a worker that needs the Modulus again then fetches it from one that kept it.
    """
    return client.scatter(modulus, broadcast=True)


def pow_batch_on(client, modulus, pairs, chunk=64):
    """``[pow(b, e, m) for b, e in pairs]`` computed on the cluster of ``client``.

    ``modulus`` is a ``modred.Modulus`` or the future ``scatter_modulus`` returned (reuse it
    across calls to send it only once). Results come back in the order of ``pairs``.
    """
    if chunk < 1:
        raise ValueError("chunk must be at least 1")
    if isinstance(modulus, modred.Modulus):
        modulus = scatter_modulus(client, modulus)
    pairs = list(pairs)
    # Modulus.pow_batch is pickled by reference (modred is installed on the workers); the
    # future argument becomes the worker's copy of the scattered Modulus.
    futures = [
        client.submit(modred.Modulus.pow_batch, modulus, pairs[i:i + chunk], pure=False)
        for i in range(0, len(pairs), chunk)
    ]
    return [r for part in client.gather(futures) for r in part]


def random_job(bits, count, seed):
    """An odd ``bits``-bit modulus and ``count`` full-length (base, exponent) pairs."""
    rng = random.Random(seed)
    m = rng.getrandbits(bits) | (1 << (bits - 1)) | 1
    return m, [(rng.randrange(m), rng.getrandbits(bits)) for _ in range(count)]


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="address of a running Dask scheduler (default: start a LocalCluster)")
    p.add_argument("--workers", type=int, default=os.cpu_count() or 1,
                   help="LocalCluster worker processes (default: one per core)")
    p.add_argument("--threads", type=int, default=None,
                   help="LocalCluster: threads of each worker's modred pool "
                        "(default: cores / workers)")
    p.add_argument("--bits", type=int, default=2048, help="modulus size (default 2048)")
    p.add_argument("--count", type=int, default=2000, help="exponentiations (default 2000)")
    p.add_argument("--chunk", type=int, default=50, help="exponentiations per task (default 50)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--check", action="store_true", help="compare every result with pow()")
    args = p.parse_args(argv)
    for name in ("workers", "bits", "count", "chunk"):
        if getattr(args, name) < 1:
            p.error(f"--{name} must be at least 1")
    if args.bits < 2:
        p.error("--bits must be at least 2")
    if args.threads is not None and args.threads < 1:
        p.error("--threads must be at least 1")
    return args


def run(client, args):
    """Time one job on ``client``; returns (results, pairs, m, seconds)."""
    m, pairs = random_job(args.bits, args.count, args.seed)
    t0 = time.perf_counter()
    fut = scatter_modulus(client, modred.Modulus(m))
    results = pow_batch_on(client, fut, pairs, args.chunk)
    return results, pairs, m, time.perf_counter() - t0


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    from dask.distributed import Client, LocalCluster

    if args.scheduler:
        cluster, client = None, Client(args.scheduler)
        where = f"scheduler {args.scheduler}"
    else:
        threads = args.threads or max(1, (os.cpu_count() or 1) // args.workers)
        # One Dask task at a time per worker; the task itself runs on the worker's modred
        # (rayon) pool of `threads` threads, so workers x threads cores are busy.
        cluster = LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                               env={"RAYON_NUM_THREADS": str(threads)},
                               dashboard_address=None)
        client = Client(cluster)
        where = f"LocalCluster of {args.workers} worker(s) x {threads} thread(s)"
    try:
        client.wait_for_workers(1)
        results, pairs, m, seconds = run(client, args)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    print(f"{len(results)} exponentiations, {args.bits}-bit modulus, on {where}: "
          f"{seconds:.2f} s, {len(results) / seconds:.0f}/s")
    if args.check:
        bad = [i for i, (r, (b, e)) in enumerate(zip(results, pairs)) if r != pow(b, e, m)]
        if bad:
            print(f"{len(bad)} results differ from pow(), first at index {bad[0]}",
                  file=sys.stderr)
            return 1
        print("every result equals pow(b, e, m)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
