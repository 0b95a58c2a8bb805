#!/usr/bin/env bash
# Builds htpscope and runs the whole test suite twice: a warnings-as-errors
# build, then an AddressSanitizer + UndefinedBehaviorSanitizer build.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
jobs=$(nproc)

echo "== build (-Wall -Wextra -Werror)"
cmake -S . -B build/werror -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DHTPSCOPE_WERROR=ON > /dev/null
cmake --build build/werror -j "$jobs"
echo "== tests"
ctest --test-dir build/werror --output-on-failure -j "$jobs"
bash scripts/browser-test.sh build/werror  # HTPSCOPE_SKIP_BROWSER=1 skips it

echo "== build (AddressSanitizer + UndefinedBehaviorSanitizer)"
cmake -S . -B build/asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DHTPSCOPE_WERROR=ON -DHTPSCOPE_SANITIZE=ON \
  -DHTPSCOPE_BUILD_BENCHMARKS=OFF > /dev/null
cmake --build build/asan -j "$jobs"
echo "== tests under sanitizers"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --test-dir build/asan --output-on-failure -j "$jobs"
[[ -n "${HTPSCOPE_SKIP_FUZZ:-}" ]] || bash scripts/fuzz.sh "${HTPSCOPE_FUZZ_SECONDS:-20}"  # fuzz smoke; docs/robustness.md
