#!/bin/sh
# Adds up the results files of several test runs into the closing line of 'make check'.
pass=0 fail=0 skip=0
for f in "$@"; do
	[ -f "$f" ] || { echo "missing results: $f"; fail=$((fail + 1)); continue; }
	read -r p fl s <"$f"
	pass=$((pass + p)) fail=$((fail + fl)) skip=$((skip + s))
done
echo
echo "check: $pass passed, $fail failed, $skip skipped"
[ "$fail" = 0 ]
