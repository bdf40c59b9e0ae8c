#!/bin/sh
# The main paths under valgrind's memcheck: no invalid access, no leak.
. "$(dirname "$0")/lib.sh"

vg() { # DESC ARGS...
	d=$1
	shift
	if valgrind -q --error-exitcode=99 --leak-check=full --show-leak-kinds=definite,indirect \
		--errors-for-leak-kinds=definite,indirect "$@" >"$TMP/out" 2>"$TMP/vg"; then
		ok "$d"
	elif [ $? = 99 ]; then
		not_ok "$d" "$(head -n 30 "$TMP/vg")"
	else
		ok "$d (non-zero exit, no memcheck error)"
	fi
}

case $BUILD_DIR in
*/san)
	# memcheck and AddressSanitizer cannot share a process; the gcc build covers this.
	skip "valgrind memcheck of perfev stat" "sanitizer build"
	skip "valgrind memcheck of perfev list" "sanitizer build"
	skip "valgrind memcheck of the perf.data writer" "sanitizer build"
	skip "valgrind memcheck of perfev record" "sanitizer build"
	skip "valgrind memcheck of perfev report and script" "sanitizer build"
	skip "valgrind memcheck of perfev export and flamegraph" "sanitizer build"
	skip "valgrind memcheck of perfev annotate" "sanitizer build"
	skip "valgrind memcheck of perfev diff" "sanitizer build"
	skip "valgrind memcheck of perfev top and the profile's views" "sanitizer build"
	skip "valgrind memcheck of off-CPU recording and reading" "sanitizer build"
	skip "valgrind memcheck of perfev sched and perfev trace" "sanitizer build"
	exit 0 ;;
esac
command -v valgrind >/dev/null || { not_ok "valgrind is installed (scripts/setup.sh)"; exit 0; }

vg "perfev stat (default set, fallback) is memcheck clean" "$PERFEV" stat -- "$HELPERS/touch_pages" 100
vg "perfev stat with groups, -r, --json is memcheck clean" \
	"$PERFEV" stat --json -r 2 -e '{task-clock,page-faults},msr/tsc/,context-switches' -- true
vg "perfev stat -I and CSV is memcheck clean" "$PERFEV" stat -I 50 -x, -e task-clock -- "$HELPERS/spin" 120
vg "perfev stat on a bad spec is memcheck clean" "$PERFEV" stat -e '{cylces,page-faults' -- true
vg "perfev list is memcheck clean" "$PERFEV" list
vg "the perf.data writer (file, pipe, zstd, write errors) is memcheck clean" \
	"$BUILD_DIR/tests/perfdata/test_perfdata_write"
vg "perfev record -g of a command is memcheck clean" "$PERFEV" record -g -o "$TMP/v.data" -- "$HELPERS/hot" 10
vg "perfev record -z --call-graph dwarf with a group is memcheck clean" \
	"$PERFEV" record -z --call-graph dwarf -e '{cpu-clock,page-faults}:S' -o "$TMP/v.data" -- "$HELPERS/hot" 10
# vg sends standard output to a file, which pipe mode writes.
vg "perfev record -a in pipe mode (all of /proc synthesized) is memcheck clean" \
	"$PERFEV" record -a -o - -- sleep 0.2
# The analysis side: a dwarf recording (reader, session, symbols, unwinder, profile, report).
"$PERFEV" record -q --call-graph dwarf -F 500 -o "$TMP/r.data" -- "$HELPERS/hot" 20 >/dev/null 2>&1
vg "perfev report (children, call graphs) of a dwarf recording is memcheck clean" \
	"$PERFEV" report -i "$TMP/r.data" --stdio
vg "perfev report --no-children --sort dso,sym,srcline --inline is memcheck clean" \
	"$PERFEV" report -i "$TMP/r.data" --stdio --no-children --sort dso,sym,srcline --inline -g folded
vg "perfev script of a dwarf recording is memcheck clean" "$PERFEV" script -i "$TMP/r.data"
# The writers: pprof (protobuf-c, gzip on its own thread), JSON, the SVG and the HTML report (timeline).
vg "perfev export -f pprof --inline of a dwarf recording is memcheck clean" \
	"$PERFEV" export -f pprof --inline -i "$TMP/r.data" -o "$TMP/r.pb.gz"
vg "perfev export -f json is memcheck clean" "$PERFEV" export -f json -i "$TMP/r.data"
vg "perfev export -f speedscope is memcheck clean" "$PERFEV" export -f speedscope -i "$TMP/r.data"
vg "perfev flamegraph (HTML, with --time) is memcheck clean" \
	"$PERFEV" flamegraph -q -i "$TMP/r.data" --time 10%-90% -o "$TMP/r.html"
