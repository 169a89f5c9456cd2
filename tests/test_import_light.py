"""``import seprank`` stays light: the heavy libraries load on first use (issue 13).

Measured on the shared 2-core machine (2026-11-23): ``import seprank`` 0.12-0.19 s
wall at load 0.7 and 0.25-0.43 s at load 6 (0.09 s in seprank by ``-X
importtime``); before, 0.60-0.78 s at load 0.7 and 0.85-0.96 s at load 6, with
SymPy (and, on main with the separation module, numba) loaded at import. A time
bound would be flaky, so the test asserts which modules an import loads.
"""

import subprocess
import sys

HEAVY = ("sympy", "numba", "dask", "distributed", "matplotlib", "networkx", "pydantic")


def _loaded_after(statement: str) -> set[str]:
    code = (f"import sys; {statement}; "
            f"print(' '.join(m for m in {HEAVY!r} if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    return set(out.split())


def test_import_seprank_loads_no_heavy_library():
    assert _loaded_after("import seprank") == set()


def test_import_proof_framework_loads_no_heavy_library():
    # a plugin's check module imports seprank.proof; that must stay cheap as well
    assert _loaded_after("import seprank.proof") == set()
