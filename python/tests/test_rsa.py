"""modred.RsaKey: the raw RSA operations against modred's RSA vectors (tests/vectors/rsa/) and
Python's pow; loading (PEM, DER, components, public-only keys), pickling, bad keys and inputs,
threads."""

import base64
import json
import math
import pathlib
import pickle
import random
from concurrent.futures import ThreadPoolExecutor

import pytest

import modred
from modred import RsaKey

VECTORS = pathlib.Path(__file__).resolve().parents[2] / "modred" / "tests" / "vectors" / "rsa"
KEYS = json.loads((VECTORS / "rsa-raw.json").read_text())["keys"]
BY_FILE = {k["key"]: k for k in KEYS}


def comp(k):
    """(n, e, d, p, q) of a vector key as ints (e is a JSON number, the rest hex)."""
    return (int(k["n"], 16), k["e"], int(k["d"], 16), int(k["p"], 16), int(k["q"], 16))


def cases(k):
    """(input, private, public) of a vector key as ints."""
    return [tuple(int(c[f], 16) for f in ("input", "private", "public")) for c in k["cases"]]


def pem_files():
    """(file name, vector key) for every PEM file: PKCS#8 files share their PKCS#1 key."""
    out = []
    for path in sorted(VECTORS.glob("*.pem")):
        k = BY_FILE.get(path.name) or BY_FILE[path.name.replace("pkcs8", "pkcs1")]
        out.append((path.name, k))
    return out


def pem_to_der(text):
    """The DER bytes of a PEM document (its base64 body)."""
    lines = text.strip().splitlines()
    return base64.b64decode("".join(line for line in lines if not line.startswith("-----")))


