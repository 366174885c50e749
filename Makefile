# rooftop — a terminal roofline explorer.
#
#   make            build ./rooftop
#   make run        build and open the explorer on the default scenario
#   make test       build and run every test (unit, golden, end-to-end, the
#                   README's figures); the last line counts the whole run:
#                   "N passed, M failed"
#   make profiles   refit the compiled-in kernel models to the measured
#                   kernel tables (KERNEL_DATA, default ../shared/data/kernels)
#                   and rewrite core/hardware/kernel_profiles.inc (a few minutes)
#   make readme     rewrite the README's screen capture and transcripts from
#                   the program (make test fails while they differ)
#   make sanitize   run the tests under AddressSanitizer + UBSan
#   make bench      run the benchmarks
#   make bench-quick  run each benchmark once briefly (BENCH_QUICK=1: few
#                   samples, rough figures; what CI runs)
#   make fuzz       run each loader's libFuzzer harness for FUZZ_RUNS inputs
#                   (and FUZZ_LARGE_RUNS inputs of up to 1 MiB)
#   make install    install to $(DESTDIR)$(PREFIX) (default /usr/local)
#
# Missing Debian packages are installed by scripts/ensure-deps.sh (as root or
# with sudo), which otherwise prints the command to run. Each target asks only
# for what it needs: building rooftop needs a C compiler, pkg-config, ncursesw,
# cJSON and zlib; the tests add cmocka, tmux and locale data; fuzzing adds clang.

VERSION   := 0.1.0
PREFIX    ?= /usr/local
BINDIR    ?= $(PREFIX)/bin
MANDIR    ?= $(PREFIX)/share/man
DATADIR   ?= $(PREFIX)/share/rooftop
CC        ?= cc
CFLAGS    ?= -O2 -g
BUILD     ?= build
SANITIZE  ?=
V         ?=
Q         := $(if $(V),,@)

# The core's rooms, lowest first: each includes only its own headers and the
# rooms before it (tests/rooms_test.sh checks; README "Architecture" says why).
CORE_ROOMS := base model hardware serving estimate fit search io report teach
CORE_INC   := $(addprefix -Icore/,$(CORE_ROOMS))
# Above the core, lowest first: files/ (the user's files: measurements, profiler exports, kernel
# tables, chip and scenario files), tui/ (the explorer), cli/ (the command line and its modes).
APP_ROOMS := files tui cli
APP_INC   := $(addprefix -I,$(APP_ROOMS))

STD_FLAGS := -std=c11 -D_DEFAULT_SOURCE -Wall -Wextra -Werror -Wshadow \
             -Wstrict-prototypes -Wmissing-prototypes -Wformat=2 -MMD -MP \
             -DROOFTOP_VERSION='"$(VERSION)"' -DROOFTOP_DATADIR='"$(DATADIR)"' $(CORE_INC) $(APP_INC)
ifneq ($(SANITIZE),)
SAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
endif

# Recursive (=) so that pkg-config runs after the deps step, not at parse time.
PKG_CFLAGS = $(shell pkg-config --cflags ncursesw libcjson zlib)
PKG_LIBS   = $(shell pkg-config --libs ncursesw libcjson zlib) -lm
TEST_CFLAGS = $(shell pkg-config --cflags cmocka)
# -lutil: forkpty (test_pty_osc52) is in libc from glibc 2.34, in libutil before it
TEST_LIBS   = $(shell pkg-config --libs cmocka) -lutil

