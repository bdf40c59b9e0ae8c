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
