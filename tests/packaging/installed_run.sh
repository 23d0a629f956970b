#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The installed-run test: builds the .deb with cpack, unpacks it with dpkg -x into a scratch root
# and runs the installed programs from there, with the source and build trees hidden (tmpfs mounted
# over them in a user + mount namespace), so that they can only use what the package ships.
# Usage: installed_run.sh BUILD_DIR SOURCE_DIR VERSION NEURAL_MODULE
# NEURAL_MODULE: the module's path under /usr (lib/schedlab/libschedlab-neural.so), or none.
# Exit 0 pass, 1 fail, 77 skip (no cpack or dpkg, or no unprivileged namespaces; says which).
set -euo pipefail
[ $# -eq 4 ] || { echo "usage: $0 BUILD_DIR SOURCE_DIR VERSION NEURAL_MODULE" >&2; exit 2; }
build=$(cd "$1" && pwd -P) src=$(cd "$2" && pwd -P) version=$3 module=$4
SKIP=77
skip() { echo "SKIP: $*"; exit $SKIP; }
fail() { echo "FAIL: $*"; exit 1; }

for tool in cpack dpkg-deb dpkg-shlibdeps file readelf unshare; do
  command -v $tool >/dev/null || skip "$tool is not installed (scripts/setup.sh installs it)"
done
# Hiding the trees needs unprivileged user and mount namespaces (some containers and hardened
# kernels refuse them: kernel.unprivileged_userns_clone=0, or seccomp).
unshare -rm sh -c "mount -t tmpfs none '$src'" 2>/dev/null ||
  skip "unshare -rm cannot mount over $src here (no unprivileged user/mount namespaces)"

# Our own scratch directory, outside both trees: nothing is left in the build directory, and tests
# running beside this one do not share any file with it.
work=$(mktemp -d "${TMPDIR:-/tmp}/schedlab-installed-run.XXXXXX")
trap 'rm -rf "$work"' EXIT
case "$work/" in "$src/"* | "$build/"*) fail "scratch directory $work is inside the source or build tree; set TMPDIR elsewhere" ;; esac

# 1. The package. -B keeps cpack's staging tree and the .deb in the scratch directory. The install
# step cpack runs always writes BUILD_DIR/install_manifest.txt (cmake_install.cmake hard-codes the
# path); put back what was there before, so the test leaves the build directory as it found it.
manifest=$build/install_manifest.txt
[ -e "$manifest" ] && cp -p "$manifest" "$work/install_manifest.saved"
restore_manifest() {
  if [ -e "$work/install_manifest.saved" ]; then cp -p "$work/install_manifest.saved" "$manifest"; else rm -f "$manifest"; fi
}
start=$SECONDS
cpack --config "$build/CPackConfig.cmake" -G DEB -B "$work/cpack" >"$work/cpack.log" 2>&1 ||
  { restore_manifest; cat "$work/cpack.log"; fail "cpack -G DEB failed (log above)"; }
restore_manifest
arch=$(dpkg --print-architecture)
deb=$work/cpack/schedlab_${version}_${arch}.deb
[ -f "$deb" ] || { ls "$work/cpack"; fail "cpack did not write schedlab_${version}_${arch}.deb"; }
echo "built $(basename "$deb") ($(du -k "$deb" | cut -f1) KiB) in $((SECONDS - start)) s"
echo "Depends: $(dpkg-deb -f "$deb" Depends)"
dpkg-deb -f "$deb" Depends | grep -q libc6 || fail "the package's Depends has no libc6: dpkg-shlibdeps did not run"

# 2. Its contents, against the install layout.
root=$work/root
dpkg -x "$deb" "$root"
usr=$root/usr
id=io.github.schedlab.SchedLab
expect=(bin/schedlab bin/schedlab-cli
  share/schedlab/examples/NOTICE share/schedlab/examples/ft06.txt
  share/applications/$id.desktop share/metainfo/$id.metainfo.xml share/mime/packages/schedlab.xml
  share/icons/hicolor/scalable/apps/$id.svg
  share/man/man1/schedlab.1.gz share/man/man1/schedlab-cli.1.gz share/doc/schedlab/copyright)
