#!/usr/bin/env bash
# Builds htpscope and runs the whole test suite twice: a warnings-as-errors
# build (its ctest runs the Python tests too, against the extension that tree
# builds), then an AddressSanitizer + UndefinedBehaviorSanitizer build.
set -euo pipefail
cd "$(dirname "$0")/.."
# The Python packages too: the -Werror tree builds the Python extension.
bash scripts/install-deps.sh scripts/debian-packages-python.txt
jobs=$(nproc)

echo "== build (-Wall -Wextra -Werror)"
cmake -S . -B build/werror -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DHTPSCOPE_WERROR=ON \
  -DPython3_EXECUTABLE=/usr/bin/python3 > /dev/null
cmake --build build/werror -j "$jobs"
echo "== tests"
ctest --test-dir build/werror --output-on-failure -j "$jobs"
bash scripts/browser-test.sh build/werror  # HTPSCOPE_SKIP_BROWSER=1 skips it
echo "== Python: install into .venv (the extension built above) and load the example there"
bash scripts/install-python.sh --build-dir build/werror
.venv/bin/python -c "import htpscope; print(htpscope.load_run('examples/synthetic_run'))"

echo "== build (AddressSanitizer + UndefinedBehaviorSanitizer)"
cmake -S . -B build/asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DHTPSCOPE_WERROR=ON -DHTPSCOPE_SANITIZE=ON \
  -DHTPSCOPE_BUILD_BENCHMARKS=OFF > /dev/null
cmake --build build/asan -j "$jobs"
echo "== tests under sanitizers"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --test-dir build/asan --output-on-failure -j "$jobs"
[[ -n "${HTPSCOPE_SKIP_FUZZ:-}" ]] || bash scripts/fuzz.sh "${HTPSCOPE_FUZZ_SECONDS:-20}"  # fuzz smoke; docs/robustness.md
