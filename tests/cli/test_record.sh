#!/bin/sh
# perfev record end to end: files Linux perf reads, exact samples, signals, failures, options.
. "$(dirname "$0")/lib.sh"

HOT="$HELPERS/hot"
# Samples in the summary line: "perfev record: N samples, ..."
summary_samples() { sed -n 's/.*: \([0-9]*\) samples.*/\1/p' "$1" | tail -n 1; }
# Samples perf counts in a file (its -D dump tallies each record type).
perf_samples() { perf report -D -i "$1" 2>/dev/null | awk '/^ *SAMPLE events:/ { print $3; exit }'; }
# The symbols of perf's flat profile, in order.
perf_top_syms() {
	perf report --stdio --no-children --sort sym -i "$1" 2>/dev/null |
		awk '!/^#/ && /%/ { sub(/^.*\] /, ""); print }' | head -n "${2:-2}"
}

# --- usage and bad options: exit 1 with an explanation
"$PERFEV" record --help >"$TMP/h"
check "--help exits 0 and shows usage" grep -q "usage: perfev record" "$TMP/h"
sed 's/\\-/-/g' "$ROOT_DIR/docs/perfev-record.1" >"$TMP/man"
for opt in $(grep -oE -- '--[a-z-]+' "$TMP/h" | sort -u); do
	check "perfev-record.1 documents $opt" grep -q -- "$opt" "$TMP/man"
done
bad_opt() {
	desc=$1
	want=$2
	shift 2
	"$PERFEV" record -o "$TMP/bad.data" "$@" 2>"$TMP/err"
	st=$?
	if [ $st = 1 ] && grep -q "perfev record: error: .*$want" "$TMP/err"; then
		ok "$desc exits 1 and explains"
	else
		not_ok "$desc exits 1 and explains" "status $st" "$(cat "$TMP/err")"
	fi
}
bad_opt "no command, pid or CPUs" "nothing to sample"
bad_opt "-m that is not a power of two" "power of two" -m 3 -- true
bad_opt "-F and -c together" "alternatives" -F 100 -c 1000 -- true
bad_opt "an unknown call-graph mode" "fp or dwarf" --call-graph lbr -- true
bad_opt "an unknown event" "cpu-clock" -e cpu-clok -- true
bad_opt "-p with -a" "cannot be combined" -p 1 -a
bad_opt "an unknown option" "unknown option" --frobnicate -- true
"$PERFEV" record -o "$TMP/x.data" -- /nonexistent/perfev-missing 2>"$TMP/err"
check "a missing command exits 127" [ $? = 127 ]
"$PERFEV" record -o "$TMP/x.data" -- sh -c 'exit 5' 2>/dev/null
check "the command's exit status is passed through" [ $? = 5 ]

# --- the default event, the summary, and perf reading the file
"$PERFEV" record -o "$TMP/hot.data" -- "$HOT" 100 >/dev/null 2>"$TMP/err"
st=$?
ns=$(summary_samples "$TMP/err")
check "recording a command succeeds with a summary line ($ns samples)" sh -c "[ $st = 0 ] && [ ${ns:-0} -gt 20 ]"
if "$PERFEV" stat -e cycles -- true 2>/dev/null; then
	skip "the default event falls back to cpu-clock" "this machine has a hardware PMU"
else
	check "the fallback to cpu-clock is noted once" [ "$(grep -c 'cpu-clock instead' "$TMP/err")" = 1 ]
fi
"$PERFEV" record -o "$TMP/hot.data" -- true 2>/dev/null
check "an existing file is kept as FILE.old" [ -s "$TMP/hot.data.old" ]
mv "$TMP/hot.data.old" "$TMP/hot.data"

if ! have_perf; then
	skip "Linux perf reads perfev's files" "perf is not installed or cannot sample here"
	exit 0
fi

p=$(perf_samples "$TMP/hot.data")
check "perf counts the samples perfev wrote (perf $p, perfev $ns)" [ "${p:-x}" = "$ns" ]
top=$(perf_top_syms "$TMP/hot.data" 2 | tr '\n' ' ')
check "perf report shows hot_a then hot_b on top ($top)" sh -c "echo '$top' | grep -q '^hot_a hot_b'"
perf report --header-only -i "$TMP/hot.data" >"$TMP/hdr" 2>&1
for f in hostname "os release" arch nrcpus "cpudesc" cmdline "event"; do
	check "perf shows the header's $f" grep -q "# $f" "$TMP/hdr"
