#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Usage: listeners.sh [--until-public] COMMAND [ARGS...]
# Runs COMMAND in a session of its own and, every 20 ms while it runs, lists the TCP sockets in
# LISTEN state that any process of that session holds, from /proc (no ss needed). Prints each
# listener once as "listen ADDRESS:PORT" (hex as in /proc/net/tcp*), and exits 3 if any listened
# on an address other than loopback, else with COMMAND's exit code.
# --until-public: the session is ended (SIGTERM) as soon as such a listener is seen, so a check
# that expects one can give COMMAND as long as it likes to open it: the verdict does not depend on
# how fast this machine scans.
set -uo pipefail
until_public=false
if [ "${1:-}" = "--until-public" ]; then until_public=true; shift; fi
setsid "$@" &
leader=$!
seen=""
public=0

# Inodes of the sockets the session's processes hold, one per line. Bash builtins read each
# /proc/<pid>/stat (no process per pid: a scan takes milliseconds on a loaded machine too).
session_socket_inodes() {
  local stat pid line rest sid
  for stat in /proc/[0-9]*/stat; do
    read -r line 2>/dev/null <"$stat" || continue
    rest=${line##*) }                     # after "pid (comm) ": state ppid pgrp session ...
    read -r _ _ _ sid _ <<<"$rest"
    [ "$sid" = "$leader" ] || continue
    pid=${stat#/proc/}; pid=${pid%/stat}
    ls -l "/proc/$pid/fd" 2>/dev/null | sed -n 's/.*socket:\[\([0-9]*\)\]$/\1/p'
  done
}

# Loopback: 127.x.x.x (hex little-endian, ends in 7F), ::1, and ::ffff:127.x.x.x.
is_loopback() {
  local a=$1
  [[ ${#a} -eq 8 && ${a:6:2} == 7F ]] && return 0
  [[ $a == 00000000000000000000000001000000 ]] && return 0
  [[ ${#a} -eq 32 && ${a:0:24} == 0000000000000000FFFF0000 && ${a:30:2} == 7F ]] && return 0
  return 1
}

while kill -0 "$leader" 2>/dev/null; do
  inodes=" $(session_socket_inodes | tr '\n' ' ') "
  while read -r _ local _ state _ _ _ _ _ inode _; do
    [ "$state" = "0A" ] || continue
    [[ $inodes == *" $inode "* ]] || continue
    [[ $seen == *" $local "* ]] && continue
    seen="$seen $local "
    echo "listen $local"
    is_loopback "${local%:*}" || public=1
  done < <(cat /proc/net/tcp /proc/net/tcp6 2>/dev/null)
  if $until_public && [ $public -eq 1 ]; then kill -TERM -- "-$leader" 2>/dev/null; break; fi
  sleep 0.02
done
wait "$leader"
rc=$?
[ $public -eq 1 ] && exit 3
exit $rc
