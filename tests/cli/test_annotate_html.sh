#!/bin/sh
# The HTML report's source views (perfev flamegraph --source), in headless Chromium as a
# person uses them (tests/js/browser.js source): opened from the functions table and by a
# double click on a frame; every line's heat margin and every instruction's share equal
# perfev annotate's on the same file; the inlined helper's lines under its own file; the
# instructions can be hidden.  No request, no console error.  Screenshots are kept in
# BUILD/test-artifacts/annotate/.
. "$(dirname "$0")/lib.sh"

JS=$ROOT_DIR/tests/js
ART=$BUILD_DIR/test-artifacts/annotate
INL="$BUILD_DIR/tests/annotate/work/inl"
rm -rf "$ART"
mkdir -p "$ART"
for tool in node /usr/bin/chromium; do
	command -v $tool >/dev/null 2>&1 || not_ok "$tool is installed (scripts/setup.sh installs it)"
done
[ -d "$JS/node_modules/puppeteer-core" ] || not_ok "tests/js has its npm packages (scripts/setup.sh runs npm ci there)"
browse() { (cd "$JS" && node browser.js "$@") >"$TMP/b.out" 2>&1; }
val() { sed -n "s/^$1=//p" "$TMP/b.out" | head -n 1; }
fails() { grep '^fail=' "$TMP/b.out" | head -n 5; }

"$PERFEV" record -q -e cpu-clock -c 100000 -o "$TMP/inl.data" -- "$INL" >/dev/null 2>&1
"$PERFEV" flamegraph -q -i "$TMP/inl.data" -o "$TMP/inl.html" 2>"$TMP/err"
check "perfev flamegraph writes a report with source views" grep -q '"sources":\[{' "$TMP/inl.html"
if browse source "$TMP/inl.html" "$ART" hot; then
	ok "the source view opens from the functions table, offline, with no console error"
else
	not_ok "the source view opens from the functions table, offline, with no console error" "$(fails)"
fi
check "it shows the function asked for ($(val source_name))" [ "$(val source_name)" = hot ]

# Every line and instruction shown against perfev annotate --json of the same file.
"$PERFEV" annotate --json -i "$TMP/inl.data" hot >"$TMP/inl.json" 2>/dev/null
jq -r '.annotations[0].lines[] | "\(.file):\(.line) \(.self_percent) \(.total_percent)"' "$TMP/inl.json" >"$TMP/want_lines"
jq -r '.annotations[0].instructions[] | "\(.addr | ltrimstr("0x")) \(.percent)"' "$TMP/inl.json" >"$TMP/want_insns"
sed -n 's/^line=\([^:]*\):\([0-9]*\):\([0-9.]*\):\([0-9.]*\):.*/\1:\2 \3 \4/p' "$TMP/b.out" >"$TMP/got_lines"
sed -n 's/^insn=\([0-9a-f]*\):\([0-9.]*\)$/\1 \2/p' "$TMP/b.out" >"$TMP/got_insns"
# same WANT GOT COLUMNS: every row of WANT is in GOT with its values within 0.01 (both two decimals).
same() {
	awk -v cols="$3" 'NR == FNR { for (c = 2; c <= cols; c++) g[$1, c] = $c; n[$1] = 1; next }
		{ w++; if (!($1 in n)) { bad = bad $1 " missing; "; next }
		  for (c = 2; c <= cols; c++) { d = g[$1, c] - $c; if (d < 0) d = -d
			if (d > 0.01) bad = bad sprintf("%s: %s vs %s; ", $1, g[$1, c], $c) } }
		END { if (!w) print "nothing to compare"; else if (bad) print bad; else print "ok " w }' "$2" "$1"
}
res=$(same "$TMP/want_lines" "$TMP/got_lines" 3)
case $res in
ok*) ok "the heat margin of each of the ${res#ok } lines is perfev annotate's self and with-inlined share" ;;
*) not_ok "the heat margin of each line is perfev annotate's self and with-inlined share" "$res" ;;
esac
res=$(same "$TMP/want_insns" "$TMP/got_insns" 2)
case $res in
ok*) ok "each of the ${res#ok } instructions under the lines shows perfev annotate's share" ;;
*) not_ok "each instruction under the lines shows perfev annotate's share" "$res" ;;
esac
check "the inlined helper's hot lines are under mix.h, marked inlined from mix" \
	sh -c "grep '^line=.*/mix.h:' '$TMP/b.out' | grep -q 'HOT.*mix (inlined)'"
hot=$(sed -n 's/^line=[^:]*\/mix.h:[0-9]*:\([0-9.]*\):.*/\1/p' "$TMP/b.out" | awk '{ s += $1 } END { print s + 0 }')
site=$(grep '^line=.*/inl.cc:' "$TMP/b.out" | grep 'calls the hot helper' | cut -d: -f4)
check "the call site's with-inlined share ($site%) holds mix.h's lines' ($hot%)" \
	awk "BEGIN { exit !(\"$site\" != \"\" && $hot > 50 && $site + 0.05 >= $hot) }"
check "the instructions can be hidden, leaving the lines" [ "$(val insns_hidden)" = 1 ]
check "a double click on the function's frame opens its source view" [ "$(val dblclick_source)" = 1 ]
for v in source source-lines; do
	check "a screenshot of the $v view is kept" test -s "$ART/html-$v.png"
done

"$PERFEV" flamegraph -q --source 0 -i "$TMP/inl.data" -o "$TMP/none.html" 2>/dev/null
check "--source 0 writes no source view" grep -q '"sources":\[\]' "$TMP/none.html"
