#!/bin/sh
# The library's folders import only downwards and the tool sees only the public
# API: scripts/check-layers.sh on this build's objects (see docs/architecture.md).
. "$(dirname "$0")/lib.sh"
sh "$ROOT_DIR/scripts/check-layers.sh" "$BUILD_DIR" >"$TMP/layers"
st=$?
cat "$TMP/layers"
n=$(grep -cE '^(not )?ok ' "$TMP/layers") # the checks below number on from check-layers' own
# qsort() and bsearch() on an empty array never grown (NULL) are undefined, and a sanitized
# build aborts: the library sorts and searches through sort_array()/search_array() only.
grep -rnE '\b(qsort|bsearch)\(' "$ROOT_DIR/src/lib" --include=*.c >"$TMP/direct"
check "the library calls qsort/bsearch only through sort_array/search_array" \
	sh -c "[ ! -s '$TMP/direct' ] || { cat '$TMP/direct'; false; }"
exit $st
