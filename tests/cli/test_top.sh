#!/bin/sh
# perfev top against the real kernel: in a real terminal (tmux) it shows the
# hot function of a workload started after it (an exec'd program's symbols)
# within two refreshes, its keys act, a process ending under it changes
# nothing else, and q and SIGTERM give the terminal back as it was; with
# --stdio (and whenever stdout is not a terminal) it prints one snapshot per
# refresh, whose shares agree with perfev report's of the same process.
# The captured screens are printed into the log.
. "$(dirname "$0")/lib.sh"
HOT="$HELPERS/hot"
HOTS=""
trap 'tui_stop; for p in $HOTS; do kill -9 $p 2>/dev/null; done; rm -rf "$TMP"' EXIT
show() { tui_screen | sed 's/^/    | /' | head -n "${1:-12}"; }
# hot 3000: about 20 s of CPU, hot_a and hot_b interleaved in slices of a fraction of a second.
start_hot() { "$HOT" "${1:-3000}" >/dev/null & HP=$!; HOTS="$HOTS $HP"; }
# snapshots_of FILE ARGS...: perfev top ARGS with output to FILE until 3 snapshots (at most 20 s).
snapshots_of() {
	out=$1
	shift
	"$PERFEV" top "$@" >"$out" 2>&1 &
	sp=$!
	i=0
	while [ "$(grep -c '^   PerfTop:' "$out")" -lt 3 ] && [ $i -lt 100 ]; do sleep 0.2; i=$((i + 1)); done
	kill -INT $sp
	wait $sp
}
secs() { date +%s.%N; }
elapsed() { echo "$(secs) $1" | awk '{ printf "%.1f", $1 - $2 }'; }

if ! have_tmux; then
	not_ok "tmux is installed (scripts/setup.sh installs it)"
	exit 1
fi

"$PERFEV" top -K -U 2>"$TMP/err"
check "-K with -U is refused" grep -q -- '-K and -U together would hide every sample' "$TMP/err"
"$PERFEV" top -t 1 -p 1 2>"$TMP/err"
check "-t with -p is refused" grep -q -- '-t samples one thread' "$TMP/err"
"$PERFEV" top -d 0 2>"$TMP/err"
check "-d 0 is refused, saying the range" grep -q -- "-d expects seconds between 0.05 and 3600, not '0'" "$TMP/err"

# ---- the browser, every CPU, a program started once it runs ----
tui_start top "$PERFEV" top -d 1
if tui_wait 60 '^PerfTop:'; then ok "top opens the browser"; else not_ok "top opens the browser"; show 20; fi
# Only hot_a's rows, wherever the rest of this busy machine puts them in the order.
tui send-keys / h o t _ a Enter
tui_wait 10 "search 'hot_a'" || not_ok "the search for hot_a"
t0=$(secs)
start_hot
# Two refreshes of one second, and the second's samples delivered by the next round.
if tui_wait 4 '\] hot_a$'; then
	ok "the workload's hot function shows within two refreshes ($(elapsed "$t0") s after it started)"
else
	not_ok "the workload's hot function shows within two refreshes" "$(elapsed "$t0") s"
	tui_wait 20 '\] hot_a$' && echo "    (it showed after $(elapsed "$t0") s)"
fi
show
tui_screen >"$TMP/screen"
check "the hot row names its command and file: hot, hot" grep -qE '^[+ ] +[0-9.]+% +hot +hot +\[\.\] hot_a$' "$TMP/screen"
check "the heading says the rate, the event and the target" \
	grep -qE '^PerfTop: +[0-9]+ samples/s .*\[cpu-clock, 4000 Hz\], \(all, [0-9]+ CPUs?\)' "$TMP/screen"
tui send-keys / BSpace BSpace BSpace BSpace BSpace h o t _ Enter
# Every row shown holds the text, hot_a among them.  The kernel's can too, as this test samples
# every CPU: tick_broadcast_oneshot_control, sampled as a CPU goes idle, holds "hot_".
if tui_wait 10 "search 'hot_'" && tui_screen >"$TMP/screen" &&
	grep -qE '\[\.\] hot_a$' "$TMP/screen" &&
	! grep -E '^[+ -] +[0-9.]+%' "$TMP/screen" | grep -qv 'hot_'; then
	ok "/ searches while sampling"
