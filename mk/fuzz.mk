# make fuzz: the libFuzzer harnesses of tests/fuzz/, built with clang under
# ASan and UBSan into build-fuzz/ (the library compiled again there, with
# fuzzer coverage; never mixed with the gcc build), each run for FUZZ_TIME
# seconds on a copy of its seed corpus tests/fuzz/corpus/NAME/. A crash,
# leak, timeout or OOM fails it and leaves the input in
# build-fuzz/crashes/NAME/ (docs/testing.md says how to reproduce one).

FUZZ_CC ?= clang
FUZZ_TIME ?= 10
FUZZ_BUILD := build-fuzz
FUZZ_NAMES := opts jobfile topo compare stream
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=undefined \
	-fno-omit-frame-pointer
# the build's own flags (the Makefile's REQ_*), not the builder's CFLAGS,
# which are for the compiler of the main build and may not suit clang
FUZZ_CFLAGS := -O1 -g $(REQ_CPPFLAGS) $(REQ_CFLAGS) $(FUZZ_SAN)
FUZZ_LIB_OBJ := $(patsubst %.c,$(FUZZ_BUILD)/%.o,$(LIB_SRC))
FUZZ_LIB := $(FUZZ_BUILD)/libiostorm.a
FUZZ_COMMON := $(FUZZ_BUILD)/tests/fuzz/fuzz_common.o
FUZZ_BIN := $(FUZZ_NAMES:%=$(FUZZ_BUILD)/fuzz_%)

.PHONY: fuzz fuzz-build

# library and harness objects alike: coverage for libFuzzer, no main
$(FUZZ_BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<

$(FUZZ_LIB): $(FUZZ_LIB_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

$(FUZZ_BIN): $(FUZZ_BUILD)/fuzz_%: $(FUZZ_BUILD)/tests/fuzz/fuzz_%.o $(FUZZ_COMMON) $(FUZZ_LIB)
	$(FUZZ_CC) -fsanitize=fuzzer $(FUZZ_SAN) -o $@ $^ $(LDLIBS)

fuzz-build: $(FUZZ_BIN)

fuzz: $(FUZZ_BIN)
	FUZZ_TIME=$(FUZZ_TIME) tests/fuzz/run.sh $(FUZZ_BUILD) $(FUZZ_NAMES)

-include $(FUZZ_LIB_OBJ:.o=.d) $(FUZZ_COMMON:.o=.d) \
	$(FUZZ_NAMES:%=$(FUZZ_BUILD)/tests/fuzz/fuzz_%.d)
