# Shared by the CLI test scripts: TAP-like lines the runner counts.
#   ok N - what          a pass
#   not ok N - what      a failure (details follow, indented)
#   ok N - what # SKIP why
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $1"; shift; for l in "$@"; do echo "    $l"; done; }
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }
# check DESC CONDITION-COMMAND...: runs the command; ok when it succeeds.
check() { d=$1; shift; if "$@"; then ok "$d"; else not_ok "$d" "failed: $*"; fi; }

: "${PERFEV:?run through tests/run.sh}"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
have_perf() { command -v perf >/dev/null 2>&1 && perf stat -e task-clock true >/dev/null 2>&1; }
have_tracefs() { [ -e /sys/kernel/tracing/events/syscalls/sys_enter_getppid/id ]; }
# The build-id cache (perf's and ours) of this test only, never the user's ~/.debug:
# perfev finds it through PERFEV_BUILDID_DIR, perf through its configuration.
export PERFEV_BUILDID_DIR="$TMP/buildid-cache"
printf '[buildid]\n\tdir = %s\n' "$PERFEV_BUILDID_DIR" >"$TMP/perfconfig"
export PERF_CONFIG="$TMP/perfconfig"
# perfev's cache of parsed symbol tables: this test's own too.
export PERFEV_CACHE_DIR="$TMP/perfev-cache"

# A real terminal for the browser's tests: tmux on a socket of this test's own
# (tests run side by side), a pane of 150x40 running a shell script that notes
# the terminal's settings (stty -a) before and after the command, its exit status,
# and the command's pid.  tui_start NAME COMMAND...: the command runs in the pane.
have_tmux() { command -v tmux >/dev/null 2>&1; }
TUI_SOCK=
tui() { tmux -L "$TUI_SOCK" "$@"; }
tui_start() {
	name=$1
	shift
	rm -f "$TMP/$name.before" "$TMP/$name.after" "$TMP/$name.status" "$TMP/$name.pid"
	cat >"$TMP/$name.sh" <<EOS
stty -a >'$TMP/$name.before'
sh -c 'echo \$\$ >"$TMP/$name.pid"; exec "\$@"' sh $*
echo \$? >'$TMP/$name.status'
stty -a >'$TMP/$name.after'
sleep 600
EOS
	[ -n "$TUI_SOCK" ] && tui kill-server 2>/dev/null
	# A server of its own: a killed one may linger a moment on its socket.
	TUI_SOCK=perfev-test-$$-$name
	tui new-session -d -x 150 -y 40 "sh '$TMP/$name.sh'"
}
tui_screen() { tui capture-pane -p; }
# tui_wait SECONDS PATTERN: until the screen shows the pattern (grep -E); false when it never did.
tui_wait() {
	end=$(($(date +%s) + $1))
	while [ "$(date +%s)" -le "$end" ]; do
		tui_screen | grep -qE -- "$2" && return 0
		sleep 0.2
	done
	return 1
}
# tui_gone NAME SECONDS: until the command has ended (its status written).
tui_gone() {
	end=$(($(date +%s) + $2))
	while [ "$(date +%s)" -le "$end" ]; do
		[ -s "$TMP/$1.after" ] && return 0
		sleep 0.2
	done
	return 1
}
# tui_sane NAME: the terminal's settings after the command are those before it (its size aside).
tui_sane() {
	[ -s "$TMP/$1.before" ] && [ -s "$TMP/$1.after" ] || return 1
	for f in before after; do
		sed 's/rows [0-9]*; columns [0-9]*;//' "$TMP/$1.$f" >"$TMP/$1.$f.cmp"
	done
	cmp -s "$TMP/$1.before.cmp" "$TMP/$1.after.cmp"
}
tui_stop() { [ -z "$TUI_SOCK" ] || tui kill-server 2>/dev/null; }
