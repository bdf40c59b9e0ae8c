#!/bin/sh
# perfev top against perf top: the CPU each uses itself (user + system time of
# all its threads, from /proc/PID/stat) while sampling every CPU at the same
# frequency (cpu-clock, -F 4000) under the same load (one CPU-bound workload
# per CPU), in text mode (--stdio, refresh every 2 s), for SECS seconds,
# alternating the two tools for ROUNDS rounds (default 3 rounds of 30 s).  Two figures: the whole run
# (start-up included: both describe every process first) and the steady state
# (from the 5th second on).  perf top also reports the samples it dropped
# because it could not keep up; those it did not process cost it nothing.
set -eu
BUILD=${1:-build}
ROUNDS=${ROUNDS:-3}
SECS=${SECS:-30}
PERFEV=$BUILD/perfev
HOT=$BUILD/tests/helpers/hot
OUT=$(mktemp -d)
LOAD=""
cleanup() { for p in $LOAD; do kill -9 "$p" 2>/dev/null || true; done; rm -rf "$OUT"; }
trap cleanup EXIT
command -v perf >/dev/null || { echo "bench_top: perf missing; run scripts/setup.sh"; exit 1; }
[ -x "$HOT" ] || { echo "bench_top: $HOT missing; make tests"; exit 1; }
ncpu=$(getconf _NPROCESSORS_ONLN)
tick=$(getconf CLK_TCK)

cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }

# run NAME COMMAND...: the tool's CPU seconds over the whole run and from second 5, "all steady".
run() {
	name=$1
	shift
	LOAD=""
	for i in $(seq "$ncpu"); do "$HOT" 1000000 >/dev/null & LOAD="$LOAD $!"; done
	# perf top reads keys from stdin; one that never ends and never speaks keeps it from spinning.
	sleep $((SECS + 30)) | "$@" >"$OUT/$name.out" 2>&1 &
	pid=$(pgrep -n -f "$1 top --stdio -F 4000 -e cpu-clock")
	sleep 5
	mid=$(cpu_ticks "$pid")
	sleep $((SECS - 5))
	end=$(cpu_ticks "$pid")
	kill -INT "$pid" 2>/dev/null || true
	sleep 1
	kill -9 "$pid" 2>/dev/null || true
	for p in $LOAD; do kill -9 "$p" 2>/dev/null || true; done
	LOAD=""
	wait 2>/dev/null || true
	echo "$end $mid" | awk -v t="$tick" '{ printf "%.3f %.3f\n", $1 / t, ($1 - $2) / t }'
}

: >"$OUT/ours" && : >"$OUT/perf"
for r in $(seq "$ROUNDS"); do
	run perfev "$PERFEV" top --stdio -F 4000 -e cpu-clock -d 2 >>"$OUT/ours"
	run perf perf top --stdio -F 4000 -e cpu-clock -d 2 >>"$OUT/perf"
done
drops=$(grep -o 'drop: [0-9]*/[0-9]*' "$OUT/perf.out" | tail -1 | sed 's/drop: //')
samples=$(grep -o 'PerfTop: *[0-9]* samples/s' "$OUT/perfev.out" | awk '{ s += $2; n++ } END { printf "%.0f", n ? s / n : 0 }')
irqs=$(grep -o 'PerfTop: *[0-9]* irqs/sec' "$OUT/perf.out" | awk '{ s += $2; n++ } END { printf "%.0f", n ? s / n : 0 }')
med() { sort -n | awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
oa=$(cut -d' ' -f1 "$OUT/ours" | med) os=$(cut -d' ' -f2 "$OUT/ours" | med)
pa=$(cut -d' ' -f1 "$OUT/perf" | med) ps=$(cut -d' ' -f2 "$OUT/perf" | med)
awk -v oa="$oa" -v os="$os" -v pa="$pa" -v ps="$ps" -v s="$SECS" -v r="$ROUNDS" -v n="$ncpu" \
    -v d="$drops" -v sm="$samples" -v ir="$irqs" 'BEGIN {
	printf "top_cpu_vs_perf: ratio %.3f (CPU over %d s: perfev top %.2f s, perf top %.2f s; -F 4000 cpu-clock on %d CPUs under %d busy workloads; medians of %d; goal <= 0.5)\n", pa ? oa / pa : 0, s, oa, pa, n, n, r
	printf "top_cpu_steady_vs_perf: ratio %.3f (CPU from second 5 to %d: perfev top %.2f s, perf top %.2f s; perfev shown %s samples/s, perf top %s irqs/sec with drop %s in its last run)\n", ps ? os / ps : 0, s, os, ps, sm, ir, d
}'
