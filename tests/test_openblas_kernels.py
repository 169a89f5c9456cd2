"""OpenBLAS kernel choice on AMD Zen 5 (seprank.runtime.openblas_kernels): when, and that it
stays exact."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

from seprank.runtime.openblas_kernels import AVX512_FLAGS, _cpu, choose_openblas_kernels

ALL = " ".join(sorted(AVX512_FLAGS))


def cpuinfo(vendor="AuthenticAMD", family=26, flags=f"fpu avx2 fma {ALL}") -> str:
    block = f"processor\t: 0\nvendor_id\t: {vendor}\ncpu family\t: {family}\nflags\t\t: {flags}\n"
    return block + "\n" + block.replace(": 0", ": 1")


@pytest.mark.parametrize("env, info, modules, expected", [
    ({}, cpuinfo(), {}, "SkylakeX"),
    ({}, cpuinfo(family=27), {}, "SkylakeX"),                   # later AMD families too
    ({}, cpuinfo(family=25), {}, None),                         # Zen 3/4: OpenBLAS detects them
    ({}, cpuinfo(vendor="GenuineIntel", family=6), {}, None),   # Intel: detected
    ({}, cpuinfo(flags=ALL.replace("avx512vl", "")), {}, None),  # a subset missing
    ({"OPENBLAS_CORETYPE": "Haswell"}, cpuinfo(), {}, None),    # the user's choice stands
    ({"SEPRANK_KEEP_BLAS_KERNELS": "1"}, cpuinfo(), {}, None),  # opt-out
    ({}, cpuinfo(), {"numpy": object()}, None),                 # too late: OpenBLAS loaded
    ({}, "garbage without colons\n\n", {}, None),
])
def test_decision(env, info, modules, expected):
    before = dict(env)
    assert choose_openblas_kernels(env, info, modules) == expected
    if expected is None:
        assert env == before
    else:
        assert env == {**before, "OPENBLAS_CORETYPE": expected}


def test_cpu_parser_reads_the_first_processor():
    vendor, family, flags = _cpu(cpuinfo(family=26) + cpuinfo(family=6))
    assert (vendor, family) == ("AuthenticAMD", 26) and AVX512_FLAGS <= flags


def _this_cpu_is_zen5() -> bool:
    try:
        vendor, family, flags = _cpu(open("/proc/cpuinfo").read(1 << 16))
    except OSError:
        return False
    return vendor == "AuthenticAMD" and family >= 26 and AVX512_FLAGS <= flags


def _run(code: str, **env_changes) -> str:
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_CORETYPE"}
    env.update(env_changes)
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


ARCH = ("import seprank, numpy\nfrom threadpoolctl import threadpool_info\n"
        "print(' '.join(i.get('architecture') or '?' for i in threadpool_info()"
        " if i.get('internal_api') == 'openblas'))")


@pytest.mark.skipif(not _this_cpu_is_zen5(), reason="only AMD Zen 5 and later get the choice")
def test_import_seprank_first_selects_avx512_kernels():
    assert "SkylakeX" in _run(ARCH).split()
    assert "SkylakeX" not in _run(ARCH, OPENBLAS_CORETYPE="Haswell").split()


@pytest.mark.skipif(not _this_cpu_is_zen5(), reason="needs AVX-512 to run the SkylakeX kernels")
def test_products_stay_exact_with_the_avx512_kernels():
    """Integer products below 2^53 computed by the chosen kernels equal exact int64 ones."""
    code = (
        "import seprank, numpy as np\n"
        "rng = np.random.default_rng(5)\n"
        "bad = 0\n"
        "for n in (7, 64, 257, 600):\n"
        "    a = rng.integers(0, 2**20, size=(n, 256)); b = rng.integers(0, 2**20, size=(256, n))\n"
        "    bad += int((((a.astype(float) @ b.astype(float)).astype(np.int64)) != a @ b).sum())\n"
        "print(bad)\n")
    # 256 terms below 2^40 each: every partial sum is below 2^48, exact in float64
    assert _run(code) == "0"


def test_exactness_premise_in_this_process():
    """The premise the engines rely on, under whatever kernels this process has."""
    rng = np.random.default_rng(11)
    a = rng.integers(-(2**20), 2**20, size=(300, 512))
    b = rng.integers(-(2**20), 2**20, size=(512, 200))
    assert np.array_equal((a.astype(float) @ b.astype(float)).astype(np.int64), a @ b)
