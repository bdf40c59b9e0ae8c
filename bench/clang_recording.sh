# Sourced by the benchmarks that read a big recording (bench_report.sh, bench_tui.sh):
# record_clang FILE records, with perf, clang compiling perfev's own sources two
# at a time (the machine's two CPUs) for SECS (default 6) seconds, 50 µs of CPU
# per sample, frame-pointer call graphs: 250,000-450,000 samples across clang,
# libLLVM, libstdc++, libc, ld.so and the kernel on an idle machine (fewer on a
# busy one: give more SECS).  The time is checked before each file, so a slow
# machine does not run a whole pass over the sources past it.  Needs ROOT and
# GENDIR (the build's generated headers, which perfev's sources include).
record_clang() {
	perf record -q -g -e cpu-clock -c 50000 -o "$1" -- sh -c "
		cd '$ROOT' && end=\$((\$(date +%s) + ${SECS:-6}))
		worker() {
			while :; do
				for f in \$(ls src/lib/*/*.c | awk -v k=\$1 'NR % 2 == k'); do
					[ \$(date +%s) -lt \$end ] || return 0
					clang -O2 -g -Iinclude -Isrc/lib -I'$GENDIR' -D_GNU_SOURCE -c -o /dev/null \$f
				done
			done
		}
		worker 0 & worker 1 & wait" >/dev/null 2>&1
}
# samples_of FILE: its number of samples, as perf counts them.
samples_of() {
	perf report -D -i "$1" 2>/dev/null | awk '/^ *SAMPLE events:/ { print $3; exit }'
}
