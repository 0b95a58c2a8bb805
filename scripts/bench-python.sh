#!/usr/bin/env bash
# Benchmarks loading a ~400 MB optrace into `run.slices` from Python against
# `htpscope summary` of the same file (target: at most 2x).  Results:
# docs/python.md ("Speed").
#
#   bash scripts/bench-python.sh [WORK_DIR]        (default: /tmp/htpscope-bench)
#
# Environment: HTPSCOPE_BENCH_PYTHON_OPS=64000 (QNN ops of the generated run;
# ~6.2 KB of optrace per op), HTPSCOPE_BENCH_REPEAT=7, HTPSCOPE_BENCH_BUILD=DIR
# (an already configured tree with the extension on, e.g. the test script's
# build/werror: both sides then run the same compiler flags, and no Release
# tree is configured; default build/release).
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"
work="${1:-/tmp/htpscope-bench}"
ops="${HTPSCOPE_BENCH_PYTHON_OPS:-64000}"
repeat="${HTPSCOPE_BENCH_REPEAT:-7}"

bash scripts/install-deps.sh scripts/debian-packages-python.txt
build="${HTPSCOPE_BENCH_BUILD:-build/release}"
if [[ -z "${HTPSCOPE_BENCH_BUILD:-}" ]]; then
  echo "== build (Release)"
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DHTPSCOPE_BUILD_TESTS=OFF \
    -DHTPSCOPE_PYTHON=ON -DPython3_EXECUTABLE=/usr/bin/python3 > /dev/null
else
  type="$(sed -n 's/^CMAKE_BUILD_TYPE:STRING=//p' "$build/CMakeCache.txt")"
  echo "== build (in $build: ${type:-RelWithDebInfo, the default})"
fi
cmake --build "$build" --target htpscope htpscope-synth _htpscope
build="$(cd "$build" && pwd)"

echo "== machine"
echo "   $(nproc) cores: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)"
echo "   memory: $(awk '/MemTotal/ {printf "%.1f GB", $2 / 1e6}' /proc/meminfo)"
echo "   $(/usr/bin/python3 --version), pandas $(/usr/bin/python3 -c 'import pandas; print(pandas.__version__)')"

dir="$work/ops$ops-python"
if [[ ! -f "$dir/ground_truth.json" ]]; then
  echo "== generate $dir"
  rm -rf "$dir"
  "$build/tools/synth/htpscope-synth" -o "$dir" --ops "$ops" --tiled-share 0.3 --branches 4 --seed 7
fi
cat "$dir/chrometrace.json" > /dev/null  # from the page cache, as every later read

echo "== load into run.slices (Python) vs htpscope summary (CLI)"
PYTHONPATH="$build/python" /usr/bin/python3 tools/bench_python/bench_python.py \
  --htpscope "$build/htpscope" --repeat "$repeat" "$dir/chrometrace.json"
