#!/bin/sh
# perfev report's terminal browser in a real terminal (tmux): it opens on a
# recording of a workload with known hot functions, its keys act (unfold a call
# graph, search, sort keys, children, thread, DSO, zoom, help), a resize redraws,
# and q, SIGTERM, SIGINT and a closed terminal each end it with the terminal
# given back as it was (stty -a before and after).  The captured screens are
# printed into the log.
. "$(dirname "$0")/lib.sh"
trap 'tui_stop; rm -rf "$TMP"' EXIT

if ! have_tmux; then
	not_ok "tmux is installed (scripts/setup.sh installs it)"
	exit 1
fi
"$PERFEV" record -q -g -o "$TMP/hot.data" -- "$HELPERS/hot" 150 >/dev/null
check "a recording with call graphs to browse" test -s "$TMP/hot.data"
show() { tui_screen | sed 's/^/    | /' | head -n "${1:-14}"; }

tui_start r "$PERFEV" report -i "$TMP/hot.data"
if tui_wait 30 'hot_a'; then ok "the browser opens on the table"; else not_ok "the browser opens on the table"; show 40; fi
show
tui_screen >"$TMP/screen"
check "its header names the event and the samples" grep -qE "^Samples: [0-9]+.? of event 'cpu-clock'" "$TMP/screen"
check "its columns are perf's: Children, Self, Command, Shared Object, Symbol" \
	grep -qE '^ +Children +Self +Command +Shared Object +Symbol' "$TMP/screen"
check "hot_a is above hot_b" awk '/hot_a/ { a = NR } /hot_b/ { b = NR } END { exit !(a && b && a < b) }' "$TMP/screen"

# Search for main (its row's symbol text is "[.] main"), unfold its callees: work, then hot_a.
tui send-keys /
tui send-keys -l '] main'
tui send-keys Enter
tui_wait 10 "^1 rows.*search '\] main'" && ok "/ searches" || not_ok "/ searches" "$(tui_screen | tail -1)"
tui send-keys Enter
if tui_wait 10 '^ +- [0-9.]+% work' && tui_wait 5 '^ +[+ ] [0-9.]+% hot_a'; then
	ok "Enter unfolds the call graph (main, work, then hot_a)"
else
	not_ok "Enter unfolds the call graph (main, work, then hot_a)"
fi
show 8
tui send-keys Left
tui_wait 10 '^\+ +[0-9.]+% +[0-9.]+% +hot +hot +\[\.\] main' && ! tui_screen | grep -q '% work$' &&
	ok "Left folds it" || not_ok "Left folds it"
tui send-keys / BSpace BSpace BSpace BSpace BSpace BSpace h o t _ b Enter
tui_wait 10 "^1 rows.*search 'hot_b'" && ok "a new search replaces the old" || not_ok "a new search replaces the old" "$(tui_screen | tail -1)"
tui send-keys / BSpace BSpace BSpace BSpace BSpace Enter
tui_wait 10 'hot_a' && ok "an empty search shows every row again" || not_ok "an empty search shows every row again"
tui send-keys c
tui_wait 10 '^ +Overhead +Command' && ok "c turns children off (one weight column)" || not_ok "c turns children off"
tui send-keys s
tui_wait 10 'sorted by sym\.' && tui_wait 2 '^ +Overhead +Symbol *$' && ok "s goes to the next sort keys (sym)" ||
	not_ok "s goes to the next sort keys (sym)" "$(tui_screen | sed -n 2p)" "$(tui_screen | tail -1)"
tui send-keys c Home
tui_wait 10 '^ +Children +Self +Symbol' || not_ok "c turns children on again"
# main is the first row (with hot's frames above hot_a); zoom into it: only its callees.
tui send-keys / h o t _ a Enter Home z / BSpace BSpace BSpace BSpace BSpace Enter
if tui_wait 10 'zoom hot_a' && ! tui_screen | grep -q '\] main$'; then
	ok "z zooms into a function (main, its caller, is gone)"
