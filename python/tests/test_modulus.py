"""modred.Modulus: every method x every reducer against Python's own arithmetic."""

import pickle

import pytest
from conftest import (METHODS, REDUCERS, SLOW_REDUCERS, call, exponents, moduli, moduli_for,
                      operands, python_pow, special_moduli)
from hypothesis import assume, given
from hypothesis import strategies as st

import modred

MONTGOMERY = [r for r in REDUCERS if r.startswith("montgomery-")]


def make_modulus(m, reducer):
    """Modulus(m, reducer), or None where the reducer may refuse this m (checked here)."""
    try:
        return modred.Modulus(m, reducer)
    except ValueError as exc:
        msg = str(exc)
        if m % 2 == 0 and "needs an odd modulus" in msg:
            # The message lists the reducers that do accept even moduli, and names "auto".
            assert "auto" in msg
            return None
        if "cannot serve this modulus" in msg:  # special-form reducers
            return None
        raise


def max_bits(reducer):
    return 192 if reducer in SLOW_REDUCERS else 600


def refused_ct(got):
    """Whether a call result is modred's refusal to run constant-time code."""
    return isinstance(got, tuple) and got[0] is ValueError and "constant-time" in got[1]


@pytest.mark.parametrize("reducer", REDUCERS)
@pytest.mark.parametrize("method", METHODS)
@given(data=st.data())
def test_pow_every_method_and_reducer(method, reducer, data):
    bits = max_bits(reducer)
    m = data.draw(moduli_for(reducer, bits), label="m")
    M = make_modulus(m, reducer)
    assume(M is not None)
    b = data.draw(operands(m), label="b")
    e = data.draw(exponents(bits), label="e")
    window = data.draw(st.sampled_from([None, 1, 2, 5]), label="window")
    got = call(M.pow, b, e, method, window)
    if method == "ct" and m > 1 and refused_ct(got):
        # Only over a reducer modred does not list as constant-time, or an even modulus.
        assert reducer != "auto" or m % 2 == 0
        return
    if method == "ct" and m % 2 == 0 and m > 1:
        assert isinstance(got, tuple)  # refused above, or the inverse failed first as in pow
    assert got == python_pow(b, e, m)


@pytest.mark.parametrize("reducer", REDUCERS)
@given(data=st.data())
def test_reduce_mul_sqr_inverse(reducer, data):
    bits = max_bits(reducer)
    m = data.draw(moduli_for(reducer, bits), label="m")
    M = make_modulus(m, reducer)
    assume(M is not None)
    a = data.draw(operands(m), label="a")
    b = data.draw(st.one_of(operands(m), st.integers(-(m**2) * 4, m**2 * 4)), label="b")
    assert M.reduce(b) == b % m
    assert M.mul(a, b) == a * b % m
    assert M.sqr(b) == b * b % m
    assert call(M.inverse, a) == python_pow(a, -1, m)
    assert M.modulus == m and M.reducer == reducer and M.bits == m.bit_length()


@pytest.mark.parametrize("reducer", REDUCERS)
@pytest.mark.parametrize("m", special_moduli(600))
def test_special_moduli(reducer, m):
    if reducer in SLOW_REDUCERS and m.bit_length() > 192:
        return
    M = make_modulus(m, reducer)
    if M is None:
        assert m % 2 == 0 or reducer not in MONTGOMERY
        return
    for b in [0, 1, m - 1, m, m + 1, 3 * m - 1, -1, 2**64 - 1]:
        for e in [0, 1, 2, 2**64 - 1, 2**64 + 1, m, -1]:
            assert call(M.pow, b, e) == python_pow(b, e, m), (b, e)
        assert M.mul(b, b + 1) == b * (b + 1) % m


@pytest.mark.parametrize("reducer", MONTGOMERY)
def test_montgomery_rejects_even_moduli(reducer):
    for m in [2, 10, 2**64, 2**200 + 2]:
        with pytest.raises(ValueError) as info:
            modred.Modulus(m, reducer)
        msg = str(info.value)
        assert reducer in msg and "odd" in msg
        # Names the reducers that do accept even moduli.
        for ok in ["auto", "classical", "barrett"]:
            assert ok in msg
            modred.Modulus(m, ok)


