#!/bin/sh
# Installs the Debian packages perfev needs to build, test and benchmark, when any
# is missing. Quiet when everything is already there; idempotent.
set -eu

# Build: compilers, pkg-config, the libraries libperfev links (libiberty for its
# C++ and Rust demangler, the one binutils and gdb use).
# Test: cmocka, Linux perf as the interop peer, valgrind, jq to validate JSON,
# hyperfine for bench/; python3 and perl are parity workloads (python3 also compares
# the outputs, tests/parity/compare.py); g++ and lld build the symbol and unwind test programs
# (C++ names; a library whose text is not at its file offset).
# libclang-rt-14-dev carries libFuzzer and clang's sanitizer runtimes.
# The profile exports: protobuf-c (its compiler makes pprof's messages at build time) and zlib;
# their tests' peers: golang-go (go tool pprof), chromium (headless, for the HTML report, the SVG
# and speedscope's app), libxml2-utils (xmllint), and Node.js for the npm packages of tests/js.
# Annotation: Capstone disassembles, libdebuginfod fetches missing sources.
# The terminal browser (perfev report on a terminal, perfev top) draws with ncurses; its tests
# drive it in a real terminal under tmux.
# Syscalls: linux-libc-dev's kernel headers give the syscall tables (scripts/gen-syscalls.sh);
# strace is perfev trace -s's peer.
PKGS="gcc g++ clang make pkg-config binutils libcmocka-dev libpfm4-dev libelf-dev libdw-dev
libzstd-dev zlib1g-dev libiberty-dev lld linux-perf valgrind hyperfine libclang-rt-14-dev procps jq python3 perl
libprotobuf-c-dev protobuf-c-compiler golang-go chromium libxml2-utils libcapstone-dev libdebuginfod-dev
libncurses-dev tmux linux-libc-dev strace"

missing=""
for p in $PKGS; do
	st=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
	[ "$st" = "installed" ] || missing="$missing $p"
done
# Node.js may come from elsewhere than Debian (with npm inside it): ask for Debian's only when absent.
command -v npm >/dev/null 2>&1 || missing="$missing nodejs npm"

if [ -n "$missing" ]; then
	if [ "$(id -u)" != 0 ]; then
		echo "perfev setup: these Debian packages are missing:$missing" >&2
		echo "perfev setup: run 'make demo' or 'make check' as root, or install them with:" >&2
		echo "  sudo apt-get install$missing" >&2
		exit 1
	fi
	echo "perfev setup: installing$missing"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq >/dev/null 2>&1 || true
	# shellcheck disable=SC2086
	if ! apt-get install -y -qq --no-install-recommends $missing >/tmp/perfev-setup.log 2>&1; then
		cat /tmp/perfev-setup.log >&2
		echo "perfev setup: installing the packages failed (log above); check network access to the Debian mirror" >&2
		exit 1
	fi
fi

# The browser tests' npm packages (speedscope, ajv, puppeteer-core), as locked in tests/js; puppeteer
# never downloads a browser (the tests run Debian's chromium).
JS=$(cd "$(dirname "$0")/../tests/js" && pwd)
if [ ! -f "$JS/node_modules/.package-lock.json" ] || [ "$JS/package-lock.json" -nt "$JS/node_modules/.package-lock.json" ]; then
	echo "perfev setup: installing the npm packages of tests/js"
	if ! (cd "$JS" && PUPPETEER_SKIP_DOWNLOAD=1 npm ci --no-audit --no-fund >/tmp/perfev-npm.log 2>&1); then
		cat /tmp/perfev-npm.log >&2
		echo "perfev setup: 'npm ci' in tests/js failed (log above); check access to the npm registry" >&2
		exit 1
	fi
fi

# Tracepoint events are named through tracefs; mount it where the kernel expects it.
if [ "$(id -u)" = 0 ] && [ -d /sys/kernel/tracing ] && [ ! -e /sys/kernel/tracing/events ]; then
	mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null ||
		echo "perfev setup: could not mount tracefs at /sys/kernel/tracing; tracepoint tests will skip" >&2
fi
exit 0
