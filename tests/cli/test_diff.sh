#!/bin/sh
# perfev diff against perf diff on the same files: a program before and after a
# change that moves time between functions, removes one and adds one
# (tests/helpers/diffwork.c, built twice under one file name), recorded by perf
# and by perfev.  Both tools read every pair; the rows must be the same and each
# Baseline and Delta within 0.1 points (also ratio and wdiff, three files, and
# the text byte for byte); new and gone rows as perf marks them; --json; the
# differential flame graph (SVG and HTML) in headless Chromium; the pprof pair
# through go tool pprof -diff_base; missing and damaged files.
. "$(dirname "$0")/lib.sh"

JS=$ROOT_DIR/tests/js
ART=$BUILD_DIR/test-artifacts/diff
rm -rf "$ART"
mkdir -p "$ART"
BEFORE=$HELPERS/diffwork
AFTER=$HELPERS/after/diffwork
for f in "$BEFORE" "$AFTER"; do
	[ -x "$f" ] || { not_ok "the workload $f is built (make tests)"; exit 1; }
done
have_perf || { not_ok "Linux perf runs here (scripts/setup.sh installs linux-perf)"; exit 1; }
cd "$TMP" || exit 1

# --- the recordings: perf's and perfev's, before and after (perfev's with call graphs).
# perf's with the build ids in its MMAP2 records (--buildid-mmap): while any event on the
# machine asks for them, this kernel marks every MMAP2 record as holding one, and perf 6.1
# then aborts on those without ("assertion failed at util/build-id.c:1010").
perf record --buildid-mmap -q -F 4000 -o perf.old -- "$BEFORE" 10 >/dev/null 2>&1
perf record --buildid-mmap -q -F 4000 -o perf.new -- "$AFTER" 10 >/dev/null 2>&1
"$PERFEV" record -q -g -F 4000 -o pe.old -- "$BEFORE" 10 >/dev/null 2>&1
"$PERFEV" record -q -g -F 4000 -o pe.new -- "$AFTER" 10 >/dev/null 2>&1
for f in perf.old perf.new pe.old pe.new; do
	[ -s "$f" ] || not_ok "recorded $f"
done

