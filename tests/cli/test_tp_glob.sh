#!/bin/sh
# Tracepoint globs ("syscalls:*", "sched:sched_process_*") expand as perf's do: the same events,
# for stat and record, in groups too; a glob that matches nothing is a clear error.
. "$(dirname "$0")/lib.sh"

if ! have_tracefs; then
	skip "tracepoint globs" "tracefs is not readable here (needs root and a mounted tracefs)"
	exit 0
fi
TRACEFS=/sys/kernel/tracing

# names PROGRAM ARGS...: the event names a CSV stat run printed, sorted.
names() { "$@" 2>&1 >/dev/null | cut -d, -f3 | grep : | sort; }

for g in 'sched:sched_process_*' 'syscalls:sys_*_getpp*' 'raw_syscalls:*' 'sched:sched_w?k*'; do
	names "$PERFEV" stat -x, -e "$g" -- true >"$TMP/ours"
	if have_perf; then
		names perf stat -x, -e "$g" -- true >"$TMP/perf"
		if [ -s "$TMP/ours" ] && cmp -s "$TMP/ours" "$TMP/perf"; then
			ok "stat -e '$g': the $(wc -l <"$TMP/ours" | tr -d ' ') events perf expands it to"
		else
			not_ok "stat -e '$g' differs from perf's expansion" "$(diff "$TMP/perf" "$TMP/ours" | head -5)"
		fi
	else
		not_ok "Linux perf is needed to compare with (scripts/setup.sh installs it)"
	fi
done

# Every tracepoint of the syscalls subsystem: as many as tracefs lists with an id.
want=$(ls -d "$TRACEFS"/events/syscalls/*/id 2>/dev/null | wc -l | tr -d ' ')
got=$(names "$PERFEV" stat -x, -e 'syscalls:*' -- true | wc -l | tr -d ' ')
check "stat -e 'syscalls:*': all $want syscall tracepoints" [ "$want" -gt 100 -a "$got" = "$want" ]

# Counts are real: the helper calls getppid a known number of times.
"$PERFEV" stat -x, -e 'syscalls:sys_enter_getpp*' -- "$HELPERS/getppid_loop" 1000 2>"$TMP/cnt" >/dev/null
check "a glob's events count: 1000 getppid calls" grep -q '^1000,,syscalls:sys_enter_getppid' "$TMP/cnt"

# Modifiers after a glob apply to each match; globs in a group make members.
"$PERFEV" stat -x, -e '{sched:sched_switch,sched:sched_wak*}' -- sleep 0.01 2>"$TMP/grp" >/dev/null
check "a glob in a group: the group's members" sh -c "grep -c 'sched:sched_wak' '$TMP/grp' | grep -q '^[2-9]'"

# record takes globs too, and the file names each event.
"$PERFEV" record -q -e 'sched:sched_process_e*' -o "$TMP/r.data" -- true >/dev/null 2>&1
"$PERFEV" script -i "$TMP/r.data" -F event 2>/dev/null | sort -u >"$TMP/ev"
check "record -e 'sched:sched_process_e*': exec and exit samples" \
	sh -c "grep -q sched_process_exec '$TMP/ev' && grep -q sched_process_exit '$TMP/ev'"

# A glob that matches nothing: what, where, and what to do; nothing runs.
"$PERFEV" stat -e 'nosuchsys:*' -- touch "$TMP/ran" 2>"$TMP/err"
rc=$?
check "a glob matching nothing fails (exit 1) before the command runs" \
	sh -c "[ $rc = 1 ] && [ ! -e '$TMP/ran' ]"
check "... saying no tracepoint matches and how to list them" \
	grep -q "no tracepoint matches 'nosuchsys:\*'.*perfev list tracepoint" "$TMP/err"
"$PERFEV" stat -e 'sched:nosuch_*' -- true 2>"$TMP/err"
check "an event glob matching nothing in a subsystem: the same error" \
	grep -q "no tracepoint matches 'sched:nosuch_\*'" "$TMP/err"
"$PERFEV" record -q -e 'cpu-clock,xyz:*' -o "$TMP/n.data" -- true 2>"$TMP/err"
check "record: the glob's place in a longer list is named" \
	grep -q "no tracepoint matches 'xyz:\*'.*offset 10 of the list" "$TMP/err"
