#!/bin/bash
# The libaio fallback is said exactly once per process: with several
# devices and workers (run), and across the steps of a command that starts
# several runs (sweep, saturate), each of which falls back again. io_uring
# is refused to iostorm alone by tests/nouring.c (a seccomp filter: EPERM
# from io_uring_setup, as kernel.io_uring_disabled gives), built here, so
# tests running beside this one keep io_uring.
. "$(dirname "$0")/lib.sh"

need_iostorm
need_cmd jq
cc=${CC:-cc}
command -v "$cc" >/dev/null 2>&1 || skip "no C compiler ($cc) to build tests/nouring.c"
"$cc" -std=c11 -D_GNU_SOURCE -O2 -o "$T_DIR/nouring" "${IOSTORM_SRC:-.}/tests/nouring.c" ||
	fail "building tests/nouring.c"
nouring=$T_DIR/nouring
"$nouring" true >"$T_DIR/probe" 2>&1
rc=$?
[ "$rc" -eq 77 ] && skip "$(tail -n 1 "$T_DIR/probe")"
[ "$rc" -eq 0 ] || fail "nouring true exited $rc: $(cat "$T_DIR/probe")"

make_data_file a 8
make_data_file b 8
fallback='^iostorm [a-z]+: io_uring unavailable \(Operation not permitted\): using libaio$'

# run_nouring ARGS...: iostorm ARGS without io_uring; like run_iostorm.
run_nouring() {
	timeout -k 5 "$T_RUN_GUARD" "$nouring" "$IOSTORM" "$@" >"$T_OUT" 2>"$T_ERR" </dev/null
	T_RC=$?
}

# said_once WHAT: the last command exited 0 and said the fallback once.
said_once() {
	local n
	n=$(grep -Ec "$fallback" "$T_ERR")
	if [ "$T_RC" -ne 0 ]; then
		check_fail "$1: exit $T_RC, want 0"
		show_output
	elif [ "$n" -ne 1 ]; then
		check_fail "$1: the fallback said $n times, want 1"
		show_output
	fi
}

# 2 devices x 2 workers: four workers fell back, one line
run_nouring run --ios 400 --jobs-per-device 2 -q --json "$T_DIR/run.json" "$a" "$b"
said_once "run, 2 devices x 2 workers"
jq -e '.config.engine_used == "libaio" and (.devices | length == 2)
	and all(.devices[]; .engine == "libaio" and .ios == 400 and (.cpus | length == 2))' \
	"$T_DIR/run.json" >/dev/null ||
	check_fail "run: the JSON does not say libaio on every device, 400 IOs each"

# every depth of a sweep is a run of its own that falls back again
run_nouring sweep --qd 1,2,4 --ios 200 --jobs-per-device 2 -q "$a" "$b"
said_once "sweep over 3 depths, 2 devices x 2 workers"

# saturate: solo and all-at-once steps at QD1 and QD128
run_nouring saturate --ios 200 --jobs-per-device 2 -q "$a" "$b"
said_once "saturate, 2 devices x 2 workers"

# an explicit io_uring has nowhere to fall back to: a runtime failure,
# said once (for the first of four workers), with the way out
run_nouring run --engine io_uring --ios 100 --jobs-per-device 2 -q "$a" "$b"
n=$(grep -Ec 'io_uring_setup failed: Operation not permitted .*--engine libaio' "$T_ERR")
if [ "$T_RC" -ne 1 ] || [ "$n" -ne 1 ] || [ -s "$T_OUT" ] || grep -q 'using libaio' "$T_ERR"; then
	check_fail "--engine io_uring without io_uring: exit $T_RC and $n failure lines, want 1 and 1, no fallback"
	show_output
fi

# with io_uring there, nothing is said
run_iostorm run --ios 200 --jobs-per-device 2 -q --json "$T_DIR/ok.json" "$a" "$b"
if [ "$T_RC" -ne 0 ]; then
	check_fail "run with io_uring: exit $T_RC"
	show_output
elif [ "$(jq -r .config.engine_used "$T_DIR/ok.json")" = io_uring ] &&
	grep -q 'using libaio' "$T_ERR"; then
	check_fail "run with io_uring: the fallback said though io_uring was used"
	show_output
fi

t_done