CORE_SRC := $(foreach r,$(CORE_ROOMS),$(wildcard core/$(r)/*.c))
TUI_SRC  := $(filter-out cli/main.c,$(foreach r,$(APP_ROOMS),$(wildcard $(r)/*.c)))
TEST_SRC := $(wildcard tests/test_*.c)
CORE_OBJ := $(CORE_SRC:%.c=$(BUILD)/%.o)
# The shipped themes, compiled in (scripts/embed-themes.sh writes the C file).
THEME_FILES := $(sort $(wildcard themes/*.json))
THEMES_OBJ := $(BUILD)/gen/themes_builtin.o
TUI_OBJ  := $(TUI_SRC:%.c=$(BUILD)/%.o) $(THEMES_OBJ)
TESTS    := $(TEST_SRC:tests/%.c=$(BUILD)/tests/%)
BENCH_SRC := $(wildcard bench/*.c)
BENCHES  := $(BENCH_SRC:bench/%.c=$(BUILD)/bench/%)

FUZZ_SRC  := $(wildcard tests/fuzz/fuzz_*.c)
FUZZERS   := $(FUZZ_SRC:tests/fuzz/%.c=build-fuzz/%)
FUZZ_RUNS ?= 20000
FUZZ_FLAGS := -std=c11 -D_DEFAULT_SOURCE -Wall -Wextra -Werror -g -O1 $(CORE_INC) \
              -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all

# Keep objects that only pattern rules name, so nothing rebuilds twice.
.SECONDARY:

.PHONY: all deps test-deps run test unit-tests e2e sanitize bench bench-build bench-quick bench-tui golden readme profiles fuzz fuzz-deps install uninstall clean

all: rooftop

# What building rooftop needs (no test tools: a plain make works without root
# wherever ncursesw and cJSON are installed).
deps:
	@CC="$(CC)" sh scripts/ensure-deps.sh build

# What the tests need besides: cmocka, tmux, locale data. After deps, so that
# two apt-get runs never race under make -j.
test-deps: deps
	@CC="$(CC)" sh scripts/ensure-deps.sh test

$(BUILD)/%.o: %.c | deps
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(STD_FLAGS) $(CFLAGS) $(SAN_FLAGS) $(PKG_CFLAGS) -c $< -o $@

# The cmocka suites (the shorter stem wins over the rule above).
$(BUILD)/tests/test_%.o: tests/test_%.c | test-deps
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(STD_FLAGS) $(CFLAGS) $(SAN_FLAGS) $(PKG_CFLAGS) $(TEST_CFLAGS) -c $< -o $@

$(BUILD)/gen/themes_builtin.c: $(THEME_FILES) scripts/embed-themes.sh
	@mkdir -p $(dir $@)
	@echo "  GEN     $@"
	$(Q)sh scripts/embed-themes.sh $(THEME_FILES) >$@.tmp && mv $@.tmp $@

$(THEMES_OBJ): $(BUILD)/gen/themes_builtin.c | deps
	@echo "  CC      $<"
	$(Q)$(CC) $(STD_FLAGS) $(CFLAGS) $(SAN_FLAGS) -c $< -o $@

$(BUILD)/rooftop: $(CORE_OBJ) $(TUI_OBJ) $(BUILD)/cli/main.o
	$(CC) $(CFLAGS) $(SAN_FLAGS) $^ $(PKG_LIBS) -o $@

rooftop: $(BUILD)/rooftop
	cp $< $@

$(BUILD)/tests/test_%: $(BUILD)/tests/test_%.o $(CORE_OBJ) $(TUI_OBJ)
	$(CC) $(CFLAGS) $(SAN_FLAGS) $^ $(PKG_LIBS) $(TEST_LIBS) -o $@

run: rooftop
	./rooftop

# The shell suites, each run as `sh SUITE path/to/rooftop`.
SHELL_TESTS := tests/cli_test.sh tests/deps_test.sh tests/rooms_test.sh tests/readme_test.sh tests/e2e_tmux.sh

unit-tests: $(TESTS) $(BUILD)/rooftop | test-deps
	@sh tests/run_all.sh $(BUILD)/rooftop $(TESTS)

# Every suite runs, even after one fails, each with its own output; the
# last line counts them all, and the exit status is non-zero if any failed.
test: $(TESTS) $(BUILD)/rooftop | test-deps
	@sh tests/run_all.sh $(BUILD)/rooftop $(TESTS) $(SHELL_TESTS)

# Rewrites the explorer's golden frames (tests/golden/) from the current code;
# review the change with git diff before committing it.
golden: $(BUILD)/tests/test_tui_frames $(BUILD)/tests/test_cli
	ROOFTOP_UPDATE_GOLDEN=1 $(BUILD)/tests/test_tui_frames
	ROOFTOP_UPDATE_GOLDEN=1 $(BUILD)/tests/test_cli

# Rewrites the README's 80x24 capture from its golden frame and each
# "$ rooftop" transcript from the program (scripts/readme-sync.sh); after
# make golden, or when a figure changes. Review with git diff.
readme: $(BUILD)/rooftop
	sh scripts/readme-sync.sh $(BUILD)/rooftop

# Refits the kernel models (core/hardware/kernels.c) to the measured tables and
# rewrites the compiled-in fits; then rebuilds rooftop with them. Review with
# git diff: each row carries its rows and cross-validated error.
KERNEL_DATA ?= ../shared/data/kernels
profiles: $(BUILD)/rooftop
	$(BUILD)/rooftop --calibrate $(KERNEL_DATA) --write-profiles core/hardware/kernel_profiles.inc
	$(MAKE) rooftop

sanitize:
	$(MAKE) BUILD=build-san SANITIZE=1 CFLAGS="-O1 -g" test

bench: $(BENCHES) bench-tui
	@set -e; for b in $(BENCHES); do echo "== $$b"; $$b; done

# Builds every benchmark without running it.
bench-build: $(BENCHES) $(BUILD)/tests/bench_tui

# Runs every benchmark once with few samples (BENCH_QUICK=1), a second or two
# each, printing each target and whether it was met. CI runs this so that the
# benchmarks build and run; a target missed on a noisy shared machine fails
# nothing, a benchmark that cannot run does.
bench-quick: $(BENCHES) $(BUILD)/tests/bench_tui $(BUILD)/rooftop
	@set -e; for b in $(BENCHES); do echo "== $$b (BENCH_QUICK=1)"; BENCH_QUICK=1 $$b; done; \
	    echo "== $(BUILD)/tests/bench_tui (BENCH_QUICK=1)"; BENCH_QUICK=1 $(BUILD)/tests/bench_tui $(BUILD)/rooftop

$(BUILD)/bench/%: $(BUILD)/bench/%.o $(CORE_OBJ) $(TUI_OBJ)
	$(CC) $(CFLAGS) $^ $(PKG_LIBS) -o $@

# The explorer on a pseudo-terminal: keystroke-to-screen time, bytes per step,
# first frame, peak RSS (issue 3).
bench-tui: $(BUILD)/tests/bench_tui $(BUILD)/rooftop
	$(BUILD)/tests/bench_tui $(BUILD)/rooftop

$(BUILD)/tests/bench_tui: $(BUILD)/tests/bench_tui.o $(CORE_OBJ) $(TUI_OBJ)
	$(CC) $(CFLAGS) $^ $(PKG_LIBS) -lutil -o $@

fuzz-deps:
	@CC=clang sh scripts/ensure-deps.sh fuzz

FUZZ_LIB_SRC := $(CORE_SRC) tui/theme.c tui/themefile.c files/profile_ncu.c files/profile_kineto.c files/profile_rocprof.c files/kerneltable.c files/csv.c

build-fuzz/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_LIB_SRC) | fuzz-deps
	@mkdir -p build-fuzz
	@echo "  FUZZCC  $@"
	$(Q)clang $(FUZZ_FLAGS) $(APP_INC) $$(pkg-config --cflags libcjson zlib) $< $(FUZZ_LIB_SRC) $$(pkg-config --libs libcjson zlib) \
	    -lm -o $@

# The --validate / --calibrate reader parses a cases row with the command
# line itself: its harness links every TUI source but main.c.
build-fuzz/fuzz_validate: tests/fuzz/fuzz_validate.c $(CORE_SRC) $(TUI_SRC) $(BUILD)/gen/themes_builtin.c | fuzz-deps
	@mkdir -p build-fuzz
	@echo "  FUZZCC  $@"
	$(Q)clang $(FUZZ_FLAGS) -D_DEFAULT_SOURCE -DROOFTOP_VERSION='"$(VERSION)"' -DROOFTOP_DATADIR='"/nonexistent"' $(APP_INC) \
	    $$(pkg-config --cflags ncursesw libcjson zlib) $< $(CORE_SRC) $(TUI_SRC) $(BUILD)/gen/themes_builtin.c \
	    $$(pkg-config --libs ncursesw libcjson zlib) -lm -lutil -o $@

# Each harness runs FUZZ_RUNS inputs of up to 64 KiB, starting from its seed
# corpus in tests/fuzz/corpus/NAME; new inputs it finds go to
# build-fuzz/corpus-NAME. Then a large pass: FUZZ_LARGE_RUNS inputs of up to
# 1 MiB, from its first three seeds grown by 60000 keys each (~600 KiB, so
# every run reads inputs far beyond the small pass's limit, through the
# duplicate-key pass); what it finds is not kept (build-fuzz/large-NAME/new).
FUZZ_LARGE_RUNS ?= 100
FUZZ_LARGE_KEYS ?= 60000
fuzz: $(FUZZERS)
	@set -e; for f in $(FUZZERS); do n=$${f#build-fuzz/fuzz_}; mkdir -p build-fuzz/corpus-$$n; \
	    echo "== $$f ($(FUZZ_RUNS) runs)"; \
	    if ! $$f -runs=$(FUZZ_RUNS) -max_len=65536 -timeout=10 build-fuzz/corpus-$$n tests/fuzz/corpus/$$n \
	        >build-fuzz/$$n.log 2>&1; then tail -n 40 build-fuzz/$$n.log; exit 1; fi; \
	    tail -n 1 build-fuzz/$$n.log; \
	    rm -rf build-fuzz/large-$$n; mkdir -p build-fuzz/large-$$n/seeds build-fuzz/large-$$n/new; \
	    for s in $$(ls tests/fuzz/corpus/$$n/* | head -n 3); do \
	        sh tests/fuzz/grow_seed.sh $$s $(FUZZ_LARGE_KEYS) >build-fuzz/large-$$n/seeds/$${s##*/}; done; \
	    echo "== $$f ($(FUZZ_LARGE_RUNS) runs up to 1 MiB)"; \
	    if ! $$f -runs=$(FUZZ_LARGE_RUNS) -max_len=1048576 -len_control=0 -timeout=10 build-fuzz/large-$$n/new \
	        build-fuzz/large-$$n/seeds >build-fuzz/$$n-large.log 2>&1; then tail -n 40 build-fuzz/$$n-large.log; exit 1; fi; \
	    grep -m1 INITED build-fuzz/$$n-large.log | sed 's/^/   /'; tail -n 1 build-fuzz/$$n-large.log; done

install: rooftop
	install -d $(DESTDIR)$(BINDIR)
	install -m 755 rooftop $(DESTDIR)$(BINDIR)/rooftop
	install -d $(DESTDIR)$(DATADIR)/themes
	install -m 644 themes/*.json $(DESTDIR)$(DATADIR)/themes/
	if [ -f rooftop.1 ]; then install -d $(DESTDIR)$(MANDIR)/man1 && \
	    install -m 644 rooftop.1 $(DESTDIR)$(MANDIR)/man1/rooftop.1; fi

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/rooftop $(DESTDIR)$(MANDIR)/man1/rooftop.1
	rm -rf $(DESTDIR)$(DATADIR)/themes

clean:
	rm -rf build build-san build-fuzz rooftop

-include $(CORE_OBJ:.o=.d) $(TUI_OBJ:.o=.d) $(TESTS:=.d) $(BENCHES:=.d) $(BUILD)/tests/bench_tui.d
