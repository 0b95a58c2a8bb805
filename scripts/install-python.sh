#!/usr/bin/env bash
# Installs htpscope for Python into .venv at the repository root, offline:
# Debian's python3, NumPy, pandas, pytest and pybind11 (scripts/
# debian-packages-python.txt), a venv that sees them (--system-site-packages),
# and `pip install --no-build-isolation --no-index .` into it (setup.py builds
# the extension with CMake).  No package index is contacted.
#
#   bash scripts/install-python.sh [--build-dir DIR]
#
# --build-dir DIR reuses an already configured CMake tree (the test script
# passes build/werror) instead of configuring build/python: only the target
# _htpscope is built there.  Afterwards: .venv/bin/python -c "import htpscope"
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"
build_dir=""
while (($#)); do
  case "$1" in
    --build-dir) build_dir="$(cd "$2" && pwd)"; shift 2 ;;
    *) echo "usage: bash scripts/install-python.sh [--build-dir DIR]" >&2; exit 2 ;;
  esac
done

bash scripts/install-deps.sh scripts/debian-packages-python.txt
# Debian's interpreter, whose site packages hold python3-numpy and friends
# (a python3 earlier on PATH, e.g. pyenv's, would not see them).
python=/usr/bin/python3
venv="$root/.venv"
if [[ ! -x "$venv/bin/python" ]] || ! "$venv/bin/python" -c "import numpy, pandas" 2>/dev/null; then
  echo "== creating $venv (with the system site packages)"
  rm -rf "$venv"
  "$python" -m venv --system-site-packages "$venv"
fi

echo "== installing htpscope into $venv (offline)"
export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1
if [[ -n "$build_dir" ]]; then export HTPSCOPE_BUILD_DIR="$build_dir"; fi
"$venv/bin/python" -m pip install --no-build-isolation --no-index "$root"
"$venv/bin/python" -c "import htpscope; print('htpscope', htpscope.__version__, 'for Python:', htpscope.__file__)"
