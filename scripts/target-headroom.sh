#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# How good can a proxy-good schedule be on the bandwidth target? For generated 50-op graphs, tabu
# runs on the proxy plus a link LAMBDA times as costly as the bandwidth target's (spec/gflownet.md
# §5.1: latency 0.1 x mean duration, 8 x mean duration per memory unit; a unit is 2 x the mean
# tensor bytes, core/costmodel/target.h), and each schedule is judged on the proxy and on the
# target. Small LAMBDA keeps the proxy speedup near list-cp's while cutting communication.
# Usage: scripts/target-headroom.sh [SCHEDLAB_CLI] [FAMILIES] [GRAPHS] [LAMBDAS]   (needs python3)
#   e.g. scripts/target-headroom.sh build/app/schedlab-cli "erdos-renyi-gfn layered-gfn" 3 "0.1 0.3"
set -euo pipefail
CLI=${1:-build/app/schedlab-cli}
FAMILIES=${2:-erdos-renyi-gfn layered-gfn}
GRAPHS=${3:-3}
LAMBDAS=${4:-0.1 0.3}
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT

speedups() {   # GRAPH SCHEDULE -> "proxy bandwidth"
  "$CLI" evaluate "$1" "$2" --devices 4 --target bandwidth | awk '/^speedup \(proxy\)/ {p=$NF} /^speedup \(bandwidth\)/ {b=$NF} END {printf "%.3f %.3f", p, b}'
}

printf '%-18s %-22s' graph "list-cp proxy / bw"
for l in $LAMBDAS; do printf ' %-22s' "tabu, link x$l"; done
printf '\n'
for family in $FAMILIES; do
  for seed in $(seq 1 "$GRAPHS"); do
    g="$DIR/$family-$seed.json"
    "$CLI" generate "$family" --nodes 50 --seed "$seed" --out "$g" >/dev/null
    "$CLI" optimize "$g" --devices 4 --method list-cp --out "$DIR/list.json" >/dev/null
    printf '%-18s %-22s' "$family $seed" "$(speedups "$g" "$DIR/list.json")"
    for l in $LAMBDAS; do
      python3 - "$g" "$l" "$DIR/link.json" <<'PY'
import json, sys
g = json.load(open(sys.argv[1])); lam = float(sys.argv[2])
mean = sum(o["duration"] for o in g["ops"]) / len(g["ops"])
sizes = [t["bytes"] for t in g.get("tensors", []) if t.get("bytes", 0) > 0]
unit = 2 * sum(sizes) / len(sizes)
json.dump({"format": "schedlab-platform", "version": 1, "devices": [{"name": "d%d" % i} for i in range(4)],
           "interconnect": {"latency": lam * 0.1 * mean, "bandwidth": unit / (lam * 8 * mean)}}, open(sys.argv[3], "w"))
PY
      "$CLI" optimize "$g" --platform "$DIR/link.json" --method tabu --out "$DIR/tabu.json" >/dev/null
      printf ' %-22s' "$(speedups "$g" "$DIR/tabu.json")"
    done
    printf '\n'
  done
done
