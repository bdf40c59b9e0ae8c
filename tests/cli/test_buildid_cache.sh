#!/bin/sh
# The build-id cache: perfev record keeps the files with samples in it (perf's
# layout), report, script and annotate find a rebuilt program's original there,
# and warn once per file when it is gone; perf finds perfev's entries and perfev
# finds perf's; where the cache is ($PERFEV_BUILDID_DIR, perf's buildid.dir,
# $HOME/.debug), --no-buildid-cache, and the size limit.
. "$(dirname "$0")/lib.sh"

CACHE=$PERFEV_BUILDID_DIR
CC=${CC:-cc}
command -v "$CC" >/dev/null 2>&1 || CC=gcc
SRC=$TMP/src
mkdir -p "$SRC"

# A program and a library of its own, each with a hot function named by VERSION.
build() { # VERSION
	cat >"$SRC/lib.c" <<EOF
double lib_$1(double x) { for (long i = 0; i < 12000000; i++) x = x * 1.0000001 + 1e-9; return x; }
EOF
	cat >"$SRC/prog.c" <<EOF
#include <stdio.h>
double lib_$1(double);
__attribute__((noinline)) double prog_$1(double x)
{ for (long i = 0; i < 12000000; i++) x = x * 1.0000002 + 1e-9; return x; }
int main(void) { printf("%f\n", prog_$1(1.0) + lib_$1(2.0)); return 0; }
EOF
	# A new file each time, as a linker writes one (rm first: a hard link in the cache stays as it was).
	rm -f "$SRC/libwork.so" "$SRC/prog"
	"$CC" -O1 -g -fPIC -shared -o "$SRC/libwork.so" "$SRC/lib.c" &&
		"$CC" -O1 -g -fno-omit-frame-pointer -o "$SRC/prog" "$SRC/prog.c" -L"$SRC" -lwork \
			-Wl,-rpath,"$SRC"
}
if ! build old; then
	not_ok "a C compiler builds the test program" "$CC failed"
	exit 0
fi
NOQ="-e cpu-clock -c 200000"
REC="-q $NOQ"
bid_of() { perf buildid-list -i "$1" 2>/dev/null | awk -v f="$2" '$2 == f { print $1 }'; }
# The symbols of a flat report, one a line.
syms() { awk '!/^#/ && /%/ { print $NF }' "$1"; }

"$PERFEV" record $REC -o "$TMP/a.data" -- "$SRC/prog" >/dev/null 2>"$TMP/rec.err"
check "record with the cache: exit 0, nothing said" sh -c "[ $? = 0 ] && [ ! -s '$TMP/rec.err' ]"
id=$(bid_of "$TMP/a.data" "$SRC/prog")
check "perf buildid-list finds the program's build id in the recording ($id)" [ -n "$id" ]
lid=$(bid_of "$TMP/a.data" "$SRC/libwork.so")
entry="$CACHE$SRC/prog/$id"
check "the program is kept at <cache>/<path>/<build id>/elf" [ -f "$entry/elf" ]
check "... linked from <cache>/.build-id/xx/rest as perf links it" \
	[ "$(readlink "$CACHE/.build-id/$(echo "$id" | cut -c1-2)/$(echo "$id" | cut -c3-)")" = "../..$SRC/prog/$id" ]
check "... as a hard link to the file (one file system)" \
	[ "$(stat -c %i "$entry/elf")" = "$(stat -c %i "$SRC/prog")" ]
check "the library with samples is kept too" [ -f "$CACHE$SRC/libwork.so/$lid/elf" ]
check "a file without samples is not ($(ls "$CACHE$SRC" | tr '\n' ' '))" \
	sh -c "[ \$(ls '$CACHE$SRC' | wc -l) = 2 ]"

