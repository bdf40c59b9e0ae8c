#!/bin/sh
# perfev flamegraph's HTML report and SVG, and speedscope's app on perfev's
# speedscope file, in headless Chromium as a person uses them (tests/js/
# browser.js): every request but the file itself fails the test, and so does
# any console error; the root frame is 100%; a click zooms to a frame; a
# search shows the share perfev report --children gives the function; a range
# dragged on the timeline gives the samples perfev report --time gives for it;
# one thread selected gives perfev report --tid's samples.  Screenshots of each
# view are kept in BUILD/test-artifacts/flamegraph/.
. "$(dirname "$0")/lib.sh"

JS=$ROOT_DIR/tests/js
ART=$BUILD_DIR/test-artifacts/flamegraph
rm -rf "$ART"
mkdir -p "$ART"
for tool in node /usr/bin/chromium xmllint; do
	command -v $tool >/dev/null 2>&1 || not_ok "$tool is installed (scripts/setup.sh installs it)"
done
[ -d "$JS/node_modules/puppeteer-core" ] || not_ok "tests/js has its npm packages (scripts/setup.sh runs npm ci there)"
browse() { (cd "$JS" && node browser.js "$@") >"$TMP/b.out" 2>&1; }
val() { sed -n "s/^$1=//p" "$TMP/b.out" | head -n 1; }
fails() { grep '^fail=' "$TMP/b.out" | head -n 5; }

"$PERFEV" record -q -g -o "$TMP/hot.data" -- "$HELPERS/hot" 80 >/dev/null 2>&1
"$PERFEV" flamegraph -i "$TMP/hot.data" -o "$TMP/hot.html" >"$TMP/out" 2>"$TMP/err"
check "perfev flamegraph writes the HTML report and prints its path" \
	sh -c "[ -s '$TMP/hot.html' ] && grep -qx '$TMP/hot.html' '$TMP/out'"
check "the report names no network resource (no http: or https: URL, no src= or href=)" \
	sh -c "! grep -qiE '(src|href)=|https?://' '$TMP/hot.html'"
# nsamples ARGS: perfev report's samples with ARGS, exactly (its header abbreviates them, as perf's).
nsamples() { "$PERFEV" report --stdio -g none --no-children -F sample,comm "$@" 2>/dev/null | awk '!/^#/ && NF { s += $1 } END { print s + 0 }'; }
report_children() { "$PERFEV" report -i "$1" --stdio --children --sort sym -g none 2>/dev/null | awk -v f="$2" '$NF == f { sub(/%/, "", $1); print $1; exit }'; }

# --- the HTML report
if browse html "$TMP/hot.html" "$ART" hot_a; then
	ok "the HTML report loads offline with no console error and no request ($(val ready_ms) ms to ready)"
else
	not_ok "the HTML report loads offline with no console error and no request" "$(fails)"
fi
check "html: the root frame is 100% ($(val root_details))" sh -c "sed -n 's/^root_details=//p' '$TMP/b.out' | grep -q '100.00%'"
check "html: clicking hot_a zooms to it (it spans the graph: $(val zoom_width_ratio))" \
	awk -v r="$(val zoom_width_ratio)" -v z="$(val zoom_state)" 'BEGIN { exit !(r > 0.99 && z > 0) }'
want=$(report_children "$TMP/hot.data" hot_a)
check "html: searching hot_a shows report --children's share ($(val search_share) vs $want)" \
	awk -v a="$(val search_share)" -v b="$want" 'BEGIN { d = a - b; exit !(b > 0 && d < 0.006 && d > -0.006) }'
check "html: the functions sorted by self begin with hot_a" [ "$(val table_top_self)" = hot_a ]
check "html: a row focuses the graph on its function ($(val focus))" [ "$(val focus)" = "Focused on hot_a" ]
range=$(val range_time)
rs=$(nsamples -i "$TMP/hot.data" --time "$range")
rw=$("$PERFEV" report -i "$TMP/hot.data" --stdio -g none --time "$range" 2>/dev/null | awk '/^# Event count/ { print $NF }')
check "html: a range on the timeline shows report --time $range's samples ($(val range_samples) vs $rs) and weight" \
	sh -c "[ -n '$rs' ] && [ '$(val range_samples)' = '$rs' ] && [ '$(val range_weight)' = '$rw' ]"
all=$(nsamples -i "$TMP/hot.data")
check "html: the range is part of the recording ($rs of $all samples)" sh -c "[ '$rs' -gt 0 ] && [ '$rs' -lt '$all' ]"
for v in flame zoom search icicle table range; do
	check "html: a screenshot of the $v view is kept" test -s "$ART/html-$v.png"
done

