#!/bin/sh
# perfev script prints tracepoint fields as perf script does: the same files
# (recorded by perf and by perfev, file and pipe) read by both, line for line.
. "$(dirname "$0")/lib.sh"

if ! have_perf; then
	not_ok "Linux perf is needed to compare with (scripts/setup.sh installs it)"
	exit 0
fi
if ! have_tracefs; then
	skip "tracepoint recordings" "tracefs is not readable here (needs root and a mounted tracefs)"
	exit 0
fi

# same DESC FILE [ARGS...]: perfev script and perf script print FILE alike.
same() {
	desc=$1 file=$2
	shift 2
	perf script -i "$file" "$@" >"$TMP/perf.out" 2>/dev/null
	"$PERFEV" script -i "$file" "$@" >"$TMP/ours.out" 2>"$TMP/ours.err"
	lines=$(wc -l <"$TMP/perf.out" | tr -d ' ')
	if [ "$lines" -gt 0 ] && cmp -s "$TMP/perf.out" "$TMP/ours.out"; then
		ok "$desc: $lines lines as perf script prints them"
	else
		not_ok "$desc: perfev script differs from perf script" \
			"$(diff "$TMP/perf.out" "$TMP/ours.out" | head -n 8)" "$(head -n 3 "$TMP/ours.err")"
	fi
}

# A workload that crosses many tracepoints: a child, sleeps, file I/O to disk, a signal.
work() {
	sh -c 'dd if=/dev/zero of="$1/dd.out" bs=64k count=20 oflag=direct 2>/dev/null; sync;
		cat /etc/hostname >/dev/null; sleep 0.02; kill -USR1 $$ 2>/dev/null; true' sh "$TMP"
}

EVENTS='sched:*,irq:*,timer:*,block:*,signal:*,workqueue:*,raw_syscalls:*,syscalls:sys_enter_openat,syscalls:sys_exit_openat,rcu:rcu_utilization,kmem:kmalloc,kmem:mm_page_alloc'
perf record -q -a -e "$EVENTS" -o "$TMP/p.data" -- sh -c "$(type work | sed 1d); work" >/dev/null 2>&1
kinds=$(perf script -i "$TMP/p.data" -F event 2>/dev/null | sort -u | wc -l)
check "perf recorded $kinds kinds of tracepoint" [ "$kinds" -ge 15 ]
same "perf record -a of $kinds tracepoints" "$TMP/p.data"
same "-F comm,tid,event,trace" "$TMP/p.data" -F comm,tid,event,trace
same "-F +period" "$TMP/p.data" -F +period

perf record -q -g -e sched:sched_switch -e sched:sched_wakeup -o "$TMP/g.data" -- sleep 0.05 >/dev/null 2>&1
perf script -i "$TMP/g.data" -F comm,tid,time,event,trace >"$TMP/perf.out" 2>/dev/null
"$PERFEV" script -i "$TMP/g.data" -F comm,tid,time,event,trace >"$TMP/ours.out" 2>/dev/null
check "tracepoints with call graphs: the same fields" cmp -s "$TMP/perf.out" "$TMP/ours.out"
"$PERFEV" script -i "$TMP/g.data" >"$TMP/ours.out" 2>/dev/null
check "tracepoints with call graphs: the fields, then the stack" \
	sh -c "grep -q 'sched:sched_switch: prev_comm=sleep .*prev_state=S' '$TMP/ours.out' &&
	       grep -A1 'sched_switch: prev_comm=sleep' '$TMP/ours.out' | grep -q '__schedule\|schedule'"

"$PERFEV" record -q -e 'sched:sched_switch,sched:sched_process_exec,raw_syscalls:sys_enter,raw_syscalls:sys_exit' \
	-o "$TMP/v.data" -- sh -c 'sleep 0.01; cat /etc/hostname' >/dev/null 2>&1
same "perfev record of four tracepoints" "$TMP/v.data"

perf record -q -e sched:sched_switch,sched:sched_process_exec,irq:softirq_entry -o - -- sleep 0.02 \
	2>/dev/null >"$TMP/pipe.data"
perf script -i - <"$TMP/pipe.data" >"$TMP/perf.out" 2>/dev/null
"$PERFEV" script -i - <"$TMP/pipe.data" >"$TMP/ours.out" 2>"$TMP/ours.err"
check "a pipe's tracing data: the same lines as perf script" \
	sh -c "[ -s '$TMP/perf.out' ] && cmp -s '$TMP/perf.out' '$TMP/ours.out'"

# Every syscall and sched tracepoint (globs), recorded by perfev and by perf, of a program that
# makes many kinds of syscall (some failing) in a child and a thread.
"$PERFEV" record -q -e 'syscalls:*,sched:*' -o "$TMP/g1.data" -- "$HELPERS/syscall_mix" >/dev/null 2>&1
same "perfev record -e 'syscalls:*,sched:*'" "$TMP/g1.data"
# perf 6.1 aborts now and then in its build-id code on some machines: a few tries.
for _ in 1 2 3; do
	perf record --no-buildid-cache -q -e 'syscalls:*' -o "$TMP/g2.data" -- "$HELPERS/syscall_mix" \
		>/dev/null 2>"$TMP/g2.err" && break
done
if perf evlist -i "$TMP/g2.data" >/dev/null 2>&1; then
	same "perf record -e 'syscalls:*'" "$TMP/g2.data"
else
	skip "perf record -e 'syscalls:*'" "perf record fails here: $(head -n 1 "$TMP/g2.err")"
fi
