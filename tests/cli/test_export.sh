#!/bin/sh
# perfev export against the real consumers of each format, on recordings made
# by perfev and by perf (frame pointers, --call-graph dwarf, two events, three
# threads, C++ with inlines, kernel frames): go tool pprof reads every pprof
# file and its flat and cumulative shares agree with perfev report's
# --no-children and --children within 0.1 points, totals equal; speedscope
# files validate against the schema the speedscope package ships (ajv);
# folded stacks equal a collapse of perfev script written here; JSON is JSON
# with report's totals.  Then names holding invalid UTF-8, quotes, <, & and
# control bytes, empty profiles, and errors.
. "$(dirname "$0")/lib.sh"

JS=$ROOT_DIR/tests/js
H=$HELPERS
# The peers are installed by scripts/setup.sh: missing, the test fails (a machine without them is broken).
for tool in go node xmllint iconv jq; do
	command -v $tool >/dev/null 2>&1 || not_ok "$tool is installed (scripts/setup.sh installs it)"
done
[ -d "$JS/node_modules/ajv" ] || not_ok "tests/js has its npm packages (scripts/setup.sh runs npm ci there)"
export GOFLAGS=-mod=mod GOCACHE="$TMP/gocache" HOME="$TMP"

# --- recordings
rec() { # NAME RECORDER OPTIONS... -- COMMAND...
	rn=$1 who=$2
	shift 2
	if [ "$who" = perf ]; then
		have_perf || { skip "perf records $rn" "Linux perf is not usable here"; return 1; }
		# --no-buildid: perf 6.1 aborts in its build-id processing on some machines (util/build-id.c:1010).
		perf record -q --no-buildid -o "$TMP/$rn.data" "$@" >/dev/null 2>"$TMP/$rn.rec.err"
	else
		"$PERFEV" record -q -o "$TMP/$rn.data" "$@" >/dev/null 2>"$TMP/$rn.rec.err"
	fi
	if [ -s "$TMP/$rn.data" ]; then return 0; fi
	not_ok "$who records $rn" "$(tail -n 3 "$TMP/$rn.rec.err")"
	return 1
}
FILES=""
rec v_fp perfev -g -- "$H/hot" 60 && FILES="$FILES v_fp"
rec p_fp perf -g -- "$H/hot" 60 && FILES="$FILES p_fp"
rec v_dw perfev --call-graph dwarf -F 1000 -- "$H/hot" 60 && FILES="$FILES v_dw"
rec p_dw perf --call-graph dwarf -F 1000 -- "$H/hot" 60 && FILES="$FILES p_dw"
rec v_two perfev -g -e cpu-clock,task-clock -- "$H/hot" 60 && FILES="$FILES v_two"
rec v_thr perfev -g -- "$H/threads" 200 && FILES="$FILES v_thr"
rec p_thr perf -g -- "$H/threads" 200 && FILES="$FILES p_thr"
rec v_cxx perfev --call-graph dwarf -F 2000 -- "$H/inline_cxx" 300 && FILES="$FILES v_cxx"
rec v_kern perfev -g -- "$H/getppid_loop" 3000000 && FILES="$FILES v_kern"

