"""Sweeps: grids of exact computations run on Dask, with a resumable result store.

:func:`load_spec` reads a TOML/YAML spec, :func:`run_sweep` runs what is not
yet in the store (:class:`ResultStore`), :mod:`seprank.sweep.report` turns a
store into Markdown/HTML. The command line is ``seprank sweep SPEC``.
"""

from seprank.sweep.computations import COMPUTATIONS, execute, get_computation
from seprank.sweep.runner import SweepSummary, run_sweep
from seprank.sweep.spec import SweepSpec, Task, load_spec, spec_from_dict
from seprank.sweep.store import ResultStore, task_key
from seprank.sweep.version import code_version

__all__ = ["COMPUTATIONS", "execute", "get_computation", "SweepSummary", "run_sweep",
           "SweepSpec", "Task", "load_spec", "spec_from_dict", "ResultStore", "code_version",
           "task_key"]
