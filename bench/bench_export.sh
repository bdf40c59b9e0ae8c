#!/bin/sh
# perfev export and perfev flamegraph on the recording bench_report.sh makes
# (clang compiling perfev's sources, frame-pointer call graphs, -c 50000:
# about 400,000 samples in SECS=10 seconds on two CPUs), each against peers
# measured in the same run: every export against perfev report on the same
# file (goal: at most 1.2 times its time); the HTML report and the SVG against
# perf's own flame graph script (perf script report flamegraph, its stacks as
# JSON, the data its page embeds) and against perf script alone (the first
# stage of perf script | stackcollapse-perf.pl | flamegraph.pl); the HTML
# report's size and the time headless Chromium takes to open it and run its
# script.  Wall time medians of RUNS.  BENCH_DATA=FILE reuses a recording.
set -eu
BUILD=$(cd "${1:-build}" && pwd)
RUNS=${RUNS:-3}
PERFEV=$BUILD/perfev
RUSAGE=$BUILD/bench/rusage
ROOT=$(cd "$(dirname "$0")/.." && pwd)
# perfev's sources include headers the build generates (pprof's messages).
GENDIR=$(cd "$BUILD" && pwd)/gen
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
command -v perf >/dev/null || { echo "bench_export: perf missing; run scripts/setup.sh"; exit 1; }
command -v clang >/dev/null || { echo "bench_export: clang missing; run scripts/setup.sh"; exit 1; }
# Paths given in arguments must hold no blanks: the commands below are split on them.

DATA=${BENCH_DATA:-$OUT/cc.data}
if [ -z "${BENCH_DATA:-}" ]; then
	# clang_recording.sh checks the time before each file: a busy machine does not run a whole
	# pass over the sources past SECS (that made 2 million samples and a damaged file once).
	. "$ROOT/bench/clang_recording.sh"
	SECS=${SECS:-10} record_clang "$DATA"
fi
samples=$(perf report -D -i "$DATA" 2>/dev/null | awk '/^ *SAMPLE events:/ { print $3; exit }')
mb=$(du -m "$DATA" | cut -f1)

# pair NAME WHAT PEER -- A... -- B...: RUNS rounds, each timing A then B (one run each); prints the
# median of the rounds' ratios A/B and the medians of the two times.  Rounds alternate the two so that
# a busy moment of a shared machine falls on both.
pair() {
	name=$1 what=$2 peer=$3
	shift 3
	: >"$OUT/pair"
	i=0
	while [ $i -lt "$RUNS" ]; do
		# shellcheck disable=SC2086 # the commands are split on blanks
		a=$(cd "$OUT/pf" && "$RUSAGE" 1 $A_CMD | cut -d' ' -f1)
		# shellcheck disable=SC2086
		b=$(cd "$OUT/pf" && "$RUSAGE" 1 $B_CMD | cut -d' ' -f1)
		echo "$a $b" >>"$OUT/pair"
		i=$((i + 1))
	done
	awk -v name="$name" -v what="$what" -v peer="$peer" -v n="$samples" -v runs="$RUNS" -v extra="$EXTRA" '
		{ r[NR] = $1 / $2; a[NR] = $1; b[NR] = $2 }
		function med(x, k, t, i, j) { for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (x[j] < x[i]) { t = x[i]; x[i] = x[j]; x[j] = t }
			return x[int((k + 1) / 2)] }
		END { printf "%s: ratio %.3f (%s %.3f s, %s %.3f s; %d samples%s; median of %d alternating rounds)\n",
			name, med(r, NR), what, med(a, NR), peer, med(b, NR), n, extra, runs }' "$OUT/pair"
}
# perf's flame graph script reads ./perf.data (it takes no -i) and writes its stacks, the data of its page.
mkdir -p "$OUT/pf"
ln -s "$(cd "$(dirname "$DATA")" && pwd)/$(basename "$DATA")" "$OUT/pf/perf.data"
REPORT="$PERFEV report -q --stdio -i $DATA"
for f in pprof speedscope folded json; do
	"$PERFEV" export -q -f $f -i "$DATA" -o "$OUT/x.$f"
	EXTRA="; $(du -k "$OUT/x.$f" | awk '{ printf "%.1f MB", $1 / 1024 }') written; goal <= 1.2"
	A_CMD="$PERFEV export -q -f $f -i $DATA -o $OUT/x.$f" B_CMD=$REPORT \
		pair "export_${f}_vs_report" "perfev export -f $f" "perfev report"
done
PFLAME="perf script report flamegraph --format json -o $OUT/pf/stacks.json"
for f in html svg; do
	EXTRA=""
	A_CMD="$PERFEV flamegraph -q -i $DATA -o $OUT/x.$f" B_CMD=$PFLAME \
		pair "${f}_vs_perf_flamegraph" "perfev flamegraph -o x.$f" "perf script report flamegraph --format json"
	A_CMD="$PERFEV flamegraph -q -i $DATA -o $OUT/x.$f" B_CMD="perf script -i $DATA" \
		pair "${f}_vs_perf_script" "perfev flamegraph -o x.$f" "perf script"
done
if command -v node >/dev/null 2>&1 && [ -d "$ROOT/tests/js/node_modules/puppeteer-core" ]; then
	loads=""
	for i in 1 2 3; do
		(cd "$ROOT/tests/js" && node browser.js load "$OUT/x.html" "$OUT/shots") >"$OUT/load" 2>&1 || true
		loads="$loads $(sed -n 's/^ready_ms=//p' "$OUT/load")"
	done
	kb=$(du -k "$OUT/x.html" | cut -f1)
	svgkb=$(du -k "$OUT/x.svg" | cut -f1)
	echo "$loads" | tr ' ' '\n' | grep . | sort -n | awk -v kb="$kb" -v skb="$svgkb" '{ v[NR] = $1 } END {
		printf "html_open_in_chromium: %.1f MB (SVG %.1f MB); headless Chromium opens it and runs its script in %d ms (median of %d)\n",
			kb / 1024, skb / 1024, v[int((NR + 1) / 2)], NR }'
else
	echo "html_open_in_chromium: skip: node or tests/js's packages missing; run scripts/setup.sh"
fi
