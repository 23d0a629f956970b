#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Set-up, Release build, then the whole test suite through CTest (headless).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh build
cd build
# the 100,000-op graphs (label "large", a minute) run with: ctest -L large
QT_QPA_PLATFORM=offscreen ctest --output-on-failure -j 2 -LE large "$@"