# names: glibc's names reduced to what both tools agree on (perfev shows the exported name where perf
# shows an internal alias: docs/perf-differences.md), as tests/parity/compare.py reduces them.
names() {
	sed -E 's/(^|[^A-Za-z0-9_])(__GI_+|__libc_)(libc_)?/\1/g; s/(^|[^A-Za-z0-9_])_+([A-Za-z])/\1\2/g;
		s/([A-Za-z0-9])_ifunc([^A-Za-z0-9_]|$)/\1\2/g'
}
noalias() { sed -E '/ (libc\.so|ld-linux)[^ ]* +\[\.\] /s/\[\.\] .*/[.]/' | tr -s ' .' | sort; }
# plt_as_init: perfev's PLT entries as perf diff names them (the symbol before: _init; see agree).
plt_as_init() { sed -E 's/\[\.\] [^ ]*@plt$/[.] _init/'; }
# rows TOOL ARGS...: each row of TOOL diff -t ';' as "dso|sym|value|value...", values trimmed, no '%'.
rows() {
	t=$1
	shift
	if [ "$t" = perf ]; then perf diff -t ';' "$@" 2>/dev/null; else "$PERFEV" diff -t ';' "$@" 2>/dev/null; fi |
		awk -F';' '!/^#/ && NF > 2 {
			out = ""
			for (i = 1; i <= NF; i++) { v = $i; gsub(/^ +| +$/, "", v); gsub(/%$/, "", v); f[i] = v }
			key = f[NF - 1] "|" f[NF]
			for (i = 1; i <= NF - 2; i++) out = out "|" f[i]
			print key out
		}' | names | sort |
		# Reduced names can meet (__blk_mq_end_request and blk_mq_end_request): the second of a
		# name is NAME#2, and so on, on both sides alike.
		awk -F'|' -v OFS='|' '{ k = $1 "|" $2; if (++seen[k] > 1) $2 = $2 "#" seen[k]; print }'
}
# agree A B TOL: the same rows, each value within TOL of the other's (blank and N/A alike).  A row
# of glibc or the dynamic linker that only the names tell apart (an alias perf names otherwise, such
# as __GI_strtoul for perfev's strtoumax: docs/perf-differences.md) pairs with the other tool's row
# of the same file and the same values; $TMP/aliases counts those pairs.
agree() {
	awk -F'|' -v tol="$3" -v aliases="$TMP/aliases" '
		function vals(r,   x, n, i, v) { n = split(r, x, "|"); v = ""; for (i = 3; i <= n; i++) v = v "|" x[i]; return v }
		FNR == NR { a[$1 "|" $2] = $0; next }
		{ k = $1 "|" $2; if (!(k in a)) { b[k] = $0; next }
		  n = split(a[k], x, "|"); delete a[k]
		  for (i = 3; i <= NF; i++) {
			if (x[i] == $i) continue
			if (x[i] == "" || $i == "" || x[i] == "N/A" || $i == "N/A" || (x[i] - $i) > tol || ($i - x[i]) > tol) {
				print k ": perfev " x[i] ", perf " $i; bad = 1
			}
		  } }
		END {
			paired = 0
			# perf diff names a sample in a PLT entry after the symbol before it (_init, "init"
			# once reduced) where perf report and perfev name the entry (printf@plt).
			for (k in a) {
				split(k, ka, "|")
				if (ka[2] !~ /@plt$/) continue
				for (j in b) {
					split(j, kb, "|")
					if (kb[1] == ka[1] && kb[2] == "[.] init" && vals(b[j]) == vals(a[k])) { delete b[j]; delete a[k]; paired++; break }
				}
			}
			for (k in a) {
				split(k, ka, "|")
				if (ka[1] !~ /^(libc\.so|ld-linux)/) continue
				for (j in b) {
					split(j, kb, "|")
					if (kb[1] == ka[1] && vals(b[j]) == vals(a[k])) { delete b[j]; delete a[k]; paired++; break }
				}
			}
			for (k in a) { print "only in perfev: " k; bad = 1 }
			for (k in b) { print "only in perf: " k; bad = 1 }
			print paired > aliases
			exit bad
		}' "$1" "$2" >"$TMP/agree.out"
}
# compare NAME TOL ARGS...: perfev diff and perf diff with ARGS agree row by row.
compare() {
	name=$1 tol=$2
	shift 2
	rows perfev "$@" >"$TMP/a.rows"
	rows perf "$@" >"$TMP/b.rows"
	if [ -s "$TMP/a.rows" ] && agree "$TMP/a.rows" "$TMP/b.rows" "$tol"; then
		al=$(cat "$TMP/aliases")
		[ "$al" = 0 ] && al="" || al=" ($al named by another glibc alias)"
		ok "$name: perfev diff $* has perf diff's $(wc -l <"$TMP/b.rows") rows, each value within $tol$al"
	else
		not_ok "$name: perfev diff $* agrees with perf diff" "$(head -n 8 "$TMP/agree.out")" "perfev: $(wc -l <"$TMP/a.rows") rows"
	fi
}
# value ROWSFILE SYM FIELD: field FIELD (1 the first value) of the row of function SYM.
value() { awk -F'|' -v s="[.] $2" -v i="$3" '$2 == s { print $(i + 2); exit }' "$1"; }

