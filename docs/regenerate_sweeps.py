"""Regenerate the committed sweep stores in docs/sweeps/ and their reports, in one command.

    python docs/regenerate_sweeps.py                 # every spec, 2 local Dask workers
    python docs/regenerate_sweeps.py --check         # only say which stores are stale
    python docs/regenerate_sweeps.py hadamard_omega  # only the specs named (file stems)

A sweep store keys every task by the code version that computed it (the package version
plus a hash of every source file of seprank and of the installed check packages:
``seprank.sweep.code_version``), so after any code change a committed store's rows
belong to an older version and ``seprank sweep SPEC --dry-run`` says that nothing is
done. The committed stores are examples of what a sweep writes, and record the version
that made them (their reports say which, and say when it is not the running code's);
this script makes them current again.

For each spec ``docs/sweeps/NAME.toml`` or ``.yaml`` it deletes the store (a fresh
store holds one code version only), runs ``seprank sweep SPEC --workers N
--no-progress``, then ``seprank report STORE`` (``NAME.md``, ``NAME.html`` and the
plot beside them). ``--check`` changes nothing: it prints each store's versions against
the current one and exits 1 when one is stale. Nothing here touches ``docs/atlas/``
(its own ``build_atlas.py`` rebuilds it).

Measured (2 workers on the 2-core machine at load 10, shared with other jobs): 924 s in
all, 864 s of it ``all_checks_full`` (the full tier of every check), 9-26 s each other.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

from seprank.sweep import ResultStore, code_version, load_spec

SWEEPS = Path(__file__).resolve().parent / "sweeps"


def specs(names: list[str]) -> list[Path]:
    """The spec files of docs/sweeps/, or those whose stem is in ``names``."""
    found = sorted(p for p in SWEEPS.iterdir() if p.suffix in (".toml", ".yaml", ".yml"))
    if not names:
        return found
    unknown = set(names) - {p.stem for p in found}
    if unknown:
        raise SystemExit(f"no spec named {', '.join(sorted(unknown))} in {SWEEPS}")
    return [p for p in found if p.stem in names]


def store_versions(store: Path) -> list[str]:
    """The code versions of a store's rows (empty when there is no store)."""
    if not store.exists():
        return []
    with ResultStore(store, readonly=True) as s:
        return sorted({row.code_version for row in s.rows()})


def _seprank(*args: str) -> None:
    command = [sys.executable, "-m", "seprank", *args]
    print("$", "seprank", *args, flush=True)
    subprocess.run(command, check=True)


def regenerate(spec_path: Path, workers: int) -> float:
    """Delete the store of one spec, run the sweep afresh, write its report; seconds taken."""
    store = load_spec(spec_path).store
    for path in (store, store.with_name(store.name + "-wal"), store.with_name(store.name + "-shm")):
        path.unlink(missing_ok=True)
    start = time.perf_counter()
    _seprank("sweep", str(spec_path), "--workers", str(workers), "--no-progress")
    _seprank("report", str(store))
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", help="spec file stems (default: every spec)")
    parser.add_argument("--workers", type=int, default=2, help="local Dask workers (default 2)")
    parser.add_argument("--check", action="store_true",
                        help="print which stores are stale and exit 1 if any is; change nothing")
    args = parser.parse_args(argv)
    current = code_version()
    stale = []
    for spec_path in specs(args.names):
        store = load_spec(spec_path).store
        versions = store_versions(store)
        fresh = versions == [current]
        print(f"{spec_path.name}: store {store.name} has code version(s) "
              f"{', '.join(versions) or 'none'}; current {current}"
              f"{'' if fresh else ' -> stale'}", flush=True)
        if not fresh:
            stale.append(spec_path.name)
        if not args.check:
            print(f"  regenerated in {regenerate(spec_path, args.workers):.0f} s", flush=True)
    if args.check:
        print(f"{len(stale)} stale store(s){': ' + ', '.join(stale) if stale else ''}")
        return 1 if stale else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
