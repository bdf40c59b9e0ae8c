#!/bin/sh
# perfev list: the catalogue by kind, filters, JSON, and --help in sync with the man page.
. "$(dirname "$0")/lib.sh"

"$PERFEV" list >"$TMP/all" 2>"$TMP/err"
check "perfev list exits 0" [ $? = 0 ]
check "lists software events with descriptions" grep -qE '^  cpu-clock +[A-Za-z]' "$TMP/all"
check "lists the msr PMU's tsc alias" grep -q '^  msr/tsc/' "$TMP/all"
if have_tracefs; then
	check "lists tracepoints" grep -q '^  sched:sched_switch' "$TMP/all"
else
	skip "lists tracepoints" "tracefs is not mounted"
fi
check "groups events under kind headings" grep -q '^Software events:' "$TMP/all"
# Every listed hardware/software/cache event opens here (list test-opens them).
for ev in $(awk '/^(Hardware events|Software events|Hardware cache events):/ { on = 1; next } /^[A-Z]/ { on = 0 } on && /^  / { print $1 }' "$TMP/all"); do
	"$PERFEV" stat -x, -e "$ev" -- true 2>"$TMP/one" || { not_ok "listed event $ev can be counted" "$(cat "$TMP/one")"; continue; }
	grep -q 'not supported' "$TMP/one" && { not_ok "listed event $ev can be counted" "$(cat "$TMP/one")"; continue; }
	ok "listed event $ev can be counted"
done

"$PERFEV" list sw >"$TMP/sw"
check "'list sw' shows only software events" sh -c "! grep -q '^[A-Z]' '$TMP/sw' || [ \"\$(grep '^[A-Z]' '$TMP/sw')\" = 'Software events:' ]"
"$PERFEV" list fault >"$TMP/f"
check "a filter keeps matching names only" sh -c "grep -q 'page-faults' '$TMP/f' && ! grep -q 'cpu-clock' '$TMP/f'"
"$PERFEV" list 'cpu-*' >"$TMP/g"
check "a glob filter matches" sh -c "grep -q 'cpu-clock' '$TMP/g' && grep -q 'cpu-migrations' '$TMP/g' && ! grep -q 'task-clock' '$TMP/g'"
"$PERFEV" list --json sw >"$TMP/j"
check "--json gives one valid object per line" sh -c "jq -e -s 'length > 5 and all(.kind == \"sw\")' '$TMP/j' >/dev/null"
"$PERFEV" list --all hw >"$TMP/hw"
check "--all lists hardware events even without a PMU" grep -q '^  cycles' "$TMP/hw"
"$PERFEV" list --bogus 2>"$TMP/err"
check "an unknown option exits 1 with an error" sh -c "[ $? = 1 ] && grep -q 'unknown option' '$TMP/err'"

"$PERFEV" list --help >"$TMP/h"
sed 's/\\-/-/g' "$ROOT_DIR/docs/perfev-list.1" >"$TMP/man"
for opt in $(grep -oE -- '--[a-z-]+' "$TMP/h" | sort -u); do
	check "perfev-list.1 documents $opt" grep -q -- "$opt" "$TMP/man"
done
"$PERFEV" help list >"$TMP/h2"
check "'perfev help list' is 'perfev list --help'" cmp -s "$TMP/h" "$TMP/h2"
"$PERFEV" --help >"$TMP/top"
sed 's/\\-/-/g' "$ROOT_DIR/docs/perfev.1" >"$TMP/man1"
for c in $(awk '/^commands:/ { on = 1; next } on && /^   [a-z]/ { print $1 }' "$TMP/top"); do
	check "perfev.1 and perfev-$c.1 document the '$c' command" sh -c "grep -q '^.B $c' '$TMP/man1' && [ -f '$ROOT_DIR/docs/perfev-$c.1' ]"
done
