#!/usr/bin/env bash
# Benchmarks `htpscope summary` on generated optraces of ~100 MB and ~1 GB,
# plain and gzip-compressed, side by side with the Python json.load script
# people use today (tools/bench_summary/summary_baseline.py) and with plain
# single-threaded zlib inflate.  Results: docs/performance.md.
#
#   bash scripts/bench.sh [WORK_DIR]        (default: /tmp/htpscope-bench)
#
# Environment: HTPSCOPE_BENCH_OPS="16000 165000" (QNN ops per generated run;
# ~6.2 KB of optrace per op), HTPSCOPE_BENCH_REPEAT=9 (htpscope and inflate runs per
# file, interleaved, best kept).  Needs ~8 GB of disk and, for Python on the 1 GB trace, ~6 GB
# of memory.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"
work="${1:-/tmp/htpscope-bench}"
ops_list="${HTPSCOPE_BENCH_OPS:-16000 165000}"
repeat="${HTPSCOPE_BENCH_REPEAT:-9}"

bash scripts/install-deps.sh
echo "== build (Release)"
# HTPSCOPE_NATIVE: the figures in docs/performance.md are for a binary built for
# the machine (simdjson's AVX2 kernel); the default portable build is slower.
cmake -S . -B build/release -G Ninja -DCMAKE_BUILD_TYPE=Release -DHTPSCOPE_BUILD_TESTS=OFF \
  -DHTPSCOPE_BUILD_BENCHMARKS=ON -DHTPSCOPE_NATIVE="${HTPSCOPE_NATIVE:-ON}" > /dev/null
cmake --build build/release --target htpscope htpscope-synth bench_summary

echo "== machine"
echo "   $(nproc) cores: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)"
echo "   memory: $(awk '/MemTotal/ {printf "%.1f GB", $2 / 1e6}' /proc/meminfo)"
echo "   $(python3 --version), $(cmake --version | head -1)"

mkdir -p "$work"
traces=()
for ops in $ops_list; do
  for form in plain gz; do
    dir="$work/ops$ops-$form"
    if [[ ! -f "$dir/ground_truth.json" ]]; then
      echo "== generate $dir"
      rm -rf "$dir"
      gzip_flag=()
      [[ $form == gz ]] && gzip_flag=(--gzip)
      build/release/tools/synth/htpscope-synth -o "$dir" --ops "$ops" --tiled-share 0.3 \
        --branches 4 --seed 7 "${gzip_flag[@]}"
    fi
    if [[ $form == gz ]]; then traces+=("$dir/chrometrace.json.gz"); else traces+=("$dir/chrometrace.json"); fi
  done
done
# Let the first read of each file come from the page cache, as for every later one.
cat "${traces[@]}" > /dev/null

echo "== summary: htpscope vs python3 (json.load), and zlib and igzip inflate for .gz"
build/release/tools/bench_summary/bench_summary --htpscope "$root/build/release/htpscope" \
  --python "$root/tools/bench_summary/summary_baseline.py" --repeat "$repeat" "${traces[@]}"
