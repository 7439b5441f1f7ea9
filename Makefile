# keeper: a Sokoban solver. GNU make, C11, gcc or clang; no configure step.
#
#   make            optimized build: build/release/keeper, libkeeper.a,
#                   libkeeper.so (the interface of include/keeper.h)
#   make debug      -O0 -g, assertions on: build/debug/keeper
#   make asan       address + undefined-behaviour sanitizers: build/asan/keeper
#   make test       build and run the unit and end-to-end tests
#   make test-asan  the same tests under the sanitizer build (keeper-mpi
#                   too when mpicc is present)
#   make tsan       thread sanitizer: build/tsan/keeper
#   make test-tsan  the threaded tests under the thread sanitizer
#   make demo       build and solve the bundled demo collection
#   make mpi        keeper-mpi, levels spread over MPI ranks (needs mpicc:
#                   Debian's libopenmpi-dev): build/release/keeper-mpi
#   make windows    the solver plugin DLL for Windows hosts and keeper.exe,
#                   64- and 32-bit (mingw-w64): build/win64/, build/win32/
#   make test-windows  them under Wine (docs/plugin.md)
#   make dist       the Windows zip (DLLs, keeper.exe, readme, licence) and
#                   the source tarball: build/dist/
#   make fuzz       build the parser fuzzer (clang, libFuzzer) and run it
#   make install PREFIX=/usr/local
#
# WERROR=1 turns warnings into errors (CI does).

.DEFAULT_GOAL := all
CC       ?= cc
PREFIX   ?= /usr/local
WARN     := -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
            -Wformat=2 -Wundef -Wvla -Wcast-qual -Wno-unused-parameter
ifeq ($(WERROR),1)
WARN     += -Werror
endif
BASEFLAGS := -std=c11 -D_GNU_SOURCE $(WARN) -Iinclude -pthread
LDLIBS   := -pthread -lm

LIB_SRC  := $(wildcard src/*.c src/util/*.c src/core/*.c src/analysis/*.c src/deadlock/*.c \
              src/heuristic/*.c src/search/*.c src/optimize/*.c src/driver/*.c)
CLI_SRC  := $(wildcard src/cli/*.c)
TEST_SRC := $(wildcard tests/unit/*.c)
HDRS     := $(wildcard include/*.h src/*/*.h)

# Build variants: name, compile flags, link flags.
release_CFLAGS := -O2 -g -DNDEBUG
debug_CFLAGS   := -O0 -g3 -DKEEPER_DEBUG -DKEEPER_CHECKS
asan_CFLAGS    := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer \
                  -fno-sanitize-recover=all -DKEEPER_DEBUG
asan_LDFLAGS   := -fsanitize=address,undefined
tsan_CFLAGS    := -O1 -g -fsanitize=thread -fno-omit-frame-pointer -DKEEPER_DEBUG
tsan_LDFLAGS   := -fsanitize=thread
# the library's objects for libkeeper.so: position-independent, every
# symbol hidden but keeper.h's (KEEPER_API)
shared_CFLAGS  := $(release_CFLAGS) -fPIC -fvisibility=hidden -DKEEPER_BUILD_SHARED

define variant
build/$(1)/obj/%.o: %.c $(HDRS) | build/$(1)/dirs
	@mkdir -p $$(dir $$@)
	$$(CC) $$(BASEFLAGS) $$($(1)_CFLAGS) $$(CFLAGS) -c $$< -o $$@

# the corpus replay test includes the fuzz target's source
build/$(1)/obj/tests/unit/test_fuzz_corpus.o: tests/fuzz/fuzz_parser.c

build/$(1)/libkeeper.a: $$(LIB_SRC:%.c=build/$(1)/obj/%.o)
	rm -f $$@
	ar rcs $$@ $$^

build/$(1)/keeper: $$(CLI_SRC:%.c=build/$(1)/obj/%.o) build/$(1)/libkeeper.a
	$$(CC) $$($(1)_LDFLAGS) $$(LDFLAGS) -o $$@ $$^ $$(LDLIBS)

build/$(1)/unit_tests: $$(TEST_SRC:%.c=build/$(1)/obj/%.o) build/$(1)/libkeeper.a
	$$(CC) $$($(1)_LDFLAGS) $$(LDFLAGS) -o $$@ $$^ $$(LDLIBS)

