#!/bin/sh
# The report browser's time to its first screen against perf report's TUI, on
# bench_report.sh's kind of file (clang compiling perfev, 250,000-450,000 samples
# with call graphs; DATA=FILE reuses one), each opened in a real terminal
# (tmux, 200x50) and timed from the start of the command until a row of the
# table is on the screen (capture-pane polled every 50 ms).  Medians of RUNS
# (default 3), the tools alternating.
set -eu
BUILD=${1:-build}
RUNS=${RUNS:-3}
PERFEV=$(cd "$BUILD" && pwd)/perfev
ROOT=$(cd "$(dirname "$0")/.." && pwd)
GENDIR=$(cd "$BUILD" && pwd)/gen
OUT=$(mktemp -d)
SOCK=perfev-bench-tui-$$
trap 'tmux -L "$SOCK" kill-server 2>/dev/null; rm -rf "$OUT"' EXIT
for t in perf clang tmux; do
	command -v $t >/dev/null || { echo "bench_tui: $t missing; run scripts/setup.sh"; exit 1; }
done

. "$ROOT/bench/clang_recording.sh"
DATA=${DATA:-}
if [ -z "$DATA" ]; then
	DATA=$OUT/cc.data
	record_clang "$DATA"
fi
samples=$(samples_of "$DATA")

now() { date +%s.%N; }
# first_screen COMMAND...: seconds until the browser shows its first row.
first_screen() {
	tmux -L "$SOCK" kill-server 2>/dev/null || true
	t0=$(now)
	tmux -L "$SOCK" new-session -d -x 200 -y 50 "$*; sleep 600"
	while :; do
		if tmux -L "$SOCK" capture-pane -p 2>/dev/null | grep -qE '^[+-] +[0-9]+\.[0-9]+% +[0-9]+\.[0-9]+% '; then
			break
		fi
		if [ "$(echo "$(now) $t0" | awk '{ print ($1 - $2 > 900) }')" = 1 ]; then
			echo "bench_tui: no first screen after 900 s: $*" >&2
			break
		fi
		sleep 0.05
	done
	echo "$(now) $t0" | awk '{ printf "%.3f\n", $1 - $2 }'
	tmux -L "$SOCK" kill-server 2>/dev/null || true
}

: >"$OUT/ours" && : >"$OUT/perf"
for r in $(seq "$RUNS"); do
	first_screen "$PERFEV" report -i "$DATA" >>"$OUT/ours"
	first_screen perf report -i "$DATA" >>"$OUT/perf"
done
med() { sort -n | awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
o=$(med <"$OUT/ours") p=$(med <"$OUT/perf")
awk -v o="$o" -v p="$p" -v n="${samples:-0}" -v r="$RUNS" -v each="$(tr '\n' ' ' <"$OUT/ours")/ $(tr '\n' ' ' <"$OUT/perf")" 'BEGIN {
	printf "tui_first_screen_vs_perf: ratio %.4f (perfev report %.3f s, perf report %.3f s = %.1fx sooner; %d samples with call graphs of clang; medians of %d, each: %s)\n", o / p, o, p, p / o, n, r, each
}'
