#!/bin/sh
# perfev as most users run it: not root, at the default kernel.perf_event_paranoid (2).
# A throwaway user is created, the level set to 2 for the test and put back after, even
# when the test fails (trap).  stat and record fall back to user space (':u') with one
# note, as perf does; the recording is reported and scripted by that user; CPU-wide,
# kernel-only, another user's process and tracepoints fail with hints that hold here.
. "$(dirname "$0")/lib.sh"

if [ "$(id -u)" != 0 ]; then
	skip "perfev as an unprivileged user" "creating a user and setting perf_event_paranoid need root"
	exit 0
fi
if command -v runuser >/dev/null; then
	as_user() { runuser -u "$USR" -- env HOME="$UHOME" PATH=/usr/bin:/bin "$@"; }
elif command -v setpriv >/dev/null; then
	as_user() {
		setpriv --reuid="$USR" --regid="$USR" --init-groups -- env HOME="$UHOME" PATH=/usr/bin:/bin "$@"
	}
else
	not_ok "runuser or setpriv (util-linux) is here to run as another user"
	exit 1
fi

PARANOID=/proc/sys/kernel/perf_event_paranoid
OLD_PARANOID=$(cat $PARANOID)
USR=pevt$$
cleanup() {
	echo "$OLD_PARANOID" >$PARANOID
	userdel "$USR" 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
if ! useradd -M -N -s /bin/sh "$USR" 2>"$TMP/err"; then
	not_ok "a throwaway user can be created" "$(cat "$TMP/err")"
	exit 1
fi
echo 2 >$PARANOID
check "kernel.perf_event_paranoid is 2 for the test" [ "$(cat $PARANOID)" = 2 ]

# The user's own copies: the build may sit where other users cannot look (/root).
chmod 755 "$TMP"
UHOME=$TMP/home
mkdir -p "$UHOME" "$TMP/bin"
cp "$PERFEV" "$HELPERS/hot" "$TMP/bin/"
chown -R "$USR" "$UHOME"
chmod 755 "$TMP/bin" "$TMP/bin/perfev" "$TMP/bin/hot"
P=$TMP/bin/perfev
cd "$UHOME" || exit 1

# Hints must hold here: none of these may appear together.
no_false_hints() { # FILE
	! grep -q "tracefs is not mounted" "$1" || ! grep -q tracefs /proc/mounts
}

# --- stat: user space only, said once
as_user "$P" stat -e task-clock,page-faults -- "$TMP/bin/hot" 10 >out 2>err
st=$?
check "stat as a user counts (status $st)" [ $st = 0 ]
check "stat notes the fall-back to user space once" [ "$(grep -c 'measure only user space' err)" = 1 ]
check "stat shows the counts as ':u', as perf does" grep -q "page-faults:u" err
check "the note names the sysctl and CAP_PERFMON" \
	sh -c "grep 'measure only user space' err | grep -q 'kernel.perf_event_paranoid=1' &&
	       grep 'measure only user space' err | grep -q CAP_PERFMON"
as_user "$P" stat -- true >out 2>err
check "stat's default events as a user (status $?)" grep -q "task-clock:u" err

# --- record, report and script of the result, all as the user
as_user "$P" record -o u.data -- "$TMP/bin/hot" 50 >out 2>err
st=$?
check "record as a user (status $st) writes u.data" sh -c "[ $st = 0 ] && [ -s u.data ]"
check "record notes the fall-back once" [ "$(grep -c 'measure only user space' err)" = 1 ]
check "record says nothing of hidden kernel addresses: nothing samples the kernel" \
	sh -c "! grep -q 'kernel addresses' err"
as_user "$P" report --stdio --no-children --sort sym -g none -i u.data >rep 2>err
st=$?
top=$(awk '!/^#/ && /%/ { print $NF; exit }' rep)
check "report of the user's recording as the user: hot_a on top ($top)" \
	sh -c "[ $st = 0 ] && [ '$top' = hot_a ]"
check "the report names the event as recorded, cpu-clock:u" grep -q "event 'cpu-clock:u'" rep
as_user "$P" script -i u.data >scr 2>err
check "script of the user's recording as the user (status $?)" grep -q "hot_a" scr
if have_perf; then
	as_user perf report --stdio --sort sym -i u.data >prep 2>/dev/null
	check "perf reads the user's recording too" grep -q hot_a prep
fi

# --- what a user may not do: refused, with only true ways out
refused() { # DESC MUST-MATCH MUST-NOT-MATCH ARGS...
	desc=$1 must=$2 mustnot=$3
	shift 3
	as_user "$P" "$@" >out 2>err
	st=$?
	if [ $st = 1 ] && grep -q -- "$must" err && ! grep -q -- "$mustnot" err && no_false_hints err; then
		ok "$desc: refused, explained"
	else
		not_ok "$desc: refused, explained (wants '$must', not '$mustnot')" "status $st" "$(cat err)"
	fi
}
refused "stat -a" "kernel.perf_event_paranoid=0" ":u" stat -a -- true
check "stat -a names CAP_PERFMON" grep -q CAP_PERFMON err
refused "record -a" "kernel.perf_event_paranoid=0" ":u" record -a -o a.data -- true
refused "stat -C 0" "kernel.perf_event_paranoid=0" ":u" stat -C 0 -- true
refused "stat -e cpu-clock:k (the kernel only)" "counts only the kernel" "add ':u'" \
	stat -e cpu-clock:k -- true
check "the kernel-only refusal names the sysctl and CAP_PERFMON" \
	sh -c "grep -q 'kernel.perf_event_paranoid=1' err && grep -q CAP_PERFMON err"
refused "record -e cpu-clock:k" "counts only the kernel" "add ':u'" record -e cpu-clock:k -o k.data -- true
refused "stat -p 1 (another user's process)" "belongs to another user" ":u" stat -p 1
check "record's failures left no file behind" sh -c "[ ! -e a.data ] && [ ! -e k.data ] && ! ls | grep -q tmp"
if have_tracefs; then
	# tracefs here: unreadable to users (its default mode, 0700) or readable.
	as_user "$P" stat -e syscalls:sys_enter_getppid -- true >out 2>err
	st=$?
	if as_user test -r /sys/kernel/tracing/events/syscalls/sys_enter_getppid/id; then
		check "a tracepoint: refused (it fires in the kernel), no ':u' advice" \
			sh -c "[ $st = 1 ] && grep -q 'fires in the kernel' err && ! grep -q \"add ':u'\" err"
	else
		check "a tracepoint with tracefs closed to users: says so, not 'not mounted'" \
			sh -c "[ $st = 1 ] && grep -q 'may not read it' err && ! grep -q 'not mounted' err"
	fi
fi

# --- hidden kernel addresses, explained by what hides them here
"$PERFEV" record -q -o "$TMP/root.data" -- "$TMP/bin/hot" 20 >/dev/null 2>&1
chmod 644 "$TMP/root.data"
as_user "$P" report -v --stdio -i "$TMP/root.data" >out 2>err
k=$(cat /proc/sys/kernel/kptr_restrict)
if grep -q "addresses read as 0" err; then
	check "the user's report explains hidden kernel addresses by kptr_restrict $k, truly" \
		sh -c "grep -q 'kernel.kptr_restrict is $k' err && ! grep -q 'kptr_restrict=$k' err"
else
	skip "the user's report explains hidden kernel addresses" "this user sees kernel addresses here"
fi

# --- the level is put back afterwards (by cleanup, also on failure)
cd / && cleanup
check "kernel.perf_event_paranoid is back to $OLD_PARANOID" [ "$(cat $PARANOID)" = "$OLD_PARANOID" ]
check "the throwaway user is gone" sh -c "! id '$USR' >/dev/null 2>&1"
trap - EXIT
