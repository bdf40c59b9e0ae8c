#!/bin/sh
# perfev report and script against perf report and script on the same file,
# measured in the same run: a recording with frame-pointer call graphs of at
# least 100,000 samples of a real multi-library program (clang, with libLLVM,
# libstdc++, libc, libz..., compiling perfev's own sources; DATA=FILE reuses
# one), read by each tool to /dev/null: the default report (children, call
# graphs), the flat report (-g none --no-children) and script.  Wall time
# (median of RUNS), CPU time (user + system, median) and peak resident
# memory; the report's throughput in samples per second.  perfev's symbol
# cache is its own and warm (a first, untimed run fills it), as it is from a
# user's second report on; COLD=1 times an empty cache instead.
set -eu
BUILD=${1:-build}
RUNS=${RUNS:-3}
PERFEV=$BUILD/perfev
RUSAGE=$BUILD/bench/rusage
ROOT=$(cd "$(dirname "$0")/.." && pwd)
# perfev's sources include headers the build generates (pprof's messages).
GENDIR=$(cd "$BUILD" && pwd)/gen
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
command -v perf >/dev/null || { echo "bench_report: perf missing; run scripts/setup.sh"; exit 1; }
command -v clang >/dev/null || { echo "bench_report: clang missing; run scripts/setup.sh"; exit 1; }

. "$ROOT/bench/clang_recording.sh"
DATA=${DATA:-}
if [ -z "$DATA" ]; then
	DATA=$OUT/cc.data
	record_clang "$DATA"
fi
samples=$(samples_of "$DATA")
# perf 6.1 here aborts now and then as it reads a file; perfev counts the same records.
[ -n "$samples" ] || samples=$("$PERFEV" report -v -q --stdio -g none --no-children -i "$DATA" 2>&1 >/dev/null |
	sed -n 's/^perfev report: \([0-9]*\) samples read.*/\1/p')
if [ "${samples:-0}" -lt 100000 ]; then
	echo "bench_report: only ${samples:-0} samples recorded (want 100000); the machine is slower than expected"
fi
mb=$(du -m "$DATA" | cut -f1)
export PERFEV_CACHE_DIR="$OUT/perfev-cache"
[ -n "${COLD:-}" ] || "$PERFEV" report -q --stdio -g none --no-children -i "$DATA" >/dev/null 2>&1
cache=warm
[ -n "${COLD:-}" ] && cache=cold

# each MODE: perfev's and perf's median wall, peak RSS, median CPU
measure() {
	if [ -n "${COLD:-}" ]; then
		set -- $("$RUSAGE" -c "$RUNS" sh -c 'rm -rf "$PERFEV_CACHE_DIR"; exec "$@"' sh "$PERFEV" "$@")
	else
		set -- $("$RUSAGE" -c "$RUNS" "$PERFEV" "$@")
	fi
	echo "$1 $2 $3"
}
line() { # NAME GOAL_TIME GOAL_MEM "perfev args" "perf args"
	name=$1 gt=$2 gm=$3
	set -- $(measure $4) $("$RUSAGE" -c "$RUNS" perf $5)
	awk -v name="$name" -v gt="$gt" -v gm="$gm" -v ot="$1" -v om="$2" -v oc="$3" -v pt="$4" -v pm="$5" \
		-v pc="$6" -v n="$samples" -v mb="$mb" -v r="$RUNS" -v cache="$cache" 'BEGIN {
		printf "%s_time_vs_perf: ratio %.4f (perfev %.3f s, perf %.3f s = %.1fx faster; CPU perfev %.3f s, perf %.3f s = %.1fx; %d samples of clang, %d MB; medians of %d; symbol cache %s; goal <= %s)\n", name, ot / pt, ot, pt, pt / ot, oc, pc, pc / oc, n, mb, r, cache, gt
		if (gm != "") {
			printf "%s_memory_vs_perf: ratio %.4f (peak RSS perfev %.1f MB, perf %.1f MB; goal <= %s)\n", name, om / pm, om / 1024, pm / 1024, gm
			printf "%s_throughput: perfev %.0f samples/s, perf %.0f samples/s\n", name, n / ot, n / pt
		}
	}'
}
line report 0.033 0.033 "report -q --stdio -i $DATA" "report --stdio -i $DATA"
line report_flat 0.2 "" "report -q --stdio -g none --no-children -i $DATA" \
	"report --stdio -g none --no-children -i $DATA"
line script 0.2 "" "script -i $DATA" "script -i $DATA"
