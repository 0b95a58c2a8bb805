#!/usr/bin/env bash
# Benchmarks htpscope on generated runs (results and how to read them:
# docs/performance.md), each figure beside `wc -l` of the same input, `gzip -dc`
# for .gz, and the Python json.load script people use today:
#
#  1. layouts   `summary` on the optrace of an 80k-op run in the four layouts
#               (QAIRT writer, json.dumps one event a line, minified, indent=2),
#               plain and .gz; identical figures required.
#  2. sweep     `summary` on optraces of ~100 MB, ~400 MB and ~1.6 GB: how time
#               and peak memory grow.
#  3. readers   the QHAS, HTP graph, optrace and profile text readers alone on the run's files.
#  4. commands  every command on the whole 80k-op run directory.
#
#   bash scripts/bench.sh [WORK_DIR]        (default: /tmp/htpscope-bench)
#
# Environment: HTPSCOPE_BENCH_REPEAT=3 (runs per measurement, interleaved with
# their yardstick, best kept), HTPSCOPE_BENCH_PYTHON_REPEAT=3,
# HTPSCOPE_BENCH_COMMAND_REPEAT=3 (the commands on the run directory: single
# runs move by up to 15 % on a 2-core machine), HTPSCOPE_BENCH_OPS=80000
# (QNN ops of the run), HTPSCOPE_BENCH_SWEEP_OPS="15500 62000 248000",
# HTPSCOPE_BENCH_STEPS="layouts sweep readers commands" (which steps).  Needs
# ~7 GB of disk and, for Python on a 800 MB trace, ~6 GB of memory.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"
work="${1:-/tmp/htpscope-bench}"
repeat="${HTPSCOPE_BENCH_REPEAT:-3}"
python_repeat="${HTPSCOPE_BENCH_PYTHON_REPEAT:-3}"
command_repeat="${HTPSCOPE_BENCH_COMMAND_REPEAT:-3}"
ops="${HTPSCOPE_BENCH_OPS:-80000}"
sweep_ops="${HTPSCOPE_BENCH_SWEEP_OPS:-15500 62000 248000}"
steps="${HTPSCOPE_BENCH_STEPS:-layouts sweep readers commands}"

bash scripts/install-deps.sh
echo "== build (Release)"
# HTPSCOPE_NATIVE: the figures in docs/performance.md are for a binary built for
# the machine (simdjson's AVX2 kernel); the default portable build is slower.
cmake -S . -B build/release -G Ninja -DCMAKE_BUILD_TYPE=Release -DHTPSCOPE_BUILD_TESTS=OFF \
  -DHTPSCOPE_BUILD_BENCHMARKS=ON -DHTPSCOPE_NATIVE="${HTPSCOPE_NATIVE:-ON}" > /dev/null
cmake --build build/release --target htpscope htpscope-synth bench_summary bench_read
bin="$root/build/release"
synth="$bin/tools/synth/htpscope-synth"
bench=("$bin/tools/bench_summary/bench_summary")

echo "== machine"
echo "   $(nproc) cores: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)"
echo "   memory: $(awk '/MemTotal/ {printf "%.1f GB", $2 / 1e6}' /proc/meminfo)"
echo "   load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "   $(python3 --version), $(cmake --version | head -1), $(gzip --version | head -1)"

mkdir -p "$work"
# generate DIR ARGS...: a run (or some of its artifacts) unless already there.
generate() {
  local dir="$1"
  shift
  if [[ ! -f "$dir/ground_truth.json" ]]; then
    echo "== generate $dir"
    rm -rf "$dir"
    "$synth" -o "$dir" --tiled-share 0.3 --branches 4 --seed 7 "$@"
  fi
}
run_dir="$work/run$ops"
generate "$run_dir" --ops "$ops"

has_step() { [[ " $steps " == *" $1 "* ]]; }

if has_step layouts; then
  traces=("writer=$run_dir/chrometrace.json")
  for layout in writer lines minified indent2; do
    for form in plain gz; do
      [[ $layout == writer && $form == plain ]] && continue
      dir="$work/optrace$ops-$layout-$form"
      flags=(--layout "$layout" --only chrometrace.json)
      label="$layout"
      file="$dir/chrometrace.json"
      if [[ $form == gz ]]; then
        flags+=(--gzip)
        label+=".gz"
        file+=".gz"
      fi
      generate "$dir" --ops "$ops" "${flags[@]}"
      traces+=("$label=$file")
    done
  done
  cat "${traces[@]#*=}" > /dev/null  # into the page cache, as for every later run
  echo "== 1. summary on the optrace in every layout"
  "${bench[@]}" layouts --htpscope "$bin/htpscope" --repeat "$repeat" \
    --python "$root/tools/bench_summary/summary_baseline.py" --python-repeat "$python_repeat" \
    "${traces[@]}" || true
fi

if has_step sweep; then
  sweep=()
  for n in $sweep_ops; do
    generate "$work/optrace$n" --ops "$n" --only chrometrace.json
    sweep+=("$work/optrace$n/chrometrace.json")
  done
  cat "${sweep[@]}" > /dev/null
  echo "== 2. growth: summary on optraces of growing size"
  "${bench[@]}" sweep --htpscope "$bin/htpscope" --repeat "$repeat" "${sweep[@]}"
fi

if has_step readers; then
  cat "$run_dir"/*.json > /dev/null
  echo "== 3. each reader alone on the run's files"
  "${bench[@]}" readers --reader "$bin/tools/bench_summary/bench_read" --repeat "$repeat" \
    "qhas=$run_dir/chrometrace_qnn_htp_analysis_summary.json" \
    "htp_graph=$run_dir/chrometrace_htp.json" "optrace=$run_dir/chrometrace.json" \
    "profile_text=$run_dir/profile_text.txt"
fi

if has_step commands; then
  cat "$run_dir"/* > /dev/null
  echo "== 4. every command on the whole run directory"
  "${bench[@]}" commands --htpscope "$bin/htpscope" --repeat "$command_repeat" --dir "$run_dir" \
    "summary {dir}" "summary --json {dir}" "report {dir} -o {out}" "timeline {dir}" \
    "graph {dir}" "memory {dir}" "diff {dir} {dir}"
fi