done
check "the header's cmdline is the perfev command" grep -q "# cmdline : .*record" "$TMP/hdr"
check "perf shows the header's PMU mappings (HEADER_PMU_MAPPINGS)" grep -q "# pmu mappings: .*software = 1" "$TMP/hdr"
check "perf shows the times of the first and last samples (HEADER_SAMPLE_TIME)" \
	sh -c "grep -q '# time of first sample : [0-9]' '$TMP/hdr' && grep -q '# time of last sample : [0-9]' '$TMP/hdr'"
half=$(perf script -F time -i "$TMP/hot.data" --time 50%/1 2>/dev/null | grep -c .)
check "perf report --time 50%/1 reads the span from the file (${half:-no} of $ns samples)" \
	sh -c "[ -n '$half' ] && [ '$half' -gt 0 ] && [ '$half' -lt '$ns' ]"
perf buildid-list -i "$TMP/hot.data" >"$TMP/bids" 2>/dev/null
hot_bid=$(readelf -n "$HOT" | awk '/Build ID/ { print $3 }')
check "the build id of the sampled program is in the file" grep -q "^$hot_bid .*hot\$" "$TMP/bids"
perf script -i "$TMP/hot.data" -F comm,tid,ip,sym >"$TMP/script" 2>"$TMP/script.err"
check "perf script names the command's samples" grep -q "^ *hot .*hot_a" "$TMP/script"

# --- call graphs: frame pointers and DWARF
"$PERFEV" record -g -o "$TMP/g.data" -- "$HOT" 50 >/dev/null 2>"$TMP/err"
perf script -i "$TMP/g.data" -F ip,sym 2>/dev/null >"$TMP/g.script"
check "-g: perf script shows the chain hot_a <- work <- main" \
	sh -c "grep -A2 'hot_a' '$TMP/g.script' | grep -q work && grep -A3 'hot_a' '$TMP/g.script' | grep -q main"
"$PERFEV" record --call-graph dwarf -o "$TMP/d.data" -- "$HOT" 50 >/dev/null 2>"$TMP/err"
st=$?
perf script -i "$TMP/d.data" -F ip,sym 2>/dev/null >"$TMP/d.script"
check "--call-graph dwarf: perf unwinds hot_b <- work <- main" \
	sh -c "[ $st = 0 ] && grep -A2 'hot_b' '$TMP/d.script' | grep -q work && grep -A3 'hot_b' '$TMP/d.script' | grep -q main"

# --- tracepoints: every hit is one sample
if have_tracefs; then
	"$PERFEV" record -e syscalls:sys_enter_getppid -o "$TMP/tp.data" -- "$HELPERS/getppid_loop" 1234 2>"$TMP/err"
	ns=$(summary_samples "$TMP/err")
	p=$(perf script -i "$TMP/tp.data" -F event 2>/dev/null | grep -c sys_enter_getppid)
	check "a tracepoint gives one sample per hit (perfev $ns, perf script $p, 1234 calls)" \
		sh -c "[ '$ns' = 1234 ] && [ '$p' = 1234 ]"
else
	skip "a tracepoint gives one sample per hit" "tracefs is not mounted"
fi

# --- group sampling: the leader's samples carry every member's count
"$PERFEV" record -e '{cpu-clock,page-faults}:S' -c 1000000 -o "$TMP/grp.data" -- "$HELPERS/touch_pages" 20000 2>"$TMP/err"
perf report -D -i "$TMP/grp.data" 2>/dev/null >"$TMP/grp.dump"
check "group samples carry both members' values in perf's dump" \
	sh -c "grep -q '\.\.\.\. id .*, value' '$TMP/grp.dump' && [ \$(grep -c 'value' '$TMP/grp.dump') -ge 4 ]"
