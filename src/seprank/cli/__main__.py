"""``python -m seprank.cli``: the same command line as ``seprank``."""

import sys

from seprank.cli import main

if __name__ == "__main__":
    sys.exit(main())