else
	not_ok "/ searches while sampling" "$(tui_screen | tail -1)"
	show
fi
tui send-keys Home t
tui_wait 10 'only command hot' && ok "t keeps the line's command" || not_ok "t keeps the line's command"
tui send-keys s
tui_wait 10 'sorted by sym' && tui_wait 5 '^ +Overhead +Symbol *$' && ok "s changes the sort keys" ||
	not_ok "s changes the sort keys" "$(tui_screen | tail -1)"
tui send-keys '?'
tui_wait 10 "perfev's browser: keys" && ok "? shows the keys" || not_ok "? shows the keys"
tui send-keys x t / BSpace BSpace BSpace BSpace Enter
tui_wait 10 "^[0-9]+ rows, sorted by sym\.  Press" && ok "the filters come off again" ||
	not_ok "the filters come off again" "$(tui_screen | tail -1)"
# The workload ends under the view: refreshes go on, its rows fade, nothing breaks.
kill -9 "$HP"
wait "$HP" 2>/dev/null
before=$(tui_screen | head -1)
sleep 3
after=$(tui_screen | head -1)
if [ -s "$TMP/top.after" ] || [ "$before" = "$after" ]; then
	not_ok "a process ending under the view does not disturb it" "$before" "$after"
else
	ok "a process ending under the view does not disturb it (refreshes go on)"
fi
tui send-keys q
if tui_gone top 10 && [ "$(cat "$TMP/top.status")" = 0 ]; then ok "q quits with status 0"; else not_ok "q quits with status 0"; fi
check "after q the terminal is as before (stty -a)" tui_sane top

# ---- one process with call graphs: unfold main's callees ----
start_hot
tui_start topg "$PERFEV" top -g -d 1 -p "$HP"
tui_wait 60 '\] main$' && ok "top -g -p shows the process's callers (main)" || { not_ok "top -g -p shows main"; show 20; }
tui_screen >"$TMP/screen"
check "with -g the table has children" grep -qE '^ +Children +Self +Command' "$TMP/screen"
tui send-keys /
tui send-keys -l '] main'
tui send-keys Enter
tui_wait 10 "search '\\] main'" || not_ok "the search for main"
tui send-keys Home Enter
if tui_wait 10 '^ +- [0-9.]+% work' && tui_wait 5 '^ +[+ -] [0-9.]+% hot_a'; then
	ok "Enter unfolds main's callees while sampling (work, hot_a)"
else
	not_ok "Enter unfolds main's callees while sampling (work, hot_a)"
fi
show 8
# Refreshes keep what is unfolded.
sleep 2.5
tui_wait 5 '^ +- [0-9.]+% work' && ok "a refresh keeps the unfolded graph" || not_ok "a refresh keeps the unfolded graph"
kill -TERM "$(cat "$TMP/topg.pid")"
if tui_gone topg 10 && [ "$(cat "$TMP/topg.status")" = 143 ]; then ok "SIGTERM ends it (status 143)"; else
	not_ok "SIGTERM ends it (status 143)" "status $(cat "$TMP/topg.status" 2>/dev/null)"; fi
check "after SIGTERM the terminal is as before (stty -a)" tui_sane topg
tui_stop

# ---- text snapshots ----
# Of the same process: top's shares of hot_a and hot_b against perfev report's.
kill -9 "$HP" 2>/dev/null
# Slices of a millisecond or so: top's refreshes and the recording cover slightly different seconds.
start_hot 3000 100000
"$PERFEV" top --stdio -z -d 1 -p "$HP" >"$TMP/snap" 2>"$TMP/snap.err" &
TP=$!
"$PERFEV" record -q -p "$HP" -o "$TMP/hot.data" >/dev/null 2>&1 &
RP=$!
# Until three refreshes (the first ones wait for every process to be described: slow when busy).
i=0
while [ "$(grep -c '^   PerfTop:' "$TMP/snap")" -lt 3 ] && [ $i -lt 150 ]; do sleep 0.2; i=$((i + 1)); done
t0=$(secs)
sleep 3
kill -INT "$TP" "$RP"
wait "$TP"
wait "$RP"
nsnap=$(grep -c '^   PerfTop:' "$TMP/snap")
check "--stdio prints a snapshot per refresh ($((nsnap - 3)) more in the last $(elapsed "$t0") s at -d 1)" \
	sh -c "[ $nsnap -ge 5 ] && [ $nsnap -le 7 ]"
