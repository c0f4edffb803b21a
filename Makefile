# hlolint - one non-recursive GNU Makefile; every output goes under build/.
# `make` builds build/hlolint; `make check` runs the whole suite with -Werror.
# V=1 shows full commands.  Other entry points: deps, check-san, fuzz, bench,
# demo, clean (see README.md).

CC      ?= cc
BUILD   := build
CSTD    := -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE
WARN    := -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes \
           -Wmissing-prototypes -Wwrite-strings -Wundef -Wold-style-definition
OPT     ?= -O2 -g
CFLAGS  ?=
# One directory per stage of the data flow (docs/ARCHITECTURE.md).
STAGES  := front ir model lint rewrite cli
CPPFLAGS += $(addprefix -Isrc/,$(STAGES)) -I$(BUILD)/grammar -Ipasses
LDLIBS  += -lz -lm
WERROR  ?=
SAN     ?=
PREFIX  ?= /usr/local
DOCDIR  ?= $(PREFIX)/share/doc/hlolint
ifeq ($(SAN),1)
  OPT := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
  BUILD := build/san
endif
# SAN=thread: ThreadSanitizer for -j (check-san runs the -j test under it).
ifeq ($(SAN),thread)
  OPT := -O1 -g -fsanitize=thread
  BUILD := build/tsan
endif
# FUZZ=1 is internal to `make fuzz`: clang objects with coverage hooks.
FUZZ_CC ?= clang
ifeq ($(FUZZ),1)
  CC := $(FUZZ_CC)
  OPT := -O1 -g -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer \
         -fno-sanitize-recover=all
  BUILD := build/fuzz
endif
ALL_CFLAGS = $(CSTD) $(OPT) $(WARN) $(WERROR) $(CFLAGS) -pthread -MMD -MP

ifeq ($(V),1)
  Q :=
else
  Q := @
endif

-include local.mk

