"""The verifier's own primality test (issue 12: verify speed without a SymPy import)."""


def test_verifier_primality_agrees_with_sympy():
    """The verifier's own Miller-Rabin (no SymPy import on the common path) against SymPy,
    on small n, Carmichael numbers, strong pseudoprimes to several bases and word-size n."""
    import sympy

    from seprank.linalg.verify import _isprime

    cases = list(range(-3, 3000)) + [561, 1105, 41041, 3215031751, 2152302898747,
                                      3474749660383, 341550071728321, 3825123056546413051,
                                      2**31 - 1, 2**61 - 1, 2**63 - 25, 2**64 - 59,
                                      (2**31 - 1) * (2**31 + 11), 2**89 - 1, 2**89 + 1]
    assert [_isprime(n) for n in cases] == [bool(sympy.isprime(n)) for n in cases]
