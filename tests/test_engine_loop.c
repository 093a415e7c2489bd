/* The engine run checks of test_engine_run.c on loop devices over /dev/shm
 * files; skips where losetup is not allowed. */
#define TU_LOOP 1
#include "tests/test_engine_run.c"
