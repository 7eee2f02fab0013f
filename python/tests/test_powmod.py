"""modred.powmod and modred.pow_batch against the built-in pow(b, e, m)."""

import operator

import pytest
from conftest import call, exponents, moduli, operands, python_pow
from hypothesis import given
from hypothesis import strategies as st

import modred


@st.composite
def signed_triples(draw, max_bits=700):
    m = draw(moduli(max_bits))
    b = draw(operands(m))
    e = draw(exponents(max_bits))
    sign = draw(st.sampled_from([1, -1]))
    return b, e, sign * m


@given(signed_triples())
def test_powmod_matches_pow(t):
    b, e, m = t
    assert call(modred.powmod, b, e, m) == python_pow(b, e, m)


@given(st.integers(-(10**30), 10**30), st.integers(-50, 2000), st.integers(-(10**30), 10**30))
def test_powmod_matches_pow_small_values(b, e, m):
    assert call(modred.powmod, b, e, m) == python_pow(b, e, m)


@pytest.mark.parametrize("bits", [64, 128, 256, 512, 1024, 2048, 4096])
def test_powmod_full_length(bits):
    import random

    rng = random.Random(bits)
    for m in [rng.getrandbits(bits) | (1 << (bits - 1)) | 1,  # odd
              (rng.getrandbits(bits) | (1 << (bits - 1))) & ~1,  # even
              (rng.getrandbits(bits) | (1 << (bits - 1))) << 7]:  # 2^7 * odd
        b = rng.getrandbits(bits + 13)
        e = rng.getrandbits(bits)
        assert modred.powmod(b, e, m) == pow(b, e, m)
        assert modred.powmod(-b, e, -m) == pow(-b, e, -m)


CASES = [
    (3, 4, -5),        # CPython: -4, result in (m, 0]
    (5, 0, -7),        # 1 mod 7 -> -6
    (0, 0, 1), (0, 0, -1), (7, 0, 1), (0, 5, 1), (0, -1, 1), (2, -1, -1),  # |m| = 1 -> 0
    (0, 0, 5), (0, 3, 5), (5, 3, 5), (12, 3, 5), (-3, 3, 5), (-3, -1, 7),
    (2, -1, 4), (0, -1, 7), (6, -3, 9),  # not invertible
    (True, True, 3), (False, 0, 2), (True, -1, 2),
    (2, 10, 1024), (3, 2**64 + 1, 2**64), (2**64 - 1, 2**65, 2**64 - 1),
    (2, 3, 0), (0, 0, 0), (2, -1, 0),  # m = 0
]


@pytest.mark.parametrize("b,e,m", CASES)
def test_powmod_edge_cases(b, e, m):
    assert call(modred.powmod, b, e, m) == python_pow(b, e, m)


def test_error_messages_match_python():
    with pytest.raises(ValueError, match="base is not invertible for the given modulus"):
        modred.powmod(2, -1, 4)
    with pytest.raises(ValueError, match="3rd argument cannot be 0"):
        modred.powmod(2, 3, 0)


@pytest.mark.parametrize("bad", [2.0, "3", None, [1], 1j, b"\x01"])
@pytest.mark.parametrize("pos", [0, 1, 2])
def test_powmod_rejects_non_ints(bad, pos):
    args = [3, 5, 7]
    args[pos] = bad
    with pytest.raises(TypeError, match="must be an int"):
        modred.powmod(*args)


def test_powmod_accepts_index_objects():
    class Idx:
        def __init__(self, v):
            self.v = v

        def __index__(self):
            return self.v

    assert modred.powmod(Idx(3), Idx(5), Idx(7)) == pow(3, 5, 7)
    assert modred.powmod(operator.index(10), 3, Idx(-7)) == pow(10, 3, -7)


def test_powmod_is_positional_only():
    with pytest.raises(TypeError):
        modred.powmod(base=2, exp=3, mod=5)


@given(st.lists(signed_triples(max_bits=300), max_size=12))
def test_pow_batch_matches_pow(triples):
    want = [python_pow(*t) for t in triples]
    if any(isinstance(w, tuple) for w in want):
        with pytest.raises(ValueError, match=r"pow_batch\(\): item \d+"):
            modred.pow_batch(triples)
    else:
        assert modred.pow_batch(triples) == want


def test_pow_batch_errors_name_the_item():
    with pytest.raises(ValueError, match=r"item 1: .*cannot be 0"):
        modred.pow_batch([(2, 3, 5), (2, 3, 0)])
    with pytest.raises(ValueError, match="item 2: base is not invertible"):
        modred.pow_batch([(2, 3, 5), (2, 3, 7), (2, -1, 4)])
    with pytest.raises(TypeError, match="item 0"):
        modred.pow_batch([(2, 3)])
    with pytest.raises(TypeError):
        modred.pow_batch(5)
    assert modred.pow_batch([]) == []
    assert modred.pow_batch(iter([(2, 10, 1000)])) == [24]
