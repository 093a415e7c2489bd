#!/bin/bash
# The newer io_uring waits (docs/engine.md, "Waits"): the setup record says
# what this kernel offers; --reap-wait is refused with the reason and exit
# 2 where the kernel has no minimum wait, and refused when not whole
# microseconds; where it has one, a wait for --reap completions ends
# before they have all come (fewer IOs per call on a loop device, whose
# completions come one at a time), and the waiting enters carry the
# extended argument; --no-iowait puts IORING_ENTER_NO_IOWAIT (0x80) on
# them only where the kernel has it, and nothing of either without the
# options.
. "$(dirname "$0")/lib.sh"

need_iostorm
need_cmd jq

expect_error "--reap-wait below a microsecond" 2 '--reap-wait: .1500ns. is not whole microseconds' \
	run --reap-wait 1500ns /dev/null
expect_error "--reap-wait 0" 2 '--reap-wait: .0. is below 1us, the least it takes' run --reap-wait 0 /dev/null
# a bound on an interrupt-driven wait: refused where no such wait is made
expect_error "--reap-wait with libaio" 2 '--reap-wait bounds an io_uring wait for interrupts: not with --engine libaio' \
	run --reap-wait 20us --engine libaio /dev/null
expect_error "--reap-wait polled" 2 'not with --completion poll' run --reap-wait 20us --completion poll /dev/null

make_data_file f 8
expect_ok "the setup record" run -q --ios 2000 --ramp 0 --json "$T_DIR/rec.json" --buffered "$f" ||
	t_done
jq -e '.setup.machine.io_uring | (keys == ["min_wait", "no_iowait", "reg_wait"])
	and all(.[]; type == "boolean")' "$T_DIR/rec.json" >/dev/null ||
	check_fail "setup.machine.io_uring: $(jq -c .setup.machine.io_uring "$T_DIR/rec.json")"
has() { jq -e ".setup.machine.io_uring.$1" "$T_DIR/rec.json" >/dev/null; }
# where mainline has each (a distribution's backport may add one earlier,
# never take one away): 6.12 min_wait, 6.13 reg_wait, 6.15 no_iowait
IFS=. read -r kmaj kmin _ < <(uname -r)
kv=$((kmaj * 1000 + ${kmin%%[!0-9]*}))
for f in 6012:min_wait 6013:reg_wait 6015:no_iowait; do
	[ "$kv" -lt "${f%%:*}" ] || has "${f#*:}" ||
		check_fail "setup.machine.io_uring.${f#*:} is false on $(uname -r)"
done

if ! has min_wait; then
	expect_error "--reap-wait without IORING_FEAT_MIN_TIMEOUT" 2 \
		'--reap-wait: this kernel.s io_uring has no minimum wait \(IORING_FEAT_MIN_TIMEOUT, Linux 6\.12\)' \
		run --reap-wait 20us "$f"
	t_done
fi

make_loop dev 64
q="-q --qd 32 --batch 32 --reap 32 --ios 20000 --ramp 0"
expect_ok "--reap 32" run $q --json "$T_DIR/plain.json" "$dev" &&
	expect_ok "--reap 32 --reap-wait 1us" run $q --reap-wait 1us --json "$T_DIR/bound.json" "$dev" || t_done
jq -e '.config.reap_wait_us == 1 and .config.no_iowait == false' "$T_DIR/bound.json" >/dev/null ||
	check_fail "config: $(jq -c '.config | {reap_wait_us, no_iowait}' "$T_DIR/bound.json")"
a=$(jq '.total.ios_per_call' "$T_DIR/plain.json")
b=$(jq '.total.ios_per_call' "$T_DIR/bound.json")
# a loop device completes one IO at a time in its worker: 32 never come
# within a microsecond of the wait's start
awk -v a="$a" -v b="$b" 'BEGIN { exit !(b < 0.9 * a) }' ||
	check_fail "--reap-wait 1us: $b IOs per call, --reap 32 alone $a: the bound was not used"

command -v strace >/dev/null 2>&1 || skip "no strace to see the enter flags"
# LeakSanitizer stops a traced process (it uses ptrace itself): off under strace
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
strace -f -qq -o /dev/null "$IOSTORM" --version >/dev/null 2>&1 ||
	skip "strace cannot trace iostorm here"
# enters ARGS...: the flags and argument size of every waiting enter
# (min_complete > 0) of iostorm ARGS, one a line, counted
enters() {
	strace -f -qq -e trace=io_uring_enter -o "$T_DIR/strace" "$IOSTORM" "$@" >/dev/null 2>&1 ||
		echo "iostorm under strace failed: $?"
	sed -n 's/.*io_uring_enter([0-9]*, [0-9]*, [1-9][0-9]*, \([^,]*\), [^,]*, \([0-9]*\)).*/\1 \2/p' \
		"$T_DIR/strace" | sort | uniq -c
}
q="-q --qd 8 --batch 8 --reap 8 --ios 400 --ramp 0"
w=$(enters run $q "$dev")
[ -n "$w" ] || check_fail "no waiting enter seen in $(head -3 "$T_DIR/strace")"
! grep -Eq 'EXT_ARG|NO_IOWAIT|0x80' <<<"$w" ||
	check_fail "without the options the waits carry: $w"
w=$(enters run $q --reap-wait 20us --no-iowait "$dev")
grep -Eq 'EXT_ARG.* 24$' <<<"$w" || check_fail "--reap-wait: no extended argument on the waits: $w"
if has no_iowait; then
	! grep -Ev 'NO_IOWAIT|0x80' <<<"$w" | grep -q . ||
		check_fail "--no-iowait: a wait without IORING_ENTER_NO_IOWAIT: $w"
else
	! grep -Eq 'NO_IOWAIT|0x80' <<<"$w" ||
		check_fail "--no-iowait on a kernel without it: the flag was passed: $w"
fi
t_done
