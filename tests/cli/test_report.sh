#!/bin/sh
# perfev report and perfev script against Linux perf on the same files: files
# recorded by perf (frame pointers, DWARF, several events, zstd, a pipe) and by
# perfev record, each read by both tools.
. "$(dirname "$0")/lib.sh"

HOT="$HELPERS/hot"

for c in report script; do
	"$PERFEV" $c --help >"$TMP/h"
	check "$c --help exits 0 and shows usage" grep -q "usage: perfev $c" "$TMP/h"
	sed 's/\\-/-/g' "$ROOT_DIR/docs/perfev-$c.1" >"$TMP/man"
	for opt in $(grep -oE -- '--[a-z-]+' "$TMP/h" | sort -u); do
		check "perfev-$c.1 documents $opt" grep -q -- "$opt" "$TMP/man"
	done
done

"$PERFEV" report -i "$TMP/none.data" 2>"$TMP/err"
st=$?
check "a missing file exits 1 and says what to do" \
	sh -c "[ $st = 1 ] && grep -q \"perfev report: error: cannot open '.*none.data': no such file; record one\" '$TMP/err'"
printf 'not a perf.data file at all' >"$TMP/junk.data"
"$PERFEV" report -i "$TMP/junk.data" 2>"$TMP/err"
st=$?
check "a file that is not perf.data exits 1 and explains" \
	sh -c "[ $st = 1 ] && grep -q 'perfev report: error: cannot read' '$TMP/err'"
"$PERFEV" report --sort nosuchkey 2>"$TMP/err"
check "an unknown sort key is named" grep -q "unknown sort key 'nosuchkey'" "$TMP/err"

if ! have_perf; then
	skip "comparisons with perf report" "Linux perf is not usable here"
	exit 0
fi

# The flat profile "EVENT_INDEX PERCENT SYMBOL" of a --stdio report of either tool.
flat() {
	awk '/^# Samples: / { ev++ } !/^#/ && /%/ && !/--/ && !/^ *\|/ {
		p = $1; sub(/%/, "", p); sub(/^ *[0-9.]+% +/, ""); print ev "\t" p "\t" $0 }'
}
perf_flat() { perf report -i "$1" --stdio --no-children --sort sym -g none 2>/dev/null | flat; }
ours_flat() { "$PERFEV" report -i "$1" --stdio --no-children --sort sym -g none 2>"$TMP/ours.err" | flat; }

# agree DESC FILE: perf's symbols of 1% or more are ours too, each within 0.5 points.
agree() {
	perf_flat "$2" >"$TMP/p.txt"
	ours_flat "$2" >"$TMP/o.txt"
	if ! [ -s "$TMP/p.txt" ]; then
		not_ok "$1: perf report shows nothing" "$(perf report -i "$2" --stdio 2>&1 | tail -n 5)"
		return
	fi
	res=$(awk -F'\t' 'NR == FNR { o[$1 "\t" $3] = $2; next }
		$2 >= 1.0 { n++; k = $1 "\t" $3
			if (!(k in o)) { bad = bad sprintf("missing %s (perf %s%%); ", $3, $2); next }
			d = o[k] - $2; if (d < 0) d = -d
			if (d > 0.5) bad = bad sprintf("%s: perf %s%% perfev %s%%; ", $3, $2, o[k]) }
		END { if (!n) print "perf shows no symbol of 1%"; else if (bad) print bad; else print "ok " n }' \
		"$TMP/o.txt" "$TMP/p.txt")
	case $res in
	ok*) ok "$1: the ${res#ok } symbols perf shows at 1% or more agree within 0.5 points" ;;
	*) not_ok "$1: perfev report agrees with perf report" "$res" "$(head -n 8 "$TMP/o.txt")" \
		"$(cat "$TMP/ours.err")" ;;
	esac
}

