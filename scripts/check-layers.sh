#!/bin/sh
# Checks the library's layering against what each folder's README says it may
# use ("Uses: a, b"), on the sources and on the objects of a build:
#   - the "Uses:" lines name existing folders and form no circle;
#   - a file includes internal headers of its own folder or of folders it may use;
#   - an object calls or reads only symbols of its own folder or of folders it
#     may use (nm: what each object leaves undefined, against who defines it);
#   - inside a folder, files do not depend on each other in a circle;
#   - the tool (src/cli) is built from include/ alone: no src/lib header in its
#     dependency files, and no library symbol it uses that the library does not
#     export.
# Prints TAP-like lines ("ok N - ...", "not ok N - ...") and exits 1 on a failure.
# Usage: scripts/check-layers.sh [BUILD]   (BUILD: a build directory, default build)
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-build}
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
LIB=$ROOT/src/lib
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() {
	n=$((n + 1)) failed=$((failed + 1))
	echo "not ok $n - $1"
	sed 's/^/    /' "$2" | head -n 30
}

if ! ls "$BUILD"/src/lib/*/*.o >/dev/null 2>&1; then
	echo "check-layers: no objects under $BUILD/src/lib; build first ('make BUILD=$BUILD')" >&2
	exit 2
fi

# ---- the declared graph: "folder used" pairs ----
folders=$(cd "$LIB" && for d in */; do echo "${d%/}"; done)
: >"$TMP/uses"
: >"$TMP/bad"
for f in $folders; do
	if [ ! -f "$LIB/$f/README.md" ]; then
		echo "src/lib/$f has no README.md saying what it owns and uses" >>"$TMP/bad"
		continue
	fi
	line=$(sed -n 's/^Uses: *//p' "$LIB/$f/README.md")
	if [ -z "$line" ]; then
		echo "src/lib/$f/README.md has no 'Uses:' line" >>"$TMP/bad"
		continue
	fi
	[ "$line" = nothing ] && continue
	for u in $(echo "$line" | tr ',' ' '); do
		if [ ! -d "$LIB/$u" ] || [ "$u" = "$f" ]; then
			echo "src/lib/$f/README.md: 'Uses: $line' names '$u', not another folder of src/lib" >>"$TMP/bad"
		else
			echo "$f $u" >>"$TMP/uses"
		fi
	done
done
if [ -s "$TMP/bad" ]; then not_ok "every folder of src/lib says what it may use" "$TMP/bad"; else
	ok "every folder of src/lib says what it may use ($(echo $folders | wc -w) folders)"; fi
if tsort "$TMP/uses" >/dev/null 2>"$TMP/loop"; then
	ok "the folders' Uses lines form no circle"
else
	not_ok "the folders' Uses lines form no circle" "$TMP/loop"
fi

# may_use FOLDER USED: true when FOLDER's README allows USED (or they are one).
may_use() { [ "$1" = "$2" ] || grep -qx "$1 $2" "$TMP/uses"; }

# ---- includes ----
: >"$TMP/bad"
for f in $folders; do
	for src in "$LIB/$f"/*.[ch]; do
		[ -f "$src" ] || continue
		grep -n '^#include "' "$src" | while IFS= read -r l; do
			hdr=$(echo "$l" | sed 's/.*#include "\([^"]*\)".*/\1/')
			case $hdr in
			perfev/*) ;; # the public API, declarations only: the symbol check below sees real use
			*/*)
				u=${hdr%%/*}
				may_use "$f" "$u" || echo "src/lib/$f/${src##*/}:${l%%:*}: includes $hdr, but $f may not use $u" ;;
			*) echo "src/lib/$f/${src##*/}:${l%%:*}: includes \"$hdr\" without its folder (write \"FOLDER/$hdr\")" ;;
			esac
		done
	done
done >"$TMP/bad"
if [ -s "$TMP/bad" ]; then not_ok "library files include only headers of folders they may use" "$TMP/bad"; else
	ok "library files include only headers of folders they may use"; fi

