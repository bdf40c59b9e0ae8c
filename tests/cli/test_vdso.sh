#!/bin/sh
# The vDSO's frames named, as perf names them: perfev record keeps the vDSO's
# image in the build-id cache (perf's layout, DIR/[vdso]/<build id>/vdso) and
# its build id in the recording; report and script find it there, or in their
# own memory on the same kernel; perf reads perfev's entry and perfev perf's.
. "$(dirname "$0")/lib.sh"

LOOP="$HELPERS/vdso_loop"
CACHE=$PERFEV_BUILDID_DIR
REC="-q -e cpu-clock -c 100000"
# vdso_syms FILE: the symbols of the [vdso] lines of a script's output, sorted, one each.
vdso_syms() { awk '/\(\[vdso\]\)/ { s = $2; sub(/\+0x[0-9a-f]*$/, "", s); print s }' "$1" | sort -u; }
# vdso_share REPORT: the [vdso] rows' total percentage in a --sort dso report.
vdso_share() { awk '$2 == "[vdso]" { sub(/%/, "", $1); print $1 }' "$1"; }

"$PERFEV" record $REC -g -o "$TMP/v.data" -- "$LOOP" 300 >/dev/null 2>"$TMP/rec.err"
check "perfev record of a program in the vDSO: exit 0, nothing said" \
	sh -c "[ $? = 0 ] && [ ! -s '$TMP/rec.err' ]"
"$PERFEV" report --stdio --no-children -g none --sort dso -i "$TMP/v.data" >"$TMP/dso.txt" 2>&1
share=$(vdso_share "$TMP/dso.txt")
check "most samples are in [vdso] ($share%)" awk -v s="$share" 'BEGIN { exit !(s + 0 > 30) }'

id=$(perf buildid-list -i "$TMP/v.data" 2>/dev/null | awk '$2 == "[vdso]" { print $1 }')
if [ -z "$id" ] && ! have_perf; then
	# Without perf, the entry the cache has is the one to check.
	id=$(ls "$CACHE/[vdso]" 2>/dev/null | head -n 1)
fi
check "the recording's build-id table names [vdso] ($id)" [ -n "$id" ]
check "the vDSO's image is kept at <cache>/[vdso]/<build id>/vdso" [ -s "$CACHE/[vdso]/$id/vdso" ]
check "... and linked from <cache>/.build-id as perf links it" \
	[ "$(readlink "$CACHE/.build-id/$(echo "$id" | cut -c1-2)/$(echo "$id" | cut -c3-)")" = "../../[vdso]/$id" ]
kept=$(readelf -n "$CACHE/[vdso]/$id/vdso" 2>/dev/null | awk '/Build ID:/ { print $3 }')
check "the kept image has that build id ($kept)" [ "$kept" = "$id" ]

"$PERFEV" report --stdio --no-children -g none --sort dso,sym -i "$TMP/v.data" >"$TMP/sym.txt" 2>"$TMP/err"
# The vDSO's exported functions have names; its static helpers (the clock reads) have
# none in any table, so perf shows those as addresses too.
check "report names the [vdso] function the program calls" \
	grep -q '\[vdso\] *\[\.\] __vdso_clock_gettime' "$TMP/sym.txt"
check "... with nothing said" [ ! -s "$TMP/err" ]
"$PERFEV" script -i "$TMP/v.data" >"$TMP/v.script" 2>&1
vdso_syms "$TMP/v.script" >"$TMP/v.syms"
check "script names the [vdso] frames ($(tr '\n' ' ' <"$TMP/v.syms"))" grep -qx __vdso_clock_gettime "$TMP/v.syms"

if have_perf; then
	perf report --stdio --no-children -g none --sort dso,sym -i "$TMP/v.data" 2>/dev/null |
		grep '\[vdso\]' >"$TMP/p_sym.txt"
	grep '\[vdso\]' "$TMP/sym.txt" >"$TMP/v_sym.txt"
	check "report's [vdso] rows are perf report's, row for row ($(wc -l <"$TMP/p_sym.txt") rows)" \
		sh -c "[ -s '$TMP/p_sym.txt' ] && cmp -s '$TMP/p_sym.txt' '$TMP/v_sym.txt'"
	perf script -i "$TMP/v.data" >"$TMP/p.script" 2>/dev/null
	vdso_syms "$TMP/p.script" >"$TMP/p.syms"
	check "perf script finds perfev's kept vDSO: the same [vdso] names ($(tr '\n' ' ' <"$TMP/p.syms"))" \
		sh -c "[ -s '$TMP/p.syms' ] && cmp -s '$TMP/p.syms' '$TMP/v.syms'"
	# perf's recording, perf's entry: its cache only (perfev's own memory is not asked:
	# the entry is found first, and the symbol file says where it came from).
	PC=$TMP/perf-cache
	printf '[buildid]\n\tdir = %s\n' "$PC" >"$TMP/perfconfig2"
	ok_rec=
	for try in 1 2 3; do
		PERF_CONFIG="$TMP/perfconfig2" perf record $REC -g -o "$TMP/p.data" -- "$LOOP" 300 \
			>/dev/null 2>"$TMP/prec.err" && ok_rec=1 && break
		echo "# perf record failed (try $try): $(tail -n 1 "$TMP/prec.err")"
	done
	if [ -n "$ok_rec" ] && [ -d "$PC/[vdso]" ]; then
		PERFEV_BUILDID_DIR=$PC "$PERFEV" script -i "$TMP/p.data" >"$TMP/pv.script" 2>"$TMP/err"
		vdso_syms "$TMP/pv.script" >"$TMP/pv.syms"
		PERF_CONFIG="$TMP/perfconfig2" perf script -i "$TMP/p.data" >"$TMP/pp.script" 2>/dev/null
		vdso_syms "$TMP/pp.script" >"$TMP/pp.syms"
		check "perfev script of perf's recording: perf's [vdso] names ($(tr '\n' ' ' <"$TMP/pp.syms"))" \
			sh -c "[ -s '$TMP/pp.syms' ] && cmp -s '$TMP/pp.syms' '$TMP/pv.syms'"
	else
		skip "perfev script of perf's recording names perf's [vdso] frames" \
			"perf record failed three times or kept no vDSO: $(tail -n 1 "$TMP/prec.err")"
	fi
else
	skip "report's [vdso] rows are perf report's" "Linux perf is not usable here"
	skip "perf script finds perfev's kept vDSO" "Linux perf is not usable here"
	skip "perfev script of perf's recording names perf's [vdso] frames" "Linux perf is not usable here"
fi

# No cache at all: the same kernel's vDSO is this process's own, found by its build id.
rm -rf "$CACHE"
"$PERFEV" script -i "$TMP/v.data" >"$TMP/v2.script" 2>"$TMP/err"
vdso_syms "$TMP/v2.script" >"$TMP/v2.syms"
check "without the cache, script names the same [vdso] frames from its own vDSO" \
	cmp -s "$TMP/v.syms" "$TMP/v2.syms"
check "... with nothing said" [ ! -s "$TMP/err" ]
"$PERFEV" record $REC -N -o "$TMP/n.data" -- "$LOOP" 100 >/dev/null 2>&1
check "--no-buildid-cache keeps no vDSO" [ ! -e "$CACHE/[vdso]" ]