perf record -q -g -F 2000 -o "$TMP/p_fp.data" "$HOT" >/dev/null 2>&1
agree "perf record -g" "$TMP/p_fp.data"
perf record -q --call-graph dwarf -F 1000 -o "$TMP/p_dw.data" "$HOT" >/dev/null 2>&1
agree "perf record --call-graph dwarf" "$TMP/p_dw.data"
perf record -q -e cpu-clock -e task-clock -F 2000 -o "$TMP/p_two.data" "$HOT" >/dev/null 2>&1
agree "perf record with two events" "$TMP/p_two.data"
perf record -q -z -g -F 2000 -o "$TMP/p_z.data" "$HOT" >/dev/null 2>&1
agree "perf record -z" "$TMP/p_z.data"
"$PERFEV" record -q -g -o "$TMP/v_fp.data" -- "$HOT" >/dev/null 2>&1
agree "perfev record -g" "$TMP/v_fp.data"
"$PERFEV" record -q --call-graph dwarf -F 1000 -o "$TMP/v_dw.data" -- "$HOT" >/dev/null 2>&1
agree "perfev record --call-graph dwarf" "$TMP/v_dw.data"
"$PERFEV" record -q -e cpu-clock,task-clock -o "$TMP/v_two.data" -- "$HOT" >/dev/null 2>&1
agree "perfev record with two events" "$TMP/v_two.data"
"$PERFEV" record -q -z -g -o "$TMP/v_z.data" -- "$HOT" >/dev/null 2>&1
agree "perfev record -z" "$TMP/v_z.data"

# A pipe: perf record -o - straight into perfev report -i -.
perf record -q -g -F 2000 -o - "$HOT" 2>/dev/null | tee "$TMP/pipe.data" |
	"$PERFEV" report -i - --stdio --no-children --sort sym -g none 2>"$TMP/err" | flat >"$TMP/o.txt"
perf report -i "$TMP/pipe.data" --stdio --no-children --sort sym -g none 2>/dev/null | flat >"$TMP/p.txt"
top_o=$(awk -F'\t' 'NR == 1 { print $3 }' "$TMP/o.txt")
top_p=$(awk -F'\t' 'NR == 1 { print $3 }' "$TMP/p.txt")
check "a pipe from perf record reads as perf reads it (top: ${top_o:-none})" \
	sh -c "[ -n '$top_o' ] && [ '$top_o' = '$top_p' ]"

# --- the call graph: hot_a is called by work, from main (callee order, without children)
"$PERFEV" report -i "$TMP/v_fp.data" --stdio --no-children --sort sym >"$TMP/cg" 2>&1
# The heaviest branch under hot_a is work, then main; a sample taken in hot_a's
# prologue (its frame not yet set up) skips work, and on a loaded machine such
# samples can make a branch of their own, so work may head a branch ("--work").
awk '/\[\.\] hot_a$/ { on = 1; next } on && /^$/ { exit } on' "$TMP/cg" >"$TMP/cg_hot_a"
check "call graphs under each entry name the callers" \
	sh -c "grep -m1 -E -- '-(work|main)\$' '$TMP/cg_hot_a' | grep -q -- '-work\$' && grep -A2 -- '-work\$' '$TMP/cg_hot_a' | grep -q 'main\$'"
"$PERFEV" report -i "$TMP/v_fp.data" --stdio --children --sort sym -g none >"$TMP/ch" 2>&1
main_ch=$(awk '/\] main$/ { sub(/%/, "", $1); print $1; exit }' "$TMP/ch")
check "--children charges main with nearly every sample (${main_ch:-none}%)" \
	awk -v v="${main_ch:-0}" 'BEGIN { exit !(v > 90) }'
"$PERFEV" report -i "$TMP/v_fp.data" --stdio --no-children --sort sym -g none --percent-limit 20 >"$TMP/pl" 2>&1
check "--percent-limit 20 keeps only hot_a and hot_b" \
	sh -c "[ \$(grep -c '%' '$TMP/pl') = 2 ]"
"$PERFEV" report -i "$TMP/v_fp.data" --stdio --no-children --sort dso,sym -g none --dso hot,libc.so.6 >"$TMP/dso" 2>&1
check "--dso keeps the rows of those files" sh -c "grep -q '%' '$TMP/dso' && ! grep '%' '$TMP/dso' | grep -Eqv ' (hot|libc.so.6) '"
# As perf: a filter naming one value hides its column and says so; the
# percentages stay those of the whole file unless --percentage relative.
"$PERFEV" report -i "$TMP/v_fp.data" --stdio --no-children -g none >"$TMP/all" 2>&1
"$PERFEV" report -i "$TMP/v_fp.data" --stdio --no-children -g none --dso hot >"$TMP/dso1" 2>&1
check "--dso with one file hides the Shared Object column and names the file" \
	sh -c "grep -q '^# dso: hot\$' '$TMP/dso1' && grep -q '^# Overhead  Command  *Symbol' '$TMP/dso1'"
