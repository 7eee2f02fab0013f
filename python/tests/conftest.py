"""Shared test settings and strategies for the modred Python package."""

import os

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

import modred

# Keep the whole suite well under a minute: few examples per property, many properties.
settings.register_profile(
    "default",
    max_examples=int(os.environ.get("MODRED_HYPOTHESIS_EXAMPLES", "20")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("default")

METHODS = list(modred.methods()["methods"])
REDUCERS = list(modred.methods()["reducers"])

# The radix-2 reference reducer is orders of magnitude slower: small moduli only.
SLOW_REDUCERS = {"montgomery-bitserial"}


def special_moduli(max_bits):
    """Moduli the core's edge cases name: 1, 3, 2^64-1, b^k-1, b^k+1, top limb 1, 2^k, ..."""
    out = {1, 2, 3, 4, 5, 7, 2**64 - 1, 2**64, 2**64 + 1, 2**128 - 1, 2**128 + 1,
           2**127 - 1, 2**64 * 3 + 1, (1 << 192) + 1, (1 << 192) | 12345, 2**255 - 19,
           2**521 - 1, 2**512, 10**40, 2**300 - 2}
    return sorted(m for m in out if m.bit_length() <= max_bits)


def moduli(max_bits=700):
    """Positive moduli: small, random of any size up to max_bits, and special forms."""
    return st.one_of(
        st.integers(1, 100),
        st.integers(1, max_bits).flatmap(lambda b: st.integers(1 << (b - 1), (1 << b) - 1)),
        st.sampled_from(special_moduli(max_bits)),
    )


def pseudo_mersenne(max_bits=700):
    """Moduli 2^e - c with small c, the form `diminished-radix` serves (c < 2^(e-64))."""
    return st.integers(100, max(100, max_bits)).flatmap(
        lambda e: st.integers(1, 1 << 32).map(lambda c: (1 << e) - c))


def moduli_for(reducer, max_bits=700):
    """Moduli a reducer can serve: special-form methods get their form, the others anything."""
    if reducer == "diminished-radix":
        return pseudo_mersenne(max_bits)
    return moduli(max_bits)


def operands(m):
    """Bases for modulus m: 0, 1, m-1, m, >= m, negative, random."""
    return st.one_of(
        st.sampled_from([0, 1, m - 1, m, m + 1, 2 * m + 3, -1, -m, -m - 1]),
        st.integers(-4 * m, 4 * m),
        st.integers(0, m - 1),
    )


def exponents(max_bits=700, negative=True):
    """Exponents: 0, 1, 2, 64/65-bit, full length, and (optionally) negative."""
    lo = -(1 << max_bits) if negative else 0
    return st.one_of(
        st.sampled_from([0, 1, 2, 3, 2**64 - 1, 2**64, 2**65 - 1]
                        + ([-1, -2, -(2**64) - 1] if negative else [])),
        st.integers(lo, 1 << max_bits),
        st.integers(0, 1 << 64),
    )


def python_pow(b, e, m):
    """The built-in pow's result, or its exception as (type, message)."""
    try:
        return pow(b, e, m)
    except (ValueError, ZeroDivisionError, TypeError) as exc:
        return (type(exc), str(exc))


def call(f, *args):
    """f(*args), or its exception as (type, message)."""
    try:
        return f(*args)
    except (ValueError, ZeroDivisionError, TypeError) as exc:
        return (type(exc), str(exc))


@pytest.fixture(scope="session")
def methods():
    return modred.methods()
