#!/bin/sh
# The event parser's differential check: what an earlier commit's libperfev and
# this tree's make of the same specs (results, attr bytes, names, evsels of
# lists, perfev_last_error()) must be identical.  The specs: the fuzz corpus,
# the string literals of the event tests, the -e arguments of the CLI tests,
# some libpfm4 names, every event perfev_list_events() finds here, each with
# modifiers and in lists and groups, every combination of modifier letters on
# a dozen events, and seeded mutations of all of them; each run against this
# machine's sysfs and tracefs, a fake PMU tree, and no tracefs.
#
#   sh tests/events/parse_diff.sh BASE_COMMIT [NEW_BUILD_DIR] [MUTATIONS]
#
# NEW_BUILD_DIR (default build) must hold libperfev.a; the base is built in a
# temporary git worktree that is removed afterwards.  Exits 1 on a difference.
set -eu
BASE=${1:?usage: parse_diff.sh BASE_COMMIT [NEW_BUILD_DIR] [MUTATIONS]}
NEW=${2:-build}
MUTATIONS=${3:-20000}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
TMP=$(mktemp -d /tmp/parse-diff.XXXXXX)
cleanup() {
	git worktree remove --force "$TMP/base" 2>/dev/null || true
	rm -rf "$TMP"
}
trap cleanup EXIT

git worktree add --detach "$TMP/base" "$BASE" >/dev/null 2>&1
make -C "$TMP/base" -j2 BUILD="$TMP/base/build" lib >"$TMP/base-build.log" 2>&1 ||
	{ tail -n 20 "$TMP/base-build.log"; exit 2; }
LIBS="-lpfm -ldw -lelf -lzstd -liberty -lm -pthread"
for side in base new; do
	lib=$TMP/base/build/libperfev.a
	[ $side = new ] && lib=$NEW/libperfev.a
	# shellcheck disable=SC2086
	cc -std=c11 -D_GNU_SOURCE -O1 -g -Wall -Wextra -Werror -Iinclude \
		-o "$TMP/diff-$side" tests/events/parse_diff.c "$lib" $LIBS
done

# Seeds: one escaped spec a line (see parse_diff.c).
{
	for f in fuzz/corpus/parse_events/*; do
		od -An -v -tx1 "$f" | tr -s ' \n' '  ' | sed 's/ *$//; s/^ //; s/ /\\x/g; s/^/\\x/; s/^\\x$//'
		echo
	done
	grep -ho '"\([^"\\]\|\\.\)*"' tests/events/*.c | sed 's/^"//; s/"$//'
	grep -ho -- "-e *'[^']*'\|-e *\"[^\"]*\"\|-e [^ '\"]*" tests/cli/*.sh |
		sed "s/^-e *//; s/^'//; s/'\$//; s/^\"//; s/\"\$//"
	grep -ho "'[^']*'" tests/cli/test_stat.sh tests/cli/test_list.sh | sed "s/^'//; s/'\$//"
	cat <<-'EOF'
		PERF_COUNT_HW_CPU_CYCLES
		perf::PERF_COUNT_HW_CPU_CYCLES
		perf::CYCLES
		CYCLES
		INSTRUCTIONS:u
		perf::PERF_COUNT_SW_CPU_CLOCK
		PERF_COUNT_SW_CPU_CLOCK:u
		PERF_COUNT_SW_CPU_CLOCK:k:u
		perf::PERF_COUNT_HW_CACHE_L1D:READ:ACCESS
		PERF_COUNT_HW_CACHE_L1D:READ:MISS:u
		perf::PERF_COUNT_HW_CACHE_L1D:READ:ACCESS:u
		perf::PERF_COUNT_HW_CACHE_L1D:READ:ACCESS:u=0
		perf_raw::r0123
		perf_raw::r0123:u
		perf::INSTRUCTIONS:k:u
		perf::CYCLES:u=0
		perf::CYCLES:precise=2
		perf::CYCLES::u
		perf:CYCLES
		cpu-clock:u:k
		mem:0x1000:rw:ukGp
		mem:0x1000/2:x:S
		fake/hits/
		fake/hits/Sp
		fake/event=1,umask=2/:uk
		fake/u/
		u
		pp
		tsc:u
		tsc:uk
		tsc:S
		hits:u
		dup
		dup:k
		sched:cycles
		sched/cycles/
		msr/tsc/u:k
		msr/tsc/:
		msr//
		msr/tsc//
		{cycles:u}:k
		{cpu-clock,page-faults}:S
		{cpu-clock,page-faults}:Su
		{cpu-clock:S,page-faults:S}:S
		{msr/tsc/,msr/tsc/u}:G
		a:b:c
		syscalls:sys_enter_getppid:u:k
		syscalls::u
		:syscalls
		nosuchsys:nosuchevent:u
	EOF
} >"$TMP/seeds"

"$TMP/diff-base" gen "$TMP/seeds" "$MUTATIONS" >"$TMP/specs"
nr=$(wc -l <"$TMP/specs")
echo "parse_diff: $nr specs ($(wc -l <"$TMP/seeds") seeds, $MUTATIONS mutations), 3 modes"
status=0
for mode in real fake notracefs; do
	for side in base new; do
		"$TMP/diff-$side" run $mode "$TMP/fake" <"$TMP/specs" >"$TMP/out-$side-$mode"
	done
	if cmp -s "$TMP/out-base-$mode" "$TMP/out-new-$mode"; then
		ok1=$(grep -c '^  one 0 ' "$TMP/out-new-$mode" || true)
		okl=$(grep -c '^  list 0 ' "$TMP/out-new-$mode" || true)
		echo "  $mode: $nr specs, 0 differences ($ok1 parse as one event, $okl as a list;" \
			"$(wc -c <"$TMP/out-new-$mode") bytes compared)"
	else
		status=1
		echo "  $mode: DIFFERENT"
		diff "$TMP/out-base-$mode" "$TMP/out-new-$mode" | head -n 40
		cp "$TMP/out-base-$mode" "$TMP/out-new-$mode" "$TMP/specs" /tmp/ 2>/dev/null || true
	fi
done
exit $status
