"""Sphinx configuration of seprank's manual (docs/): the pages are MyST Markdown, the API
reference (docs/api/) reStructuredText read by autodoc from the docstrings.

Build (the ``[docs]`` extra; ``.ci/run`` runs it with warnings as errors)::

    python -m sphinx -W --keep-going -b html docs docs/_build/html

then open ``docs/_build/html/index.html``. The pages' examples run as tests
(``tests/test_docs_pages.py``). The folders of results that the pages cite (the atlas,
the sweeps, the committed report and erratum sheets, the notebook) are not pages of the
site: they are files in the repository, named by their paths. Nothing is generated into
the source folders: the output goes where the command says (``docs/_build`` is ignored by
git).
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))   # a checkout without `pip install -e .` builds too

import seprank  # noqa: E402

project = "seprank"
author = "the seprank authors"
copyright = "seprank authors, MIT licence"
release = version = seprank.__version__

extensions = ["myst_parser", "sphinx.ext.autodoc", "sphinx.ext.napoleon"]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
myst_heading_anchors = 3          # "#answer-kinds"-style links to sections of a page

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
# result folders and scripts beside the pages, not pages of the site
exclude_patterns = ["_build", "atlas", "sweeps", "report", "errata", "notebooks",
                    "**/README.md"]
