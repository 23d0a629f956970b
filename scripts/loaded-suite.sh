#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs the README's suite (ctest -j 2 -LE large, on an existing build) N times with a busy loop on
# every core beside it, and prints one line per run and the tally: a verdict must not hinge on the
# machine's speed or load (issue 52). A failed run's whole output goes to BUILD_DIR/loaded-suite.log.
# Usage: scripts/loaded-suite.sh [RUNS] [BUILD_DIR]     (default: 10 runs of build/)
set -uo pipefail
cd "$(dirname "$0")/.."
runs=${1:-10}
build=${2:-build}
[ -f "$build/CTestTestfile.cmake" ] || { echo "loaded-suite: no build in $build (scripts/test.sh makes one)" >&2; exit 2; }
hogs=()
for _ in $(seq "$(nproc)"); do
  (while :; do :; done) &
  hogs+=($!)
done
trap 'kill "${hogs[@]}" 2>/dev/null' EXIT
log="$build/loaded-suite.log"
: >"$log"
green=0
for r in $(seq "$runs"); do
  t0=$(date +%s)
  out=$(cd "$build" && QT_QPA_PLATFORM=offscreen ctest --output-on-failure -j 2 -LE large 2>&1)
  rc=$?
  summary=$(grep -E "tests passed" <<<"$out")
  echo "run $r: exit $rc, $summary ($(($(date +%s) - t0)) s, $(nproc) busy loops beside it)"
  if [ $rc -eq 0 ]; then green=$((green + 1)); else printf '== run %s\n%s\n' "$r" "$out" >>"$log"; fi
done
echo "$green of $runs runs green under load"
[ "$green" -eq "$runs" ]