SRC      := $(foreach d,$(STAGES),$(wildcard src/$(d)/*.c)) $(wildcard passes/*.c)
OBJ      := $(patsubst %.c,$(BUILD)/%.o,$(SRC))
GEN_OBJ  := $(BUILD)/grammar/hlo.tab.o $(BUILD)/grammar/hlo.lex.o
DEPS     := $(OBJ:.o=.d) $(GEN_OBJ:.o=.d)

# Everything but the driver (the file defining main) goes into a static
# library that the unit tests, fuzz targets and replay driver link against.
MAIN_SRC := $(shell grep -l '^int main' $(SRC) /dev/null 2>/dev/null)
LIB_OBJ  := $(filter-out $(patsubst %.c,$(BUILD)/%.o,$(MAIN_SRC)),$(OBJ)) $(GEN_OBJ)

# Build dependencies are verified once (stamp) before anything compiles.
DEPS_STAMP := build/.deps-ok
# Objects are rebuilt when the compiler or flags change (e.g. SAN), but not
# for -Werror, which changes no code: `make check` then `make install` built
# everything twice.  Each object keeps its compiler's warnings in X.o.warn,
# and check-build fails on any (the -Werror of objects built without it).
FLAGS_FILE := $(BUILD)/.flags
FLAGS_NOW   = $(CC) $(CPPFLAGS) $(filter-out -Werror,$(ALL_CFLAGS)) $(LDLIBS)
# $(call compile,EXTRA FLAGS): the compile command, warnings kept in $@.warn.
compile = $(CC) $(CPPFLAGS) $(1) -c -o $@ $< 2>$@.warn; st=$$?; cat $@.warn >&2; exit $$st
# The grammar header exists only once grammar/hlo.y does; until then the
# core units (and their unit tests) still build.
TAB_H    := $(if $(wildcard grammar/hlo.y),$(BUILD)/grammar/hlo.tab.h)

.SECONDARY:
.PHONY: man all clean deps check check-long check-python check-build check-san check-tsan unit fuzz fuzz-build fuzz-deps browser-deps bench bench-scale bench-shapes demo corpus-xla check-xla install uninstall FORCE
all: $(DEPS_STAMP) $(BUILD)/hlolint

$(BUILD)/hlolint: $(OBJ) $(GEN_OBJ)
	@echo "  LD      $@"
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/%.o: %.c $(FLAGS_FILE) | $(TAB_H) $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(call compile,$(ALL_CFLAGS))

# Test-side sources never need the grammar header.
$(BUILD)/tests/%.o: tests/%.c $(FLAGS_FILE) | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(call compile,$(ALL_CFLAGS))

$(FLAGS_FILE): FORCE
	@mkdir -p $(dir $@)
	@if [ x'$(FLAGS_NOW)' != x"$$(cat $@ 2>/dev/null)" ]; then echo '$(FLAGS_NOW)' > $@; fi

# Grammar: bison must report no conflicts (%expect 0 in the file, -Werror here).
# Grouped target (&:): one bison run makes both files, also under -j.
$(BUILD)/grammar/hlo.tab.c $(BUILD)/grammar/hlo.tab.h &: grammar/hlo.y | $(DEPS_STAMP)
	@mkdir -p $(BUILD)/grammar
	@echo "  BISON   $<"
	$(Q)bison -Wall -Werror --header=$(BUILD)/grammar/hlo.tab.h -o $(BUILD)/grammar/hlo.tab.c $<

# Scanner: the build fails when flex reports any backing-up state.  -Cf (full
# tables) rather than -CF: the -CF "fast" table read past its end on some
# high-bit bytes (a fuzz crasher, tests/fuzz/crashers/flex-cf-*).
$(BUILD)/grammar/hlo.lex.c: grammar/hlo.l | $(DEPS_STAMP)
	@mkdir -p $(BUILD)/grammar
	@echo "  FLEX    $<"
	$(Q)flex -Cf -b -o $@ $< && mv lex.backup $(BUILD)/grammar/lex.backup
	$(Q)if ! grep -q '^No backing up\.' $(BUILD)/grammar/lex.backup; then \
		echo "grammar/hlo.l: error: scanner has backing-up states (see $(BUILD)/grammar/lex.backup)"; \
		rm -f $@; exit 1; fi

# Generated code: same warnings minus the ones flex/bison output trips over.
GEN_WARN := -Wno-unused-function -Wno-sign-compare -Wno-missing-prototypes -Wno-unused-parameter
$(BUILD)/grammar/%.o: $(BUILD)/grammar/%.c $(BUILD)/grammar/hlo.tab.h $(FLAGS_FILE)
	@echo "  CC      $<"
	$(Q)$(call compile,-Igrammar $(ALL_CFLAGS) $(GEN_WARN))

$(BUILD)/libhlolint.a: $(LIB_OBJ)
	@echo "  AR      $@"
	$(Q)rm -f $@ && ar rcs $@ $^

# ---- Build dependencies ----------------------------------------------------
# Each missing item is named by its Debian package.  As root (or with
# password-less sudo) they are installed; otherwise one line says what to do.
define deps_missing
m=""; \
command -v $(firstword $(CC)) >/dev/null 2>&1 || m="$$m gcc"; \
command -v flex >/dev/null 2>&1 || m="$$m flex"; \
command -v bison >/dev/null 2>&1 || m="$$m bison"; \
[ -f /usr/include/uthash.h ] || m="$$m uthash-dev"; \
[ -f /usr/include/zlib.h ] || printf '\043include <zlib.h>\n' | \
	$(CC) -E -x c - >/dev/null 2>&1 || m="$$m zlib1g-dev"
endef

deps: $(DEPS_STAMP)
$(DEPS_STAMP): Makefile
	@mkdir -p $(dir $@)
	$(Q)$(deps_missing); \
	if [ -n "$$m" ]; then \
		if [ "$$(id -u)" = 0 ]; then sudo=""; \
		elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then sudo="sudo -n"; \
		else sudo=no; fi; \
		if [ "$$sudo" != no ] && command -v apt-get >/dev/null 2>&1; then \
			echo "  DEPS    apt-get install$$m"; \
			log=build/deps-install.log; \
			$$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q $$m >$$log 2>&1 || \
			{ $$sudo apt-get update -q >>$$log 2>&1; \
			  $$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q $$m >>$$log 2>&1; } || \
			echo "  DEPS    apt-get failed (see $$log)"; \
			$(deps_missing); \
		fi; \
		if [ -n "$$m" ]; then \
			echo "hlolint: missing build dependencies:$$m (install with: sudo apt-get install$$m)"; \
			exit 1; \
		fi; \
	fi
	@touch $@

# ---- Tests -----------------------------------------------------------------
UNIT_SRC := $(wildcard tests/unit/*.c)
UNIT_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(UNIT_SRC))
# The unit tests take what they use from the library (alias.c's leaf
# numbering reaches the attribute decoders, which need the parser built).
UNIT_LIB := $(BUILD)/libhlolint.a
UNIT_BIN := $(BUILD)/unit/run_unit

$(UNIT_BIN): $(UNIT_OBJ) $(UNIT_LIB)
	@mkdir -p $(dir $@)
	@echo "  LD      $@"
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDLIBS)

unit: $(DEPS_STAMP) $(UNIT_BIN)
	$(Q)$(UNIT_BIN)

# Replay: every file in tests/fuzz/crashers/ (and the examples) through the
# fuzz targets' entry points, built with the normal compiler.
# Fuzz targets: the parse-level ones take bytes straight to the library; the
# command ones (mem, check, annotate) run the command as the CLI does.
FUZZ_TARGETS := parse roundtrip mem check annotate oom diff report
FUZZ_CMD_OBJ  = $(BUILD)/tests/fuzz/fuzz_cmd.o
REPLAY_BINS := $(addprefix $(BUILD)/replay_,$(FUZZ_TARGETS))
# The examples, the issue-8 robustness inputs and the OOM logs are replayed too.
REPLAY_IN   := tests/fuzz/crashers corpora/examples tests/robust tests/oom/data tests/oom/real/logs

$(BUILD)/replay_%: $(BUILD)/tests/fuzz/replay.o $(BUILD)/tests/fuzz/fuzz_%.o $(FUZZ_CMD_OBJ) \
		$(BUILD)/libhlolint.a
	@echo "  LD      $@"
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDLIBS)

# Every replay binary over REPLAY_IN; the commands' diagnostics go to a log
# that is shown only when a replay fails.
define replay_all
for t in $(FUZZ_TARGETS); do \
	$(BUILD)/replay_$$t $(REPLAY_IN) 2>$(BUILD)/replay_$$t.log || \
	{ st=1; tail -n 30 $(BUILD)/replay_$$t.log; echo "check: FAILED: replay_$$t"; }; \
	grep -ah "^replay_$$t:" $(BUILD)/replay_$$t.log; \
done;
endef

CHECK_J = $(if $(filter -j%,$(MAKEFLAGS)),,-j2)

check-build: $(BUILD)/hlolint $(UNIT_BIN) $(REPLAY_BINS)
	@w=$$(find $(BUILD) -name '*.o.warn' -size +0c | sort); if [ -n "$$w" ]; then cat $$w; \
		echo "check: FAILED: compiler warnings (above), kept from objects built without -Werror"; exit 1; fi

# Every stage runs even when an earlier one failed, so one run shows all
# problems; run.sh goes last because its closing line is the summary.
# `make check` (minutes from a built tree): unit, style, replay, golden, rule
# and CLI tests; the shell tests marked "# suite: long" (corpus sweeps,
# truncations, valgrind) are `make check-long`.  CI and check-san run both.
CHECK_SUITE ?= fast
# A shell test's time limit (run.sh's SH_TIMEOUT): sanitizer builds run the
# corpus sweeps several times slower (test_pieces 5 min under ASan alone).
CHECK_SH_TIMEOUT ?= 300
check: $(DEPS_STAMP)
	$(Q)$(MAKE) --no-print-directory $(CHECK_J) WERROR=-Werror check-build
	$(Q)st=0; \
	$(UNIT_BIN) || { st=1; echo "check: FAILED: unit tests"; }; \
	sh tests/style/code_shape.sh || { st=1; echo "check: FAILED: code shape (tests/style/code_shape.sh)"; }; \
	$(replay_all) \
	SUITE=$(CHECK_SUITE) SH_TIMEOUT=$(CHECK_SH_TIMEOUT) HLOLINT=$(BUILD)/hlolint sh tests/run.sh || st=1; \
	exit $$st

check-long: $(DEPS_STAMP)
	$(Q)$(MAKE) --no-print-directory $(CHECK_J) WERROR=-Werror $(BUILD)/hlolint $(BUILD)/libhlolint.a
	$(Q)SUITE=long HLOLINT=$(BUILD)/hlolint sh tests/run.sh

# The Python package (pyproject.toml, python/hlolint): the wheel built and
# installed in a fresh venv, its tests (tests/python) under pytest.
check-python: all
	$(Q)sh tests/python/run.sh

check-san: $(DEPS_STAMP)
	$(Q)$(MAKE) --no-print-directory SAN=1 CHECK_SUITE=all CHECK_SH_TIMEOUT=1200 check
	$(Q)$(MAKE) --no-print-directory check-tsan

# The threads (-j over files, pieces of one input) under ThreadSanitizer: a
# data race exits 66 and fails the test.  test_pieces compares every third
# corpus input there (PIECES_EVERY): with all of them check-tsan took 13
# minutes of CI's 30.
TSAN_TESTS := tests/robust/test_jobs.sh tests/robust/test_pieces.sh tests/robust/test_prefault.sh
check-tsan: $(DEPS_STAMP)
	$(Q)$(MAKE) --no-print-directory SAN=thread build/tsan/hlolint
	$(Q)for t in $(TSAN_TESTS); do \
		PIECES_EVERY=3 HLOLINT=build/tsan/hlolint TSAN_OPTIONS=halt_on_error=1 sh $$t || exit 1; \
		echo "check-tsan: $$t passed under ThreadSanitizer"; \
	done

# ---- Fuzzing (clang + libFuzzer) -------------------------------------------
# `make fuzz` runs every target for FUZZ_SECONDS each (CI: 60) and fails on
# the first crash, which it saves under build/fuzz-crashes/.  clang is
# installed with apt-get when missing (root or password-less sudo).
FUZZ_SECONDS ?= 30
FUZZ_SEEDS   := build/fuzz-seeds

build/fuzz_%: $(BUILD)/tests/fuzz/fuzz_%.o $(FUZZ_CMD_OBJ) $(BUILD)/libhlolint.a
	@echo "  LD      $@"
	$(Q)$(CC) $(ALL_CFLAGS) -fsanitize=fuzzer -o $@ $^ $(LDLIBS)

fuzz-build: $(addprefix build/fuzz_,$(FUZZ_TARGETS))

# $(call apt_install,PACKAGE,COMMAND): installs PACKAGE with apt-get when
# COMMAND is missing (root or password-less sudo), else says how.
define apt_install
if ! command -v $(2) >/dev/null 2>&1; then \
	if [ "$$(id -u)" = 0 ]; then sudo=""; \
	elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then sudo="sudo -n"; \
	else sudo=no; fi; \
	if [ "$$sudo" != no ] && command -v apt-get >/dev/null 2>&1; then \
		echo "  DEPS    apt-get install $(1)"; \
		{ $$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q $(1) || \
		  { $$sudo apt-get update -q && \
		    $$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q $(1); }; \
		} >build/deps-$(1).log 2>&1 || echo "  DEPS    apt-get failed (see build/deps-$(1).log)"; \
	fi; \
fi; \
command -v $(2) >/dev/null 2>&1 || \
	{ echo "hlolint: this needs $(2) (install with: sudo apt-get install $(1))"; exit 1; }
endef

fuzz-deps: $(DEPS_STAMP)
	$(Q)$(call apt_install,clang,$(FUZZ_CC))

# The browser the report test renders pages in (tests/report): Debian's chromium.
browser-deps: $(DEPS_STAMP)
	$(Q)$(call apt_install,chromium,chromium)

# The HLO token dictionary every target but oom (tests/fuzz/oom.dict) uses:
# generated from the tables that define the tokens (opcodes, attributes,
# element types, keywords), plus the punctuation and layout forms the
# scanner knows, so it never goes stale.
FUZZ_HLO_DICT := build/fuzz-hlo.dict
$(FUZZ_HLO_DICT): src/ir/opcodes.def src/ir/attrs.def src/ir/types.def src/front/keywords.def
	@mkdir -p $(@D)
	$(Q){ echo '# generated by make from the .def tables: HLO tokens for libFuzzer'; \
	  sed -n 's/^OP([A-Z0-9_]*, \("[^"]*"\).*/\1/p; s/^TYPE([A-Z0-9_]*, \("[^"]*"\).*/\1/p; s/^KEYWORD([A-Z0-9_]*, \("[^"]*"\).*/\1/p' $^; \
	  sed -n 's/^ATTR([A-Z0-9_]*, "\([^"]*\)".*/"\1="/p' src/ir/attrs.def; \
	  for t in '%' '{' '}' '(' ')' '[' ']' '=' ',' '->' '/*' '*/' '//' ':T(8,128)' ':T(8,128)(2,1)' 'S(5)' \
		'{1,0}' '\"' 'metadata={op_name=\"' 'backend_config=' 'sharding={devices=[2,1]0,1}' \
		'sharding={replicated}' 'frontend_attributes={' 'is_scheduled=true' 'input_output_alias={' \
		'entry_computation_layout={' 'num_partitions=' 'constant({' 'parameter(0)'; do \
		printf '"%s"\n' "$$t"; done; } >$@

fuzz: fuzz-deps $(FUZZ_HLO_DICT)
	$(Q)$(MAKE) --no-print-directory FUZZ=1 fuzz-build
	@rm -rf $(FUZZ_SEEDS) && mkdir -p $(FUZZ_SEEDS) build/fuzz-crashes
	@[ -d ../shared/corpora ] || echo "  SEEDS   ../shared/corpora is absent: fuzzing without the real modules and XLA's parser tests"
	$(Q)for d in corpora ../shared/corpora tests; do \
		[ -d $$d ] || continue; \
		find $$d -type f \( -name '*.hlo' -o -name '*.txt' -o -name '*.log' \) -size -256k | while read -r f; do \
			cp "$$f" "$(FUZZ_SEEDS)/$$(echo "$$f" | tr '/' '_')"; done; \
	done; echo "  SEEDS   $$(ls $(FUZZ_SEEDS) | wc -l) files in $(FUZZ_SEEDS)"
	$(Q)for t in $(FUZZ_TARGETS); do \
		mkdir -p build/fuzz-corpus/$$t; \
		echo "  FUZZ    $$t for $(FUZZ_SECONDS) s"; \
		: "commands print diagnostics on every input: close the target's stdout and"; \
		: "stderr (libFuzzer keeps its own output and the sanitizers' reports)"; \
		fd_mask=1; case $$t in mem|check|annotate) fd_mask=3 ;; esac; \
		dict=-dict=$(FUZZ_HLO_DICT); [ -f tests/fuzz/$$t.dict ] && dict=-dict=tests/fuzz/$$t.dict; \
		build/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) -max_len=65536 -timeout=10 $$dict \
			-rss_limit_mb=4096 -print_final_stats=1 -close_fd_mask=$$fd_mask \
			-artifact_prefix=build/fuzz-crashes/$$t- \
			build/fuzz-corpus/$$t $(FUZZ_SEEDS) 2>build/fuzz-$$t.log || \
		{ tail -n 40 build/fuzz-$$t.log; \
		  echo "fuzz_$$t: crash saved in build/fuzz-crashes/ (reduce it and add it to tests/fuzz/crashers/)"; \
		  exit 1; }; \
		grep -aE '^stat::number_of_executed_units|^stat::peak_rss_mb' build/fuzz-$$t.log | \
			sed "s/^/  $$t /"; \
	done

