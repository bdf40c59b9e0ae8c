#!/bin/sh
# Runs every benchmark of one build and prints one ratio line per benchmark.
set -u
BUILD=${1:-build}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
st=0
for b in "$BUILD"/bench/bench_*; do
	case $b in *.o|*.d) continue ;; esac
	[ -x "$b" ] || continue
	"$b" || st=1
done
for s in "$ROOT"/bench/bench_*.sh; do
	[ -f "$s" ] || continue
	sh "$s" "$BUILD" || st=1
done
exit $st
