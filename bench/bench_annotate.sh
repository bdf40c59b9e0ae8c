#!/bin/sh
# perfev annotate against perf annotate on the same file, measured in the same run:
# bench_report.sh's recording (clang compiling perfev's sources, frame-pointer call
# graphs, 250,000-450,000 samples; DATA=FILE reuses one), its 10 hottest user-space
# functions annotated --stdio to /dev/null.  perf annotate takes one function per run, so
# it runs once per function; perfev annotate takes the ten in one run.  Also each tool on
# one function at a time (the median of the ten), to show the cost of a single answer, and
# every function of the file (perf for at most ALL_SECS seconds, default 120: functions
# annotated per second).
set -eu
BUILD=${1:-build}
RUNS=${RUNS:-3}
PERFEV=$BUILD/perfev
RUSAGE=$BUILD/bench/rusage
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
command -v perf >/dev/null || { echo "bench_annotate: perf missing; run scripts/setup.sh"; exit 1; }
command -v clang >/dev/null || { echo "bench_annotate: clang missing; run scripts/setup.sh"; exit 1; }

DATA=${DATA:-}
if [ -z "$DATA" ]; then
	DATA=$OUT/cc.data
	# perf 6.1 here now and then aborts in its build-id processing as the recording ends
	# (util/build-id.c:1010), leaving the file unfinished: recorded again, up to 5 times.
	for try in 1 2 3 4 5; do
		perf record -q -g -e cpu-clock -c 50000 -o "$DATA" -- sh -c "
			cd '$ROOT' && end=\$((\$(date +%s) + ${SECS:-6})) && while [ \$(date +%s) -lt \$end ]; do
				ls src/lib/*/*.c | xargs -P 2 -n 1 clang -O2 -g -Iinclude -Isrc/lib -D_GNU_SOURCE -c -o /dev/null
			done" >/dev/null 2>&1 && break
		echo "bench_annotate: perf record failed (try $try), recording again" >&2
		[ "$try" = 5 ] && { echo "bench_annotate: perf record keeps failing"; exit 1; }
	done
fi
samples=$(perf report -D -i "$DATA" 2>/dev/null | awk '/^ *SAMPLE events:/ { print $3; exit }')
[ -n "$samples" ] || samples=$("$PERFEV" report -v -q --stdio -g none --no-children -i "$DATA" 2>&1 >/dev/null |
	sed -n 's/^perfev report: \([0-9]*\) samples read.*/\1/p')
# perfev's symbol cache: the bench's own, filled by one untimed reading (COLD=1: none).
export PERFEV_CACHE_DIR="$OUT/perfev-cache"
if [ -n "${COLD:-}" ]; then
	export PERFEV_CACHE_DIR=
else
	"$PERFEV" report -q --stdio -g none --no-children -i "$DATA" >/dev/null 2>&1
fi

# The 10 hottest functions in user space, by perf report's own names (one per line).
perf report -i "$DATA" --stdio --no-children --sort sym -g none 2>/dev/null |
	sed -n 's/^ *[0-9.]*% *\[\.\] //p' | sed 's/ *$//' | head -n 10 >"$OUT/syms"
n=$(wc -l <"$OUT/syms")
[ "$n" = 10 ] || { echo "bench_annotate: perf report named $n functions, not 10"; exit 1; }

# Each perf annotate must work before it is timed (perf 6.1 here aborts now and then: tried again).
while IFS= read -r s; do
	for try in 1 2 3 4 5; do
		perf annotate --stdio -i "$DATA" "$s" >/dev/null 2>"$OUT/perf.err" && break
		[ "$try" = 5 ] &&
			{ echo "bench_annotate: perf annotate of '$s' failed: $(tail -n 1 "$OUT/perf.err")"; exit 1; }
	done
done <"$OUT/syms"

# One perf annotate per function, as perf takes them.
cat >"$OUT/perf10.sh" <<EOF
while IFS= read -r s; do perf annotate --stdio -i '$DATA' "\$s" >/dev/null 2>&1; done <'$OUT/syms'
EOF
# perfev annotate of the ten at once (a list of operands built from the file).
cat >"$OUT/ours10.sh" <<EOF
set --
while IFS= read -r s; do set -- "\$@" "\$s"; done <'$OUT/syms'
exec '$PERFEV' annotate -q --stdio -i '$DATA' "\$@" >/dev/null 2>&1
EOF
# Rounds alternate the two, so a busy moment of the machine falls on both; medians.
: >"$OUT/ten"
for r in $(seq "$RUNS"); do
	o=$("$RUSAGE" 1 sh "$OUT/ours10.sh")
	p=$("$RUSAGE" 1 sh "$OUT/perf10.sh")
	echo "$o $p" >>"$OUT/ten"
