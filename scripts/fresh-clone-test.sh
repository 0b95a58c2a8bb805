#!/usr/bin/env bash
# Clones this checkout's HEAD into an empty temporary directory (so no
# ../shared sits beside it), configures and builds it as scripts/test.sh
# builds build/werror, and runs its C++ tests there: every feature must build
# and pass from the repository alone, ../shared being test data only (tests
# that need it skip, saying so in their names).  Only committed files are
# cloned.
#
# The clone's build hits ccache for every source the main tree compiled: the
# build directory has the same depth (build/werror), CMake hashes paths
# relative to the source directory (CCACHE_BASEDIR), and no source is given a
# path of the checkout on its command line (the tests read theirs from one
# generated file, src/base/test_paths.h).  On the 2-core test machine, with
# the cache warm from build/werror and four other builds running: built in
# 78 s (ccache 264 hits, 2 misses), its 710 tests run in 83 s, 167 s in all
# with the clone.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)
work=$(mktemp -d "${TMPDIR:-/tmp}/htpscope-clone.XXXXXX")
trap 'rm -rf "$work"' EXIT
clone="$work/htpscope"
git clone -q --no-checkout . "$clone"
git -C "$clone" checkout -q --detach "$(git rev-parse HEAD)"
if [[ -e "$clone/../shared" ]]; then
  echo "fresh-clone-test: $clone/../shared exists" >&2
  exit 1
fi
start=$(date +%s)
# ccache logs each compile of this build here (its global counters are
# shared with whatever else builds on the machine).
export CCACHE_STATSLOG="$work/ccache-stats.log"
bash scripts/configure-werror-tree.sh "$clone" "$clone/build/werror" > "$work/configure.log"
cmake --build "$clone/build/werror" -j "$jobs" --target htpscope htpscope_tests htpscope_synth_tests \
  json_structure_variant_tests
hits=$(grep -c '_cache_hit$' "$CCACHE_STATSLOG" 2>/dev/null || true)
misses=$(grep -c '^cache_miss$' "$CCACHE_STATSLOG" 2>/dev/null || true)
echo "fresh clone: built in $(($(date +%s) - start)) s; ccache: ${hits:-0} hits, ${misses:-0} misses"
# The Python tests need the extension, which this step does not build.
ctest --test-dir "$clone/build/werror" --output-on-failure -j "$jobs" -E '^python_tests$'
echo "fresh clone: built and tested in $(($(date +%s) - start)) s"
