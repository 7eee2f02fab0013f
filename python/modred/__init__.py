"""modred: fast multi-precision modular reduction, multiplication and exponentiation.

A Rust library (PyO3 extension) with a faster ``pow(b, e, m)`` and the whole toolbox behind it:

- ``powmod(b, e, m)``: exactly the built-in ``pow(b, e, m)`` for ints, only faster;
- ``Modulus(m, reducer="auto")``: a context built once for ``m`` with ``reduce``, ``mul``,
  ``sqr``, ``pow`` (any method), ``pow_ct`` (constant time), ``inverse``, ``pow_many`` /
  ``pow_batch`` (all cores) and ``fixed_base`` (precomputed tables for one base);
- ``pow_batch(triples)``: independent ``(b, e, m)`` triples over all cores (``pow_batch_ct``:
  constant time);
- ``methods()``: the reducer and exponentiation method names (the CLI's);
- ``evm_modexp(data, fork="osaka")`` / ``evm_gas(data, fork="osaka")``: the Ethereum MODEXP
  precompile (EIP-198 input; EIP-198, EIP-2565 or EIP-7883 gas; EIP-7823's cap);
- ``is_prime(n)``, ``next_prime(n)``, ``is_prime_many(ns)``: the Baillie–PSW probable-prime
  test (gmpy2's conventions below 2), the least prime above ``n``, many tests on all cores;
- ``RsaKey.from_pem(data)`` / ``from_der`` / ``from_components(n, e, d, p, q)``: raw RSA
  ``private_op`` (CRT, blinding, constant time, result checked) and ``public_op``.

Long calls release the GIL; ``Modulus``, ``FixedBase`` and ``RsaKey`` are immutable,
thread-safe and picklable.
"""

from ._modred import (FixedBase, Modulus, RsaKey, evm_gas, evm_modexp, is_prime, is_prime_many,
                      methods, next_prime, pow_batch, pow_batch_ct, powmod)

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
__version__ = "0.1.0"
