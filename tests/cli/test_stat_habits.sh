#!/bin/sh
# perf stat's habits in perfev stat, each against perf stat on the same command: -A, --per-thread,
# --per-core, --per-die, --per-socket, --per-node, -d, --interval-count, --metric-only, --timeout,
# and -p PID -- COMMAND (the command bounds the count); text, -x, and JSON (perf's -j) forms:
# the same rows (groups and events, in the same order), the same columns, software counts close.
. "$(dirname "$0")/lib.sh"

if ! have_perf; then
	not_ok "perf stat is usable here" "Linux perf is needed for these comparisons; scripts/setup.sh installs it"
	exit 1
fi
cat >"$TMP/rows.py" <<'EOF'
# rows.py FORM GROUPED PERF OURS [SORTED]: the rows of perf stat's and perfev stat's output
# in FORM (csv, json, text), as (group, event) with the number of fields of each CSV line;
# GROUPED is the number of group fields before the value (0, 1 for -A and per thread, 2 for
# per core...).  The same rows in the same order (SORTED: the same set, for per-thread rows
# ordered by their values), and each task-clock's or cpu-clock's CPUs utilized (its time over
# the elapsed time: the two tools' runs need not take as long on a loaded machine) within
# 25% + 0.15 of perf's.
import json, re, sys
form, grouped, perf, ours = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
sort = len(sys.argv) > 5
TEXT = re.compile(r"^\s*(?:[0-9]+\.[0-9]{9}\s+)?((?:CPU[0-9]+|S[0-9]+-D[0-9]+-C[0-9]+|S[0-9]+-D[0-9]+|"
                  r"S[0-9]+|N[0-9]+|\S+-[0-9]+)\s+(?:[0-9]+\s+)?)?(<not supported>|<not counted>|[0-9][0-9,.]*)"
                  r"\s+(?:msec\s+)?([A-Za-z][\w:./-]*)")
UTIL = re.compile(r"#\s+([0-9.]+) CPUs utilized")
def rows(path, who):
    """(group, event, fields, value, CPUs utilized or None) of each row."""
    out = []
    for line in open(path):
        line = line.rstrip("\n")
        if form == "csv":
            f = line.split(",")
            if len(f) < 4:
                continue
            if re.match(r"^ *[0-9]+\.[0-9]{9}$", f[0]):
                f = f[1:]
            util = f[grouped + 5] if len(f) > grouped + 6 and f[grouped + 6] == "CPUs utilized" else None
            out.append((",".join(f[:grouped]), f[grouped + 2], len(f), f[grouped], util))
        elif form == "text":
            m = TEXT.match(line)
            if m and not line.startswith("#") and "seconds" not in line:
                u = UTIL.search(line)
                out.append((" ".join((m.group(1) or "").split()), m.group(3), 0, m.group(2),
                            u.group(1) if u else None))
        else:
            if not line.startswith("{"):
                continue
            o = json.loads(line)
            objs = o.get("events", [o]) if who == "ours" else [o]
            for e in objs:
                g = [str(e[k]) for k in ("cpu", "thread", "core", "die", "socket", "node") if k in e]
                v = e.get("counter-value", e.get("value"))
                unit = e.get("metric-unit", e.get("metric_unit"))
                util = e.get("metric-value", e.get("metric_value")) if unit == "CPUs utilized" else None
                out.append((",".join(g), e["event"], 0, str(v), util))
    return out
p, o = rows(perf, "perf"), rows(ours, "ours")
key = lambda rs: [r[:3] for r in rs]
same = sorted(key(p)) == sorted(key(o)) if sort else key(p) == key(o)
print("%d rows of perf, %d of perfev%s" % (len(p), len(o), "" if same else ": they differ"))
bad = not same or not p
if not same:
    for a, b in zip(key(p) + [None] * len(o), key(o) + [None] * len(p)):
        if a != b:
            print("    perf %s, perfev %s" % (a, b))
            break
if same and not sort:
    for a, b in zip(p, o):
        if a[1] not in ("task-clock", "cpu-clock") or a[3] == b[3] == "<not counted>":
            continue
        # An interval in which one tool counted nothing ("<not counted>") and the other a little
        # (the command's exec fell on either side of its end) is 0 against that little.
        x, y = (0.0 if r[3] == "<not counted>" else float(r[4]) if r[4] else None for r in (a, b))
        if x is None or y is None:
            print("    %s %s: CPUs utilized: perf %s, perfev %s" % (a[0], a[1], a[4], b[4]))
            bad = True
            continue
        # (a command of a few ms: its start dominates the elapsed time, its count is what agrees)
        cx, cy = (0.0 if r[3] == "<not counted>" else float(r[3].replace(",", "")) for r in (a, b))
        if abs(x - y) > 0.25 * x + 0.15 and abs(cx - cy) > 0.25 * cx + 30:
            print("    %s %s: CPUs utilized: perf %s, perfev %s; msec: perf %s, perfev %s" %
                  (a[0], a[1], x, y, cx, cy))
            bad = True
