#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs the Debian 12 packages SchedLab needs (only the missing ones) and builds it (Release).
# Usage: scripts/setup.sh [BUILD_DIR]      (default: build)
set -euo pipefail
cd "$(dirname "$0")/.."

PACKAGES=(
  g++ cmake ninja-build pkg-config ccache
  qt6-base-dev qt6-base-dev-tools qt6-charts-dev qt6-svg-dev libqt6opengl6-dev libgl-dev
  libtorch-dev libopenblas0-pthread
  libgraphviz-dev libboost-graph-dev
  libonnx-dev libprotobuf-dev protobuf-compiler
  nlohmann-json3-dev fonts-dejavu-core
)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "setup: all ${#PACKAGES[@]} packages are installed (no apt-get, no sudo)"
fi

BUILD_DIR=${1:-build}
cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
# Two jobs: LibTorch translation units need ~1.5 GiB each, and the target machine has two cores.
cmake --build "$BUILD_DIR" -j "${SCHEDLAB_JOBS:-2}"
