#!/bin/sh
# 'make demo': measure the bundled workload (tests/helpers/demo.c) with perfev stat, then profile
# it with perfev record -g and show where its time goes with perfev report; last, write the HTML
# report of the same samples and print its path.
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
echo
echo "== the hottest functions, each with the calls that led there (perfev report --no-children)"
"$PERFEV" report -i "$OUT/demo.data" --stdio --no-children --sort comm,dso,sym --percent-limit 2 |
	grep -v '^$'
echo
echo "== where the time goes including callees (perfev report --children, the top 12)"
"$PERFEV" report -i "$OUT/demo.data" --stdio --children -g none | grep -v '^#' | grep -v '^$' | head -n 12
echo
echo "== the same samples to look at: the HTML report (flame graph, callers, functions, timeline)"
mkdir -p "$BUILD/demo"
"$PERFEV" flamegraph -q -i "$OUT/demo.data" --title "perfev demo: the bundled workload" -o "$BUILD/demo/demo.html"
"$PERFEV" export -q -f pprof -i "$OUT/demo.data" -o "$BUILD/demo/demo.pb.gz"
echo "   pprof (go tool pprof -top $BUILD/demo/demo.pb.gz): $BUILD/demo/demo.pb.gz"
echo "   open it in a browser; it needs no network:"
echo "$(cd "$BUILD/demo" && pwd)/demo.html"