a_all=$(awk '/\] hot_a$/ { print $1; exit }' "$TMP/all")
a_dso=$(awk '/\] hot_a$/ { print $1; exit }' "$TMP/dso1")
check "--dso keeps percentages of the whole file (hot_a ${a_all:-none} and ${a_dso:-none})" \
	sh -c "[ -n '$a_all' ] && [ '$a_all' = '$a_dso' ]"
"$PERFEV" report -i "$TMP/v_fp.data" --stdio --no-children -g none --dso hot --percentage relative >"$TMP/rel" 2>&1
check "--percentage relative gives percentages of what the filter passes (they add up to 100)" \
	awk '/%/ { sub(/%/, "", $1); s += $1 } END { exit !(s > 99.9 && s < 100.1) }' "$TMP/rel"
"$PERFEV" report -i "$TMP/v_fp.data" --stdio --no-children -g none -S hot_a,hot_b -n >"$TMP/syms" 2>&1
check "-S keeps the rows of those functions; -n adds the Samples column" \
	sh -c "[ \$(grep -c '%' '$TMP/syms') = 2 ] && grep -q '^# Overhead       Samples  Command' '$TMP/syms'"
"$PERFEV" report -i "$TMP/v_fp.data" --percentage half >/dev/null 2>"$TMP/err"
check "--percentage takes absolute or relative" grep -q "absolute or relative, not 'half'" "$TMP/err"
# perf's other report options: --stats as perf counts, --header(-only), -T.
"$PERFEV" report -i "$TMP/v_fp.data" --stats >"$TMP/stats" 2>&1
perf report -i "$TMP/v_fp.data" --stats >"$TMP/stats_perf" 2>/dev/null
check "--stats counts the records of each type as perf report --stats does" \
	sh -c "grep -q '^ *SAMPLE events: *[1-9]' '$TMP/stats' && diff '$TMP/stats_perf' '$TMP/stats'"
"$PERFEV" report -i "$TMP/v_fp.data" --header-only >"$TMP/hdr" 2>&1
check "--header-only prints what the file says, and no report" \
	sh -c "grep -q '^# hostname : ' '$TMP/hdr' && grep -q '^# time of first sample : ' '$TMP/hdr' && ! grep -q '^# Samples' '$TMP/hdr'"
"$PERFEV" report -i "$TMP/v_fp.data" --stdio --header -T -g none >"$TMP/hdr2" 2>&1
check "--header prints it before the report; -T the threads' counts after" \
	sh -c "[ \$(grep -n '^# hostname' '$TMP/hdr2' | cut -d: -f1) -lt \$(grep -n '^# Samples' '$TMP/hdr2' | cut -d: -f1) ] && tail -n 1 '$TMP/hdr2' | grep -q '^# PID  TID'"
"$PERFEV" script -i "$TMP/v_fp.data" --ns -F time >"$TMP/ns" 2>&1
check "script --ns prints times to the nanosecond" grep -Eq '^ *[0-9]+\.[0-9]{9}: *$' "$TMP/ns"
# The trace key: perf's default for recordings of tracepoints only.
if have_tracefs; then
	"$PERFEV" record -q -e sched:sched_switch -c 1 -o "$TMP/tp.data" -- "$HELPERS/sleeper" 5 >/dev/null 2>&1
	"$PERFEV" report -i "$TMP/tp.data" --stdio --no-children -g none >"$TMP/tp" 2>&1
	check "a recording of tracepoints is sorted by their fields (the trace key)" \
		sh -c "grep -q '^# Overhead  Trace output' '$TMP/tp' && grep -Eq '^ +[0-9.]+%  prev_comm=.* ==> next_comm=' '$TMP/tp'"
	"$PERFEV" report -i "$TMP/tp.data" --stdio -s trace,comm >/dev/null 2>"$TMP/err"
	check "the trace key sorts alone" grep -q "the trace key sorts alone" "$TMP/err"
else
	skip "the trace key" "tracefs is not mounted here (no sched:sched_switch)"
