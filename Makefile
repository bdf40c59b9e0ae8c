# perfev build.  `make` builds libperfev.{a,so} and perfev; `make check` runs
# every test (also under ASan+UBSan); `make demo` profiles the bundled workload.
# Variables: CC, BUILD (output directory), SAN=1 (sanitizers), PREFIX, DESTDIR, BASHCOMPDIR.

CC       ?= cc
BUILD    ?= build
PREFIX   ?= /usr/local
DESTDIR  ?=
LIBDIR   ?= $(PREFIX)/lib
INCDIR   ?= $(PREFIX)/include
BINDIR   ?= $(PREFIX)/bin
MANDIR   ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions

VERSION  := 0.1.0
SOMAJOR  := 0

WARN     := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
            -Wno-missing-field-initializers
CFLAGS   ?= -O2 -g
ALL_CFLAGS := -std=c11 -D_GNU_SOURCE $(WARN) -fvisibility=hidden -fPIC -Iinclude $(CFLAGS)
NO_UNDEF := -Wl,--no-undefined
ifeq ($(SAN),1)
ALL_CFLAGS += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
SAN_LDFLAGS := -fsanitize=address,undefined
# The sanitizer runtime comes with the executable, so a sanitized .so has undefined symbols.
NO_UNDEF :=
endif
LIBS     := -ldw -lelf -lzstd -liberty -lprotobuf-c -lz -lm -ldl -pthread
# The tool's terminal browser (perfev report on a terminal, perfev top): ncurses, wide-character build.
CLI_LIBS := $(shell pkg-config --libs ncursesw 2>/dev/null || echo -lncursesw -ltinfo)
LDFLAGS  ?=
ALL_LDFLAGS := $(SAN_LDFLAGS) $(LDFLAGS)

