#!/usr/bin/env bash
# Fuzzes every reader with libFuzzer + ASan + UBSan (docs/robustness.md).
#
#   bash scripts/fuzz.sh [SECONDS_PER_TARGET]     (default 30)
#
# Builds the fuzz tree in build/fuzz with clang, assembles a seed corpus per
# target in a scratch directory (fuzz/seeds/<target>, fuzz/regressions/<target>,
# examples/, the synthetic-run generator's output when built, and
# ../shared/corpus when present, none of it copied into the repository), then
# runs the targets, one per core at a time (HTPSCOPE_FUZZ_JOBS).  Fails on any crash, leak, sanitizer
# report, per-input timeout (10 s) or memory blow-up (2 GB).  CI runs it for
# ~20 s per target; for a long campaign give hours: bash scripts/fuzz.sh 3600
#
# Environment:
#   HTPSCOPE_FUZZ_TARGETS="optrace qhas"   only these targets
#   HTPSCOPE_FUZZ_KEEP=DIR                  keep the grown corpora and logs in DIR
#   HTPSCOPE_FUZZ_JOBS=N                    targets run at once (default: nproc)
# Runs shorter than 300 s per target use libFuzzer's -seed=1 (reproducible).
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"
seconds="${1:-30}"
[[ "$seconds" =~ ^[0-9]+$ && "$seconds" -gt 0 ]] || { echo "usage: $0 [SECONDS_PER_TARGET]" >&2; exit 2; }

bash scripts/install-deps.sh scripts/debian-packages-fuzz.txt

echo "== build fuzz targets (clang, libFuzzer, ASan + UBSan)"
build_start=$(date +%s)
# -O1 with line tables only: quicker to build, and sanitizer reports still give lines.
bash scripts/configure-fuzz-tree.sh > /dev/null
cmake --build build/fuzz --target htpscope_fuzzers -j "$(nproc)"
echo "   built in $(($(date +%s) - build_start)) s"

work="$(mktemp -d "${TMPDIR:-/tmp}/htpscope-fuzz.XXXXXX")"
trap 'rm -rf "$work"' EXIT
# Files a target makes for itself (the manifest target's tensors) go there too.
export TMPDIR="$work"

# --- seed corpora ------------------------------------------------------------
# Artifacts found outside fuzz/ are sorted to targets by content, as the tool
# itself recognises them.
seed_dir() { mkdir -p "$work/seeds/$1" && echo "$work/seeds/$1"; }
n_seed=0
add_seed() {  # add_seed TARGET FILE
  local dir; dir="$(seed_dir "$1")"
  n_seed=$((n_seed + 1))
  cp "$2" "$dir/$n_seed-$(basename "$2")"
}
classify() {  # prints the targets a file seeds
  local f="$1" head
  head="$(head -c 4096 "$f" | tr -d '\0' || true)"
  case "$head" in
    *'"OP_TRACE"'*) echo optrace; echo optrace_streaming ;;
    *'"RUN_TRACE"'*) echo runtrace ;;
    *'"HTP_GRAPH"'*) echo htp_graph ;;
    *'"QHAS"'*) echo qhas ;;
    *'"QNN_PROFILE"'*) echo heap_profile ;;
    *'"tensors"'*) echo tensor_manifest ;;
    $'\x93NUMPY'*) echo npy ;;
    'Msg Timestamp,'*) echo profile_csv ;;
    *'Stats'*|*'qnn-profile-viewer'*|*'Layer Times'*) echo profile_text ;;
  esac
  echo byte_source
}
external=()
[[ -d examples ]] && external+=(examples)
# Small synthetic runs, when the generator has been built (scripts/test.sh builds it first).
for synth in build/werror/tools/synth/htpscope-synth build/fuzz/tools/synth/htpscope-synth; do
  [[ -x "$synth" ]] || continue
  i=0
  for opts in "--ops 12 --seed 1" "--ops 30 --seed 2 --branches 3 --tiled-share 0.5 --executions 3" \
              "--ops 8 --seed 3 --spill-fill --system-service --reshape-every 2" "--ops 10 --seed 4 --gzip"; do
    i=$((i + 1))
    # shellcheck disable=SC2086
    "$synth" -o "$work/synth/$i" $opts > /dev/null && external+=("$work/synth/$i")
  done
  break
