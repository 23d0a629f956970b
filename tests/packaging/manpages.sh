#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Keeps the man pages from drifting from the programs: every command of 'schedlab-cli --help', every
# option and listed name of 'schedlab-cli COMMAND --help' and every option of 'schedlab --help'
# must appear in packaging/schedlab-cli.1 and packaging/schedlab.1.
# Usage: manpages.sh SCHEDLAB_CLI SCHEDLAB CLI_MANPAGE GUI_MANPAGE
set -uo pipefail
[ $# -eq 4 ] || { echo "usage: $0 SCHEDLAB_CLI SCHEDLAB CLI_MANPAGE GUI_MANPAGE" >&2; exit 2; }
cli=$1 gui=$2 climan=$3 guiman=$4
failures=0

# The page as text to search: roff escapes for '-' and fonts removed, so '\-\-seed' reads '--seed'.
plain() { sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' -e 's/\\&//g' "$1"; }
# The page without the '.SS' subsections of the other commands (shared sections stay).
only_section() {
  plain "$1" | awk -v keep="$2" '
    /^\.SH/ { skip = 0 } /^\.SS/ { skip = ($2 != keep) } !skip'
}
# Whether WORD occurs as a whole word (options: '--top' must not match '--top-k').
has_word() { grep -qE -- "(^|[^A-Za-z0-9_-])$2(\$|[^A-Za-z0-9_-])" <<<"$1"; }
missing() { echo "MISSING: $1"; failures=$((failures + 1)); }
# Long options (--foo) and short ones (-o,) a help text names.
options_of() { grep -oE -- '(^|[^A-Za-z0-9-])--[a-z][a-z0-9-]*' <<<"$1" | sed 's/^[^-]*//' | sort -u; }
short_options_of() { grep -oE -- '^ +-[a-zA-Z],' <<<"$1" | tr -d ' ,' | sort -u; }

top=$("$cli" --help) || { echo "FAIL: '$cli --help' exited non-zero"; exit 1; }
cliplain=$(plain "$climan")
commands=$(awk '/^Commands:/ { on = 1; next } on && /^$/ { on = 0 } on { print $1 }' <<<"$top")
[ -n "$commands" ] || { echo "FAIL: no 'Commands:' list in '$cli --help' (has its format changed?)"; exit 1; }
for o in $(options_of "$top"); do
  has_word "$cliplain" "$o" || missing "$climan: option $o of 'schedlab-cli --help' is not documented"
done
for c in $commands; do
  if ! grep -qx "\.SS $c" <<<"$cliplain"; then
    missing "$climan: command '$c' of 'schedlab-cli --help' has no '.SS $c' subsection"
    continue
  fi
  help=$("$cli" "$c" --help) || { missing "'schedlab-cli $c --help' exited non-zero"; continue; }
  page=$(only_section "$climan" "$c")
  for o in $(options_of "$help"); do
    has_word "$page" "$o" ||
      missing "$climan: option $o of 'schedlab-cli $c --help' is in neither the '$c' subsection nor a shared section"
  done
  # Names listed in the help (bench NAME, train MODEL, generate FAMILY) are part of the interface too.
  names=$(awk '/^(Benchmarks|Models):$/ { on = 1; next } on && /^$/ { on = 0 } on { print $1 }
               /^Families:/ { for (i = 2; i <= NF; ++i) print $i }' <<<"$help")
  for n in $names; do
    has_word "$page" "$n" || missing "$climan: '$n' listed by 'schedlab-cli $c --help' is not in the '$c' subsection"
  done
done

guihelp=$(QT_QPA_PLATFORM=offscreen "$gui" --help) || { echo "FAIL: '$gui --help' exited non-zero"; exit 1; }
for o in $(options_of "$guihelp") $(short_options_of "$guihelp"); do
  has_word "$(plain "$guiman")" "$o" || missing "$guiman: option $o of 'schedlab --help' is not documented"
done

if ((failures)); then
  echo "FAIL: $failures item(s) of the --help texts are missing from the man pages; document them there"
  exit 1
fi
echo "OK: $(wc -w <<<"$commands") commands and their options are documented in both man pages"
