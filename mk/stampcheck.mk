# tests/test_engine_stamps runs the stamp check (engine.h, struct
# eng_stampcheck): a per-IO stamped copy of the io_uring loop, held against
# the loop's own per-loop stamps. The check is compiled into this one test
# only: engine/uring.c a second time, with ENG_STAMP_CHECK, linked before
# the library, so the linker takes eng_uring_ops from this copy and never
# pulls the library's. The library, and ./iostorm, carry no trace of it.

STAMPCHECK_OBJ := $(BUILD)/stampcheck/engine/uring.o

$(STAMPCHECK_OBJ): engine/uring.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -DENG_STAMP_CHECK $(CFLAGS) -c -o $@ $<

# an explicit rule: make uses it instead of the Makefile's $(BUILD)/tests/%
$(BUILD)/tests/test_engine_stamps: $(BUILD)/tests/test_engine_stamps.o \
		$(STAMPCHECK_OBJ) $(LIB)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

-include $(STAMPCHECK_OBJ:.o=.d)