# ---- rebuilt with a change: the recording's symbols, from the cache ----
build new
"$PERFEV" report -i "$TMP/a.data" --stdio --no-children -g none >"$TMP/r.txt" 2>"$TMP/r.err"
check "report after a rebuild: the old symbols (prog_old, lib_old)" \
	sh -c "syms() { awk '!/^#/ && /%/ { print \$NF }' \"\$1\"; }; syms '$TMP/r.txt' | grep -qx prog_old && syms '$TMP/r.txt' | grep -qx lib_old && ! grep -qE '(prog|lib)_new' '$TMP/r.txt'"
check "... and no warning" [ ! -s "$TMP/r.err" ]
"$PERFEV" script -i "$TMP/a.data" >"$TMP/s.txt" 2>"$TMP/s.err"
check "script after a rebuild: the old symbols, no warning" \
	sh -c "grep -q prog_old '$TMP/s.txt' && grep -q lib_old '$TMP/s.txt' && ! grep -qE '(prog|lib)_new' '$TMP/s.txt' && [ ! -s '$TMP/s.err' ]"
"$PERFEV" annotate -i "$TMP/a.data" prog_old >"$TMP/an.txt" 2>"$TMP/an.err"
check "annotate after a rebuild: the old function's code" \
	sh -c "[ $? = 0 ] && grep -q Percent '$TMP/an.txt'"

# ---- the cache deleted: a clear warning, once per file ----
rm -rf "$CACHE"
"$PERFEV" report -i "$TMP/a.data" --stdio >"$TMP/r2.txt" 2>"$TMP/r2.err"
check "report without the cache: exit 0" [ $? = 0 ]
check "... one warning for the program and one for the library, nothing else" \
	sh -c "[ \$(grep -c 'warning: $SRC/prog: its build id .* is not the $id the recording saw: the file was rebuilt' '$TMP/r2.err') = 1 ] &&
	       [ \$(grep -c 'warning: $SRC/libwork.so: its build id' '$TMP/r2.err') = 1 ] && [ \$(wc -l <'$TMP/r2.err') = 2 ]"
check "... saying where it looked and what to do" \
	sh -c "grep -q 'the build-id cache $CACHE .*has no copy of the recorded one, so its samples show as addresses; record with the build-id cache on' '$TMP/r2.err'"
check "... and the samples as addresses, not the new names" \
	sh -c "! grep -qE '(prog|lib)_new' '$TMP/r2.txt' && grep -q '0x0000' '$TMP/r2.txt'"
"$PERFEV" script -i "$TMP/a.data" >/dev/null 2>"$TMP/s2.err"
check "script without the cache: one warning per file" \
	sh -c "[ \$(grep -c 'warning: $SRC/prog: its build id' '$TMP/s2.err') = 1 ] && [ \$(grep -c 'warning: $SRC/libwork.so: its build id' '$TMP/s2.err') = 1 ]"
"$PERFEV" annotate -i "$TMP/a.data" >/dev/null 2>"$TMP/an2.err"
check "annotate without the cache: the warning for the program" \
	grep -q "warning: $SRC/prog: its build id .* the file was rebuilt" "$TMP/an2.err"
"$PERFEV" report -q -i "$TMP/a.data" --stdio >/dev/null 2>"$TMP/r3.err"
check "report -q: no warnings" [ ! -s "$TMP/r3.err" ]
rm -f "$SRC/prog"
"$PERFEV" report -i "$TMP/a.data" --stdio >/dev/null 2>"$TMP/r4.err"
check "a program deleted since: warned as gone" \
	grep -q "warning: $SRC/prog: no file with build id $id (.*No such file.*), and the build-id cache" "$TMP/r4.err"

# ---- --no-buildid-cache ----
build old
"$PERFEV" record $REC -N -o "$TMP/b.data" -- "$SRC/prog" >/dev/null 2>&1
check "--no-buildid-cache (-N): no cache made" [ ! -e "$CACHE" ]
"$PERFEV" record $REC --no-buildid-cache -o "$TMP/b.data" -- "$SRC/prog" >/dev/null 2>&1
check "--no-buildid-cache: no cache made" [ ! -e "$CACHE" ]
"$PERFEV" record $REC -o - -- "$SRC/prog" >"$TMP/pipe.data" 2>/dev/null
check "a pipe-mode stream (-o -) cannot be read back: no cache" [ ! -e "$CACHE" ]

