#!/bin/sh
# perfev stat on `true` against perf stat on `true`: wall-clock ratio measured
# in the same run with hyperfine (no shell in between, warm-up runs first).
set -eu
BUILD=${1:-build}
RUNS=${RUNS:-200}
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
command -v hyperfine >/dev/null || { echo "bench_stat: hyperfine missing; run scripts/setup.sh"; exit 1; }
command -v perf >/dev/null || { echo "bench_stat: perf missing; run scripts/setup.sh"; exit 1; }
hyperfine -N --warmup 20 --runs "$RUNS" --export-json "$OUT/h.json" \
	"$BUILD/perfev stat -o /dev/null -- true" \
	"perf stat -o /dev/null -- true" >"$OUT/log" 2>&1 || { cat "$OUT/log"; exit 1; }
jq -r '.results as $r | "stat_true_vs_perf: ratio \(($r[0].median / $r[1].median * 1000 | round) / 1000) (perfev \($r[0].median * 1e6 | round / 1000) ms, perf \($r[1].median * 1e6 | round / 1000) ms; medians of \($r[0].times | length) runs; goal <= 0.5)"' "$OUT/h.json"
