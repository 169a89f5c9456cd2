"""Sphinx configuration of seprank's API reference (docs/api/).

Build (the ``[docs]`` extra; ``.ci/run`` runs it with warnings as errors)::

    python -m sphinx -W --keep-going -q -b html docs/api /tmp/seprank-api

The pages are written by hand (one per public package or module), and autodoc
reads the docstrings (NumPy style, through napoleon). Nothing is generated into
this folder: the output goes where the command says, never into the tree.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "src"))   # a checkout without `pip install -e .` builds too

import seprank  # noqa: E402

project = "seprank"
author = "the seprank authors"
copyright = "seprank authors, MIT licence"
release = version = seprank.__version__

extensions = ["sphinx.ext.autodoc", "sphinx.ext.napoleon"]
napoleon_google_docstring = False
napoleon_numpy_docstring = True
napoleon_use_rtype = False
napoleon_use_ivar = True

autodoc_default_options = {"members": True, "member-order": "bysource"}
autodoc_typehints = "signature"
autodoc_preserve_defaults = True

html_theme = "alabaster"
html_static_path: list[str] = []
html_show_sourcelink = False
exclude_patterns = ["_build"]
