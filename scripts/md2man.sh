#!/bin/sh
# Writes to stdout a man page made from a guide in the project's markdown, so that the guide is
# written once and installed as both: "# Title" becomes the NAME line, "## Part" a section,
# paragraphs, "- " lists (continued by indented lines) and ``` code blocks their man forms,
# `code` bold.  Only what the project's guides use; anything else is a paragraph's text.
# usage: scripts/md2man.sh NAME SECTION VERSION FILE.md   (e.g. libperfev-selfmon 3 0.1.0)
set -eu
[ $# = 4 ] || { echo "usage: $0 NAME SECTION VERSION FILE.md" >&2; exit 2; }
name=$1 section=$2 version=$3 md=$4
date=$(date -u -r "$md" +%Y-%m-%d 2>/dev/null || date -u +%Y-%m-%d)
awk -v name="$name" -v section="$section" -v version="$version" -v date="$date" -v md="$md" '
# roff escapes: backslash, hyphen-minus (an ASCII minus, not a hyphen), a leading dot or quote
function esc(s) {
	gsub(/\\/, "\\e", s)
	gsub(/-/, "\\-", s)
	if (s ~ /^[.\047]/)
		s = "\\&" s
	return s
}
# a text line: escapes, then `code` in bold
function text(s,    out, i, n, parts) {
	s = esc(s)
	n = split(s, parts, "`")
	out = parts[1]
	for (i = 2; i <= n; i++)
		out = out ((i % 2) ? "\\fR" : "\\fB") parts[i]
	if (n % 2 == 0)
		out = out "\\fR"
	return out
}
BEGIN {
	printf ".\\\" Made by scripts/md2man.sh from %s; edit that file, not this one.\n", md
	printf ".TH %s %s %s \"perfev %s\" \"perfev manual\"\n", toupper(name), section, date, version
	# no hyphenation, left-aligned: the words as written
	print ".nh"
	print ".ad l"
	code = 0
	para = 0
}
code && /^```/ { print ".fi"; print ".RE"; code = 0; para = 1; next }
code { print esc($0); next }
/^```/ { print ".PP"; print ".RS 4"; print ".nf"; code = 1; next }
/^# / && !titled {
	sub(/^# +/, "")
	print ".SH NAME"
	printf "%s \\- %s\n", esc(name), text($0)
	titled = 1
	para = 1
	next
}
/^## / { sub(/^## +/, ""); printf ".SH %s\n", toupper(esc($0)); para = 0; next }
/^- / { sub(/^- +/, ""); print ".IP \\(bu 2"; print text($0); para = 0; list = 1; next }
/^[ \t]*$/ { if (!para) {} ; para = 1; list = 0; next }
list && /^  +[^ ]/ { sub(/^ +/, ""); print text($0); next }
{
	if (para)
		print ".PP"
	para = 0
	print text($0)
}
END { if (code) print ".fi" }
' "$md"
