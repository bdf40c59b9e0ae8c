#!/bin/sh
# Runs every test of one build: the cmocka binaries (BUILD/tests/*/test_*) and the
# CLI scripts (tests/cli/*.sh).  Prints each file's outcome and, last, the line
# "N passed, N failed, N skipped"; writes those three numbers to RESULTS.
# Exits 1 when anything failed.
set -u
BUILD=${1:-build}
RESULTS=${2:-$BUILD/results.txt}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
LOGDIR=$BUILD/test-logs
mkdir -p "$LOGDIR"
pass=0 fail=0 skip=0
failed_files=""

# Tracepoint tests need tracefs; scripts/setup.sh mounts it, but a test run may come first.
if [ "$(id -u)" = 0 ] && [ -d /sys/kernel/tracing ] && [ ! -e /sys/kernel/tracing/events ]; then
	mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null || true
fi

export ROOT_DIR="$ROOT" PERFEV="$ROOT/$BUILD/perfev" HELPERS="$ROOT/$BUILD/tests/helpers" BUILD_DIR="$ROOT/$BUILD"
export CMOCKA_MESSAGE_OUTPUT=stdout

account() { # name log p f s status
	name=$1 log=$2 p=$3 f=$4 s=$5 st=$6
	if [ "$st" != 0 ] && [ "$f" = 0 ]; then
		f=1 # it crashed or exited badly without reporting a failure
		echo "  $name exited with status $st" >>"$log"
	fi
	pass=$((pass + p)) fail=$((fail + f)) skip=$((skip + s))
	if [ "$f" != 0 ]; then
		failed_files="$failed_files $name"
		printf '%-34s FAIL  %3d passed, %d failed, %d skipped (log: %s)\n' "$name" "$p" "$f" "$s" "$log"
		sed 's/^/    | /' "$log" | grep -E 'FAIL|fail|not ok|ERROR|error|Assert|runtime error|Sanitizer|exited' | head -n 30
	elif [ "$p" = 0 ] && [ "$s" != 0 ]; then
		# A whole file that skipped is worth seeing: say why.
		printf '%-34s SKIP  every test skipped:\n' "$name"
		grep -iE 'skip' "$log" | head -n 5 | sed 's/^/    | /'
	else
		printf '%-34s ok    %3d passed, %d skipped\n' "$name" "$p" "$s"
	fi
}

for t in "$BUILD"/tests/*/test_*; do
	[ -x "$t" ] || continue
	case $t in *.o|*.d) continue ;; esac
	name=$(basename "$t")
	log=$LOGDIR/$name.log
	"$t" >"$log" 2>&1
	st=$?
	p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$log" | awk '{s+=$1} END {print s+0}')
	f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$log" | awk '{s+=$1} END {print s+0}')
	s=$(sed -n 's/^\[  SKIPPED \] \([0-9]*\) test.*/\1/p' "$log" | awk '{s+=$1} END {print s+0}')
	account "$name" "$log" "$p" "$f" "$s" "$st"
done

for t in "$ROOT"/tests/cli/test_*.sh; do
	[ -f "$t" ] || continue
	name=$(basename "$t" .sh)
	log=$LOGDIR/$name.log
	sh "$t" >"$log" 2>&1
	st=$?
	p=$(grep -c '^ok ' "$log" | tr -d ' ')
	s=$(grep -c '^ok .*# SKIP' "$log" | tr -d ' ')
	p=$((p - s))
	f=$(grep -c '^not ok ' "$log" | tr -d ' ')
	account "$name" "$log" "$p" "$f" "$s" "$st"
done

echo "$pass $fail $skip" >"$RESULTS"
# The failures again, last, with what each check printed: a CI log is often read
# from its tail only.
for name in $failed_files; do
	echo "--- $name:"
	awk '/^not ok |exited with status|runtime error|Sanitizer|\[  FAILED  \]|\[  ERROR   \]/ { n = 6 }
		n > 0 { print "    | " $0; n-- }' "$LOGDIR/$name.log" | head -n 40
done
[ -z "$failed_files" ] || echo "failed:$failed_files"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" = 0 ]
