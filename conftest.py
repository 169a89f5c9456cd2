"""Test-suite options shared by tests/ and proofs/.

``--full`` (or SEPRANK_FULL=1) runs the full tier: slow tests marked
``@pytest.mark.slow`` and every proof check with its larger parameter ranges.
Without it, CI's fast tier runs.
"""

import os
import shutil

# Without a GPU, run the CUDA engine's tests under numba's CUDA simulator. This
# must happen before numba is imported (numba reads it into its config).
if ("NUMBA_ENABLE_CUDASIM" not in os.environ and shutil.which("nvidia-smi") is None
        and not os.path.exists("/dev/nvidia0")):
    os.environ["NUMBA_ENABLE_CUDASIM"] = "1"

import pytest  # noqa: E402
from hypothesis import settings  # noqa: E402

# Timing deadlines measure the machine, not the code: CI shares 2 cores.
settings.register_profile("seprank", deadline=None)
settings.register_profile("seprank-long", deadline=None, max_examples=2000)
settings.load_profile("seprank-long" if os.environ.get("SEPRANK_FUZZ", "0") not in ("", "0")
                      else "seprank")


def pytest_addoption(parser):
    parser.addoption("--full", action="store_true", default=False,
                     help="run the full (slow, exhaustive) tier")


def full_tier(config) -> bool:
    return bool(config.getoption("--full")) or os.environ.get("SEPRANK_FULL") == "1"


def pytest_collection_modifyitems(config, items):
    if full_tier(config):
        return
    skip = pytest.mark.skip(reason="slow: run with --full or SEPRANK_FULL=1")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def full(request) -> bool:
    return full_tier(request.config)
