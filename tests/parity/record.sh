#!/bin/sh
# Records each parity workload twice, with Linux perf and with perfev, into DIR:
# DIR/perf-KIND.data and DIR/perfev-KIND.data.  KIND names what was recorded;
# DIR/kinds lists the kinds, one a line, with the --comm and --dso each compares.
# usage: tests/parity/record.sh DIR   (PERFEV, HELPERS and PARITY set as tests/run.sh sets them)
set -u
DIR=$1
: "${PERFEV:?}" "${HELPERS:?}" "${PARITY:?}"
mkdir -p "$DIR"
: >"$DIR/kinds"
F="-F 997"

# rec KIND COMM DSO RECORD-OPTIONS -- COMMAND...: both recordings of one kind.
rec() {
	kind=$1 comm=$2 dso=$3
	shift 3
	opts=""
	while [ "$1" != "--" ]; do opts="$opts $1"; shift; done
	shift
	# perf 6.1 here aborts now and then in its build-id processing as a recording ends
	# ("assertion failed at util/build-id.c:1010"): that one failure is tried again.
	for try in 1 2 3 4 5; do
		# shellcheck disable=SC2086
		perf record -q $opts -o "$DIR/perf-$kind.data" -- "$@" >/dev/null 2>"$DIR/perf-$kind.err" &&
			break
		grep -q 'assertion failed at util/build-id.c' "$DIR/perf-$kind.err" && [ "$try" != 5 ] &&
			continue
		echo "perf record of $kind failed: $(tail -n 3 "$DIR/perf-$kind.err")" >&2
		break
	done
	# shellcheck disable=SC2086
	"$PERFEV" record -q $opts -o "$DIR/perfev-$kind.data" -- "$@" >/dev/null 2>"$DIR/perfev-$kind.err" ||
		echo "perfev record of $kind failed: $(tail -n 3 "$DIR/perfev-$kind.err")" >&2
	printf '%s %s %s\n' "$kind" "$comm" "$dso" >>"$DIR/kinds"
}

rec cxx parity_cxx libparity.so $F -g -- "$PARITY/parity_cxx" 60
rec threads worker-x parity_threads $F -g -- "$PARITY/parity_threads" 300
rec exec parity_exec parity_exec $F -g -- "$PARITY/parity_exec" 3 -- sh -c "$PARITY/parity_exec 0"
rec kernel find '[kernel.kallsyms]' $F -g -- sh -c 'find /usr/lib /usr/share -name "*.so*" >/dev/null; dd if=/dev/zero of=/dev/null bs=512 count=200000 2>/dev/null'
rec python python3 libc.so.6 $F -g -- python3 -c 'print(sum(i * i for i in range(3000000)))'
rec perl perl perl $F -g -- perl -e '$s = 0; for $i (1 .. 3000000) { $s += $i * $i } print "$s\n"'
rec system hot '[kernel.kallsyms]' $F -g -a -- "$HELPERS/hot" 20
rec tracepoints getppid_loop '[kernel.kallsyms]' -e sched:sched_switch -e syscalls:sys_enter_getppid -c 1 -g -- sh -c "$HELPERS/sleeper 20; $HELPERS/getppid_loop 300"
rec events touch_pages touch_pages -e cpu-clock -e task-clock -e page-faults $F -- "$HELPERS/touch_pages" 20000
rec group parity_cxx libc.so.6 -e '{cpu-clock,page-faults}:S' -c 100000 -- "$PARITY/parity_cxx" 20
rec dwarf parity_cxx libparity.so --call-graph dwarf $F -- "$PARITY/parity_cxx" 30
