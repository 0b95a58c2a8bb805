#!/usr/bin/env bash
# Builds htpscope and summarises the bundled example run (examples/synthetic_run).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake -S . -B build/release -G Ninja -DCMAKE_BUILD_TYPE=Release -DHTPSCOPE_BUILD_TESTS=OFF > /dev/null
cmake --build build/release --target htpscope
./build/release/htpscope summary examples/synthetic_run "$@"
