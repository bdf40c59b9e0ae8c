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
BUILD=${1:-build}
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

DATA=${BENCH_DATA:-$OUT/cc.data}
if [ -z "${BENCH_DATA:-}" ]; then
	perf record -q -g -e cpu-clock -c 50000 -o "$DATA" -- sh -c "
		cd '$ROOT' && end=\$((\$(date +%s) + ${SECS:-10})) && while [ \$(date +%s) -lt \$end ]; do
			ls src/lib/*/*.c | xargs -P 2 -n 1 clang -O2 -g -Iinclude -Isrc/lib -I'$GENDIR' -D_GNU_SOURCE -c -o /dev/null
		done" >/dev/null 2>&1
fi
samples=$(perf report -D -i "$DATA" 2>/dev/null | awk '/^ *SAMPLE events:/ { print $3; exit }')
mb=$(du -m "$DATA" | cut -f1)

time_of() { set -- $("$RUSAGE" "$RUNS" "$@"); echo "$1"; }
report=$(time_of "$PERFEV" report -q --stdio -i "$DATA")
for f in pprof speedscope folded json; do
	t=$(time_of "$PERFEV" export -q -f $f -i "$DATA" -o "$OUT/x.$f")
	size=$(du -k "$OUT/x.$f" | cut -f1)
	awk -v t="$t" -v r="$report" -v f="$f" -v n="$samples" -v kb="$size" -v runs="$RUNS" 'BEGIN {
		printf "export_%s_vs_report: ratio %.3f (perfev export -f %s %.3f s, perfev report %.3f s; %d samples; %.1f MB out; medians of %d; goal <= 1.2)\n",
			f, t / r, f, t, r, n, kb / 1024, runs }'
done
html=$(time_of "$PERFEV" flamegraph -q -i "$DATA" -o "$OUT/x.html")
svg=$(time_of "$PERFEV" flamegraph -q -i "$DATA" -o "$OUT/x.svg")
pscript=$(time_of perf script -i "$DATA")
# perf's flame graph script reads ./perf.data (it takes no -i) and writes its stacks, the data of its page.
mkdir -p "$OUT/pf"
ln -s "$(cd "$(dirname "$DATA")" && pwd)/$(basename "$DATA")" "$OUT/pf/perf.data"
pflame=$(cd "$OUT/pf" && time_of perf script report flamegraph --format json -o "$OUT/pf/stacks.json")
awk -v h="$html" -v s="$svg" -v p="$pscript" -v f="$pflame" -v n="$samples" -v mb="$mb" 'BEGIN {
	printf "html_vs_perf_flamegraph: ratio %.3f (perfev flamegraph -o x.html %.3f s, perf script report flamegraph --format json %.3f s; %d samples, %d MB)\n", h / f, h, f, n, mb
	printf "svg_vs_perf_flamegraph: ratio %.3f (perfev flamegraph -o x.svg %.3f s, perf script report flamegraph --format json %.3f s)\n", s / f, s, f
	printf "html_vs_perf_script: ratio %.3f (perfev flamegraph -o x.html %.3f s, perf script > /dev/null %.3f s)\n", h / p, h, p
	printf "svg_vs_perf_script: ratio %.3f (perfev flamegraph -o x.svg %.3f s, perf script > /dev/null %.3f s)\n", s / p, s, p
}'
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
