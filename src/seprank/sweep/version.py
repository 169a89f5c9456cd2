"""The code version a sweep's results are stored under: package version and source hash.

Its own module because both ends of a sweep need it: the computations stamp every
outcome with it (a client refuses results of other code), and the store keys tasks by
it; the store also needs the spec, which needs the computations.
"""

from __future__ import annotations

import hashlib
import importlib.util
from functools import lru_cache
from pathlib import Path

__all__ = ["code_version"]


@lru_cache(maxsize=1)
def code_version() -> str:
    """``<version>+<hash>``: the package version and a hash of its Python sources.

    The hash covers every ``.py`` file of ``seprank`` and of every installed
    check package (``seprank_proofs`` and the plugins of the ``seprank.checks``
    entry-point group), so any edit to the code gives a new version.

    Examples
    --------
    >>> v = code_version()
    >>> v.startswith("0.") and len(v.split("+")[1]) == 12
    True
    """
    from seprank.runtime.package import PACKAGE_DIR, VERSION

    digest = hashlib.sha256()
    roots = [PACKAGE_DIR]
    from seprank.proof.registry import plugin_packages

    for package in plugin_packages().values():  # every installed check package
        spec = importlib.util.find_spec(package)
        if spec is not None and spec.submodule_search_locations:
            roots.extend(Path(p) for p in spec.submodule_search_locations)
        elif spec is not None and spec.origin:  # a single-module plugin
            roots.append(Path(spec.origin))
    for root in roots:
        files = [root] if root.is_file() else sorted(root.rglob("*.py"))
        for path in files:
            rel = path.name if root.is_file() else path.relative_to(root).as_posix()
            digest.update(f"{root.name}/{rel}\n".encode())
            digest.update(path.read_bytes())
    return f"{VERSION}+{digest.hexdigest()[:12]}"
