#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Checks the desktop metadata of the package: the .desktop entry, the AppStream metainfo and the
# shared-mime-info XML, with the validators that are installed (each missing one is named), and
# that the metainfo and man pages carry the project's version.
# Usage: metadata.sh PACKAGING_SOURCE_DIR CONFIGURED_METAINFO VERSION
set -uo pipefail
[ $# -eq 3 ] || { echo "usage: $0 PACKAGING_SOURCE_DIR CONFIGURED_METAINFO VERSION" >&2; exit 2; }
pkg=$1 metainfo=$2 version=$3
src=$(cd "$pkg/.." && pwd)
id=$(basename "$metainfo" .metainfo.xml)
desktop=$pkg/$id.desktop
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
work=$(mktemp -d "${TMPDIR:-/tmp}/schedlab-metadata.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT

if command -v desktop-file-validate >/dev/null; then
  out=$(desktop-file-validate "$desktop" 2>&1)
  [ -z "$out" ] || fail "desktop-file-validate $desktop:"$'\n'"$out"
else
  echo "note: desktop-file-validate not installed (desktop-file-utils); the .desktop entry is not validated"
fi

if command -v appstreamcli >/dev/null; then
  appstreamcli validate --no-net "$metainfo" >"$work/as.log" 2>&1 || fail "appstreamcli validate --no-net $metainfo:"$'\n'"$(cat "$work/as.log")"
else
  echo "note: appstreamcli not installed (appstream); the metainfo is not validated"
fi
grep -q "<release version=\"$version\"" "$metainfo" ||
  fail "$metainfo has no <release version=\"$version\">: add the release of project() VERSION $version"
grep -q "<launchable type=\"desktop-id\">$id.desktop</launchable>" "$metainfo" ||
  fail "$metainfo: its launchable is not $id.desktop"
for page in schedlab.1 schedlab-cli.1; do
  grep -q "^\.TH .*\"SchedLab $version\"" "$pkg/$page" || fail "$pkg/$page: its .TH line does not name SchedLab $version"
  if command -v groff >/dev/null; then
    out=$(groff -man -ww -z "$pkg/$page" 2>&1)
    [ -z "$out" ] || fail "groff warns on $pkg/$page:"$'\n'"$out"
  fi
done

# The MIME XML must load cleanly beside the system's database, and every type the .desktop entry
# claims must be known to it.
mkdir -p "$work/mime/packages"
cp "$pkg/schedlab-mime.xml" "$work/mime/packages/schedlab.xml"
cp /usr/share/mime/packages/*.xml "$work/mime/packages/" 2>/dev/null
if command -v update-mime-database >/dev/null; then
  out=$(XDG_DATA_HOME=$work XDG_DATA_DIRS=$work update-mime-database "$work/mime" 2>&1)
  [ -z "$out" ] || fail "update-mime-database on schedlab-mime.xml:"$'\n'"$out"
  for type in $(sed -n 's/^MimeType=//p' "$desktop" | tr ';' ' '); do
    [ -f "$work/mime/$type.xml" ] || fail "$desktop: MimeType $type is known neither to the system nor to schedlab-mime.xml"
  done
  # Sample files of each format must be detected as the types the .desktop entry claims.
  if command -v gio >/dev/null; then
    mkdir "$work/f"
    cp "$src/resources/examples/resnet50.onnx" "$src/resources/examples/layered200.json" "$work/f/"
    printf 'HloModule m\n\nENTRY e {\n}\n' >"$work/f/m.hlo"
    printf 'HloModule m\n\nENTRY e {\n}\n' >"$work/f/dump.hlo.txt"
    printf '2\n0 0 0\n1 1 1 0\n' >"$work/f/g.stg"
    printf '1 1\n0 5\n' >"$work/f/i.jss"
    printf 'digraph { a -> b }\n' >"$work/f/g.dot"
    printf '{"name": "w", "schemaVersion": "1.5", "workflow": {}}\n' >"$work/f/wf.json"
    while read -r file want; do
      got=$(XDG_DATA_HOME=$work XDG_DATA_DIRS=$work gio info -a standard::content-type "$work/f/$file" 2>&1 |
        sed -n 's/^ *standard::content-type: //p')
      [ "$got" = "$want" ] || fail "$file is detected as '$got', not $want"
      grep -q "^MimeType=.*$want;" "$desktop" || fail "$desktop does not claim $want ($file)"
    done <<'LIST'
resnet50.onnx application/x-onnx
layered200.json application/x-schedlab-graph+json
m.hlo text/x-hlo
dump.hlo.txt text/x-hlo
g.stg text/x-stg
i.jss text/x-jobshop
g.dot text/vnd.graphviz
wf.json application/json
LIST
  else
    echo "note: gio not installed (libglib2.0-bin); file type detection is not checked"
  fi
else
  echo "note: update-mime-database not installed (shared-mime-info); the MIME XML is not checked"
fi

if ((failures)); then
  echo "FAIL: $failures problem(s) in the desktop metadata"
  exit 1
fi
echo "OK: desktop entry, AppStream metainfo, MIME types and man page headers of SchedLab $version"
