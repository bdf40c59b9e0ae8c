#!/bin/sh
# perfev report against perf report on the same file, measured in the same run:
# a recording with frame-pointer call graphs of at least 100,000 samples of a
# real multi-library program (clang, with libLLVM, libstdc++, libc, libz...,
# compiling perfev's own sources), reported by each tool in its default mode
# (children, call graphs) to /dev/null.  Wall time (median of RUNS) and peak
# resident memory; the report's throughput in samples per second.
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
record_clang "$OUT/cc.data"
samples=$(samples_of "$OUT/cc.data")
if [ "${samples:-0}" -lt 100000 ]; then
	echo "bench_report: only ${samples:-0} samples recorded (want 100000); the machine is slower than expected"
fi
mb=$(du -m "$OUT/cc.data" | cut -f1)

set -- $("$RUSAGE" "$RUNS" "$PERFEV" report -q --stdio -i "$OUT/cc.data")
ours_t=$1 ours_m=$2
set -- $("$RUSAGE" "$RUNS" perf report --stdio -i "$OUT/cc.data")
perf_t=$1 perf_m=$2
awk -v ot="$ours_t" -v om="$ours_m" -v pt="$perf_t" -v pm="$perf_m" -v n="$samples" -v mb="$mb" -v r="$RUNS" 'BEGIN {
	printf "report_time_vs_perf: ratio %.4f (perfev %.3f s, perf %.3f s = %.1fx faster; %d samples with call graphs of clang, %d MB; medians of %d; goal <= 0.05)\n", ot / pt, ot, pt, pt / ot, n, mb, r
	printf "report_memory_vs_perf: ratio %.4f (peak RSS perfev %.1f MB, perf %.1f MB; goal <= 0.1)\n", om / pm, om / 1024, pm / 1024
	printf "report_throughput: perfev %.0f samples/s, perf %.0f samples/s\n", n / ot, n / pt
}'