sed 's/^/    | /' "$TMP/snap" | head -n 14
# hot_a's share of hot_a + hot_b over the snapshots (each of its own samples, -z), as over the recording.
awk '/\] hot_a$/ { sub(/%/, "", $1); a += $1 } /\] hot_b$/ { sub(/%/, "", $1); b += $1 }
	END { printf "%.3f\n", (a + b) ? a / (a + b) : 0 }' "$TMP/snap" >"$TMP/top.share"
"$PERFEV" report --stdio --no-children --sort sym -i "$TMP/hot.data" 2>/dev/null |
	awk '/\] hot_a$/ { sub(/%/, "", $1); a = $1 } /\] hot_b$/ { sub(/%/, "", $1); b = $1 }
	END { printf "%.3f\n", (a + b) ? a / (a + b) : 0 }' >"$TMP/report.share"
ts=$(cat "$TMP/top.share") rs=$(cat "$TMP/report.share")
if awk -v t="$ts" -v r="$rs" 'BEGIN { d = t - r; if (d < 0) d = -d; exit !(t > 0.5 && t < 0.8 && d < 0.1) }'; then
	ok "hot_a's share of hot_a + hot_b: top $ts, report $rs of the same process over the same seconds (2/3 by construction)"
else
	not_ok "hot_a's share of hot_a + hot_b agrees with report's" "top $ts, report $rs"
fi
check "the snapshot's rows are perf report's layout" grep -qE '^ +[0-9.]+%  hot +hot +\[\.\] hot_a$' "$TMP/snap"

# Not a terminal: snapshots without asking.
snapshots_of "$TMP/plain" -d 0.5 -E 3 -p "$HP"
check "stdout not a terminal: snapshots" grep -q '^   PerfTop:' "$TMP/plain"
rows=$(awk '/^   PerfTop:/ { if (n > m) m = n; n = 0 } /^ +[0-9.]+%/ { n++ } END { if (n > m) m = n; print m }' "$TMP/plain")
check "-E 3: at most 3 rows a snapshot ($rows)" sh -c "[ $rows -ge 1 ] && [ $rows -le 3 ]"

# One thread.
snapshots_of "$TMP/t" --stdio -d 0.5 -t "$HP"
check "-t samples the thread (its heading says so, its rows are hot's)" \
	sh -c "grep -q '(thread $HP)' '$TMP/t' && grep -qE '%  hot +hot +\[\.\] hot_[ab]$' '$TMP/t' && ! grep -qE '%  (perfev|sh|tmux) ' '$TMP/t'"

# -K and -U, every CPU.
snapshots_of "$TMP/k" --stdio -K -d 0.7
snapshots_of "$TMP/u" --stdio -U -d 0.7
check "-K: no kernel rows" sh -c "grep -qE '^ +[0-9.]+%' '$TMP/k' && ! grep -q '\\[k\\]' '$TMP/k'"
check "-U: only kernel rows" sh -c "grep -q '\\[k\\]' '$TMP/u' && ! grep -qE '\\[\\.\\] ' '$TMP/u'"
kill -9 "$HP" 2>/dev/null

# A command of its own: snapshots until it ends, its exit status passed on.
"$PERFEV" top --stdio -d 0.5 -- "$HOT" 150 >"$TMP/cmd" 2>&1
st=$?
check "top -- COMMAND ends with the command (status $st)" test "$st" = 0
check "...and its snapshots show the command's hot_a" grep -qE '%  hot +hot +\[\.\] hot_a$' "$TMP/cmd"
