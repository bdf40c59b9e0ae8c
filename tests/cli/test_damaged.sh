#!/bin/sh
# One damaged feature section of a real perf.data file (perf's, and perfev's own) is said,
# left out, and the file is still reported in full, as perf does for the informational
# sections (and perfev also where perf gives up: a damaged command line or event list).
. "$(dirname "$0")/lib.sh"

DAMAGE="$HELPERS/damage_feature"
# Feature bits and their names in perf.data (perf's HEADER_* numbers).
NAMES="2:BUILD_ID 3:HOSTNAME 4:OSRELEASE 5:VERSION 6:ARCH 7:NRCPUS 8:CPUDESC 9:CPUID 10:TOTAL_MEM
11:CMDLINE 12:EVENT_DESC 13:CPU_TOPOLOGY 14:NUMA_TOPOLOGY 16:PMU_MAPPINGS 17:GROUP_DESC 20:CACHE
21:SAMPLE_TIME 22:MEM_TOPOLOGY 25:BPF_PROG_INFO 26:BPF_BTF 31:PMU_CAPS"
# The sections perfev reads through (the others it keeps as bytes): damage inside them is said too.
PARSED="2 3 4 5 6 8 9 11 12 17"

# Samples of FILE as perfev script prints them (report rounds its counts, as perf: "4K").
samples() { "$PERFEV" script -F comm,tid,time -i "$1" 2>/dev/null | wc -l; }

# damaged FILE LABEL: every section of FILE, its table entry and (where perfev reads it) its body.
damaged() {
	file=$1 label=$2
	"$PERFEV" report --no-children -g none -i "$file" >"$TMP/base" 2>"$TMP/base.err"
	want=$(samples "$file")
	if [ "$want" = 0 ]; then
		not_ok "$label: the undamaged file reports" "$(cat "$TMP/base.err")"
		return
	fi
	for nb in $NAMES; do
		bit=${nb%%:*} name=${nb#*:}
		for how in table body; do
			case " $PARSED " in *" $bit "*) ;; *) [ $how = body ] && continue ;; esac
			"$DAMAGE" "$file" "$TMP/d.data" "$bit" "$how"
			st=$?
			[ $st = 2 ] && continue # no such section in this file
			if [ $st != 0 ]; then
				not_ok "$label: damage $name ($how)" "damage_feature failed ($st)"
				continue
			fi
			"$PERFEV" report --no-children -g none -i "$TMP/d.data" >"$TMP/o" 2>"$TMP/e"
			st=$?
			got=$(samples "$TMP/d.data")
			if [ $st = 0 ] && [ "$got" = "$want" ] && grep -q "warning: .*$name.*left out" "$TMP/e"; then
				ok "$label: a damaged $name section ($how) is said, left out, and all $got samples are reported"
			else
				not_ok "$label: a damaged $name section ($how) is said, left out, and all samples are reported" \
					"status $st, samples ${got:-none} (want $want)" "$(cat "$TMP/e")"
			fi
		done
	done
}

# A real file of perf's (perf record -g), kept with the reader's fuzzing seeds.
damaged "$ROOT_DIR/fuzz/corpus/perfdata/perf_g" "perf's file"

# One of perfev's own, as it writes them today.
if "$PERFEV" record -q -g -o "$TMP/ours.data" -- "$HELPERS/hot" 50 >/dev/null 2>&1; then
	damaged "$TMP/ours.data" "perfev's file"
else
	not_ok "perfev records a file to damage"
fi

# The pipe format carries features as records: a damaged one is said and the stream goes on.
"$PERFEV" record -q -o - -- "$HELPERS/hot" 20 2>/dev/null >"$TMP/pipe.data"
want=$(samples "$TMP/pipe.data")
# The HOSTNAME record: header (type 80), feature 3, then the string's u32 length.
off=$(od -A d -t u4 -v -w8 "$TMP/pipe.data" | awk '$2 == 80 && $3 != "" { print $1 + 0 }' |
	while read -r at; do
		f=$(od -A n -t u8 -j $((at + 8)) -N 8 "$TMP/pipe.data" | tr -d ' ')
		[ "$f" = 3 ] && { echo "$at"; break; }
	done)
if [ -n "$off" ]; then
	cp "$TMP/pipe.data" "$TMP/pipe-d.data"
	printf '\377\377\377\377' | dd of="$TMP/pipe-d.data" bs=1 seek=$((off + 16)) conv=notrunc 2>/dev/null
	"$PERFEV" report --no-children -g none -i - <"$TMP/pipe-d.data" >"$TMP/o" 2>"$TMP/e"
	st=$?
	check "a pipe with a damaged HOSTNAME record: said, and all $want samples reported" \
		sh -c "[ $st = 0 ] && [ '$(samples "$TMP/pipe-d.data")' = '$want' ] && grep -q 'HOSTNAME.*left out' '$TMP/e'"
else
	not_ok "the pipe stream has a HOSTNAME feature record to damage"
fi
