"""A memory probe for estimates: run a computation in a fresh process and measure its peak.

:func:`measure` runs ``setup`` (inputs built, kernels warmed; not measured), then resets
the process's peak resident set size (``/proc/self/clear_refs``, Linux 4.0+), runs
``run``, and reads the new peak (``VmHWM``) minus the resident size just before: the
memory the computation itself took. ``estimate`` is Python that evaluates to the
:class:`seprank.budget.Estimate` of the same computation, made in the same process
after the run. Used by ``tests/test_budget_peaks.py`` and ``benchmarks/budget_rates.py``.

What other processes can add, and how it is taken out: on a loaded machine the kernel may
evict file-backed pages of this process (the code of numpy, numba, llvmlite: tens of MB)
before the base is read; the run faults them back in, and VmHWM counts them as if the
computation had allocated them (issue 31: ``sep grid`` measured 126 MB against a 71 MB
estimate under load, 60 MB alone). ``peak`` therefore subtracts the growth of the
file-backed resident size (``RssFile``) over the run: what the estimates are about is the
data a computation allocates, not the library code it touches. ``peak_total`` keeps the
uncorrected number.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

__all__ = ["measure", "probe_available"]

_HARNESS = """
import gc, json, time
def _status(key):
    with open('/proc/self/status') as fh:
        for line in fh:
            if line.startswith(key):
                return int(line.split()[1]) * 1024
{setup}
gc.collect()
with open('/proc/self/clear_refs', 'w') as fh:
    fh.write('5')
_base, _file0 = _status('VmRSS'), _status('RssFile')
_t0 = time.perf_counter()
{run}
_dt = time.perf_counter() - _t0
_total = _status('VmHWM') - _base
_peak = _total - max(0, _status('RssFile') - _file0)
_est = ({estimate})
print('PROBE ' + json.dumps({{'peak': _peak, 'peak_total': _total, 'seconds': _dt,
                              'estimate': _est.nbytes, 'estimate_seconds': _est.seconds,
                              'what': _est.what, 'operations': float(_est.operations)}}))
"""


def probe_available() -> bool:
    """Whether this system lets a process reset its peak RSS (Linux /proc/self/clear_refs)."""
    return sys.platform.startswith("linux") and os.path.exists("/proc/self/clear_refs")


def measure(setup: str, run: str, estimate: str, *, timeout: float = 600) -> dict:
    """{'peak', 'peak_total', 'seconds', 'estimate', 'estimate_seconds', 'what',
    'operations'} of one run (``peak``: without file-backed pages faulted back in)."""
    code = _HARNESS.format(setup=textwrap.dedent(setup), run=textwrap.dedent(run),
                           estimate=estimate)
    env = dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=timeout, env=env)
    for line in out.stdout.splitlines():
        if line.startswith("PROBE "):
            return json.loads(line[6:])
    raise RuntimeError(f"probe failed: {out.stderr[-2000:]}")
