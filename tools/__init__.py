"""Avocet's Python tools, run from the repository root as modules (`python3 -m tools.train.train`;
tools/README.md says why and lists them)."""

import os

# One BLAS thread unless the caller says otherwise: these tools share the machine with the
# labeller and matches, and NumPy reads the variable once, when it is first imported.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
