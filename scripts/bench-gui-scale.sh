#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The explorer at scale: `schedlab --bench-startup` on generated layered graphs of 1k, 10k and 100k
# ops (4 devices), joined into one Markdown table for docs/gui.md's Scale section.
#
#   scripts/bench-gui-scale.sh [BUILD_DIR] [SIZES...]      # defaults: build, 1000 10000 100000
#   scripts/bench-gui-scale.sh build 1000 10000 > /tmp/scale.md
#
# Each size runs in its own process (peak RSS is per process); the raw tables go to
# ${OUT_DIR:-/tmp/schedlab-scale}/N.md. Timings are wall-clock: run on a quiet machine, or repeat.
set -euo pipefail
build=${1:-build}
shift || true
sizes=("${@:-1000 10000 100000}")
read -r -a sizes <<< "${sizes[*]}"
out=${OUT_DIR:-/tmp/schedlab-scale}
mkdir -p "$out"
for n in "${sizes[@]}"; do
    echo "bench: $n ops..." >&2
    QT_QPA_PLATFORM=offscreen "$build/app/schedlab" "generated:layered:$n:1" --devices 4 --bench-startup \
        2> "$out/$n.err" | grep '^|' > "$out/$n.md"
done
# join: the measure and target columns once, one value column per size
header="| measure |"
rule="|---|"
thousands() { echo "$1" | sed ':a;s/\B[0-9]\{3\}\>/,&/;ta'; }
for n in "${sizes[@]}"; do header+=" $(thousands "$n") ops |"; rule+="--:|"; done
echo "$header target |"
echo "$rule---|"
first="$out/${sizes[0]}.md"
tail -n +3 "$first" | while IFS='|' read -r _ measure _ target _; do
    measure=$(echo "$measure" | sed 's/^ *//; s/ *$//')
    row="| $measure |"
    for n in "${sizes[@]}"; do
        value=$(grep -F "| $measure |" "$out/$n.md" | head -1 | awk -F'|' '{gsub(/^ +| +$/, "", $3); print $3}')
        row+=" ${value:-–} |"
    done
    echo "$row$target|"
done