# --- pprof: go tool pprof reads it, and its shares are perfev report's
# Names as both tools show them: perf report marks inlined functions " (inlined)", pprof " (inline)",
# and pprof drops C++ template arguments.
same_names() { sed 's/ (inlined*)\t/\t/; s/<[^<>\t]*>//g'; }
# Functions of one name in two files (_start of the program and of ld.so) are two rows of report
# and one function of pprof: only names that are one row are compared.
unique_names() { awk -F'\t' '{ n[$1]++; l[NR] = $0; k[NR] = $1 } END { for (i = 1; i <= NR; i++) if (n[k[i]] == 1) print l[i] }'; }
# report_shares FILE OPTS: "sym<TAB>percent" of perfev report's first column, one event's section.
# (--no-inline: report adds DWARF frames' inlined functions as perf 6.1's report does; the
# exports keep a frame a function, as pprof's own inline lines are not drawn by -top.)
report_shares() {
	"$PERFEV" report -i "$@" --stdio --sort sym -g none --no-inline 2>/dev/null |
		awk '!/^#/ && /%/ { p = $1; sub(/%/, "", p); sub(/^ *[0-9.]+% +([0-9.]+% +)?\[.\] /, ""); print $0 "\t" p }' |
		same_names | unique_names
}
# pprof_shares FILE COLUMN SAMPLE_INDEX: "function<TAB>percent" of go tool pprof -top's flat% (2) or cum% (5).
pprof_shares() {
	go tool pprof -top -nodecount=100000 -nodefraction=0 -sample_index="$3" "$1" 2>/dev/null |
		awk -v c="$2" 'on { p = $c; sub(/%/, "", p); n = $0; for (i = 0; i < 5; i++) sub(/^ *[^ ]+ +/, "", n)
			print n "\t" p }
			/ flat +flat% +sum% +cum +cum%/ { on = 1 }' | same_names
}
# within FILE_A FILE_B: every function of A's top 10 is in B within 0.1 points.
within() {
	awk -F'\t' 'NR == FNR { b[$1] = $2; next }
		FNR <= 10 && $2 > 0 { n++; if (!($1 in b)) { bad = bad sprintf("%s missing (%s); ", $1, $2); next }
			d = $2 - b[$1]; if (d < 0) d = -d; if (d > 0.1) bad = bad sprintf("%s: %s vs %s; ", $1, $2, b[$1]) }
		END { if (!n) print "no function"; else if (bad) print bad; else print "ok " n }' "$2" "$1"
}
# pprof_total FILE INDEX: the sum of sample column INDEX (0 samples, 1.. the events) of go tool pprof -raw.
pprof_total() {
	go tool pprof -raw "$1" 2>/dev/null | awk -v k="$2" '/^Samples:/ { on = 1; getline; next }
		/^Locations/ { on = 0 } on && /:/ { v = $0; sub(/:.*/, "", v); split(v, a, " "); s += a[k + 1] }
		END { printf "%d\n", s }'
}
check_pprof() { # NAME [EVENT TYPE INDEX]
	cn=$1 ev=${2:-} type=${3:-cpu} idx=${4:-1} f=$TMP/$1.pb.gz
	evopt=""
	[ -n "$ev" ] && evopt="--event $ev"
	for v in top raw traces; do
		if go tool pprof -$v "$f" >"$TMP/pp.$v" 2>&1 && [ -s "$TMP/pp.$v" ]; then
			ok "$cn: go tool pprof -$v reads the pprof file${ev:+ ($ev)}"
		else
			not_ok "$cn: go tool pprof -$v reads the pprof file" "$(head -n 5 "$TMP/pp.$v")"
		fi
	done
	# shellcheck disable=SC2086
	report_shares "$TMP/$cn.data" --no-children $evopt >"$TMP/r.flat"
	# shellcheck disable=SC2086
	report_shares "$TMP/$cn.data" --children $evopt >"$TMP/r.cum"
	pprof_shares "$f" 2 "$type" >"$TMP/p.flat"
	pprof_shares "$f" 5 "$type" >"$TMP/p.cum"
	res=$(within "$TMP/r.flat" "$TMP/p.flat")
	check "$cn: pprof's flat shares are report --no-children's within 0.1 points ($res)" [ "${res%% *}" = ok ]
	res=$(within "$TMP/r.cum" "$TMP/p.cum")
	check "$cn: pprof's cumulative shares are report --children's within 0.1 points ($res)" [ "${res%% *}" = ok ]
	# shellcheck disable=SC2086
	rt=$("$PERFEV" report -i "$TMP/$cn.data" --stdio -g none $evopt 2>/dev/null |
		awk '/^# Event count/ { s += $NF } END { printf "%d\n", s }')
	# shellcheck disable=SC2086
	rs=$("$PERFEV" report -i "$TMP/$cn.data" --stdio -g none --no-children -F sample,comm $evopt 2>/dev/null |
		awk '!/^#/ && NF { s += $1 } END { printf "%d\n", s }')
	pt=$(pprof_total "$f" "$idx")
	check "$cn: pprof's total equals report's event count ($pt vs $rt)" [ "$pt" = "$rt" ]
	if [ -z "$ev" ]; then
		ps=$(pprof_total "$f" 0)
		check "$cn: pprof's samples/count equals report's samples ($ps vs $rs)" [ "$ps" = "$rs" ]
	fi
}
for name in $FILES; do
	if "$PERFEV" export -q -f pprof -i "$TMP/$name.data" -o "$TMP/$name.pb.gz" 2>"$TMP/err"; then
		ok "$name: perfev export -f pprof"
	else
		not_ok "$name: perfev export -f pprof" "$(cat "$TMP/err")"
		continue
	fi
	case $name in
	v_two)
		check_pprof v_two cpu-clock cpu 1
		check_pprof v_two task-clock task-clock 2 ;;
	*) check_pprof "$name" ;;
	esac