for pair in "perf.old perf.new:perf's files" "pe.old pe.new:perfev's files" "perf.old pe.new:perf's baseline, perfev's new file"; do
	files=${pair%%:*} what=${pair#*:}
	# shellcheck disable=SC2086
	{
		compare "$what" 0.1 $files
		compare "$what, -c delta" 0.1 -c delta $files
		compare "$what, -c ratio" 0.000001 -c ratio $files
		compare "$what, -c wdiff:1,2" 0 -c wdiff:1,2 $files
		compare "$what, -p -F" 0 -p -F $files
		compare "$what, -s sym" 0.1 -s sym $files
		"$PERFEV" diff $files >"$TMP/pe.txt" 2>"$TMP/pe.err"
		perf diff $files >"$TMP/pf.txt" 2>/dev/null
	}
	# Byte for byte when no glibc alias is among the rows; else with glibc's and the dynamic
	# linker's function names left out (an alias also moves its row among rows of equal values:
	# the lines are compared sorted) and the columns' padding, which follows names' lengths, squeezed.
	if cmp -s "$TMP/pe.txt" "$TMP/pf.txt"; then
		ok "$what: perfev diff prints perf diff's text byte for byte"
	elif [ "$(plt_as_init <"$TMP/pe.txt")" = "$(cat "$TMP/pf.txt")" ]; then
		ok "$what: perfev diff prints perf diff's text, but for PLT entries' names (docs/perf-differences.md)"
	elif [ "$(noalias <"$TMP/pe.txt")" = "$(noalias <"$TMP/pf.txt")" ]; then
		ok "$what: perfev diff prints perf diff's text, but for glibc's alias names (docs/perf-differences.md)"
	else
		not_ok "$what: perfev diff prints perf diff's text" "$(diff "$TMP/pe.txt" "$TMP/pf.txt" | head -n 8)"
	fi
done
compare "perfev's files, -b" 0.1 -b pe.old pe.new
compare "perfev's files, -S grows,shrinks" 0.1 -S grows,shrinks pe.old pe.new
compare "perfev's files, -d diffwork" 0.1 -d diffwork pe.old pe.new
compare "perfev's files, -C diffwork -s sym" 0.1 -C diffwork -s sym pe.old pe.new
rel=$("$PERFEV" diff -t ';' -S grows,shrinks --percentage relative pe.old pe.new 2>/dev/null |
	awk -F';' '!/^#/ && NF > 1 { s += $1 } END { printf "%.2f", s }')
check "--percentage relative: the Baseline shown adds up to 100% ($rel)" \
	awk -v s="$rel" 'BEGIN { exit !(s > 99.9 && s < 100.1) }'
# --time: each file's own part (percents of each recording), as perfev report --time shows it.
rows perfev --time 10%/2 pe.old pe.new >"$TMP/t"
tb=$(value "$TMP/t" grows 1) td=$(value "$TMP/t" grows 2)
tr=$("$PERFEV" report -i pe.new --time 10%/2 --stdio --no-children -g none --sort dso,sym 2>/dev/null |
	awk '$NF == "grows" { sub(/%/, "", $1); print $1; exit }')
check "--time 10%/2 takes each file's own second tenth (grows: $tb + $td vs report --time's $tr)" \
	awk -v b="$tb" -v d="$td" -v r="$tr" 'BEGIN { x = b + d - r; exit !(r > 20 && x < 0.02 && x > -0.02) }'
compare "three files" 0.1 pe.old perf.new pe.new
compare "three files, ordered by the second's delta" 0.1 -o 2 pe.old perf.new pe.new
compare "three files, ordered by the baseline" 0.1 -o 0 pe.old perf.new pe.new

# --- what the change did, as perfev diff shows it (perfev's recordings)
rows perfev pe.old pe.new >"$TMP/r"
sh_b=$(value "$TMP/r" shrinks 1) sh_d=$(value "$TMP/r" shrinks 2)
gr_d=$(value "$TMP/r" grows 2) st_d=$(value "$TMP/r" steady 2)
fr_b=$(value "$TMP/r" fresh 1) fr_d=$(value "$TMP/r" fresh 2)
go_b=$(value "$TMP/r" gone 1) go_d=$(value "$TMP/r" gone 2)
check "shrinks lost share (it was ${sh_b}%, delta $sh_d)" awk -v d="$sh_d" 'BEGIN { exit !(d < -20) }'
check "grows gained share (delta $gr_d)" awk -v d="$gr_d" 'BEGIN { exit !(d > 20) }'
check "steady kept its share (delta $st_d)" awk -v d="$st_d" 'BEGIN { exit !(d > -5 && d < 5) }'
check "fresh is new: no Baseline, its share as the delta ($fr_d)" \
	awk -v b="$fr_b" -v d="$fr_d" 'BEGIN { exit !(b == "" && d > 5) }'
check "gone is gone: a Baseline (${go_b}%) and no delta" awk -v b="$go_b" -v d="$go_d" 'BEGIN { exit !(b > 5 && d == "") }'
cp perf.old perf.data.old
cp perf.new perf.data
compare "no file named: perf.data.old and perf.data" 0.1

# --- JSON
if "$PERFEV" diff --json pe.old pe.new >"$TMP/d.json" 2>"$TMP/err" && jq -e . "$TMP/d.json" >/dev/null 2>&1; then
	ok "perfev diff --json is valid JSON"
else
	not_ok "perfev diff --json is valid JSON" "$(head -c 300 "$TMP/d.json")" "$(cat "$TMP/err")"
fi
jrow() { jq -r --arg s "$1" ".events[0].rows[] | select(.sym == \$s) | $2" "$TMP/d.json" 2>/dev/null; }
check "json: shrinks is in both, its delta the table's ($(jrow shrinks '.files[1].delta') vs $sh_d)" \
	awk -v a="$(jrow shrinks '.files[1].delta')" -v b="$sh_d" -v s="$(jrow shrinks .status)" \
	'BEGIN { d = a - b; exit !(s == "both" && d < 0.006 && d > -0.006) }'
check "json: fresh is new, gone is gone" \
	sh -c "[ '$(jrow fresh .status)' = new ] && [ '$(jrow gone .status)' = gone ] && [ '$(jrow gone '.files[1].period')' = 0 ]"
check "json: the totals are the files' sample weights" \
	sh -c "[ \"\$(jq '.events[0].totals | length' '$TMP/d.json')\" = 2 ] && [ \"\$(jq '.events[0].totals[0] > 0' '$TMP/d.json')\" = true ]"

# --- the differential flame graph
"$PERFEV" diff -q pe.old pe.new --flamegraph "$TMP/d.svg" >/dev/null 2>"$TMP/err"
check "perfev diff --flamegraph X.svg writes well-formed SVG" xmllint --noout "$TMP/d.svg"
"$PERFEV" diff -q pe.old pe.new --flamegraph "$TMP/d.html" >/dev/null 2>"$TMP/err"
check "perfev diff --flamegraph X.html writes the HTML report" grep -q '"base"' "$TMP/d.html"
check "the differential report names no network resource" sh -c "! grep -qiE '(src|href)=|https?://' '$TMP/d.html'"
browse() { (cd "$JS" && node browser.js "$@") >"$TMP/b.out" 2>&1; }
val() { sed -n "s/^$1=//p" "$TMP/b.out" | head -n 1; }
# red RGB / blue RGB: which way a frame's colour leans, and how far (0 white).
lean() { echo "$1" | sed 's/rgb(\([0-9]*\),\([0-9]*\),\([0-9]*\))/\1 \2 \3/' | awk '{ print ($1 == 255 && $3 < 255 ? "red" : $3 == 255 && $1 < 255 ? "blue" : "white"), 255 - ($1 < $3 ? $1 : $3) }'; }
for fmt in svg html; do
	if browse diff "$TMP/d.$fmt" "$ART" shrinks grows fresh steady; then
		ok "$fmt: the differential flame graph loads offline with no console error and no request"
	else
		not_ok "$fmt: the differential flame graph loads offline" "$(grep '^fail=' "$TMP/b.out" | head -n 5)"
	fi
	set -- $(val diff_shrinks) && sc=$1 sd=$4
	check "$fmt: shrinks is blue ($sc), its self change the table's delta ($sd vs $sh_d)" \
		awk -v l="$(lean "$sc")" -v a="$sd" -v b="$sh_d" 'BEGIN { split(l, x, " "); d = a - b; exit !(x[1] == "blue" && d < 0.1 && d > -0.1) }'
	set -- $(val diff_grows) && gc=$1 gd=$4
	check "$fmt: grows is red ($gc), its self change the table's delta ($gd vs $gr_d)" \
		awk -v l="$(lean "$gc")" -v a="$gd" -v b="$gr_d" 'BEGIN { split(l, x, " "); d = a - b; exit !(x[1] == "red" && d < 0.1 && d > -0.1) }'
	set -- $(val diff_fresh) && fc=$1 fw=$3
	check "$fmt: fresh is red ($fc) and was 0% ($fw)" sh -c "[ '$(lean "$fc" | cut -d' ' -f1)' = red ] && awk -v w='$fw' 'BEGIN { exit !(w == 0) }'"
	set -- $(val diff_steady) && stc=$1
	check "$fmt: steady is paler ($stc) than grows ($gc)" \
		awk -v a="$(lean "$stc" | cut -d' ' -f2)" -v b="$(lean "$gc" | cut -d' ' -f2)" 'BEGIN { exit !(a < b / 4) }'
	check "$fmt: hovering shrinks says what it was ($(val details))" sh -c "sed -n 's/^details=//p' '$TMP/b.out' | grep -q 'was .*%, self -'"
	check "$fmt: a screenshot is kept" test -s "$ART/diff-d_$fmt.png"
done
"$PERFEV" diff -q pe.old pe.new --flamegraph "$TMP/d.png" >/dev/null 2>"$TMP/err"
check "--flamegraph refuses a name that is neither .svg nor .html ($(cat "$TMP/err"))" grep -q 'FILE.svg or FILE.html' "$TMP/err"

# --- the pprof pair for go tool pprof -diff_base
if command -v go >/dev/null 2>&1; then
	"$PERFEV" diff -q perf.old pe.new --pprof "$TMP/pp" >/dev/null 2>"$TMP/err"
	if go tool pprof -top -nodecount=1000 -diff_base "$TMP/pp/base.pb.gz" "$TMP/pp/new.pb.gz" >"$TMP/top" 2>&1; then
		ok "go tool pprof -diff_base reads the pair (perf's baseline, perfev's new file)"
	else
		not_ok "go tool pprof -diff_base reads the pair" "$(head -n 5 "$TMP/top")"
	fi
	flat() { awk -v f="$1" '$NF == f { print $1; exit }' "$TMP/top"; }
	check "pprof -diff_base: grows and fresh grew, shrinks and gone shrank ($(flat grows) $(flat fresh) $(flat shrinks) $(flat gone))" \
		sh -c "case '$(flat grows)' in -*|'') exit 1;; esac; case '$(flat fresh)' in -*|'') exit 1;; esac;
		       case '$(flat shrinks)' in -*) ;; *) exit 1;; esac; case '$(flat gone)' in -*) ;; *) exit 1;; esac"
