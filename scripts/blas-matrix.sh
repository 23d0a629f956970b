#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The neural tests under each OpenBLAS core type and LibTorch kernel set this CPU can run, with
# the margins they print (docs/reliability.md, Portability). The variables are set in this
# command alone: the suite and CI leave them as the machine sets them.
# Usage: scripts/blas-matrix.sh [BUILD_DIR] [CORETYPE ...]   (default: build; Haswell Zen Sandybridge,
#        plus SkylakeX where the CPU has AVX-512)
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${1:-build}
shift || true
cores=("$@")
avx512=false
grep -q avx512f /proc/cpuinfo && avx512=true
if ((${#cores[@]} == 0)); then
  cores=(Haswell Zen Sandybridge)
  $avx512 && cores+=(SkylakeX)
fi
kernels=(default avx2)
$avx512 && kernels+=(avx512)
for core in "${cores[@]}"; do
  for kernel in "${kernels[@]}"; do
    echo "== OPENBLAS_CORETYPE=$core ATEN_CPU_CAPABILITY=$kernel"
    (cd "$BUILD_DIR" && OPENBLAS_CORETYPE=$core ATEN_CPU_CAPABILITY=$kernel QT_QPA_PLATFORM=offscreen \
      ctest -R '^(models_|cli_train$|cli_neural_repro$)' -E '_default_kernels$' -V 2>&1) |
      grep -E 'margin|Test +#[0-9]+:|tests passed' | sed -E 's/^[0-9]+: //' || true
  done
done
