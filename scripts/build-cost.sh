#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The build's cost, from scratch, on this machine: configures a fresh build folder with the compiler
# cache off, builds what scripts/explore.sh waits for (the explorer), then everything that
# scripts/test.sh builds, and prints from .ninja_log the seconds of compiling and linking per room,
# the explorer's share, the slowest units and the wall times. Run it before and after a change on
# one machine: machines differ up to 3x, the work does not.
#
# Usage: scripts/build-cost.sh [--build-dir DIR] [--jobs N] [--top N]
#   --build-dir DIR  build there and keep it (default: a temporary folder, removed at the end)
#   --jobs N         parallel jobs (default 2, as the scripts use)
#   --top N          how many of the slowest units to list (default 20)
#   scripts/build-cost.sh --report DIR   reads an existing build's .ninja_log only (no build)
set -euo pipefail
cd "$(dirname "$0")/.."
src=$PWD
build_dir="" jobs=2 top=20 report_only=false
while (($#)); do
  case $1 in
    --build-dir) build_dir=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --top) top=$2; shift 2 ;;
    --report) report_only=true; build_dir=$2; shift 2 ;;
    -h|--help) sed -n '3,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "build-cost: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
done

# Seconds of each edge, once per edge (an edge with several outputs has one line per output, with the
# same times and hash), from line FIRST to LAST of the log; prints "seconds output".
edges() {   # LOG FIRST LAST
  awk -v first="$2" -v last="$3" 'NR >= first && NR <= last && !/^#/ {
      key = $1 " " $2 " " $5; if (key in seen) next; seen[key] = 1
      printf "%.3f %s\n", ($2 - $1) / 1000, $4 }' "$1"
}
room_of='{ split($2, p, "/"); r = p[1]; if (r !~ /^(core|widgets|app|models|tests)$/) r = "other"; }'
by_room() {   # reads "seconds output" lines; prints the rooms and the sum
  awk "$room_of"'{ s[r] += $1; n[r]++; all += $1 }
      END { split("core widgets models app tests other", order, " ")
            for (i = 1; i <= 6; i++) if (order[i] in s)
              printf "| %-8s | %5d | %8.0f | %5.1f %% |\n", order[i], n[order[i]], s[order[i]], 100 * s[order[i]] / all
            printf "| %-8s | %5d | %8.0f | 100.0 %% |\n", "all", NR, all }'
}

log_lines() { [ -f "$build_dir/.ninja_log" ] && wc -l <"$build_dir/.ninja_log" || echo 0; }
explorer_last=""
if ! $report_only; then
  keep=true
  if [ -z "$build_dir" ]; then build_dir=$(mktemp -d /tmp/schedlab-build-cost.XXXXXX); keep=false; fi
  if [ -e "$build_dir/CMakeCache.txt" ]; then echo "build-cost: $build_dir holds a build already; give a new folder" >&2; exit 2; fi
  $keep || trap 'rm -rf "$build_dir"' EXIT
  scripts/setup.sh --packages-only >/dev/null
  export CCACHE_DISABLE=1
  t0=$(date +%s)
  cmake -S "$src" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
  t1=$(date +%s)
  cmake --build "$build_dir" -j "$jobs" --target schedlab >/dev/null
  t2=$(date +%s)
  explorer_last=$(log_lines)
  cmake --build "$build_dir" -j "$jobs" >/dev/null
  t3=$(date +%s)
fi
log="$build_dir/.ninja_log"
[ -f "$log" ] || { echo "build-cost: no $log" >&2; exit 2; }
total=$(log_lines)

echo "Build cost: $(git -C "$src" describe --always --dirty 2>/dev/null || echo '?') on $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(date -u +%F)"
echo "(seconds summed over .ninja_log's edges: compiling, linking, moc; the compiler cache off)"
echo
echo "| room     | edges | seconds  | share   |"
echo "|----------|------:|---------:|--------:|"
edges "$log" 1 "$total" | by_room
if [ -n "$explorer_last" ]; then
  echo
  echo "The explorer's share (what scripts/explore.sh builds before the window opens):"
  echo
  echo "| room     | edges | seconds  | share   |"
  echo "|----------|------:|---------:|--------:|"
  edges "$log" 1 "$explorer_last" | by_room
fi
echo
echo "The $top slowest units:"
echo
echo "| seconds | output |"
echo "|--------:|--------|"
edges "$log" 1 "$total" | sort -rn | awk -v top="$top" 'NR <= top' | awk '{ printf "| %7.1f | %s |\n", $1, $2 }'
if [ -n "$explorer_last" ]; then
  echo
  echo "Wall time: configure $((t1 - t0)) s, the explorer $((t2 - t1)) s, the rest $((t3 - t2)) s; $((t3 - t0)) s in all (-j $jobs)"
fi