[ "$module" = none ] || expect+=("$module")
for size in 16 22 24 32 48 64 128 256; do expect+=("share/icons/hicolor/${size}x${size}/apps/$id.png"); done
for f in "$src"/resources/examples/*; do expect+=("share/schedlab/examples/$(basename "$f")"); done
for f in "$src"/models/weights/*.slw "$src"/models/weights/*.card.json; do expect+=("share/schedlab/models/$(basename "$f")"); done
for f in "${expect[@]}"; do [ -s "$usr/$f" ] || fail "the package lacks /usr/$f"; done
for f in "$src"/resources/examples/* "$src"/models/weights/*.slw; do
  cmp -s "$f" "$usr/share/schedlab/$( [[ $f == *.slw ]] && echo models || echo examples )/$(basename "$f")" ||
    fail "the packaged $(basename "$f") differs from the source tree's"
done
for page in schedlab schedlab-cli; do
  gzip -t "$usr/share/man/man1/$page.1.gz" || fail "$page.1.gz is not a valid gzip file"
done
# Installed binaries carry no RPATH/RUNPATH into the build or source tree.
for elf in "$usr"/bin/* $(find "$usr/lib" -name '*.so' 2>/dev/null); do
  if readelf -d "$elf" | grep -E '\((RPATH|RUNPATH)\)' | grep -qE "$build|$src"; then
    fail "$elf has a build-tree RPATH: $(readelf -d "$elf" | grep -E 'RPATH|RUNPATH')"
  fi
done

# 3. Run the installed programs with both trees hidden. A fresh HOME keeps the user's settings out.
cat >"$work/run.sh" <<'RUN'
set -eu
usr=$1 work=$2
bin=$usr/bin
ex=$usr/share/schedlab/examples
export HOME=$work/home XDG_RUNTIME_DIR=$work/runtime QT_QPA_PLATFORM=offscreen
mkdir -p "$HOME" "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"
unset SCHEDLAB_MODELS_DIR SCHEDLAB_TOPOFORMER_WEIGHTS LD_LIBRARY_PATH
cd "$work"
echo "+ schedlab-cli methods"
"$bin/schedlab-cli" methods >methods.txt
echo "+ schedlab-cli optimize ft06.txt --method priority-sampler"
"$bin/schedlab-cli" optimize "$ex/ft06.txt" --method priority-sampler --out s.json >optimize.txt
cat optimize.txt
echo "+ schedlab-cli evaluate ft06.txt s.json"
"$bin/schedlab-cli" evaluate "$ex/ft06.txt" s.json >evaluate.txt
echo "+ schedlab ft06.txt --screenshot shot.png"
"$bin/schedlab" "$ex/ft06.txt" --screenshot shot.png --size 1200x800 >gui.txt 2>&1 || { cat gui.txt; exit 1; }
RUN
# A sanitizer build's options may name a suppressions file in the source tree, hidden below: carry it.
for var in TSAN_OPTIONS ASAN_OPTIONS LSAN_OPTIONS UBSAN_OPTIONS; do
  value=${!var:-}
  [[ $value == *suppressions=* ]] || continue
  file=$(sed -E 's/.*suppressions=([^:]*).*/\1/' <<<"$value")
  cp "$file" "$work/$var.supp"
  export "$var=${value//$file/$work/$var.supp}"
done
hide="mount -t tmpfs none '$src'"
case "$build/" in "$src/"*) ;; *) hide="$hide && mount -t tmpfs none '$build'" ;; esac
start=$SECONDS
# (the ls checks that the trees really are empty in there before anything runs)
unshare -rm sh -c "$hide && [ -z \"\$(ls -A '$src'; ls -A '$build' 2>/dev/null)\" ] && sh '$work/run.sh' '$usr' '$work'" ||
  fail "an installed program failed with the source and build trees hidden (output above)"
echo "ran the installed programs in $((SECONDS - start)) s"

grep -q '^priority-sampler' "$work/methods.txt" || fail "'schedlab-cli methods' does not list priority-sampler:"$'\n'"$(cat "$work/methods.txt")"
grep -q 'weights priority-sampler-jobshop.slw' "$work/optimize.txt" ||
  fail "optimize did not report the shipped priority-sampler-jobshop.slw weights"
[ -s "$work/s.json" ] || fail "optimize wrote no schedule"
png=$(file -b "$work/shot.png" 2>/dev/null || true)
[[ $png == "PNG image data, 1200 x 800"* ]] || fail "the screenshot is not a 1200x800 PNG: $png"
# A blank window compresses to a few KiB; a drawn one (graph, panels, text) to far more.
size=$(stat -c %s "$work/shot.png")
((size > 30000)) || fail "the screenshot is only $size bytes: the window looks empty"
echo "OK: the .deb installs the layout, and its programs run from the scratch root without the trees"