# ---- Benchmark ---------------------------------------------------------------
# `make bench`: a table of parse, mem, check and annotate on a generated
# ~BENCH_MB module (best of BENCH_RUNS): MB/s, the time as a multiple of
# `wc -l`'s, peak RSS and peak anonymous memory as multiples of the file,
# each against its target (docs/bench.md); XLA's own parser when
# build/xla-venv exists.  A missed target fails the target after the table.
# `make bench-scale` times check on a 10x larger module against the first,
# the best of BENCH_RUNS runs each (one run against a best of three would
# weigh run-to-run noise against the larger input), taken in turns: small,
# large, small, ...  This VM's speed drifts over tens of seconds, and all the
# small runs before all the large ones compared them in different weather.
BENCH_CMDS ?= parse mem check annotate
BENCH_MB   ?= 100
BENCH_SEED ?= 1
BENCH_RUNS ?= 3
BENCH_FILE := build/bench/bench.hlo
BENCH_TOOL_CFLAGS := $(CSTD) -O2 -g $(WARN) $(WERROR)
# MIN_MBPS,MAX_RSS,MAX_ANON per command (0: no target).
BENCH_TARGET_parse    := 180,1.5,0.75
BENCH_TARGET_mem      := 0,1.5,0.75
BENCH_TARGET_check    := 250,1.5,0.75
BENCH_TARGET_annotate := 0,2,0
BENCH_XLA_FASTER      := 5
# oom over a job log of BENCH_MB MB: absl-prefixed training lines, then a
# real report (tests/oom/real).
BENCH_OOM_LOG      := build/bench/oom.log
BENCH_TARGET_oom   := 100,1.5,0.75

