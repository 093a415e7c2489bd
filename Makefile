# iostorm: `make` builds ./iostorm, `make check` runs every test, `make
# vmcheck` the emulated-NVMe suite (QEMU, tests/vm/), `make mpi` builds
# ./iostorm-mpi with Open MPI and `make mpicheck` runs its tests.
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

.PHONY: all check vmcheck bench clean mpi mpicheck
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

# iostorm-mpi (docs/mpi.md): the same library and the thin MPI layer of
# mpi/, compiled with mpicc or pkg-config ompi-c; nothing else needs MPI
MPI_SRC := $(wildcard mpi/*.c)
MPI_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(MPI_SRC))
MPI_BIN ?= $(if $(SANITIZE),$(BUILD)/iostorm-mpi,iostorm-mpi)
MPICC ?= $(shell command -v mpicc 2>/dev/null)
MPI_CFLAGS = $(if $(MPICC),,$(shell $(PKG_CONFIG) --cflags ompi-c 2>/dev/null))
MPI_LIBS = $(if $(MPICC),,$(shell $(PKG_CONFIG) --libs ompi-c 2>/dev/null))
MPI_HAVE = $(or $(MPICC),$(MPI_LIBS))

mpi: $(MPI_BIN)

$(BUILD)/mpi/%.o: mpi/%.c
	@[ -n "$(MPI_HAVE)" ] || { echo "make mpi: no Open MPI (mpicc or pkg-config ompi-c): apt-get install libopenmpi-dev openmpi-bin" >&2; exit 1; }
	@mkdir -p $(dir $@)
	$(or $(MPICC),$(CC)) $(CFLAGS) $(MPI_CFLAGS) -c -o $@ $<

$(MPI_BIN): $(MPI_OBJ) $(LIB)
	$(or $(MPICC),$(CC)) $(LDFLAGS) -o $@ $^ $(LDLIBS) $(MPI_LIBS)

mpicheck: $(MPI_BIN) $(BIN) $(TEST_BIN)
	IOSTORM=$(abspath $(BIN)) IOSTORM_MPI=$(abspath $(MPI_BIN)) \
		TESTBIN=$(abspath $(BUILD)/tests) SANITIZE=$(SANITIZE) tests/run.sh t_mpi

bench: $(BIN)
	IOSTORM=$(abspath $(BIN)) bench/run.sh

clean:
	rm -rf build build-* iostorm iostorm-mpi

-include $(LIB_OBJ:.o=.d) $(BUILD)/cli/main.d $(TEST_BIN:=.d) $(MPI_OBJ:.o=.d)
