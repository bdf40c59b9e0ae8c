#!/bin/sh
# Nothing lost, numbers right, every failure said: failing command lines leave the user's
# files as they were, every output checks its writes, a killed perfev leaves no command
# behind, lost samples are counted as perf counts them, and messages name options, not
# library fields.
. "$(dirname "$0")/lib.sh"

HOT="$HELPERS/hot"
cd "$TMP" || exit 1

# --- record: nothing is touched before recording really starts
printf 'the previous recording\n' >perf.data
printf 'the one before\n' >perf.data.old
cp perf.data want.data
cp perf.data.old want.old
mkdir adir
mkfifo afifo
untouched() {
	desc=$1
	shift
	"$PERFEV" record "$@" >out 2>err
	st=$?
	if [ $st != 0 ] && cmp -s perf.data want.data && cmp -s perf.data.old want.old &&
		[ -z "$(ls | grep -E '\.tmp\.')" ] && [ -s err ]; then
		ok "record $desc: fails (status $st), says why, both perf.data files as they were"
	else
		not_ok "record $desc: fails, says why, both perf.data files as they were" \
			"status $st; $(ls | tr '\n' ' ')" "$(cat err)"
	fi
}
untouched "-e nosuchevent" -e nosuchevent -- true
untouched "-e cpu-clok (a typo)" -e cpu-clok -- true
untouched "-e with a bad modifier" -e cpu-clock:zz -- true
untouched "of a command that does not exist" -- /nonexistent/perfev-cmd
untouched "of a pid that does not exist" -p 999999999
untouched "-C with a CPU that does not exist" -C 4095 -- true
untouched "with a bad -m" -m 3 -- true
untouched "with a bad --call-graph" --call-graph lbr -- true
untouched "-F 0" -F 0 -- true
"$PERFEV" record -o adir -- true 2>err
check "record -o DIRECTORY says it is a directory" grep -q "is a directory" err
"$PERFEV" record -o afifo -- true 2>err
check "record -o FIFO says to use -o -" grep -q "'-o -'" err
check "record -o FIFO names no library field" sh -c "! grep -qE 'opts\.|perfev_[a-z]' err"
"$PERFEV" record -q -- true 2>err
st=$?
check "a recording that starts keeps the previous perf.data as perf.data.old" \
	sh -c "[ $st = 0 ] && cmp -s perf.data.old want.data && [ -s perf.data ] && ! ls | grep -q '\.tmp\.'"
perf_data_mode=$(stat -c %a perf.data)
check "the new perf.data is the user's alone (mode $perf_data_mode), as perf makes it" [ "$perf_data_mode" = 600 ]

# -F above the kernel's limit: one note, whatever the events fall back to.
max=$(cat /proc/sys/kernel/perf_event_max_sample_rate)
"$PERFEV" record -F $((max + 1000)) -o f.data -- true 2>err
notes=$(grep -c "above the kernel's limit" err)
check "-F above the limit ($max) is noted once ($notes)" [ "$notes" = 1 ]

# --- stat: -o FILE only once counting begins
"$PERFEV" stat -e nosuchevent -o out.txt -- true 2>err
check "stat -e bad -o out.txt: fails and creates no out.txt" sh -c "[ ! -e out.txt ] && [ -s err ]"
echo "keep" >out.txt
"$PERFEV" stat -e nosuchevent -o out.txt -- true 2>/dev/null
"$PERFEV" stat -e task-clock -p 999999999 -o out.txt 2>/dev/null
check "stat that fails before counting leaves an existing out.txt as it was" \
	[ "$(cat out.txt)" = keep ]
"$PERFEV" stat -e task-clock -o out.txt -- true 2>/dev/null
check "stat -o out.txt writes the counts once counting began" grep -q task-clock out.txt

# --- every output checks its writes: a full disk is exit 1 and a message
full() {
	desc=$1
	shift
	"$@" >/dev/full 2>err
	st=$?
	if [ $st = 1 ] && grep -q "No space left on device; free some space" err; then
		ok "$desc: exit 1, says the disk is full and what to do"
	else
		not_ok "$desc: exit 1, says the disk is full and what to do" "status $st" "$(cat err)"
	fi
}
"$PERFEV" record -q -o hot.data -- "$HOT" 20 >/dev/null 2>&1
full "report --stdio > /dev/full" "$PERFEV" report --stdio -i hot.data
full "report -g folded > /dev/full" "$PERFEV" report -g folded -i hot.data
full "script > /dev/full" "$PERFEV" script -i hot.data
full "list > /dev/full" "$PERFEV" list
full "list --json > /dev/full" "$PERFEV" list --json
full "stat --help > /dev/full" "$PERFEV" stat --help
full "perfev --version > /dev/full" "$PERFEV" --version
for mode in "" "-x ," "--json" "-I 100" "-r 2" "-I 100 --json" "-I 100 -x ;"; do
	# shellcheck disable=SC2086 # the mode's words
	"$PERFEV" stat -e task-clock $mode -o /dev/full -- sleep 0.25 2>err
	st=$?
	check "stat ${mode:-(human)} -o /dev/full: exit 1, says the disk is full" \
		sh -c "[ $st = 1 ] && grep -q 'No space left on device' err"