sys.exit(1 if bad else 0)
EOF
# same DESC FORM GROUPED [SORTED] -- ARGS: perf stat ARGS and perfev stat ARGS, compared.
same() {
	desc=$1 form=$2 grouped=$3
	shift 3
	sorted=""
	if [ "$1" = sorted ]; then sorted=1; shift; fi
	shift # --
	perf stat "$@" >/dev/null 2>"$TMP/perf.out"
	pst=$?
	"$PERFEV" stat "$@" >/dev/null 2>"$TMP/ours.out"
	ost=$?
	if [ $pst != $ost ]; then
		not_ok "$desc" "exit status: perf $pst, perfev $ost" "$(tail -n 3 "$TMP/ours.out")"
	elif res=$(python3 "$TMP/rows.py" $form $grouped "$TMP/perf.out" "$TMP/ours.out" $sorted); then
		ok "$desc: $res"
	else
		not_ok "$desc" "$res" "perf: $(head -n 4 "$TMP/perf.out")" "perfev: $(head -n 4 "$TMP/ours.out")"
	fi
}

EV=task-clock,page-faults
# --- per CPU and per topology group, system-wide over a command
for mode in "-A 1" "--per-core 2" "--per-die 2" "--per-socket 2" "--per-node 2"; do
	set -- $mode
	opt=$1 g=$2
	same "stat -a $opt -x," csv $g -- -a $opt -x, -e $EV -- sleep 0.3
	same "stat -a $opt (text)" text $g -- -a $opt -e $EV -- sleep 0.3
	same "stat -a $opt --json" json $g -- -a $opt -j -e $EV -- sleep 0.3
	same "stat -a $opt -I 100 --interval-count 2 -x," csv $g -- -a $opt -I 100 --interval-count 2 -x, -e $EV
done
perfev_json=$("$PERFEV" stat -a -A --json -e task-clock -- sleep 0.1 2>&1 >/dev/null)
check "-A --json: a cpu member on each event" \
	sh -c "echo '$perfev_json' | jq -e '[.events[].cpu] | length >= 1 and all(type == \"number\")' >/dev/null"

# -A needs CPUs, as perf's
"$PERFEV" stat -A -e task-clock -- true 2>"$TMP/err"
st=$?
check "-A without -a or -C exits 1 and says what it needs" sh -c "[ $st = 1 ] && grep -q 'with -a or -C' '$TMP/err'"

# --- per thread of a running process, bounded by a command (perf's -p PID -- sleep N)
"$HELPERS/threads" 40000 >/dev/null & # busy for 10 s at least
tp=$!
sleep 0.3
same "stat --per-thread -p PID -x," csv 1 sorted -- --per-thread -p $tp -x, -e $EV -- sleep 0.3
same "stat --per-thread -p PID (text)" text 1 sorted -- --per-thread -p $tp -e $EV -- sleep 0.3
same "stat --per-thread -p PID --json" json 1 sorted -- --per-thread -p $tp -j -e $EV -- sleep 0.3
nthreads=$(ls /proc/$tp/task | wc -l)
nrows=$("$PERFEV" stat --per-thread -p $tp -x, -e task-clock -- sleep 0.2 2>&1 >/dev/null | grep -c task-clock)
check "--per-thread: a row per thread of the process ($nrows of $nthreads)" [ "$nrows" = "$nthreads" ]
kill $tp 2>/dev/null
wait $tp 2>/dev/null

# -p PID -- COMMAND: the process is counted, not the command, which ends the count (and gives
# the exit status); its CPU time against perf's on the same busy process in the same run
"$HELPERS/spin" 5000 >/dev/null &
sp=$!
sleep 0.1
same "stat -p PID -- sh -c 'sleep 0.3; exit 3' (the command's status)" csv 0 -- -p $sp -x, -e task-clock -- sh -c 'sleep 0.3; exit 3'
"$PERFEV" stat -p $sp -e task-clock -- sleep 0.3 2>"$TMP/p.txt"
check "-p PID -- sleep: counted as the process" grep -q "Performance counter stats for process id '$sp'" "$TMP/p.txt"
# cpu_ms TOOL ARGS...: the task-clock milliseconds TOOL stat -x, ARGS counts
cpu_ms() { "$@" 2>&1 >/dev/null | awk -F, '/task-clock/ && $1 ~ /^[0-9]/ { printf "%d", $1 }'; }
pm=$(cpu_ms perf stat -p $sp -x, -e task-clock -- sleep 0.4)
om=$(cpu_ms "$PERFEV" stat -p $sp -x, -e task-clock -- sleep 0.4)
check "-p PID -- sleep 0.4 counts the busy process as long as perf does (perf $pm ms, perfev $om ms)" \
	sh -c "[ ${pm:-0} -gt 0 ] && [ ${om:-0} -ge $((${pm:-0} / 3)) ] && [ ${om:-0} -le $((${pm:-0} * 3 + 50)) ]"
