#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Set-up, Release build, then opens the explorer on a bundled example graph.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh build
exec build/app/schedlab "${@:-resources/examples/layered200.json}"
