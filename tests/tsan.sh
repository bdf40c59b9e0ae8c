#!/bin/sh
# The threads under ThreadSanitizer: the profile's background inserter and
# the session's reading thread through the session tests, and perfev report
# and script of a real call-graph recording (read ahead on a thread of their
# own), whose output must equal the plain build's; the report's table sorted
# and formatted on two threads (test_report_sort, and a flat table of
# thousands of rows).  Prints one line per check and writes "passed failed
# skipped" to RESULTS.
set -u
BUILD=${1:-build}
TSAN=${2:-$BUILD/tsan}
RESULTS=${3:-$TSAN/results.txt}
export TSAN_OPTIONS="halt_on_error=1 exitcode=66"
pass=0 fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

check() { # name status log
	if [ "$2" = 0 ]; then
		pass=$((pass + 1))
		printf '%-34s ok\n' "tsan $1"
	else
		fail=$((fail + 1))
		printf '%-34s FAIL  (status %s; log: %s)\n' "tsan $1" "$2" "$3"
		grep -E 'WARNING: ThreadSanitizer|FAILED|ERROR' "$3" | head -n 10 | sed 's/^/    | /'
	fi
}

"$TSAN/tests/session/test_session" >"$TSAN/test_session.log" 2>&1
check test_session $? "$TSAN/test_session.log"

# About 4,000 samples with call graphs: many batches of the inserter.
"$BUILD/perfev" record -q -F 2000 -g -o "$tmp/hot.data" -- "$BUILD/tests/helpers/hot" 200 >/dev/null 2>&1
"$BUILD/perfev" report -q --stdio -i "$tmp/hot.data" >"$tmp/plain.txt" 2>&1
"$TSAN/perfev" report -q --stdio -i "$tmp/hot.data" >"$tmp/tsan.txt" 2>"$TSAN/report.log"
st=$?
if [ "$st" = 0 ] && ! cmp -s "$tmp/plain.txt" "$tmp/tsan.txt"; then
	echo "the report differs from the plain build's" >>"$TSAN/report.log"
	diff "$tmp/plain.txt" "$tmp/tsan.txt" | head -n 20 >>"$TSAN/report.log"
	st=1
fi
if [ "$st" = 0 ] && ! grep -q 'hot_a' "$tmp/tsan.txt"; then
	echo "hot_a is missing from the report" >>"$TSAN/report.log"
	st=1
fi
check "perfev report" $st "$TSAN/report.log"

# script reads the events' names for every sample while the reading thread reads on.
"$BUILD/perfev" script -i "$tmp/hot.data" >"$tmp/plain-script.txt" 2>&1
"$TSAN/perfev" script -i "$tmp/hot.data" >"$tmp/tsan-script.txt" 2>"$TSAN/script.log"
st=$?
if [ "$st" = 0 ] && ! cmp -s "$tmp/plain-script.txt" "$tmp/tsan-script.txt"; then
	echo "the script output differs from the plain build's" >>"$TSAN/script.log"
	diff "$tmp/plain-script.txt" "$tmp/tsan-script.txt" | head -n 20 >>"$TSAN/script.log"
	st=1
fi
check "perfev script" $st "$TSAN/script.log"

# pprof is gzipped on a thread of its own while its messages are packed: the same bytes either way.
"$BUILD/perfev" export -q -f pprof -i "$tmp/hot.data" -o "$tmp/plain.pb.gz" 2>/dev/null
"$TSAN/perfev" export -q -f pprof -i "$tmp/hot.data" -o "$tmp/tsan.pb.gz" 2>"$TSAN/export.log"
st=$?
if [ "$st" = 0 ] && ! cmp -s "$tmp/plain.pb.gz" "$tmp/tsan.pb.gz"; then
	echo "the pprof file differs from the plain build's" >>"$TSAN/export.log"
	st=1
fi
check "perfev export -f pprof" $st "$TSAN/export.log"
"$TSAN/tests/cli/test_report_sort" >"$TSAN/test_report_sort.log" 2>&1
check test_report_sort $? "$TSAN/test_report_sort.log"

# Thousands of rows without call graphs: the second half is formatted on another thread.
"$BUILD/perfev" record -q -e page-faults -c 1 -o "$tmp/thr.data" -- "$BUILD/tests/helpers/many_threads" 3000 >/dev/null 2>&1
"$BUILD/perfev" report -q --stdio -i "$tmp/thr.data" --sort tid -g none >"$tmp/plain-rows.txt" 2>&1
"$TSAN/perfev" report -q --stdio -i "$tmp/thr.data" --sort tid -g none >"$tmp/tsan-rows.txt" \
	2>"$TSAN/rows.log"
st=$?
rows=$(grep -c '%' "$tmp/tsan-rows.txt")
if [ "$st" = 0 ] && ! cmp -s "$tmp/plain-rows.txt" "$tmp/tsan-rows.txt"; then
	echo "the table differs from the plain build's" >>"$TSAN/rows.log"
	st=1
elif [ "$st" = 0 ] && [ "$rows" -lt 2048 ]; then
	echo "only $rows rows: the table was formatted on one thread" >>"$TSAN/rows.log"
	st=1
fi
check "perfev report, $rows rows" $st "$TSAN/rows.log"
echo "$pass passed, $fail failed, 0 skipped"
echo "$pass $fail 0" >"$RESULTS"
[ "$fail" = 0 ]
