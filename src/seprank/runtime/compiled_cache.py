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

Inside that folder the kernels are keyed by seprank's version, each module's place in
the package and the content of its source (:mod:`seprank.runtime.numba_locator`), not by the
folder the package is installed in: a new virtual environment or a fresh clone of the
same sources reuses them. :data:`LOCATORS` is handed to numba through
``NUMBA_CACHE_LOCATOR_CLASSES`` unless the user set that variable.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

__all__ = ["configure_numba_cache", "user_cache_dir", "LOCATORS", "pending_compilation",
           "COMPILE_SECONDS"]

#: numba's cache locators, seprank's first (numba's own names for the rest, its order)
LOCATORS = ("seprank.runtime.numba_locator.PackageCacheLocator,UserProvidedCacheLocator,"
            "InTreeCacheLocator,UserWideCacheLocator,IPythonCacheLocator,ZipCacheLocator")


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
    locators = os.environ.setdefault("NUMBA_CACHE_LOCATOR_CLASSES", LOCATORS)
    numba = sys.modules.get("numba")
    if numba is not None:
        if getattr(numba.config, "CACHE_DIR", None) != folder:
            numba.config.CACHE_DIR = folder
        if not getattr(numba.config, "CACHE_LOCATOR_CLASSES", ""):
            numba.config.CACHE_LOCATOR_CLASSES = locators
    return folder


#: Seconds numba takes to compile each module's kernels on a cold cache (measured on the
#: 2-core project machine, idle, 2026-11-28, benchmarks/results/compile_times.json; the
#: block gather and the fused product of 2026-11-29 measured alone, 1.7 s and 0.5 s): what
#: an estimate adds when :func:`pending_compilation` finds them uncompiled.
COMPILE_SECONDS = {
    "seprank.linalg.engines.modular_lu": 9.0,
    "seprank.models.moment_mod_p": 30.0,
    "seprank.models.network_mod_p": 6.0,
    "seprank.separation.moment.term_table": 4.0,
    "seprank.separation.moment.expansion_mod": 1.0,
}


def pending_compilation(modules) -> tuple[list[str], float]:
    """(modules none of whose numba kernels is in the cache yet, estimated compile seconds).

    Imports each module (so numba is loaded) and asks its cached kernels for their index
    files; a kernel compiled before (by any install of the same sources,
    :mod:`seprank.runtime.numba_locator`) has one. A module counts as compiled once any of its
    kernels is: the first run compiles the kernels every run uses, and a kernel of a rarer
    path costs seconds, not the first run's minute.

    >>> names, seconds = pending_compilation(["seprank.separation.moment.term_table"])
    >>> isinstance(names, list) and seconds >= 0
    True
    """
    import importlib

    pending = []
    for name in modules:
        mod = importlib.import_module(name)
        indexes = [getattr(getattr(getattr(obj, "_cache", None), "_cache_file", None),
                           "_index_path", None) for obj in vars(mod).values()]
        indexes = [i for i in indexes if i is not None]
        if indexes and not any(os.path.exists(i) for i in indexes):
            pending.append(name)
    return pending, float(sum(COMPILE_SECONDS.get(n, 5.0) for n in pending))
