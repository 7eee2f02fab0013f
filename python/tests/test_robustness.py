"""Bad or extreme input raises TypeError/ValueError, never a PyO3 PanicException."""

import pytest
from conftest import METHODS, REDUCERS, SLOW_REDUCERS
from hypothesis import given
from hypothesis import strategies as st

import modred

WEIRD = [0, 1, -1, 2, -2, 2**64 - 1, 2**64, -(2**64), 2**127 - 1, 2**130, -(2**200) - 3,
         True, 2.5, float("nan"), None, "7", b"7", [3], (3,), object()]

values = st.one_of(st.sampled_from(WEIRD), st.integers(-(2**300), 2**300))


def guarded(f, *args, **kwargs):
    """Call f; only TypeError/ValueError may escape (PanicException is a BaseException and
    fails the test)."""
    try:
        return f(*args, **kwargs)
    except (TypeError, ValueError):
        return None


@given(values, values, values)
def test_module_functions(b, e, m):
    guarded(modred.powmod, b, e, m)
    guarded(modred.pow_batch, [(b, e, m), (b, e, m)])
    guarded(modred.pow_batch, [b, e, m])


@pytest.mark.parametrize("reducer", REDUCERS)
@given(m=values, a=values, b=values, method=st.sampled_from(METHODS + ["", "x"]),
       window=st.sampled_from([None, 0, 1, 3, 16, 17, -1, 2.0]),
       threads=st.sampled_from([None, 0, 1, 2, 5000, -1]))
def test_modulus_methods(reducer, m, a, b, method, window, threads):
    if reducer in SLOW_REDUCERS and isinstance(m, int) and abs(m).bit_length() > 192:
        return
    M = guarded(modred.Modulus, m, reducer)
    if M is None:
        return
    guarded(M.reduce, a)
    guarded(M.mul, a, b)
    guarded(M.sqr, a)
    guarded(M.inverse, a)
    guarded(M.pow, a, b, method, window, threads)
    guarded(M.pow_ct, a, b)
    guarded(M.pow_many, [a, b], b)
    guarded(M.pow_many, [a], [a, b])
    guarded(M.pow_batch, [(a, b)])
    F = guarded(M.fixed_base, a)
    if F is not None:
        guarded(F.pow, b)
        guarded(F.pow, b, threads=threads)
