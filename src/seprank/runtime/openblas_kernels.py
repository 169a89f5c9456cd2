"""Let OpenBLAS use its AVX-512 kernels on AMD Zen 5, which its detection misses.

Why: the modular engines spend most of their time in float64 matrix products
(exact on integers below 2^53, :mod:`seprank.linalg.engines.modular_lu`), so the speed
of BLAS's DGEMM is the speed of an exact rank. The OpenBLAS that numpy's wheels
bundle (0.3.31 here) does not recognise AMD's CPU family 26 (Zen 5) and falls
back to its Haswell (AVX2) kernels; upstream fixed the detection in September
2026 (OpenMathLib/OpenBLAS issue 6029, pull request 6033). On a 2-core Zen 5
machine the AVX-512 kernels make DGEMM and the numba modular LU markedly faster
(the measurements are in benchmarks/README.md, section ``rank_engines.py``).

What: :func:`choose_openblas_kernels` sets ``OPENBLAS_CORETYPE=SkylakeX`` before
numpy loads OpenBLAS, and only when all of these hold: numpy is not imported
yet (afterwards the choice is made and cannot change); the user has set neither
``OPENBLAS_CORETYPE`` nor ``SEPRANK_KEEP_BLAS_KERNELS``; the CPU is an AMD of
family 26 or later that reports avx512f, avx512cd, avx512bw, avx512dq and
avx512vl (the instruction sets the SkylakeX kernels use) in /proc/cpuinfo.
``import seprank`` calls it first, so the ``seprank`` command always gets it;
a program that imports numpy before seprank keeps OpenBLAS's own choice.

Exactness does not depend on the kernel: a product of integer matrices whose
partial sums stay below 2^53 in absolute value is exact in float64 in any
summation order, with or without fused multiply-add, and the engines' bounds
are on sums of absolute values.
"""

from __future__ import annotations

import os
import sys

__all__ = ["choose_openblas_kernels", "AVX512_FLAGS"]

#: the AVX-512 subsets OpenBLAS's SkylakeX kernels need
AVX512_FLAGS = frozenset({"avx512f", "avx512cd", "avx512bw", "avx512dq", "avx512vl"})
#: the first AMD CPU family (0x1A, Zen 5) that numpy's bundled OpenBLAS does not detect
FIRST_UNDETECTED_AMD_FAMILY = 26


def _cpu(cpuinfo: str) -> tuple[str, int, set[str]]:
    """(vendor, family, flags) of the first processor in /proc/cpuinfo text."""
    vendor, family, flags = "", -1, set()
    for line in cpuinfo.splitlines():
        key, _, value = line.partition(":")
        key = key.strip()
        if key == "vendor_id" and not vendor:
            vendor = value.strip()
        elif key == "cpu family" and family < 0:
            try:
                family = int(value.strip())
            except ValueError:
                family = -1
        elif key == "flags" and not flags:
            flags = set(value.split())
        if not line.strip() and vendor:  # end of the first processor's block
            break
    return vendor, family, flags


def choose_openblas_kernels(environ=None, cpuinfo: str | None = None,
                            modules=None) -> str | None:
    """Set ``OPENBLAS_CORETYPE=SkylakeX`` on AMD Zen 5 and later; return what was set.

    Returns the core type set, or None when nothing was changed (see the
    module docstring for the conditions). ``environ``, ``cpuinfo`` and
    ``modules`` default to ``os.environ``, the text of /proc/cpuinfo and
    ``sys.modules``; they are parameters so that the decision can be tested.

    Examples
    --------
    >>> zen5 = ("vendor_id : AuthenticAMD\\ncpu family : 26\\n"
    ...         "flags : avx2 avx512f avx512cd avx512bw avx512dq avx512vl\\n")
    >>> env = {}
    >>> choose_openblas_kernels(env, zen5, modules={}), env
    ('SkylakeX', {'OPENBLAS_CORETYPE': 'SkylakeX'})
    >>> choose_openblas_kernels({"OPENBLAS_CORETYPE": "Haswell"}, zen5, modules={}) is None
    True
    >>> choose_openblas_kernels({}, zen5.replace("26", "25"), modules={}) is None  # Zen 4
    True
    """
    environ = os.environ if environ is None else environ
    modules = sys.modules if modules is None else modules
    if "numpy" in modules or "OPENBLAS_CORETYPE" in environ \
            or environ.get("SEPRANK_KEEP_BLAS_KERNELS"):
        return None
    if cpuinfo is None:
        if not sys.platform.startswith("linux"):
            return None
        try:
            with open("/proc/cpuinfo", encoding="ascii", errors="replace") as fh:
                cpuinfo = fh.read(1 << 16)
        except OSError:
            return None
    vendor, family, flags = _cpu(cpuinfo)
    if vendor != "AuthenticAMD" or family < FIRST_UNDETECTED_AMD_FAMILY \
            or not AVX512_FLAGS <= flags:
        return None
    environ["OPENBLAS_CORETYPE"] = "SkylakeX"
    return "SkylakeX"
