#!/usr/bin/env bash
# Builds htpscope and runs the whole test suite in two build trees:
#   build/werror  gcc, -Wall -Wextra -Werror, optimised: unit and CLI tests,
#                 the Python tests against the extension it builds, then the
#                 HTML reports in headless Chromium;
#   a clone       of this checkout's HEAD in a temporary directory, with no
#                 ../shared beside it: configured and built as build/werror
#                 (its compiles hit ccache), its C++ tests run, so that every
#                 feature is proven to build from the repository alone;
#   build/fuzz    clang -O1 with AddressSanitizer + UndefinedBehaviorSanitizer
#                 (and libFuzzer's instrumentation), -Werror: the same tests
#                 under sanitizers, then a short fuzz run of every reader
#                 (scripts/fuzz.sh reuses this tree).
# Both trees are unity builds (HTPSCOPE_UNITY_BUILD: sources compiled in
# batches) and build/werror carries line tables only (-g1) rather than full
# debug info: the same code and warnings in about half the compile time of a
# cold build (docs/testing.md has the step times).
# HTPSCOPE_SKIP_BROWSER=1 skips the browser tests, HTPSCOPE_SKIP_FUZZ=1 the
# fuzz run; HTPSCOPE_FUZZ_SECONDS sets its seconds per target (default 8).
# HTPSCOPE_SKIP_CLONE=1 skips the fresh clone (it tests committed files only).
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
bash scripts/install-deps.sh scripts/debian-packages-fuzz.txt scripts/debian-packages-python.txt
jobs=$(nproc)
step() { echo "== $* ($(($(date +%s) - start)) s)"; }

step "build (-Wall -Wextra -Werror)"
bash scripts/configure-werror-tree.sh . build/werror > /dev/null
cmake --build build/werror -j "$jobs"
step "tests"
ctest --test-dir build/werror --output-on-failure -j "$jobs"
bash scripts/browser-test.sh build/werror  # HTPSCOPE_SKIP_BROWSER=1 skips it
if [[ -z "${HTPSCOPE_SKIP_CLONE:-}" ]]; then
  step "fresh clone without ../shared: build and C++ tests"
  bash scripts/fresh-clone-test.sh
fi
step "Python: install into .venv (the extension built above) and load the example there"
bash scripts/install-python.sh --build-dir build/werror
.venv/bin/python -c "import htpscope; print(htpscope.load_run('examples/synthetic_run'))"

step "build (clang, AddressSanitizer + UndefinedBehaviorSanitizer, -Werror)"
bash scripts/configure-fuzz-tree.sh > /dev/null
cmake --build build/fuzz -j "$jobs"
step "tests under sanitizers"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --test-dir build/fuzz --output-on-failure -j "$jobs"
if [[ -z "${HTPSCOPE_SKIP_FUZZ:-}" ]]; then
  step "fuzz smoke"
  bash scripts/fuzz.sh "${HTPSCOPE_FUZZ_SECONDS:-8}"  # docs/robustness.md
fi
step "all passed"
