#!/bin/sh
# Perf parity: the parity workloads (tests/parity/record.sh: C++ with a shared
# library, threads, fork/exec chains, kernel-heavy commands, python3, perl,
# system-wide, tracepoints, several events, a :S group, --call-graph dwarf),
# each recorded by perf and by perfev, and on every file perfev report against
# perf report --stdio (default, --no-children, --sort dso, --sort comm,dso,sym,
# --comm, --dso) and perfev script against perf script: the same rows, each
# percentage within 0.1 points, the same call graphs, script line for line
# except for the deliberate differences of docs/perf-differences.md.
# PARITY_KEEP=DIR records into DIR once and reuses it (for working on a difference).
. "$(dirname "$0")/lib.sh"

if ! have_perf; then
	not_ok "perf parity" "Linux perf is not usable here; scripts/setup.sh installs it"
	exit 1
fi
CMP="python3 $ROOT_DIR/tests/parity/compare.py"

# The comparison's PLT rule (9. of compare.py) on made-up texts, since a sample lands in a
# PLT entry only now and then: perf's _init against perfev's NAME@plt entries of the same
# row or graph, their shares added, and the same address in script; and what it must not
# let through.
plt_report() { # PERF_SYMBOL PERF_PCT PERFEV_PCT1 PERFEV_PCT2 [SUFFIX]: children reports
	x=${5-@plt}
	head="# Samples: 100  of event 'cpu-clock'
# Event count (approx.): 100
#
# Children      Self  Command  Shared Object  Symbol
# ........  ........  .......  .............  ..........
#
   100.00%     0.00%  prog     prog           [.] main
            |
            ---main
               |"
	cat >"$TMP/plt.perf" <<-EOF
	$head
	                --$2.00%--$1

	    $2.00%    $2.00%  prog     prog           [.] $1

	EOF
	cat >"$TMP/plt.perfev" <<-EOF
	$head
	               |--$3.00%--printf$x
	               |
	                --$4.00%--operator new$x

	    $3.00%    $3.00%  prog     prog           [.] printf$x
	    $4.00%    $4.00%  prog     prog           [.] operator new$x

	EOF
	$CMP report "$TMP/plt.perf" "$TMP/plt.perfev" >"$TMP/plt.cmp"
}
plt_script() { # PERF_LINE PERFEV_LINE
	printf 'prog 1 1.000000:  1 cpu-clock: \n\t%s\n\n' "$1" >"$TMP/plt.perf"
	printf 'prog 1 1.000000:  1 cpu-clock: \n\t%s\n\n' "$2" >"$TMP/plt.perfev"
	$CMP script "$TMP/plt.perf" "$TMP/plt.perfev" >"$TMP/plt.cmp"
}
check "compare.py: perf's _init row and branch against perfev's @plt entries of the same share" \
	plt_report _init 40 30 10
for bad in "_init 40 30 5" "_init 40 30 10 -" "printf@plt 40 30 10"; do
	# shellcheck disable=SC2086
	if plt_report $bad; then
		not_ok "compare.py: ... not for $bad" "$(cat "$TMP/plt.cmp")"
	else
		ok "compare.py: ... not for $bad"
	fi
done
check "compare.py: script's _init+0x36 and printf@plt+0x6 at one address of one file" \
	plt_script '1036 _init+0x36 (/x/prog)' '1036 printf@plt+0x6 (/x/prog)'
for bad in '1037 printf@plt+0x7 (/x/prog)' '1036 printf@plt+0x6 (/x/other)' '1036 printf+0x6 (/x/prog)'; do
	if plt_script '1036 _init+0x36 (/x/prog)' "$bad"; then
		not_ok "compare.py: ... not against $bad" "$(cat "$TMP/plt.cmp")"
	else
		ok "compare.py: ... not against $bad"
	fi
done

PARITY=$BUILD_DIR/tests/parity
export PARITY
REC=${PARITY_KEEP:-$TMP/rec}
if ! [ -s "$REC/kinds" ]; then
	sh "$ROOT_DIR/tests/parity/record.sh" "$REC" 2>"$TMP/rec.err"
	check "every parity workload was recorded by both tools" sh -c "! [ -s '$TMP/rec.err' ]"
	[ -s "$TMP/rec.err" ] && sed 's/^/    /' "$TMP/rec.err"
fi
OUT=$REC/out
mkdir -p "$OUT"

# compare NAME WHAT perf-args...: one comparison; "report" or "script".  With
# DSO set, a --dso DSO report, whose perf rows of other files compare.py finds
# in perf's unfiltered report of the same file (UNFILTERED).
compare() {
	name=$1 what=$2
	shift 2
	perf "$what" "$@" >"$OUT/$name.perf" 2>"$OUT/$name.perf.err"
	"$PERFEV" "$what" "$@" >"$OUT/$name.perfev" 2>"$OUT/$name.perfev.err"
	if [ -n "${DSO:-}" ]; then
		set -- --dso "$DSO" "$UNFILTERED"
	else
		set --
	fi
	if $CMP "$what" "$OUT/$name.perf" "$OUT/$name.perfev" "$@" >"$OUT/$name.cmp" 2>&1; then
		ok "$name: $(head -n 1 "$OUT/$name.cmp")"
	elif gap=$(known_gap "$name"); then
		skip "$name: $(head -n 1 "$OUT/$name.cmp")" "known gap, $gap"
	else
		n=$((n + 1))
		echo "not ok $n - $name: $(head -n 1 "$OUT/$name.cmp")"
		sed -n '2,12p' "$OUT/$name.cmp"
		sed -n '1,3p' "$OUT/$name.perfev.err" | sed 's/^/    perfev: /'
	fi
}

# known_gap NAME: prints why NAME is a known gap (tests/parity/known-gaps); false if it is not.
known_gap() {
	while IFS='	' read -r pat why; do
		case $pat in '#'* | '') continue ;; esac
		# shellcheck disable=SC2254
		case $1 in $pat) echo "$why"; return 0 ;; esac
	done <"$ROOT_DIR/tests/parity/known-gaps"
	return 1
}

while read -r kind comm dso; do
	for who in perf perfev; do
		f=$REC/$who-$kind.data
		[ -s "$f" ] || continue
		compare "$who-$kind report" report -i "$f" --stdio
		compare "$who-$kind report --no-children" report -i "$f" --stdio --no-children
		compare "$who-$kind report --sort dso" report -i "$f" --stdio --sort dso
		compare "$who-$kind report --sort comm,dso,sym" report -i "$f" --stdio --sort comm,dso,sym
		compare "$who-$kind report --comm $comm" report -i "$f" --stdio --comm "$comm"
		DSO=$dso UNFILTERED="$OUT/$who-$kind report.perf"
		compare "$who-$kind report --dso $dso" report -i "$f" --stdio --dso "$dso"
		DSO=
		compare "$who-$kind script" script -i "$f"
	done
done <"$REC/kinds"
