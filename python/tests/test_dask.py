"""examples/dask_powmod.py on a 2-process LocalCluster: every result against the built-in pow."""

import importlib.util
import pathlib
import random

import dask
import pytest
from dask.distributed import Client, LocalCluster

import modred

EXAMPLE = pathlib.Path(__file__).resolve().parent.parent / "examples" / "dask_powmod.py"


def load_example():
    spec = importlib.util.spec_from_file_location("dask_powmod", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def client():
    # The scheduler's Active Memory Manager (on by default, every 2 s) drops replicas no waiting
    # task needs, so whether both workers still hold the broadcast Modulus when it is asked would
    # depend on timing; the scheduler runs in this process and reads this setting at start.
    with dask.config.set({"distributed.scheduler.active-memory-manager.start": False}):
        cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                               env={"RAYON_NUM_THREADS": "1"}, dashboard_address=None)
    with cluster, Client(cluster) as c:
        c.wait_for_workers(2)
        yield c


def test_pow_batch_on_two_workers_matches_pow(client):
    ex = load_example()
    rng = random.Random(20)
    for bits in (64, 521, 1024):
        m = rng.getrandbits(bits) | (1 << (bits - 1)) | 1
        # Edge cases next to random full-length pairs: 0 and 1 as base or exponent, m - 1,
        # bases >= m and negative, a negative exponent (an inverse) of an invertible base.
        pairs = [(0, 0), (0, 5), (1, rng.getrandbits(bits)), (m - 1, 2), (m + 3, 7),
                 (-2, 3), (3, -1)]
        pairs += [(rng.randrange(m), rng.getrandbits(bits)) for _ in range(40)]
        fut = ex.scatter_modulus(client, modred.Modulus(m))
        got = ex.pow_batch_on(client, fut, pairs, chunk=6)
        assert got == [pow(b, e, m) for b, e in pairs]
        # The Modulus went to both workers once, under one key.
        holders = client.who_has(fut)[fut.key]
        assert len(holders) == 2


def test_main_with_scheduler_address_checks_against_pow(client, capsys):
    ex = load_example()
    address = client.scheduler.address
    assert ex.main(["--scheduler", address, "--bits", "256", "--count", "30", "--chunk", "4",
                    "--check"]) == 0
    out = capsys.readouterr().out
    assert "30 exponentiations, 256-bit modulus, on scheduler" in out
    assert "every result equals pow(b, e, m)" in out


def test_bad_arguments_exit_with_usage():
    ex = load_example()
    for argv in (["--chunk", "0"], ["--bits", "1"], ["--threads", "0"]):
        with pytest.raises(SystemExit) as info:
            ex.parse_args(argv)
        assert info.value.code == 2