done
# Threads are labelled; inlined functions are lines of one location.
if [ -s "$TMP/v_thr.pb.gz" ]; then
	n=$(go tool pprof -raw "$TMP/v_thr.pb.gz" 2>/dev/null | grep -c 'tid:\[')
	t=$(go tool pprof -raw "$TMP/v_thr.pb.gz" 2>/dev/null | grep -o 'tid:\[[0-9]*\]' | sort -u | wc -l)
	check "v_thr: every sample carries pid, tid and thread labels ($t threads)" sh -c "[ $n -gt 0 ] && [ $t -ge 4 ]"
	check "v_thr: each thread's function is in the profile" \
		sh -c "go tool pprof -top '$TMP/v_thr.pb.gz' 2>/dev/null | grep -q thread_alpha"
fi
if [ -s "$TMP/v_cxx.data" ] &&
	"$PERFEV" export -q -f pprof --inline -i "$TMP/v_cxx.data" -o "$TMP/v_cxx_inl.pb.gz" 2>"$TMP/err"; then
	go tool pprof -raw "$TMP/v_cxx_inl.pb.gz" >"$TMP/raw" 2>&1
	# A location line "N: 0xADDR M=K fn file:line s=..." and its further lines (inlined callers) indented.
	multi=$(awk '/^Locations/ { on = 1; next } /^Mappings/ { on = 0 } on && /^ +[0-9]+: / { cur = $0; n = 0; next }
		on && /^ +[^ ]/ && cur != "" { print cur }' "$TMP/raw" | grep -c 'mix\|add' )
	check "v_cxx --inline: a location holds the inlined functions as several lines ($multi)" [ "$multi" -gt 0 ]
	check "v_cxx --inline: go tool pprof -top shows the inlined template" \
		sh -c "go tool pprof -top '$TMP/v_cxx_inl.pb.gz' 2>/dev/null | grep -q 'mix (inline)'"
	report_shares "$TMP/v_cxx.data" --no-children --inline >"$TMP/r.flat"
	pprof_shares "$TMP/v_cxx_inl.pb.gz" 2 cpu >"$TMP/p.flat"
	res=$(within "$TMP/r.flat" "$TMP/p.flat")
	check "v_cxx --inline: flat shares are report --inline's within 0.1 points ($res)" [ "${res%% *}" = ok ]
else
	not_ok "v_cxx: perfev export -f pprof --inline" "$(cat "$TMP/err" 2>/dev/null)"
fi
[ -s "$TMP/v_kern.pb.gz" ] && check "v_kern: kernel functions are in the pprof file" \
	sh -c "go tool pprof -top '$TMP/v_kern.pb.gz' 2>/dev/null | grep -q 'getppid'"

# --- speedscope: the schema of the speedscope package
sfiles=""
for name in $FILES; do
	"$PERFEV" export -q -f speedscope -i "$TMP/$name.data" -o "$TMP/$name.speedscope.json" 2>"$TMP/err" &&
		sfiles="$sfiles $TMP/$name.speedscope.json"
done
# shellcheck disable=SC2086
(cd "$JS" && node validate_speedscope.js $sfiles) >"$TMP/ajv" 2>&1
nv=$(grep -c '^ok ' "$TMP/ajv")
check "speedscope files validate against speedscope's file-format-schema.json ($nv of $(echo $FILES | wc -w))" \
	sh -c "[ $nv = $(echo $FILES | wc -w) ] && [ $nv -gt 0 ]"
[ "$nv" = "$(echo $FILES | wc -w)" ] || sed 's/^/    /' "$TMP/ajv" | grep -v '^    ok' | head -n 5
if [ -s "$TMP/v_two.speedscope.json" ]; then
	w=$(jq '[.profiles[] | select(.name | endswith("cpu-clock")) | .weights[]] | add' "$TMP/v_two.speedscope.json")
	rt=$("$PERFEV" report -i "$TMP/v_two.data" --stdio -g none --event cpu-clock 2>/dev/null | awk '/^# Event count/ { print $NF }')
	check "v_two: speedscope's cpu-clock weights add up to report's event count ($w vs $rt)" [ "$w" = "$rt" ]
	check "v_two: speedscope has profiles of both events, in nanoseconds for CPU time" \
		sh -c "jq -e '[.profiles[].unit] | unique == [\"nanoseconds\"]' '$TMP/v_two.speedscope.json' >/dev/null &&
		       jq -e '[.profiles[].name | select(endswith(\"task-clock\"))] | length > 0' '$TMP/v_two.speedscope.json' >/dev/null"
fi

# --- folded: equal, line for line, to stackcollapse-perf.pl --all's rules applied to perfev script
# A collapse of perfev script's default layout (without the inlined frames of DWARF stacks,
# which folded shows only with --inline), written here: frames innermost first become
# outermost first after the command; offsets go, kernel frames get _[k], an unknown symbol
# becomes [file]; names are tidied as stackcollapse-perf.pl tidies them.
collapse() {
	awk '
	function tidy(s) {
		gsub(/;/, ":", s)
		if (s !~ /\.\(.*\)\./) {
			i = index(s, "(")
			while (i > 0 && substr(s, i, 21) == "(anonymous namespace)") {
				j = index(substr(s, i + 1), "("); i = j ? i + j : 0
			}
			if (i > 0) s = substr(s, 1, i - 1)
		}
		gsub(/["\047]/, "", s)
		return s
	}
	/^[^ \t]/ { comm = $1; n = 0; next }
	/^\t/ {
		line = $0; sub(/^\t */, "", line); sub(/^[0-9a-f]+ /, "", line)
		dso = line; sub(/.* \(/, "", dso); sub(/\)$/, "", dso)
		fn = line; sub(/ \([^(]*\)$/, "", fn); sub(/\+0x[0-9a-f]+$/, "", fn)
		if (dso ~ /kernel\.|vmlinux$/) fn = fn "_[k]"
		if (fn == "[unknown]" && dso != "[unknown]") { sub(/.*\//, "", dso); fn = "[" dso "]" }
		st[n++] = tidy(fn); next
	}
	/^$/ { if (n) { s = comm; for (i = n - 1; i >= 0; i--) s = s ";" st[i]; c[s]++ } n = 0 }
	END { for (s in c) print s, c[s] }'
}
for name in $FILES; do
	case $name in v_two) ev="--event cpu-clock" ;; *) ev="" ;; esac
	# shellcheck disable=SC2086
	"$PERFEV" export -q -f folded $ev -i "$TMP/$name.data" 2>"$TMP/err" | LC_ALL=C sort >"$TMP/folded"
	"$PERFEV" script --no-inline -i "$TMP/$name.data" 2>/dev/null | { if [ -n "$ev" ]; then awk '/^[^ \t]/ { keep = / cpu-clock:/ } keep'; else cat; fi; } |
		collapse | LC_ALL=C sort >"$TMP/ref"
	nl=$(wc -l <"$TMP/ref")
	if [ "$nl" -gt 0 ] && cmp -s "$TMP/folded" "$TMP/ref"; then
		ok "$name: folded stacks equal a collapse of perfev script, line for line ($nl lines)"
	else
		not_ok "$name: folded stacks equal a collapse of perfev script" "$(diff "$TMP/ref" "$TMP/folded" | head -n 6)"
	fi
done
"$PERFEV" export -q -f folded --prefix tid -i "$TMP/v_thr.data" >"$TMP/f.tid" 2>/dev/null
nt=$(cut -d';' -f1 "$TMP/f.tid" | sort -u | grep -c '^threads-[0-9]*/[0-9]*$')
check "--prefix tid begins each stack with command-pid/tid ($nt threads)" [ "$nt" -ge 4 ]
"$PERFEV" export -q -f folded --prefix none -i "$TMP/v_fp.data" >"$TMP/f.none" 2>/dev/null
check "--prefix none begins each stack with the outermost function" sh -c "! grep -q '^hot;' '$TMP/f.none' && grep -q '^__libc_start_call_main;main;work;hot_a ' '$TMP/f.none'"
"$PERFEV" export -q -f folded --weights -i "$TMP/v_fp.data" | awk '{ s += $NF } END { printf "%.0f\n", s }' >"$TMP/fw"
rt=$("$PERFEV" report -i "$TMP/v_fp.data" --stdio -g none 2>/dev/null | awk '/^# Event count/ { print $NF }')
check "--weights counts the event's weights: their sum is report's event count" [ "$(cat "$TMP/fw")" = "$rt" ]
"$PERFEV" export -f folded -i "$TMP/v_two.data" >/dev/null 2>"$TMP/err"
check "folded of two events writes the first and says how to pick another" grep -q "writing 'cpu-clock'.*--event" "$TMP/err"

# --- json: perfev's, with report's totals
for name in $FILES; do
	"$PERFEV" export -q -f json -i "$TMP/$name.data" -o "$TMP/$name.json" 2>"$TMP/err" || continue
	jt=$(jq '[.series[].total] | add' "$TMP/$name.json" 2>/dev/null)
	rt=$("$PERFEV" report -i "$TMP/$name.data" --stdio -g none 2>/dev/null | awk '/^# Event count/ { s += $NF } END { printf "%.0f\n", s }')
	st=$(jq '.series[0] as $s | ([$s.nodes[] | .[3]] | add) == $s.total' "$TMP/$name.json" 2>/dev/null)
	check "$name: perfev export -f json is JSON with report's totals ($jt vs $rt; self weights add up: $st)" \
		sh -c "[ '$jt' = '$rt' ] && [ '$st' = true ]"
done
rp=$("$PERFEV" report -i "$TMP/v_fp.data" --stdio --children --sort dso,sym -g none 2>/dev/null | awk '/\] hot_a$/ { print $1; exit }')
jp=$(jq -r '.series[0] as $s | ($s.table[] | select(.sym == "hot_a") | .children * 100 / $s.total) | . * 100 | round / 100' "$TMP/v_fp.json")
check "json: hot_a's children share in the table is report's ($jp vs $rp)" \
	awk -v a="$jp" -v b="${rp%\%}" 'BEGIN { d = a - b; exit !(d < 0.01 && d > -0.01) }'

# --- names no compiler gives: invalid UTF-8, quotes, <, &, control bytes, in every format
if [ "$(uname -m)" != x86_64 ]; then
	skip "names with invalid UTF-8 and control bytes in every format" "the JIT workload is x86-64 code"
else
	"$PERFEV" record -q -g -o "$TMP/jit.data" -- "$H/jitnames" 60 >/dev/null 2>&1
	rm -f /tmp/perf-*.map.keep
	for fmt in json speedscope folded pprof; do
		"$PERFEV" export -q -f $fmt -i "$TMP/jit.data" -o "$TMP/jit.$fmt" 2>"$TMP/err" ||
			not_ok "jit: perfev export -f $fmt" "$(cat "$TMP/err")"
	done
	"$PERFEV" flamegraph -q -i "$TMP/jit.data" -o "$TMP/jit.svg" 2>/dev/null
	"$PERFEV" flamegraph -q -i "$TMP/jit.data" -o "$TMP/jit.html" 2>/dev/null
	gzip -dc "$TMP/jit.pprof" >"$TMP/jit.pb" 2>/dev/null
	go tool pprof -raw "$TMP/jit.pprof" >"$TMP/jit.pprof.txt" 2>&1
	for f in jit.json jit.speedscope jit.folded jit.svg jit.html jit.pprof.txt; do
		check "jit: $f is valid UTF-8" iconv -f UTF-8 -t UTF-8 -o /dev/null "$TMP/$f"
		# Control bytes other than newlines (and the tabs of go tool pprof's own layout).
		bad=$(tr -d '\n\t' <"$TMP/$f" | LC_ALL=C tr -d '\040-\176\200-\377' | wc -c)
		check "jit: $f holds no raw control byte ($bad)" [ "$bad" = 0 ]
	done
	# What each format makes of the names: JSON decodes them back (invalid bytes as U+FFFD).
	jq -r '.series[0].frames[].name' "$TMP/jit.json" >"$TMP/jit.names" 2>/dev/null
	check "json: the names decode with their quotes, <, & and control bytes" \
		sh -c "grep -qF '<script>alert(1)</script> & &amp;' '$TMP/jit.names' && grep -qF 'quote\"double'\\'' and' '$TMP/jit.names' &&
		       grep -q \"\$(printf 'ctrl\\001\\002')\" '$TMP/jit.names' && grep -q \"\$(printf 'bad\\357\\277\\275')\" '$TMP/jit.names'"
	check "json: control bytes are written \\u0001, invalid bytes \\ufffd" \
		sh -c "grep -qF 'ctrl\\u0001\\u0002' '$TMP/jit.json' && grep -qF 'bad\\ufffd\\ufffd utf8' '$TMP/jit.json'"
	check "speedscope: the names are escaped the same way" \
		sh -c "grep -qF 'ctrl\\u0001\\u0002' '$TMP/jit.speedscope' && grep -qF '<script>alert(1)</script> & &amp;' '$TMP/jit.speedscope'"
	check "folded: control bytes as \\xNN, the separator ; as :, arguments tidied" \
		sh -c "grep -qF 'ctrl\\x01\\x02\\x1b[31mred\\x7f_tab\\x09here_[j]' '$TMP/jit.folded' ||
		       grep -qF 'ctrl\\x01\\x02\\x1b[31mred\\x7f tab\\x09here_[j]' '$TMP/jit.folded'"
	check "folded: every line is 'stack count'" sh -c "! grep -qv ' [0-9][0-9]*\$' '$TMP/jit.folded'"
	check "pprof: go tool pprof shows the names cleaned (\\x01, U+FFFD, <, &)" \
		sh -c "grep -qF 'ctrl\\x01\\x02' '$TMP/jit.pprof.txt' && grep -qF '<script>alert(1)</script>' '$TMP/jit.pprof.txt' &&
		       grep -q \"\$(printf 'bad\\357\\277\\275')\" '$TMP/jit.pprof.txt'"
	check "svg: well-formed XML (xmllint)" xmllint --noout "$TMP/jit.svg"
	check "svg: < & and quotes are entities, control bytes \\xNN" \
		sh -c "grep -qF '&lt;script&gt;alert(1)&lt;/script&gt; &amp; &amp;amp;' '$TMP/jit.svg' && grep -qF 'ctrl\\x01\\x02' '$TMP/jit.svg'"
	check "html: the data cannot close its <script>: <, > and & are \\u003c, \\u003e, \\u0026" \
		sh -c "grep -qF '\\u003cscript\\u003ealert(1)\\u003c/script\\u003e \\u0026 \\u0026amp;' '$TMP/jit.html' &&
		       [ \$(grep -c '</script>' '$TMP/jit.html') = 2 ]"
fi

# --- an empty profile: a valid file in every format, and a note
# A CPU clock sampling once every 1000 s of CPU: true ends long before.
"$PERFEV" record -q -e cpu-clock -c 1000000000000 -o "$TMP/none.data" -- true >/dev/null 2>&1
for src in "--comm nosuch -i $TMP/v_fp.data" "-i $TMP/none.data"; do
	for fmt in pprof speedscope folded json; do
		# shellcheck disable=SC2086
		"$PERFEV" export -f $fmt $src -o "$TMP/empty.$fmt" 2>"$TMP/err"
		st=$?
		case $fmt in
		pprof) valid="go tool pprof -raw '$TMP/empty.$fmt'" ;;
		speedscope) valid="cd '$JS' && node validate_speedscope.js '$TMP/empty.$fmt'" ;;
		folded) valid="[ ! -s '$TMP/empty.$fmt' ]" ;;
		json) valid="jq -e '.series[0].total == 0' '$TMP/empty.$fmt'" ;;
		esac
		check "empty ($src): -f $fmt exits 0 with a valid file and a note" \
			sh -c "[ $st = 0 ] && grep -q 'writing an empty profile' '$TMP/err' && $valid >/dev/null 2>&1"
	done
done

# --- errors
"$PERFEV" export -i "$TMP/v_fp.data" >/dev/null 2>"$TMP/err"
check "without -f: exit 1 naming the formats" sh -c "[ $? = 1 ] && grep -q 'pprof, speedscope, folded or json' '$TMP/err'"
"$PERFEV" export -f svg -i "$TMP/v_fp.data" >/dev/null 2>"$TMP/err"
check "an unknown format is named" grep -q "unknown format 'svg'" "$TMP/err"
"$PERFEV" export -f json -i "$TMP/v_fp.data" -o /nonexistent/dir/x.json 2>"$TMP/err"
check "an output that cannot be created says so" grep -q "cannot write '/nonexistent/dir/x.json'" "$TMP/err"
"$PERFEV" export -f json -i "$TMP/v_fp.data" -o /dev/full 2>"$TMP/err"
st=$?
check "a full disk is an error (exit 1), not a short file" sh -c "[ $st = 1 ] && grep -qi 'no space' '$TMP/err'"
"$PERFEV" export -f pprof -i "$TMP/v_fp.data" --time 2,1 2>"$TMP/err"
check "a bad --time range is explained" grep -q "a range ends before it starts" "$TMP/err"
