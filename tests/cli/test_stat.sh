#!/bin/sh
# perfev stat end to end: counts, output formats, exit statuses, signals, and agreement with perf.
. "$(dirname "$0")/lib.sh"

# CSV field F of the row of event E in file
csv_field() { awk -F';' -v e="$2" -v f="$3" '$3 == e { print $f; exit }' "$1"; }

# --- counts of a known workload
"$PERFEV" stat -x';' -e page-faults,task-clock -- "$HELPERS/touch_pages" 3000 2>"$TMP/pf.csv"
pf=$(csv_field "$TMP/pf.csv" page-faults 1)
check "page-faults of a child touching 3000 pages is at least 3000 ($pf)" [ "${pf:-0}" -ge 3000 ]

# --- the child's exit status is passed through
"$PERFEV" stat -e page-faults -- "$HELPERS/touch_pages" 10 7 2>/dev/null
check "exit status of the command is passed through" [ $? = 7 ]

"$PERFEV" stat -e task-clock -- /nonexistent/perfev-missing 2>"$TMP/err"
st=$?
check "missing command exits 127" [ $st = 127 ]
check "missing command says 'command not found'" grep -q "command not found" "$TMP/err"
printf 'not a program\n' >"$TMP/noexec"
chmod 644 "$TMP/noexec"
"$PERFEV" stat -e task-clock -- "$TMP/noexec" 2>"$TMP/err"
check "non-executable command exits 126" [ $? = 126 ]
check "non-executable command is explained" grep -q "executable" "$TMP/err"

# --- malformed input: exit 1 with a clear message
for spec in '{page-faults' 'page-faults}' 'page-faults:z' 'nope/tsc/' 'msr/nope=1/' 'cylces' 'mem:' ''; do
	"$PERFEV" stat -e "$spec" -- true 2>"$TMP/err"
	st=$?
	if [ $st = 1 ] && grep -q "perfev stat: error: " "$TMP/err"; then
		ok "bad event spec '$spec' exits 1 with an error"
	else
		not_ok "bad event spec '$spec' exits 1 with an error" "status $st" "$(cat "$TMP/err")"
	fi
done
"$PERFEV" stat -e cylces -- true 2>"$TMP/err"
check "unknown event suggests a close name" grep -q "cycles" "$TMP/err"
"$PERFEV" stat -e nope/tsc/ -- true 2>"$TMP/err"
check "unknown PMU is named as such" grep -qi "pmu" "$TMP/err"
"$PERFEV" stat -e task-clock 2>"$TMP/err"
check "no command, pid or CPUs: exit 1 and explain" sh -c "[ $? = 1 ] && grep -q 'nothing to count' '$TMP/err'"
"$PERFEV" stat -r 0 -- true 2>"$TMP/err"
check "bad -r value exits 1" [ $? = 1 ]
"$PERFEV" stat --frobnicate -- true 2>"$TMP/err"
check "unknown option exits 1" sh -c "[ $? = 1 ] && grep -q 'unknown option' '$TMP/err'"
"$PERFEV" sta -- true 2>"$TMP/err"
check "subcommands are not prefix-matched" sh -c "[ $? = 1 ] && grep -q 'not a perfev command' '$TMP/err'"

# --- the default set falls back to software events, saying so once
"$PERFEV" stat -- "$HELPERS/touch_pages" 100 2>"$TMP/def"
if "$PERFEV" stat -e instructions -- true 2>/dev/null; then
	skip "default set falls back to software events" "this machine has a hardware PMU"
else
	check "default set notes the missing hardware events once" [ "$(grep -c 'note:' "$TMP/def")" = 1 ]
	check "default set still counts task-clock" grep -q "task-clock" "$TMP/def"
	check "default set hides unsupported hardware rows" sh -c "! grep -q 'not supported' '$TMP/def'"
fi
check "human output shows elapsed, user and sys" sh -c "grep -q 'seconds time elapsed' '$TMP/def' && grep -q 'seconds user' '$TMP/def' && grep -q 'seconds sys' '$TMP/def'"
check "task-clock shows CPUs utilized" grep -q "CPUs utilized" "$TMP/def"

# --- explicit unsupported and not-counted rows
"$PERFEV" stat -e 'task-clock,r0000deadbeef' -- true 2>"$TMP/ns"
check "<not supported> row for an event this machine lacks" grep -q "<not supported>" "$TMP/ns"

# --- JSON: valid for results and errors, odd names escaped
"$PERFEV" stat --json -e page-faults,task-clock -- true 2>"$TMP/j"
check "--json result is valid JSON" jq -e '.events | length == 2' "$TMP/j"
check "--json carries values and times" jq -e '.events[0].value >= 1 and .elapsed_s > 0' "$TMP/j"
"$PERFEV" stat --json -e nope-event -- true 2>"$TMP/je"
st=$?
check "--json error is JSON with an error member" jq -e '.error | test("nope-event")' "$TMP/je"
check "--json error still exits 1" [ $st = 1 ]
odd=$(printf 'msr/tsc,name=we"ird\\\001x/')
"$PERFEV" stat --json -e "$odd" -- true 2>"$TMP/jo"
if grep -q '"error"' "$TMP/jo"; then
	check "--json odd name error is valid JSON" jq -e . "$TMP/jo"