perf script -i "$TMP/grp.data" -F event,period 2>/dev/null >"$TMP/grp.script"
check "perf script shows samples of both group members" \
	sh -c "grep -q cpu-clock '$TMP/grp.script' && grep -q page-faults '$TMP/grp.script'"

# --- compression and pipe mode read the same
"$PERFEV" record -z -o "$TMP/z.data" -- "$HOT" 50 >/dev/null 2>"$TMP/err"
ns=$(summary_samples "$TMP/err")
p=$(perf script -i "$TMP/z.data" -F ip 2>/dev/null | wc -l)
check "-z: perf decompresses every sample (perfev $ns, perf $p)" [ "$ns" = "$p" ]
perf report --header-only -i "$TMP/z.data" 2>/dev/null | grep -q "compressed" && ok "-z: the header says compressed" ||
	not_ok "-z: the header says compressed"
top=$(perf_top_syms "$TMP/z.data" 1)
check "-z: perf report shows hot_a on top ($top)" [ "$top" = hot_a ]
"$PERFEV" record -o - -- "$HOT" 50 2>"$TMP/err" >"$TMP/pipe.data"
ns=$(summary_samples "$TMP/err")
p=$(perf script -i - -F ip <"$TMP/pipe.data" 2>/dev/null | wc -l)
check "pipe mode: perf reads every sample from a pipe (perfev $ns, perf $p)" [ "$ns" = "$p" ]
top=$("$PERFEV" record -q -o - -- "$HOT" 50 2>/dev/null |
	perf report -i - --stdio --no-children --sort sym 2>/dev/null | awk '!/^#/ && /%/ { sub(/^.*\] /, ""); print; exit }')
check "pipe mode: perfev record | perf report shows hot_a on top ($top)" [ "$top" = hot_a ]
if command -v script >/dev/null 2>&1; then
	script -qec "'$PERFEV' record -o - -- true" /dev/null >"$TMP/tty" 2>&1
	st=$?
	check "pipe mode refuses to write to a terminal (status $st)" \
		sh -c "[ $st = 1 ] && grep -q 'refusing to write' '$TMP/tty'"
else
	skip "pipe mode refuses to write to a terminal" "script(1) is not installed"
fi

# --- -p and -a: existing processes are described from /proc; signals end the recording
"$HELPERS/spin" 4000 &
spin=$!
sleep 0.2
"$PERFEV" record -p $spin -o "$TMP/p.data" 2>"$TMP/err" &
rec=$!
sleep 1
kill -INT $rec
wait $rec
st=$?
kill $spin 2>/dev/null
wait $spin 2>/dev/null
ns=$(summary_samples "$TMP/err")
check "-p: SIGINT ends the recording, then perfev ends by SIGINT (status $st)" [ $st = 130 ]
p=$(perf_samples "$TMP/p.data")
check "-p: the file was completed first (perf $p, perfev $ns samples)" sh -c "[ '${p:-x}' = '$ns' ] && [ ${ns:-0} -gt 100 ]"
perf script -i "$TMP/p.data" -F comm,sym 2>/dev/null | head -n 50 >"$TMP/p.script"
check "-p: samples of the running process carry its name and symbols (from /proc)" \
	sh -c "grep -q '^ *spin ' '$TMP/p.script' && grep -q 'main\|spin' '$TMP/p.script'"

# -p PID -- COMMAND (perf's way to bound an attach): PID is sampled, not the command, which ends
# the recording and gives the exit status; --timeout ends one too (status 0)
"$HELPERS/spin" 6000 >/dev/null &
spin=$!
sleep 0.2
"$PERFEV" record -p $spin -o "$TMP/pc.data" -- sh -c 'sleep 0.5; exit 3' 2>"$TMP/err"
st=$?
perf script -i "$TMP/pc.data" -F comm 2>/dev/null | sort | uniq -c >"$TMP/pc.comms"
check "-p PID -- COMMAND samples PID until the command ends, with its status ($st; $(tr -s ' \n' ' ' <"$TMP/pc.comms"))" \
	sh -c "[ $st = 3 ] && awk '\$2 != \"spin\" { bad = 1 } END { exit bad || !NR }' '$TMP/pc.comms'"
