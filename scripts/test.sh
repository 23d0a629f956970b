#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Set-up, Release build, then the whole test suite through CTest (headless).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh build
cd build
QT_QPA_PLATFORM=offscreen ctest --output-on-failure -j 2 "$@"