pm=$(cpu_ms perf stat -p $sp --timeout 300 -x, -e task-clock)
om=$(cpu_ms "$PERFEV" stat -p $sp --timeout 300 -x, -e task-clock)
check "-p PID --timeout 300 counts the busy process as long as perf does (perf $pm ms, perfev $om ms)" \
	sh -c "[ ${pm:-0} -gt 0 ] && [ ${om:-0} -ge $((${pm:-0} / 3)) ] && [ ${om:-0} -le $((${pm:-0} * 3 + 50)) ]"
kill $sp 2>/dev/null
wait $sp 2>/dev/null

# --- -d: perf's detailed events, <not supported> here as perf shows them
same "stat -d -x," csv 0 -- -d -x, -- true
same "stat -dd (text)" text 0 -- -dd -- true
same "stat -ddd -x," csv 0 -- -ddd -x, -- true
same "stat -d -e task-clock --json" json 0 -- -d -j -e task-clock -- true
"$PERFEV" stat -d -- true 2>"$TMP/d.txt"
check "-d says nothing is left out: no note" sh -c "! grep -q 'note:' '$TMP/d.txt'"

# --- --interval-count: N intervals, then a command runs to its end, as perf
same "stat -I 100 --interval-count 3 -x, -- sleep 0.6" csv 0 -- -I 100 --interval-count 3 -x, -e task-clock -- sleep 0.6
same "stat -I 100 --interval-count 2 (text)" text 0 -- -I 100 --interval-count 2 -e task-clock -- sleep 0.5
t0=$(date +%s%N)
"$PERFEV" stat -a -I 100 --interval-count 2 -x, -e cpu-clock 2>"$TMP/ic" >/dev/null
t1=$(date +%s%N)
nl=$(grep -c cpu-clock "$TMP/ic")
check "-a -I 100 --interval-count 2 prints 2 intervals and ends ($nl lines, $(((t1 - t0) / 1000000)) ms)" \
	sh -c "[ $nl = 2 ] && [ $(((t1 - t0) / 1000000)) -lt 2000 ]"
"$PERFEV" stat --interval-count 2 -- true 2>"$TMP/err"
check "--interval-count without -I exits 1 and says so" grep -q "give -I MS too" "$TMP/err"

# --- --timeout: the count ends, the command is sent SIGTERM, the status is 0, as perf
same "stat --timeout 300 -- sleep 3" csv 0 -- --timeout 300 -x, -e task-clock -- sleep 3
t0=$(date +%s%N)
"$PERFEV" stat --timeout 300 -e task-clock -- sleep 3 2>/dev/null
st=$?
t1=$(date +%s%N)
check "--timeout 300 -- sleep 3 ends early with status 0 ($(((t1 - t0) / 1000000)) ms, status $st)" \
	sh -c "[ $st = 0 ] && [ $(((t1 - t0) / 1000000)) -lt 2500 ]"
"$PERFEV" stat --timeout 5 -- true 2>"$TMP/err"
check "--timeout below 10 ms exits 1, as perf" grep -q 'from 10 to' "$TMP/err"

# --- --metric-only: perf leaves out rates and CPUs utilized, so here (no hardware events) the
# same empty columns: the same lines once blanks are dropped
for args in "-e $EV -- true" "-a -A -e task-clock -- sleep 0.1" "-x, -e $EV -- true" \
	"-I 200 -e task-clock -- sleep 0.3"; do
	# (blanks squeezed: perfev's text columns are its own, their lines and words perf's)
	perf stat --metric-only $args 2>&1 >/dev/null | grep -v '^ *$' |
		sed -E 's/[0-9]+\.[0-9]+ seconds/T seconds/; s/^ *[0-9]+\.[0-9]{9} *$/TIME/' | tr -s ' ' |
		sed 's/^ //; s/ $//' >"$TMP/m.perf"
	"$PERFEV" stat --metric-only $args 2>&1 >/dev/null | grep -v '^ *$' |
		sed -E 's/[0-9]+\.[0-9]+ seconds/T seconds/; s/^ *[0-9]+\.[0-9]{9} *$/TIME/' | tr -s ' ' |
		sed 's/^ //; s/ $//' >"$TMP/m.ours"
	if diff "$TMP/m.perf" "$TMP/m.ours" >"$TMP/d"; then
		ok "--metric-only $args: the lines perf prints"
	else
		not_ok "--metric-only $args: the lines perf prints" "$(cat "$TMP/d")"
	fi
done
"$PERFEV" stat --metric-only --json -e task-clock -- true 2>"$TMP/mj" >/dev/null
check "--metric-only --json: a metrics array, no rates in it" jq -e '.metrics == []' "$TMP/mj"
