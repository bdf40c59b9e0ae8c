#!/bin/sh
# Every subcommand's options as --help, its man page and bash completion name them: the same
# options, taking a value or not alike (--help and completion come from the option tables, the
# man pages are written by hand); the usage errors the tables make; completion at work.
. "$(dirname "$0")/lib.sh"

"$PERFEV" completion bash >"$TMP/comp.bash"
check "'perfev completion bash' exits 0" [ $? = 0 ]
check "the completion script is valid bash" bash -n "$TMP/comp.bash"
# comp FUNCTION ARGS...: runs a function of the completion script
comp() { bash -c '. "$0"; "$@"' "$TMP/comp.bash" "$@"; }
# complete LINE: what completion offers for LINE with the cursor at its end, one per line
complete_line() {
	bash -c '. "$0"; COMP_LINE=$1; COMP_POINT=${#COMP_LINE}; _perfev; printf "%s\n" "${COMPREPLY[@]}"' \
		"$TMP/comp.bash" "$PERFEV $1"
}

# Options as "NAME value" or "NAME flag" lines, sorted.
# --help: option lines begin at column 5 ("    -e, --event EVENTS  ...") or 9 ("        --json").
help_opts() {
	awk '/^    -[^-]|^        --/ {
		sub(/^ +/, ""); sub(/  .*/, ""); gsub(/,/, "")
		kind = "flag"; n = 0
		for (i = 1; i <= NF; i++) if ($i !~ /^-/) kind = "value"
		for (i = 1; i <= NF; i++) if ($i ~ /^-/) {
			if (sub(/\(s\)$/, "", $i)) print $i "s", kind
			print $i, kind
		}
	}' "$1" | sort
}
# The man page: the tag line after each .TP of the OPTIONS section.
man_opts() {
	sed 's/\\-/-/g; s/\\f[BIRP]//g' "$1" | awk '
		/^\.SH/ { on = $2 == "OPTIONS"; next }
		on && /^\.TP/ { tag = 1; next }
		on && tag {
			tag = 0
			kind = ($0 ~ /=/ || $1 == ".BI") ? "value" : "flag"
			for (i = 2; i <= NF; i++) if ($i ~ /^--?[A-Za-z]/) { sub(/=.*/, "", $i); print $i, kind }
		}' | sort
}
comp_opts() {
	for o in $(comp _perfev_options "$1"); do
		if comp _perfev_value "$1" "$o" >/dev/null; then echo "$o value"; else echo "$o flag"; fi
	done | sort
}

# typo_of OPTS: "--NAME --TYPO" for a long option and a misspelling of it (two letters swapped)
# that starts no option's name
typo_of() {
	awk '{ name[NR] = substr($1, 3); long[NR] = $1 ~ /^--/ }
	END {
		for (i = 1; i <= NR; i++) {
			n = name[i]
			if (!long[i] || length(n) < 4 || n == "help")
				continue
			t = substr(n, 1, 1) substr(n, 3, 1) substr(n, 2, 1) substr(n, 4)
			bad = t == n
			for (j = 1; j <= NR; j++)
				if (long[j] && index(name[j], t) == 1)
					bad = 1
			if (!bad) {
				print "--" n, "--" t
				exit
			}
		}
	}' "$1"
}

cd "$TMP" || exit 1 # a mistaken command line records into perf.data here, not in the tree
"$PERFEV" --help >"$TMP/top"
cmds=$(awk '/^commands:/ { on = 1; next } on && /^   [a-z]/ { print $1 }' "$TMP/top")
check "completion offers the commands 'perfev --help' lists" \
	[ "$(comp eval 'echo $_perfev_commands')" = "$(echo $cmds)" ]
