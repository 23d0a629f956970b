#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds the libFuzzer targets (tests/fuzz, clang, ASan+UBSan) in build-fuzz and runs each for RUNS
# executions over its seed corpus, then prints: target, executions, seconds, crashes.
# Usage: scripts/fuzz.sh [RUNS] [TARGET...]     (default: 100000 runs, every target)
# Crashing inputs are left in build-fuzz/tests/fuzz/artifacts/; replay one with
#   build-fuzz/tests/fuzz/fuzz_<target> <file>
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS=${1:-100000}
shift || true
TARGETS=("$@")
((${#TARGETS[@]})) || TARGETS=(graph_json schedule platform dot stg jobshop wfcommons hlo onnx weights)

# clang is the only extra package: libFuzzer ships with it (scripts/setup.sh installs the rest)
if ! command -v clang++ >/dev/null; then
  echo "fuzz: installing clang"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends clang
fi

BUILD_DIR=build-fuzz
# core only: the fuzz targets link schedlab_core, so LibTorch and Qt stay out of this build
CC=clang CXX=clang++ cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DSCHEDLAB_FUZZ=ON -DSCHEDLAB_CORE_ONLY=ON >/dev/null
cmake --build "$BUILD_DIR" -j "${SCHEDLAB_JOBS:-2}" --target fuzz_targets

dir=$BUILD_DIR/tests/fuzz
mkdir -p "$dir/artifacts" "$dir/logs"
rows=()
failed=0
for t in "${TARGETS[@]}"; do
  log=$dir/logs/$t.log
  start=$(date +%s%N)
  set +e
  # -timeout / -rss_limit_mb: one input may take at most 10 s and 2 GiB, else it is a finding
  "$dir/fuzz_$t" -runs="$RUNS" -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$dir/artifacts/$t-" "$dir/corpus/$t" >"$log" 2>&1
  rc=$?
  set -e
  tenths=$((($(date +%s%N) - start) / 100000000))
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  crashes=0
  if ((rc != 0)); then
    crashes=1   # libFuzzer stops at the first crash, leak or timeout
    failed=1
    echo "fuzz: $t failed (exit $rc), see $log:"
    grep -E "^(==[0-9]+==ERROR|SUMMARY|artifact_prefix|Test unit written)" "$log" | head -5
  fi
  rows+=("$(printf '%-12s %12s %7d.%d %8s' "$t" "${execs:-?}" $((tenths / 10)) $((tenths % 10)) "$crashes")")
done

printf '%-12s %12s %9s %8s\n' target executions seconds crashes
printf '%s\n' "${rows[@]}"
exit $failed