build/bench/genhlo: corpora/gen/genhlo.c | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(BENCH_TOOL_CFLAGS) -o $@ $<

build/bench/measure: corpora/gen/measure.c | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(BENCH_TOOL_CFLAGS) -o $@ $<

build/bench/params: FORCE
	@mkdir -p $(dir $@)
	@if [ x'$(BENCH_SEED) $(BENCH_MB)' != x"$$(cat $@ 2>/dev/null)" ]; then \
		echo '$(BENCH_SEED) $(BENCH_MB)' > $@; fi

$(BENCH_OOM_LOG): tests/oom/real/logs/tpu-full-v4-32.log build/bench/params
	@mkdir -p $(dir $@)
	@echo "  GEN     $@ ($(BENCH_MB) MB)"
	$(Q)awk -v mb=$(BENCH_MB) 'BEGIN { n = mb * 1000000 / 85; for (i = 0; i < n; i++) \
		printf "I1207 12:%02d:%02d.%06d 4242 train.py:42] step %d loss 1.2345 lr 3e-4 tok/s 123456\n", \
		i / 60000 % 60, i / 1000 % 60, i % 1000000, i }' >$@.tmp && cat $< >>$@.tmp && mv $@.tmp $@

$(BENCH_FILE): build/bench/genhlo build/bench/params
	@echo "  GEN     $@ ($(BENCH_MB) MB, seed $(BENCH_SEED))"
	$(Q)build/bench/genhlo -s $(BENCH_SEED) -m $(BENCH_MB) -o $@

