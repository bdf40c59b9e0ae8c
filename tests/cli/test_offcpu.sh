#!/bin/sh
# perfev record --off-cpu and the off-CPU and wall-clock views, against the
# truth the workload measures itself (tests/helpers/offcpu.c: sleepy sleeps
# 30 x 10 ms, waity blocks 10 times on a pipe another process answers after
# 15 ms, busy computes 200 ms, starved-a and starved-b spin pinned to one
# CPU).  The machine may be loaded: every expected figure is one the
# workload measured on this run (its sleeps and blocked reads took what they
# took), never a nominal duration.  Checked: sleepy's and waity's off-CPU
# time within 3% of what they measured, in state S (nanosleep, pipe read);
# busy's waits all R (preempted); the starved threads mostly R; the
# wall-clock view's per-thread total within 3% of each thread's elapsed
# time; the same through -a, --call-graph dwarf, perf's own recording, a
# threshold; pprof (go tool pprof), folded, SVG and HTML carrying the waits.
. "$(dirname "$0")/lib.sh"

H=$HELPERS
if ! [ -e /sys/kernel/tracing/events/sched/sched_switch/id ]; then
	not_ok "sched:sched_switch is in tracefs (tests/run.sh mounts it)"
	exit 1
fi
export GOFLAGS=-mod=mod GOCACHE="$TMP/gocache" HOME="$TMP"