done
med() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
ours_t=$(cut -d' ' -f1 "$OUT/ten" | med) ours_m=$(cut -d' ' -f2 "$OUT/ten" | sort -g | tail -n 1)
perf_t=$(cut -d' ' -f3 "$OUT/ten" | med) perf_m=$(cut -d' ' -f4 "$OUT/ten" | sort -g | tail -n 1)

# Each function alone, both tools, alternating; the medians of the ten.
: >"$OUT/one"
while IFS= read -r s; do
	o=$("$RUSAGE" 1 "$PERFEV" annotate -q --stdio -i "$DATA" "$s" | cut -d' ' -f1)
	p=$("$RUSAGE" 1 perf annotate --stdio -i "$DATA" "$s" | cut -d' ' -f1)
	echo "$o $p" >>"$OUT/one"
done <"$OUT/syms"
one_o=$(cut -d' ' -f1 "$OUT/one" | med)
one_p=$(cut -d' ' -f2 "$OUT/one" | med)

# Every function: perfev whole, perf for ALL_SECS at most; annotations written per second.
t0=$(date +%s.%N)
"$PERFEV" annotate -q --stdio -i "$DATA" >"$OUT/all_o" 2>/dev/null || true
t1=$(date +%s.%N)
timeout "${ALL_SECS:-120}" perf annotate --stdio -i "$DATA" >"$OUT/all_p" 2>/dev/null || true
t2=$(date +%s.%N)
all_o=$(grep -c '^ Percent |' "$OUT/all_o" || true)
all_p=$(grep -c '^ Percent |' "$OUT/all_p" || true)

# Both show the same hottest instruction percentages? (a sanity check of what is timed)
s1=$(head -n 1 "$OUT/syms")
perf annotate --stdio -i "$DATA" "$s1" 2>/dev/null |
	sed -n 's/^ *\([0-9.]*\) : *\([0-9a-f]*\):.*/\2 \1/p' | sort -k2,2nr | head -n 20 >"$OUT/p1"
"$PERFEV" annotate -q --stdio -i "$DATA" "$s1" 2>/dev/null |
	sed -n 's/^ *\([0-9.]*\) : *\([0-9a-f]*\):.*/\2 \1/p' >"$OUT/o1"
agree=$(awk 'NR == FNR { o[$1] = $2; next } { d = o[$1] - $2; if (d < 0) d = -d; if (d > w) w = d; n++ }
	END { printf "%d instructions, worst difference %.2f points", n, w }' "$OUT/o1" "$OUT/p1")

awk -v ot="$ours_t" -v om="$ours_m" -v pt="$perf_t" -v pm="$perf_m" -v n="$samples" -v r="$RUNS" \
    -v oo="$one_o" -v op="$one_p" -v a="$agree" -v s1="$s1" -v t0="$t0" -v t1="$t1" -v t2="$t2" \
    -v ao="$all_o" -v ap="$all_p" 'BEGIN {
	printf "annotate_10_hottest_vs_perf: ratio %.4f (perfev %.3f s for the 10 in one run, perf %.3f s for 10 runs = %.1fx faster; %d samples of clang; medians of %d; goal <= 0.05)\n", ot / pt, ot, pt, pt / ot, n, r
	printf "annotate_one_function_vs_perf: ratio %.4f (perfev %.3f s, perf %.3f s = %.1fx faster; median of the 10 functions, one run each)\n", oo / op, oo, op, op / oo
	ro = ao / (t1 - t0); rp = ap / (t2 - t1)
	printf "annotate_every_function_vs_perf: ratio %.4f (perfev %d functions in %.1f s = %.0f/s, perf %d in %.1f s = %.1f/s = %.0fx faster)\n", rp / ro, ao, t1 - t0, ro, ap, t2 - t1, rp, ro / rp
	printf "annotate_memory_vs_perf: ratio %.4f (peak RSS perfev %.1f MB, perf %.1f MB)\n", om / pm, om / 1024, pm / 1024
	printf "annotate_agreement: %s on %s (perf vs perfev, its 20 hottest)\n", a, s1
}'