BENCH_HEAD = printf '%s\n%-9s %7s %9s %7s %8s %8s\n' "$(BENCH_FILE), $$(du -m $(BENCH_FILE) | cut -f1) MiB:" \
	command MB/s "best of $(BENCH_RUNS)" "x wc" "RSS" "anon" ; \
	echo "(RSS and anon: peak, as multiples of the file; [targets: MB/s, RSS, anon])"

bench: all build/bench/measure $(BENCH_FILE) $(BENCH_OOM_LOG)
	$(Q)$(BENCH_HEAD)
	$(Q)build/bench/measure -r $(BENCH_RUNS) -o build/bench/wc.secs "wc -l" $(BENCH_FILE) wc -l $(BENCH_FILE)
	$(Q)st=0; base=$$(cat build/bench/wc.secs); \
	for c in $(BENCH_CMDS); do \
		t=$$(echo "$(BENCH_TARGET_parse) $(BENCH_TARGET_mem) $(BENCH_TARGET_check) $(BENCH_TARGET_annotate)" | \
		     awk -v c=$$c '{ n = split("parse mem check annotate", k, " "); for (i = 1; i <= n; i++) if (k[i] == c) print $$i }'); \
		build/bench/measure -r $(BENCH_RUNS) -b $$base -o build/bench/$$c.secs $${t:+-t $$t} \
			$$c $(BENCH_FILE) $(BUILD)/hlolint $$c $(BENCH_FILE) || st=1; \
	done; \
	build/bench/measure -r $(BENCH_RUNS) -b $$base -t $(BENCH_TARGET_oom) oom $(BENCH_OOM_LOG) \
		$(BUILD)/hlolint oom --no-config --exit-zero $(BENCH_OOM_LOG) || st=1; \
	if [ -x $(XLA_PY) ] && [ -f $(XLA_VENV)/.ok ]; then \
		build/bench/measure -r 1 -b $$base -o build/bench/xla.secs "XLA parser" $(BENCH_FILE) \
			$(XLA_PY) corpora/xla/xla_check.py time $(BENCH_FILE) 1 || st=1; \
		awk -v x=$$(cat build/bench/xla.secs) -v p=$$(cat build/bench/parse.secs) -v w=$(BENCH_XLA_FASTER) \
			'BEGIN { r = x / p; printf "parse is %.1fx faster than XLA'"'"'s parser: target >=%dx %s\n", r, w, \
			         (r >= w ? "ok" : "MISSED"); exit r < w }' || st=1; \
	else echo "XLA parser: not timed (no $(XLA_VENV): make corpus-xla makes it)"; fi; \
	[ $$st = 0 ] || echo "bench: a target was missed (docs/bench.md)"; exit $$st

