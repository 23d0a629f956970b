#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# scripts/setup.sh on a machine where everything is installed (this one: the suite runs after
# setup.sh built it) must call no apt command and no sudo: apt-get, apt and sudo are replaced by
# shims that log their calls, and the log must stay empty.
# Usage: setup_no_apt.sh SOURCE_DIR
set -euo pipefail
source_dir=$1
shims=$(mktemp -d)
trap 'rm -rf "$shims"' EXIT
for tool in apt-get apt sudo; do
  printf '#!/bin/sh\necho "%s $*" >> "%s/calls.log"\nexit 1\n' "$tool" "$shims" > "$shims/$tool"
  chmod +x "$shims/$tool"
done
output=$(PATH="$shims:$PATH" "$source_dir/scripts/setup.sh" --packages-only 2>&1) || {
  echo "FAIL: setup.sh --packages-only failed:"; echo "$output"; exit 1; }
if [ -s "$shims/calls.log" ]; then
  echo "FAIL: setup.sh called apt or sudo although every package is installed:"; cat "$shims/calls.log"
  echo "$output"; exit 1
fi
case "$output" in
  *"are installed (no apt-get, no sudo)"*) echo "ok: $output" ;;
  *) echo "FAIL: setup.sh did not say that everything is installed:"; echo "$output"; exit 1 ;;
esac
