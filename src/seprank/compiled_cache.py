"""Where numba keeps seprank's compiled kernels: a per-user folder, never the package.

numba's ``cache=True`` writes ``.nbi``/``.nbc`` files into a ``__pycache__``
folder beside the source file unless ``NUMBA_CACHE_DIR`` names another place.
For an installed package that is ``site-packages/seprank/**/__pycache__``:
files that pip does not know about, which survive ``pip uninstall`` and then
make ``site-packages/seprank`` a namespace package that hides a later editable
install (the README's two commands, run one after the other, failed that way).

So, before any numba kernel of seprank is defined, :func:`configure_numba_cache`
points numba at a per-user cache folder:

1. ``NUMBA_CACHE_DIR`` if the user set it (respected as it is);
2. else ``$XDG_CACHE_HOME/seprank/numba`` (``~/.cache/seprank/numba``) when it
   can be created and written;
3. else a fresh private temporary folder for this process (compiled kernels are
   then not reused across runs, but nothing is written beside the sources).
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

__all__ = ["configure_numba_cache", "user_cache_dir"]


def user_cache_dir() -> Path:
    """The per-user folder for seprank's numba cache (not created here).

    Examples
    --------
    >>> user_cache_dir().parts[-2:]
    ('seprank', 'numba')
    """
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "seprank" / "numba"


def _writable(folder: Path) -> bool:
    try:
        folder.mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=folder).close()
    except OSError:
        return False
    return True


def configure_numba_cache() -> str:
    """Set numba's cache folder (see the module docstring) and return it.

    Sets the ``NUMBA_CACHE_DIR`` environment variable, so that worker processes
    (Dask) use the same folder, and numba's live configuration if numba is
    already imported. Idempotent.

    Examples
    --------
    >>> folder = configure_numba_cache()
    >>> os.environ["NUMBA_CACHE_DIR"] == folder
    True
    >>> import seprank
    >>> Path(seprank.__file__).parent in Path(folder).parents
    False
    """
    folder = os.environ.get("NUMBA_CACHE_DIR", "")
    if not folder:
        candidate = user_cache_dir()
        if _writable(candidate):
            folder = str(candidate)
        else:
            folder = tempfile.mkdtemp(prefix="seprank-numba-")
        os.environ["NUMBA_CACHE_DIR"] = folder
    numba = sys.modules.get("numba")
    if numba is not None and getattr(numba.config, "CACHE_DIR", None) != folder:
        numba.config.CACHE_DIR = folder
    return folder