# ---- perf finds perfev's entries ----
have_perf_report() { perf report --stdio --no-children -i "$1" 2>/dev/null | awk '!/^#/ && /%/ { print $NF }'; }
if have_perf; then
	"$PERFEV" record $REC -o "$TMP/c.data" -- "$SRC/prog" >/dev/null 2>&1
	build new
	have_perf_report "$TMP/c.data" >"$TMP/pr.txt"
	check "perf report of perfev's recording after a rebuild: the old symbols from perfev's cache" \
		sh -c "grep -qx prog_old '$TMP/pr.txt' && grep -qx lib_old '$TMP/pr.txt'"

	# ---- perfev finds perf's entries: perf buildid-cache -a, and perf record's own ----
	rm -rf "$CACHE"
	build old
	"$PERFEV" record $REC -N -o "$TMP/d.data" -- "$SRC/prog" >/dev/null 2>&1
	perf buildid-cache -a "$SRC/prog,$SRC/libwork.so" 2>"$TMP/bc.err"
	build new
	"$PERFEV" report -i "$TMP/d.data" --stdio --no-children >"$TMP/d.txt" 2>"$TMP/d.err"
	check "perfev report finds what 'perf buildid-cache -a' kept" \
		sh -c "grep -q prog_old '$TMP/d.txt' && grep -q lib_old '$TMP/d.txt' && [ ! -s '$TMP/d.err' ]"
	rm -rf "$CACHE"
	build old
	# perf 6.1 may abort in its build-id processing at the end (util/build-id.c): tried again.
	for try in 1 2 3 4 5; do
		rm -rf "$CACHE"
		perf record $REC -o "$TMP/e.data" -- "$SRC/prog" >/dev/null 2>"$TMP/pe.err" && break
		sleep 1
	done
	if grep -q 'assertion failed at util/build-id.c' "$TMP/pe.err"; then
		skip "perfev report of perf's recording finds perf's own cache entries" \
			"perf record aborted 5 times in its build-id processing: $(tail -n 2 "$TMP/pe.err" | tr '\n' ' ')"
	elif [ -f "$CACHE$SRC/prog/$(bid_of "$TMP/e.data" "$SRC/prog")/elf" ]; then
		build new
		"$PERFEV" report -i "$TMP/e.data" --stdio --no-children >"$TMP/e.txt" 2>"$TMP/e.err"
		check "perfev report of perf's recording after a rebuild: the old symbols from perf's cache" \
			sh -c "grep -q prog_old '$TMP/e.txt' && grep -q lib_old '$TMP/e.txt' && [ ! -s '$TMP/e.err' ]"
	else
		not_ok "perf record keeps the program in the build-id cache its configuration names" \
			"$(cat "$TMP/pe.err")"
	fi
else
	skip "perf and perfev read each other's build-id cache entries" "perf cannot run here"
fi

# ---- where the cache is ----
build old
unset PERFEV_BUILDID_DIR
printf '[buildid]\n\tdir = "%s"\n' "$TMP/from-config" >"$TMP/pc2"
PERF_CONFIG="$TMP/pc2" "$PERFEV" record $REC -o "$TMP/f.data" -- "$SRC/prog" >/dev/null 2>&1
check "without PERFEV_BUILDID_DIR: perf's buildid.dir setting (PERF_CONFIG names the file)" \
	[ -d "$TMP/from-config/.build-id" ]