else
	not_ok "go is installed (scripts/setup.sh installs golang-go)"
fi

# --- mistakes and damaged input: a clear error, exit 1
mkdir empty
(cd empty && "$PERFEV" diff >/dev/null 2>"$TMP/err")
st=$?
check "no perf.data.old: exit 1, saying so ($(cat "$TMP/err"))" sh -c "[ $st = 1 ] && grep -q \"perf.data.old': no such file\" '$TMP/err'"
"$PERFEV" diff pe.old missing.data >/dev/null 2>"$TMP/err"
st=$?
check "a missing NEW file: exit 1, naming it" sh -c "[ $st = 1 ] && grep -q \"'missing.data'\" '$TMP/err'"
size=$(wc -c <pe.new)
head -c $((size * 2 / 3)) pe.new >cut.data
"$PERFEV" diff pe.old cut.data >/dev/null 2>"$TMP/err"
st=$?
check "a truncated file: exit 1, saying it is damaged ($(head -c 160 "$TMP/err"))" sh -c "[ $st = 1 ] && grep -q 'cut.data' '$TMP/err' && grep -qi 'damaged\|truncated\|cannot read' '$TMP/err'"
cp pe.new zeroed.data
head -c 512 /dev/zero | dd of=zeroed.data bs=1 seek=$((size / 2)) conv=notrunc 2>/dev/null
"$PERFEV" diff pe.old zeroed.data >/dev/null 2>"$TMP/err"
st=$?
check "a record zeroed mid-file: exit 1, saying where ($(head -c 200 "$TMP/err"))" \
	sh -c "[ $st = 1 ] && grep -q \"cannot compare 'zeroed.data': it is damaged\" '$TMP/err' && grep -q 'offset 0x' '$TMP/err'"