@given(m=moduli(600).filter(lambda m: m % 2 == 1 and m > 1), data=st.data())
def test_pow_ct(m, data):
    M = modred.Modulus(m)
    b = data.draw(operands(m))
    e = data.draw(exponents(600, negative=False))
    assert M.pow_ct(b, e) == pow(b, e, m)
    served = 0
    for r in REDUCERS:
        if r in SLOW_REDUCERS and m.bit_length() > 192:
            continue
        M = make_modulus(m, r)
        if M is None:  # a special-form reducer refusing this modulus
            continue
        got = call(M.pow_ct, b, e)
        if not refused_ct(got):
            assert got == pow(b, e, m)
            served += 1
    assert served >= 2  # auto and at least one explicit constant-time reducer


def test_pow_ct_rejections():
    with pytest.raises(ValueError, match="non-negative"):
        modred.Modulus(7).pow_ct(3, -1)
    with pytest.raises(ValueError, match="odd modulus"):
        modred.Modulus(10).pow_ct(3, 5)
    with pytest.raises(ValueError, match="constant-time"):
        modred.Modulus(11, "barrett").pow_ct(3, 5)


def test_constructor_errors():
    with pytest.raises(ValueError, match="positive"):
        modred.Modulus(0)
    with pytest.raises(ValueError, match="positive"):
        modred.Modulus(-7)
    with pytest.raises(ValueError, match="unknown reducer 'nope'; known: auto"):
        modred.Modulus(7, "nope")
    with pytest.raises(TypeError, match="must be an int"):
        modred.Modulus(7.0)
    with pytest.raises(TypeError):
        modred.Modulus(7, 3)


def test_method_argument_errors():
    M = modred.Modulus(2**127 - 1)
    with pytest.raises(ValueError, match="unknown method 'nope'; known: auto"):
        M.pow(2, 3, "nope")
    for w in [0, -1, 17, 2**70]:
        with pytest.raises(ValueError, match="window"):
            M.pow(2, 3, "window", window=w)
    for t in [0, -2, 1025, 2**40]:  # modred's limit (exp::MAX_THREADS), as the CLI's
        with pytest.raises(ValueError, match="threads"):
            M.pow(2, 3, "fixed-base", threads=t)
        with pytest.raises(ValueError, match="threads"):
            M.fixed_base(2).pow(3, threads=t)
    with pytest.raises(TypeError):
        M.pow(2, 3, "window", window=2.5)
    with pytest.raises(TypeError, match="must be an int"):
        M.mul(2, "3")
    with pytest.raises(TypeError):
        M.pow_many(5, 3)
    with pytest.raises(TypeError, match="must be an int"):
        M.pow_many([5], 3.0)

    class Idx:
        def __index__(self):
            return 5

    assert M.pow_many([2, 3], Idx()) == [pow(2, 5, M.modulus), pow(3, 5, M.modulus)]
    with pytest.raises(ValueError, match="2 bases but 3 exponents"):
        M.pow_many([1, 2], [1, 2, 3])


@pytest.mark.parametrize("threads", [1, 2, 3])
def test_fixed_base_threads_option(threads):
    m = 2**607 - 1
    M = modred.Modulus(m)
    for e in [0, 1, 2**606 + 12345, 3**300]:
        assert M.pow(5, e, "fixed-base", threads=threads) == pow(5, e, m)


@pytest.mark.parametrize("reducer", ["auto", "classical", "barrett", "montgomery-cios"])
@given(data=st.data())
def test_fixed_base(reducer, data):
    m = data.draw(moduli(600), label="m")
    M = make_modulus(m, reducer)
    assume(M is not None)
    b = data.draw(operands(m), label="b")
    F = M.fixed_base(b)
    assert F.base == b % m and F.modulus is M
    for _ in range(3):
        e = data.draw(st.one_of(exponents(m.bit_length()), exponents(2 * m.bit_length())))
        assert call(F.pow, e) == python_pow(b, e, m)
        if e >= 0:
            assert F.pow(e, threads=2) == pow(b, e, m)


def test_fixed_base_period():
    # 2 has order 127 modulo 2^127 - 1's ... 2^(2^i) mod (2^k - 1) repeats: the period is found.
    M = modred.Modulus(2**61 - 1)
    F = M.fixed_base(2)
    assert F.pow(10**18) == pow(2, 10**18, 2**61 - 1)
    assert F.period is None or (isinstance(F.period, tuple) and len(F.period) == 2)


