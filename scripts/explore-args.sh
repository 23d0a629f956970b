#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Usage: scripts/explore-args.sh SCHEDLAB DEFAULT_FILE [ARGS...]
# Prints ARGS, one per line, with DEFAULT_FILE after them when they name no file to open: options
# alone (--quit-after-paint, --view gantt, ...) still open the bundled example. Which options take
# a value is read from SCHEDLAB --help, so a new option needs no change here.
set -euo pipefail
app=$1 default=$2
shift 2
valued=" $("$app" --help 2>/dev/null | grep -oE -- '(-[a-zA-Z], )?--[a-z-]+ <' | sed -E 's/ <$//; s/, / /' | tr '\n' ' ') "
file_named=false skip=false
for a in "$@"; do
  if $skip; then skip=false; continue; fi
  case $a in
    --*=*) ;;
    -*) [[ $valued == *" $a "* ]] && skip=true ;;
    *) file_named=true ;;
  esac
done
printf '%s\n' "$@"
$file_named || printf '%s\n' "$default"