mkdir -p "$TMP/home"
printf '[buildid]\n\tdir = %s\n' "$TMP/from-home-config" >"$TMP/home/.perfconfig"
env -u PERF_CONFIG HOME="$TMP/home" "$PERFEV" record $REC -o "$TMP/f.data" -- "$SRC/prog" >/dev/null 2>&1
check "... or in ~/.perfconfig" [ -d "$TMP/from-home-config/.build-id" ]
rm "$TMP/home/.perfconfig"
PERF_CONFIG= HOME="$TMP/home" "$PERFEV" record $REC -o "$TMP/f.data" -- "$SRC/prog" >/dev/null 2>&1
check "without either: \$HOME/.debug" [ -d "$TMP/home/.debug/.build-id" ]
export PERFEV_BUILDID_DIR="$CACHE"

# ---- the size limit: oldest entries out, this recording's kept ----
rm -rf "$CACHE"
"$PERFEV" record $REC -o "$TMP/g.data" -- "$SRC/prog" >/dev/null 2>&1
old_entry="$CACHE$SRC/prog/$id"
check "an entry to age" [ -f "$old_entry/elf" ]
touch -d '2 days ago' "$old_entry"
build new
PERFEV_BUILDID_CACHE_SIZE=1K "$PERFEV" record $NOQ -o "$TMP/h.data" -- "$SRC/prog" >/dev/null 2>"$TMP/lim.err"
nid=$(bid_of "$TMP/h.data" "$SRC/prog")
check "over the limit: the oldest entry is removed" [ ! -e "$old_entry" ]
check "... this recording's are kept" [ -f "$CACHE$SRC/prog/$nid/elf" ]
check "... with a note that the cache is still above its limit" \
	grep -q "the build-id cache $CACHE holds [0-9]* [KMG]iB, above its limit of 1 KiB, with only this recording's files left" "$TMP/lim.err"
PERFEV_BUILDID_CACHE_SIZE=lots "$PERFEV" record $NOQ -o "$TMP/h.data" -- "$SRC/prog" >/dev/null 2>"$TMP/lim2.err"
check "a PERFEV_BUILDID_CACHE_SIZE that is no size: a note, the default used" \
	grep -q "PERFEV_BUILDID_CACHE_SIZE is 'lots', not a size such as 500M or 2G; using the default of 1024 MiB" "$TMP/lim2.err"

# ---- a cache that cannot be written: the recording is fine, a note says so ----
mkdir -p "$TMP/ro"
touch "$TMP/ro/cache"
PERFEV_BUILDID_DIR="$TMP/ro/cache" "$PERFEV" record $NOQ -o "$TMP/i.data" -- "$SRC/prog" >/dev/null 2>"$TMP/ro.err"
st=$?
check "an unusable cache: exit 0, the recording kept, one note saying why" \
	sh -c "[ $st = 0 ] && [ -s '$TMP/i.data' ] && [ \$(grep -c build-id '$TMP/ro.err') = 1 ] &&
	       grep -q 'files with samples could not be kept in the build-id cache.*Not a directory' '$TMP/ro.err'"

# ---- a stripped program: its separate debug file is kept beside it, as perf keeps it ----
WORK="$BUILD_DIR/tests/annotate/work"
rm -rf "$CACHE"
mkdir -p "$TMP/st/.debug"
cp "$WORK/hotloop-stripped" "$TMP/st/"
cp "$WORK/.debug/hotloop-stripped.debug" "$TMP/st/.debug/"
"$PERFEV" record $REC -o "$TMP/st.data" -- "$TMP/st/hotloop-stripped" >/dev/null 2>&1
sid=$(bid_of "$TMP/st.data" "$TMP/st/hotloop-stripped")
check "a stripped program's debug file (.gnu_debuglink) is kept as <entry>/debug" \
	cmp -s "$CACHE$TMP/st/hotloop-stripped/$sid/debug" "$TMP/st/.debug/hotloop-stripped.debug"
rm -rf "$TMP/st"
"$PERFEV" report -i "$TMP/st.data" --stdio --no-children >"$TMP/st.txt" 2>"$TMP/st.err"
check "both gone from disk: report still names hot_loop, from the cache" \
	sh -c "grep -q 'hot_loop' '$TMP/st.txt' && [ ! -s '$TMP/st.err' ]"
