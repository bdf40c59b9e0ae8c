#!/bin/sh
# perfev trace -s: each thread's syscalls counted exactly as strace -c -f counts them on a program
# whose syscalls are known (tests/helpers/syscall_mix.c), with plausible latencies (its sleeps
# take what they ask for; perf trace -s's figures where perf trace runs here); -p and recordings.
. "$(dirname "$0")/lib.sh"

if ! have_tracefs; then
	skip "perfev trace" "tracefs is not readable here (needs root and a mounted tracefs)"
	exit 0
fi
MIX="$HELPERS/syscall_mix"
# perf_try COMMAND...: Debian's perf 6.1 aborts now and then in its build-id code on some
# machines ("assertion failed at util/build-id.c"); up to three tries, its errors kept.
perf_try() {
	for _ in 1 2 3; do
		"$@" >/dev/null 2>"$TMP/perf_try.err" && return 0
	done
	return 1
}

# rows FILE: "calls errors name" per syscall, summed over the threads of a perf trace -s layout
rows() {
	awk '/^   [a-z_0-9]+ +[0-9]+ +[0-9]+ / { c[$1] += $2; e[$1] += $3 }
	     END { for (k in c) print c[k], e[k], k }' "$1" | sort -k3
}

"$PERFEV" trace -s -o "$TMP/ours.txt" -- "$MIX"
rc=$?
check "perfev trace -s runs the program (exit status 0)" [ $rc = 0 ]
if command -v strace >/dev/null 2>&1; then
	strace -c -f -o "$TMP/strace.txt" "$MIX"
	awk 'NR > 2 && !/^---|total/ { print $4, ($5 ~ /^[0-9]+$/ ? $5 : 0), $NF }' "$TMP/strace.txt" |
		sort -k3 >"$TMP/s"
	rows "$TMP/ours.txt" >"$TMP/o"
	nsys=$(wc -l <"$TMP/s" | tr -d ' ')
	if [ "$nsys" -gt 20 ] && cmp -s "$TMP/s" "$TMP/o"; then
		ok "calls and errors of all $nsys syscalls as strace -c -f counts them"
	else
		not_ok "perfev trace -s counts differ from strace -c -f" "$(diff "$TMP/s" "$TMP/o" | head -n 8)"
	fi
else
	not_ok "strace is needed to compare with (scripts/setup.sh installs it)"
fi

# The program's own figures, per thread: the child, the second thread, the main thread.
tbl() { awk -v t="$1" '/ events, / { on = $0 ~ t } on && /^   [a-z]/ { print $1, $2, $3 }' "$TMP/ours.txt"; }
main=$(awk '/ events, / { print $2 }' "$TMP/ours.txt" | tr -d '()' | sort -n | head -n 1)
check "three threads: the process, its child and its second thread" \
	[ "$(grep -c ' events, ' "$TMP/ours.txt")" = 3 ]
check "the child: 77 getpid, 13 uname, 9 faccessat failing" sh -c "
	grep -A30 'syscall_mix' '$TMP/ours.txt' | grep -q '^   getpid  *77  *0 ' &&
	grep -q '^   uname  *13  *0 ' '$TMP/ours.txt' && grep -q '^   faccessat  *9  *9 ' '$TMP/ours.txt'"
check "the second thread: 41 gettid, 11 dup failing" sh -c "
	grep -q '^   gettid  *41  *0 ' '$TMP/ours.txt' && grep -q '^   dup  *11  *11 ' '$TMP/ours.txt'"
check "the main thread: 200 getppid, 30 openat of a missing file and 17 close(-1) failing" sh -c "
	grep -q '^   getppid  *200  *0 ' '$TMP/ours.txt' && grep -q '^   openat  *34  *30 ' '$TMP/ours.txt' &&
	grep -q '^   close  *21  *17 ' '$TMP/ours.txt'"
check "threads named as they ran (syscall_mix)" sh -c "[ \$(grep -c '^ syscall_mix (' '$TMP/ours.txt') = 3 ]"

# Latency truth: five 1 ms sleeps and one of 50 ms; getppid is quick.
check "nanosleep: 6 calls, the shortest at least 1 ms, the longest at least 50 ms, total under 5 s" awk '
	$1 == "nanosleep" { ok = $2 == 6 && $5 >= 1.0 && $7 >= 50 && $4 >= 55 && $4 < 5000 }
	END { exit !ok }' "$TMP/ours.txt"
check "getppid: 200 calls averaging under 1 ms" awk '
	$1 == "getppid" { ok = $2 == 200 && $6 < 1 } END { exit !ok }' "$TMP/ours.txt"

