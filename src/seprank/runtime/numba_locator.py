"""numba's cache locator for seprank's kernels: keyed by seprank's version and each
module's place in the package, not by the folder it is installed in.

numba keys a cached kernel by the absolute folder of its source file (a hash of it) and
by the file's content (numba >= 0.61: a SHA-256 of the source). So every new virtual
environment, and every fresh clone, compiled every kernel again (about a minute on two
cores). :class:`PackageCacheLocator` keeps numba's content stamp and replaces the folder
by ``<NUMBA_CACHE_DIR>/seprank-<version>/<folders inside the package>``: the same
sources in another install find the kernels already compiled. Files outside the package
are left to numba's own locators. :mod:`seprank.runtime.compiled_cache` installs it through
numba's ``NUMBA_CACHE_LOCATOR_CLASSES`` (numba imports this module only when it caches a
kernel).
"""

from __future__ import annotations

import os
from pathlib import Path

from numba.core import config
from numba.core.caching import UserProvidedCacheLocator

__all__ = ["PackageCacheLocator", "package_cache_path"]

from seprank.runtime.package import PACKAGE_DIR as _ROOT  # noqa: E402


def package_cache_path(py_file: str) -> str | None:
    """The cache folder of a seprank source file (None: not a file of the package).

    >>> import seprank.linalg.engines.modular_lu as m
    >>> package_cache_path(m.__file__).endswith(os.path.join("linalg", "engines"))
    True
    >>> package_cache_path("/tmp/elsewhere.py") is None
    True
    """
    try:
        rel = Path(py_file).resolve().relative_to(_ROOT)
    except (ValueError, OSError):
        return None
    from seprank.runtime.package import VERSION

    return os.path.join(config.CACHE_DIR, f"seprank-{VERSION}", *rel.parent.parts)


class PackageCacheLocator(UserProvidedCacheLocator):
    """numba's user-directory locator, with the folder of :func:`package_cache_path`.

    >>> import seprank.separation.moment.term_table as t
    >>> loc = PackageCacheLocator.from_function(t._build.py_func, t.__file__)
    >>> loc.get_cache_path() == package_cache_path(t.__file__)
    True
    >>> PackageCacheLocator.from_function(t._build.py_func, "/tmp/elsewhere.py") is None
    True
    """

    def __init__(self, py_func, py_file):
        super().__init__(py_func, py_file)
        self._cache_path = package_cache_path(py_file)

    @classmethod
    def from_function(cls, py_func, py_file):
        if not config.CACHE_DIR or package_cache_path(py_file) is None:
            return None
        return super().from_function(py_func, py_file)