else
	check "--json escapes quotes, backslashes and control bytes in names" jq -e '.events[0].event == "we\"ird\\\u0001x"' "$TMP/jo"
fi

# --- CSV layout: value;unit;event;running_ns;pct;metric;metric_unit
"$PERFEV" stat -x';' -e task-clock -- true 2>"$TMP/c"
check "CSV rows have 7 fields" sh -c "awk -F';' 'NF != 7 { bad = 1 } END { exit bad }' '$TMP/c'"

# --- -o FILE
"$PERFEV" stat -o "$TMP/out.txt" -e page-faults -- true 2>"$TMP/err"
check "-o writes the results to the file" grep -q "page-faults" "$TMP/out.txt"

# --- -r repeats and reports variation
"$PERFEV" stat -r 3 -e page-faults,task-clock -- "$HELPERS/touch_pages" 500 2>"$TMP/r"
check "-r 3 says 3 runs" grep -q "(3 runs)" "$TMP/r"
check "-r shows the variation" grep -q "+-" "$TMP/r"

# --- -I prints intervals
"$PERFEV" stat -I 100 -x';' -e task-clock -- "$HELPERS/spin" 450 >/dev/null 2>"$TMP/i"
lines=$(grep -c 'task-clock' "$TMP/i")
check "-I 100 over ~450 ms prints at least 4 intervals ($lines)" [ "$lines" -ge 4 ]

"$PERFEV" stat -I 100 --json -e task-clock,page-faults -- "$HELPERS/spin" 250 >/dev/null 2>"$TMP/ij"
check "-I --json: every line is a JSON interval" sh -c "jq -e -s 'length >= 2 and all(.interval_s > 0 and (.events | length) == 2)' '$TMP/ij' >/dev/null"

# --- SIGINT stops counting and still prints; the command's status comes back
"$PERFEV" stat -e task-clock -- sleep 5 2>"$TMP/s" &
p=$!
sleep 0.3
kill -INT $p
wait $p
st=$?
check "SIGINT during a command still prints the counts" grep -q "task-clock" "$TMP/s"
check "SIGINT: status is the command's (130) ($st)" [ $st = 130 ]

"$PERFEV" stat -a -e cpu-clock 2>"$TMP/a" &
p=$!
sleep 0.3
kill -INT $p
wait $p
st=$?
check "-a ends on SIGINT with exit 0 ($st)" [ $st = 0 ]
check "-a prints system-wide counts" grep -q "system wide" "$TMP/a"

"$PERFEV" stat -C 0 -x';' -e cpu-clock -- sleep 0.2 2>"$TMP/c0"
v=$(csv_field "$TMP/c0" cpu-clock 1 | cut -d. -f1)
check "-C 0 counts CPU 0 while the command runs (${v} ms)" [ "${v:-0}" -ge 150 ]

# --- -p attaches to a running process until it exits
"$HELPERS/spin" 600 >/dev/null &
sp=$!
sleep 0.1
"$PERFEV" stat -p $sp -x';' -e task-clock 2>"$TMP/p"
st=$?
v=$(csv_field "$TMP/p" task-clock 1 | cut -d. -f1)
check "-p counts a running process until it ends (${v} ms, status $st)" sh -c "[ $st = 0 ] && [ ${v:-0} -ge 300 ]"

# --- --help and the man page agree
"$PERFEV" stat --help >"$TMP/h"
sed 's/\\-/-/g' "$ROOT_DIR/docs/perfev-stat.1" >"$TMP/man"
for opt in $(grep -oE -- '--[a-z-]+' "$TMP/h" | sort -u); do
	check "perfev-stat.1 documents $opt" grep -q -- "$opt" "$TMP/man"
done

# --- the same counts as Linux perf
if ! have_perf; then
	skip "page-faults agree with perf stat" "perf is not installed or cannot count here"
else
	perf stat -x';' -e page-faults -- "$HELPERS/touch_pages" 2000 2>"$TMP/perf.csv" >/dev/null
	"$PERFEV" stat -x';' -e page-faults -- "$HELPERS/touch_pages" 2000 2>"$TMP/ours.csv" >/dev/null
	a=$(awk -F';' '$3 ~ /page-faults/ { print $1; exit }' "$TMP/perf.csv")
	b=$(csv_field "$TMP/ours.csv" page-faults 1)
	d=$((a > b ? a - b : b - a))
	check "page-faults agree with perf stat (perf $a, perfev $b)" [ "$d" -le $((a / 50 + 5)) ]
	if have_tracefs; then
		perf stat -x';' -e syscalls:sys_enter_getppid -- "$HELPERS/getppid_loop" 4321 2>"$TMP/perf2.csv"
		"$PERFEV" stat -x';' -e syscalls:sys_enter_getppid -- "$HELPERS/getppid_loop" 4321 2>"$TMP/ours2.csv"
		a=$(awk -F';' '$3 ~ /getppid/ { print $1; exit }' "$TMP/perf2.csv")
		b=$(csv_field "$TMP/ours2.csv" syscalls:sys_enter_getppid 1)
		check "tracepoint counts equal perf stat's (perf $a, perfev $b)" sh -c "[ '$a' = '$b' ] && [ '$b' = 4321 ]"
	else
		skip "tracepoint counts equal perf stat's" "tracefs is not mounted"
	fi
fi
