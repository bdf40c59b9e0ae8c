#!/bin/sh
# Runs each libFuzzer harness over its seed corpus, then for a short bounded
# time on new inputs.  A crash, leak or sanitizer report fails it.
set -u
DIR=${1:-build/fuzz}
RESULTS=${2:-$DIR/results.txt}
SECS=${FUZZ_SECONDS:-20}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
pass=0 fail=0
for f in "$DIR"/fuzz_*; do
	[ -x "$f" ] || continue
	name=$(basename "$f")
	corpus=$ROOT/fuzz/corpus/${name#fuzz_}
	work=$DIR/work-${name#fuzz_}
	mkdir -p "$work"
	log=$DIR/$name.log
	# New inputs go to a scratch corpus; the committed seeds stay read-only.
	if "$f" -max_total_time="$SECS" -timeout=10 -rss_limit_mb=2048 -print_final_stats=0 \
		-artifact_prefix="$DIR/$name-" "$work" "$corpus" >"$log" 2>&1; then
		pass=$((pass + 1))
		printf '%-34s ok    %s\n' "$name" "$(grep -o 'Done [0-9]* runs.*' "$log" | tail -n 1)"
	else
		fail=$((fail + 1))
		printf '%-34s FAIL  (log: %s)\n' "$name" "$log"
		grep -E 'ERROR|SUMMARY|runtime error' "$log" | head -n 10 | sed 's/^/    | /'
	fi
done
echo "$pass $fail 0" >"$RESULTS"
echo "fuzz: $pass passed, $fail failed"
[ "$fail" = 0 ]
