# iostorm: `make` builds ./iostorm, `make check` runs every test, `make
# vmcheck` the emulated-NVMe suite (QEMU, tests/vm/), `make pictures` the
# pictures in docs/pictures/ (a real run, as root on loop devices), `make
# mpi` builds ./iostorm-mpi with Open MPI and `make mpicheck` runs its
# tests, `make fuzz` the libFuzzer harnesses for FUZZ_TIME seconds each
# (clang; mk/fuzz.mk).
# SANITIZE=address,undefined or SANITIZE=thread builds into its own folder.
# WERROR=1 turns warnings into errors (CI does).

comma := ,
SANITIZE ?=
BUILD ?= build$(if $(SANITIZE),-$(subst $(comma),-,$(SANITIZE)))
BIN ?= $(if $(SANITIZE),$(BUILD)/iostorm,iostorm)
CC ?= cc
PKG_CONFIG ?= pkg-config
PKGS := liburing hwloc jansson inih zlib blkid libmicrohttpd

WARN := -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes \
	-Wmissing-prototypes -Wformat=2 -Wundef -Wvla
# CPPFLAGS, CFLAGS (-O2 -g unless given) and LDFLAGS are the builder's
# (make CFLAGS=-O0, or dpkg-buildflags' through debian/rules). What the
# code needs to build at all is added to them with override, since a
# variable given on the command line would otherwise replace it: the
# project's include path before the builder's, our warnings after the
# builder's CFLAGS (dpkg's -Wformat would lower -Wformat=2), no -O of ours.
# Being override, a plain `CFLAGS += ...` further down would be ignored:
# add with `override`, or on one target's line (`TARGET: private LDFLAGS
# += ...`), which works.
CFLAGS ?= -O2 -g
REQ_CPPFLAGS := -D_GNU_SOURCE -I. $(shell $(PKG_CONFIG) --cflags $(PKGS))
REQ_CFLAGS := -std=c11 $(WARN) -pthread -MMD -MP $(if $(WERROR),-Werror)
override CPPFLAGS := $(REQ_CPPFLAGS) $(CPPFLAGS)
override CFLAGS += $(REQ_CFLAGS)
ifneq ($(SANITIZE),)
override CFLAGS += -fsanitize=$(SANITIZE) -fno-omit-frame-pointer
override LDFLAGS += -fsanitize=$(SANITIZE)
endif
LDLIBS += $(shell $(PKG_CONFIG) --libs $(PKGS)) -laio -lpthread -lm

LIB_SRC := $(wildcard engine/*.c) $(wildcard topo/*.c) $(wildcard setup/*.c) $(wildcard model/*.c) \
	$(filter-out cli/main.c,$(wildcard cli/*.c cli/*/*.c))
LIB_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(LIB_SRC))
TEST_SRC := $(wildcard tests/test_*.c)
TEST_BIN := $(patsubst tests/%.c,$(BUILD)/tests/%,$(TEST_SRC))
LIB := $(BUILD)/libiostorm.a
# the fault-injecting FUSE file system the fault tests mount; without
# libfuse3 those tests skip
HAVE_FUSE3 := $(shell $(PKG_CONFIG) --exists fuse3 && echo yes)
FUSEFAULT := $(if $(HAVE_FUSE3),$(BUILD)/tests/fusefault)

.PHONY: all check check-build vmcheck bench pictures clean mpi mpicheck
# test objects are not intermediate: keep them, so a rebuild relinks nothing
.SECONDARY:
all: $(BIN)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