done

# --- bad command lines are refused, explained
"$PERFEV" report -i hot.data --pid abc >/dev/null 2>err
check "report --pid abc is refused, explained" sh -c "[ $? = 1 ] && grep -q -- '--pid expects' err"
"$PERFEV" report -i hot.data --tid 12,x >/dev/null 2>err
check "report --tid 12,x is refused, explained" sh -c "[ $? = 1 ] && grep -q -- '--tid expects' err"
"$PERFEV" list bogusarg >/dev/null 2>err
check "list bogusarg: nothing matches, said" sh -c "[ $? = 0 ] && grep -q 'no event matches bogusarg' err"

# --- a killed perfev leaves no command running
# Ended: no such process, or a zombie its new parent has yet to reap.
ended() { ! kill -0 "$1" 2>/dev/null || [ "$(ps -o stat= -p "$1" | cut -c1)" = Z ]; }
for cmd in record stat; do
	if [ $cmd = record ]; then
		"$PERFEV" record -q -o k.data -- sleep 77 >/dev/null 2>&1 &
	else
		"$PERFEV" stat -- sleep 78 >/dev/null 2>&1 &
	fi
	pid=$!
	child=""
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		child=$(pgrep -P $pid sleep)
		[ -n "$child" ] && break
		sleep 0.1
	done
	kill -9 $pid
	wait $pid 2>/dev/null
	gone=no
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		if [ -n "$child" ] && ended "$child"; then
			gone=yes
			break
		fi
		sleep 0.1
	done
	[ $gone = no ] && [ -n "$child" ] && kill -9 "$child" 2>/dev/null
	check "SIGKILL of perfev $cmd takes its command (pid ${child:-none}) with it" [ $gone = yes ]
done

# --- lost samples, counted as perf counts them (files of perf and of perfev)
lossy() { python3 -c 'x = [bytearray(4096 * 1000) for i in range(150)]'; }
lost_line() { sed -n 's/^# Total Lost Samples: \([0-9]*\).*/\1/p' "$1" | head -n 1; }
if ! command -v python3 >/dev/null; then
	skip "lost samples as perf counts them" "python3 (the workload that overflows a ring) is missing"
else
	"$PERFEV" record -q -m 1 -e page-faults -c 1 -g -o lost.data -- \
		python3 -c 'x = [bytearray(4096 * 1000) for i in range(150)]' 2>/dev/null
	"$PERFEV" report -i lost.data >o 2>e
	ours=$(lost_line o)
	if [ "${ours:-0}" = 0 ]; then
		skip "perfev's own lossy file: perfev and perf agree on the lost samples" \
			"the ring did not overflow this time"
	elif have_perf; then
		perf report --stdio -i lost.data >p 2>/dev/null
		theirs=$(lost_line p)
		check "perfev's own lossy file: perfev and perf show the same lost samples ($ours, $theirs)" \
			[ "$ours" = "$theirs" ]
		check "the lost chunks are noted, as perf warns of them" grep -q "lost .* chunks" e
	fi
	if have_perf && perf record -q -m 1 -e page-faults -c 1 -g -o plost.data -- \
		python3 -c 'x = [bytearray(4096 * 1000) for i in range(150)]' >/dev/null 2>perr; then
		perf report --stdio -i plost.data >p 2>/dev/null
		"$PERFEV" report -i plost.data >o 2>/dev/null
		theirs=$(lost_line p) ours=$(lost_line o)
		check "perf's lossy file: perfev shows perf's lost samples ($ours, $theirs), counted once" \
			sh -c "[ -n '$theirs' ] && [ '$ours' = '$theirs' ]"
	else
		skip "perf's lossy file: perfev shows perf's lost samples" \
			"perf record failed here: $(grep -v '^$' perr 2>/dev/null | head -n 1)"
	fi
fi
