"""The installed package: its version and its folder (one home for both).

``seprank.__version__`` is :data:`VERSION`; modules low in the house read it here
instead of importing the package facade.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["VERSION", "PACKAGE_DIR"]

#: the package version (also ``seprank.__version__`` and pyproject.toml's ``version``)
VERSION = "0.1.0"
#: the folder of the installed ``seprank`` package
PACKAGE_DIR = Path(__file__).resolve().parents[1]