done
[[ -d ../shared/corpus ]] && external+=(../shared/corpus)
if ((${#external[@]})); then
  while IFS= read -r -d '' f; do
    size=$(stat -c %s "$f")
    ((size > 0 && size <= 1048576)) || continue  # keep executions fast
    for t in $(classify "$f"); do add_seed "$t" "$f"; done
    # The gzip layer also sees each small artifact compressed.
    if ((size <= 262144)); then
      gzip -c -n "$f" > "$work/gz.tmp" && add_seed byte_source "$work/gz.tmp"
    fi
  done < <(find -L "${external[@]}" -type f -print0 | sort -z)
  # The summary target reads a whole run: optrace [+ runtrace] [+ QHAS] of one directory.
  while IFS= read -r -d '' trace; do
    dir="$(dirname "$trace")"
    combined="$work/run.tmp"
    cat "$trace" > "$combined"
    for f in "$dir"/*; do
      [[ -f "$f" && "$f" != "$trace" ]] || continue
      case "$(head -c 4096 "$f" | tr -d '\0')" in
        *'"RUN_TRACE"'*) printf '\n@@runtrace@@\n' >> "$combined" && cat "$f" >> "$combined" ;;
        *'"QHAS"'*) printf '\n@@qhas@@\n' >> "$combined" && cat "$f" >> "$combined" ;;
      esac
    done
    add_seed summary "$combined"
  done < <(find -L "${external[@]}" -type f -size -1024k -print0 | sort -z |
           xargs -0 -r grep -l -Z --max-count=1 '"OP_TRACE"' 2>/dev/null || true)
fi

# --- run ---------------------------------------------------------------------
export ASAN_OPTIONS="detect_leaks=1:${ASAN_OPTIONS:-}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:${UBSAN_OPTIONS:-}"
targets=()
for exe in build/fuzz/*_fuzz; do
  name="$(basename "$exe" _fuzz)"
  if [[ -n "${HTPSCOPE_FUZZ_TARGETS:-}" && " $HTPSCOPE_FUZZ_TARGETS " != *" $name "* ]]; then continue; fi
  targets+=("$name")
done
((${#targets[@]})) || { echo "no fuzz targets built" >&2; exit 1; }

# Targets run side by side, HTPSCOPE_FUZZ_JOBS at a time (default: one per
# core; each libFuzzer process is single-threaded), each for its own
# SECONDS_PER_TARGET, so a smoke run takes seconds x targets / jobs.
fuzz_jobs="${HTPSCOPE_FUZZ_JOBS:-$(nproc)}"
[[ "$fuzz_jobs" =~ ^[0-9]+$ && "$fuzz_jobs" -gt 0 ]] || fuzz_jobs=1
run_target() {  # run_target NAME: fuzzes one target, writes its summary line to $work/result/NAME
  local name="$1"
  local corpus="$work/corpus/$name"
  mkdir -p "$corpus" "$work/artifacts/$name"
  local dirs=("$corpus")
  local base="${name%_streaming}"  # optrace_streaming shares optrace's seeds and dictionary
  local d
  for d in "fuzz/seeds/$base" "fuzz/regressions/$name" "$work/seeds/$name"; do
    [[ -d "$d" ]] && dirs+=("$d")
  done
  local args=(-max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1
              -artifact_prefix="$work/artifacts/$name/")
  # Short (CI) runs use a fixed seed, so that a failure there replays the
  # same mutations locally; long campaigns draw a new seed each time.
  ((seconds < 300)) && args+=(-seed=1)
  [[ -f "fuzz/dicts/$base.dict" ]] && args+=(-dict="fuzz/dicts/$base.dict")
  echo "== fuzz $name for ${seconds} s"
  local log="$work/$name.log"
  local start status=0
  start=$(date +%s)
  "build/fuzz/${name}_fuzz" "${args[@]}" "${dirs[@]}" > "$log" 2>&1 || status=$?
  local elapsed=$(($(date +%s) - start))
  local execs rate units result=ok
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  units=$(find "$corpus" -type f | wc -l)
  if ((status != 0)); then
    result="FAILED (exit $status)"
    {
      echo "== $name failed:"
      grep -E 'ERROR: (libFuzzer|AddressSanitizer|LeakSanitizer)|runtime error|SUMMARY|fuzz contract|Test unit written' \
        "$log" | head -20 || true
    } >&2
    mkdir -p "build/fuzz/crashes/$name"
    cp "$work/artifacts/$name/"* "build/fuzz/crashes/$name/" 2>/dev/null || true
    tail -60 "$log" > "build/fuzz/crashes/$name/log.txt"
  fi
  printf '%-16s %8s %12s %10s %8s  %s\n' "$name" "$elapsed" "${execs:-?}" "${rate:-?}" "$units" "$result" \
    > "$work/result/$name"
}
mkdir -p "$work/result"
for name in "${targets[@]}"; do
  while (($(jobs -rp | wc -l) >= fuzz_jobs)); do wait -n || true; done
  run_target "$name" &
done
wait
failed=()
summary="$work/summary.txt"
printf '%-16s %8s %12s %10s %8s  %s\n' target seconds executions exec/s corpus result > "$summary"
for name in "${targets[@]}"; do
  if [[ -f "$work/result/$name" ]]; then
    cat "$work/result/$name" >> "$summary"
    grep -q ' ok$' "$work/result/$name" || failed+=("$name")
  else
    printf '%-16s %8s %12s %10s %8s  %s\n' "$name" ? ? ? ? "FAILED (no result)" >> "$summary"
    failed+=("$name")
  fi
done
echo "== fuzz summary ($(date -u +%Y-%m-%dT%H:%MZ), ${seconds} s per target)"
cat "$summary"
mkdir -p build/fuzz && cp "$summary" build/fuzz/summary.txt
if [[ -n "${HTPSCOPE_FUZZ_KEEP:-}" ]]; then
  mkdir -p "$HTPSCOPE_FUZZ_KEEP" && cp -r "$work/corpus" "$work"/*.log "$HTPSCOPE_FUZZ_KEEP/"
fi
if ((${#failed[@]})); then
  echo "fuzzing FAILED for: ${failed[*]}" >&2
  echo "crashing inputs and logs are in build/fuzz/crashes/<target>/; once fixed, add each input" >&2
  echo "to fuzz/regressions/<target>/ (the unit tests replay them)." >&2
  exit 1
fi