# Minimal DER encoding, to make public keys and deliberately broken private keys.
def der_len(n):
    if n < 0x80:
        return bytes([n])
    b = n.to_bytes((n.bit_length() + 7) // 8, "big")
    return bytes([0x80 | len(b)]) + b


def der_int(x):
    b = x.to_bytes(x.bit_length() // 8 + 1, "big")  # a leading zero keeps it positive
    return b"\x02" + der_len(len(b)) + b


def der_seq(*items):
    body = b"".join(items)
    return b"\x30" + der_len(len(body)) + body


def pkcs1_public_der(n, e):
    return der_seq(der_int(n), der_int(e))


def spki_der(n, e):
    rsa_oid = b"\x06\x09\x2a\x86\x48\x86\xf7\x0d\x01\x01\x01"
    bits = b"\x00" + pkcs1_public_der(n, e)
    return der_seq(der_seq(rsa_oid, b"\x05\x00"), b"\x03" + der_len(len(bits)) + bits)


def pkcs1_private_der(n, e, d, p, q):
    return der_seq(der_int(0), *map(der_int, (n, e, d, p, q, d % (p - 1), d % (q - 1),
                                              pow(q, -1, p))))


def pem(label, der):
    body = base64.b64encode(der).decode()
    lines = [body[i:i + 64] for i in range(0, len(body), 64)]
    return "\n".join([f"-----BEGIN {label}-----", *lines, f"-----END {label}-----", ""])


def to_bytes(x, k):
    return x.to_bytes(k.size, "big")


def check_vectors(key, k):
    n, e, *_ = comp(k)
    assert key.n == n and key.e == e and key.bits == k["bits"] == n.bit_length()
    assert key.size == (n.bit_length() + 7) // 8
    for x, private, public in cases(k):
        if key.has_private:
            assert key.private_op(x) == private
            out = key.private_op(to_bytes(x, key))
            assert isinstance(out, bytes) and out == to_bytes(private, key)
            # Any length, leading zeros or none; bytearray too.
            assert key.private_op(x.to_bytes((x.bit_length() + 7) // 8, "big")) == out
            assert key.private_op(bytearray(b"\0\0" + to_bytes(x, key))) == out
        assert key.public_op(x) == public
        assert key.public_op(to_bytes(x, key)) == to_bytes(public, key)


@pytest.mark.parametrize("name,k", pem_files(), ids=[f for f, _ in pem_files()])
def test_pem_and_der_vectors(name, k):
    text = (VECTORS / name).read_text()
    for key in [RsaKey.from_pem(text), RsaKey.from_pem(text.encode()),
                RsaKey.from_der(pem_to_der(text)), RsaKey.from_der(bytearray(pem_to_der(text)))]:
        assert key.has_private
        check_vectors(key, k)


@pytest.mark.parametrize("k", KEYS, ids=[k["key"] for k in KEYS])
def test_components_vectors(k):
    n, e, d, p, q = comp(k)
    check_vectors(RsaKey.from_components(n, e, d, p, q), k)
    check_vectors(RsaKey.from_components(n, e, d, q, p), k)
    check_vectors(RsaKey.from_components(n, e, d), k)  # p and q recovered
    public = RsaKey.from_components(n, e)
    assert not public.has_private
    check_vectors(public, k)


def test_against_pow_on_random_inputs():
    rng = random.Random(20261125)
    for name in ["rsa1024-pkcs1.pem", "rsa2048-e3-pkcs1.pem", "rsa2048-pkcs8.pem"]:
        key = RsaKey.from_pem((VECTORS / name).read_bytes())
        n, e = key.n, key.e
        d = comp(BY_FILE[name.replace("pkcs8", "pkcs1")])[2]
        for _ in range(8):
            x = rng.randrange(n)
            assert key.private_op(x) == pow(x, d, n)
            assert key.public_op(x) == pow(x, e, n)
            assert key.public_op(key.private_op(x)) == x
            assert key.private_op(to_bytes(x, key)) == to_bytes(pow(x, d, n), key)


def test_private_op_many_against_pow():
    rng = random.Random(20261126)
    for name in ["rsa1024-pkcs1.pem", "rsa2048-pkcs1.pem", "rsa4096-pkcs1.pem"]:
        key = RsaKey.from_pem((VECTORS / name).read_bytes())
        n = key.n
        d = comp(BY_FILE[name])[2]
        for size in [0, 1, 3, 9]:
            xs = [rng.randrange(n) for _ in range(size)]
            if size:
                xs[0] = n - 1
            assert key.private_op_many(xs) == [pow(x, d, n) for x in xs]
        assert key.private_op_many(iter([0, 1])) == [0, 1]
        with pytest.raises(ValueError, match="item 2"):
            key.private_op_many([1, 2, n, 3, 4])
        with pytest.raises(ValueError):
            key.private_op_many([1, -1])
        with pytest.raises(TypeError):
            key.private_op_many([1, "2"])
    with pytest.raises(ValueError):
        RsaKey.from_components(n, 65537).private_op_many([1])


@pytest.mark.parametrize("k", KEYS[:2], ids=[k["key"] for k in KEYS[:2]])
def test_public_only_keys(k):
    n, e, *_ = comp(k)
    ders = [pkcs1_public_der(n, e), spki_der(n, e)]
    keys = [RsaKey.from_der(ders[0]), RsaKey.from_der(ders[1]),
            RsaKey.from_pem(pem("RSA PUBLIC KEY", ders[0])),
            RsaKey.from_pem(pem("PUBLIC KEY", ders[1]).encode()), RsaKey.from_components(n, e)]
    for key in keys:
        assert not key.has_private
        check_vectors(key, k)
        for x in [5, b"\x05"]:
            with pytest.raises(ValueError, match="no private part"):
                key.private_op(x)


def test_properties_and_repr():
    key = RsaKey.from_pem((VECTORS / "rsa2048-e3-pkcs1.pem").read_text())
    assert (key.bits, key.size, key.e, key.has_private) == (2048, 256, 3, True)
    n, e, d, p, q = comp(BY_FILE["rsa2048-e3-pkcs1.pem"])
    r = repr(key)
    assert r == "RsaKey(bits=2048, e=3, has_private=True)"
    for secret in (n, d, p, q):
        assert f"{secret:x}"[:12] not in r and str(secret)[:12] not in r
    assert repr(RsaKey.from_components(n, e)) == "RsaKey(bits=2048, e=3, has_private=False)"


def test_pickle_round_trip():
    rng = random.Random(7)
    for k in KEYS[:3]:
        n, e, d, p, q = comp(k)
        for key in [RsaKey.from_components(n, e, d, p, q), RsaKey.from_components(n, e)]:
            for proto in range(pickle.HIGHEST_PROTOCOL + 1):
                back = pickle.loads(pickle.dumps(key, protocol=proto))
                assert isinstance(back, RsaKey) and back is not key
                assert (back.n, back.e, back.has_private) == (key.n, key.e, key.has_private)
                x = rng.randrange(n)
                assert back.public_op(x) == key.public_op(x)
                if key.has_private:
                    assert back.private_op(x) == key.private_op(x) == pow(x, d, n)
    # The unpickled private key keeps the given primes' order.
    n, e, d, p, q = comp(KEYS[0])
    assert pickle.loads(pickle.dumps(RsaKey.from_components(n, e, d, q, p))).__reduce__()[1] \
        == (n, e, d, q, p)


def bad_key_cases():
    n, e, d, p, q = comp(BY_FILE["rsa1024-pkcs1.pem"])
    n2, _, d2, p2, q2 = comp(BY_FILE["rsa2048-pkcs1.pem"])
    return [
        ("p q != n", lambda: RsaKey.from_components(n, e, d, p, q2)),
        ("p q != n", lambda: RsaKey.from_components(n, e, d, p + 2, q)),
        ("d does not match", lambda: RsaKey.from_components(n, e, d + 2, p, q)),
        ("d does not match", lambda: RsaKey.from_components(n, e, d2 % n, p, q)),
        ("cannot recover", lambda: RsaKey.from_components(n, e, d + 2)),
        ("p = q", lambda: RsaKey.from_components(p * p, e, d, p, p)),
        ("both primes", lambda: RsaKey.from_components(n, e, d, p)),
        ("need the private exponent", lambda: RsaKey.from_components(n, e, None, p, q)),
        ("even", lambda: RsaKey.from_components(n + 1, e)),
        ("odd, at least 3", lambda: RsaKey.from_components(n, 65536)),
        ("bits", lambda: RsaKey.from_components(2**255 - 19, 3)),
        ("non-negative", lambda: RsaKey.from_components(n, e, -d)),
        # A private key that fails validation is an error, not loaded as its public half.
        ("p q != n", lambda: RsaKey.from_der(pkcs1_private_der(n, e, d, p, q2))),
        ("p q != n", lambda: RsaKey.from_pem(pem("RSA PRIVATE KEY",
                                                 pkcs1_private_der(n, e, d, p, q2)))),
        ("d does not match", lambda: RsaKey.from_der(pkcs1_private_der(n, e, d + 2, p, q))),
    ]


@pytest.mark.parametrize("match,make", bad_key_cases())
def test_bad_components(match, make):
    with pytest.raises(ValueError, match=match):
        make()


def test_bad_encodings():
    text = (VECTORS / "rsa2048-pkcs1.pem").read_text()
    der = pem_to_der(text)
    der8 = pem_to_der((VECTORS / "rsa2048-pkcs8.pem").read_text())
    lines = text.splitlines()
    proc_type = "\n".join([lines[0], "Proc-Type: 4,ENCRYPTED",
                           "DEK-Info: AES-128-CBC,00112233445566778899AABBCCDDEEFF", "",
                           *lines[1:]])
    bad = [
        b"", b"garbage", "not a key at all", b"\x30\x03\x02\x01\x00",
        der[:-10], der[:100], der8[:-1], der + b"\x00",
        "-----BEGIN RSA PRIVATE KEY-----\nnot base64 !!!\n-----END RSA PRIVATE KEY-----\n",
        "\n".join(lines[:5] + lines[-1:]),  # truncated body
        text.replace("RSA PRIVATE KEY", "CERTIFICATE"),
        proc_type,
        pem("ENCRYPTED PRIVATE KEY", der8[:200]),
    ]
    for data in bad:
        with pytest.raises(ValueError, match="invalid RSA key"):
            RsaKey.from_pem(data)
        if not isinstance(data, str):
            with pytest.raises(ValueError, match="invalid RSA key"):
                RsaKey.from_der(data)
    for data in [proc_type, pem("ENCRYPTED PRIVATE KEY", der8[:200])]:
        with pytest.raises(ValueError, match="encrypted"):
            RsaKey.from_pem(data)


def test_input_range_and_types():
    key = RsaKey.from_pem((VECTORS / "rsa1024-pkcs1.pem").read_bytes())
    n = key.n
    for op in [key.private_op, key.public_op]:
        for x in [n, n + 1, 2**2048]:
            with pytest.raises(ValueError, match="out of range"):
                op(x)
        for x in [n.to_bytes(key.size, "big"), b"\xff" * key.size, b"\x01" + bytes(key.size)]:
            with pytest.raises(ValueError, match="out of range"):
                op(x)
        for x in [-1, -n]:
            with pytest.raises(ValueError, match="non-negative"):
                op(x)
        for x in [1.0, "5", None, [5], memoryview(b"5")]:
            with pytest.raises(TypeError, match="must be an int or bytes"):
                op(x)
        assert op(b"") == bytes(key.size) and op(0) == 0 and op(True) == 1

    class Idx:
        def __index__(self):
            return 2

    assert key.public_op(Idx()) == pow(2, key.e, n)
    for bad in [5, None, 1.5]:
        with pytest.raises(TypeError, match="must be bytes"):
            RsaKey.from_pem(bad)
        with pytest.raises(TypeError, match="must be bytes"):
            RsaKey.from_der(bad)
    with pytest.raises(TypeError, match="must be bytes, not str"):
        RsaKey.from_der("-----BEGIN RSA PRIVATE KEY-----")
    with pytest.raises(TypeError, match="must be an int"):
        RsaKey.from_components(str(n), 3)
    with pytest.raises(TypeError):
        RsaKey(n, 3)


def test_fault_detected_is_runtime_error():
    # "Primes" p' = p1 p2 (composite) and q2 pass every load-time check (p' q2 = n, e d = 1 mod
    # lcm(p' - 1, q2 - 1)), but the CRT half modulo p' is wrong: the check with e catches it.
    _, _, _, p1, q1 = comp(BY_FILE["rsa1024-pkcs1.pem"])
    _, _, _, q2, _ = comp(BY_FILE["rsa2048-pkcs1.pem"])
    p = p1 * q1
    lam = (p - 1) * (q2 - 1) // math.gcd(p - 1, q2 - 1)
    e = next(e for e in [65537, 3, 5, 17, 257] if math.gcd(e, lam) == 1)
    key = RsaKey.from_components(p * q2, e, pow(e, -1, lam), p, q2)
    with pytest.raises(RuntimeError, match="failed the check"):
        key.private_op(123456789)
    assert key.public_op(2) == pow(2, e, p * q2)


def test_threads_share_one_key():
    name = "rsa2048-pkcs1.pem"
    key = RsaKey.from_pem((VECTORS / name).read_bytes())
    n, e, d, *_ = comp(BY_FILE[name])
    rng = random.Random(99)
    xs = [rng.randrange(n) for _ in range(48)]

    def work(x):
        return key.private_op(x), key.private_op(to_bytes(x, key)), key.public_op(x)

    with ThreadPoolExecutor(max_workers=6) as pool:
        results = list(pool.map(work, xs))
    # x -> x^d is a permutation, so s^e = x proves s right (pow checks a few, slow in Python).
    for i, (x, (s, sb, v)) in enumerate(zip(xs, results)):
        assert pow(s, e, n) == x and sb == to_bytes(s, key) and v == pow(x, e, n)
        assert i >= 4 or s == pow(x, d, n)


def test_exported():
    assert modred.RsaKey is RsaKey and "RsaKey" in modred.__all__
