#!/usr/bin/env bash
# Configures the -Werror test tree: gcc -O2 with line tables only (-g1), a
# unity build (HTPSCOPE_UNITY_BUILD), the Python extension against Debian's
# python3.  Usage: configure-werror-tree.sh SOURCE_DIR BUILD_DIR [cmake args].
# scripts/test.sh configures build/werror with it, and scripts/fresh-clone-test.sh
# the clone's tree, with identical flags so the clone's compiles hit ccache.
set -euo pipefail
source_dir=$1
build_dir=$2
shift 2
cmake -S "$source_dir" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DHTPSCOPE_WERROR=ON -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" \
  -DHTPSCOPE_UNITY_BUILD=ON -DPython3_EXECUTABLE=/usr/bin/python3 "$@"
