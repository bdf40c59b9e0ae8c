#!/bin/sh
# The shipped library: exports exactly the PERFEV_API functions, has a versioned
# soname, installs with PREFIX/DESTDIR, and a program builds against it with pkg-config.
. "$(dirname "$0")/lib.sh"
cd "$ROOT_DIR" || exit 1
SO=$BUILD_DIR/libperfev.so.0.1.0
SANARG="" SANFLAGS=""
case $BUILD_DIR in */san) SANARG="SAN=1" SANFLAGS="-fsanitize=address,undefined" ;; esac

check "libperfev.so has soname libperfev.so.0" sh -c "readelf -d '$SO' | grep -q 'SONAME.*libperfev.so.0]'"

nm -D --defined-only "$SO" | awk '$2 == "T" { print $3 }' | sed 's/@.*//' | sort -u >"$TMP/exported"
# Every function declared PERFEV_API in the public headers (the name before its '(').
cat include/perfev/*.h | tr '\n' ' ' | grep -oE 'PERFEV_API[^;(]*\(' |
	sed -E 's/[ ]*\($//; s/.*[ *]//' | grep -v '^__attribute__$' | sort -u >"$TMP/declared"
if cmp -s "$TMP/exported" "$TMP/declared"; then
	ok "exported symbols are exactly the PERFEV_API declarations ($(wc -l <"$TMP/declared"))"
else
	not_ok "exported symbols are exactly the PERFEV_API declarations" "$(diff "$TMP/declared" "$TMP/exported" | head -n 20)"
fi
check "every exported symbol carries the version node" sh -c "nm -D --defined-only '$SO' | awk '\$2 == \"T\"' | grep -v -c '@@PERFEV_0.1.0' | grep -qx 0"
# Functions only: a variable in the ABI could never change size or meaning.
nm -D --defined-only "$SO" | awk '$2 != "T" && $3 != "PERFEV_0.1.0"' >"$TMP/not_functions"
if [ -s "$TMP/not_functions" ]; then
	not_ok "libperfev.so exports functions only" "$(head -n 10 "$TMP/not_functions")"
else
	ok "libperfev.so exports functions only"
fi
# Each name (or pattern) the version script makes global is something the library exports.
sed -n '/global:/,/local:/p' src/lib/libperfev.map | sed '1d;$d' | tr -d ' \t;' | grep -v '^$' >"$TMP/globals"
: >"$TMP/unmatched"
while read -r pat; do
	found=0
	while read -r sym; do
		case $sym in $pat) found=1 && break ;; esac
	done <"$TMP/exported"
	[ $found = 1 ] || echo "$pat" >>"$TMP/unmatched"
done <"$TMP/globals"
if [ -s "$TMP/globals" ] && [ ! -s "$TMP/unmatched" ]; then
	ok "every name libperfev.map exports is in libperfev.so ($(tr '\n' ' ' <"$TMP/globals"))"
else
	not_ok "every name libperfev.map exports is in libperfev.so" "not found: $(cat "$TMP/unmatched")"
fi

make --no-print-directory -s BUILD="$BUILD_DIR" $SANARG install PREFIX=/opt/perfev DESTDIR="$TMP/root" >"$TMP/install.log" 2>&1
check "make install honours PREFIX and DESTDIR" sh -c "[ -f '$TMP/root/opt/perfev/include/perfev/perfev.h' ] && [ -x '$TMP/root/opt/perfev/bin/perfev' ] && [ -f '$TMP/root/opt/perfev/lib/libperfev.a' ] && [ -L '$TMP/root/opt/perfev/lib/libperfev.so.0' ] && [ -f '$TMP/root/opt/perfev/share/man/man1/perfev-stat.1' ] && [ -f '$TMP/root/opt/perfev/share/man/man3/libperfev.3' ]"
check "make install installs the bash completion" cmp -s "$TMP/root/opt/perfev/share/bash-completion/completions/perfev" "$BUILD_DIR/completion/perfev"
check "make install installs docs/selfmon.md as libperfev-selfmon(3)" \
	cmp -s "$TMP/root/opt/perfev/share/man/man3/libperfev-selfmon.3" "$BUILD_DIR/man/libperfev-selfmon.3"
# The installed completion at work in bash, as bash-completion loads it: COMPREPLY for a line.
installed_completes() {
	bash -c '. "$0"; COMP_LINE=$1; COMP_POINT=${#COMP_LINE}; _perfev; printf "%s\n" "${COMPREPLY[@]}"' \
		"$TMP/root/opt/perfev/share/bash-completion/completions/perfev" "$TMP/root/opt/perfev/bin/perfev $1"
}
for want in "sta|stat" "stat --per-|--per-socket" "report -|-G" "stat -e page-f|page-faults" "-|--version"; do
	line=${want%|*} word=${want#*|}
	if installed_completes "$line" | grep -qxF -- "$word"; then
		ok "the installed completion offers '$word' for 'perfev $line'"
	else
		not_ok "the installed completion offers '$word' for 'perfev $line'" "got: $(installed_completes "$line" | tr '\n' ' ')"
	fi
done
PKG_CONFIG_SYSROOT_DIR="$TMP/root" PKG_CONFIG_LIBDIR="$TMP/root/opt/perfev/lib/pkgconfig" pkg-config --cflags --libs perfev >"$TMP/pc" 2>&1
check "perfev.pc gives flags ($(cat "$TMP/pc"))" grep -q -- '-lperfev' "$TMP/pc"
if cc -std=c11 -Wall -Wextra -Werror $SANFLAGS $(cat "$TMP/pc") examples/count_region.c -o "$TMP/count_region" \
	$(PKG_CONFIG_SYSROOT_DIR="$TMP/root" PKG_CONFIG_LIBDIR="$TMP/root/opt/perfev/lib/pkgconfig" pkg-config --libs perfev) \
	-Wl,-rpath,"$TMP/root/opt/perfev/lib" >"$TMP/cc.log" 2>&1; then
	ok "examples/count_region.c builds against the installed library"
	"$TMP/count_region" >"$TMP/run.log" 2>&1
	check "the example counts its region with the shared library" grep -q 'page-faults' "$TMP/run.log"
	check "the example runs on the installed libperfev.so.0" sh -c "ldd '$TMP/count_region' | grep -q '$TMP/root/opt/perfev/lib/libperfev.so.0'"
else
	not_ok "examples/count_region.c builds against the installed library" "$(cat "$TMP/cc.log")"
fi
