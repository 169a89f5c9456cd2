"""Old import paths of modules that moved (issue 29, the house's second step), kept with a
deprecation warning.

The package's folders were regrouped (``separation/`` as a tree of routes, the linalg
engines, verifier and rational methods as subpackages, the loose top-level modules in
``runtime/``, ``files/`` and ``hadamard/``). Code that imports a module by its old path
still works: :func:`install` puts a finder on ``sys.meta_path`` that answers an old name
with the module at its new path (the same object, not a copy) and warns once with
``DeprecationWarning``. The old names go in seprank 0.3. Nothing else is done here: the
table is data, and no module of the package imports an old name (tests/test_house.py).
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys
import warnings

__all__ = ["MOVED", "install"]

#: old dotted module name -> its new home
MOVED: dict[str, str] = {
    "seprank.separation.gridroute": "seprank.separation.grid.route",
    "seprank.separation.template_grid": "seprank.separation.grid.template",
    "seprank.separation.moment_grid": "seprank.separation.grid.moment_values",
    "seprank.separation.embedded": "seprank.separation.embedding.route",
    "seprank.separation.moment_route": "seprank.separation.moment.route",
    "seprank.separation.moment_apolar": "seprank.separation.moment.apolar",
    "seprank.separation.moment_blocks": "seprank.separation.moment.blocks",
    "seprank.separation.moment_embedding": "seprank.separation.moment.embedding",
    "seprank.separation.moment_plan": "seprank.separation.moment.plan",
    "seprank.separation.moment_ranks": "seprank.separation.moment.ranks",
    "seprank.separation.moment_run": "seprank.separation.moment.run",
    "seprank.separation.moment_sparse": "seprank.separation.moment.sparse",
    "seprank.separation.moment_tasks": "seprank.separation.moment.tasks",
    "seprank.separation.moment_tokens": "seprank.separation.moment.tokens",
    "seprank.separation.term_table": "seprank.separation.moment.term_table",
    "seprank.separation.moment_eval": "seprank.models.moment_mod_p",
    "seprank.separation.weights": "seprank.models.weights",
    "seprank.schemas.weights": "seprank.models.weights_schema",
    "seprank.separation.moment_form": "seprank.network_theory.moment_form",
    "seprank.proof.paper": "seprank.paper_hooks.paper_record",
    "seprank.proof.outline": "seprank.paper_hooks.outline",
    "seprank.schemas.report": "seprank.proof.report.model",
    "seprank.schemas.sweep_spec": "seprank.sweep.spec_schema",
    "seprank.schemas.certificate": "seprank.linalg.certificate_schema",
    "seprank.machine": "seprank.runtime.machine",
    "seprank.compiled_cache": "seprank.runtime.compiled_cache",
    "seprank.numba_locator": "seprank.runtime.numba_locator",
    "seprank.openblas_kernels": "seprank.runtime.openblas_kernels",
    "seprank.cluster": "seprank.runtime.cluster",
    "seprank.bounded_read": "seprank.files.bounded_read",
    "seprank.output_files": "seprank.files.output_files",
    "seprank.matrix_io": "seprank.files.matrix_io",
    "seprank.gram_hadamard_rank": "seprank.hadamard.rank",
    "seprank.gram_hadamard_estimates": "seprank.hadamard.estimates",
    "seprank.float_vs_exact_files": "seprank.float_vs_exact.files",
    "seprank.linalg.verify_elimination": "seprank.linalg.verifier.elimination",
    "seprank.linalg.verify_kernel": "seprank.linalg.verifier.kernel",
    "seprank.linalg.verify_primes": "seprank.linalg.verifier.primes",
    "seprank.linalg.verify_snapshot": "seprank.linalg.verifier.snapshot",
    "seprank.linalg.dixon": "seprank.linalg.rational.dixon",
    "seprank.linalg.dixon_residues": "seprank.linalg.rational.dixon_residues",
    "seprank.linalg.multimodular": "seprank.linalg.rational.multimodular",
    "seprank.linalg.kernel_check": "seprank.linalg.rational.kernel_check",
    "seprank.linalg.modular_lu": "seprank.linalg.engines.modular_lu",
    "seprank.linalg.modkernels": "seprank.linalg.engines.modkernels",
    "seprank.linalg.blas_dgemm": "seprank.linalg.engines.blas_dgemm",
    "seprank.linalg.cuda_engine": "seprank.linalg.engines.cuda_engine",
    "seprank.linalg.cuda_kernels": "seprank.linalg.engines.cuda_kernels",
    "seprank.linalg.flint_engine": "seprank.linalg.engines.flint_engine",
    "seprank.linalg.float_engine": "seprank.linalg.engines.float_engine",
    "seprank.proof.report_schema": "seprank.proof.report.schema",
    "seprank.proof.figures": "seprank.proof.report.figures",
    "seprank.proof.console": "seprank.proof.report.console",
    "seprank.proof.errata_audit": "seprank.proof.errata.audit",
    "seprank.papers.levine2020.b2_displays": "seprank.papers.levine2020.displays.b2",
    "seprank.papers.levine2020.residual_displays": "seprank.papers.levine2020.displays.residual",
    "seprank.papers.levine2020.thm3_displays": "seprank.papers.levine2020.displays.thm3",
    "seprank.papers.levine2020.thm4_displays": "seprank.papers.levine2020.displays.thm4",
    "seprank.strict_json": "seprank.schemas.strict_json",
}


class _Alias(importlib.abc.Loader):
    """Loads an old name as the module at its new path (the very same module object)."""

    def __init__(self, new: str):
        self.new = new
        self.real_spec = None

    def create_module(self, spec):
        warnings.warn(f"{spec.name} moved to {self.new}; import it from there (the old "
                      "name goes in seprank 0.3)", DeprecationWarning, stacklevel=2)
        module = importlib.import_module(self.new)
        self.real_spec = module.__spec__
        return module

    def exec_module(self, module):
        # importlib set __spec__ to the alias's spec: give the module its own back
        module.__spec__ = self.real_spec


class _MovedFinder(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname, path=None, target=None):
        new = MOVED.get(fullname)
        if new is None:
            return None
        return importlib.util.spec_from_loader(fullname, _Alias(new))


def install() -> None:
    """Put the finder of old names on ``sys.meta_path`` (once; ``import seprank`` does).

    >>> import warnings
    >>> install()
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore", DeprecationWarning)
    ...     import seprank.gram_hadamard_rank as old
    >>> import seprank.hadamard.rank as new
    >>> old is new
    True
    """
    if not any(isinstance(f, _MovedFinder) for f in sys.meta_path):
        sys.meta_path.append(_MovedFinder())
