# Targets are only ever read: a data file in /var/tmp and
# a loop device over /dev/shm keep their exact bytes through run, saturate,
# sweep and latency, through each of them interrupted by SIGINT, and through
# --json naming a target (refused); a loop device made read-only by losetup
# serves every command (a write open would fail there).
. "$(dirname "$0")/lib.sh"
need_iostorm
need_cmd sha256sum
need_root "loop devices"

make_data_file f 32
make_loop l 32
targets=("$f" "$l")
q=(-q --time 300ms --ramp 0)
sum_all() { sha256sum "$@" | awk '{ print $1 }'; }
want=$(sum_all "${targets[@]}")

# same WHAT: every target still holds the bytes it had at the start
same() {
	[ "$(sum_all "${targets[@]}")" = "$want" ] || check_fail "$1: a target changed"
}

expect_ok run run "${q[@]}" "${targets[@]}"
same run
expect_ok "run, libaio, buffered" run "${q[@]}" --engine libaio --buffered "${targets[@]}"
same "run, libaio, buffered"
expect_ok "run, sqpoll" run "${q[@]}" --completion sqpoll "${targets[@]}"
same "run, sqpoll"
expect_ok saturate saturate --time 200ms --ramp 0 -q --qd 8 "${targets[@]}"
same saturate
expect_ok sweep sweep "${q[@]}" --qd 1,8 "${targets[@]}"
same sweep
for t in "${targets[@]}"; do
	expect_ok "latency $t" latency --time 1s --ramp 0 "$t"
	same "latency $t"
done

# interrupt ARGS...: iostorm ARGS... gets one SIGINT, to its pid alone,
# once the loop device's read count has moved (with no ramp, it is then
# measuring), not after a guessed sleep; exit status in T_RC
interrupt() {
	local before pid
	before=$(dev_reads "$l")
	"$IOSTORM" "$@" >"$T_OUT" 2>"$T_ERR" </dev/null &
	pid=$!
	await_reads "$l" "$before" "$pid" 300
	kill -s INT "$pid" 2>/dev/null
	reap_within "$pid" 600
}

# interrupted: SIGINT mid-measurement; the loop device first, so that
# saturate, which measures each device alone first, reads it at once
for cmd in run saturate sweep; do
	interrupt "$cmd" -q --time 30s --ramp 0 "$l" "$f"
	[ "$T_RC" -eq 0 ] || { check_fail "$cmd, SIGINT: exit $T_RC"; show_output; }
	same "$cmd, SIGINT"
done
interrupt latency --time 30s --ramp 0 "$l"
[ "$T_RC" -eq 0 ] || { check_fail "latency, SIGINT: exit $T_RC"; show_output; }
same "latency, SIGINT"

# --json onto a target would overwrite the device or replace the file
expect_error "--json is the device" 2 ": is the target $l, which is only read, never written" run "${q[@]}" --json "$l" "${targets[@]}"
expect_error "--json is the file" 2 ": is the target $f, which is only read, never written" run "${q[@]}" --json "$f" "$f"
# beside the file: a hard link cannot leave its file system (/tmp may be tmpfs)
T_FILES+=("$f.hard")
ln "$f" "$f.hard" || fail "cannot hard-link $f"
expect_error "--json is the file, linked" 2 ": is the target $f, which is only read, never written" \
	sweep "${q[@]}" --json "$f.hard" "$f"
same "--json naming a target"

# a read-only loop device: any open for writing would fail with EROFS
ro=$(losetup -f --show --read-only --direct-io=on "${T_FILES[-1]}" 2>/dev/null) ||
	ro=$(losetup -f --show --read-only "${T_FILES[-1]}" 2>/dev/null) ||
	fail "losetup --read-only refused"
T_LOOPS+=("$ro")
[ "$(blockdev --getro "$ro")" = 1 ] || fail "$ro is not read-only"
expect_ok "read-only: run" run "${q[@]}" "$ro"
expect_ok "read-only: run, libaio" run "${q[@]}" --engine libaio "$ro"
expect_ok "read-only: saturate" saturate --time 200ms --ramp 0 -q --qd 8 "$ro"
expect_ok "read-only: sweep" sweep "${q[@]}" --qd 1,8 "$ro"
expect_ok "read-only: latency" latency --time 1s --ramp 0 "$ro"
same "read-only loop"
t_done
