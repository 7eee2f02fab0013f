"""modred.evm_modexp / modred.evm_gas: the MODEXP precompile against go-ethereum's vectors and
against a reference written in Python from the EIPs' pseudocode (EIP-198, EIP-2565,
EIP-7883, EIP-7823)."""

import json
import pathlib
from concurrent.futures import ThreadPoolExecutor

import pytest
from hypothesis import given
from hypothesis import strategies as st

import modred

VECTORS = pathlib.Path(__file__).resolve().parents[2] / "modred" / "tests" / "vectors"
FILES = [
    ("go-ethereum-modexp.json", "byzantium"),
    ("go-ethereum-modexp_eip2565.json", "berlin"),
    ("go-ethereum-modexp_eip7883.json", "osaka"),
]
FORKS = ["byzantium", "berlin", "osaka"]


def read(data, start, length):
    """``length`` bytes of ``data`` from ``start``, zero past its end (the specs' buffer_read)."""
    chunk = data[start:start + length] if start < len(data) else b""
    return chunk + bytes(length - len(chunk))


def ref_lengths(data):
    return [int.from_bytes(read(data, 32 * i, 32), "big") for i in range(3)]


def ref_gas(data, fork):
    """The price by the EIPs' formulas in unbounded ints; None when EIP-7823 rejects."""
    bl, el, ml = ref_lengths(data)
    if fork == "osaka" and max(bl, el, ml) > 1024:
        return None
    head = int.from_bytes(read(data, 96 + bl, min(32, el)), "big")
    per_byte = 16 if fork == "osaka" else 8
    top = max(head.bit_length() - 1, 0)
    iterations = max(top if el <= 32 else per_byte * (el - 32) + top, 1)
    x = max(bl, ml)
    words = (x + 7) // 8
    if fork == "byzantium":
        if x <= 64:
            c = x**2
        elif x <= 1024:
            c = x**2 // 4 + 96 * x - 3072
        else:
            c = x**2 // 16 + 480 * x - 199680
        return c * iterations // 20
    if fork == "berlin":
        return max(200, words**2 * iterations // 3)
    c = 16 if x <= 32 else 2 * words**2
    return max(500, c * iterations)


def ref_output(data):
    bl, el, ml = ref_lengths(data)
    if bl == 0 and ml == 0:
        return b""
    base = int.from_bytes(read(data, 96, bl), "big")
    exp = int.from_bytes(read(data, 96 + bl, el), "big")
    mod = int.from_bytes(read(data, 96 + bl + el, ml), "big")
    if mod == 0:
        return bytes(ml)
    return pow(base, exp, mod).to_bytes(ml, "big")


def encode(base, exp, mod, lengths=None):
    lengths = lengths or (len(base), len(exp), len(mod))
    return b"".join(n.to_bytes(32, "big") for n in lengths) + base + exp + mod


@pytest.mark.parametrize("file,fork", FILES)
def test_go_ethereum_vectors(file, fork):
    cases = json.loads((VECTORS / file).read_text())
    assert len(cases) in (17, 45)
    for case in cases:
        data = bytes.fromhex(case["Input"])
        want = bytes.fromhex(case["Expected"])
        assert modred.evm_modexp(data, fork) == (want, case["Gas"]), case["Name"]
        assert modred.evm_gas(data, fork=fork) == case["Gas"], case["Name"]
        assert ref_gas(data, fork) == case["Gas"], case["Name"]
        assert ref_output(data) == want, case["Name"]


def test_defaults_and_types():
    data = encode(b"\x03", b"\x05", b"\x07")
    assert modred.evm_modexp(data) == (b"\x05", 500)
    assert modred.evm_modexp(bytearray(data)) == (b"\x05", 500)
    assert modred.evm_gas(data) == 500
    assert modred.evm_modexp(b"", "berlin") == (b"", 200)
    assert modred.evm_modexp(b"", fork="byzantium") == (b"", 0)
    assert modred.evm_modexp(data, "OSAKA") == (b"\x05", 500)
    with pytest.raises(TypeError):
        modred.evm_modexp("00")  # type: ignore[arg-type]


def test_rejections():
    with pytest.raises(ValueError, match="unknown fork 'prague'"):
        modred.evm_modexp(b"", "prague")
    with pytest.raises(ValueError, match="unknown fork"):
        modred.evm_gas(b"", "cancun")
    over = encode(b"", b"", b"", lengths=(1, 1, 1025))
    with pytest.raises(ValueError, match="modulus length 1025 .*EIP-7823"):
        modred.evm_modexp(over)
    with pytest.raises(ValueError, match="EIP-7823"):
        modred.evm_gas(over)
    # Berlin accepts it: modulus bytes absent, so zero.
    assert modred.evm_modexp(over, "berlin") == (bytes(1025), 129**2 // 3)
    # Declared lengths of 2^255: priced (saturated), refused, nothing allocated.
    huge = encode(b"", b"", b"\x01", lengths=(1 << 255, 32, 32))
    assert modred.evm_gas(huge, "berlin") == 2**64 - 1
    with pytest.raises(ValueError, match="no block can pay"):
        modred.evm_modexp(huge, "berlin")
    with pytest.raises(ValueError, match="base length 5789"):
        modred.evm_modexp(huge)


def test_threads_release_the_gil():
    cases = json.loads((VECTORS / "go-ethereum-modexp_eip7883.json").read_text())
    inputs = [bytes.fromhex(c["Input"]) for c in cases] * 4
    with ThreadPoolExecutor(4) as pool:
        got = list(pool.map(modred.evm_modexp, inputs))
    assert got == [modred.evm_modexp(d) for d in inputs]


@given(
    base=st.binary(max_size=70),
    exp=st.binary(max_size=40),
    mod=st.binary(max_size=70),
    lie=st.sampled_from([None, 0, 1, 2]),
    declared=st.one_of(st.integers(0, 80), st.just(1025), st.integers(2**64, 2**256 - 1)),
    cut=st.one_of(st.none(), st.integers(0, 400)),
    fork=st.sampled_from(FORKS),
)
def test_matches_reference(base, exp, mod, lie, declared, cut, fork):
    lengths = [len(base), len(exp), len(mod)]
    if lie is not None:
        lengths[lie] = declared
    data = encode(base, exp, mod, lengths)
    if cut is not None:
        data = data[:cut]
    gas = ref_gas(data, fork)
    if gas is None:
        with pytest.raises(ValueError):
            modred.evm_modexp(data, fork)
        return
    assert modred.evm_gas(data, fork) == min(gas, 2**64 - 1)
    if gas > 2**32 and fork != "osaka":
        with pytest.raises(ValueError):
            modred.evm_modexp(data, fork)
        return
    assert modred.evm_modexp(data, fork) == (ref_output(data), gas)