fi
"$PERFEV" report -i "$TMP/v_fp.data" --stdio --no-children --comm nosuch -g none >/dev/null 2>"$TMP/err"
check "--comm with no match says the file holds no such samples" grep -q "no samples" "$TMP/err"
"$PERFEV" report -i "$TMP/v_fp.data" --stdio --no-children -F overhead,sample,sym -g none >"$TMP/f" 2>&1
check "-F overhead,sample,sym shows those columns" grep -q "# Overhead  *Samples  *Symbol" "$TMP/f"
"$PERFEV" report -i "$TMP/v_fp.data" --stdio --no-children --sort sym,srcline -g none >"$TMP/src" 2>&1
check "--sort srcline names hot.c lines" grep -q "hot_a  *hot.c:[0-9]" "$TMP/src"

# --- perfev script: the same samples as perf script, in its layout
perf script -i "$TMP/p_fp.data" 2>/dev/null >"$TMP/ps"
"$PERFEV" script -i "$TMP/p_fp.data" >"$TMP/vs" 2>"$TMP/err"
np=$(grep -c 'cpu-clock' "$TMP/ps")
nv=$(grep -c 'cpu-clock' "$TMP/vs")
check "perfev script prints a block per sample, as perf script ($nv vs $np)" [ "$np" = "$nv" ]
# The innermost frame of each block: symbol names in the same order.
leaf() { awk 'prev ~ /cpu-clock/ { print $2 } { prev = $0 }' "$1" | sed 's/+0x.*//'; }
leaf "$TMP/ps" >"$TMP/lp"
leaf "$TMP/vs" >"$TMP/lv"
same=$(paste "$TMP/lp" "$TMP/lv" | awk -F'\t' '$1 == $2 { s++ } END { print s + 0 }')
check "innermost symbols of perfev script match perf script's ($same of $np)" \
	sh -c "[ $np -gt 0 ] && [ \$(($same * 100 / $np)) -ge 97 ]"
"$PERFEV" record -q -e '{cpu-clock,task-clock}:S' -c 1000000 -o "$TMP/grp.data" -- "$HOT" >/dev/null 2>&1
perf script -i "$TMP/grp.data" -F comm,tid,time,event,period 2>/dev/null >"$TMP/gp"
"$PERFEV" script -i "$TMP/grp.data" -F comm,tid,time,event,period >"$TMP/gv" 2>"$TMP/err"
check "group samples print each member's count, as perf script does" \
	sh -c "[ -s '$TMP/gv' ] && grep -q task-clock '$TMP/gv' && diff -q '$TMP/gp' '$TMP/gv' >/dev/null"
# A group's members in one table, a column each, as perf report shows them.
"$PERFEV" report -i "$TMP/grp.data" --stdio -g none >"$TMP/gr" 2>&1
perf report -i "$TMP/grp.data" --stdio -g none 2>/dev/null | grep -v '^# To display' >"$TMP/grp_perf"
check "a group's report is one 'anon group' table with a column per member" \
	sh -c "grep -q \"^# Samples: .* of events 'anon group { cpu-clock[^,]*, task-clock }'\" '$TMP/gr' &&
		[ \$(grep -c '^# Samples' '$TMP/gr') = 1 ] && grep -Eq '^ +[0-9.]+% +[0-9.]+%  hot ' '$TMP/gr'"
