"""What seprank knows of the machine and the process it runs in.

The package's version and folder (:mod:`~seprank.runtime.package`), the machine's
cores, memory and load (:mod:`~seprank.runtime.machine`), where numba's compiled
kernels are cached (:mod:`~seprank.runtime.compiled_cache`,
:mod:`~seprank.runtime.numba_locator`), OpenBLAS's kernel choice
(:mod:`~seprank.runtime.openblas_kernels`) and the local Dask cluster
(:mod:`~seprank.runtime.cluster`). Nothing here imports the mathematics.
"""