# within A B PCT: |A - B| <= PCT% of B
within() { awk -v a="$1" -v b="$2" -v p="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b > 0 && d <= b * p / 100) }'; }
# truth FILE KEY [LINE-KIND]: a value the workload printed (ns), in ms
truth() { sed -n "s/^${3:-main} .*$2=\([0-9]*\).*/\1/p" "$1" | head -n 1 | awk '{ printf "%.3f", $1 / 1e6 }'; }
starved_truth() { # FILE N KEY: the Nth starved thread's KEY, ms (N from 1)
	sed -n "s/^starved .*$3=\([0-9]*\).*/\1/p" "$1" | sed -n "$2p" | awk '{ printf "%.3f", $1 / 1e6 }'
}
starved_tid() { sed -n 's/^starved tid=\([0-9]*\).*/\1/p' "$1" | sed -n "$2p"; }
# folded off-CPU stacks (ns) of a recording: "comm-pid/tid;...;[off-cpu] STATE name NS"
waits() { f=$1; shift; "$PERFEV" export -q -f folded --prefix tid --event sched:sched_switch -i "$f" "$@" 2>"$TMP/err"; }
# sum PATTERN [STATE]: ms of the waits whose stack matches PATTERN (and ends in STATE)
sum() { awk -v pat="$1" -v st="$2" '
	index($0, pat) { if (st == "" || index($0, "[off-cpu] " st " ")) s += $NF }
	END { printf "%.3f", s / 1e6 }'; }
# wall_of REPORT TID: the wall-clock column of a thread in the per-thread table
wall_of() { awk -v t="$2" '/^# +Pid +Tid/ { on = 1; next } on && NF == 0 { on = 0 } on && $2 == t { print $4; exit }' "$1"; }
col_of() { awk -v t="$2" -v c="$3" '/^# +Pid +Tid/ { on = 1; next } on && NF == 0 { on = 0 } on && $2 == t { print $c; exit }' "$1"; }

# --- the workload under perfev record --off-cpu (frame pointers, as --off-cpu implies)
"$PERFEV" record -q --off-cpu -o "$TMP/o.data" -- "$H/offcpu" >"$TMP/truth" 2>"$TMP/rec.err"
if ! [ -s "$TMP/o.data" ] || ! grep -q '^main ' "$TMP/truth"; then
	not_ok "perfev record --off-cpu records the workload" "$(tail -n 3 "$TMP/rec.err")"
	exit 1
fi
ok "perfev record --off-cpu records the workload"
T="$TMP/truth"
MAIN=$(sed -n 's/^main tid=\([0-9]*\).*/\1/p' "$T")
waits "$TMP/o.data" >"$TMP/o.folded"
check "the waits export as folded stacks in ns" grep -q ';sleepy;.*\[off-cpu\] S sleeping [0-9][0-9]*$' "$TMP/o.folded"

# sleepy: its nanosleeps, S, within 3% of what they took
want=$(truth "$T" sleepy_ns)
got=$(sum ';sleepy;' <"$TMP/o.folded")
if within "$got" "$want" 3; then ok "sleepy's off-CPU time $got ms is within 3% of the $want ms it slept"
else not_ok "sleepy's off-CPU time $got ms is within 3% of the $want ms it slept" "$(grep ';sleepy;' "$TMP/o.folded" | head -n 5)"; fi
ns=$(grep ';sleepy;.*do_nanosleep' "$TMP/o.folded" | sum '' )
ns_s=$(grep ';sleepy;.*do_nanosleep' "$TMP/o.folded" | sum '' S)
# All but a preemption on the way in (state R, from the busy machine) are sleeps.
check "sleepy's nanosleeps are waits in state S ($ns_s of $ns ms, 99% at least)" within "$ns_s" "$ns" 1
check "the scheduler's frames are left out below do_nanosleep" \
	sh -c "grep ';sleepy;' '$TMP/o.folded' | grep -q 'do_nanosleep_\[k\];\[off-cpu\] S sleeping' &&
	       ! grep -q '__schedule_\[k\];\[off-cpu\]' '$TMP/o.folded'"

# waity: its pipe reads, S, within 3% of what they took
want=$(truth "$T" waity_ns)
got=$(sum ';waity;' <"$TMP/o.folded")
if within "$got" "$want" 3; then ok "waity's off-CPU time $got ms is within 3% of the $want ms it blocked"
else not_ok "waity's off-CPU time $got ms is within 3% of the $want ms it blocked" "$(grep ';waity;' "$TMP/o.folded" | head -n 5)"; fi
rd=$(grep ';waity;.*pipe_read' "$TMP/o.folded" | sum '')
rd_s=$(grep ';waity;.*pipe_read' "$TMP/o.folded" | sum '' S)
check "waity's pipe reads are waits in state S ($rd_s of $rd ms)" within "$rd_s" "$rd" 0
check "waity's pipe reads are nearly all its off-CPU time ($rd of $want ms)" within "$rd" "$want" 3

# busy never blocks: whatever it waited, it waited runnable
b_all=$(sum ';busy;' <"$TMP/o.folded")
b_r=$(sum ';busy;' R <"$TMP/o.folded")
# (it may have none: on an idle machine nothing preempts it, so no share is asked of it)
b_other=$(awk 'index($0, ";busy;") && !index($0, "[off-cpu] R ") { n++ } END { print n + 0 }' "$TMP/o.folded")
check "busy's waits are all R, preempted ($b_r of $b_all ms, $b_other in another state)" test "$b_other" = 0

# --- the report: off-CPU in ms, the wall-clock table
"$PERFEV" report -i "$TMP/o.data" --no-children -g none >"$TMP/o.report" 2>"$TMP/err"
check "report shows off-CPU time in ms" grep -q '^# Off-CPU time: [0-9]* waits of event .sched:sched_switch.' "$TMP/o.report"
check "report's off-CPU table has a Time ms column and the states" \
	sh -c "grep -q 'Time ms' '$TMP/o.report' && grep -q '\[off-cpu\] S sleeping' '$TMP/o.report' &&
	       grep -q '\[off-cpu\] R preempted' '$TMP/o.report'"
check "report shows a wall-clock view of cpu-clock and the waits" \
	grep -q "^# Wall-clock time: the samples of event 'cpu-clock'" "$TMP/o.report"
for i in 1 2; do
	tid=$(starved_tid "$T" $i)
	want=$(starved_truth "$T" $i elapsed_ns)
	got=$(wall_of "$TMP/o.report" "$tid")
	if [ -n "$got" ] && within "$got" "$want" 3; then
		ok "starved thread $i: wall-clock $got ms is within 3% of its elapsed $want ms"
	else
		not_ok "starved thread $i: wall-clock $got ms is within 3% of its elapsed $want ms" \
			"$(sed -n '/Pid *Tid/,/^$/p' "$TMP/o.report")"
	fi
	# Away from the CPU for elapsed - cpu; nearly all of it runnable (the rest: its start).
	away=$(awk -v e="$want" -v c="$(starved_truth "$T" $i cpu_ns)" 'BEGIN { printf "%.3f", e - c }')
	r=$(col_of "$TMP/o.report" "$tid" 9)
	check "starved thread $i: preempted, R $r ms of the $away ms it waited" \
		awk -v r="$r" -v a="$away" 'BEGIN { exit !(a > 0 && r >= 0.8 * a && r <= 1.03 * a) }'
done
# The feeder process measured its whole life, from fork to _exit.
want=$(truth "$T" elapsed_ns feeder)
ftid=$(sed -n 's/^feeder tid=\([0-9]*\).*/\1/p' "$T")
got=$(wall_of "$TMP/o.report" "$ftid")
check "feeder process: wall-clock $got ms is within 3% of its elapsed $want ms" within "$got" "$want" 3
# The main thread measured from main() on; the view has its exec and loading too.
want=$(truth "$T" elapsed_ns)
got=$(wall_of "$TMP/o.report" "$MAIN")
check "main thread: wall-clock $got ms holds all of its $want ms from main() on" \
	awk -v g="$got" -v w="$want" 'BEGIN { exit !(g >= w * 0.995) }'

# --- the exports carry the waits
"$PERFEV" export -q -f pprof -i "$TMP/o.data" -o "$TMP/o.pb.gz" 2>"$TMP/err"
if go tool pprof -raw "$TMP/o.pb.gz" >"$TMP/pprof.raw" 2>"$TMP/err"; then
	check "pprof: off-cpu/nanoseconds is a sample type of its own, with wall and cpu" \
		grep -q 'wall/nanoseconds\[dflt\] cpu/nanoseconds off-cpu/nanoseconds' "$TMP/pprof.raw"
	go tool pprof -sample_index=off-cpu -top -nodecount=200 "$TMP/o.pb.gz" >"$TMP/pprof.top" 2>&1
	check "go tool pprof reads the off-CPU sample type with its states" \
		grep -q '\[off-cpu\] S sleeping' "$TMP/pprof.top"
	total=$(sed -n 's/^# Time (ms): //p' "$TMP/o.report" | head -n 1)
	# -raw: each sample's values (count, wall, cpu, off-cpu), then ":" and its locations.
	pt=$(awk '/^Samples:/ { on = 1; getline; next } /^Locations/ { on = 0 }
		on && $4 ~ /^[0-9]+:$/ { s += $4 + 0 } END { printf "%.3f", s / 1e6 }' "$TMP/pprof.raw")
	check "pprof's off-CPU total $pt ms is report's $total ms" within "$pt" "$total" 0.01
else
	not_ok "go tool pprof reads the off-CPU profile" "$(head -n 3 "$TMP/err")"
fi
"$PERFEV" flamegraph -q -i "$TMP/o.data" -o "$TMP/o.svg" 2>"$TMP/err"
check "the SVG flame graph is of wall-clock time, waits marked" \
	sh -c "grep -q '\[off-cpu\] S sleeping' '$TMP/o.svg' && grep -q 'sleepy' '$TMP/o.svg'"
"$PERFEV" flamegraph -q -i "$TMP/o.data" -o "$TMP/o.html" 2>"$TMP/err"
check "the HTML report carries the off-CPU and wall-clock series" \
	sh -c "grep -q 'off-cpu' '$TMP/o.html' && grep -q 'wall-clock' '$TMP/o.html'"
# In headless Chromium (tests/js/browser.js): the pages load with no request and no console
# error, and show the waits by name.
JS=$ROOT_DIR/tests/js
if [ -d "$JS/node_modules/puppeteer-core" ] && [ -x /usr/bin/chromium ]; then
	for f in o.html o.svg; do
		if (cd "$JS" && node browser.js names "$TMP/$f" "$TMP/shots" '[off-cpu] S sleeping' \
			'[off-cpu] R preempted' sleepy) >"$TMP/b.out" 2>&1 &&
		   [ "$(sed -n 's/^shows_[0-9]=//p' "$TMP/b.out" | tr -d '\n')" = 111 ]; then
			ok "$f in Chromium: loads cleanly and shows the waits by state"
		else
			not_ok "$f in Chromium: loads cleanly and shows the waits by state" "$(head -n 5 "$TMP/b.out")"
		fi
	done
else
	not_ok "Chromium and tests/js's npm packages are installed (scripts/setup.sh)"
fi
"$PERFEV" export -q -f speedscope -i "$TMP/o.data" -o "$TMP/o.speedscope.json" 2>"$TMP/err"
check "speedscope: a profile of off-CPU time in nanoseconds" \
	sh -c "jq -e '[.profiles[] | select(.name | test(\"off-cpu\")) | .unit] | length > 0 and all(. == \"nanoseconds\")' '$TMP/o.speedscope.json' >/dev/null"

# --- --no-off-cpu: the switches as samples, counted (perf report's reading)
"$PERFEV" report -i "$TMP/o.data" --no-off-cpu --no-children -g none >"$TMP/plain" 2>&1
check "--no-off-cpu counts the switches as perf report does" \
	sh -c "grep -q \"of event 'sched:sched_switch'\" '$TMP/plain' && ! grep -q 'off-cpu\]' '$TMP/plain'"
if have_perf; then
	perf script -i "$TMP/o.data" >"$TMP/o.script" 2>/dev/null
	check "perf script reads perfev's off-CPU recording" grep -q 'sched:sched_switch: prev_comm=offcpu' "$TMP/o.script"
else
	skip "perf script reads perfev's off-CPU recording" "Linux perf is not usable here"
fi

# --- -a: every CPU, switch-ins from sched_switch's next_pid
"$PERFEV" record -q --off-cpu -a -o "$TMP/a.data" -- "$H/offcpu" >"$TMP/truth_a" 2>"$TMP/rec.err"
waits "$TMP/a.data" >"$TMP/a.folded"
want=$(truth "$TMP/truth_a" sleepy_ns)
got=$(sum ';sleepy;' <"$TMP/a.folded")
# Some kernels record no sched_switch out of an idle CPU's swapper (seen here on a
# paravirtualised guest: CPU 1's idle switch-ins never show, CPU 0's do); with -a that
# is the only sign a sleeper woke up, so its waits cannot be measured from the file.
main_tid=$(sed -n 's/^main tid=\([0-9]*\).*/\1/p' "$TMP/truth_a")
"$PERFEV" script -q -F trace -i "$TMP/a.data" >"$TMP/a.trace" 2>/dev/null
outs=$(grep -c "prev_pid=$main_tid " "$TMP/a.trace")
ins=$(grep -c "next_pid=$main_tid " "$TMP/a.trace")
# Every switch out must have its switch in: one lost switch-in loses a whole 10 ms sleep
# (3.3%), so a recording with any missing is no measure of the off-CPU arithmetic.
if [ "${ins:-0}" -gt 0 ] && [ "$ins" -ge "$outs" ]; then
	check "-a: sleepy's off-CPU time $got ms is within 3% of $want ms" within "$got" "$want" 3
else
	skip "-a: sleepy's off-CPU time is within 3% of what it slept" \
		"the kernel recorded $outs switches out of the main thread ($main_tid) but $ins into it: an idle CPU's switches are not all traced here"
fi

# --- --call-graph dwarf: user stacks unwound, the same waits
"$PERFEV" record -q --off-cpu --call-graph dwarf -o "$TMP/d.data" -- "$H/offcpu" >"$TMP/truth_d" 2>"$TMP/rec.err"
waits "$TMP/d.data" >"$TMP/d.folded"
want=$(truth "$TMP/truth_d" waity_ns)
got=$(sum ';waity;' <"$TMP/d.folded")
check "--call-graph dwarf: waity's off-CPU time $got ms is within 3% of $want ms" within "$got" "$want" 3

# --- -p: a process already running, until it ends
"$H/offcpu" 2 >"$TMP/truth_p" &
wp=$!
sleep 0.1
"$PERFEV" record -q --off-cpu -p $wp -o "$TMP/p.data" 2>"$TMP/rec.err"
wait $wp
waits "$TMP/p.data" >"$TMP/p.folded"
got=$(sum ';waity;' <"$TMP/p.folded")
want=$(truth "$TMP/truth_p" waity_ns)
check "-p: waity's off-CPU time $got ms is within 3% of $want ms" within "$got" "$want" 3

# --- -t: one thread of a running process: its waits, none of the other process's
"$H/offcpu" 2 >"$TMP/truth_t1" &
wp=$!
sleep 0.1
"$PERFEV" record -q --off-cpu -t $wp -o "$TMP/t1.data" 2>"$TMP/rec.err"
wait $wp
waits "$TMP/t1.data" >"$TMP/t1.folded"
got=$(sum ';waity;' <"$TMP/t1.folded")
want=$(truth "$TMP/truth_t1" waity_ns)
check "-t: waity's off-CPU time $got ms is within 3% of $want ms" within "$got" "$want" 3
ftid=$(sed -n 's/^feeder tid=\([0-9]*\).*/\1/p' "$TMP/truth_t1")
check "-t: nothing of the other process (the feeder, $ftid)" sh -c "! grep -q '^offcpu-$ftid/' '$TMP/t1.folded'"
"$PERFEV" record -q --off-cpu -t 2147483647 -o "$TMP/x.data" 2>"$TMP/err"
check "-t of no thread is refused" grep -q 'no such thread' "$TMP/err"

# --- --off-cpu-thresh: the short waits left out before they are written, the 10 ms sleeps kept
"$PERFEV" record --off-cpu --off-cpu-thresh 2ms -o "$TMP/t.data" -- "$H/offcpu" >"$TMP/truth_t" 2>"$TMP/rec.err"
check "--off-cpu-thresh leaves out short waits as it records" grep -q 'shorter waits left out by --off-cpu-thresh' "$TMP/rec.err"
waits "$TMP/t.data" >"$TMP/t.folded"
short=$(awk '$NF < 2000000' "$TMP/t.folded" | wc -l)
check "no wait under 2 ms is left (the report applies the recording's threshold)" test "$short" = 0
got=$(sum ';sleepy;' <"$TMP/t.folded")
want=$(truth "$TMP/truth_t" sleepy_ns)
check "--off-cpu-thresh 2ms keeps sleepy's 10 ms sleeps: $got ms of $want ms" within "$got" "$want" 3
"$PERFEV" report -v -i "$TMP/t.data" --off-cpu-thresh 20ms >/dev/null 2>"$TMP/t.err"
check "report --off-cpu-thresh overrides the recording's" grep -q '[1-9][0-9]* below the threshold' "$TMP/t.err"

# --- perf's own recording: sched_switch with call graphs and switch events
if have_perf; then
	perf record -q --no-buildid -e sched:sched_switch -g --switch-events -o "$TMP/perf.data" \
		-- "$H/offcpu" >"$TMP/truth_perf" 2>"$TMP/rec.err"
	waits "$TMP/perf.data" --off-cpu >"$TMP/perf.folded"
	got=$(sum ';sleepy;' <"$TMP/perf.folded")
	want=$(truth "$TMP/truth_perf" sleepy_ns)
	check "perf record -e sched:sched_switch -g --switch-events, read with --off-cpu: sleepy $got ms of $want ms" \
		within "$got" "$want" 3
else
	skip "perf's recording read with --off-cpu" "Linux perf is not usable here"
fi

# --- errors a user can make
"$PERFEV" record --off-cpu-thresh 1ms -o "$TMP/x.data" -- true >/dev/null 2>"$TMP/err"
check "--off-cpu-thresh without --off-cpu is refused" grep -q 'give both' "$TMP/err"
"$PERFEV" record --off-cpu -e sched:sched_switch -o "$TMP/x.data" -- true >/dev/null 2>"$TMP/err"
check "-e sched:sched_switch with --off-cpu is refused" grep -q 'leave it out of -e' "$TMP/err"
"$PERFEV" record --off-cpu --off-cpu-thresh 3parsecs -o "$TMP/x.data" -- true >/dev/null 2>"$TMP/err"
check "a duration that is not one is refused" grep -q 'expects a duration' "$TMP/err"
"$PERFEV" record -q -o "$TMP/n.data" -- "$H/sleeper" 10 >/dev/null 2>&1
"$PERFEV" report -i "$TMP/n.data" --off-cpu >/dev/null 2>"$TMP/err"
check "report --off-cpu of a recording without switches says how to record one" \
	grep -q "perfev record --off-cpu" "$TMP/err"
