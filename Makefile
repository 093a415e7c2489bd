# iostorm: `make` builds ./iostorm, `make check` runs every test, `make
# vmcheck` the emulated-NVMe suite (QEMU, tests/vm/), `make fuzz` the
# libFuzzer harnesses for FUZZ_TIME seconds each (clang; mk/fuzz.mk).
# SANITIZE=address,undefined or SANITIZE=thread builds into its own folder.
# WERROR=1 turns warnings into errors (CI does).

comma := ,
SANITIZE ?=
BUILD ?= build$(if $(SANITIZE),-$(subst $(comma),-,$(SANITIZE)))
BIN ?= $(if $(SANITIZE),$(BUILD)/iostorm,iostorm)
CC ?= cc
PKG_CONFIG ?= pkg-config
PKGS := liburing hwloc jansson inih

WARN := -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes \
	-Wmissing-prototypes -Wformat=2 -Wundef -Wvla
CFLAGS ?= -O2 -g
CFLAGS += -std=c11 -D_GNU_SOURCE $(WARN) -pthread -MMD -MP -I.
CFLAGS += $(shell $(PKG_CONFIG) --cflags $(PKGS))
ifneq ($(WERROR),)
CFLAGS += -Werror
endif
LDLIBS += $(shell $(PKG_CONFIG) --libs $(PKGS)) -laio -lpthread -lm
ifneq ($(SANITIZE),)
CFLAGS += -fsanitize=$(SANITIZE) -fno-omit-frame-pointer
LDFLAGS += -fsanitize=$(SANITIZE)
endif

LIB_SRC := $(wildcard engine/*.c) $(wildcard topo/*.c) $(wildcard model/*.c) \
	$(filter-out cli/main.c,$(wildcard cli/*.c))
LIB_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(LIB_SRC))
TEST_SRC := $(wildcard tests/test_*.c)
TEST_BIN := $(patsubst tests/%.c,$(BUILD)/tests/%,$(TEST_SRC))
LIB := $(BUILD)/libiostorm.a
# the fault-injecting FUSE file system the fault tests mount; without
# libfuse3 those tests skip
HAVE_FUSE3 := $(shell $(PKG_CONFIG) --exists fuse3 && echo yes)
FUSEFAULT := $(if $(HAVE_FUSE3),$(BUILD)/tests/fusefault)

.PHONY: all check vmcheck bench clean
# test objects are not intermediate: keep them, so a rebuild relinks nothing
.SECONDARY:
all: $(BIN)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c -o $@ $<

$(LIB): $(LIB_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

$(BIN): $(BUILD)/cli/main.o $(LIB)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/tests/%: $(BUILD)/tests/%.o $(LIB)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# a test tool, not code under test: built without the sanitizers, whose
# leak report at exit would fail its daemon over libfuse's own allocations
$(BUILD)/tests/fusefault: tests/fusefault.c
	@mkdir -p $(dir $@)
	$(CC) $(filter-out -fsanitize=%,$(CFLAGS)) $(shell $(PKG_CONFIG) --cflags fuse3) \
		-o $@ $< $(shell $(PKG_CONFIG) --libs fuse3)

check: $(BIN) $(TEST_BIN) $(FUSEFAULT)
	IOSTORM=$(abspath $(BIN)) TESTBIN=$(abspath $(BUILD)/tests) \
		SANITIZE=$(SANITIZE) tests/run.sh

# the emulated-NVMe suite: QEMU guests on Debian's kernels (tests/vm/)
$(BUILD)/vm/placecheck: tests/vm/guest/placecheck.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $<

vmcheck: $(BIN) $(BUILD)/vm/placecheck
	IOSTORM=$(abspath $(BIN)) PLACECHECK=$(abspath $(BUILD)/vm/placecheck) \
		T_SCRIPTS=tests/vm TEST_TIMEOUT=900 tests/run.sh

bench: $(BIN)
	IOSTORM=$(abspath $(BIN)) bench/run.sh

# build-* includes build-fuzz/ (mk/fuzz.mk)
clean:
	rm -rf build build-* iostorm

include mk/fuzz.mk

-include $(LIB_OBJ:.o=.d) $(BUILD)/cli/main.d $(TEST_BIN:=.d)
