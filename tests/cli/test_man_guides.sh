#!/bin/sh
# The guides of docs/ installed as man pages (scripts/md2man.sh): docs/selfmon.md is
# libperfev-selfmon(3).  The page is what the build makes from the markdown now, man renders it
# without a warning, and its text is the guide's: every word, in order (code blocks included).
. "$(dirname "$0")/lib.sh"

page=$BUILD_DIR/man/libperfev-selfmon.3
md=$ROOT_DIR/docs/selfmon.md
if ! [ -f "$page" ]; then
	not_ok "the build made $page" "run make"
	exit 1
fi
version=$(sed -n 's/^VERSION *:= *//p' "$ROOT_DIR/Makefile")
(cd "$ROOT_DIR" && sh scripts/md2man.sh libperfev-selfmon 3 "$version" docs/selfmon.md) >"$TMP/fresh.3"
check "the installed page is made from docs/selfmon.md as it is now" cmp -s "$TMP/fresh.3" "$page"

# The rendered text, one line per line of the page, no wrapping, no hyphenation.
LC_ALL=C.UTF-8 MANWIDTH=2000 man --warnings -l "$page" >"$TMP/man.txt" 2>"$TMP/man.err"
check "man renders it without a warning" sh -c "[ -s '$TMP/man.txt' ] && ! [ -s '$TMP/man.err' ]"
check "its NAME line names it after the guide's title" \
	grep -q "libperfev-selfmon - $(sed -n '1s/^# //p' "$md")" "$TMP/man.txt"

# words FILE: its words one per line, the markdown's marks (#, -, `) and the man page's
# header, footer and section titles dropped
md_words() {
	sed -e '/^```/d' -e 's/^#\{1,\} //' -e 's/^- //' -e 's/`//g' "$1" | tr -s ' \t' '\n\n' | grep -v '^$'
}
man_words() {
	# (the title and footer lines; the section titles are the guide's "##" lines, in capitals)
	sed -e '1d' -e '$d' -e '/^NAME$/d' -e 's/^       libperfev-selfmon - //' "$1" |
		sed 's/•//' | tr -s ' \t' '\n\n' | grep -v '^$'
}
md_words "$md" >"$TMP/md.w"
man_words "$TMP/man.txt" >"$TMP/man.w"
# Section titles are in capitals in the page.
tr '[:lower:]' '[:upper:]' <"$TMP/md.w" >"$TMP/md.W"
tr '[:lower:]' '[:upper:]' <"$TMP/man.w" >"$TMP/man.W"
if diff "$TMP/md.W" "$TMP/man.W" >"$TMP/d"; then
	ok "the page holds the guide's $(wc -l <"$TMP/md.w") words, in order"
else
	not_ok "the page holds the guide's words, in order" "< docs/selfmon.md, > the man page" "$(head -n 20 "$TMP/d")"
fi
# And a change to the guide shows: the check above is not blind.
sed 's/object per thread/object per process/' "$md" >"$TMP/changed.md"
md_words "$TMP/changed.md" | tr '[:lower:]' '[:upper:]' >"$TMP/ch.W"
check "a guide that says something else does not match the page" sh -c "! cmp -s '$TMP/ch.W' '$TMP/man.W'"
