#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs the Debian 12 packages SchedLab needs (only the missing ones) and builds it (Release).
# Usage: scripts/setup.sh [BUILD_DIR]      (default: build)
#        scripts/setup.sh --packages-only   (the package check and install, no build)
#        scripts/setup.sh --configure-only [BUILD_DIR]   (packages and CMake's configure, no build)
set -euo pipefail
cd "$(dirname "$0")/.."

# One package group per line, "why it is needed: packages"; the reason is printed when the group
# has packages to install.
PACKAGE_GROUPS=(
  "to build (compiler, CMake, Ninja, ccache): g++ cmake ninja-build pkg-config ccache"
  "for the explorer (Qt 6 widgets, charts, SVG; Qt's CMake packages want OpenGL): qt6-base-dev qt6-base-dev-tools qt6-charts-dev qt6-svg-dev libqt6opengl6-dev libgl-dev"
  "for the neural methods (LibTorch, a fast BLAS under it, Eigen's sparse solvers for large graphs) and distributed runs (Gloo's headers, for LibTorch's c10d): libtorch-dev libopenblas0-pthread libeigen3-dev libgloo-dev"
  "for DOT files and graph algorithms (Graphviz, Boost Graph): libgraphviz-dev libboost-graph-dev"
  "to read ONNX models (ONNX, Protobuf): libonnx-dev libprotobuf-dev protobuf-compiler"
  "for the exact makespan solver (Gecode's constraint engine, unary and cumulative propagators): libgecode-dev"
  "for JSON files, and a font for the explorer's text: nlohmann-json3-dev fonts-dejavu-core"
  "for studies (many graphs, methods and seeds in one database): libsqlite3-dev"
  "for the .deb (cpack runs dpkg-shlibdeps and file) and the validators of its desktop files: dpkg-dev file appstream desktop-file-utils"
)
PACKAGES=()
for g in "${PACKAGE_GROUPS[@]}"; do read -ra group <<<"${g##*: }"; PACKAGES+=("${group[@]}"); done

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  for g in "${PACKAGE_GROUPS[@]}"; do
    todo=()
    for p in ${g##*: }; do if [[ " ${missing[*]} " == *" $p "* ]]; then todo+=("$p"); fi; done
    if ((${#todo[@]})); then echo "setup: installing ${todo[*]} ${g%%: *}"; fi
  done
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "setup: all ${#PACKAGES[@]} packages are installed (no apt-get, no sudo)"
fi

[ "${1:-}" = "--packages-only" ] && exit 0
configure_only=false
if [ "${1:-}" = "--configure-only" ]; then configure_only=true; shift; fi
BUILD_DIR=${1:-build}
cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
$configure_only && exit 0
# Two jobs: LibTorch translation units need ~1.5 GiB each, and the target machine has two cores.
cmake --build "$BUILD_DIR" -j "${SCHEDLAB_JOBS:-2}"
