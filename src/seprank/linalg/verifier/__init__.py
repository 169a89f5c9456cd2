"""The independent verifier of rank certificates: :func:`seprank.verify`.

It shares no code with the engines that produce certificates (a layer rule in
tests/test_house.py): its own elimination mod p (:mod:`~.elimination`), its own
exact product check (:mod:`~.kernel`), its own primality test (:mod:`~.primes`) and
its own reading of a certificate's snapshot (:mod:`~.snapshot`);
:mod:`~.verify` puts them together.
"""
