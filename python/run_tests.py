"""Runs the Python tests (python/tests) with pytest: ctest's `python_tests`.

    PYTHONPATH=<build>/python HTPSCOPE_BINARY=<build>/htpscope python3 python/run_tests.py [PYTEST ARGS]

Exits 77 (ctest: skipped), saying why, when this interpreter lacks pytest,
NumPy or pandas (Debian: python3-pytest python3-numpy python3-pandas).
"""

import importlib
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
# This file's directory holds the package's sources without the built
# module: import htpscope from PYTHONPATH (the build tree) instead.
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != here]

for needed in ("pytest", "numpy", "pandas"):
    try:
        importlib.import_module(needed)
    except ImportError:
        print(f"skipped: {sys.executable} has no {needed} (Debian: python3-{needed})")
        sys.exit(77)

import pytest  # noqa: E402

tests = os.path.join(here, "tests")
sys.exit(pytest.main([tests, "-q", "-rs", "-p", "no:cacheprovider", *sys.argv[1:]]))
