"""Executable checks, one module per mission-map row (installed as ``seprank_proofs``).

Every module registers its check with :func:`seprank.proof.check`; ``seprank
prove`` and ``pytest proofs/`` run the same registry.
"""
