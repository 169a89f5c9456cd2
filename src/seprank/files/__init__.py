"""Reading and writing files safely: matrices (:mod:`~seprank.files.matrix_io`), bounded
reads of untrusted input (:mod:`~seprank.files.bounded_read`) and atomic output folders
(:mod:`~seprank.files.output_files`). Strict JSON parsing is a schema helper
(:mod:`seprank.schemas.strict_json`).
"""