LIB_SRCS := $(sort $(wildcard src/lib/*/*.c))
# Made at build time into $(BUILD)/gen (included as "profile/NAME.h"): pprof's messages by protoc-c
# from src/lib/profile/pprof.proto, and the flame graphs' and HTML report's page parts
# (src/lib/profile/html/) as C arrays.
GEN      := $(BUILD)/gen
# The syscall tables of src/lib/syscalls/ from the kernel's headers (scripts/gen-syscalls.sh).
GEN_SRCS := $(GEN)/profile/pprof.pb-c.c $(GEN)/profile/html_assets.c $(GEN)/syscalls/syscall_tables.c
GEN_OBJS := $(GEN_SRCS:%.c=%.o)
HTML_ASSETS := $(sort $(wildcard src/lib/profile/html/*))
CLI_SRCS := $(sort $(wildcard src/cli/*.c))
TEST_SRCS := $(sort $(wildcard tests/*/test_*.c))
HELPER_SRCS := $(sort $(wildcard tests/helpers/*.c))
HELPER_CXX_SRCS := $(sort $(wildcard tests/helpers/*.cc))
BENCH_SRCS := $(sort $(wildcard bench/*.c))
EXAMPLE_SRCS := $(sort $(wildcard examples/*.c))

LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/%.o) $(GEN_OBJS)
CLI_OBJS := $(CLI_SRCS:%.c=$(BUILD)/%.o)
TESTS    := $(TEST_SRCS:%.c=$(BUILD)/%)
HELPERS  := $(HELPER_SRCS:%.c=$(BUILD)/%) $(HELPER_CXX_SRCS:%.cc=$(BUILD)/%)
BENCHES  := $(BENCH_SRCS:%.c=$(BUILD)/%)
EXAMPLES := $(EXAMPLE_SRCS:%.c=$(BUILD)/%)
UW_DIR   := $(BUILD)/tests/unwind
UNWIND_BINS := $(UW_DIR)/uw_work $(UW_DIR)/libuwlib.so $(UW_DIR)/libuwlld.so

STATIC   := $(BUILD)/libperfev.a
SHARED   := $(BUILD)/libperfev.so.$(VERSION)
TOOL     := $(BUILD)/perfev
COMPLETION := $(BUILD)/completion/perfev
MAP      := src/lib/libperfev.map

.PHONY: all lib tool man tests helpers symtest bench examples check check-fast check-san check-tsan demo \
        install uninstall fuzz fuzz-smoke setup clean
.DEFAULT_GOAL := all

all: lib tool examples man
lib: $(STATIC) $(SHARED) $(BUILD)/perfev.pc
tool: $(TOOL) $(COMPLETION)
tests: $(TESTS) $(HELPERS) $(TOOL) $(UNWIND_BINS)
helpers: $(HELPERS)
bench: setup $(BENCHES) $(TOOL) $(HELPERS)
	@sh bench/run.sh $(BUILD)
examples: $(EXAMPLES)

# The library's internal headers are for the library and its tests; the tool
# sees include/ only (scripts/check-layers.sh checks it).
$(BUILD)/src/lib/%.o $(BUILD)/tests/%.o $(BUILD)/bench/%.o: INTERNAL := -Isrc/lib -I$(GEN)
$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(INTERNAL) -MMD -MP -c -o $@ $<

$(GEN)/profile/pprof.pb-c.c $(GEN)/profile/pprof.pb-c.h: src/lib/profile/pprof.proto
	@mkdir -p $(GEN)/profile
	protoc-c --proto_path=src/lib/profile --c_out=$(GEN)/profile pprof.proto
$(GEN)/profile/html_assets.c: $(HTML_ASSETS) scripts/embed.sh
	@mkdir -p $(GEN)/profile
	sh scripts/embed.sh $(HTML_ASSETS) >$@.tmp && mv $@.tmp $@
$(GEN)/syscalls/syscall_tables.c: scripts/gen-syscalls.sh
	@mkdir -p $(GEN)/syscalls
	sh scripts/gen-syscalls.sh "$(CC)" >$@.tmp && mv $@.tmp $@
$(GEN)/%.o: $(GEN)/%.c
	$(CC) $(ALL_CFLAGS) -Isrc/lib -I$(GEN) -MMD -MP -c -o $@ $<
# The generated header must exist before the writer that includes it is compiled.
$(BUILD)/src/lib/profile/write_pprof.o $(BUILD)/fuzz/lib/profile/write_pprof.o: $(GEN)/profile/pprof.pb-c.h

$(STATIC): $(LIB_OBJS)
	@rm -f $@
	ar rcs $@ $^

$(SHARED): $(LIB_OBJS) $(MAP)
	$(CC) -shared -Wl,-soname,libperfev.so.$(SOMAJOR) -Wl,--version-script=$(MAP) \
	      $(NO_UNDEF) $(ALL_LDFLAGS) -o $@ $(LIB_OBJS) $(LIBS)
	ln -sf libperfev.so.$(VERSION) $(BUILD)/libperfev.so.$(SOMAJOR)
	ln -sf libperfev.so.$(SOMAJOR) $(BUILD)/libperfev.so

$(BUILD)/perfev.pc: perfev.pc.in Makefile
	@mkdir -p $(dir $@)
	sed -e 's|@PREFIX@|$(PREFIX)|; s|@LIBDIR@|$(LIBDIR)|; s|@INCDIR@|$(INCDIR)|; s|@VERSION@|$(VERSION)|' \
	    $< > $@

$(TOOL): $(CLI_OBJS) $(STATIC)
	$(CC) $(ALL_LDFLAGS) -o $@ $(CLI_OBJS) $(STATIC) $(LIBS) $(CLI_LIBS)

# The bash completion is made from the tool's own option tables.
$(COMPLETION): $(TOOL)
	@mkdir -p $(dir $@)
	$(TOOL) completion bash >$@.tmp && mv $@.tmp $@

# Man pages made from the guides in docs/ (written once, in markdown): docs/selfmon.md is
# libperfev-selfmon(3).
MANPAGES := $(BUILD)/man/libperfev-selfmon.3
man: $(MANPAGES)
$(BUILD)/man/libperfev-selfmon.3: docs/selfmon.md scripts/md2man.sh
	@mkdir -p $(dir $@)
	sh scripts/md2man.sh libperfev-selfmon 3 $(VERSION) $< >$@.tmp && mv $@.tmp $@

# Tests sit beside what they test: tests/CONCERN/test_NAME.c for src/lib/CONCERN/.
LIB_TESTS := $(filter-out $(BUILD)/tests/cli/%,$(TESTS))
$(LIB_TESTS): $(BUILD)/tests/%: $(BUILD)/tests/%.o $(STATIC)
	$(CC) $(ALL_LDFLAGS) -o $@ $< $(STATIC) $(LIBS) -lcmocka -lpthread

# A unit test of the tool's own code links the object it tests.
$(BUILD)/tests/cli/test_report_sort: $(BUILD)/tests/cli/test_report_sort.o $(BUILD)/src/cli/report_sort.o \
                                 $(BUILD)/src/cli/thread.o $(STATIC)
	$(CC) $(ALL_LDFLAGS) -o $@ $(filter %.o,$^) $(STATIC) $(LIBS) -lcmocka -lpthread

# Workloads the tests run: plain programs, no library.  Frame pointers in every
# function, leaves included, so frame-pointer call graphs are complete.
HELPER_OPT := -O1
# The profiling workload keeps every call and frame as written.
$(BUILD)/tests/helpers/hot $(BUILD)/tests/helpers/diffwork $(BUILD)/tests/helpers/after/diffwork: HELPER_OPT := -O0
LEAF_FP := $(if $(filter x86_64 i%86,$(shell uname -m)),-mno-omit-leaf-frame-pointer)
$(BUILD)/tests/helpers/%: tests/helpers/%.c
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -D_GNU_SOURCE $(HELPER_OPT) -g -fno-omit-frame-pointer $(LEAF_FP) -Wall -Wextra \
	      -Werror -o $@ $< -lpthread
# perfev diff's workload after its change: the same file name in another directory, as a
# program rebuilt elsewhere is (tests/helpers/diffwork.c).
DIFFWORK_AFTER := $(BUILD)/tests/helpers/after/diffwork
tests: $(DIFFWORK_AFTER)
$(DIFFWORK_AFTER): tests/helpers/diffwork.c
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -D_GNU_SOURCE $(HELPER_OPT) -g -fno-omit-frame-pointer $(LEAF_FP) -Wall -Wextra \
	      -Werror -DAFTER -o $@ $<
# C++ workloads: optimised, so that what they inline is inlined.
$(BUILD)/tests/helpers/%: tests/helpers/%.cc
	@mkdir -p $(dir $@)
	$(CXX) -std=c++17 -O2 -g -fno-omit-frame-pointer $(LEAF_FP) -Wall -Wextra -Werror -o $@ $<

# Symbol test binaries: what tests/symbols/test_symbols.c resolves and checks against
# nm, addr2line and c++filt.  Plain programs built without sanitizers or the
# library: a PIE, a shared library and its user, a stripped binary whose debug
# info is in a separate file (found by .gnu_debuglink, and by build id under
# SYMTEST/debug), inlined functions at -O2, and C++.
CXX      ?= g++
SYMTEST  := $(BUILD)/tests/symbols/symtest
SYMTEST_CFLAGS := -std=c11 -D_GNU_SOURCE -g -Wall -Wextra -Werror -Wl,--build-id
# A SHA-1-sized id ending in a zero byte, as 1 in 256 real ones do: it must not be taken for padding.
STRIPPED_ID := 0x5e1f0a11ced0b5e55ed1de0f1a11b00c0ffee000
SYMTEST_BINS := $(addprefix $(SYMTEST)/,pie libsym.so uselib stripped inline cxx)
symtest: $(SYMTEST_BINS)
# Here, not on the line above: prerequisites expand where the rule is read.
tests: $(SYMTEST_BINS)
$(SYMTEST)/pie: tests/symbols/symtest/pie.c tests/symbols/symtest/common.h
	@mkdir -p $(dir $@)
	$(CC) $(SYMTEST_CFLAGS) -O1 -fPIE -pie -o $@ $<
$(SYMTEST)/libsym.so: tests/symbols/symtest/libsym.c
	@mkdir -p $(dir $@)
	$(CC) $(SYMTEST_CFLAGS) -O1 -fPIC -shared -o $@ $<
$(SYMTEST)/uselib: tests/symbols/symtest/uselib.c tests/symbols/symtest/common.h $(SYMTEST)/libsym.so
	$(CC) $(SYMTEST_CFLAGS) -O1 -fPIE -pie -o $@ $< -L$(SYMTEST) -lsym -Wl,-rpath,'$$ORIGIN'
$(SYMTEST)/stripped: tests/symbols/symtest/stripped.c
	@mkdir -p $(SYMTEST)/.debug
	$(CC) $(SYMTEST_CFLAGS) -O1 -fPIE -pie -Wl,--build-id=$(STRIPPED_ID) -o $@.full $<
	objcopy --only-keep-debug $@.full $(SYMTEST)/.debug/stripped.debug
	objcopy --strip-all --add-gnu-debuglink=$(SYMTEST)/.debug/stripped.debug $@.full $@
	id=$$(readelf -n $@ | sed -n 's/^ *Build ID: *//p'); \
	    d=$(SYMTEST)/debug/.build-id/$$(echo $$id | cut -c1-2); mkdir -p $$d && \
	    cp $(SYMTEST)/.debug/stripped.debug $$d/$$(echo $$id | cut -c3-).debug
	rm -f $@.full
$(SYMTEST)/inline: tests/symbols/symtest/inline.c
	@mkdir -p $(dir $@)
	$(CC) $(SYMTEST_CFLAGS) -O2 -o $@ $<
$(SYMTEST)/cxx: tests/symbols/symtest/cxx.cc
	@mkdir -p $(dir $@)
	$(CXX) -std=c++17 -g -O1 -Wall -Wextra -Werror -Wl,--build-id -o $@ $<

# Annotation test workloads: a C program with a known hot loop, also stripped with its
# debug info in a separate file (found by .gnu_debuglink and by build id under WORK/debug),
# built with other code (a binary rebuilt after recording), and with its source path moved
# away (sources found by --prefix or debuginfod); a C++ program with a hot helper inlined
# from a header.
ANNOTATE_WORK := $(BUILD)/tests/annotate/work
ANNOTATE_BINS := $(addprefix $(ANNOTATE_WORK)/,hotloop hotloop-rebuilt hotloop-stripped hotloop-moved inl)
WORK_CFLAGS := -std=c11 -O2 -g -Wall -Wextra -Werror -Wl,--build-id
tests: $(ANNOTATE_BINS)
$(ANNOTATE_WORK)/hotloop: tests/annotate/work/hotloop.c
	@mkdir -p $(dir $@)
	$(CC) $(WORK_CFLAGS) -o $@ $<
$(ANNOTATE_WORK)/hotloop-rebuilt: tests/annotate/work/hotloop.c
	@mkdir -p $(dir $@)
	$(CC) $(WORK_CFLAGS) -DREBUILT -o $@ $<
$(ANNOTATE_WORK)/hotloop-moved: tests/annotate/work/hotloop.c
	@mkdir -p $(dir $@)
	$(CC) $(WORK_CFLAGS) -fdebug-prefix-map=$(CURDIR)=/nonexistent/perfev-src -o $@ $<
$(ANNOTATE_WORK)/hotloop-stripped: tests/annotate/work/hotloop.c
	@mkdir -p $(ANNOTATE_WORK)/.debug
	$(CC) $(WORK_CFLAGS) -o $@.full $<
	objcopy --only-keep-debug $@.full $(ANNOTATE_WORK)/.debug/hotloop-stripped.debug
	objcopy --strip-all --add-gnu-debuglink=$(ANNOTATE_WORK)/.debug/hotloop-stripped.debug $@.full $@
	id=$$(readelf -n $@ | sed -n 's/^ *Build ID: *//p'); \
	    d=$(ANNOTATE_WORK)/debug/.build-id/$$(echo $$id | cut -c1-2); mkdir -p $$d && \
	    cp $(ANNOTATE_WORK)/.debug/hotloop-stripped.debug $$d/$$(echo $$id | cut -c3-).debug
	rm -f $@.full
$(ANNOTATE_WORK)/inl: tests/annotate/work/inl.cc tests/annotate/work/mix.h
	@mkdir -p $(dir $@)
	$(CXX) -std=c++17 -O2 -g -Wall -Wextra -Werror -Wl,--build-id -o $@ $<

# Unwind test binaries: a workload without frame pointers, so only CFI walks
# its stack, calling into a shared library linked by GNU ld and another linked
# by lld (whose text segment's address differs from its file offset).  Found
# next to the workload through its $$ORIGIN rpath.
UW_CFLAGS := -std=c11 -D_GNU_SOURCE -O2 -g -fomit-frame-pointer -Wall -Wextra -Werror
$(UW_DIR)/libuwlib.so: tests/unwind/uw_lib.c
	@mkdir -p $(dir $@)
	$(CC) $(UW_CFLAGS) -fPIC -shared -o $@ $<
$(UW_DIR)/libuwlld.so: tests/unwind/uw_lib.c
	@mkdir -p $(dir $@)
	$(CC) $(UW_CFLAGS) -DUW_LIB_FN=uw_lld_spin -fPIC -shared -fuse-ld=lld -o $@ $<
$(UW_DIR)/uw_work: tests/unwind/uw_work.c $(UW_DIR)/libuwlib.so $(UW_DIR)/libuwlld.so
	$(CC) $(UW_CFLAGS) -o $@ $< -L$(UW_DIR) -luwlib -luwlld -Wl,-rpath,'$$ORIGIN'
# End of the unwind test binaries.

# Parity workloads (tests/parity/): the programs tests/cli/test_parity.sh records with
# perf and with perfev.  Optimised with frame pointers as a distribution builds, the
# C++ one through a shared library of its own (found by its $$ORIGIN rpath).
PARITY   := $(BUILD)/tests/parity
PARITY_BINS := $(addprefix $(PARITY)/,parity_cxx libparity.so parity_threads parity_exec)
PARITY_FLAGS := -O2 -g -fno-omit-frame-pointer -Wall -Wextra -Werror -Wl,--build-id
tests: $(PARITY_BINS)
$(PARITY)/libparity.so: tests/parity/parity_lib.cc tests/parity/parity_lib.h
	@mkdir -p $(dir $@)
	$(CXX) -std=c++17 $(PARITY_FLAGS) -fPIC -shared -o $@ $<
$(PARITY)/parity_cxx: tests/parity/parity_cxx.cc tests/parity/parity_lib.h $(PARITY)/libparity.so
	$(CXX) -std=c++17 $(PARITY_FLAGS) -o $@ $< -L$(PARITY) -lparity -Wl,-rpath,'$$ORIGIN'
$(PARITY)/%: tests/parity/%.c
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -D_GNU_SOURCE $(PARITY_FLAGS) -o $@ $< -lpthread

$(BUILD)/bench/%: $(BUILD)/bench/%.o $(STATIC)
	$(CC) $(ALL_LDFLAGS) -o $@ $< $(STATIC) $(LIBS) -lpthread

$(BUILD)/examples/%: $(BUILD)/examples/%.o $(STATIC)
	$(CC) $(ALL_LDFLAGS) -o $@ $< $(STATIC) $(LIBS)

setup:
	@sh scripts/setup.sh

# The whole suite: a gcc build, then a clang build under ASan+UBSan (so both compilers
# see every file with -Werror), then the fuzzers briefly.
SAN_CC ?= clang
check: setup
	$(MAKE) --no-print-directory check-fast
	$(MAKE) --no-print-directory check-san
	$(MAKE) --no-print-directory check-tsan
	$(MAKE) --no-print-directory fuzz-smoke
	@sh tests/summary.sh $(BUILD)/results.txt $(BUILD)/san/results.txt $(BUILD)/tsan/results.txt \
	    $(BUILD)/fuzz/results.txt

check-fast: all tests
	@sh tests/run.sh $(BUILD) $(BUILD)/results.txt

check-san:
	$(MAKE) --no-print-directory BUILD=$(BUILD)/san SAN=1 CC=$(SAN_CC) all tests
	@ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
	    sh tests/run.sh $(BUILD)/san $(BUILD)/san/results.txt

# The library's own thread (the profile's background inserter) under ThreadSanitizer.
check-tsan: all helpers
	$(MAKE) --no-print-directory BUILD=$(BUILD)/tsan CC=$(SAN_CC) CFLAGS="-O1 -g -fsanitize=thread" \
	    LDFLAGS=-fsanitize=thread $(BUILD)/tsan/perfev $(BUILD)/tsan/tests/session/test_session \
	    $(BUILD)/tsan/tests/cli/test_report_sort
	@sh tests/tsan.sh $(BUILD) $(BUILD)/tsan $(BUILD)/tsan/results.txt

demo: setup all helpers
	@sh scripts/demo.sh $(BUILD)

FUZZ_SRCS := $(sort $(wildcard fuzz/fuzz_*.c))
FUZZERS   := $(FUZZ_SRCS:fuzz/%.c=$(BUILD)/fuzz/%)
FUZZ_SAN  := -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_CFLAGS := -std=c11 -D_GNU_SOURCE -g -O1 -Iinclude -Isrc/lib -I$(GEN) $(FUZZ_SAN)
# The library once, instrumented for coverage; each harness links it.
FUZZ_LIB  := $(BUILD)/fuzz/libperfev-fuzz.a
FUZZ_OBJS := $(LIB_SRCS:src/lib/%.c=$(BUILD)/fuzz/lib/%.o) $(GEN_SRCS:$(GEN)/%.c=$(BUILD)/fuzz/gen/%.o)
fuzz: $(FUZZERS)
$(BUILD)/fuzz/lib/%.o: src/lib/%.c
	@mkdir -p $(dir $@)
	clang $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -MMD -MP -c -o $@ $<
$(BUILD)/fuzz/gen/%.o: $(GEN)/%.c
	@mkdir -p $(dir $@)
	clang $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -MMD -MP -c -o $@ $<
$(FUZZ_LIB): $(FUZZ_OBJS)
	@rm -f $@
	ar rcs $@ $^
$(BUILD)/fuzz/%: fuzz/%.c $(FUZZ_LIB)
	@mkdir -p $(dir $@)
	clang $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_LIB) $(LIBS)

# Each fuzzer over its seed corpus plus a short bounded run of new inputs.
fuzz-smoke: $(FUZZERS)
	@sh fuzz/smoke.sh $(BUILD)/fuzz $(BUILD)/fuzz/results.txt

install: all
	install -d $(DESTDIR)$(LIBDIR)/pkgconfig $(DESTDIR)$(INCDIR)/perfev $(DESTDIR)$(BINDIR) \
	           $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man3
	install -m 644 include/perfev/*.h $(DESTDIR)$(INCDIR)/perfev/
	install -m 644 $(STATIC) $(DESTDIR)$(LIBDIR)/
	install -m 755 $(SHARED) $(DESTDIR)$(LIBDIR)/
	ln -sf libperfev.so.$(VERSION) $(DESTDIR)$(LIBDIR)/libperfev.so.$(SOMAJOR)
	ln -sf libperfev.so.$(SOMAJOR) $(DESTDIR)$(LIBDIR)/libperfev.so
	sed -e 's|@PREFIX@|$(PREFIX)|; s|@LIBDIR@|$(LIBDIR)|; s|@INCDIR@|$(INCDIR)|; s|@VERSION@|$(VERSION)|' \
	    perfev.pc.in > $(DESTDIR)$(LIBDIR)/pkgconfig/perfev.pc
	install -m 755 $(TOOL) $(DESTDIR)$(BINDIR)/
	install -d $(DESTDIR)$(BASHCOMPDIR)
	install -m 644 $(COMPLETION) $(DESTDIR)$(BASHCOMPDIR)/perfev
	install -m 644 docs/*.1 $(DESTDIR)$(MANDIR)/man1/
	install -m 644 docs/*.3 $(MANPAGES) $(DESTDIR)$(MANDIR)/man3/

uninstall:
	rm -rf $(DESTDIR)$(INCDIR)/perfev
	rm -f $(DESTDIR)$(LIBDIR)/libperfev.* $(DESTDIR)$(LIBDIR)/pkgconfig/perfev.pc \
	      $(DESTDIR)$(BINDIR)/perfev $(DESTDIR)$(BASHCOMPDIR)/perfev $(DESTDIR)$(MANDIR)/man1/perfev*.1 \
	      $(DESTDIR)$(MANDIR)/man3/libperfev.3 $(DESTDIR)$(MANDIR)/man3/libperfev-selfmon.3

clean:
	rm -rf $(BUILD)

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
