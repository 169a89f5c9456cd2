"""Exact ranks over Q from computations mod p: multimodular ranks with exact kernel checks
(:mod:`~.multimodular`, :mod:`~.kernel_check`) and Dixon lifting of kernels
(:mod:`~.dixon`, from residues without a wide integer matrix: :mod:`~.dixon_residues`).
"""