head -c 4096 /dev/urandom >junk.data
"$PERFEV" diff pe.old junk.data >/dev/null 2>"$TMP/err"
st=$?
check "a file that is not perf.data: exit 1 ($(head -c 160 "$TMP/err"))" sh -c "[ $st = 1 ] && grep -q 'junk.data' '$TMP/err'"
: >empty.data
"$PERFEV" diff pe.old empty.data >/dev/null 2>"$TMP/err"
st=$?
check "an empty file: exit 1 ($(head -c 160 "$TMP/err"))" sh -c "[ $st = 1 ] && grep -q 'empty.data' '$TMP/err'"
"$PERFEV" diff --json pe.old missing.data >"$TMP/out" 2>/dev/null
check "--json: the error is JSON" sh -c "jq -e .error '$TMP/out' >/dev/null"
for bad in "-c foo" "-c wdiff:1" "-c wdiff:0,1" "-c ratio:2" "-o 3" "-s nokey" "--percentage half"; do
	# shellcheck disable=SC2086
	"$PERFEV" diff $bad pe.old pe.new >/dev/null 2>"$TMP/err"
	st=$?
	check "perfev diff $bad: a usage error ($(head -n 1 "$TMP/err"))" sh -c "[ $st = 1 ] && [ -s '$TMP/err' ]"
done