# ---- symbols: who defines what, who uses what ----
# Objects of sources that still exist: a build directory keeps those of deleted files.
live() { [ -f "$ROOT/src/$1.c" ]; }
for o in "$BUILD"/src/lib/*/*.o; do
	rel=${o#"$BUILD"/src/lib/}
	rel=${rel%.o}
	live "lib/$rel" || continue
	nm --defined-only "$o" | awk -v f="$rel" '$2 ~ /^[TDBRVWGS]$/ { print $3, f }'
done | sort -k1,1 >"$TMP/defs"
for o in "$BUILD"/src/lib/*/*.o; do
	rel=${o#"$BUILD"/src/lib/}
	rel=${rel%.o}
	live "lib/$rel" || continue
	nm --undefined-only "$o" | awk -v f="$rel" '{ print $2, f }'
done | sort -k1,1 >"$TMP/undefs"
# "user definer symbol" for every use of a symbol another library file defines.
join "$TMP/undefs" "$TMP/defs" | awk '$2 != $3 { print $2, $3, $1 }' | sort -u >"$TMP/edges"
while read -r user definer sym; do
	uf=${user%%/*} df=${definer%%/*}
	may_use "$uf" "$df" || echo "$user uses $sym of $definer, but $uf may not use $df"
done <"$TMP/edges" >"$TMP/bad"
if [ -s "$TMP/bad" ]; then not_ok "library objects use only symbols of folders they may use" "$TMP/bad"; else
	ok "library objects use only symbols of folders they may use ($(wc -l <"$TMP/edges") uses between files)"; fi

awk '{ split($1, a, "/"); split($2, b, "/"); if (a[1] == b[1]) print $2, $1 }' "$TMP/edges" | sort -u >"$TMP/inner"
if tsort "$TMP/inner" >/dev/null 2>"$TMP/loop"; then
	ok "no circle between the files of any folder"
else
	not_ok "no circle between the files of any folder" "$TMP/loop"
fi

# ---- the tool against the public API only ----
: >"$TMP/bad"
for d in "$BUILD"/src/cli/*.d; do
	[ -f "$d" ] || continue
	b=${d##*/}
	live "cli/${b%.d}" || continue
	grep -o '[^ ]*src/lib/[^ :]*' "$d" | sed "s|^|${d##*/}: depends on |"
done | sort -u >"$TMP/bad"
if [ -s "$TMP/bad" ]; then not_ok "the tool's sources include no header of src/lib" "$TMP/bad"; else
	ok "the tool's sources include no header of src/lib"; fi

nm -D --defined-only "$BUILD"/libperfev.so 2>/dev/null | awk '{ print $3 }' | sed 's/@.*//' | sort -u >"$TMP/exported"
awk '{ print $1 }' "$TMP/defs" | sort -u >"$TMP/libsyms"
for o in "$BUILD"/src/cli/*.o; do
	b=${o##*/}
	live "cli/${b%.o}" || continue
	nm --undefined-only "$o" | awk -v f="${o##*/}" '{ print $2, f }'
done | sort -k1,1 | join - "$TMP/libsyms" | sort -u >"$TMP/cliuses"
awk '{ print $1 }' "$TMP/cliuses" | sort -u | comm -23 - "$TMP/exported" >"$TMP/hidden"
if [ -s "$TMP/hidden" ]; then
	grep -F -w -f "$TMP/hidden" "$TMP/cliuses" | awk '{ print $2 " uses " $1 ", which libperfev does not export" }' >"$TMP/bad"
	not_ok "the tool uses only exported library functions" "$TMP/bad"
else
	ok "the tool uses only exported library functions ($(awk '{ print $1 }' "$TMP/cliuses" | sort -u | wc -l) of them)"
fi

echo "$((n - failed)) passed, $failed failed"
[ "$failed" = 0 ]