t0=$(date +%s%N)
"$PERFEV" record -p $spin --timeout 300 -o "$TMP/pt.data" 2>"$TMP/err"
st=$?
t1=$(date +%s%N)
ps=$(perf_samples "$TMP/pt.data")
check "-p PID --timeout 300 ends the recording ($(((t1 - t0) / 1000000)) ms, status $st, $ps samples)" \
	sh -c "[ $st = 0 ] && [ $(((t1 - t0) / 1000000)) -lt 3000 ] && [ ${ps:-0} -gt 10 ]"
kill $spin 2>/dev/null
wait $spin 2>/dev/null
t0=$(date +%s%N)
"$PERFEV" record --timeout 300 -o "$TMP/tc.data" -- "$HELPERS/spin" 5000 >/dev/null 2>"$TMP/err"
st=$?
t1=$(date +%s%N)
check "--timeout 300 -- COMMAND sends it SIGTERM and ends with status 0 ($(((t1 - t0) / 1000000)) ms, status $st)" \
	sh -c "[ $st = 0 ] && [ $(((t1 - t0) / 1000000)) -lt 3000 ]"

"$PERFEV" record -a -o "$TMP/a.data" -- "$HOT" 30 >/dev/null 2>"$TMP/err"
st=$?
perf script -i "$TMP/a.data" -F comm,cpu 2>/dev/null >"$TMP/a.script"
check "-a: samples of the whole machine, with CPUs, while the command runs" \
	sh -c "[ $st = 0 ] && grep -q '^ *hot ' '$TMP/a.script' && grep -q '\[00[01]\]' '$TMP/a.script'"
"$PERFEV" record -C 0 -o "$TMP/c.data" -- sleep 0.3 2>"$TMP/err"
perf script -i "$TMP/c.data" -F cpu 2>/dev/null | sort -u >"$TMP/c.cpus"
check "-C 0: every sample is from CPU 0" sh -c "[ -s '$TMP/c.cpus' ] && ! grep -vq '\[000\]' '$TMP/c.cpus'"

# --- SIGTERM goes to the command; SIGKILL of perfev leaves a readable file
"$PERFEV" record -o "$TMP/t.data" -- "$HELPERS/spin" 5000 2>"$TMP/err" &
rec=$!
sleep 0.7
kill -TERM $rec
wait $rec
st=$?
check "SIGTERM is passed to the command and its status returned ($st)" [ $st = 143 ]
p=$(perf_samples "$TMP/t.data")
check "the file is complete after SIGTERM ($p samples)" [ "${p:-0}" -gt 50 ]
"$PERFEV" record -o "$TMP/k.data" -- "$HELPERS/spin" 5000 2>/dev/null &
rec=$!
sleep 2.5
kill -KILL $rec
wait $rec 2>/dev/null
pkill -f "$HELPERS/spin 5000" 2>/dev/null
p=$(perf_samples "$TMP/k.data")
check "after SIGKILL of perfev, perf still reads the file ($p samples)" [ "${p:-0}" -gt 100 ]

# --- a full disk: a clear error, the file readable up to the failure
if mkdir -p "$TMP/small" && mount -t tmpfs -o size=1m tmpfs "$TMP/small" 2>/dev/null; then
	"$PERFEV" record -F 10000 -g -o "$TMP/small/full.data" -- "$HOT" 400 >/dev/null 2>"$TMP/err"
	st=$?
	check "a full disk exits 1 ($st)" [ $st = 1 ]
	check "a full disk is explained (what, where, what to do)" \
		sh -c "grep -q 'No space left on device' '$TMP/err' && grep -q 'offset' '$TMP/err'"
	p=$(perf_samples "$TMP/small/full.data")
	ns=$(summary_samples "$TMP/err")
	check "the file on the full disk reads in perf up to the failure ($p samples)" [ "${p:-0}" -gt 0 ]
	check "the summary counts what the file holds (perfev $ns, perf $p)" [ "$ns" = "$p" ]
	check "the write error is reported once" [ "$(grep -c 'No space left' "$TMP/err")" = 1 ]
	umount "$TMP/small"
else
	skip "a full disk is handled" "cannot mount a small tmpfs here (not root?)"
fi
