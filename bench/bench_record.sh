#!/bin/sh
# perfev record against perf record, measured in the same run:
#   1. wall time of recording `true` (hyperfine, medians);
#   2. CPU time added to a CPU-bound workload sampled at -F 4000 -g
#      (task-clock of the whole tree minus the workload alone, medians of N);
#   3. the share of samples lost at the kernel's highest rate with the same
#      small ring, counted the same way for both files (perf script).
set -eu
BUILD=${1:-build}
RUNS=${RUNS:-50}
REPS=${REPS:-5}
PERFEV=$BUILD/perfev
HOT=$BUILD/tests/helpers/hot
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
command -v hyperfine >/dev/null || { echo "bench_record: hyperfine missing; run scripts/setup.sh"; exit 1; }
command -v perf >/dev/null || { echo "bench_record: perf missing; run scripts/setup.sh"; exit 1; }

# 1. Start-up and shut-down cost: recording a command that does nothing.
hyperfine -N --warmup 5 --runs "$RUNS" --export-json "$OUT/h.json" \
	"$PERFEV record -q -o $OUT/a.data -- true" \
	"perf record -q -o $OUT/b.data -- true" >"$OUT/log" 2>&1 || { cat "$OUT/log"; exit 1; }
jq -r '.results as $r | "record_true_vs_perf: ratio \(($r[0].median / $r[1].median * 1000 | round) / 1000) (perfev \($r[0].median * 1e6 | round / 1000) ms, perf \($r[1].median * 1e6 | round / 1000) ms; medians of \($r[0].times | length) runs; goal <= 0.05)"' "$OUT/h.json"

# 2. CPU time a recording adds: task-clock (ms) of everything under perfev stat.
cpu_ms() {
	"$PERFEV" stat -x';' -e task-clock -o "$OUT/st.csv" -- "$@" >/dev/null 2>&1
	awk -F';' '$3 == "task-clock" { printf "%d\n", $1; exit }' "$OUT/st.csv"
}
median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
: >"$OUT/base"
: >"$OUT/ours"
: >"$OUT/theirs"
for i in $(seq "$REPS"); do
	cpu_ms "$HOT" 300 >>"$OUT/base"
	cpu_ms "$PERFEV" record -q -F 4000 -g -o "$OUT/c.data" -- "$HOT" 300 >>"$OUT/ours"
	cpu_ms perf record -q -F 4000 -g -o "$OUT/d.data" -- "$HOT" 300 >>"$OUT/theirs"
done
base=$(median <"$OUT/base")
ours=$(median <"$OUT/ours")
theirs=$(median <"$OUT/theirs")
awk -v b="$base" -v o="$ours" -v t="$theirs" 'BEGIN {
	ao = o - b; at = t - b; if (ao < 0) ao = 0; if (at < 1) at = 1;
	printf "record_cpu_overhead_vs_perf: ratio %.3f (added CPU: perfev %d ms, perf %d ms over %d ms of workload; -F 4000 -g; medians of %d; goal <= 1)\n", ao / at, ao, at, b, '"$REPS"'
}'

# 3. Losses at the highest rate the kernel allows, both with a 4-page ring.
#    perf script counts both files the same way: PERF_RECORD_LOST totals
#    against samples kept; the share lost is compared, since how long the
#    workload runs (and so how many samples there are) depends on the overhead.
lost_pct() {
	perf script --show-lost-events -F period -i "$1" 2>/dev/null |
		awk '/PERF_RECORD_LOST/ { l += $NF; next } { n++ } END { printf "%.3f %d %d\n", (l + n) ? 100 * l / (l + n) : 0, l, n }'
}
max=$(cat /proc/sys/kernel/perf_event_max_sample_rate)
: >"$OUT/lo"
: >"$OUT/lt"
for i in $(seq "$REPS"); do
	"$PERFEV" record -q -F "$max" -g -m 4 -o "$OUT/e.data" -- "$HOT" 10 >/dev/null 2>&1
	perf record -q -F "$max" -g -m 4 -o "$OUT/f.data" -- "$HOT" 10 >/dev/null 2>&1
	lost_pct "$OUT/e.data" >>"$OUT/lo"
	lost_pct "$OUT/f.data" >>"$OUT/lt"
done
lo=$(cut -d' ' -f1 "$OUT/lo" | median)
lt=$(cut -d' ' -f1 "$OUT/lt" | median)
echo "record_lost_vs_perf: perfev lost $lo% of samples, perf $lt% (-F $max -g -m 4, 2 CPUs; medians of $REPS; per run perfev: $(cut -d' ' -f1 "$OUT/lo" | tr '\n' ' ')perf: $(cut -d' ' -f1 "$OUT/lt" | tr '\n' ' '); goal: perfev < perf)"
