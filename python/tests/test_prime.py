"""modred.is_prime, next_prime and is_prime_many against gmpy2 (or hand values without it)."""

import random

import pytest

import modred

try:
    import gmpy2
except ImportError:  # pragma: no cover
    gmpy2 = None

SMALL_PRIMES = [p for p in range(2, 2000) if all(p % d for d in range(2, int(p**0.5) + 1))]
# 2^127 - 1 is prime; 2^67 - 1 = 193707721 * 761838257287; Arnault's strong pseudoprime to
# every prime base below 307 would pass a Miller-Rabin test to those bases.
M127 = 2**127 - 1
M67 = 2**67 - 1


def test_small_values_and_gmpy2_conventions():
    assert [n for n in range(-10, 2000) if modred.is_prime(n)] == SMALL_PRIMES
    for n in [-(10**30), -7, -1, 0, 1]:
        assert modred.is_prime(n) is False
        assert modred.next_prime(n) == 2
    assert modred.is_prime(True) is False
    assert modred.next_prime(2) == 3
    assert modred.is_prime(M127) and not modred.is_prime(M67)
    assert modred.next_prime(10**20) == 10**20 + 39
    assert modred.next_prime(2**64 - 59) == 2**64 + 13
    with pytest.raises(TypeError):
        modred.is_prime(2.0)
    with pytest.raises(TypeError):
        modred.next_prime("5")
    with pytest.raises(TypeError):
        modred.is_prime_many([3, 5.0])


@pytest.mark.skipif(gmpy2 is None, reason="gmpy2 not installed")
def test_against_gmpy2():
    rng = random.Random(1234)
    values = [rng.getrandbits(bits) | 1 for bits in (64, 65, 100, 256, 512, 1024) for _ in range(30)]
    values += [int(gmpy2.next_prime(rng.getrandbits(bits))) for bits in (70, 300, 1024, 2048)]
    values += [int(gmpy2.next_prime(rng.getrandbits(200)) * gmpy2.next_prime(rng.getrandbits(200)))]
    for v in values:
        assert modred.is_prime(v) == bool(gmpy2.is_prime(v)), v
    assert modred.is_prime_many(values) == [bool(gmpy2.is_prime(v)) for v in values]
    for bits in (10, 64, 70, 200, 700):
        x = rng.getrandbits(bits)
        assert modred.next_prime(x) == int(gmpy2.next_prime(x)), x
    for x in (-5, 0, 1, 2):
        assert modred.next_prime(x) == int(gmpy2.next_prime(x))
        assert modred.is_prime(x) == bool(gmpy2.is_prime(x))


def test_is_prime_many_keeps_order():
    values = list(range(-3, 300)) + [M127, M67]
    assert modred.is_prime_many(values) == [modred.is_prime(v) for v in values]
    assert modred.is_prime_many([]) == []
    assert modred.is_prime_many(iter([7, 8])) == [True, False]
