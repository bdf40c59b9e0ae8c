#!/usr/bin/env bash
# Golden-output check for behaviour-preserving changes: builds perfev at a
# reference commit and at a new tree, runs both on the same perf.data files and
# commands, and reports every byte that differs.  See tests/golden/README.md.
#
# usage: tests/golden/compare.sh [-k RECDIR] REF [NEW]
set -u

usage() {
	cat >&2 <<'EOF'
usage: tests/golden/compare.sh [-k RECDIR] REF [NEW]

  REF        a commit of this repository: the reference perfev
  NEW        a commit, or a directory holding a perfev tree (default: the
             working tree this script is in, uncommitted changes included)
  -k RECDIR  where the recordings are made and kept for later runs
             (default: ${TMPDIR:-/tmp}/perfev-golden-rec)

Prints "ok N - ..." or "not ok N - ..." with a diff per comparison, then
"N passed, N failed"; exits 1 when anything failed.
EOF
	exit "$1"
}

RECDIR=${TMPDIR:-/tmp}/perfev-golden-rec
while getopts k:h opt; do
	case $opt in
	k) RECDIR=$OPTARG ;;
	h) usage 0 ;;
	*) usage 2 ;;
	esac
done
shift $((OPTIND - 1))
if [ $# -lt 1 ] || [ $# -gt 2 ]; then usage 2; fi
REF=$1
NEW=${2:-}

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
die() { echo "compare.sh: error: $*" >&2; exit 2; }
git -C "$ROOT" rev-parse --git-dir >/dev/null 2>&1 || die "$ROOT is not a git repository"
REF_SHA=$(git -C "$ROOT" rev-parse --verify -q "$REF^{commit}") ||
	die "'$REF' is not a commit of $ROOT"
if [ -z "$NEW" ]; then
	NEW_SRC=$ROOT NEW_LABEL="working tree $ROOT"
elif [ -d "$NEW" ]; then
	NEW_SRC=$(cd "$NEW" && pwd) NEW_LABEL="tree $NEW_SRC"
	[ -f "$NEW_SRC/Makefile" ] || die "'$NEW' has no Makefile: not a perfev tree"
else
	NEW_SHA=$(git -C "$ROOT" rev-parse --verify -q "$NEW^{commit}") ||
		die "'$NEW' is neither a directory nor a commit of $ROOT"
	NEW_SRC='' NEW_LABEL="$NEW (${NEW_SHA:0:12})"
fi
for tool in make git cmp diff timeout; do
	command -v "$tool" >/dev/null 2>&1 || die "'$tool' is needed and not installed"
done
mkdir -p "$RECDIR" || die "cannot create $RECDIR"
RECDIR=$(cd "$RECDIR" && pwd)
TAG=.perfev-golden # in RECDIR: "complete FINGERPRINT" once every recording is made
# Recording wipes the directory's old recordings: never do that to files of someone else's.
if [ ! -f "$RECDIR/$TAG" ] && [ -n "$(ls -A "$RECDIR")" ]; then
	die "$RECDIR holds files this script did not make; give an empty or new directory with -k"
fi

SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/perfev-golden.XXXXXX") || die "cannot make a scratch directory"
# The caches both perfevs (and perf) would keep in the user's home: the scratch directory's.
# The symbol cache is off: each side reads its files itself, as the reference did.
export PERFEV_BUILDID_DIR="$SCRATCH/buildid-cache" PERFEV_CACHE_DIR=
printf '[buildid]\n\tdir = %s\n' "$PERFEV_BUILDID_DIR" >"$SCRATCH/perfconfig"
export PERF_CONFIG="$SCRATCH/perfconfig"
OUT=$SCRATCH/out
WORKTREES=()
n=0 pass=0 fail=0

# shellcheck disable=SC2317 # run by the trap
cleanup() {
	local wt
	for wt in "${WORKTREES[@]}"; do
		git -C "$ROOT" worktree remove --force "$wt" >/dev/null 2>&1 || rm -rf "$wt"
	done
	[ ${#WORKTREES[@]} = 0 ] || git -C "$ROOT" worktree prune >/dev/null 2>&1
	# The full outputs and logs of failures say more than the excerpts shown; builds are not needed.
	if [ "$fail" -gt 0 ]; then
		rm -rf "$SCRATCH/ref" "$SCRATCH/new" "$SCRATCH/cwd" "$SCRATCH/cwd-data"
	else
		rm -rf "$SCRATCH"
	fi
}
trap cleanup EXIT
# Without these, Ctrl-C would end the script before the EXIT trap removes the worktrees.
trap 'exit 130' INT
trap 'exit 143' TERM

ok() { n=$((n + 1)) pass=$((pass + 1)); echo "ok $n - $1"; }
# not_ok WHAT [FILE]: the first 40 lines of FILE, indented, explain the failure.
not_ok() {
	n=$((n + 1)) fail=$((fail + 1))
	echo "not ok $n - $1"
	[ $# -lt 2 ] || head -n 40 "$2" | sed 's/^/    /'
}
finish() {
	echo "$pass passed, $fail failed"
	[ "$fail" = 0 ] || echo "# build logs and the outputs of failed comparisons (out/N/) are kept in $SCRATCH"
	[ "$fail" = 0 ]
	exit $?
}

# --- the two builds

# Environment variables of an enclosing make would leak its jobserver and flags into ours.
unset MAKEFLAGS MFLAGS MAKELEVEL
# build SIDE SRC LABEL: perfev and the helpers into SCRATCH/SIDE.
build() {
	local log=$SCRATCH/$1-build.log
	if make -C "$2" -j2 BUILD="$SCRATCH/$1" tool helpers >"$log" 2>&1 && [ -x "$SCRATCH/$1/perfev" ]; then
		ok "build $1: $3"
	else
		tail -n 40 "$log" >"$log.tail"
		not_ok "build $1: $3 (make -C $2 BUILD=$SCRATCH/$1 tool helpers failed)" "$log.tail"
		return 1
	fi
}
# worktree SIDE SHA: a detached checkout in SCRATCH/SIDE-src, removed on exit.
worktree() {
	WORKTREES+=("$SCRATCH/$1-src")
	git -C "$ROOT" worktree add --detach "$SCRATCH/$1-src" "$2" >"$SCRATCH/$1-worktree.log" 2>&1 ||
		{ cat "$SCRATCH/$1-worktree.log" >&2; die "cannot check out $2 in $SCRATCH/$1-src"; }
}

echo "# REF: $REF (${REF_SHA:0:12})"
echo "# NEW: $NEW_LABEL"
worktree ref "$REF_SHA"
if [ -z "$NEW_SRC" ]; then
	worktree new "$NEW_SHA"
	NEW_SRC=$SCRATCH/new-src
fi
build ref "$SCRATCH/ref-src" "$REF (${REF_SHA:0:12})" || finish
build new "$NEW_SRC" "$NEW_LABEL" || finish
REF_PERFEV=$SCRATCH/ref/perfev
NEW_PERFEV=$SCRATCH/new/perfev

# --- the recordings, made once and kept so that every comparison reads the same files

# name|recorder|output|record options|workload (a helper in RECDIR/bin, then its arguments)
# The helpers: hot (fixed hot spots, -O0), demo (libc qsort, page faults, syscalls),
# forker (a grandchild does the work), getppid_loop (exact syscall counts), sleeper.
RECIPES='perf-fp|perf|file|-g -F 2000|hot 30
perfev-fp|perfev|file|-g -F 2000|hot 30
perf-dwarf|perf|file|--call-graph dwarf -F 1000|demo
perfev-dwarf|perfev|file|--call-graph dwarf -F 1000|demo
perf-two|perf|file|-e cpu-clock,page-faults -F 2000|demo
perfev-two|perfev|file|-e cpu-clock,page-faults -F 2000|demo
perf-group|perf|file|-e {cpu-clock,page-faults}:S -c 100000|demo
perfev-group|perfev|file|-e {cpu-clock,page-faults}:S -c 100000|demo
perf-getppid|perf|file|-e syscalls:sys_enter_getppid -c 1 -g|getppid_loop 500
perfev-getppid|perfev|file|-e syscalls:sys_enter_getppid -c 1 -g|getppid_loop 500
perf-switch|perf|file|-e sched:sched_switch -g|sleeper 20
perfev-switch|perfev|file|-e sched:sched_switch -g|sleeper 20
perf-zstd|perf|file|-z -g -F 2000|hot 30
perfev-zstd|perfev|file|-z -g -F 2000|hot 30
perf-pipe|perf|pipe|-g -F 2000|hot 30
perfev-pipe|perfev|pipe|-g -F 2000|hot 30
perf-fork|perf|file|-e page-faults -c 1 -g|forker 300
perfev-fork|perfev|file|-e page-faults -c 1 -g|forker 300
perf-system|perf|file|-a -g -F 500|sleeper 200
perfev-system|perfev|file|-a -g -F 500|sleeper 200'
HELPERS='demo forker getppid_loop hot sleeper spin touch_pages'
# A change to the recipes must not reuse recordings made from the old ones.
FINGERPRINT=$(printf '%s\n%s\n' "$RECIPES" "$HELPERS" | cksum | cut -d' ' -f1)

# record NAME RECORDER OUTPUT OPTIONS WORKLOAD: one recording; 1 when it could not be made.
record() {
	local name=$1 rec=$2 mode=$3 f=$RECDIR/$1.data log=$RECDIR/log/$1.log
	local -a opts work cmd
	# Options hold {a,b} and globs must not expand: split on blanks only.
	set -f
	# shellcheck disable=SC2206
	opts=($4) work=($5)
	set +f
	work[0]=$RECDIR/bin/${work[0]}
	case $rec in
	perf) cmd=(perf record -q) ;;
	perfev) cmd=("$NEW_PERFEV" record -q) ;;
	esac
	if [ "$mode" = pipe ]; then
		(cd "$RECDIR" && timeout --foreground -k 5 60 "${cmd[@]}" "${opts[@]}" -o - -- "${work[@]}") \
			</dev/null >"$f" 2>"$log"
	else
		(cd "$RECDIR" && timeout --foreground -k 5 60 "${cmd[@]}" "${opts[@]}" -o "$f" -- "${work[@]}") \
			</dev/null >"$log" 2>&1
	fi
	local st=$? samples out="$name.data"
	[ "$mode" = file ] || out="- >$name.data"
	# A file without samples would make every comparison vacuous.  perf counts them when it
	# can, so that a fault of NEW's reader is not taken for a bad recording.
	if [ "$have_perf" = 1 ]; then
		samples=$(perf report --stats -i "$f" </dev/null 2>/dev/null | awk '/SAMPLE events:/ { print $3; exit }')
	else
		samples=$("$NEW_PERFEV" script -i "$f" -F event </dev/null 2>/dev/null | grep -c .)
	fi
	if [ "$st" = 0 ] && [ "${samples:-0}" -gt 0 ]; then
		ok "record $name: $rec record $4 -o $out -- $5 ($samples samples)"
		return 0
	fi
	{
		echo "exit status $st, ${samples:-no} samples in $f"
		tail -n 20 "$log"
	} >"$log.why"
	rm -f "$f"
	not_ok "record $name: $rec record $4 -o $out -- $5: could not be made" "$log.why"
	return 1
}

# complete: every recording of the current recipes is there, and the binaries they name.
complete() {
	local name h
	[ -f "$RECDIR/$TAG" ] && [ "$(cat "$RECDIR/$TAG")" = "complete $FINGERPRINT" ] || return 1
	while IFS='|' read -r name _; do [ -s "$RECDIR/$name.data" ] || return 1; done <<<"$RECIPES"
	for h in $HELPERS; do [ -x "$RECDIR/bin/$h" ] || return 1; done
}
if complete; then
	echo "# recordings: $RECDIR (made earlier, reused)"
	while IFS='|' read -r name _; do ok "record $name: reused from $RECDIR/$name.data"; done <<<"$RECIPES"
else
	echo "# recordings: $RECDIR (made now with Linux perf and NEW's perfev)"
	echo "incomplete" >"$RECDIR/$TAG"
	rm -rf "${RECDIR:?}/bin" "${RECDIR:?}/log" "${RECDIR:?}"/*.data
	mkdir -p "$RECDIR/bin" "$RECDIR/log"
	# Recordings name the binaries they sampled; copies here outlive both builds.
	for h in $HELPERS; do cp "$SCRATCH/new/tests/helpers/$h" "$RECDIR/bin/" || die "cannot copy helper $h"; done
	have_perf=1
	perf --version >/dev/null 2>&1 || have_perf=0
	complete=1
	while IFS='|' read -r name rec mode opts work; do
		if [ "$rec" = perf ] && [ "$have_perf" = 0 ]; then
			not_ok "record $name: perf record $opts -- $work: Linux perf is not installed or does not run"
			complete=0
			continue
		fi
		record "$name" "$rec" "$mode" "$opts" "$work" || complete=0
	done <<<"$RECIPES"
	[ "$complete" = 0 ] || echo "complete $FINGERPRINT" >"$RECDIR/$TAG"
fi

# --- the comparisons

mkdir -p "$OUT" "$SCRATCH/cwd" "$SCRATCH/cwd-data"
ln -s "$RECDIR/perfev-fp.data" "$SCRATCH/cwd-data/perf.data"
# Settings of the next compare call; each call puts them back.
IN=/dev/null CWD=$SCRATCH/cwd NORM=none

# normalise MODE FILE: what differs between two runs of one binary on one input, and only that.
normalise() {
	case $1 in
	none) cat "$2" ;;
	# -x output: field 4 is the time the counter ran, and a rate metric (K/sec...) derives from it.
	csv) awk -F"$3" -v OFS="$3" '
		NF >= 7 && $4 ~ /^[0-9]+$/ && $5 ~ /^[0-9.]+$/ {
			$4 = "<ns>"
			if ($7 ~ /^[KMG]?\/sec$/) { $6 = "<rate>"; $7 = "<rate-unit>" }
		} { print }' "$2" ;;
	json) sed -E 's/"(running_ns|elapsed_s|user_s|sys_s)":[-0-9.eE+]+/"\1":"<t>"/g
		s/"metric_value":[-0-9.eE+]+,"metric_unit":"[KMG]?\/sec"/"metric_value":"<rate>","metric_unit":"<rate-unit>"/g' "$2" ;;
	# The human layout: rates after '#', and the times at the end; padding follows the width.
	human) sed -E 's/# +[0-9.]+ [KMG]?\/sec +\(/# <rate> (/; s/# +[0-9.]+ [KMG]?\/sec *$/# <rate>/
		s/^ *[0-9.]+ seconds (time elapsed|user|sys).*$/<t> seconds \1/' "$2" ;;
	# -v says how long each step took.
	timing) sed -E 's/ in [0-9]+\.[0-9]+ s\b/ in <t> s/g' "$2" ;;
	esac
}

# compare ARGS...: runs both perfevs with ARGS (stdin IN, in directory CWD) and compares
# their stdout, stderr and exit status after NORM.
compare() {
	local d=$OUT/$((n + 1)) side bin what=perfev a note=
	# The command as one would type it, with recordings named relative to RECDIR.
	for a in "$@"; do
		a=${a#"$RECDIR"/}
		case $a in
		'' | *[!A-Za-z0-9_./:,=+-]*) what="$what '$a'" ;;
		*) what="$what $a" ;;
		esac
	done
	mkdir -p "$d"
	for side in ref new; do
		bin=$REF_PERFEV
		[ $side = new ] && bin=$NEW_PERFEV
		# A hang (reading a terminal, waiting on a child) must end as a failure, not stop the run.
		(cd "$CWD" && exec timeout --foreground -k 5 120 "$bin" "$@") <"$IN" >"$d/$side.out" 2>"$d/$side.err"
		echo "exit status $?" >"$d/$side.rc"
		normalise "$NORM" "$d/$side.out" "${SEP:-,}" >"$d/$side.out.n"
		normalise "$NORM" "$d/$side.err" "${SEP:-,}" >"$d/$side.err.n"
	done
	[ "$IN" = /dev/null ] || what="$what <${IN#"$RECDIR"/}"
	[ "$CWD" = "$SCRATCH/cwd" ] || what="$what (in a directory with perf.data)"
	case $NORM in
	csv | json) note=" (run times and rates normalised)" ;;
	human) note=" (rates and times normalised)" ;;
	timing) note=" (step timings normalised)" ;;
	esac
	if cmp -s "$d/ref.out.n" "$d/new.out.n" && cmp -s "$d/ref.err.n" "$d/new.err.n" &&
		cmp -s "$d/ref.rc" "$d/new.rc"; then
		ok "$what$note"
		rm -rf "$d"
	else
		{
			diff -u --label "REF stdout" --label "NEW stdout" "$d/ref.out.n" "$d/new.out.n"
			diff -u --label "REF stderr" --label "NEW stderr" "$d/ref.err.n" "$d/new.err.n"
			diff -u --label "REF" --label "NEW" "$d/ref.rc" "$d/new.rc"
		} >"$d/diff"
		not_ok "$what$note" "$d/diff"
	fi
	IN=/dev/null CWD=$SCRATCH/cwd NORM=none SEP=,
}

while IFS='|' read -r name _ mode _ work; do
	[ -s "$RECDIR/$name.data" ] || continue # its recording failed above
	f=$RECDIR/$name.data comm=${work%% *}
	compare report -i "$f"
	compare report --stdio -i "$f" --no-children
	compare report --stdio -i "$f" --sort dso,sym -g none
	compare report --stdio -i "$f" --no-children --sort dso,sym -g none
	compare report --stdio -i "$f" -g folded
	compare report --stdio -i "$f" --sort comm,dso,sym -g caller,0.1
	compare report --stdio -i "$f" --no-children -g flat,callee
	compare report --stdio -i "$f" --no-children --sort pid,tid,sym -g none
	compare report --stdio -i "$f" --no-children --percent-limit 5 -F overhead,sample,period,sym -g none
	compare report --stdio -i "$f" --max-stack 2
	compare report --stdio -i "$f" --comm "$comm"
	compare report --stdio -i "$f" --dso "$comm"
	compare report --stdio -i "$f" --no-children --sort sym,srcline -g none
	compare script -i "$f"
	compare script -i "$f" -F comm,pid,tid,cpu,time,period,event
	compare script -i "$f" -F ip,sym,symoff,dso,addr
	compare script -i "$f" -F +addr,-cpu --max-stack 3
	case $name in
	*-dwarf)
		compare report --stdio -i "$f" --inline
		compare report --stdio -i "$f" --no-children --inline --sort dso,sym
		;;
	esac
	if [ "$mode" = pipe ]; then
		IN=$f; compare report --stdio -i - --no-children
		IN=$f; compare script -i -
	fi
done <<<"$RECIPES"

# Option forms the new option parser must keep: attached values, '=', long spellings.
f=$RECDIR/perfev-fp.data
compare report --stdio --input="$f" --sort=dso,sym --call-graph=none --no-children
compare report --stdio -i"$f" -sdso,sym -gnone --no-children
compare report --stdio -i "$f" --comms hot --dsos hot --percent-limit=1 --fields=overhead,sym
compare report --stdio -i "$f" --children --no-children -g none -q
NORM=timing; compare report --stdio -i "$f" -v
compare script --input "$f" --fields=comm,tid,event --max-stack=1
compare report --stdio -i "$f" --no-demangle -g none
CWD=$SCRATCH/cwd-data; compare report --stdio -g none
CWD=$SCRATCH/cwd-data; compare script -F comm,tid,sym

# The command line itself: help, usage and errors.
compare
compare --help
compare --version
compare nosuchcmd
compare --nosuchopt
for c in stat record report script list; do compare "$c" --help; compare "$c" -h; done
compare report
compare report -i /nonexistent
compare report -i
compare report --nosuchopt
compare report -i "$f" --sort nosuchkey
compare report -i "$f" -g nosuchmode
compare report -i "$f" --percent-limit abc
compare report -i "$f" --max-stack x
compare report -i "$f" --comm nosuch
compare report -i "$f" --pid 1
compare report -i "$f" -F nosuch
compare report -i "$RECDIR/bin/hot"
compare script -i "$f" -F comm,tid,nosuch
compare script -i "$f" extra_arg
compare script -i /nonexistent
compare stat -e nosuchevent -- true
compare stat -e cpu-clok -- true
compare stat -e cycles -- true
compare stat -e '{cpu-clock' -- true
compare stat -e cpu-clock:zz -- true
compare stat -x
compare stat -r 0 -- true
compare stat -I 0 -- true
compare stat -p 0
compare stat -e cpu-clock -- /nonexistent/cmd
compare stat -e cpu-clock -- /etc/passwd
compare record -e nosuchevent -o never.data -- true
compare record -F abc -o never.data -- true
compare record --call-graph nosuch -o never.data -- true
compare record -m 3 -o never.data -- true
compare list --nosuchopt
compare list nosuchkind x y
compare list nosuchthing

# perfev list: what this machine offers, read at the same moment by both.
compare list
compare list sw
compare list hw
compare list --all hw
compare list cache
compare list pmu
compare list tracepoint getppid
compare list 'sched:*switch*'
compare list --json sched
compare list --json

# perfev stat on events whose counts are exact: a syscall per getppid(), one exec,
# a fork per fork(); page faults and context switches vary from run to run.
B=$RECDIR/bin
NORM=csv; compare stat -x, -e syscalls:sys_enter_getppid -- "$B/getppid_loop" 1000
NORM=csv; compare stat -x, -e '{syscalls:sys_enter_getppid,syscalls:sys_exit_getppid}',sched:sched_process_exec -- "$B/getppid_loop" 2000
NORM=csv; compare stat -x, -e sched:sched_process_fork,sched:sched_process_exit -- "$B/forker" 10
NORM=csv; compare stat -x, -i -e sched:sched_process_fork,sched:sched_process_exit -- "$B/forker" 10
NORM=csv SEP=';'; compare stat -x';' -e syscalls:sys_enter_clock_nanosleep -- "$B/sleeper" 5
NORM=csv; compare stat -x, -r 3 -e syscalls:sys_enter_getppid -- "$B/getppid_loop" 1000
NORM=csv; compare stat -x, -e syscalls:sys_enter_getppid,cycles -- "$B/getppid_loop" 100
NORM=csv; compare stat -x, -e syscalls:sys_enter_getppid -- "$B/touch_pages" 1 3
NORM=csv; compare stat -x, -e syscalls:sys_enter_getppid -- /nonexistent/cmd
NORM=json; compare stat --json -e syscalls:sys_enter_getppid,sched:sched_process_exec -- "$B/getppid_loop" 1000
NORM=json; compare stat --json -e nosuchevent -- true
NORM=human; compare stat -e syscalls:sys_enter_getppid,sched:sched_process_exec -- "$B/getppid_loop" 1000
NORM=human; compare stat -r 2 -e syscalls:sys_enter_getppid -- "$B/getppid_loop" 1000

finish