def test_repr_eq_hash():
    a = modred.Modulus(1000003)
    assert repr(a) == "Modulus(1000003, reducer='auto')"
    assert repr(modred.Modulus(2**100 + 1, "barrett")) == \
        f"Modulus({hex(2**100 + 1)}, reducer='barrett')"
    assert "2048-bit" in repr(modred.Modulus(2**2047 + 1))
    assert a == modred.Modulus(1000003) and not (a != modred.Modulus(1000003))
    assert a != modred.Modulus(1000003, "barrett") and a != modred.Modulus(1000033)
    assert a != 1000003 and a != "x"
    assert hash(a) == hash(modred.Modulus(1000003))
    assert len({a, modred.Modulus(1000003), modred.Modulus(1000033)}) == 2
    f = a.fixed_base(5)
    assert "FixedBase(Modulus(1000003" in repr(f)


@pytest.mark.parametrize("reducer", REDUCERS)
def test_pickle_round_trip(reducer):
    m = 2**255 - 19 if reducer not in SLOW_REDUCERS else 2**127 - 1
    M = modred.Modulus(m, reducer)
    for proto in range(pickle.HIGHEST_PROTOCOL + 1):
        N = pickle.loads(pickle.dumps(M, protocol=proto))
        assert N == M and N.reducer == reducer and N.reducer_used == M.reducer_used
        assert N.pow(3, 2**200 + 1) == pow(3, 2**200 + 1, m)
    F = M.fixed_base(7)
    G = pickle.loads(pickle.dumps(F))
    assert G.base == 7 and G.modulus == M and G.pow(12345) == pow(7, 12345, m)


def test_methods_listing():
    names = modred.methods()
    assert set(names) == {"reducers", "methods"}
    assert {"auto", "classical", "barrett", "montgomery-cios"} <= set(names["reducers"])
    assert {"auto", "binary", "binary-rl", "window", "sliding", "ct", "fixed-base",
            "comb"} <= set(names["methods"])
    assert all(isinstance(s, str) and s for d in names.values() for s in d.values())


def test_modulus_one():
    M = modred.Modulus(1)
    assert M.reducer_used is None
    for method in METHODS:
        assert M.pow(5, 7, method) == 0 and M.pow(0, -1, method) == 0
    assert M.reduce(12) == 0 and M.mul(3, 4) == 0 and M.sqr(5) == 0 and M.inverse(3) == 0
    assert M.pow_many([1, 2], [3, -4]) == [0, 0] and M.fixed_base(3).pow(9) == 0
    # Every reducer (special-form ones too) serves m = 1, with every method.
    for reducer in REDUCERS:
        M = modred.Modulus(1, reducer)
        assert M.reduce(12) == 0 and M.mul(3, 4) == 0
        assert all(M.pow(5, 7, method) == 0 for method in METHODS)


@pytest.mark.parametrize("method", METHODS)
def test_every_window_size(method):
    for m in [2**89 - 1, 2**130 + 6]:
        M = modred.Modulus(m)
        for w in range(1, 17):
            for e in [0, 1, 2**64 + 3, 3**70]:
                got = call(M.pow, 7, e, method, w)
                if method == "ct" and m % 2 == 0:
                    assert got[0] is ValueError
                elif method == "comb" and w > 8:
                    assert got[0] is ValueError and f"must be 1..=8 (got {w})" in got[1]
                else:
                    assert got == pow(7, e, m), (m, w, e)


@pytest.mark.parametrize("reducer", REDUCERS)
def test_reduce_at_the_reducers_range_limits(reducer):
    for m in special_moduli(600):
        if reducer in SLOW_REDUCERS and m.bit_length() > 192:
            continue
        M = make_modulus(m, reducer)
        if M is None:
            continue
        k = max(1, (m.bit_length() + 63) // 64)
        for x in [0, m - 1, m, m + 1, m * m - 1, m * m, 2 ** (128 * k) - 1, 2 ** (128 * k),
                  m * 2 ** (64 * k) - 1, m * 2 ** (64 * k), 2 ** (128 * k + 1) + 5, 7 * m**3]:
            assert M.reduce(x) == x % m, (m, x)
            assert M.reduce(-x) == -x % m, (m, -x)
