#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Set-up, then the explorer on a bundled example as soon as it is built (Release). The window does
# not wait for the neural module (LibTorch, most of the build): it builds beside the open window,
# at low priority, and its methods join the Run panel when it is ready. The tests are not built
# here (scripts/test.sh builds them).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=build
scripts/setup.sh --configure-only "$BUILD_DIR"   # packages, then CMake's configure
cmake --build "$BUILD_DIR" -j "${SCHEDLAB_JOBS:-2}" --target schedlab

# The window loads the module only once this file exists: it holds the build's exit status.
stamp="$BUILD_DIR/app/neural-module.built"
log="$BUILD_DIR/app/neural-module.log"
rm -f "$stamp"
(
  status=0
  nice -n 10 cmake --build "$BUILD_DIR" -j "${SCHEDLAB_JOBS:-2}" --target schedlab_neural >"$log" 2>&1 || status=$?
  echo "$status" >"$stamp"
) &
builder=$!
echo "explore: the neural module builds beside the window (log: $log)"
status=0
mapfile -t args < <(scripts/explore-args.sh "$BUILD_DIR/app/schedlab" resources/examples/layered200.json "$@")
SCHEDLAB_NEURAL_MODULE_BUILDING="$PWD/$stamp" "$BUILD_DIR/app/schedlab" "${args[@]}" || status=$?
# The build tree is shared with scripts/test.sh: never leave a build running behind.
if kill -0 "$builder" 2>/dev/null; then echo "explore: waiting for the neural module's build to end"; fi
wait "$builder" || true
[ "$(cat "$stamp" 2>/dev/null)" = 0 ] || echo "explore: the neural module failed to build; see $log" >&2
exit "$status"