$(LIB): $(LIB_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

$(BIN): $(BUILD)/cli/main.o $(LIB)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/tests/%: $(BUILD)/tests/%.o $(LIB)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# counts the allocator calls of the engine's workers (tests/test_engine_noalloc.c)
$(BUILD)/tests/test_engine_noalloc: private LDFLAGS += $(foreach f,malloc calloc \
	realloc aligned_alloc posix_memalign free,-Wl,--wrap=$(f))

# counts the endpoint's renderings (tests/test_prom_limits.c)
$(BUILD)/tests/test_prom_limits: private LDFLAGS += -Wl,--wrap=cli_prom_render

# a test tool, not code under test: built without the sanitizers, whose
# leak report at exit would fail its daemon over libfuse's own allocations
$(BUILD)/tests/fusefault: tests/fusefault.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(filter-out -fsanitize=%,$(CFLAGS)) $(shell $(PKG_CONFIG) --cflags fuse3) \
		$(filter-out -fsanitize=%,$(LDFLAGS)) -o $@ $< $(shell $(PKG_CONFIG) --libs fuse3)

# what check runs, built apart so that `make -j2 check-build` compiles it
# on every core (.ci/run: a sanitizer build alone took 10 minutes on one)
# while the tests themselves run from a plain `make check`
check-build: $(BIN) $(TEST_BIN) $(FUSEFAULT)

check: check-build
	IOSTORM=$(abspath $(BIN)) TESTBIN=$(abspath $(BUILD)/tests) \
		SANITIZE=$(SANITIZE) tests/run.sh

# the emulated-NVMe suite: QEMU guests on Debian's kernels (tests/vm/)
$(BUILD)/vm/placecheck: tests/vm/guest/placecheck.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $<

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
	$(or $(MPICC),$(CC)) $(CPPFLAGS) $(CFLAGS) $(MPI_CFLAGS) -c -o $@ $<

$(MPI_BIN): $(MPI_OBJ) $(LIB)
	$(or $(MPICC),$(CC)) $(LDFLAGS) -o $@ $^ $(LDLIBS) $(MPI_LIBS)

mpicheck: $(MPI_BIN) $(BIN) $(TEST_BIN)
	IOSTORM=$(abspath $(BIN)) IOSTORM_MPI=$(abspath $(MPI_BIN)) \
		TESTBIN=$(abspath $(BUILD)/tests) SANITIZE=$(SANITIZE) tests/run.sh t_mpi

bench: $(BIN)
	IOSTORM=$(abspath $(BIN)) bench/run.sh

# one picture of each kind from a real run (docs/pictures/make.sh)
pictures: $(BIN)
	IOSTORM=$(abspath $(BIN)) docs/pictures/make.sh

# build-* includes build-fuzz/ (mk/fuzz.mk)
clean:
	rm -rf build build-* iostorm iostorm-mpi

include mk/fuzz.mk
include mk/stampcheck.mk

-include $(LIB_OBJ:.o=.d) $(BUILD)/cli/main.d $(TEST_BIN:=.d) $(MPI_OBJ:.o=.d)

# ---- install, uninstall and the Debian package ----
# make install PREFIX=/usr DESTDIR=DIR puts the files under DIR/usr (what
# debian/rules does); the man page goes in uncompressed (dh_compress
# compresses it in the package).
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
DATADIR ?= $(PREFIX)/share
MANDIR ?= $(DATADIR)/man
BASHCOMPDIR ?= $(DATADIR)/bash-completion/completions
INSTALL ?= install
CONFIGS := $(wildcard configs/*.ini)

.PHONY: install uninstall deb debcheck
install: $(BIN)
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 \
		$(DESTDIR)$(DATADIR)/iostorm/configs $(DESTDIR)$(BASHCOMPDIR)
	$(INSTALL) -m 755 $(BIN) $(DESTDIR)$(BINDIR)/iostorm
	$(INSTALL) -m 644 docs/iostorm.1 $(DESTDIR)$(MANDIR)/man1/iostorm.1
	$(INSTALL) -m 644 $(CONFIGS) $(DESTDIR)$(DATADIR)/iostorm/configs
	$(INSTALL) -m 644 completion/iostorm.bash $(DESTDIR)$(BASHCOMPDIR)/iostorm

# removes what install put there, and the folders only iostorm uses
uninstall:
	rm -f $(DESTDIR)$(BINDIR)/iostorm $(DESTDIR)$(MANDIR)/man1/iostorm.1 \
		$(DESTDIR)$(BASHCOMPDIR)/iostorm \
		$(addprefix $(DESTDIR)$(DATADIR)/iostorm/configs/,$(notdir $(CONFIGS)))
	-rmdir $(DESTDIR)$(DATADIR)/iostorm/configs $(DESTDIR)$(DATADIR)/iostorm

# build/deb/: the .deb of the working tree's files (tests/deb/build.sh),
# checked by lintian; debcheck installs it in a fresh bookworm chroot
deb:
	tests/deb/build.sh build/deb

debcheck: deb
	tests/deb/chroot-check.sh build/deb/iostorm_*.deb