# The same generator at 10x the size: check's time must grow at most 10.5x.
BENCH_SCALE_FILE := build/bench/bench-scale.hlo
$(BENCH_SCALE_FILE): build/bench/genhlo
	@echo "  GEN     $@ ($$(($(BENCH_MB) * 10)) MB, seed $(BENCH_SEED))"
	$(Q)build/bench/genhlo -s $(BENCH_SEED) -m $$(($(BENCH_MB) * 10)) -o $@

bench-scale: all build/bench/measure $(BENCH_FILE) $(BENCH_SCALE_FILE)
	$(Q)$(subst best of $(BENCH_RUNS),one run,$(BENCH_HEAD))
	$(Q)rm -f build/bench/check.all build/bench/check-scale.all; \
	for i in $$(seq $(BENCH_RUNS)); do \
		build/bench/measure -r 1 -o build/bench/check.secs check $(BENCH_FILE) \
			$(BUILD)/hlolint check $(BENCH_FILE) && cat build/bench/check.secs >> build/bench/check.all && \
		build/bench/measure -r 1 -o build/bench/check-scale.secs check-10x $(BENCH_SCALE_FILE) \
			$(BUILD)/hlolint check $(BENCH_SCALE_FILE) && \
		cat build/bench/check-scale.secs >> build/bench/check-scale.all || exit 1; \
	done
	$(Q)HLO_TIMING=1 $(BUILD)/hlolint check $(BENCH_FILE) 2>build/bench/check.timing >/dev/null; \
	HLO_TIMING=1 $(BUILD)/hlolint check $(BENCH_SCALE_FILE) 2>build/bench/check-scale.timing >/dev/null; \
	echo "where the time goes (one more run of each, HLO_TIMING=1; ms):"; \
	awk 'FNR == 1 { f++ } /^hlolint: timing: / { s = substr($$0, 18, 24); sub(/ +$$/, "", s); \
		split(substr($$0, 42), v, " "); c = v[6] == "cpu" && v[1] >= 10 ? sprintf("%.2f", v[4] / v[1]) : ""; \
		if (f == 1) { a[s] = v[1]; ac[s] = c; o[++n] = s } else { b[s] = v[1]; bc[s] = c } } \
		END { printf "  %-24s %10s %10s %7s %7s %7s\n", "stage", "input", "10x", "ratio", "cores", "at 10x"; \
		      for (k = 1; k <= n; k++) printf "  %-24s %10.1f %10.1f %7.2f %7s %7s\n", o[k], a[o[k]], b[o[k]], \
		             (a[o[k]] > 0 ? b[o[k]] / a[o[k]] : 0), ac[o[k]], bc[o[k]] }' \
		build/bench/check.timing build/bench/check-scale.timing
	$(Q)awk 'FNR == 1 { f++ } f == 1 && (a == "" || $$1 < a) { a = $$1 } f == 2 && (b == "" || $$1 < b) { b = $$1 } \
		END { r = b / a; printf "best of %d each, in turns: %.3f s and %.3f s\n", FNR, a, b; \
		      print a > "build/bench/check.secs"; print b > "build/bench/check-scale.secs"; \
		      printf "check on 10x the input takes %.2fx the time: target <=10.5x %s\n", r, \
		         (r <= 10.5 ? "ok" : "MISSED"); exit r > 10.5 }' build/bench/check.all build/bench/check-scale.all

# `make bench-shapes`: check on modules of other shapes than the train step
# (genhlo -k: many small fused computations, untiled, long metadata, large
# constants, deep tuples) and on a real compile scaled up (corpora/xla's
# llama step for v5e, its computations copied to BENCH_MB), each against
# check's targets (docs/bench.md).
BENCH_SHAPES := small untiled meta constants tuples
BENCH_TARGET_shapes := 250,1.5,0
BENCH_REAL   := corpora/xla/out/llama/fit/tpu-v5e/after_optimizations.hlo.gz
build/bench/shape-%.hlo: build/bench/genhlo build/bench/params
	@echo "  GEN     $@ ($(BENCH_MB) MB, shape $*)"
	$(Q)build/bench/genhlo -s $(BENCH_SEED) -k $* -m $(BENCH_MB) -o $@ 2>/dev/null