else
	not_ok "z zooms into a function (main, its caller, is gone)" "$(tui_screen | tail -1)"
fi
show 6
tui send-keys z
tui_wait 10 '\] main$' && ok "z again zooms out" || not_ok "z again zooms out"
tui send-keys / h o t _ a Enter Home d / BSpace BSpace BSpace BSpace BSpace Enter
if tui_wait 10 'only DSO hot' && ! tui_screen | grep -q 'kallsyms\|\[k\]'; then
	ok "d keeps the line's DSO only"
else
	not_ok "d keeps the line's DSO only" "$(tui_screen | tail -1)"
fi
tui send-keys d t
tui_wait 10 'only command hot' && ok "t keeps the line's thread (its command)" || not_ok "t keeps the line's thread" "$(tui_screen | tail -1)"
tui send-keys t '?'
tui_wait 10 "perfev's browser: keys" && ok "? shows the keys" || not_ok "? shows the keys"
tui send-keys x
tui_wait 10 'hot_a' && ok "any key closes the help" || not_ok "any key closes the help"
tui resize-window -x 90 -y 20
sleep 1
w=$(tui_screen | awk '{ if (length($0) > m) m = length($0) } END { print m }')
tui_wait 10 'hot_a' && [ "$w" -le 90 ] && ok "a resize redraws to the new size ($w columns)" ||
	not_ok "a resize redraws to the new size" "widest line $w"
tui send-keys q
if tui_gone r 10 && [ "$(cat "$TMP/r.status")" = 0 ]; then ok "q quits with status 0"; else not_ok "q quits with status 0"; fi
check "after q the terminal is as before (stty -a)" tui_sane r

for sn in TERM:15 INT:2 HUP:1; do
	sig=${sn%:*}
	tui_start "s$sig" "$PERFEV" report -i "$TMP/hot.data"
	tui_wait 30 'hot_a' || not_ok "the browser opens (for SIG$sig)"
	kill -s "$sig" "$(cat "$TMP/s$sig.pid")"
	want=$((128 + ${sn#*:}))
	if tui_gone "s$sig" 10 && [ "$(cat "$TMP/s$sig.status")" = "$want" ]; then
		ok "SIG$sig ends it (status $want)"
	else
		not_ok "SIG$sig ends it (status $want)" "status $(cat "$TMP/s$sig.status" 2>/dev/null)"
	fi
	check "after SIG$sig the terminal is as before (stty -a)" tui_sane "s$sig"
done

# A terminal that goes away: its window is killed under the browser.
tui_start gone "$PERFEV" report -i "$TMP/hot.data"
tui_wait 30 'hot_a'
pid=$(cat "$TMP/gone.pid")
tui kill-server
i=0
while kill -0 "$pid" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.2; i=$((i + 1)); done
if kill -0 "$pid" 2>/dev/null; then
	not_ok "a closed terminal ends the browser"
	kill -9 "$pid"
else
	ok "a closed terminal ends the browser"
fi

# Not on a terminal: today's text, and --tui refuses to guess.
"$PERFEV" report -i "$TMP/hot.data" >"$TMP/text" 2>&1
check "stdout not a terminal: the text report" grep -q '^# Children' "$TMP/text"
"$PERFEV" report --tui -i "$TMP/hot.data" >"$TMP/text" 2>"$TMP/err"
st=$?
check "--tui without a terminal exits 1 and says to use --stdio" \
	sh -c "[ $st = 1 ] && grep -q 'needs a terminal.*--stdio' '$TMP/err'"
tui_start stdio "$PERFEV" report --stdio -i "$TMP/hot.data"
if tui_gone stdio 30 && [ "$(cat "$TMP/stdio.status")" = 0 ] && tui_screen | grep -qE '^ +[0-9.]+% +[0-9.]+% +hot ' &&
	! tui_screen | grep -q "Press '?'"; then
	ok "--stdio on a terminal: the text report"
else
	not_ok "--stdio on a terminal: the text report"
fi
