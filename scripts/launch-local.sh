#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Starts N ranks of a distributed schedlab-cli command on this machine, on a free loopback port,
# and waits for them (docs/distributed.md). Rank 0 prints; the others report on stderr.
# Usage: scripts/launch-local.sh N COMMAND [ARGS...]
#   e.g. scripts/launch-local.sh 2 build/app/schedlab-cli bench search --budget 2000 --quick
# Each rank gets torchrun's variables: WORLD_SIZE, RANK, MASTER_ADDR=127.0.0.1, MASTER_PORT.
# If a rank fails, the others are stopped and its exit code is returned; Ctrl-C stops all.
set -uo pipefail

if [ $# -lt 2 ] || ! [[ "$1" =~ ^[1-9][0-9]*$ ]]; then
  echo "usage: $0 N COMMAND [ARGS...]   (N ranks on 127.0.0.1)" >&2
  exit 2
fi
N=$1
shift

# A port no socket uses in any state (listening, connected, TIME_WAIT), below the kernel's
# ephemeral range (where Gloo's own connections get their ports).
port_is_free() {
  local hex
  hex=$(printf ':%04X ' "$1")
  ! grep -qi -- "$hex" /proc/net/tcp /proc/net/tcp6 2>/dev/null
}
PORT=${MASTER_PORT:-}
if [ -z "$PORT" ]; then
  for _ in $(seq 1 200); do
    candidate=$((20000 + RANDOM % 12000))
    if port_is_free "$candidate"; then PORT=$candidate; break; fi
  done
fi
[ -n "$PORT" ] || { echo "$0: found no free port on 127.0.0.1" >&2; exit 1; }

pids=()
stop_all() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done; }
trap 'stop_all; exit 130' INT TERM

for ((r = 0; r < N; r++)); do
  WORLD_SIZE=$N RANK=$r MASTER_ADDR=127.0.0.1 MASTER_PORT=$PORT "$@" &
  pids+=($!)
done

# Poll rather than `wait -n`, which can lose the status of a rank that ended before it was called:
# a rank that has ended is waited for by its pid, which always gives its exit code.
status=0
running=("${pids[@]}")
while ((${#running[@]})); do
  still=()
  for p in "${running[@]}"; do
    if kill -0 "$p" 2>/dev/null; then still+=("$p"); continue; fi
    wait "$p"
    rc=$?
    if [ $rc -ne 0 ] && [ $status -eq 0 ]; then
      status=$rc
      echo "$0: a rank exited with code $rc; stopping the others" >&2
      stop_all
    fi
  done
  running=("${still[@]}")
  ((${#running[@]})) && sleep 0.05
done
exit $status