# perf trace -s on the same program, where it runs here.
if have_perf && perf_try perf trace -s -o "$TMP/perf.txt" -- "$MIX" && [ -s "$TMP/perf.txt" ]; then
	pn=$(awk '$1 == "nanosleep" { print $6 }' "$TMP/perf.txt")
	on=$(awk '$1 == "nanosleep" { print $6 }' "$TMP/ours.txt")
	check "nanosleep's average as perf trace -s measures it (within a factor of 2: $on vs $pn ms)" \
		awk -v a="$on" -v b="$pn" 'BEGIN { exit !(a > 0 && b > 0 && a < 2 * b && b < 2 * a) }'
	awk '/ events, / { print $3 }' "$TMP/perf.txt" >"$TMP/pe"
	awk '/ events, / { print $3 }' "$TMP/ours.txt" >"$TMP/oe"
	# perf trace now and then lists the program without one of its threads (seen once in a
	# full run: its 202 events missing), or drops part of a thread's events under load (seen
	# in a sanitizer run of CI: the child's 202 events shown as 63, where our count matched
	# strace's): run it again, up to twice, until it lists all three as we do.
	tries=1
	while { [ "$(wc -l <"$TMP/pe")" != 3 ] || ! cmp -s "$TMP/pe" "$TMP/oe"; } && [ $tries -lt 3 ]; do
		tries=$((tries + 1))
		perf trace -s -o "$TMP/perf.txt" -- "$MIX" >/dev/null 2>&1
		awk '/ events, / { print $3 }' "$TMP/perf.txt" >"$TMP/pe"
	done
	if [ "$(wc -l <"$TMP/pe")" != 3 ]; then
		skip "the threads in perf trace -s's order" \
			"perf trace -s listed $(wc -l <"$TMP/pe") of the program's 3 threads in $tries runs"
	elif cmp -s "$TMP/pe" "$TMP/oe"; then
		ok "the threads in perf trace -s's order, with its counts of events ($(tr '\n' ' ' <"$TMP/oe"))"
	else
		not_ok "the threads' order or events differ from perf trace -s's" \
			"perf: $(tr '\n' ' ' <"$TMP/pe")" "ours: $(tr '\n' ' ' <"$TMP/oe")"
	fi
else
	skip "latencies against perf trace -s" \
		"perf trace does not run here: $(head -n 1 "$TMP/perf_try.err")"
fi

# -p: a running process, until it ends; its name from /proc.
"$HELPERS/sleeper" 1000 &
pid=$!
sleep 0.1
"$PERFEV" trace -s -p $pid -o "$TMP/p.txt"
check "-p PID: traced until the process ended, named from /proc" sh -c "
	grep -q '^ sleeper ($pid), ' '$TMP/p.txt' && awk '\$1 == \"clock_nanosleep\" && \$2 > 100 { f = 1 } END { exit !f }' '$TMP/p.txt'"
wait $pid 2>/dev/null

# From a recording: perfev's (and perf's) of raw_syscalls, the same counts as live.
"$PERFEV" record -q -e 'raw_syscalls:*' -o "$TMP/r.data" -- "$MIX" >/dev/null 2>&1
"$PERFEV" trace -s -i "$TMP/r.data" -o "$TMP/fromfile.txt"
rows "$TMP/fromfile.txt" >"$TMP/f"
check "-i: a recording by perfev record, the counts strace gives" cmp -s "$TMP/s" "$TMP/f"
if have_perf && perf_try perf record --no-buildid-cache -q -e 'raw_syscalls:*' -o "$TMP/pr.data" -- "$MIX"; then
	"$PERFEV" trace -s -i "$TMP/pr.data" -o "$TMP/fromperf.txt"
	rows "$TMP/fromperf.txt" >"$TMP/pf"
	check "-i: a recording by perf record, the counts strace gives" cmp -s "$TMP/s" "$TMP/pf"
else
	skip "-i of perf record's recording" "perf record fails here: $(head -n 1 "$TMP/perf_try.err")"
fi

# Errors say what and what to do; the command's status passes through.
"$PERFEV" trace -- true 2>"$TMP/err"
check "without -s: exit 1, asking for it" sh -c "[ $? = 1 ] && grep -q 'give -s' '$TMP/err'"
"$PERFEV" trace -s -o "$TMP/x.txt" -- sh -c 'exit 7'
check "the command's exit status passes through (7)" [ $? = 7 ]
"$PERFEV" trace -s -o "$TMP/x.txt" -- /nonexistent/cmd 2>"$TMP/err"
check "a command that cannot run: 127, named" sh -c "[ $? = 127 ] && grep -q '/nonexistent/cmd' '$TMP/err'"
"$PERFEV" record -q -e cpu-clock -o "$TMP/c.data" -- true >/dev/null 2>&1
"$PERFEV" trace -s -i "$TMP/c.data" 2>"$TMP/err"
check "-i of a recording without syscalls: exit 1, how to record them" \
	sh -c "[ $? = 1 ] && grep -q 'no raw_syscalls.*perfev record -e' '$TMP/err'"
head -c 3000 "$TMP/r.data" >"$TMP/cut.data"
"$PERFEV" trace -s -i "$TMP/cut.data" >/dev/null 2>"$TMP/err"
check "a damaged recording is an error, not a crash" sh -c "[ $? = 1 ] && [ -s '$TMP/err' ]"