vg "perfev flamegraph -o X.svg is memcheck clean" \
	"$PERFEV" flamegraph -q -i "$TMP/r.data" -o "$TMP/r.svg"
# Annotation: Capstone, DWARF lines and inline chains, source files, the text and JSON writers.
"$PERFEV" record -q -e cpu-clock -o "$TMP/a.data" -- "$BUILD_DIR/tests/annotate/work/inl" 3000 >/dev/null 2>&1
vg "perfev annotate of every function (text) is memcheck clean" "$PERFEV" annotate -i "$TMP/a.data"
vg "perfev annotate -s --json of an inlined helper is memcheck clean" \
	"$PERFEV" annotate -s --json -i "$TMP/a.data" hot
vg "the annotation library's tests are memcheck clean" "$BUILD_DIR/tests/annotate/test_annotation"
# perfev diff: two recordings compared (the library's diff), as text with -p -F, JSON, and the
# differential SVG and HTML report and the pprof pair.
"$PERFEV" record -q -g -F 1000 -o "$TMP/d.old" -- "$HELPERS/diffwork" 5 >/dev/null 2>&1
"$PERFEV" record -q -g -F 1000 -o "$TMP/d.new" -- "$HELPERS/after/diffwork" 5 >/dev/null 2>&1
vg "perfev diff -c wdiff:1,2 -p -F of three files is memcheck clean" \
	"$PERFEV" diff -c wdiff:1,2 -p -F "$TMP/d.old" "$TMP/d.new" "$TMP/r.data"
vg "perfev diff --json --time 10%-90% is memcheck clean" "$PERFEV" diff --json --time 10%-90% "$TMP/d.old" "$TMP/d.new"
vg "perfev diff --flamegraph X.html --pprof DIR is memcheck clean" \
	"$PERFEV" diff -q --flamegraph "$TMP/d.html" --pprof "$TMP/dp" "$TMP/d.old" "$TMP/d.new"
vg "perfev diff --flamegraph X.svg is memcheck clean" "$PERFEV" diff -q --flamegraph "$TMP/d.svg" "$TMP/d.old" "$TMP/d.new"
vg "the profile diff library's tests are memcheck clean" "$BUILD_DIR/tests/profile/test_profile_diff"
# Live: a session fed from the rings, a profile aged and printed at each refresh, a command's end.
vg "perfev top --stdio -g of a command is memcheck clean" \
	"$PERFEV" top --stdio -g -d 0.3 -E 5 -- "$HELPERS/hot" 20
vg "the profile's views and decay (tests) are memcheck clean" "$BUILD_DIR/tests/profile/test_profile_view"
# Off-CPU time: the recorder's threshold filter, the session's pairing, the wall-clock views.
vg "perfev record --off-cpu --off-cpu-thresh is memcheck clean" \
	"$PERFEV" record -q --off-cpu --off-cpu-thresh 1ms -o "$TMP/o.data" -- "$HELPERS/pingpong" 2000
"$PERFEV" record -q --off-cpu -o "$TMP/o2.data" -- "$HELPERS/offcpu" 0.2 >/dev/null 2>&1
vg "perfev report of an off-CPU recording (waits, wall-clock per thread) is memcheck clean" \
	"$PERFEV" report -i "$TMP/o2.data" --stdio
vg "perfev export -f pprof of an off-CPU recording is memcheck clean" \
	"$PERFEV" export -f pprof -i "$TMP/o2.data" -o "$TMP/o2.pb.gz"
vg "the session's off-CPU tests are memcheck clean" "$BUILD_DIR/tests/session/test_offcpu"
vg "the writer's off-CPU threshold tests are memcheck clean" "$BUILD_DIR/tests/perfdata/test_perfdata_offcpu"
# Scheduler latency and syscalls: sched record, latency and timehist; trace -s live and from a file.
vg "perfev sched record of a command is memcheck clean" \
	"$PERFEV" sched record -q -o "$TMP/s.data" -- "$HELPERS/schedwork" 20
vg "perfev sched latency is memcheck clean" "$PERFEV" sched latency -i "$TMP/s.data"
vg "perfev sched timehist -S --state -w -n -M is memcheck clean" \
	"$PERFEV" sched timehist -S --state -w -n -M -i "$TMP/s.data"
vg "perfev trace -s of a command (threads, a child) is memcheck clean" \
	"$PERFEV" trace -s -o "$TMP/t.txt" -- "$HELPERS/syscall_mix"
"$PERFEV" record -q -e 'raw_syscalls:*' -o "$TMP/t.data" -- "$HELPERS/syscall_mix" >/dev/null 2>&1
vg "perfev trace -s -i of a recording is memcheck clean" "$PERFEV" trace -s -i "$TMP/t.data"
vg "the sched library's tests are memcheck clean" "$BUILD_DIR/tests/sched/test_sched"