# --- threads: one selected
"$PERFEV" record -q -g -o "$TMP/thr.data" -- "$HELPERS/threads" 150 >/dev/null 2>&1
"$PERFEV" flamegraph -q -i "$TMP/thr.data" -o "$TMP/thr.html" 2>/dev/null
tid=$("$PERFEV" report -i "$TMP/thr.data" --stdio --sort tid,sym -g none --no-children 2>/dev/null |
	awk '/thread_alpha|burn/ { print $2; exit }' | sed 's/:.*//; s/^[^0-9]*//')
if browse thread "$TMP/thr.html" "$ART" "$tid"; then
	ts=$(nsamples -i "$TMP/thr.data" --tid "$tid")
	check "html: thread $tid selected shows report --tid's samples ($(val thread_samples) vs $ts)" \
		sh -c "[ -n '$ts' ] && [ '$(val thread_samples)' = '$ts' ]"
else
	not_ok "html: the thread selector" "$(fails)"
fi

# --- the SVG
"$PERFEV" flamegraph -q -i "$TMP/hot.data" -o "$TMP/hot.svg" 2>"$TMP/err"
check "perfev flamegraph -o X.svg writes well-formed SVG" xmllint --noout "$TMP/hot.svg"
if browse svg "$TMP/hot.svg" "$ART" hot_a; then
	ok "the SVG loads offline with no console error and no request"
else
	not_ok "the SVG loads offline with no console error and no request" "$(fails)"
fi
check "svg: the root frame is 100% ($(val root_title))" sh -c "sed -n 's/^root_title=//p' '$TMP/b.out' | grep -q '^all (.* samples, 100.00%)'"
check "svg: clicking hot_a zooms to it ($(val zoom_width_ratio))" awk -v r="$(val zoom_width_ratio)" 'BEGIN { exit !(r > 0.99) }'
got=$(val search_text | sed 's/Matched: //; s/%//')
check "svg: searching hot_a prints report --children's share ($got vs $want)" \
	awk -v a="$got" -v b="$want" 'BEGIN { d = a - b; exit !(b > 0 && d < 0.006 && d > -0.006) }'
for v in flame zoom search; do
	check "svg: a screenshot of the $v view is kept" test -s "$ART/svg-$v.png"
done

# --- speedscope's app, from its npm package, on perfev's file
"$PERFEV" export -q -f speedscope -i "$TMP/hot.data" -o "$TMP/hot.speedscope.json"
if browse speedscope "$TMP/hot.speedscope.json" "$ART" hot_a; then
	ok "speedscope's app loads perfev's file offline, with no console error"
else
	not_ok "speedscope's app loads perfev's file offline, with no console error" "$(fails)"
fi
check "speedscope: the page's title names the profile ($(val title))" sh -c "sed -n 's/^title=//p' '$TMP/b.out' | grep -q 'hot.data - speedscope$'"
check "speedscope: the sandwich view lists hot_a" [ "$(val frame_found)" = 1 ]

# --- names no compiler gives, shown as text
if [ "$(uname -m)" = x86_64 ]; then
	"$PERFEV" record -q -g -o "$TMP/jit.data" -- "$HELPERS/jitnames" 40 >/dev/null 2>&1
	"$PERFEV" flamegraph -q -i "$TMP/jit.data" -o "$TMP/jit.html" 2>/dev/null
	"$PERFEV" flamegraph -q -i "$TMP/jit.data" -o "$TMP/jit.svg" 2>/dev/null
	for f in jit.html jit.svg; do
		if browse names "$TMP/$f" "$ART" '<script>alert(1)</script> & &amp;' "quote\"double' and" 'semi;colon name(args)'; then
			ok "$f: loads with no console error and no request"
		else
			not_ok "$f: loads with no console error and no request" "$(fails)"
		fi
		check "$f: names with <, &, quotes and ; show as the text they are" \
			sh -c "[ '$(val shows_0)$(val shows_1)$(val shows_2)' = 111 ]"
	done
else
	skip "names with invalid UTF-8 and control bytes in the pages" "the JIT workload is x86-64 code"
fi

# --- no samples: a page that says so
"$PERFEV" flamegraph -i "$TMP/hot.data" --comm nosuch -o "$TMP/empty.html" >/dev/null 2>"$TMP/err"
check "no sample passes: a note, and a page is still written" sh -c "grep -q 'writing an empty profile' '$TMP/err' && [ -s '$TMP/empty.html' ]"
if browse names "$TMP/empty.html" "$ART" 'This profile holds no samples.'; then
	check "the empty page says it holds no samples" [ "$(val shows_0)" = 1 ]
else
	not_ok "the empty page loads with no console error" "$(fails)"
fi
"$PERFEV" flamegraph -i "$TMP/hot.data" -f png -o "$TMP/x" 2>"$TMP/err"
check "an unknown format is refused with what to give" grep -q "\-\-format: 'png' is not one of its values" "$TMP/err"
