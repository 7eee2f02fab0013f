"""Type stubs of the native module ``modred._modred`` (re-exported by ``modred``)."""

from typing import (Callable, Dict, Iterable, List, Optional, SupportsIndex, Tuple, Union, final,
                    overload)

__all__ = [
    "FixedBase",
    "Modulus",
    "RsaKey",
    "evm_gas",
    "evm_modexp",
    "is_prime",
    "is_prime_many",
    "methods",
    "next_prime",
    "pow_batch",
    "pow_batch_ct",
    "powmod",
]

_Int = SupportsIndex
"""Anything ``operator.index`` accepts: ``int``, ``bool``, NumPy and gmpy2 integers."""

def powmod(base: _Int, exp: _Int, mod: _Int, /) -> int:
    """``pow(base, exp, mod)`` for ints, computed by modred (same results and exceptions)."""

def pow_batch(triples: Iterable[Tuple[_Int, _Int, _Int]], /) -> List[int]:
    """``[pow(b, e, m) for (b, e, m) in triples]`` in parallel over all cores."""

def pow_batch_ct(triples: Iterable[Tuple[_Int, _Int, _Int]], /) -> List[int]:
    """``pow_batch`` in constant time (odd m, exps >= 0), eight per pass in the IFMA lanes."""

def is_prime(n: _Int, /) -> bool:
    """Baillie–PSW probable-prime test (exact below 2^64); False below 2, as gmpy2."""

def next_prime(n: _Int, /) -> int:
    """The least (probable) prime greater than ``n`` (2 for any ``n < 2``, as gmpy2)."""

def is_prime_many(ns: Iterable[_Int], /) -> List[bool]:
    """``[is_prime(n) for n in ns]`` in parallel over all cores."""

def methods() -> Dict[str, Dict[str, str]]:
    """``{"reducers": {name: summary}, "methods": {name: summary}}`` (the CLI's names)."""

def evm_modexp(data: Union[bytes, bytearray], fork: str = "osaka") -> Tuple[bytes, int]:
    """The MODEXP precompile (0x05) on call data ``data``: ``(output, gas)`` under ``fork``
    ("osaka", "berlin" or "byzantium"); ValueError for an input the fork rejects."""

def evm_gas(data: Union[bytes, bytearray], fork: str = "osaka") -> int:
    """The MODEXP gas of call data ``data`` under ``fork``."""

@final
class Modulus:
    """A modulus context built once for ``m`` and reused; immutable, thread-safe, picklable."""

    def __new__(cls, m: _Int, reducer: str = "auto") -> "Modulus": ...
    @property
    def modulus(self) -> int:
        """The modulus m."""
    @property
    def reducer(self) -> str:
        """The reducer name given to the constructor."""
    @property
    def reducer_used(self) -> Optional[str]:
        """The reducer in use ("auto" resolved), None for m = 1."""
    @property
    def bits(self) -> int:
        """The bit length of m."""
    def reduce(self, x: _Int) -> int:
        """``x % m``."""
    def mul(self, a: _Int, b: _Int) -> int:
        """``a * b % m``."""
    def sqr(self, a: _Int) -> int:
        """``a * a % m``."""
    def pow(
        self,
        base: _Int,
        exp: _Int,
        method: str = "auto",
        window: Optional[int] = None,
        threads: Optional[int] = None,
    ) -> int:
        """``pow(base, exp, m)`` by ``method`` (see ``methods()["methods"]``)."""
    def pow_ct(self, base: _Int, exp: _Int) -> int:
        """``pow(base, exp, m)`` in constant time (odd m, exp >= 0)."""
    def inverse(self, a: _Int) -> int:
        """``pow(a, -1, m)``; ValueError if gcd(a, m) != 1."""
    def pow_many(self, bases: Iterable[_Int], exps: Union[_Int, Iterable[_Int]]) -> List[int]:
        """``[pow(b, e, m) for b, e in zip(bases, exps)]`` over all cores."""
    def pow_many_ct(self, bases: Iterable[_Int], exps: Union[_Int, Iterable[_Int]]) -> List[int]:
        """``pow_many`` in constant time (odd m, exps >= 0), eight per pass in the IFMA lanes."""
    def pow_batch(self, pairs: Iterable[Tuple[_Int, _Int]]) -> List[int]:
        """``[pow(b, e, m) for b, e in pairs]`` over all cores."""
    def fixed_base(self, base: _Int) -> "FixedBase":
        """Precomputed tables for powers of ``base``."""
    def __eq__(self, value: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __reduce__(self) -> Tuple[type, Tuple[int, str]]: ...

@final
class FixedBase:
    """Powers of one base modulo a ``Modulus``, from precomputed tables."""

    def __new__(cls, modulus: Modulus, base: _Int) -> "FixedBase": ...
    @property
    def base(self) -> int:
        """The base reduced modulo m."""
    @property
    def modulus(self) -> Modulus:
        """The Modulus."""
    @property
    def period(self) -> Optional[Tuple[int, int]]:
        """The detected (offset, period) of base^(2^i) mod m, if any."""
    def pow(self, exp: _Int, threads: Optional[int] = None) -> int:
        """``pow(base, exp, m)`` from the tables."""
    def __reduce__(self) -> Tuple[type, Tuple[Modulus, int]]: ...

@final
class RsaKey:
    """An RSA key for the raw operations (no padding); immutable, thread-safe, picklable."""

    @staticmethod
    def from_pem(data: Union[bytes, bytearray, str]) -> "RsaKey":
        """A private or public key in PEM (PKCS#1, PKCS#8, SubjectPublicKeyInfo; unencrypted)."""
    @staticmethod
    def from_der(data: Union[bytes, bytearray]) -> "RsaKey":
        """A private or public key in DER."""
    @staticmethod
    def from_components(
        n: _Int,
        e: _Int,
        d: Optional[_Int] = None,
        p: Optional[_Int] = None,
        q: Optional[_Int] = None,
    ) -> "RsaKey":
        """The key (n, e, d, p, q); p and q recovered when omitted; public-only without d."""
    @property
    def n(self) -> int:
        """The modulus n."""
    @property
    def e(self) -> int:
        """The public exponent e."""
    @property
    def bits(self) -> int:
        """The bit length of n."""
    @property
    def size(self) -> int:
        """The length of n in bytes."""
    @property
    def has_private(self) -> bool:
        """Whether ``private_op`` is available."""
    @overload
    def private_op(self, x: Union[bytes, bytearray]) -> bytes: ...
    @overload
    def private_op(self, x: _Int) -> int: ...
    def private_op_many(self, xs: Iterable[_Int]) -> List[int]: ...
    @overload
    def public_op(self, x: Union[bytes, bytearray]) -> bytes: ...
    @overload
    def public_op(self, x: _Int) -> int: ...
    def __reduce__(
        self,
    ) -> Tuple[Callable[..., "RsaKey"], Tuple[int, ...]]: ...