build/$(1)/dirs:
	@mkdir -p build/$(1)
	@touch $$@
endef
$(eval $(call variant,release))
$(eval $(call variant,debug))
$(eval $(call variant,asan))
$(eval $(call variant,tsan))

build/shared/obj/%.o: %.c $(HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(BASEFLAGS) $(shared_CFLAGS) $(CFLAGS) -c $< -o $@

# libkeeper.so: the public interface (include/keeper.h) and nothing else
build/release/libkeeper.so: $(LIB_SRC:%.c=build/shared/obj/%.o) | build/release/dirs
	$(CC) -shared -Wl,-soname,libkeeper.so $(LDFLAGS) -o $@ $^ $(LDLIBS)

# make windows: the solver plugin DLL for Windows hosts (YASC, Sokoban++),
# cross-compiled with mingw-w64 (Debian: gcc-mingw-w64-x86-64,
# gcc-mingw-w64-i686), 64-bit and 32-bit: build/win64/keeper.dll and
# build/win32/keeper.dll, the command line keeper.exe beside each, and each
# one's test host (plugin_host.exe); make test-windows runs them
# under Wine. Self-contained: the C runtime's
# helpers and winpthreads are linked in statically.
WIN64_CC ?= x86_64-w64-mingw32-gcc
WIN32_CC ?= i686-w64-mingw32-gcc
WIN_CFLAGS := -std=c11 -D_GNU_SOURCE -D__USE_MINGW_ANSI_STDIO=1 $(WARN) -Iinclude -O2 -g0 -DNDEBUG
PLUGIN_SRC := $(LIB_SRC) src/plugin/plugin.c
define win_variant
build/$(1)/obj/%.o: %.c $$(HDRS) | build/$(1)/dirs
	@mkdir -p $$(dir $$@)
	$$($(2)) $$(WIN_CFLAGS) -c $$< -o $$@

build/$(1)/keeper.dll: $$(PLUGIN_SRC:%.c=build/$(1)/obj/%.o) src/plugin/plugin.def
	$$($(2)) -shared -static -static-libgcc -o $$@ $$(PLUGIN_SRC:%.c=build/$(1)/obj/%.o) \
	    src/plugin/plugin.def -Wl,--kill-at -Wl,--enable-stdcall-fixup -lpthread

build/$(1)/keeper.exe: $$(CLI_SRC:%.c=build/$(1)/obj/%.o) $$(LIB_SRC:%.c=build/$(1)/obj/%.o)
	$$($(2)) -static -o $$@ $$^ -lpthread

build/$(1)/plugin_host.exe: tests/plugin/plugin_host.c | build/$(1)/dirs
	$$($(2)) $$(WIN_CFLAGS) -static -o $$@ $$<

build/$(1)/dirs:
	@mkdir -p build/$(1)
	@touch $$@
endef
$(eval $(call win_variant,win64,WIN64_CC))
$(eval $(call win_variant,win32,WIN32_CC))

windows: build/win64/keeper.dll build/win32/keeper.dll build/win64/keeper.exe \
    build/win32/keeper.exe build/win64/plugin_host.exe build/win32/plugin_host.exe

# make dist: build/dist/keeper-VERSION-windows.zip (both DLLs and
# keeper.exe, docs/windows-readme.txt as README.txt, the licence) and
# build/dist/keeper-VERSION.tar.gz (the sources at HEAD, git archive).
VERSION := $(shell sed -n 's/^\#define KEEPER_VERSION "\(.*\)"/\1/p' include/keeper.h)
dist: windows
	rm -rf build/dist
	mkdir -p build/dist/keeper-$(VERSION)-windows/32-bit build/dist/keeper-$(VERSION)-windows/64-bit
	cp build/win32/keeper.dll build/win32/keeper.exe build/dist/keeper-$(VERSION)-windows/32-bit/
	cp build/win64/keeper.dll build/win64/keeper.exe build/dist/keeper-$(VERSION)-windows/64-bit/
	sed 's/$$/\r/' docs/windows-readme.txt > build/dist/keeper-$(VERSION)-windows/README.txt
	sed 's/$$/\r/' LICENSE > build/dist/keeper-$(VERSION)-windows/LICENSE.txt
	cd build/dist && python3 -m zipfile -c keeper-$(VERSION)-windows.zip keeper-$(VERSION)-windows
	git archive --format=tar.gz --prefix=keeper-$(VERSION)/ -o build/dist/keeper-$(VERSION).tar.gz HEAD
	@ls -l build/dist/*.zip build/dist/*.tar.gz

# keeper-mpi: the CLI's shared modules (all but main.c) and the library,
# compiled as usual; only its own files (src/mpi: the scheduler, its
# thread pool, main and the payloads) go through mpicc. Nothing else needs
# MPI.
MPICC    ?= mpicc
MPI_SRC  := $(wildcard src/mpi/*.c)
HAVE_MPI := $(shell command -v mpicc > /dev/null 2>&1 && command -v mpirun > /dev/null 2>&1 && echo 1)
define mpi_variant
$$(MPI_SRC:%.c=build/$(1)/obj/%.o): build/$(1)/obj/%.o: %.c $$(HDRS) | build/$(1)/dirs
	@mkdir -p $$(dir $$@)
	$$(MPICC) $$(BASEFLAGS) $$($(1)_CFLAGS) $$(CFLAGS) -c $$< -o $$@

build/$(1)/keeper-mpi: $$(MPI_SRC:%.c=build/$(1)/obj/%.o) \
    $$(filter-out build/$(1)/obj/src/cli/main.o,$$(CLI_SRC:%.c=build/$(1)/obj/%.o)) \
    build/$(1)/libkeeper.a
	$$(MPICC) $$($(1)_LDFLAGS) $$(LDFLAGS) -o $$@ $$^ $$(LDLIBS)
endef
$(eval $(call mpi_variant,release))
$(eval $(call mpi_variant,asan))

mpi: build/release/keeper-mpi
	@ln -sf release/keeper-mpi build/keeper-mpi

.PHONY: all debug asan tsan mpi windows test-windows dist test test-asan test-debug test-tsan demo fuzz fuzz-build install clean bench

all: build/release/keeper build/release/libkeeper.a build/release/libkeeper.so
	@ln -sf release/keeper build/keeper

debug: build/debug/keeper
asan: build/asan/keeper
tsan: build/tsan/keeper

# Tests: unit tests for every module, then end-to-end CLI tests. The last
# line is "N passed, N failed". SHARED points at ../shared (levels and
# solutions); tests that need it skip visibly when it is absent. With mpicc
# and mpirun present, keeper-mpi is built and tested too (else its test
# skips visibly).
SHARED ?= ../shared
test: build/release/keeper build/release/unit_tests $(if $(HAVE_MPI),build/release/keeper-mpi)
	@sh tests/run.sh build/release $(SHARED)

# Time bounds get 1 s of slack: AddressSanitizer slows the search between
# two limit checks, as ThreadSanitizer does below.
test-asan: build/asan/keeper build/asan/unit_tests $(if $(HAVE_MPI),build/asan/keeper-mpi)
	@KEEPER_TEST_QUICK=1 KEEPER_TEST_SLACK_MS=1000 sh tests/run.sh build/asan $(SHARED)

# The Windows builds under Wine (mingw-w64 and Wine; what is missing is
# skipped visibly): keeper.exe beside the Linux build, the plugin DLLs
# through a host that loads them as YASC does. Not part of make test.
test-windows: build/release/keeper
	@KEEPER=build/release/keeper KEEPER_SHARED=$(SHARED) sh tests/windows/test_windows.sh > build/test-windows.log 2>&1; \
	    rc=$$?; cat build/test-windows.log; \
	    tail -n 1 build/test-windows.log | grep -q ' 0 failed' && [ $$rc -eq 0 ]

# The debug build (-O0, KEEPER_DEBUG, KEEPER_CHECKS): every DEBUG_CHECK invariant on (the
# position's hash, boxes and goal count after every push and undo; the
# player's region after every computation and update) and --check on by
# default; the quick unit tests and the solve and verify CLI tests.
test-debug: build/debug/keeper build/debug/unit_tests
	@KEEPER_TEST_QUICK=1 KEEPER_TEST_SLACK_MS=1000 \
	    KEEPER_CLI_TESTS="tests/cli/test_solve.sh tests/cli/test_verify.sh" sh tests/run.sh build/debug $(SHARED)

# What runs on several threads, under ThreadSanitizer: the unit tests of
# threads, the limits tests (--threads 2, Ctrl-C) and the optimizer's CLI
# tests (--threads 2, Ctrl-C). A race report stops
# the program at once (status 66), so a test fails. Time bounds get 1 s of
# slack: the sanitizer slows the search between two limit checks.
test-tsan: build/tsan/keeper build/tsan/unit_tests
	@TSAN_OPTIONS=halt_on_error=1 KEEPER_TEST_QUICK=1 KEEPER_TEST_SLACK_MS=1000 KEEPER_UNIT_FILTER=threads_ \
	    KEEPER_CLI_TESTS="tests/cli/test_limits.sh tests/cli/test_optimize.sh" sh tests/run.sh build/tsan $(SHARED)

demo: build/release/keeper
	build/release/keeper solve levels/demo.xsb --time 10 --format sok --output build/demo-solutions.sok
	@echo "solutions written to build/demo-solutions.sok"
	build/release/keeper verify levels/demo.xsb build/demo-solutions.sok --quiet
	build/release/keeper optimize build/demo-solutions.sok --time 5 --format sok --output build/demo-optimized.sok
	@echo "optimized solutions written to build/demo-optimized.sok"
	build/release/keeper verify build/demo-optimized.sok --quiet
	build/release/keeper solve levels/demo-hard.xsb --time 30 --format sok --output build/demo-hard-solutions.sok --html build/demo-hard.html
	build/release/keeper verify levels/demo-hard.xsb build/demo-hard-solutions.sok --quiet
	build/release/keeper show build/demo-optimized.sok --html build/demo.html
	@echo "open build/demo.html and build/demo-hard.html in a browser to watch the solutions played"

bench: build/release/keeper
	build/release/keeper bench

# Fuzzing (needs clang): runs libFuzzer on the parser for FUZZ_SECONDS.
# Crashes are written to tests/fuzz/crashes/; keep them as regression
# inputs in tests/fuzz/corpus/ (the unit tests replay that folder).
FUZZ_SECONDS ?= 60
build/fuzz/fuzz_parser: tests/fuzz/fuzz_parser.c $(LIB_SRC) $(HDRS)
	@mkdir -p build/fuzz tests/fuzz/crashes
	clang -std=c11 -D_GNU_SOURCE -g -O1 -fsanitize=fuzzer,address,undefined -Iinclude -pthread \
	    -o $@ tests/fuzz/fuzz_parser.c $(LIB_SRC) -lm
fuzz-build: build/fuzz/fuzz_parser
fuzz: build/fuzz/fuzz_parser
	@mkdir -p build/fuzz/corpus
	build/fuzz/fuzz_parser -max_total_time=$(FUZZ_SECONDS) -max_len=4096 \
	    -artifact_prefix=tests/fuzz/crashes/ build/fuzz/corpus tests/fuzz/corpus levels

# With Open MPI's mpicc and mpirun present, keeper-mpi is built and installed too.
install: all $(if $(HAVE_MPI),build/release/keeper-mpi)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/lib \
	    $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 build/release/keeper $(DESTDIR)$(PREFIX)/bin/keeper
	$(if $(HAVE_MPI),install -m 755 build/release/keeper-mpi $(DESTDIR)$(PREFIX)/bin/keeper-mpi)
	install -m 644 include/keeper.h $(DESTDIR)$(PREFIX)/include/keeper.h
	install -m 644 build/release/libkeeper.a $(DESTDIR)$(PREFIX)/lib/libkeeper.a
	install -m 755 build/release/libkeeper.so $(DESTDIR)$(PREFIX)/lib/libkeeper.so
	install -m 644 docs/keeper.1 $(DESTDIR)$(PREFIX)/share/man/man1/keeper.1
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|$(shell sed -n 's/^#define KEEPER_VERSION "\(.*\)"/\1/p' include/keeper.h)|g' \
	    docs/keeper.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/keeper.pc

clean:
	rm -rf build
