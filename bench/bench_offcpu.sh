#!/bin/sh
# perfev record --off-cpu against perf record -e sched:sched_switch -g, in the
# same run, on a switch-heavy workload (tests/helpers/pingpong.c: two
# processes passing a byte over pipes, four context switches a round trip):
#   1. the CPU time the recording adds: task-clock of the whole process tree
#      (perfev stat) minus the workload alone, medians of REPS;
#   2. the file's size, and the switch-outs it holds.
# perfev's recording also samples cpu-clock (--off-cpu adds to the -e events)
# and records the switch-ins (PERF_RECORD_SWITCH) that perf's lacks; a third
# line gives --off-cpu-thresh 1ms, which leaves out the short waits.  perf
# records with --no-buildid: perf 6.1 aborts in its build-id pass here
# (util/build-id.c), and that pass would only add to its CPU time.
set -eu
BUILD=${1:-build}
REPS=${REPS:-5}
ROUNDS=${ROUNDS:-20000}
PERFEV=$BUILD/perfev
PP=$BUILD/tests/helpers/pingpong
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
command -v perf >/dev/null || { echo "bench_offcpu: perf missing; run scripts/setup.sh"; exit 1; }

cpu_ms() {
	"$PERFEV" stat -x';' -e task-clock -o "$OUT/st.csv" -- "$@" >/dev/null 2>&1
	awk -F';' '$3 == "task-clock" { printf "%d\n", $1; exit }' "$OUT/st.csv"
}
median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
size_kb() { echo $(( $(stat -c %s "$1") / 1024 )); }
switches() { "$PERFEV" script -i "$1" 2>/dev/null | grep -c "sched:sched_switch:" || true; }
for f in base ours thresh theirs sz_o sz_t sz_p; do : >"$OUT/$f"; done
for i in $(seq "$REPS"); do
	cpu_ms "$PP" "$ROUNDS" >>"$OUT/base"
	cpu_ms "$PERFEV" record -q --off-cpu -o "$OUT/o.data" -- "$PP" "$ROUNDS" >>"$OUT/ours"
	size_kb "$OUT/o.data" >>"$OUT/sz_o"
	cpu_ms "$PERFEV" record -q --off-cpu --off-cpu-thresh 1ms -o "$OUT/t.data" -- "$PP" "$ROUNDS" >>"$OUT/thresh"
	size_kb "$OUT/t.data" >>"$OUT/sz_t"
	cpu_ms perf record -q --no-buildid -e sched:sched_switch -g -o "$OUT/p.data" -- "$PP" "$ROUNDS" >>"$OUT/theirs"
	size_kb "$OUT/p.data" >>"$OUT/sz_p"
done
base=$(median <"$OUT/base")
ours=$(median <"$OUT/ours")
thresh=$(median <"$OUT/thresh")
theirs=$(median <"$OUT/theirs")
so=$(median <"$OUT/sz_o")
st=$(median <"$OUT/sz_t")
sp=$(median <"$OUT/sz_p")
no=$(switches "$OUT/o.data")
nt=$(switches "$OUT/t.data")
np=$(switches "$OUT/p.data")
awk -v b="$base" -v o="$ours" -v t="$theirs" -v h="$thresh" -v so="$so" -v sp="$sp" -v st="$st" \
    -v no="$no" -v np="$np" -v nt="$nt" -v r="$REPS" -v n="$ROUNDS" 'BEGIN {
	ao = o - b; at = t - b; ah = h - b; if (ao < 0) ao = 0; if (ah < 0) ah = 0; if (at < 1) at = 1;
	printf "offcpu_cpu_vs_perf: ratio %.3f (added CPU: perfev --off-cpu %d ms, perf -e sched:sched_switch -g %d ms over %d ms of pingpong %d; medians of %d)\n", ao / at, ao, at, b, n, r
	printf "offcpu_size_vs_perf: ratio %.3f (perfev %d KB with %d switch-outs, cpu-clock samples and switch-ins; perf %d KB with %d switch-outs; medians of %d)\n", so / sp, so, no, sp, np, r
	printf "offcpu_thresh_vs_perf: cpu ratio %.3f, size ratio %.3f (--off-cpu-thresh 1ms: added CPU %d ms, %d KB, %d switch-outs kept)\n", ah / at, st / sp, ah, st, nt
}'
