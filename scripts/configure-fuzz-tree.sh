#!/usr/bin/env bash
# Configures build/fuzz: clang -O1 with line tables, ASan + UBSan and
# libFuzzer's instrumentation on every library, -Werror.  scripts/test.sh runs
# the unit tests in it and scripts/fuzz.sh builds its fuzz targets there, so
# CI compiles the sources under sanitizers once.  A unity build
# (HTPSCOPE_UNITY_BUILD, CMakeLists.txt): the sources compile in batches.
set -euo pipefail
cd "$(dirname "$0")/.."
CC=clang CXX=clang++ cmake -S . -B build/fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only" -DHTPSCOPE_BUILD_FUZZERS=ON \
  -DHTPSCOPE_BUILD_BENCHMARKS=OFF -DHTPSCOPE_WERROR=ON -DHTPSCOPE_UNITY_BUILD=ON "$@"