# One module, as large real compiles are: the compile's computations copied
# with every %name suffixed .cN (uncalled, but parsed, verified and walked),
# then its own, the entry last; its frame tables stay at the top.
build/bench/real-scaled.hlo: $(BENCH_REAL) build/bench/params
	@echo "  GEN     $@ ($(BENCH_MB) MB of $(BENCH_REAL) in one module)"
	$(Q)gzip -dc $< >$@.one && e=$$(grep -n '^ENTRY ' $@.one | head -n 1 | cut -d: -f1) && \
		c=$$(grep -n '^%' $@.one | head -n 1 | cut -d: -f1) && \
		sed -n "$$c,$$((e - 1))p" $@.one >$@.comps && \
		n=$$(( $(BENCH_MB) * 1048576 / $$(wc -c <$@.comps) )) && \
		{ sed -n "1,$$((e - 1))p" $@.one; for i in $$(seq $$n); do \
			sed "s/%\([A-Za-z_][A-Za-z0-9_.-]*\)/%\1.c$$i/g" $@.comps; done; \
		  sed -n "$$e,\$$p" $@.one; } >$@.tmp && rm -f $@.one $@.comps && mv $@.tmp $@

bench-shapes: all build/bench/measure $(addprefix build/bench/shape-,$(addsuffix .hlo,$(BENCH_SHAPES))) \
		build/bench/real-scaled.hlo
	$(Q)printf '%-9s %7s %9s %7s %8s %8s\n' module MB/s "best of $(BENCH_RUNS)" "x wc" RSS anon; \
	st=0; for f in $(addprefix build/bench/shape-,$(addsuffix .hlo,$(BENCH_SHAPES))) build/bench/real-scaled.hlo; do \
		n=$$(basename $$f .hlo); n=$${n#shape-}; \
		build/bench/measure -r $(BENCH_RUNS) -o build/bench/wc-$$n.secs "wc -l" $$f wc -l $$f >/dev/null; \
		build/bench/measure -r $(BENCH_RUNS) -b $$(cat build/bench/wc-$$n.secs) -t $(BENCH_TARGET_shapes) \
			$$n $$f $(BUILD)/hlolint check --no-config $$f || st=1; \
	done; [ $$st = 0 ] || echo "bench-shapes: a target was missed (docs/bench.md)"; exit $$st

# `make man`: the man page is generated from the option tables (help.c);
# tests/cli/test_help.sh fails when docs/hlolint.1 is not what it prints.
man: $(BUILD)/hlolint
	$(Q)$(BUILD)/hlolint help --man >docs/hlolint.1.tmp && mv docs/hlolint.1.tmp docs/hlolint.1

# ---- Ground truth from the real compiler (corpora/xla) ----------------------
# `make corpus-xla` makes a virtual environment with the pinned JAX, jaxlib
# and libtpu of corpora/xla/requirements.txt and recompiles every program x
# target into corpora/xla/out (see docs/fidelity.md).  The tests that read
# the stored results (tests/xla/) need none of this.
XLA_VENV := build/xla-venv
XLA_PY   := $(XLA_VENV)/bin/python

$(XLA_VENV)/.ok: corpora/xla/requirements.txt
	@echo "  VENV    $(XLA_VENV) (corpora/xla/requirements.txt)"
	$(Q)python3 -m venv $(XLA_VENV) && \
		$(XLA_PY) -m pip install -q -r corpora/xla/requirements.txt >build/xla-venv.log 2>&1 || \
		{ tail -n 5 build/xla-venv.log; echo "hlolint: cannot make $(XLA_VENV) (see build/xla-venv.log)"; exit 1; }
	@touch $@

corpus-xla: $(XLA_VENV)/.ok
	$(Q)$(XLA_PY) corpora/xla/gen.py $(GEN_ARGS)

# `make check-xla`: XLA itself judges hlolint's outputs (tests/xla/live/).
# Without the package index the environment cannot be made: one line says
# so and the target succeeds (CI goes on).
check-xla: all
	$(Q)if ! $(MAKE) --no-print-directory $(XLA_VENV)/.ok >build/check-xla-venv.log 2>&1; then \
		echo "check-xla: skipped: cannot install corpora/xla/requirements.txt ($$(tail -n 1 build/xla-venv.log 2>/dev/null))"; \
		exit 0; fi; \
	pass=0; fail=0; for t in tests/xla/live/check_*.sh; do \
		if HLOLINT=$(BUILD)/hlolint XLA_PY=$(XLA_PY) sh $$t >build/check-xla.out 2>&1; then \
			pass=$$((pass + 1)); echo "[PASS] $$t"; else fail=$$((fail + 1)); echo "[FAIL] $$t"; fi; \
		sed 's/^/    /' build/check-xla.out; \
	done; echo "check-xla: $$pass passed, $$fail failed"; [ $$fail -eq 0 ]

# ---- Demo --------------------------------------------------------------------
# The out-of-memory story on a real compile (corpora/xla scan_offload/oom:
# XLA:TPU could not fit it on a tpu-v5e, 17.25G of 15.75G): oom points at
# the culprit, check explains it, annotate --apply fixes it, mem shows it
# fits.  A step fails the demo only on exit status 2 or more (1 = findings
# is expected).  --hbm 15.75G is the limit the compiler's message gives.
DEMO_OOM := corpora/xla/out/scan_offload/oom/tpu-v5e
DEMO_OPTS := --no-config --target tpu-v5e --hbm 15.75G
DEMO_BIN ?= $(BUILD)/hlolint
demo_run = @echo '$$ build/hlolint $(2)'; $(DEMO_BIN) $(2) >build/demo/$(1).txt 2>&1; st=$$?; \
	cat build/demo/$(1).txt; echo "(exit $$st)"; echo; [ $$st -lt 2 ]

# The closing lines name only what the steps printed: each is read back
# from their saved output (build/demo/*.txt).
demo: all
	@mkdir -p build/demo
	$(call demo_run,1-oom,oom $(DEMO_OOM)/error.txt $(DEMO_OOM))
	$(call demo_run,2-check,check $(DEMO_OPTS) $(DEMO_OOM))
	$(call demo_run,3-annotate,annotate $(DEMO_OPTS) --apply $(DEMO_OOM) -o build/demo/fixed.hlo)
	@echo '$$ grep -m 3 "^// hlolint" build/demo/fixed.hlo'; grep -m 3 '^// hlolint' build/demo/fixed.hlo; echo
	$(call demo_run,4-mem,mem --target tpu-v5e --hbm 15.75G --top 3 build/demo/fixed.hlo)
	@o=build/demo; \
	said() { sed -n "s/^[^ ]*: [a-z]*: \($$1\)/\1/p" $$o/$$2.txt | head -n 1 | sed 's/ \[[a-z-]*\]$$//'; }; \
	rules=$$(sed -n 's/^[^ ]*:[0-9:]* [a-z]*: .* \[\([a-z-]*\)\]$$/\1/p' $$o/2-check.txt | awk '!s[$$0]++' | \
		paste -sd, - | sed 's/,/, /g'); \
	echo "What you just saw, step by step:"; \
	echo "- oom read the compiler's message:"; \
	echo "  $$(said 'XLA:TPU compile ran out of hbm: .*' 1-oom),"; \
	echo "  and put its largest allocation at its instruction:"; \
	echo "  $$(said 'allocation 1 (XLA): .*' 1-oom)."; \
	echo "- check said why and what to change, rule by rule:"; \
	echo "  $$rules."; \
	echo "- annotate --apply $$(sed -n 's|^// hlolint: --apply \(made .*\)$$|\1|p' build/demo/fixed.hlo);"; \
	echo "  $$(sed -n 's|^// hlolint: \(estimated memory per device: .*\)$$|\1|p' build/demo/fixed.hlo)."; \
	echo "- mem on the result: $$(sed -n 's/^\(Total hbm allocation .* hbm\) (.*/\1/p' $$o/4-mem.txt | head -n 1)."; \
	echo "build/demo/fixed.hlo is the annotated module; each finding's 'fix in JAX' note says what to"; \
	echo "change in the program."

# ---- Install --------------------------------------------------------------
# make install [PREFIX=/usr/local] [DESTDIR=...]: the binary, the man page
# (one section per command) and the documents SARIF's helpUri points at.
install: all
	$(Q)install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 \
		$(DESTDIR)$(DOCDIR)/docs/rules
	$(Q)install -m 755 $(BUILD)/hlolint $(DESTDIR)$(PREFIX)/bin/hlolint
	$(Q)install -m 644 docs/hlolint.1 $(DESTDIR)$(PREFIX)/share/man/man1/hlolint.1
	$(Q)install -m 644 README.md $(DESTDIR)$(DOCDIR)/README.md
	$(Q)install -m 644 docs/*.md $(DESTDIR)$(DOCDIR)/docs/
	$(Q)install -m 644 docs/rules/*.md $(DESTDIR)$(DOCDIR)/docs/rules/
	@echo "  INSTALL $(DESTDIR)$(PREFIX)/bin/hlolint, man page, documents in $(DESTDIR)$(DOCDIR)"

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/hlolint $(DESTDIR)$(PREFIX)/share/man/man1/hlolint.1
	rm -rf $(DESTDIR)$(DOCDIR)

clean:
	rm -rf build

-include $(DEPS)
-include $(UNIT_OBJ:.o=.d) $(BUILD)/tests/fuzz/replay.d $(BUILD)/tests/fuzz/fuzz_cmd.d \
	$(addprefix $(BUILD)/tests/fuzz/fuzz_,$(addsuffix .d,$(FUZZ_TARGETS)))