check "perf report shows the same group table" \
	sh -c "grep -Eq '^ +[0-9.]+% +[0-9.]+%  hot ' '$TMP/grp_perf' &&
		[ \"\$(grep '^# Samples' '$TMP/grp_perf')\" = \"\$(grep '^# Samples' '$TMP/gr')\" ]"
"$PERFEV" script -i "$TMP/v_fp.data" -F comm,tid,nosuch >/dev/null 2>"$TMP/err"
check "an unknown -F field is named" grep -q "unknown field 'nosuch'" "$TMP/err"

# --- --time and --event: the samples perf picks with the same text
# samples_in ARGS: the samples of perfev report with ARGS, exactly (the header abbreviates them, as perf's).
samples_in() {
	"$PERFEV" report --stdio -g none --no-children -F sample,comm "$@" 2>/dev/null |
		awk '!/^#/ && NF { s += $1 } END { print s + 0 }'
}
perf_samples_in() { perf script -F time "$@" 2>/dev/null | grep -c .; }
t1=$(perf script -i "$TMP/p_two.data" -F time 2>/dev/null | awk 'NR == 20 { sub(/:$/, "", $1); print $1 }')
t2=$(perf script -i "$TMP/p_two.data" -F time 2>/dev/null | awk 'NR == 120 { sub(/:$/, "", $1); print $1 }')
for r in "$t1,$t2" ",$t1" "$t2," "$t1,$t1 $t2," 10%/2 0%-25%,50%-60% 50%; do
	o=$(samples_in -i "$TMP/p_two.data" --time "$r")
	p=$(perf_samples_in -i "$TMP/p_two.data" --time "$r")
	check "--time '$r' keeps the samples perf keeps ($o vs $p)" sh -c "[ '$p' -gt 0 ] && [ '$o' = '$p' ]"
done
# perfev's own files lack HEADER_SAMPLE_TIME: percents come from the samples' own times.
all=$(samples_in -i "$TMP/v_two.data")
half1=$(samples_in -i "$TMP/v_two.data" --time 50%/1)
half2=$(samples_in -i "$TMP/v_two.data" --time 50%/2)
check "--time 50%/1 and 50%/2 split a perfev file's samples ($half1 + $half2 = $all)" \
	sh -c "[ '$half1' -gt 0 ] && [ '$half2' -gt 0 ] && [ $((half1 + half2)) = '$all' ]"
"$PERFEV" report -i - --time 10% <"$TMP/pipe.data" >/dev/null 2>"$TMP/err"
check "--time in percent on a pipe says why it cannot" grep -q "a pipe does not give" "$TMP/err"
"$PERFEV" report -i "$TMP/v_two.data" --time 2,1 >/dev/null 2>"$TMP/err"
st=$?
check "a range that ends before it starts exits 1 and says so" \
	sh -c "[ $st = 1 ] && grep -q \"time range '2,1': a range ends before it starts\" '$TMP/err'"
o=$("$PERFEV" report -i "$TMP/v_two.data" --stdio -g none --event task-clock 2>/dev/null | grep -c '^# Samples: ')
t=$(samples_in -i "$TMP/v_two.data" --event task-clock)
p=$(perf script -i "$TMP/v_two.data" -F event 2>/dev/null | grep -c task-clock)
check "--event task-clock reports that event alone, all its samples ($t vs perf script's $p)" \
	sh -c "[ '$o' = 1 ] && [ '$t' = '$p' ]"

# ---- the symbol cache: parsed tables kept between runs, the same output from them ----
rm -rf "$PERFEV_CACHE_DIR"
"$PERFEV" report -i "$TMP/p_fp.data" --stdio >"$TMP/sc1.txt" 2>&1
nf=$(ls "$PERFEV_CACHE_DIR/symbols-v1" 2>/dev/null | grep -c -- "-elf-")
check "the first report keeps the ELF tables it parsed ($nf files) in \$PERFEV_CACHE_DIR" [ "$nf" -gt 0 ]
"$PERFEV" report -v -i "$TMP/p_fp.data" --stdio >"$TMP/sc2.txt" 2>"$TMP/sc2.err"
check "a second report reads them from there (-v says so)" \
	grep -q "symbols from $PERFEV_CACHE_DIR/symbols-v1/[0-9a-f]*-elf-" "$TMP/sc2.err"
check "... with the same output" cmp -s "$TMP/sc1.txt" "$TMP/sc2.txt"
"$PERFEV" script -i "$TMP/p_fp.data" >"$TMP/sc3.txt" 2>&1
PERFEV_CACHE_DIR= "$PERFEV" script -i "$TMP/p_fp.data" >"$TMP/sc4.txt" 2>&1
check "script from the cache and without it (PERFEV_CACHE_DIR empty): the same output" \
	cmp -s "$TMP/sc3.txt" "$TMP/sc4.txt"
for f in "$PERFEV_CACHE_DIR"/symbols-v1/*-elf-*; do head -c 100 /dev/urandom >"$f"; done
"$PERFEV" report -i "$TMP/p_fp.data" --stdio >"$TMP/sc5.txt" 2>&1
check "damaged cache files are not used: the same output, read from the files again" \
	cmp -s "$TMP/sc1.txt" "$TMP/sc5.txt"
# Another build of perfev (another build id) never reads these tables: they are named for this one.
for f in "$PERFEV_CACHE_DIR"/symbols-v1/*-elf-*; do mv "$f" "$(dirname "$f")/0000000000000000-elf-${f##*-elf-}"; done
"$PERFEV" report -v -i "$TMP/p_fp.data" --stdio >"$TMP/sc6.txt" 2>"$TMP/sc6.err"
check "tables named for another build of perfev are not read" \
	sh -c "! grep -q 'symbols from .*-elf-' '$TMP/sc6.err' && cmp -s '$TMP/sc1.txt' '$TMP/sc6.txt'"

# ---- inlined functions in DWARF-unwound stacks, as perf 6.1 reports them ----
PX=$BUILD_DIR/tests/parity/parity_cxx
if [ -x "$PX" ] && "$PERFEV" record -q --call-graph dwarf -F 997 -o "$TMP/dw.data" -- "$PX" 10 >/dev/null 2>&1; then
	"$PERFEV" report -i "$TMP/dw.data" --stdio >"$TMP/dw.txt" 2>&1
	mix=$(awk '/\[\.\] mix \(inlined\)$/ { print $1, $2; exit }' "$TMP/dw.txt")
	hash=$(awk '/\[\.\] lib_hash$/ { print $1, $2; exit }' "$TMP/dw.txt")
	check "a function inlined at unwound frames is a row of its own, Self 0 (mix: $mix)" \
		sh -c "[ -n '$mix' ] && [ '${mix#* }' = 0.00% ]"
	check "... and the symbol it is inlined in keeps the Self of its samples (lib_hash: $hash, mix: $mix)" \
		awk -v h="${hash#* }" -v m="${mix%% *}" 'BEGIN { exit !(h + 0 >= m + 0 && m + 0 > 0) }'
	check "... named NAME (inlined) in the call graphs too" grep -q '^ .*--mix (inlined)$\|^ *mix (inlined)$' "$TMP/dw.txt"
	"$PERFEV" report -i "$TMP/dw.data" --stdio --no-inline >"$TMP/dwn.txt" 2>&1
	check "--no-inline: no inlined functions" sh -c "grep -q 'lib_hash' '$TMP/dwn.txt' && ! grep -q '(inlined)' '$TMP/dwn.txt'"
	"$PERFEV" record -q -g -F 997 -o "$TMP/fpi.data" -- "$PX" 10 >/dev/null 2>&1
	"$PERFEV" report -i "$TMP/fpi.data" --stdio >"$TMP/fpi.txt" 2>&1
	check "frame-pointer stacks are not expanded (as perf)" \
		sh -c "grep -q 'lib_hash' '$TMP/fpi.txt' && ! grep -q '(inlined)' '$TMP/fpi.txt'"
else
	not_ok "a DWARF recording of $PX" "build the tests (make tests) and check perf_event_open"
fi

# ---- thousands of rows: a flat table's rows are formatted on two threads ----
# From 2,048 rows without call graphs, the second half is formatted on another thread and
# written after the first; the rows must be those (and in the order) of the same table with
# call graphs, which is written row by row on one thread.
if "$PERFEV" record -q -g -e page-faults -c 1 -o "$TMP/thr.data" -- "$HELPERS/many_threads" 3000 >/dev/null 2>&1; then
	"$PERFEV" report -q --stdio -i "$TMP/thr.data" --sort tid --no-children -g none >"$TMP/thr.flat" 2>&1
	"$PERFEV" report -q --stdio -i "$TMP/thr.data" --sort tid --no-children -g caller 2>&1 |
		grep -E '^ +[0-9]+\.[0-9]+%' >"$TMP/thr.rows"
	nrows=$(wc -l <"$TMP/thr.rows")
	check "3,000 threads' page faults (tests/helpers/many_threads.c): $nrows rows by tid (2,048 or more)" [ "$nrows" -ge 2048 ]
	check "... the flat table's rows are the graphed table's, in its order" \
		sh -c "grep -v '^#' '$TMP/thr.flat' | grep . | cmp -s - '$TMP/thr.rows'"
else
	not_ok "a recording of 3,000 threads' page faults" "see perfev record -e page-faults"
fi
