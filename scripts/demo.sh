#!/bin/sh
# 'make demo': measure the bundled workload (tests/helpers/demo.c) with perfev stat.
set -eu
BUILD=${1:-build}
PERFEV=$BUILD/perfev
W=$BUILD/tests/helpers/demo

echo "== perfev stat on the bundled workload (the default event set)"
"$PERFEV" stat -- "$W"
echo
echo "== where its time and events go: CPU time, faults, switches and the system calls it makes"
events=task-clock,page-faults,context-switches
if [ -e /sys/kernel/tracing/events/syscalls/sys_enter_getppid ]; then
	events="$events,syscalls:sys_enter_getppid,syscalls:sys_enter_mmap,syscalls:sys_enter_munmap"
fi
"$PERFEV" stat -e "$events" -r 3 -- "$W"
echo
echo "== where its CPU time goes: perfev record -g samples it into perf.data"
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
"$PERFEV" record -g -o "$OUT/demo.data" -- "$W" >/dev/null
if command -v perf >/dev/null 2>&1; then
	# perfev's own report comes next; until then Linux perf reads the file perfev wrote.
	echo "== the hottest functions (perf report --stdio --no-children --sort sym on that file)"
	perf report --stdio --no-children --sort sym -g none -i "$OUT/demo.data" 2>/dev/null |
		grep -v '^#' | grep -v '^$' | head -n 12
fi