for c in $cmds; do
	"$PERFEV" $c --help >"$TMP/h" 2>"$TMP/err"
	st=$?
	check "$c --help exits 0 with its usage" sh -c "[ $st = 0 ] && [ ! -s '$TMP/err' ] && head -n 1 '$TMP/h' | grep -q '^usage: perfev $c '"
	"$PERFEV" help $c >"$TMP/h2"
	check "'perfev help $c' is 'perfev $c --help'" cmp -s "$TMP/h" "$TMP/h2"
	check "$c --help fits in 80 columns" sh -c "! awk 'length(\$0) > 80 { bad = 1 } END { exit !bad }' '$TMP/h'"

	help_opts "$TMP/h" >"$TMP/help.opts"
	man_opts "$ROOT_DIR/docs/perfev-$c.1" >"$TMP/man.opts"
	comp_opts $c >"$TMP/comp.opts"
	if [ -s "$TMP/help.opts" ] && diff "$TMP/help.opts" "$TMP/man.opts" >"$TMP/d"; then
		ok "$c: perfev-$c.1 documents the options of --help, and no others ($(wc -l <"$TMP/help.opts") names)"
	else
		not_ok "$c: perfev-$c.1 documents the options of --help, and no others" "< --help, > man" "$(cat "$TMP/d")"
	fi
	if diff "$TMP/help.opts" "$TMP/comp.opts" >"$TMP/d"; then
		ok "$c: completion offers the options of --help, with values alike"
	else
		not_ok "$c: completion offers the options of --help, with values alike" "< --help, > completion" "$(cat "$TMP/d")"
	fi
	# The synopsis names only options there are.
	bad=""
	for o in $(sed -n '1,/^$/p' "$TMP/h" | grep -oE -- '(^| |\[)--?[a-zA-Z][a-z0-9-]*' | tr -d ' ['); do
		grep -q -- "^$o " "$TMP/help.opts" || bad="$bad $o"
	done
	check "$c: the synopsis names only its options${bad:+ (not:$bad)}" [ -z "$bad" ]

	# Usage errors: exit 1 and say what to do.
	timeout 20 "$PERFEV" $c --no-such-option 2>"$TMP/err" >/dev/null
	st=$?
	check "$c: an unknown option exits 1 and points to --help" sh -c "[ $st = 1 ] && [ \"\$(cat '$TMP/err')\" = \"perfev $c: error: unknown option '--no-such-option'; see 'perfev $c --help'\" ]"
	set -- $(typo_of "$TMP/help.opts")
	if [ $# = 2 ]; then
		long=$1 typo=$2
		timeout 20 "$PERFEV" $c "$typo" 2>"$TMP/err" >/dev/null
		st=$?
		check "$c: a near miss ($typo) exits 1 and suggests $long" sh -c "[ $st = 1 ] && grep -q \"unknown option '$typo'; did you mean .*'$long'\" '$TMP/err'"
	fi
	# (an option whose value is optional, "-g [MODE]", takes its default instead)
	val=$(awk '$2 == "value" { print $1 }' "$TMP/help.opts" | while read -r o; do
		grep -qE -- "(^| )$o(, --[a-z-]+)? \[" "$TMP/h" || { echo "$o"; break; }
	done)
	if [ -n "$val" ]; then
		timeout 20 "$PERFEV" $c "$val" 2>"$TMP/err" >/dev/null
		st=$?
		check "$c: $val without its value exits 1 and says so" sh -c "[ $st = 1 ] && grep -q \"perfev $c: error: option -.* needs a value; see 'perfev $c --help'\" '$TMP/err'"
	fi
	flag=$(awk '$2 == "flag" && $1 ~ /^--/ { print $1; exit }' "$TMP/help.opts")
	timeout 20 "$PERFEV" $c "$flag=1" 2>"$TMP/err" >/dev/null
	st=$?
	check "$c: $flag=1 exits 1: it takes no value" sh -c "[ $st = 1 ] && grep -q \"option $flag takes no value\" '$TMP/err'"
done

"$PERFEV" help nosuch 2>"$TMP/err"
st=$?
check "'perfev help nosuch' names nosuch as not a command" sh -c "[ $st = 1 ] && [ \"\$(cat '$TMP/err')\" = \"perfev: error: 'nosuch' is not a perfev command; see 'perfev --help'\" ]"
# perf's -v; a misspelt command is answered with the names it is near, a prefix with none
v=$("$PERFEV" -v)
check "perfev -v prints the version, as --version ($v)" sh -c "[ '$v' = \"\$('$PERFEV' --version)\" ] && echo '$v' | grep -qE '^perfev [0-9]+\.[0-9]+'"
for typo in stta:stat reprot:report scirpt:script annotat:annotate flamegrapj:flamegraph lsit:list; do
	"$PERFEV" ${typo%:*} 2>"$TMP/err" >/dev/null
	st=$?
	check "'perfev ${typo%:*}' exits 1 and asks 'did you mean '${typo#*:}'?'" sh -c "[ $st = 1 ] && [ \"\$(cat '$TMP/err')\" = \"perfev: error: '${typo%:*}' is not a perfev command; did you mean '${typo#*:}'?\" ]"
done
"$PERFEV" help reprot 2>"$TMP/err"
check "'perfev help reprot' asks 'did you mean 'report'?'" grep -q "did you mean 'report'?" "$TMP/err"
"$PERFEV" rep 2>"$TMP/err" >/dev/null
st=$?
check "'perfev rep' is no command and suggests none: names are exact, never prefixes" \
	sh -c "[ $st = 1 ] && [ \"\$(cat '$TMP/err')\" = \"perfev: error: 'rep' is not a perfev command; see 'perfev --help'\" ]"
"$PERFEV" report --c 2>"$TMP/err"
check "an ambiguous prefix lists what it could be" grep -q "option '--c' is ambiguous: '--children', '--call-graph' or '--comm'" "$TMP/err"
"$PERFEV" list -json 2>"$TMP/err"
check "a long option given one dash is pointed out" grep -q "unknown option '-j'; did you mean '--json'?" "$TMP/err"
"$PERFEV" stat --js -e nosuch-event -- true >"$TMP/out" 2>&1
check "errors are JSON with a prefix of --json too" sh -c "jq -e .error '$TMP/out' >/dev/null"

# --- completion at work
want() { # DESC LINE EXPECTED: completing LINE offers EXPECTED (among others)
	complete_line "$2" >"$TMP/c"
	if grep -qxF -- "$3" "$TMP/c"; then ok "completes $1"; else not_ok "completes $1" "'$2' gave: $(tr '\n' ' ' <"$TMP/c")"; fi
}
want "a command" "st" stat
want "a long option" "stat --ev" --event
want "an event name" "stat -e page-f" page-faults
want "the last event of a list" "record -e task-clock,page-f" task-clock,page-faults
want "an event after --event=" "stat --event=cpu-cl" cpu-clock
if have_tracefs; then
	want "a tracepoint after its colon" "stat -e sched:sched_swi" sched_switch
else
	skip "completes a tracepoint after its colon" "tracefs is not mounted"
fi
want "a sort key" "report --sort co" comm
want "the last sort key of a list" "report -s comm,sy" comm,sym
want "a field after script -F's +" "script -F +symo" +symoff
want "a call-graph mode" "record --call-graph=dw" dwarf
want "a kind of perfev list" "list tracep" tracepoint
want "the command to run" "stat -e task-clock -- tru" true
want "a command for help" "help rep" report
want "a new option of stat" "stat --per-so" --per-socket
want "report's -G" "report -" -G
want "-v at the start" "-" -v
complete_line "stat -e task-clock true --ev" >"$TMP/c"
check "the command's own options are left alone" sh -c "! grep -q -- --event '$TMP/c'"
complete_line "stat -e " >"$TMP/c"
check "an option's value is not completed as an option" sh -c "! grep -q -- '^-' '$TMP/c' && grep -qx task-clock '$TMP/c'"

# --- the words completion offers are values the commands take
# (the command then fails later, on a file that is not there)
for c in $cmds; do
	prev=""
	for o in $(comp _perfev_options $c); do
		v=$(comp _perfev_value $c "$o")
		[ "$v" = "$prev" ] && continue # the long name of the option just checked
		prev=$v
		set -- $v
		case $1 in word | words) shift ;; *) continue ;; esac
		case $c in
		report | script) rest="-i $TMP/none.data" ;;
		record) rest="-o $TMP/no/such/dir/x.data -- true" ;;
		*) rest="" ;;
		esac
		for w in "$@"; do
			timeout 20 "$PERFEV" $c $o $w $rest >/dev/null 2>"$TMP/err"
			check "$c $o takes '$w', which completion offers" sh -c "! grep -q \"'$w'\" '$TMP/err'"
		done
	done
done
for w in $(comp _perfev_operands list | cut -d' ' -f2-); do
	if [ "$w" = tracepoint ] && ! have_tracefs; then
		skip "perfev list takes the kind '$w', which completion offers" "tracefs is not mounted"
		continue
	fi
	"$PERFEV" list --all --json "$w" >"$TMP/l"
	if [ "$w" = vendor ] && [ ! -s "$TMP/l" ]; then
		# libpfm4 names a CPU's own events only for the CPUs it knows.
		cpu=$(awk -F': ' '/^cpu family/ { f = $2 } /^model\t/ { m = $2 } END { print "family " f ", model " m }' /proc/cpuinfo)
		skip "perfev list takes the kind 'vendor', which completion offers" \
			"libpfm4 knows no PMU of this CPU ($cpu): no vendor events to list"
		continue
	fi
	check "perfev list takes the kind '$w', which completion offers" \
		sh -c "jq -e -s 'length > 0 and all(.kind == \"$w\")' '$TMP/l' >/dev/null"
done
