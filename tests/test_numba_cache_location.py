"""numba's compiled-kernel cache never lands inside the installed package (issue 14).

With ``cache=True`` and no ``NUMBA_CACHE_DIR``, numba wrote ``.nbi``/``.nbc``
files into ``site-packages/seprank/**/__pycache__``; after ``pip install -e``
those folders made ``seprank`` a namespace package and hid the editable
install (18 collection errors). Each case runs in a fresh interpreter, because
numba picks the cache folder of a kernel when the kernel is defined.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import seprank

PACKAGE = Path(seprank.__file__).resolve().parent

_PROBE = """
import json, os, numpy as np
import seprank, numba
r = seprank.rank(np.eye(640, dtype=np.int64), "modular", engine="numba")
print(json.dumps({"cache": numba.config.CACHE_DIR, "env": os.environ.get("NUMBA_CACHE_DIR"),
                  "rank": r.value}))
"""


def _probe(env_update: dict[str, str | None], cwd: Path) -> dict:
    env = dict(os.environ)
    for k, v in env_update.items():
        if v is None:
            env.pop(k, None)
        else:
            env[k] = v
    proc = subprocess.run([sys.executable, "-c", _PROBE], env=env, cwd=cwd,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _cache_files_in_package() -> list[Path]:
    return [p for p in PACKAGE.rglob("*") if p.suffix in (".nbi", ".nbc")]


def test_default_cache_is_per_user_and_outside_the_package(tmp_path):
    out = _probe({"NUMBA_CACHE_DIR": None, "XDG_CACHE_HOME": str(tmp_path / "xdg")}, tmp_path)
    assert out["rank"] == 640
    assert out["cache"] == out["env"] == str(tmp_path / "xdg" / "seprank" / "numba")
    assert any(p.suffix == ".nbi" for p in (tmp_path / "xdg").rglob("*"))
    assert _cache_files_in_package() == []


def test_unwritable_cache_home_falls_back_to_a_private_temporary_folder(tmp_path):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the cache home should be")
    out = _probe({"NUMBA_CACHE_DIR": None, "XDG_CACHE_HOME": str(blocker)}, tmp_path)
    assert out["rank"] == 640
    assert "seprank-numba-" in out["cache"]
    assert not Path(out["cache"]).resolve().is_relative_to(PACKAGE)
    assert _cache_files_in_package() == []


def test_a_user_numba_cache_dir_is_respected(tmp_path):
    mine = tmp_path / "mine"
    out = _probe({"NUMBA_CACHE_DIR": str(mine)}, tmp_path)
    assert out["cache"] == str(mine)
    assert _cache_files_in_package() == []
