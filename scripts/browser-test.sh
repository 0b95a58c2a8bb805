#!/usr/bin/env bash
# Opens htpscope's HTML reports in headless Chromium and checks them
# (tests/browser/report.test.mjs): installs Debian's chromium and the tests'
# pinned npm packages, then runs node's test runner against the binaries in
# BUILD_DIR (htpscope, and tools/synth/htpscope-synth for the large run).
# Screenshots land in tests/browser/artifacts/.
# HTPSCOPE_SKIP_BROWSER=1 skips the whole step.
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:?usage: scripts/browser-test.sh BUILD_DIR}"
if [[ "${HTPSCOPE_SKIP_BROWSER:-0}" != "0" ]]; then
  echo "== browser tests skipped (HTPSCOPE_SKIP_BROWSER=${HTPSCOPE_SKIP_BROWSER})"
  exit 0
fi
bash scripts/install-deps.sh scripts/debian-packages-browser.txt
if ! command -v npm > /dev/null; then
  bash scripts/install-deps.sh <(echo npm)
fi
build="$(cd "$build" && pwd)"
echo "== browser tests (headless Chromium: $(chromium --version 2> /dev/null | head -1))"
cd tests/browser
npm ci --no-audit --no-fund --loglevel=error
HTPSCOPE_BUILD_DIR="$build" node --test --test-concurrency=1 report.test.mjs
